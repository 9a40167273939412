"""The campaign's story for people: ``campaign report`` and the page's report tab.

:mod:`campaign.report.story` reads a campaign's log into a :class:`~campaign.report.story.Report` (its battles
and what happened between them, in the campaign's own calendar); :mod:`campaign.report.render` writes it as
Markdown or as printable HTML; :mod:`campaign.report.svg` draws its charts. Read side only: nothing is appended.
"""

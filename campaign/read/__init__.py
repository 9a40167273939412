"""The read side: what people read of a campaign, folded and worded from its log.

``views`` (status, roster, lists), ``log`` (the log's lines, paged), ``describe`` (a sentence for each event in the
reader's language), ``verify`` (verify's and audit's findings in words) and ``charts`` (series over the campaign's
time). Nothing here appends: the entry points (``campaign.cli``, ``campaign.server``) call these to answer a reader,
and the services below them to act.
"""

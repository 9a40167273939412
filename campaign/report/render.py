"""A campaign's story written out: Markdown (charts as embedded SVG images) or one printable HTML page (charts
inline), or the HTML's body alone for the page's report tab. Both from the same :class:`Report`."""

from __future__ import annotations

import base64
from collections.abc import Iterable
from html import escape

from campaign.i18n import N_, _, language, lazy
from campaign.read.describe import count, money, value
from campaign.report.story import Chapter, Chart, Report
from campaign.report.svg import chart_svg
from events.recorded import whole

ROSTER, CAREERS, DISPUTES = lazy("The roster at the end"), lazy("Careers"), lazy("Disputes, corrections and amendments")
CHARTS, TITLE = lazy("Charts"), lazy("{campaign} — campaign report")
NOTHING_DISPUTED = lazy("No roll was rerolled or corrected, and no command was amended, undone or rewound.")
PRINT_CSS = """
:root { color-scheme: light; }
body.report { font: 15px/1.5 Georgia, "Times New Roman", serif; color: #1b1b1b; background: #fff;
  max-width: 52rem; margin: 0 auto; padding: 1.2rem; }
.report h1 { font-size: 1.9rem; margin: 0 0 .2rem; }
.report h2 { font-size: 1.35rem; margin: 1.8rem 0 .4rem; border-bottom: 1px solid #bbb; }
.report h3 { font-size: 1.02rem; margin: 1rem 0 .2rem; font-family: system-ui, sans-serif; }
.report .subtitle, .report .when { color: #555; margin: 0 0 .6rem; }
.report .result { font-weight: bold; }
.report ul { margin: .2rem 0 .6rem 1.2rem; padding: 0; }
.report table { border-collapse: collapse; margin: .4rem 0 1rem; font: 13px/1.35 system-ui, sans-serif; }
.report th, .report td { border: 1px solid #ccc; padding: .2rem .45rem; text-align: left; vertical-align: top; }
.report th { background: #f1efe9; }
.report td.n { text-align: right; font-variant-numeric: tabular-nums; }
.report figure { margin: .8rem 0 1.2rem; break-inside: avoid; }
.report figure svg { width: 100%; height: auto; }
.report .hash { font: 12px monospace; color: #555; word-break: break-all; }
.report .scroll { overflow-x: auto; max-width: 100%; }
.report details { margin: .2rem 0 1rem; font: 13px/1.35 system-ui, sans-serif; }
.report summary { min-height: 44px; padding: .6rem 0; cursor: pointer; }
@media (max-width: 30rem) { body.report { padding: .6rem; font-size: 14px; } .report table { font-size: 12px; } }
@media print {
  @page { margin: 16mm 14mm; }
  body.report { max-width: none; padding: 0; font-size: 11pt; }
  .report h2 { break-before: auto; break-after: avoid; }
  .report section.battle { break-before: page; }
  .report section.battle:first-of-type { break-before: auto; }
  .report h3, .report li, .report tr { break-inside: avoid; break-after: avoid-page; }
  .report .no-print, .no-print, .report details { display: none; }
  body.report, .report { color: #000; background: #fff; }
  .report .subtitle, .report .when, .report .hash { color: #333; }
  .report .scroll { overflow: visible; }
  .report table { width: 100%; }
  .report thead { display: table-header-group; }
  .report th { background: #fff; border-bottom: 2px solid #000; }
  .report th, .report td { border-color: #777; }
  .report a { color: inherit; text-decoration: none; }
}
"""


def markdown(report: Report) -> str:
    """The report as Markdown; each chart an SVG image embedded in it (a data URI), so the file stands alone."""
    lines = [f"# {_md(report.name)}", "", f"*{_md(_subtitle(report))}*", ""]
    for chapter in report.chapters:
        lines += [f"## {_md(chapter.title)}", ""]
        when, sides, result = _intro(chapter)
        lines += [_md(line) for line in (when, sides) if line]
        lines += [f"**{_md(result)}**"] if result else []
        lines += [""] if when or result else []
        for section, items in _sections(chapter):
            lines += [f"### {_(section)}", "", *(f"- {_md(i)}" for i in items), ""]
    lines += [f"## {ROSTER}", ""]
    lines += _md_table(*_roster_table(report))
    if report.careers:
        lines += [f"## {CAREERS}", "", *(f"- {_md(c)}" for c in _career_lines(report)), ""]
    if report.treasury:
        lines += [f"## {_pay_heading(report)}", ""]
        lines += _md_table(*_treasury_table(report))
    lines += [f"## {DISPUTES}", ""]
    if report.disputes:
        lines += [f"- **{d.what}** ({_md(d.when)}): {_md(d.text)}" for d in report.disputes]
    else:
        lines.append(str(NOTHING_DISPUTED))
    lines.append("")
    if report.charts:
        lines += [f"## {CHARTS}", ""]
        for chart in report.charts:
            data = base64.b64encode(chart_svg(chart).encode()).decode()
            lines += [f"![{_md(chart.title)}](data:image/svg+xml;base64,{data})", ""]
            lines += _md_table(*_chart_rows(chart))  # the same series in words
    head = _("The log's head: {hash} ({verify} checks it).")
    lines += [head.format(hash=f"`{report.head_hash}`", verify="`campaign verify`") if report.head_hash else ""]
    return "\n".join(lines).rstrip() + "\n"


def html(report: Report) -> str:
    """The report as one HTML page, printable (its own print stylesheet), charts drawn inline."""
    return (
        f'<!doctype html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(TITLE.format(campaign=report.name))}</title>\n"
        f"<style>{PRINT_CSS}</style>\n</head>\n"
        f'<body class="report">\n{html_body(report)}\n</body>\n</html>\n'
    )


def html_body(report: Report) -> str:
    """The report's content as HTML (what the page's report tab shows inside its own layout)."""
    out = [
        '<article class="report">',
        f"<h1>{escape(report.name)}</h1>",
        f'<p class="subtitle">{escape(_subtitle(report))}</p>',
    ]
    for chapter in report.chapters:
        kind = "battle" if chapter.battle_id is not None else "interlude"
        out.append(f'<section class="{kind}">')
        out.append(f"<h2>{escape(chapter.title)}</h2>")
        when, sides, result = _intro(chapter)
        out += [f'<p class="when">{escape(line)}</p>' for line in (when, sides) if line]
        out += [f'<p class="result">{escape(result)}</p>'] if result else []
        for section, items in _sections(chapter):
            out.append(f"<h3>{escape(_(section))}</h3>")
            out.append("<ul>" + "".join(f"<li>{escape(i)}</li>" for i in items) + "</ul>")
        out.append("</section>")
    roster = str(ROSTER)
    out.append(f"<section><h2>{escape(roster)}</h2>")
    out.append(_html_table(*_roster_table(report), label=roster))
    out.append("</section>")
    if report.careers:
        out.append(f"<section><h2>{escape(str(CAREERS))}</h2><ul>")
        out += [f"<li>{escape(c)}</li>" for c in _career_lines(report)]
        out.append("</ul></section>")
    if report.treasury:
        out.append(f"<section><h2>{escape(_pay_heading(report))}</h2>")
        out.append(_html_table(*_treasury_table(report), label=_("Pay and treasury"), numeric=True))
        out.append("</section>")
    out.append(f"<section><h2>{escape(str(DISPUTES))}</h2>")
    if report.disputes:
        out.append("<ul>")
        out += [
            f"<li><strong>{escape(d.what)}</strong> ({escape(d.when)}): {escape(d.text)}</li>" for d in report.disputes
        ]
        out.append("</ul>")
    else:
        out.append(f"<p>{escape(str(NOTHING_DISPUTED))}</p>")
    out.append("</section>")
    if report.charts:
        out.append(f"<section><h2>{escape(str(CHARTS))}</h2>")
        out += [f"<figure>{chart_svg(c)}{chart_table(c)}</figure>" for c in report.charts]
        out.append("</section>")
    if report.head_hash:
        head = _("The log's head: {hash} ({verify} checks it).").format(hash=report.head_hash, verify="campaign verify")
        out.append(f'<p class="hash">{escape(head)}</p>')
    out.append("</article>")
    return "\n".join(out)


def chart_table(chart: Chart) -> str:
    """The chart's text alternative: its series as a table, a row per moment (named as the axis names it), under
    the chart in a ``<details>`` (open it to read; it needs no script)."""
    label = _("{chart}: the table").format(chart=chart.title)
    table = _html_table(*_chart_rows(chart), label=label, numeric=not chart.levels)
    return f"<details><summary>{escape(label)}</summary>{table}</details>"


def _chart_rows(chart: Chart) -> tuple[list[str], list[list[str]]]:
    def shown(v: int | None) -> str:
        if v is None:
            return ""
        return chart.levels[v - 1] if chart.levels and 1 <= v <= len(chart.levels) else money(v)

    headers = [_("when"), *(name for name, _values in chart.series)]
    return headers, [
        [label, *(shown(values[i]) for _name, values in chart.series)] for i, label in enumerate(chart.labels)
    ]


# -- what both formats say ------------------------------------------------------------------------------------


def _subtitle(report: Report) -> str:
    battles = report.battles
    span = ""
    days = [c for c in report.chapters if c.first or c.last]
    if days:
        first, last = days[0].first or days[0].last, days[-1].last
        span = _("{first} to {last}").format(first=first, last=last) if first != last else first
    said = f"{report.ruleset_title} · {count(len(battles), 'battles')}"
    return said + (f" · {span}" if span else "")


MONEY_WORDS = {"money": N_("money"), "campaign points": N_("campaign points")}
"""What each ruleset's treasury counts (``Ruleset.money_word``), for the catalogs."""


def _pay_heading(report: Report) -> str:
    return _("Pay and treasury ({money})").format(money=_(MONEY_WORDS.get(report.money_word, report.money_word)))


def _intro(chapter: Chapter) -> tuple[str, str, str]:
    """A chapter's opening, as plain text: when it was, its sides, its result (each empty where it has none)."""
    when = chapter.when.capitalize() + "." if chapter.when else ""
    if chapter.battle_id is None:
        return when, "", ""
    sides = _("Sides: {sides}.").format(sides=_(" against ").join(chapter.sides)) if chapter.sides else ""
    return when, sides, _("Result: {result}.").format(result=chapter.result or _("still being fought"))


def _sections(chapter: Chapter) -> Iterable[tuple[str, list[str]]]:
    from campaign.report.story import SECTIONS

    for section in (*SECTIONS, *(s for s in chapter.sections if s not in SECTIONS)):
        items = chapter.sections.get(section)
        if items:
            yield section, items


def _roster_table(report: Report) -> tuple[list[str], list[list[str]]]:
    from campaign.read.views import cell, heading

    columns = report.roster_columns  # each cell as the command line's and the page's rosters say it
    rows = [[cell(c, u.get(c), report.ruleset) for c in columns] for u in report.roster]
    return [heading(c) for c in columns], rows


def _treasury_table(report: Report) -> tuple[list[str], list[list[str]]]:
    ends = [c for c in report.chapters if c.battle_id is not None and c.result is not None]
    sides = sorted({s for c in report.chapters for s in c.treasury} | set(report.treasury))
    headers = [_("side"), *(_("after {battle}").format(battle=c.battle_name) for c in ends), _("now")]
    rows = [
        [side, *(money(c.treasury.get(side, 0)) for c in ends), money(report.treasury.get(side, 0))] for side in sides
    ]
    return headers, rows


def _career_lines(report: Report) -> list[str]:
    """Each career at the end, in words: "Lt Sharpe (British): 2 battles, Glory 2, rank Lieutenant"."""
    from campaign.i18n.terms import shown
    from campaign.read.describe import count
    from campaign.read.views import heading

    out = []
    for c in report.careers:
        said = []
        for key, v in c.items():
            if key in ("pc", "side") or v in (None, [], False):
                continue
            if key == "battles":
                said.append(count(len(v) if isinstance(v, list | tuple) else whole(v), "battles"))
            elif v is True:
                said.append(heading(key))
            elif isinstance(v, list | tuple):
                said.append(f"{heading(key)}: {', '.join(_cell(i) for i in v)}")
            elif key == "rank" and isinstance(v, str):  # the seed's rank names (its terms)
                said.append(f"{heading(key)} {shown(report.ruleset, 'rank', v)}")
            else:
                said.append(f"{heading(key)} {_cell(v)}")
        side = f" ({c['side']})" if c.get("side") else ""
        out.append(f"{c['pc']}{side}" + (f": {', '.join(said)}" if said else ""))
    return out


def _cell(v: object) -> str:
    if v is None or v is False or v == []:
        return ""
    if isinstance(v, int) and not isinstance(v, bool):
        return money(v)
    return value(v)


def _md(text: str) -> str:
    """Text as Markdown shows it literally (a name holding ``*`` or ``[`` is not markup)."""
    return "".join(f"\\{ch}" if ch in "\\`*[]<>#|" else ch for ch in text)


def _md_table(headers: list[str], rows: list[list[str]]) -> list[str]:
    if not rows:
        return [_("(none)"), ""]
    out = ["| " + " | ".join(_md(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(_md(c) for c in row) + " |" for row in rows]
    return [*out, ""]


def _html_table(headers: list[str], rows: list[list[str]], *, label: str, numeric: bool = False) -> str:
    """A table in a region of its own that scrolls sideways when it is wider than a phone (the page never does),
    named ``label`` and focusable so that a keyboard scrolls it too."""
    if not rows:
        return "<p>(none)</p>"
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{escape(c)}</td>' if numeric and i else f"<td>{escape(c)}</td>" for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return f'<div class="scroll" tabindex="0" role="region" aria-label="{escape(label)}">{table}</div>'

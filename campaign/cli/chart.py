"""``campaign chart``: a measure of the campaign over time, drawn to an SVG or PNG file or shown in the terminal.

The series come from :mod:`campaign.read.charts` (the log folded command by command); this module only draws them.
Matplotlib is imported here, inside the drawing function, with its file-only Agg backend: no other command pays
for loading it, and no display is needed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from campaign.cli.options import CampaignOpt, JsonOpt
from campaign.cli.output import Output, escape, handles_errors
from campaign.cli.session import resolved
from campaign.i18n import DEFAULT, N_, _, language, ngettext
from campaign.i18n.formats import number
from campaign.read.charts import MEASURES, Chart, chart
from events.errors import InvalidInputError, Words
from events.extras import need

FORMATS = (".svg", ".png")
BARS = "▁▂▃▄▅▆▇█"


def campaign_chart(campaign: str | None, measure: str, only: str | None) -> Chart:
    ledger, info = resolved(campaign)
    return chart(info.name, info.ruleset, ledger.store.read(info.campaign_id), measure, only)


def draw(found: Chart, path: Path) -> None:
    """The chart as a step line per series, one x position per step of the campaign, written to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    # Text as text (searchable, smaller), and ids from a fixed salt: the same campaign draws the same bytes.
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "campaign-ledger"}):
        _plot(found, path)


def _plot(found: Chart, path: Path) -> None:
    from matplotlib import pyplot

    xs = list(range(1, len(found.steps) + 1))
    figure, axes = pyplot.subplots(figsize=(max(6.0, 0.45 * len(xs) + 3), 4.5), layout="constrained")
    try:
        for series in found.series:
            ys = [float("nan") if v is None else v for v in series.values]
            axes.step(xs, ys, where="post", marker="o", markersize=3, label=series.name)
        axes.set_title(found.said)
        axes.set_ylabel(found.axis_said)
        axes.set_xticks(xs, axis_labels(found), rotation=60, ha="right", fontsize=7)
        axes.set_xlabel(_("in the campaign's calendar"))
        if found.levels:
            axes.set_yticks(range(1, len(found.levels) + 1), list(found.levels_said))
        axes.grid(True, alpha=0.3)
        axes.legend(fontsize=7, loc="best")
        figure.savefig(path, format=path.suffix[1:].lower(), metadata=_metadata(path))
    finally:
        pyplot.close(figure)


def axis_labels(found: Chart) -> list[str]:
    """Each step's place in the campaign's calendar, said where it changes ("Ruins, day 3"), blank while it
    stays (the steps of one day, or of one battle, under one label)."""
    out, before = [], None
    for step in found.steps:
        out.append("" if step.when == before else step.when)
        before = step.when
    return out


def _metadata(path: Path) -> dict[str, object]:
    return {"Date": None} if path.suffix.lower() == ".svg" else {}


def sparkline(values: tuple[int | None, ...], low: int, high: int) -> str:
    """One character per step: the value's height between the chart's lowest and highest; a blank for none."""
    span = max(high - low, 1)
    return "".join(" " if v is None else BARS[(v - low) * (len(BARS) - 1) // span] for v in values)


def show(found: Chart, out: Output) -> None:
    """The compact terminal view: per series a line of bars, its first and last values, its low and high."""
    present = [v for s in found.series for v in s.values if v is not None]
    low, high = (1, len(found.levels)) if found.levels else (min(present), max(present))

    def word(value: int) -> str:
        levels = found.levels_said
        return (
            levels[value - 1]
            if levels and 1 <= value <= len(levels)
            else f"{value:,}"
            if language() == DEFAULT
            else number(value)
        )

    view = Table(title=escape(found.said), title_justify="left")
    steps = ngettext("over {n} step", "over {n} steps", len(found.steps)).format(n=len(found.steps))
    for column in ("", steps, _("first"), _("now"), _("low"), _("high")):
        view.add_column(column)
    for series in found.series:
        values = [v for v in series.values if v is not None]
        view.add_row(
            escape(series.name),
            sparkline(series.values, low, high),
            word(values[0]),
            word(values[-1]),
            word(min(values)),
            word(max(values)),
        )
    out.console.print(view)
    first, last = found.steps[0], found.steps[-1]
    out.console.print(
        "[dim]"
        + escape(
            _(
                "from {first} ({did_first}) to {last} ({did_last}); "
                "--json gives every step; -o FILE.svg or FILE.png draws it"
            ).format(first=first.when, did_first=first.said, last=last.when, did_last=last.said)
        )
        + "[/]"
    )


def chart_json(found: Chart) -> dict[str, object]:
    return {
        "campaign": found.campaign,
        "measure": found.measure,
        "title": found.title,
        "axis": found.axis,
        "levels": list(found.levels),
        "steps": [{"seq": s.seq, "label": s.label, "when": s.when} for s in found.steps],
        "series": [{"name": s.name, "side": s.side, "values": list(s.values)} for s in found.series],
    }


def register(app: typer.Typer) -> None:
    @app.command("chart")
    @handles_errors
    def chart_(
        measure: Annotated[str, typer.Argument(help=f"What to chart: {', '.join(MEASURES)}.", metavar=N_("MEASURE"))],
        only: Annotated[
            str | None, typer.Argument(help="Only this unit, side or officer (by name).", metavar=N_("[UNIT|SIDE]"))
        ] = None,
        output: Annotated[
            Path | None, typer.Option("--output", "-o", help="Draw to this file: .svg or .png.", metavar=N_("FILE"))
        ] = None,
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Chart morale, strength, treasury or glory over the campaign, from its log (retracted commands left out)."""
        if output is not None and output.suffix.lower() not in FORMATS:
            suffix = repr(output.suffix) if output.suffix else Words("a file without one")
            raise InvalidInputError.saying("a chart is drawn as .svg or .png, not {suffix}", suffix=suffix)
        if output is not None and not output.parent.is_dir():
            raise InvalidInputError.saying(
                "there is no folder {folder} to draw {file} in", folder=repr(str(output.parent)), file=output.name
            )
        if output is not None:
            need("charts", f"drawing a chart to {output.name}")
        found = campaign_chart(campaign, measure.strip().lower(), only)
        out = Output(as_json)
        if output is not None:
            draw(found, output)
        if as_json:
            out.json({**chart_json(found), "file": str(output) if output is not None else None})
        elif output is not None:
            drawn = ngettext(
                "{chart}: {n} step drawn to {file}", "{chart}: {n} steps drawn to {file}", len(found.steps)
            )
            out.console.print(escape(drawn.format(chart=found.said, n=len(found.steps), file=output)))
        else:
            show(found, out)

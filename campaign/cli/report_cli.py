"""``campaign report``: the campaign's story, as Markdown or printable HTML (the report itself is
``campaign.report``; this only picks the campaign and where the words go)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from campaign.cli.options import CampaignOpt, JsonOpt
from campaign.cli.output import Output, escape, handles_errors
from campaign.cli.session import resolved
from campaign.i18n import _
from campaign.read.describe import count
from events.errors import InvalidInputError

FORMATS = {".md": "Markdown", ".markdown": "Markdown", ".html": "HTML", ".htm": "HTML"}


def register(app: typer.Typer) -> None:
    @app.command("report")
    @handles_errors
    def report(
        output: Annotated[
            Path | None,
            typer.Option("--output", "-o", help="Write it to FILE.md (Markdown) or FILE.html (printable HTML)."),
        ] = None,
        campaign: CampaignOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """The campaign's story for people: each battle with its sides, result, casualties, morale turns and
        careers, what happened between battles, pay and treasury, disputed rolls and amendments with their
        reasons, and the charts; in the campaign's own calendar. Markdown on standard output, or -o FILE."""
        from campaign.report.render import html, markdown
        from campaign.report.story import campaign_report

        kind = FORMATS.get(output.suffix.casefold()) if output is not None else "Markdown"
        if kind is None:
            raise InvalidInputError.saying(
                "{file}: a report is written as .md (Markdown) or .html (printable HTML)", file=str(output)
            )
        ledger, info = resolved(campaign)
        told = campaign_report(ledger.store, info)
        text = html(told) if kind == "HTML" else markdown(told)
        out = Output(as_json)
        if output is None:
            if as_json:
                out.json({"campaign": info.name, "format": kind, "report": text})
            else:
                typer.echo(text, nl=False)
            return
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InvalidInputError.saying("cannot write {path}: {why}", path=str(output), why=exc.strerror) from None
        if as_json:
            out.json({"campaign": info.name, "format": kind, "file": str(output), "battles": len(told.battles)})
        else:
            battles = count(len(told.battles), "battles")
            said = _("{campaign}: the report ({kind}, {battles}) is in {file}")
            out.console.print(escape(said.format(campaign=info.name, kind=kind, battles=battles, file=output)))

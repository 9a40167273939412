"""``campaign rules``: the rules the program applies, as it ships them (RULES.md, second edition)."""

from __future__ import annotations

from typing import Annotated

import typer

from campaign.cli.options import JsonOpt
from campaign.cli.output import Output, handles_errors


def register(app: typer.Typer) -> None:
    @app.command("rules")
    @handles_errors
    def rules(
        reference: Annotated[
            str | None, typer.Argument(help="A clause: §0.4, 2.11, R2-5, R3-5 … (none: the list of clauses).")
        ] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Print a clause of the rules (RULES.md, as cited by the log and by `audit`), with the errata that
        amend it; without a clause, list them all."""
        from campaign.rules_text import as_text, clause, clauses

        out = Output(as_json)
        if reference is None:
            every = clauses()
            if as_json:
                out.json([{"clause": c.number, "title": c.title} for c in every.values()])
            else:
                for c in every.values():
                    if c.number.startswith(("R2-", "R3-")):
                        typer.echo(f"  {c.title}")
                    else:
                        typer.echo(f"§{c.title}" if c.title.startswith(c.number) else f"§{c.number} {c.title}")
            return
        found = clause(reference)
        if as_json:
            out.json({"clause": found.number, "title": found.title, "text": found.text, "errata": found.errata})
            return
        typer.echo(as_text(found))
        if found.errata:
            typer.echo("\nAmended by the errata (they stand where they disagree with the text; R3 stands over R2):")
            for erratum in found.errata:
                typer.echo(f"  {erratum}  (campaign rules {erratum.split(':')[0]})")

"""The options many ``campaign`` commands share, each declared once (its name, help and default)."""

from __future__ import annotations

from typing import Annotated

import typer

from campaign.cli.completion import completer
from campaign.cli.inputs import CommandId
from campaign.i18n import N_
from campaign.rulesets.kinds import CAMPAIGN, Kind
from events.errors import InvalidInputError

JsonOpt = Annotated[bool, typer.Option("--json", help=N_("Print JSON for scripts instead of tables."))]
CampaignOpt = Annotated[
    Annotated[str, CAMPAIGN] | None,
    typer.Option(
        "--campaign",
        "-c",
        envvar="CAMPAIGN",
        help=N_("Campaign name or id (default: the only one)."),
        autocompletion=completer(Kind.CAMPAIGN),
    ),
]
CommandIdOpt = Annotated[
    str | None,
    CommandId,
    typer.Option("--command-id", help=N_("Idempotency key: a command id seen before appends nothing again.")),
]
DiceOpt = Annotated[
    str | None,
    typer.Option(
        "--dice",
        help=N_(
            "The faces the table's dice showed, one number a die, in the order the rules roll them: 6 is one "
            "die showing 6 (whatever its kind: a d8 too), 4,2 two dice showing 4 and 2 (checked, then "
            "recorded); 'ask' to be asked for each die in turn; 'count' to learn which dice the command needs "
            "(nothing is recorded)."
        ),
    ),
]


FormatOpt = Annotated[
    str,
    typer.Option(
        "--format",
        help=N_(
            "table (the default) or csv: the table's columns as CSV, with the muster inputs it does not show "
            "(`muster --from FILE.csv` takes it back)."
        ),
    ),
]


def wants_csv(fmt: str, as_json: bool = False) -> bool:
    """Whether ``--format`` asks for CSV (``table`` or ``csv``; not both it and ``--json``)."""
    chosen = fmt.strip().casefold()
    if chosen not in ("table", "csv"):
        raise InvalidInputError.saying("--format is table or csv, not {given!r}", given=fmt)
    if chosen == "csv" and as_json:
        raise InvalidInputError.saying("--format csv and --json: choose one")
    return chosen == "csv"

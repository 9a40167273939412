"""The options many ``campaign`` commands share, each declared once (its name, help and default)."""

from __future__ import annotations

from typing import Annotated

import typer

from events.errors import InvalidInputError

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of tables.")]
CampaignOpt = Annotated[
    str | None,
    typer.Option("--campaign", "-c", envvar="CAMPAIGN", help="Campaign name or id (default: the only one)."),
]
CommandIdOpt = Annotated[
    str | None,
    typer.Option("--command-id", help="Idempotency key: a command id seen before appends nothing again."),
]
DiceOpt = Annotated[
    str | None,
    typer.Option(
        "--dice",
        help="Physical dice rolled at the table, e.g. 4,2 (checked, then recorded); 'ask' to be asked for each "
        "die in turn; 'count' to learn which dice the command needs (nothing is recorded).",
    ),
]


SizeOpt = Annotated[int | None, typer.Option("--size", help="Men or models in the unit at full strength.")]


def size_of(size: int | None, *old: int | None) -> int:
    """The unit's size from ``--size``, or from the option a ruleset first named it by (``--men``, ``--models``,
    still accepted, unlisted): one vocabulary, and the README and scripts of before keep working."""
    given = {v for v in (size, *old) if v is not None}
    if not given:
        raise InvalidInputError("--size is required: how many men or models the unit has")
    if len(given) > 1:
        raise InvalidInputError("the unit's size was given twice, with different numbers")
    return given.pop()


FormatOpt = Annotated[
    str,
    typer.Option(
        "--format",
        help="table (the default) or csv: the table's columns as CSV, with the muster inputs it does not show "
        "(`muster --from FILE.csv` takes it back).",
    ),
]


def wants_csv(fmt: str, as_json: bool = False) -> bool:
    """Whether ``--format`` asks for CSV (``table`` or ``csv``; not both it and ``--json``)."""
    chosen = fmt.strip().casefold()
    if chosen not in ("table", "csv"):
        raise InvalidInputError(f"--format is table or csv, not {fmt!r}")
    if chosen == "csv" and as_json:
        raise InvalidInputError("--format csv and --json: choose one")
    return chosen == "csv"

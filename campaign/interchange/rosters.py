"""The roster views as CSV, and each ruleset's muster as a CSV file reads it.

A ruleset's roster view names its columns in its own folder (its plug-in's ``roster``).

A view's CSV has the view's table columns, in its order, each headed by the name a muster takes it under where it
is a muster input (``name``, ``quality``, ``points``…) and by its own name where it is the view's (``battles``,
``on_the_table``); then the muster inputs the table does not show (a Grimdark unit's Tough, a Mass Combat unit's
armour), so that ``muster --from`` the file gives the same units. The view's own columns are read past when the
file is mustered from; a unit no longer serving (its ``disbanded`` or ``off_roster`` cell filled) is left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel

from campaign.interchange.csv_roster import Column, Musters, muster_columns, muster_values, read_musters, said_of
from campaign.rulesets.command import BaseCommand, Ruleset
from campaign.rulesets.hooks import CsvColumn
from campaign.rulesets.inputs import Kind, meanings
from events.errors import InvalidInputError, Words

if TYPE_CHECKING:
    from campaign.rulesets.command import Overridden
    from campaign.rulesets.common import Profiled
    from campaign.rulesets.tables import RuleTables

S = TypeVar("S", bound="Overridden")
T = TypeVar("T", bound="RuleTables")

OUT_OF_SERVICE = ("disbanded", "off_roster")


def roster_columns(ruleset: str) -> tuple[CsvColumn, ...]:
    """The ruleset's roster as CSV: its plug-in's columns (``roster``), none for a ruleset without a roster view."""
    from campaign.rulesets import RULESETS, load

    info = RULESETS.get(ruleset)
    if info is None or info.roster is None:
        return ()
    declared: tuple[CsvColumn, ...] = load(info.roster)
    return declared


def muster_of(plugin: Ruleset[S, T]) -> tuple[type[BaseCommand], dict[str, type[BaseModel]]]:
    """A ruleset's muster command, and the model of its profile where the command keeps the profile as plain data
    (its type says which: ``ProfileOf``)."""
    command = next(c for c in plugin.commands if c.name == f"{plugin.info.prefix}.muster")
    kept = {f: m.model for f, m in meanings(command).items() if m.kind is Kind.PROFILE and m.model is not None}
    return command, {f: model for f, model in kept.items() if not _is_model(command.model_fields[f].annotation)}


def _is_model(annotation: object) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def roster_csv_of(
    plugin: Ruleset[S, T],
    columns: Sequence[CsvColumn],
    rows: Sequence[Mapping[str, object]],
    units: Sequence[Profiled],
    names: Mapping[str, str],
) -> str:
    """A view's rows as CSV, each followed by the muster inputs of its roster unit (``units``, row by row) the
    view does not show; ``names``: every unit's name by its id."""
    from campaign.interchange.csv_roster import roster_csv

    command, nested = muster_of(plugin)
    musters = muster_columns(command, nested)
    return roster_csv(columns, rows, [muster_values(u, musters, names) for u in units])


def view_columns(ruleset: str) -> set[str]:
    """Every column a view of the ruleset's rosters writes that is the view's own: read past by a muster."""
    from campaign.read.views import STATUS_COLUMNS

    return {c.header for c in roster_columns(ruleset)} | set(STATUS_COLUMNS)


def _superiors_first(rows: list[tuple[int, dict[str, object]]]) -> list[tuple[int, dict[str, object]]]:
    """The rows in file order, but a row naming another row's unit (the superior it reports to) after that row,
    so that a roster written in any order musters."""
    named = {str(inputs.get("name", "")).strip().casefold(): i for i, (_, inputs) in enumerate(rows)}
    done: list[int] = []
    visiting: set[int] = set()

    def place(i: int) -> None:
        if i in done or i in visiting:
            return
        visiting.add(i)
        for key, value in rows[i][1].items():
            if key not in ("name", "side") and isinstance(value, str):
                j = named.get(value.strip().casefold())
                if j is not None and j != i:
                    place(j)
        visiting.discard(i)
        done.append(i)

    for i in range(len(rows)):
        place(i)
    return [rows[i] for i in done]


def read_muster_file(plugin: Ruleset[S, T], data: bytes, what: str | Words) -> tuple[list[BaseCommand], Musters]:
    """A CSV file as the ruleset's musters, a command a row (each built as typed inputs are: bounds and names
    checked, a problem named by its row)."""
    command, nested = muster_of(plugin)
    read = read_musters(
        data,
        command,
        nested=nested,
        ignore=view_columns(plugin.info.name),
        out_of_service=OUT_OF_SERVICE,
        what=what,
    )
    commands = []
    for number, inputs in _superiors_first(read.rows):
        try:
            commands.append(command.build(**inputs))
        except InvalidInputError as exc:
            raise InvalidInputError.saying(
                "{what}, row {number}: {problem}", what=what, number=number, problem=said_of(exc)
            ) from None
    return commands, read


__all__ = ["Column", "read_muster_file", "roster_csv_of", "view_columns"]

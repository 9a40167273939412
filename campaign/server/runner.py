"""The server's way to run a command: the command model built from JSON inputs, run by ``Ledger.execute``.

No second implementation: the models are those the CLI builds (``campaign.commands``), and the executor is
the one every interface uses. Which commands a member may run is decided here (:func:`refusal`): the game
master all; a player those that name only units (or, for a muster or a purchase, the side) of the sides it
plays; an observer none.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.access.memberships import Member
from campaign.commands import Command, command_type, plugin
from campaign.executor import Ledger, TableEntry
from campaign.rulesets.common import COMMON
from events.errors import InvalidInputError
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

OWN_UNITS = ("unit_name", "unit", "from_unit", "to_unit", "psion_name", "officer_name")
"""Inputs naming a unit that acts or moves men: a player names only its own sides' units in them."""
EITHER_UNIT = ("a", "b")
"""The two units of a melee: a player's unit must be one of them."""
SIDE_INPUTS = ("side",)
NEW_UNIT = (".muster", ".buy", ".import_list")
"""Commands that add units to a side (an army list imported adds and updates that side's units only): a player
may, to its own sides."""


@dataclass(frozen=True, slots=True)
class Field:
    """One input of a command, as a form shows it (``name`` is what the log records: the alias if any)."""

    name: str
    kind: str
    """'text', 'number', 'checkbox' or 'json' (a profile, a list of units…)."""
    required: bool
    default: Any


@dataclass(frozen=True, slots=True)
class CommandSpec:
    name: str
    fields: tuple[Field, ...]
    takes_table_dice: bool
    summary: str
    model: type[Command[Any, Any]]


def _kind(annotation: Any) -> str:
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if isinstance(annotation, types.UnionType | typing._UnionGenericAlias) and len(args) == 1:  # type: ignore[attr-defined]
        annotation = args[0]
    if annotation is bool:
        return "checkbox"
    if annotation is int:
        return "number"
    if annotation is str:
        return "text"
    return "json"


def spec(model: type[Command[Any, Any]]) -> CommandSpec:
    fields = tuple(
        Field(
            info.alias or name,
            _kind(info.annotation),
            info.is_required(),
            None if info.is_required() or info.default_factory is not None else info.default,
        )
        for name, info in model.model_fields.items()
    )
    doc = (model.__doc__ or "").strip().split("\n")[0]
    return CommandSpec(model.name, fields, model.rolls, doc, model)


def commands_for(ruleset: str) -> list[CommandSpec]:
    """Every command a campaign under ``ruleset`` takes: its ruleset's, then the ledger's own."""
    return [spec(m) for m in (*plugin(ruleset).commands, *COMMON)]


def build(command: str, inputs: Mapping[str, Any]) -> Command[Any, Any]:
    """The command model named ``command`` from its inputs (by their recorded names), refused in words."""
    model = command_type(command)
    return model.build(**dict(inputs))


def refusal(member: Member | None, command: Command[Any, Any], units: Sequence[Mapping[str, Any]]) -> str | None:
    """Why ``member`` may not run ``command`` (None: it may). ``units`` are the roster's, with their sides."""
    if member is None:
        return "you are not a member of this campaign"
    if member.role == "gm":
        return None
    if member.role == "observer":
        return "an observer reads the campaign and enters nothing"
    sides = set(member.sides)
    plays = ", ".join(sorted(sides))
    side_of = {str(u["name"]): str(u["side"]) for u in units} | {str(u["unit_id"]): str(u["side"]) for u in units}
    values = {name: getattr(command, name) for name in type(command).model_fields}
    own = [v for k in OWN_UNITS if isinstance(v := values.get(k), str)]
    either = [v for k in EITHER_UNIT if isinstance(v := values.get(k), str)]
    side = next((v for k in SIDE_INPUTS if isinstance(v := values.get(k), str)), None)
    if command.name.endswith(NEW_UNIT) and side is not None:
        return None if side in sides else f"you play {plays}, not {side}"
    if not own and not either:
        return f"{command.name} is the game master's to enter"
    for unit in own:
        if side_of.get(unit) not in sides:
            return f"{unit} does not fight for your side ({plays})"
    if either and not any(side_of.get(u) in sides for u in either):
        return f"neither {' nor '.join(either)} fights for your side ({plays})"
    return None


def run(
    ledger: Ledger,
    info: CampaignInfo,
    command: Command[Any, Any],
    *,
    table: TableEntry | None = None,
    command_id: str | None = None,
) -> AppendResult:
    """Run ``command`` on ``info`` through the one executor."""
    if table is not None and not command.rolls:
        raise InvalidInputError(f"{command.name} rolls no dice: leave out the table dice")
    return ledger.execute(info, command, table=table, command_id=command_id)

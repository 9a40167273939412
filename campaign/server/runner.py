"""The server's one way to run a command by name with JSON inputs: the very method the CLI calls.

Commands are found in the command registry (``campaign.commands.REGISTRY``, the names ``amend`` and
``audit`` re-run), their inputs checked against the method's signature by pydantic, and run on a ledger that
records the signed-in account as the events' actor. Which commands a member may run is decided here too
(:func:`refusal`): the game master all; a player those that name only units (or, for a muster, the side) of
the sides it plays; an observer none.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from campaign.access.memberships import Member
from campaign.commands import REGISTRY, Registered
from campaign.disorder import Disorder
from campaign.fighting_spirit import FightingSpirit
from campaign.grimdark import Grimdark
from campaign.ledger import Ledger, TableEntry
from campaign.mass_combat import MassCombat
from events.errors import InvalidInputError
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

SERVICES: dict[str, Any] = {
    "FightingSpirit": FightingSpirit,
    "MassCombat": MassCombat,
    "Disorder": Disorder,
    "Grimdark": Grimdark,
}
RULESET_OF = {
    "FightingSpirit": "fighting-spirit",
    "MassCombat": "mass-combat",
    "Disorder": "disorder",
    "Grimdark": "grimdark",
}
NOT_INPUTS = frozenset({"self", "info", "table", "command_id"})
UNIT_INPUTS = ("unit_name", "unit", "from_unit", "to_unit", "psion_name", "officer_name")
"""Inputs naming a unit that acts or moves men: a player names only its own sides' units in them (a
psionic's target, an enemy, is not checked)."""


@dataclass(frozen=True, slots=True)
class Field:
    """One input of a command, as a form shows it."""

    name: str
    kind: str
    """'text', 'number', 'checkbox' or 'json' (a profile, a list of deployments…)."""
    required: bool
    default: Any


@dataclass(frozen=True, slots=True)
class CommandSpec:
    name: str
    ruleset: str | None
    """None: every ruleset (``ledger.roll``)."""
    fields: tuple[Field, ...]
    takes_table_dice: bool
    summary: str


def _method(entry: Registered) -> Callable[..., Any]:
    owner = Ledger if entry.service == "Ledger" else SERVICES[entry.service]
    return getattr(owner, entry.method)  # type: ignore[no-any-return]


def _kind(annotation: Any) -> str:
    text = str(annotation)
    if text.startswith(("bool",)):
        return "checkbox"
    if text.startswith(("int", "float")):
        return "number"
    if text.startswith("str"):
        return "text"
    return "json"


def spec(entry: Registered) -> CommandSpec:
    signature = inspect.signature(inspect.unwrap(_method(entry)))
    fields = tuple(
        Field(
            p.name,
            _kind(p.annotation),
            p.default is inspect.Parameter.empty,
            None if p.default is inspect.Parameter.empty else p.default,
        )
        for p in signature.parameters.values()
        if p.name not in NOT_INPUTS
    )
    doc = inspect.getdoc(inspect.unwrap(_method(entry))) or ""
    return CommandSpec(
        entry.name, RULESET_OF.get(entry.service), fields, "table" in signature.parameters, doc.split("\n")[0]
    )


def commands_for(ruleset: str) -> list[CommandSpec]:
    """Every command a campaign under ``ruleset`` takes, by name."""
    return [s for s in (spec(e) for _, e in sorted(REGISTRY.items())) if s.ruleset in (None, ruleset)]


def refusal(
    member: Member | None, command: str, inputs: Mapping[str, Any], units: Sequence[Mapping[str, Any]]
) -> str | None:
    """Why ``member`` may not run ``command`` with ``inputs`` (None: it may). ``units`` are the roster's."""
    if member is None:
        return "you are not a member of this campaign"
    if member.role == "gm":
        return None
    if member.role == "observer":
        return "an observer reads the campaign and enters nothing"
    sides = set(member.sides)
    by_name = {str(u["name"]): str(u["side"]) for u in units} | {str(u["unit_id"]): str(u["side"]) for u in units}
    named = [str(inputs[k]) for k in UNIT_INPUTS if isinstance(inputs.get(k), str)]
    if command.endswith(".muster") and isinstance(inputs.get("side"), str):
        return None if inputs["side"] in sides else f"you play {', '.join(sorted(sides))}, not {inputs['side']}"
    if not named:
        return f"{command} is the game master's to enter"
    for unit in named:
        side = by_name.get(unit)
        if side is not None and side not in sides:
            return f"{unit} fights for {side}: you play {', '.join(sorted(sides))}"
    return None


@functools.cache
def inputs_model(command: str) -> type[BaseModel]:
    """A pydantic model of ``command``'s inputs, from its method's signature (until commands are models)."""
    entry = REGISTRY[command]
    fn = inspect.unwrap(_method(entry))
    hints = typing.get_type_hints(fn)
    fields: dict[str, Any] = {
        p.name: (hints.get(p.name, Any), ... if p.default is inspect.Parameter.empty else p.default)
        for p in inspect.signature(fn).parameters.values()
        if p.name not in NOT_INPUTS
    }
    return create_model(f"{command}.inputs", __config__=ConfigDict(extra="forbid", strict=False), **fields)


def run(
    ledger: Ledger,
    info: CampaignInfo,
    command: str,
    inputs: Mapping[str, Any],
    *,
    table: TableEntry | None = None,
    command_id: str | None = None,
) -> AppendResult:
    """Run ``command`` on ``info`` exactly as the CLI would; bad inputs raise :class:`InvalidInputError`."""
    entry = REGISTRY.get(command)
    if entry is None:
        raise InvalidInputError(f"no command named {command!r} (see the list of commands)")
    if entry.service == "Ledger":
        target: Any = ledger
    else:
        target = SERVICES[entry.service](ledger)
        target.check(info)
    method = getattr(target, entry.method)
    takes_table = "table" in inspect.signature(method).parameters
    if table is not None and not takes_table:
        raise InvalidInputError(f"{command} rolls no dice: it takes no table dice")
    try:
        checked = inputs_model(command).model_validate(dict(inputs))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "inputs"
        raise InvalidInputError(f"{command}: {where}: {first['msg']}") from None
    kwargs = {name: getattr(checked, name) for name in type(checked).model_fields}
    if takes_table:
        kwargs["table"] = table
    result: AppendResult = method(info, **kwargs, command_id=command_id)
    return result

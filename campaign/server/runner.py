"""The server's way to run a command: the command model built from JSON inputs, run by ``Ledger.execute``.

No second implementation: the models are those the CLI builds (``campaign.commands``), and the executor is
the one every interface uses. Which commands a member may run is decided here (:func:`refusal`), from what the
command's inputs *are* (their types, ``campaign/rulesets/inputs.py``), never from their names: the game master
all; a player those whose units and sides that act (``OwnUnit``, ``OwnSide``), that are acted on
(``TargetUnit``) and that are named for what they did to the acting unit (``EnemyUnit``: the shooter) are all of
the sides it plays, unless its model declares it the game master's alone (``entered_by``: a correction of the
record, a ruling); an observer none. What happens to another side's unit is that
side's or the game master's to enter (README's role table); so are its dice (:func:`dice_for`).
"""

from __future__ import annotations

import hashlib
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from campaign.access.memberships import Member
from campaign.commands import BaseCommand, entered_command_type, plugin, ruleset_of
from campaign.executor import Entrant, Ledger, TableEntry
from campaign.rulesets.command import for_players, help_of
from campaign.rulesets.common import COMMON, did_you_mean, same_name, unit_called
from campaign.rulesets.inputs import Kind, Whose, meanings, names_in
from campaign.typed_as import typed
from events.errors import InvalidInputError, Words
from events.limits import MAX_COMMAND_ID, check_command_id
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo


@dataclass(frozen=True, slots=True)
class Field:
    """One input of a command, as a form shows it (``name`` is what the log records: the alias if any)."""

    name: str
    kind: str
    """'text', 'number', 'checkbox' or 'json' (a profile, a list of units…)."""
    required: bool
    default: object
    means: str = "text"
    """What it is (``inputs.Kind``): 'unit', 'side', 'choice', 'profile'… (of each item, for a list or mapping)."""
    whose: str = "any"
    """Whose unit or side it names (``inputs.Whose``): 'own' (the acting side's), 'target' (acted on), 'enemy'
    (another side's, named for what it did to the acting unit: the GM's or its side's) or 'any'."""


@dataclass(frozen=True, slots=True)
class CommandSpec:
    name: str
    fields: tuple[Field, ...]
    takes_table_dice: bool
    summary: str
    model: type[BaseCommand]


def _kind(annotation: object) -> str:
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


def spec(model: type[BaseCommand]) -> CommandSpec:
    read = meanings(model)
    fields = tuple(
        Field(
            info.alias or name,
            _kind(info.annotation),
            info.is_required(),
            None if info.is_required() or info.default_factory is not None else info.default,
            read[name].kind.value,
            read[name].whose.value,
        )
        for name, info in model.model_fields.items()
    )
    # the first paragraph of its docstring on one line, as its command line help says it (a first line alone
    # was cut mid-sentence, or empty where the docstring begins on its second line)
    doc = " ".join(help_of(model).split())
    return CommandSpec(model.name, fields, model.rolls, doc, model)


def commands_for(ruleset: str) -> list[CommandSpec]:
    """Every command a campaign under ``ruleset`` takes: its ruleset's, then the ledger's own."""
    models: list[type[BaseCommand]] = [*plugin(ruleset).commands, *COMMON]
    return [spec(m) for m in models]


def build(command: str, inputs: Mapping[str, object], ruleset: str) -> BaseCommand:
    """The command model named ``command`` (as recorded or as the CLI spells it) from its inputs (by their
    recorded names), refused in words; a command of another ruleset than the campaign's (``ruleset``) is refused
    as that, before its inputs are read (their refusal would send one looking for the wrong fix)."""
    model = entered_command_type(command)
    owner = ruleset_of(model)
    if owner is not None and owner.info.name != ruleset:
        raise InvalidInputError.saying("{command} is not a command of {ruleset}", command=model.name, ruleset=ruleset)
    return model.build(**dict(inputs))


def role_refusal(member: Member, command: type[BaseCommand]) -> Words | None:
    """Why ``member``'s role alone may not run a command of type ``command`` (None: its role may, for some inputs):
    the API's refusal and the page's, for a command its form does not offer, in the same words (the page says
    them in the reader's language)."""
    if member.role == "observer":
        return Words("an observer reads the campaign and enters nothing")
    if member.role != "gm" and not for_players(command):
        return Words("{command} is the game master's to enter", command=command.name)
    return None


def refusal(
    member: Member | None, command: BaseCommand, units: Callable[[], Sequence[Mapping[str, object]]]
) -> Words | None:
    """Why ``member`` may not run ``command`` (None: it may). ``units()`` gives the roster's, with their sides: asked
    for only when the command names a unit (a roster's sides by name were made for every command of a player, a
    cost that grew with the roster, though most commands name only a side). A unit not among them is refused as
    unknown (:class:`InvalidInputError`), as the command itself would refuse it."""
    if member is None:
        return Words("you are not a member of this campaign")
    by_role = role_refusal(member, type(command))
    if by_role is not None or member.role == "gm":
        return by_role
    sides = set(member.sides)
    plays = ", ".join(sorted(sides))
    roster: Sequence[Mapping[str, object]] | None = None
    for named in names_in(command):
        meaning, name = named.meaning, named.value
        if meaning.whose is Whose.ANY:
            continue
        if meaning.kind is Kind.SIDE:
            if not any(same_name(name, side) for side in sides):
                return Words("you play {plays}, not {name}", plays=plays, name=name)
            continue
        if roster is None:
            roster = units()
        # the unit the command will act on, found as the command finds it (one resolver): a name read otherwise
        # here (an id in another case) authorised one side's player for another side's unit
        unit = unit_called(roster, name, lambda u: str(u["name"]), lambda u: str(u["unit_id"]))
        side = None if unit is None else str(unit["side"])
        if side in sides:
            continue
        if side is None:  # no side's unit: the command is wrong, not the player's reach (nor said to be)
            known = sorted({str(u["name"]) for u in roster})
            raise InvalidInputError.saying(
                "no unit called {name!r} in this campaign{hint}", name=name.strip(), hint=did_you_mean(name, known)
            )
        # the shooter named spends its activation and is credited: what happens to it is its side's, as a target's
        if meaning.whose in (Whose.TARGET, Whose.ENEMY) and side is not None:
            return Words(
                "{command} sets what happens to {name}, a unit of {side}: the game master enters it (you play {plays})",
                command=typed(command.name),
                name=name,
                side=side,
                plays=plays,
            )
        return Words("{name} does not fight for your side ({plays})", name=name, plays=plays)
    return None


def entrant(member: Member) -> Entrant | None:
    """Whose dice ``member`` gives with a command: a player's are for the sides it plays only (a roll for
    another side's unit is that side's to enter, and is refused in words); the game master's for every roll."""
    return None if member.role == "gm" else Entrant(frozenset(member.sides))


def own_command_id(account: str, command_id: str | None) -> str | None:
    """The idempotency key of ``account``'s ``command_id``: each account's ids are its own, so one account can
    neither replay another's command by guessing its id (and learn its outcome) nor block one by taking it
    first. An account's name holds no ``/``; a key longer than the store keeps is the id's SHA-256."""
    if command_id is None:
        return None
    check_command_id(command_id)  # the id as sent is held to the rule, not only the key made of it
    key = f"{account}/{command_id}"
    if len(key) > MAX_COMMAND_ID:
        key = f"{account}/sha256:{hashlib.sha256(command_id.encode()).hexdigest()}"
    return key


def run(
    ledger: Ledger,
    info: CampaignInfo,
    command: BaseCommand,
    *,
    table: TableEntry | None = None,
    command_id: str | None = None,
    entrant: Entrant | None = None,
) -> AppendResult:
    """Run ``command`` on ``info`` through the one executor (``entrant``: whose dice the member gives)."""
    if table is not None and not command.rolls:
        raise InvalidInputError.saying("{command} rolls no dice: leave out the table dice", command=command.name)
    return ledger.execute(info, command, table=table, command_id=command_id, entrant=entrant)

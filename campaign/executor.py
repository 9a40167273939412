"""The service layer: each user command loads state, asks a pure decision for events, and appends them.

Every command that rolls dice gets one :class:`~events.dice.Dice` object: seeded from the campaign's
current seed at the next unused roll index, or the table dice the players entered. Whatever it rolls is
appended as ``dice.rolled`` events in the same batch as the decision's events, so the log always holds a
command's inputs and its dice together.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from campaign.commands import fold_for, ledger_command, ruleset_of, tables_in_force
from campaign.directory import find_campaign
from campaign.logging import get_logger
from campaign.rulesets import RulesetInfo
from campaign.rulesets import ruleset as find_ruleset
from campaign.rulesets.command import BaseCommand, Overridden, Ruleset, Situation
from campaign.rulesets.tables import RuleTables
from campaign.typed_as import typed
from events.dice import (
    DERIVATION,
    HandedDice,
    ReplayDice,
    SeededDice,
    SidedDice,
    TableDice,
    dice_key,
    seed_commitment,
    share_commitment,
)
from events.envelope import NewEvent, RecordedEvent
from events.errors import DiceError, InvalidInputError, NotFoundError, Words
from events.limits import check_command_id, check_text
from events.recorded import JsonValue
from events.recorded import seq as array
from events.registry import Event, registry
from events.store import AppendResult, EventStore
from events.vault import SeedVault
from projections.campaign_state import CampaignStates, FoldingCampaignStates
from projections.campaigns import CampaignDirectory
from projections.state.campaigns import CampaignInfo

# What only a command that appends uses is imported where it is used: a command that reads (``status``)
# loads none of it (start-up time).
if TYPE_CHECKING:
    from events.dice.ask import Ask, AskedDice
    from events.dice.rerun import RerunDice
    from events.families.dice import DiceRolled
    from events.families.timeline import CommandIssued

log = get_logger(__name__)

NAME_PATTERN = re.compile(r"^[\w][\w .'\-]{0,99}$")
S = TypeVar("S", bound=Overridden)
T = TypeVar("T", bound=RuleTables)


@dataclass(frozen=True, slots=True)
class TableEntry:
    """Physical dice typed in by a person at the table."""

    faces: tuple[int, ...]
    entered_by: str | None = None
    """Who read them off the table, when it is not the one who entered the command (another side's player)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """Whose dice the one entering a command may give (DESIGN.md: a roll belongs to the side whose unit it
    tests): a player on a shared server gives them for the sides it plays only. A roll the command makes for
    another side's unit is that side's: its own dice in ``others`` (its table dice, or None for the campaign's
    seeded dice, as that side chose), or the command is refused in words (``AnotherSidesDieError``), never rolled
    on the dice of the one who typed it. Without an entrant (the command line, the game master) every roll is
    the entrant's."""

    sides: frozenset[str]
    others: Mapping[str, TableEntry | None] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AskEntry:
    """Physical dice asked for one at a time, as the rules need them (``--dice ask``)."""

    ask: Ask


@dataclass(frozen=True)
class Replay:
    """A recorded command run again (amend, audit, verify): the dice it runs on (its recorded ones, or for an
    amendment its own first, then the table's and new ones), the ids it gave the first time, and for an
    amendment the seq of the command it replaces. ``exact``: it must use every recorded die (a re-evaluation:
    a command that now rolls fewer decides otherwise, and nothing is appended)."""

    dice: ReplayDice | RerunDice | TableDice
    ids: tuple[str, ...] = ()
    amends: int | None = None
    exact: bool = False


class GivenIds:
    """Ids for what a command creates: those it gave when it was recorded first (a re-run), then fresh ones."""

    def __init__(self, fresh: Callable[[], str], recorded: Sequence[str] = ()) -> None:
        self._fresh = fresh
        self._recorded = list(recorded)
        self.given: list[str] = []

    def __call__(self) -> str:
        given = self._recorded.pop(0) if self._recorded else self._fresh()
        self.given.append(given)
        return given


@dataclass(frozen=True)
class Decision:
    """What a command decides, before anything is appended: the dice it rolled anew and the facts it decided, and
    what its record (``timeline.command_issued``: the command, its inputs, the dice it used, the ids it gave) is
    made of. ``unused``: recorded dice handed back to it that its rules did not ask for.

    The record is made only when asked for (:attr:`issued`): a re-evaluation compares the facts alone, and making
    a pydantic model of every command's inputs was a fifth of its cost."""

    command: BaseCommand
    dice: HandedDice
    facts: tuple[Event, ...]
    given: GivenIds
    ruleset_version: str | None
    amends: int | None = None

    @property
    def rolled(self) -> tuple[DiceRolled, ...]:
        return tuple(self.dice.rolled)

    @property
    def unused(self) -> int:
        return self.dice.unused if isinstance(self.dice, ReplayDice) else 0

    @property
    def issued(self) -> CommandIssued:
        from events.families.timeline import CommandIssued

        return CommandIssued(
            command=self.command.name,
            args=self.command.inputs(),
            version=self.command.schema_version,
            dice=self.dice.used,
            ids=tuple(self.given.given),
            ruleset_version=self.ruleset_version,
            amends=self.amends,
        )

    @property
    def events(self) -> list[Event]:
        return [self.issued, *self.rolled, *self.facts]


def _already_recorded(
    seen: tuple[RecordedEvent, ...],
    command_id: str,
    name: str,
    inputs: dict[str, JsonValue],
    table: TableEntry | AskEntry | None = None,
) -> AppendResult:
    """A retried command id: the earlier result if it was this command with these inputs (and, given table dice,
    these dice); refused otherwise (a reused id must not silently drop a different command, nor a corrected die
    sent under the id of the command it corrects)."""
    issued = next((e for e in seen if e.type == "timeline.command_issued"), None)
    recorded = (
        (issued.payload["command"], issued.payload["args"])
        if issued is not None
        else (seen[0].meta.get("command"), None)
    )
    if recorded[0] != name or (recorded[1] is not None and recorded[1] != inputs):
        # named as typed ("fs rest", not "fs.days"): one recorded command is typed as several (its activity)
        args = recorded[1] if isinstance(recorded[1], dict) else None
        earlier = typed(str(recorded[0]), args)
        same = earlier == typed(name, inputs) and recorded[1] is not None
        if same:
            raise InvalidInputError.saying(
                "command id {id!r} was already used for another command ({earlier} with other inputs): use a new "
                "--command-id",
                id=command_id,
                earlier=earlier,
            )
        raise InvalidInputError.saying(
            "command id {id!r} was already used for another command ({earlier}): use a new --command-id",
            id=command_id,
            earlier=earlier,
        )
    if isinstance(table, TableEntry):
        entered = tuple(f for e in seen if e.type == "dice.rolled" and e.payload.get("source") == "table"
                        for f in array(e.payload["faces"]))  # fmt: skip
        if entered != table.faces:
            raise InvalidInputError.saying(
                "command id {id!r} was already used for this command with other dice ({earlier}): nothing was "
                "recorded; to correct a die, amend the command (`campaign amend SEQ --dice …`); else use a new "
                "--command-id",
                id=command_id,
                earlier=", ".join(map(str, entered)) or Words("the campaign's"),
            )
    return AppendResult(seen, duplicate=True)


MAX_SHARE = 200
"""The longest share of entropy, in characters (a drawn one is 64 hexadecimal digits)."""


def check_share(share: str) -> str:
    """A share of entropy as given, or :class:`InvalidInputError` in words: text of 1–200 characters, no control
    characters (NUL included), valid UTF-8. Kept exactly as typed: its SHA-256 is its commitment."""
    check_text(share, Words("a share of entropy"), MAX_SHARE)
    if not share.strip():
        raise InvalidInputError.saying(
            "a share of entropy must not be empty: type some text, or leave it out to draw one"
        )
    if any(char in "\t\n\r" for char in share):
        raise InvalidInputError.saying("a share of entropy is one line: no tabs or line breaks")
    return share


def check_new_campaign(name: str, ruleset: str, seed: bytes | None) -> RulesetInfo:
    """What ``new`` is given, checked before any database is opened (or made): the ruleset, the name, the seed."""
    info = find_ruleset(ruleset)
    if not NAME_PATTERN.match(name or ""):
        raise InvalidInputError.saying(
            "campaign name {name!r} is not usable: 1–100 letters, digits, spaces, dots, dashes or apostrophes",
            name=name,
        )
    if seed is not None and len(seed) < 16:
        raise InvalidInputError.saying("a dice seed must be at least 16 bytes (32 hex digits)")
    return info


class Ledger:
    def __init__(
        self,
        *,
        store: EventStore,
        directory: CampaignDirectory,
        vault: SeedVault,
        states: CampaignStates | None = None,
        actor: str,
        clock: Callable[[], str],
        new_id: Callable[[], str],
        new_seed: Callable[[], bytes],
    ) -> None:
        self.store = store
        self.directory = directory
        self.vault = vault
        self.states: CampaignStates = states if states is not None else FoldingCampaignStates(store, fold_for)
        self.actor = actor
        self._clock = clock
        self._new_id = new_id
        self._new_seed = new_seed

    # -- campaigns ---------------------------------------------------------------------------------

    def create_campaign(
        self, name: str, ruleset: str, *, seed: bytes | None = None, command_id: str | None = None
    ) -> AppendResult:
        from events.families.campaign import CampaignCreated

        info = check_new_campaign(name, ruleset, seed)
        if self.directory.find(name) is not None:
            raise InvalidInputError.saying("a campaign named {name!r} already exists in this database", name=name)
        chosen = seed is not None
        seed = seed if seed is not None else self._new_seed()
        commitment = self.vault.stage(seed)
        created = CampaignCreated(
            name=name,
            ruleset=info.name,
            ruleset_version=info.version,
            seed_commitment=commitment,
            dice_derivation=DERIVATION,
            seed_chosen=chosen,
        )
        campaign_id = self._new_id()
        return self._append(campaign_id, 0, [created], "new", command_id)

    def resolve(self, campaign: str | None) -> CampaignInfo:
        """A campaign by name or id; with none given, the only campaign in the database."""
        return find_campaign(self.directory, campaign)

    # -- commands ------------------------------------------------------------------------------------

    def execute(
        self,
        info: CampaignInfo,
        command: BaseCommand,
        *,
        table: TableEntry | AskEntry | None = None,
        command_id: str | None = None,
        replay: Replay | None = None,
        entrant: Entrant | None = None,
    ) -> AppendResult:
        """Run one command: the only way any command runs (CLI, server, demo, replay, amend, audit).

        A command id seen before returns the earlier result if it was the same command with the same inputs,
        and is refused otherwise. Then the dice (the campaign's seeded dice, the table's, or for a re-run the
        recorded ones), the command's decision (:meth:`decide`), and one append: the command and its inputs,
        the dice it rolled, the events it decided.
        """
        if command_id is not None:
            check_command_id(command_id)
        if command_id is not None and (seen := self.store.command_events(info.campaign_id, command_id)):
            return _already_recorded(seen, command_id, command.name, command.inputs(), table)
        if table is not None and not command.rolls:
            raise InvalidInputError.saying(
                "{command} rolls no dice: leave out --dice", command=typed(command.name, command.inputs())
            )
        dice: SeededDice | TableDice | AskedDice | ReplayDice | RerunDice | SidedDice
        if replay is not None:
            dice = replay.dice
        elif isinstance(table, AskEntry):
            from events.dice.ask import AskedDice  # --dice ask only

            dice = AskedDice(table.ask, self.actor, info.next_roll_index, self.on_table(info))
        else:
            dice = self._dice(info, table)
            if entrant is not None:
                others = {side: self._dice(info, entry) for side, entry in entrant.others.items()}
                dice = SidedDice(dice, entrant.sides, others)
        decided = self.decide(
            info,
            command,
            dice,
            ids=replay.ids if replay is not None else (),
            amends=replay.amends if replay is not None else None,
        )
        if replay is not None and replay.exact and decided.unused:
            raise InvalidInputError.saying(
                "it now rolls fewer dice than the {count} it was recorded with",
                count=len(replay.dice.used) + decided.unused,
            )
        return self._append(info.campaign_id, info.last_seq, decided.events, command.name, command_id)

    def _dice(self, info: CampaignInfo, table: TableEntry | None) -> SeededDice | TableDice:
        """The campaign's dice at its next roll index: the table's (``table``), or the seeded ones."""
        offered = self.on_table(info)
        if table is not None:
            return TableDice(table.faces, table.entered_by or self.actor, info.next_roll_index, offered)
        return SeededDice(
            info.dice_id or info.campaign_id,
            lambda: self.dice_key(info),  # read when the first die is derived: most commands roll none
            info.seed_epoch,
            info.next_roll_index,
            offered,
        )

    def execute_all(
        self,
        info: CampaignInfo,
        commands: Sequence[BaseCommand],
        *,
        command_id: str | None = None,
        called: Callable[[int], str | Words] | None = None,
    ) -> AppendResult:
        """Run several commands of the campaign's ruleset in one append, rolling no dice (a roster read from a
        file; a command that would roll is refused): each decided as :meth:`execute` decides it, on the campaign as
        the ones before it leave it (their facts folded in memory), each with its own record of its inputs. All are
        recorded or none: a refusal names the command as ``called`` says (``called(i)``: "row 3"). An undo takes
        them back together."""
        if not commands:
            raise InvalidInputError.saying("nothing to run")
        if command_id is not None:
            check_command_id(command_id)
            seen = self.store.command_events(info.campaign_id, command_id)
            if seen:
                return _already_recorded(seen, command_id, commands[0].name, commands[0].inputs())
        owner = ruleset_of(type(commands[0]))
        fold = fold_for(info.ruleset)
        if owner is None or fold is None or owner.info.name != info.ruleset:
            raise InvalidInputError.saying(
                "campaign {name!r} runs {ruleset}: these are not its commands", name=info.name, ruleset=info.ruleset
            )
        state, _ = self.in_force(info, owner)
        batch: list[NewEvent] = []
        seq = info.last_seq
        for index, command in enumerate(commands):
            if ruleset_of(type(command)) is not owner:
                raise InvalidInputError.saying(
                    "{command} cannot be run with others in one append", command=typed(command.name)
                )
            where = called(index) if called is not None else Words("command {number}", number=index + 1)
            try:
                # No dice: a command that may roll (a Mass Combat muster with neither a quality nor an experience
                # rolls the quality, R3-23) is refused only when it would.
                decided = self.decide(info, command, ReplayDice(()), state=state)
            except DiceError:
                raise InvalidInputError.saying(
                    "{where}: {command} would roll dice here, and commands run together roll none: give what the "
                    "roll would decide, or run it on its own",
                    where=where,
                    command=typed(command.name),
                ) from None
            except InvalidInputError as exc:
                said = exc.words if exc.words is not None else str(exc)
                raise InvalidInputError.saying("{where}: {refusal}", where=where, refusal=said) from None
            for event in decided.events:
                encoded = registry.encode(event)
                batch.append(encoded)
                seq += 1
                recorded = RecordedEvent(
                    0, info.campaign_id, seq, encoded.type, encoded.schema_version, encoded.payload, {}, "", ""
                )
                state = fold.apply(state, recorded)
        return self._append_encoded(info.campaign_id, info.last_seq, batch, commands[0].name, command_id)

    def decide(
        self,
        info: CampaignInfo,
        command: BaseCommand,
        dice: HandedDice,
        *,
        ids: Sequence[str] = (),
        amends: int | None = None,
        at_seq: int | None = None,
        state: Overridden | None = None,
    ) -> Decision:
        """A command's decision on ``dice``, appending nothing: the one decide step that :meth:`execute`, a dry run,
        ``audit``'s and ``verify``'s re-evaluation and an amendment all take. The campaign's state at its head (or
        at ``at_seq``, or ``state`` as the caller folded it) and the tables in force; ``ids``: those the command
        gave when it was recorded (a re-run), handed back before fresh ones. A command of no ruleset
        (``ledger.``) decides on no state; one of a ruleset only on the campaign's of that ruleset."""
        owner = ruleset_of(type(command))
        given = GivenIds(self._new_id, ids)
        if owner is None:
            facts = tuple(ledger_command(command).decide(Situation(None, None, dice, given, self.actor)))
        else:
            if owner.info.name != info.ruleset:
                raise _not_its_ruleset(info, owner.info.name)
            if state is None:
                folded, tables = self.in_force(info, owner, at_seq)
            else:
                folded, tables = state, tables_in_force(owner, state.overrides)
            facts = tuple(owner.decide(command, Situation(folded, tables, dice, given, self.actor)))
        if isinstance(dice, TableDice | SidedDice):
            dice.finish()
        return Decision(command, dice, facts, given, owner.info.version if owner is not None else None, amends)

    def dry_run(self, info: CampaignInfo, command: BaseCommand, dice: HandedDice) -> None:
        """Run a command's decision on ``dice`` that are not the campaign's, appending nothing: how a dry run
        learns which dice a command asks for before anyone rolls them."""
        self.decide(info, command, dice)

    def on_table(self, info: CampaignInfo) -> list[DiceRolled]:
        """The dice retracted commands left on the table, in the order they were rolled (DESIGN.md, "Dice")."""
        from events.families.dice import DiceRolled

        held: list[DiceRolled] = []
        for seq in info.on_table:
            for event in self.store.read(info.campaign_id, after_seq=seq - 1, upto_seq=seq):
                decoded = registry.decode(event)
                if isinstance(decoded, DiceRolled):
                    held.append(decoded)
        return held

    def reroll(self, info: CampaignInfo, reason: str, command_id: str | None = None) -> AppendResult:
        """Take the next die off the table, explicitly and on the record: the next command rolls new dice."""
        from events.families.dice import DiceSetAside

        if not check_text(reason, Words("a reroll's reason")).strip():
            raise InvalidInputError.saying("a reroll needs a reason (--reason), recorded with it for everyone to see")
        if not info.on_table_index:
            raise InvalidInputError.saying("no dice are on the table: only dice of a retracted command can be rerolled")
        event = DiceSetAside(roll_index=info.on_table_index[0], reason=reason.strip())
        return self._append(info.campaign_id, info.last_seq, [event], "reroll", command_id)

    def in_force(self, info: CampaignInfo, owner: Ruleset[S, T], at_seq: int | None = None) -> tuple[S, T]:
        """A campaign of ``owner``'s ruleset as it stands (or stood at ``at_seq``), and its tables in force."""
        if owner.info.name != info.ruleset:
            raise _not_its_ruleset(info, owner.info.name)
        state = self.states.get(info, at_seq)
        return state, tables_in_force(owner, state.overrides)

    def roll(
        self,
        info: CampaignInfo,
        notation: str,
        purpose: str,
        *,
        table: TableEntry | AskEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        from campaign.rulesets.common import RollDice

        return self.execute(
            info, RollDice.build(notation=notation, purpose=purpose), table=table, command_id=command_id
        )

    def dice_key(self, info: CampaignInfo) -> bytes:
        """The key the current epoch's seeded dice are derived with: its seed, mixed with the group's shares."""
        seed = self.vault.seed(info.campaign_id, info.seed_epoch)
        if not info.epoch_shares:
            return seed
        return dice_key(seed, info.dice_id or info.campaign_id, info.seed_epoch, self._held_shares(info))

    def _held_shares(self, info: CampaignInfo) -> list[str]:
        held = self.vault.shares(info.campaign_id, info.seed_epoch)
        if len(held) != info.epoch_shares:
            raise NotFoundError.counting(
                "the log commits {n} share of entropy to the seed of epoch {epoch}, but this database holds "
                "{held}: its dice cannot be derived here",
                "the log commits {n} shares of entropy to the seed of epoch {epoch}, but this database holds "
                "{held}: its dice cannot be derived here",
                n=info.epoch_shares,
                epoch=info.seed_epoch,
                held=len(held),
            )
        return [h.share for h in held]

    def epoch_shares(self, info: CampaignInfo, epoch: int | None = None) -> list[RecordedEvent]:
        """The ``dice.share_committed`` events of the current seed epoch (or of ``epoch``), in commit order."""
        wanted = info.seed_epoch if epoch is None else epoch
        found = self.store.read_types(info.campaign_id, ["dice.share_committed"])
        return [e for e in found if e.payload["epoch"] == wanted]

    def commit_share(self, info: CampaignInfo, share: str) -> AppendResult:
        """Mix a share of entropy into the current seed: one ``dice.share_committed`` event holding its SHA-256,
        and the share kept apart from the log (in the same transaction) until ``reveal`` publishes it with the
        seed. One share per person per epoch, and only before the epoch's first seeded roll: the shares make
        the key of every roll of the epoch, so a later one would change dice already rolled."""
        check_share(share)
        epoch = info.seed_epoch
        mine = next((e for e in self.epoch_shares(info) if e.payload["by"] == self.actor), None)
        if mine is not None:
            raise InvalidInputError.saying(
                "{actor} already committed a share of entropy for epoch {epoch} (#{seq}): one share per person per "
                "epoch; the next epoch opens at `campaign reveal`",
                actor=self.actor,
                epoch=epoch,
                seq=mine.seq,
            )
        rolled = self.first_seeded_roll(info)
        if rolled is not None:
            raise InvalidInputError.saying(
                "roll #{index} (#{seq}) already used the seed of epoch {epoch}: shares close at an epoch's first "
                "seeded roll (they make the key of all its dice); commit yours for the next epoch, after "
                "`campaign reveal`",
                index=rolled.payload["roll_index"],
                seq=rolled.seq,
                epoch=epoch,
            )
        from events.families.dice import ShareCommitted

        commitment = self.vault.stage_share(share)
        event = ShareCommitted(epoch=epoch, commitment=commitment, by=self.actor)
        return self._append(info.campaign_id, info.last_seq, [event], "entropy commit", None)

    def first_seeded_roll(self, info: CampaignInfo) -> RecordedEvent | None:
        """The first roll derived from the current seed, if any (after its commitment: rolls before it used
        earlier seeds)."""
        commits = self.store.read_types(
            info.campaign_id, ["campaign.created", "dice.seed_committed"], limit=1, last=True
        )
        after = commits[0].seq if commits else 0
        while page := self.store.read_types(info.campaign_id, ["dice.rolled"], after_seq=after, limit=64):
            for event in page:  # by pages: most rolls are seeded, so the first page nearly always answers
                p = event.payload
                if p["source"] == "seeded" and p.get("seed_epoch") == info.seed_epoch:
                    return event
            after = page[-1].seq
        return None

    def reveal(self, info: CampaignInfo, *, command_id: str | None = None) -> AppendResult:
        """Publish the current seed (with the shares of entropy mixed into it) and commit to a fresh one: past
        rolls become checkable, future ones not."""
        from events.families.dice import SeedCommitted, SeedRevealed

        seed = self.vault.seed(info.campaign_id, info.seed_epoch)
        if seed_commitment(seed) != info.seed_commitment:
            raise NotFoundError.saying("the seed held here does not match the campaign's commitment")
        shares = self._held_shares(info) if info.epoch_shares else []
        if shares:
            committed = [e.payload["commitment"] for e in self.epoch_shares(info)]
            wrong = [i for i, (s, c) in enumerate(zip(shares, committed, strict=False)) if share_commitment(s) != c]
            if wrong or len(committed) != len(shares):
                raise NotFoundError.saying(
                    "a share of entropy held here for epoch {epoch} does not match its commitment in the log: it was "
                    "replaced (`campaign verify` names it)",
                    epoch=info.seed_epoch,
                )
        next_seed = self._new_seed()
        events = [
            SeedRevealed(epoch=info.seed_epoch, seed=seed.hex(), shares=tuple(shares)),
            SeedCommitted(epoch=info.seed_epoch + 1, commitment=self.vault.stage(next_seed)),
        ]
        return self._append(info.campaign_id, info.last_seq, events, "reveal", command_id)

    def fresh_seed(self) -> bytes:
        return self._new_seed()

    def draw_share(self) -> str:
        """A share of entropy drawn from the operating system for someone who gave none: 64 hex digits."""
        return self._new_seed().hex()

    def now(self) -> str:
        """Informational wall-clock time for metadata (never read by rules)."""
        return self._clock()

    def new_id(self) -> str:
        """A fresh identifier for a unit, battle or other entity named in events."""
        return self._new_id()

    def record(
        self, info: CampaignInfo, events: Sequence[Event], what: str, command_id: str | None = None
    ) -> AppendResult:
        """Append what the campaign's own timeline decides (a rewind): facts of no ruleset, rolling no dice."""
        return self._append(info.campaign_id, info.last_seq, events, what, command_id)

    def append_prepared(
        self, info: CampaignInfo, events: Sequence[NewEvent], command: str, command_id: str | None = None
    ) -> AppendResult:
        """Append events already encoded (an amendment's re-run commands), with this ledger's meta."""
        return self._append_encoded(info.campaign_id, info.last_seq, events, command, command_id)

    # -- plumbing ------------------------------------------------------------------------------------

    def _append(
        self,
        campaign_id: str,
        expected_seq: int,
        events: Sequence[Event],
        command: str,
        command_id: str | None,
    ) -> AppendResult:
        return self._append_encoded(
            campaign_id, expected_seq, [registry.encode(e) for e in events], command, command_id
        )

    def _append_encoded(
        self,
        campaign_id: str,
        expected_seq: int,
        encoded: Sequence[NewEvent],
        command: str,
        command_id: str | None,
    ) -> AppendResult:
        """The one way a command's events reach the store: with who entered it, what and when, and a log line."""
        if command_id is not None:
            check_command_id(command_id)
        meta: dict[str, Any] = {"actor": self.actor, "command": command, "recorded_at": self._clock()}
        result = self.store.append(
            campaign_id, encoded, expected_seq, command_id=command_id or self._new_id(), meta=meta
        )
        # a preview's sandbox appends too, and keeps nothing: an operator counting writes reads only what is kept
        (log.info if self.store.keeps else log.debug)(
            "command.appended" if self.store.keeps else "command.previewed",
            campaign_id=campaign_id,
            command=command,
            events=len(result.events),
            head_seq=result.head.seq,
            duplicate=result.duplicate,
        )
        return result


def _not_its_ruleset(info: CampaignInfo, ruleset: str) -> InvalidInputError:
    return InvalidInputError.saying(
        "campaign {name!r} runs {ruleset}, not {other}", name=info.name, ruleset=info.ruleset, other=ruleset
    )

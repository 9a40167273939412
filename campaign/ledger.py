"""The service layer: each user command loads state, asks a pure decision for events, and appends them.

Every command that rolls dice gets one :class:`~events.dice.Dice` object: seeded from the campaign's
current seed at the next unused roll index, or the table dice the players entered. Whatever it rolls is
appended as ``dice.rolled`` events in the same batch as the decision's events, so the log always holds a
command's inputs and its dice together.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import structlog

from campaign.commands import CURRENT, command
from campaign.rulesets import ruleset as find_ruleset
from events.dice import DERIVATION, Dice, SeededDice, TableDice, parse, seed_commitment
from events.envelope import NewEvent
from events.errors import InvalidInputError, NotFoundError
from events.families.campaign import CampaignCreated
from events.families.dice import SeedCommitted, SeedRevealed
from events.families.timeline import CommandIssued
from events.registry import Event, registry
from events.store import AppendResult, EventStore
from events.vault import SeedVault
from projections.campaign_state import CampaignStates, FoldingCampaignStates
from projections.campaigns import CampaignDirectory
from projections.state.campaigns import CampaignInfo

log = structlog.get_logger(__name__)

NAME_PATTERN = re.compile(r"^[\w][\w .'\-]{0,99}$")
Decision = Callable[[Dice], Sequence[Event]]


@dataclass(frozen=True, slots=True)
class TableEntry:
    """Physical dice typed in by a person at the table."""

    faces: tuple[int, ...]


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
        self.states: CampaignStates = states if states is not None else FoldingCampaignStates(store)
        self.actor = actor
        self._clock = clock
        self._new_id = new_id
        self._new_seed = new_seed
        self.replay_dice: Dice | None = None
        """Set while re-running recorded commands (amend, audit): their own dice, in order."""

    # -- campaigns ---------------------------------------------------------------------------------

    def create_campaign(
        self, name: str, ruleset: str, *, seed: bytes | None = None, command_id: str | None = None
    ) -> AppendResult:
        info = find_ruleset(ruleset)
        if not NAME_PATTERN.match(name or ""):
            raise InvalidInputError(
                f"campaign name {name!r} is not usable: 1–100 letters, digits, spaces, dots, dashes or apostrophes"
            )
        if self.directory.find(name) is not None:
            raise InvalidInputError(f"a campaign named {name!r} already exists in this database")
        if seed is not None and len(seed) < 16:
            raise InvalidInputError("a dice seed must be at least 16 bytes (32 hex digits)")
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
        if campaign is None:
            every = self.directory.all()
            if len(every) == 1:
                return every[0]
            if not every:
                raise NotFoundError(
                    "this database has no campaign yet: create one with `campaign new NAME --ruleset …`"
                )
            names = ", ".join(c.name for c in every)
            raise InvalidInputError(f"this database holds several campaigns ({names}): name one with --campaign")
        found = self.directory.find(campaign) or self.directory.get(campaign)
        if found is None:
            raise NotFoundError(f"no campaign named {campaign!r} in this database")
        return found

    # -- commands ------------------------------------------------------------------------------------

    def run(
        self,
        info: CampaignInfo,
        command: str,
        decide: Decision,
        *,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """Run one command: give ``decide`` the campaign's dice, append its events after the dice it used."""
        if command_id is not None and (seen := self.store.command_events(info.campaign_id, command_id)):
            return AppendResult(seen, duplicate=True)
        issued = CURRENT.get()
        header = [CommandIssued(command=issued[0], args=issued[1])] if issued is not None else []
        if self.replay_dice is not None:
            return self._append(
                info.campaign_id, info.last_seq, [*header, *decide(self.replay_dice)], command, command_id
            )
        dice: SeededDice | TableDice
        if table is not None:
            dice = TableDice(table.faces, self.actor, info.next_roll_index)
        else:
            seed = self.vault.seed(info.campaign_id, info.seed_epoch)
            dice = SeededDice(info.dice_id or info.campaign_id, seed, info.seed_epoch, info.next_roll_index)
        decided = list(decide(dice))
        if isinstance(dice, TableDice):
            dice.finish()
        return self._append(info.campaign_id, info.last_seq, [*header, *dice.rolled, *decided], command, command_id)

    @command("ledger.roll")
    def roll(
        self,
        info: CampaignInfo,
        notation: str,
        purpose: str,
        *,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        spec = parse(notation)
        if not purpose.strip():
            raise InvalidInputError("--purpose must say what the roll is for")

        def decide(dice: Dice) -> Sequence[Event]:
            dice.roll(spec, purpose.strip())
            return []

        return self.run(info, "roll", decide, table=table, command_id=command_id)

    def reveal(self, info: CampaignInfo, *, command_id: str | None = None) -> AppendResult:
        """Publish the current seed and commit to a fresh one: past rolls become checkable, future ones not."""
        seed = self.vault.seed(info.campaign_id, info.seed_epoch)
        if seed_commitment(seed) != info.seed_commitment:
            raise NotFoundError("the seed held here does not match the campaign's commitment")
        next_seed = self._new_seed()
        events = [
            SeedRevealed(epoch=info.seed_epoch, seed=seed.hex()),
            SeedCommitted(epoch=info.seed_epoch + 1, commitment=self.vault.stage(next_seed)),
        ]
        return self._append(info.campaign_id, info.last_seq, events, "reveal", command_id)

    def fresh_seed(self) -> bytes:
        return self._new_seed()

    def now(self) -> str:
        """Informational wall-clock time for metadata (never read by rules)."""
        return self._clock()

    def new_id(self) -> str:
        """A fresh identifier for a unit, battle or other entity named in events."""
        return self._new_id()

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
        meta: dict[str, Any] = {"actor": self.actor, "command": command, "recorded_at": self._clock()}
        result = self.store.append(
            campaign_id, encoded, expected_seq, command_id=command_id or self._new_id(), meta=meta
        )
        log.info(
            "command.appended",
            campaign_id=campaign_id,
            command=command,
            events=len(result.events),
            head_seq=result.head.seq,
            duplicate=result.duplicate,
        )
        return result

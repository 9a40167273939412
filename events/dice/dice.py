"""The Dice objects handed to rules. A rule asks for a roll; the Dice object records a ``DiceRolled``.

Rules never see where dice come from: seeded (derived from the campaign's secret seed), table (physical
dice the players entered, checked against the notation), or replayed (the recorded dice of an earlier
command, used by ``verify`` and ``amend`` to re-run a rule on exactly the dice it had).

A rule says whose a roll is: ``side``, the side of the unit it tests (None for a roll of no side's, the weather).
:class:`SidedDice` holds a command entered for some sides only (a player's) to that: a roll for another side's
unit comes from that side's own dice, never from the one who typed the command.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from events.dice.derive import derive_faces
from events.dice.notation import DiceSpec
from events.errors import DiceError, Words
from events.families.dice import DiceRolled


@dataclass(frozen=True, slots=True)
class Roll:
    spec: DiceSpec
    faces: tuple[int, ...]
    roll_index: int

    @property
    def total(self) -> int:
        return sum(self.faces) + self.spec.modifier

    def __str__(self) -> str:
        shown = "+".join(map(str, self.faces))
        return f"{self.spec.notation} rolled {shown}" + (
            f" → {self.total}" if len(self.faces) > 1 or self.spec.modifier else ""
        )


class Dice(Protocol):
    def roll(self, spec: DiceSpec, purpose: str, *, side: str | None = None) -> Roll:
        """Roll ``spec`` for ``purpose``; ``side`` is the side of the unit the roll is made for (None: no side's)."""
        ...


class HandedDice(Dice, Protocol):
    """Dice a command is run on, as the executor records them: what it rolled anew (to append) and the roll
    indexes of every die it was handed, in order (its ``command_issued`` names them)."""

    @property
    def rolled(self) -> Sequence[DiceRolled]: ...

    @property
    def used(self) -> tuple[int, ...]: ...


class _RecordingDice:
    def __init__(self, next_index: int, offered: Sequence[DiceRolled] = ()) -> None:
        self.next_index = next_index
        self.rolled: list[DiceRolled] = []
        self._offered = list(offered)

    def _offered_roll(self, spec: DiceSpec, purpose: str) -> Roll | None:
        """The first die left on the table for the same dice (count, sides, modifier), taken off it."""
        for i, held in enumerate(self._offered):
            if (held.count, held.sides, held.modifier) == spec.key:
                del self._offered[i]
                return self._record(spec, tuple(held.faces), purpose, source="offered", offered_from=held.roll_index)
        return None

    def _record(self, spec: DiceSpec, faces: tuple[int, ...], purpose: str, **source: str | int | None) -> Roll:
        roll = Roll(spec, faces, self.next_index)
        self.rolled.append(
            DiceRolled(
                roll_index=self.next_index,
                notation=spec.notation,
                count=spec.count,
                sides=spec.sides,
                modifier=spec.modifier,
                faces=faces,
                total=roll.total,
                purpose=purpose,
                **source,  # type: ignore[arg-type]
            )
        )
        self.next_index += 1
        return roll

    @property
    def used(self) -> tuple[int, ...]:
        """The roll indexes of the dice handed out so far, in order."""
        return tuple(r.roll_index for r in self.rolled)


class SeededDice(_RecordingDice):
    """Dice derived from the campaign's current seed, at the next unused roll indexes."""

    def __init__(
        self,
        campaign_id: str,
        seed: bytes | Callable[[], bytes],
        epoch: int,
        next_index: int,
        offered: Sequence[DiceRolled] = (),
    ) -> None:
        """``seed``: the key, or what fetches it when the first die is derived (a command that rolls nothing
        never reads the secret, and runs where the secret is not held, e.g. an import without secrets)."""
        super().__init__(next_index, offered)
        self._campaign_id = campaign_id
        self._seed = seed
        self._epoch = epoch

    def _key(self) -> bytes:
        if callable(self._seed):
            self._seed = self._seed()
        return self._seed

    def roll(self, spec: DiceSpec, purpose: str, *, side: str | None = None) -> Roll:
        if (held := self._offered_roll(spec, purpose)) is not None:
            return held
        faces = derive_faces(self._key(), self._campaign_id, self.next_index, spec.count, spec.sides)
        return self._record(spec, faces, purpose, source="seeded", seed_epoch=self._epoch)


class TableDice(_RecordingDice):
    """Physical dice entered at the table (``--dice 4,2``), consumed in order and checked against each roll."""

    def __init__(
        self, faces: Sequence[int], entered_by: str, next_index: int, offered: Sequence[DiceRolled] = ()
    ) -> None:
        super().__init__(next_index, offered)
        self._faces = list(faces)
        self._used = 0
        self._entered_by = entered_by

    def roll(self, spec: DiceSpec, purpose: str, *, side: str | None = None) -> Roll:
        held = next((h for h in self._offered if (h.count, h.sides, h.modifier) == spec.key), None)
        if held is not None:  # the dice of a retracted command are still on the table: they are what is entered
            typed = tuple(self._faces[self._used : self._used + spec.count])
            if len(typed) == spec.count:
                spec.check_faces(typed)  # a 7 on a d6 is refused as such, table or no table
            if typed != tuple(held.faces):
                on_table, held_for = ", ".join(map(str, held.faces)), held.purpose
                raise DiceError.counting(
                    "the {notation} rolled for “{held}” by a command that was taken back is still on the table "
                    "({faces}): enter it again for {purpose}, or take it off the table first with "
                    "`campaign reroll --reason …`",
                    "the {notation} rolled for “{held}” by a command that was taken back is still on the table "
                    "({faces}): enter them again for {purpose}, or take them off the table first with "
                    "`campaign reroll --reason …`",
                    n=spec.count,
                    notation=spec.notation,
                    held=held_for,
                    faces=on_table,
                    purpose=purpose,
                )
            self._used += spec.count
            return self._offered_roll(spec, purpose)  # type: ignore[return-value]
        wanted = self._faces[self._used : self._used + spec.count]
        if len(wanted) < spec.count:
            left, entered = len(self._faces) - self._used, len(self._faces)
            if not self._used:
                raise DiceError.counting(
                    "not enough table dice: {purpose} needs {notation}, but {n} die was entered",
                    "not enough table dice: {purpose} needs {notation}, but {n} dice were entered",
                    n=entered,
                    purpose=purpose,
                    notation=spec.notation,
                )
            raise DiceError.counting(
                "not enough table dice: {purpose} needs {notation}, but only {n} of the {entered} entered is left",
                "not enough table dice: {purpose} needs {notation}, but only {n} of the {entered} entered are left",
                n=left,
                purpose=purpose,
                notation=spec.notation,
                entered=entered,
            )
        faces = tuple(wanted)
        spec.check_faces(faces)
        self._used += spec.count
        return self._record(spec, faces, purpose, source="table", entered_by=self._entered_by)

    def finish(self) -> None:
        """Refuse leftover dice: an extra die entered usually means a mistake in what was typed."""
        if self._used != len(self._faces):
            left = self._faces[self._used :]
            shown = ", ".join(map(str, left))
            if not self._used:  # e.g. a unit hit, but not hard enough for a test: say so, not only "not used"
                raise DiceError.counting(
                    "the rules called for no die here, and {n} table die was entered ({faces}): leave out --dice",
                    "the rules called for no die here, and {n} table dice were entered ({faces}): leave out --dice",
                    n=len(left),
                    faces=shown,
                )
            raise DiceError.counting(
                "the rules called for {used} of the {entered} table dice entered; {n} was not used ({faces}): "
                "check what was entered",
                "the rules called for {used} of the {entered} table dice entered; {n} were not used ({faces}): "
                "check what was entered",
                n=len(left),
                used=self._used,
                entered=len(self._faces),
                faces=shown,
            )


class ReplayDice:
    """The recorded dice of a past command, handed back in order; a rule that asks differently is caught."""

    def __init__(self, recorded: Sequence[DiceRolled]) -> None:
        self._recorded = list(recorded)
        self._used = 0

    def roll(self, spec: DiceSpec, purpose: str, *, side: str | None = None) -> Roll:
        if self._used >= len(self._recorded):
            raise DiceError.saying(
                "the rule asked for more dice than were recorded ({purpose}: {notation})",
                purpose=purpose,
                notation=spec.notation,
            )
        event = self._recorded[self._used]
        if (event.count, event.sides, event.modifier) != (spec.count, spec.sides, spec.modifier):
            raise DiceError.saying(
                "the rule asked for {notation} ({purpose}) where the log recorded {recorded} ({recorded_for})",
                notation=spec.notation,
                purpose=purpose,
                recorded=event.notation,
                recorded_for=event.purpose,
            )
        self._used += 1
        return Roll(spec, tuple(event.faces), event.roll_index)

    @property
    def unused(self) -> int:
        return len(self._recorded) - self._used

    @property
    def rolled(self) -> tuple[DiceRolled, ...]:
        """Recorded dice handed back are no new rolls: nothing to append."""
        return ()

    @property
    def used(self) -> tuple[int, ...]:
        """The roll indexes handed back so far, in order."""
        return tuple(e.roll_index for e in self._recorded[: self._used])


class AnotherSidesDieError(DiceError):
    """A roll for another side's unit, in a command entered for some sides only: that side's to enter."""

    def __init__(self, side: str, purpose: str, notation: str) -> None:
        self.side, self.purpose, self.notation = side, purpose, notation
        self.words = Words(
            "{purpose} ({notation}) is rolled for {side}: the player of {side} or the game master enters it, "
            "never the one who typed the command",
            purpose=purpose,
            notation=notation,
            side=side,
        )
        super().__init__(str(self.words))


Recording = SeededDice | TableDice
"""Dice that record what they roll (as ``dice.rolled`` events)."""


class SidedDice:
    """The dice of a command entered for ``sides`` only (a player's, on a shared server).

    A roll for one of ``sides`` (or for no side's unit) comes from ``own``, the dice the command was entered
    with; a roll for another side's unit from the dice that side gave for it (``others``: its table dice, or the
    campaign's seeded dice if it chose them), and is refused (:class:`AnotherSidesDieError`) when it gave none: it
    is never taken from the one who typed the command. All of them roll at the command's next roll indexes, in
    the order the rules ask, and share the dice a retracted command left on the table."""

    def __init__(self, own: Recording, sides: frozenset[str], others: dict[str, Recording] | None = None) -> None:
        self._own = own
        self._sides = frozenset(s.strip().casefold() for s in sides)
        self._others = {side.strip().casefold(): dice for side, dice in (others or {}).items()}
        for dice in self._others.values():
            dice._offered = own._offered  # one table: a die offered again is taken once, whoever rolls it
        self.next_index = own.next_index
        self.rolled: list[DiceRolled] = []

    def _for(self, spec: DiceSpec, purpose: str, side: str | None) -> Recording:
        if side is None or side.strip().casefold() in self._sides:
            return self._own
        found = self._others.get(side.strip().casefold())
        if found is None:
            raise AnotherSidesDieError(side, purpose, spec.notation)
        return found

    def roll(self, spec: DiceSpec, purpose: str, *, side: str | None = None) -> Roll:
        dice = self._for(spec, purpose, side)
        dice.next_index = self.next_index
        had = len(dice.rolled)
        roll = dice.roll(spec, purpose, side=side)
        self.rolled.extend(dice.rolled[had:])
        self.next_index = dice.next_index
        return roll

    @property
    def used(self) -> tuple[int, ...]:
        """The roll indexes of the dice handed out so far, in order, whoever gave them."""
        return tuple(r.roll_index for r in self.rolled)

    def finish(self) -> None:
        """Refuse leftover table dice of any of them (see :meth:`TableDice.finish`)."""
        for dice in (self._own, *self._others.values()):
            if isinstance(dice, TableDice):
                dice.finish()


def parse_table_dice(text: str) -> list[int]:
    """``"4,2"`` or ``"4 2"`` → ``[4, 2]``; anything but whole numbers is refused."""
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise DiceError.saying("--dice needs the faces rolled, e.g. --dice 4,2")
    faces: list[int] = []
    for part in parts:
        if not (part.isascii() and part.isdigit() and len(part) <= 3):
            raise DiceError.saying("{part!r} is not a die face: --dice takes whole numbers such as 4,2", part=part[:20])
        faces.append(int(part))
    return faces

"""Dice asked for one at a time (``--dice ask``), and the dry run that counts the dice a command needs.

:class:`AskedDice` are table dice entered as the rules need them: each die is asked for through a callback the
interface provides (the command line prompts on its terminal), with what it is for and which die, and each face
is checked against the die. They are recorded exactly like dice typed with ``--dice 4,2``.

:class:`CountingDice` answer every die with its lowest (or highest) face and record nothing, so that a command's
decision can be run once to learn how many dice of which kinds it asks for before anyone rolls them. A rule may
ask for more dice after some rolls than after others; running it at both ends shows when that is so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from events.dice.dice import Roll, _RecordingDice
from events.dice.notation import DiceSpec
from events.errors import DiceError
from events.families.dice import DiceRolled


@dataclass(frozen=True, slots=True)
class DieRequest:
    """One physical die a rule asks for."""

    purpose: str
    """What the roll is for, in the rule's words ("morale test of 3rd Squad")."""
    notation: str
    """The whole roll it belongs to ("2d6+1")."""
    sides: int
    number: int
    """Which die of the roll (1-based)."""
    count: int
    """How many dice the roll has."""
    on_table: int | None = None
    """The face a retracted command left on the table for this die: it must be entered again."""

    def question(self) -> str:
        """ "Morale test of 3rd Squad: d8?", "Morale check, Fusiliers: d6 (2 of 2 for 2d6)?"."""
        which = f"d{self.sides}"
        if self.count > 1 or self.notation not in (which, f"1{which}"):
            which += f" ({self.number} of {self.count} for {self.notation})"
        still = f" [still on the table: {self.on_table}]" if self.on_table is not None else ""
        return f"{self.purpose[:1].upper()}{self.purpose[1:]}: {which}{still}?"


Ask = Callable[[DieRequest], int]
"""Asks a person for one die; returns the face they typed."""


class AskedDice(_RecordingDice):
    """Physical dice entered one by one as the rules ask for them, checked, and recorded as table dice."""

    def __init__(self, ask: Ask, entered_by: str, next_index: int, offered: Sequence[DiceRolled] = ()) -> None:
        super().__init__(next_index, offered)
        self._ask = ask
        self._entered_by = entered_by

    def roll(self, spec: DiceSpec, purpose: str, *, side: str | None = None) -> Roll:
        held = next((h for h in self._offered if (h.count, h.sides, h.modifier) == spec.key), None)
        faces = tuple(
            self._ask(
                DieRequest(
                    purpose,
                    spec.notation,
                    spec.sides,
                    i + 1,
                    spec.count,
                    held.faces[i] if held is not None else None,
                )
            )
            for i in range(spec.count)
        )
        spec.check_faces(faces)
        if held is not None:  # the dice of a retracted command are still on the table: they are what is entered
            if faces != tuple(held.faces):
                raise DiceError.saying(
                    "the {notation} a retracted command rolled is still on the table ({faces}; {purpose}): enter "
                    "those dice again, or take them off the table first with `campaign reroll --reason …`",
                    notation=spec.notation,
                    faces=", ".join(map(str, held.faces)),
                    purpose=purpose,
                )
            return self._offered_roll(spec, purpose)  # type: ignore[return-value]
        return self._record(spec, faces, purpose, source="table", entered_by=self._entered_by)


@dataclass(frozen=True, slots=True)
class Needed:
    """A roll a dry run met: its dice, what for, and whether a retracted command's dice on the table serve."""

    notation: str
    count: int
    sides: int
    purpose: str
    on_table: bool
    side: str | None = None
    """The side whose unit the roll is for (None: no side's): a player rolls for its own sides only."""
    faces_on_table: tuple[int, ...] = ()
    """The faces a retracted command left on the table for this roll (``on_table``): the ones to enter again."""


class CountingDice(_RecordingDice):
    """A dry run's dice: each roll is noted and answered with every die's lowest (or highest) face."""

    def __init__(self, face: Literal["low", "high"], next_index: int, offered: Sequence[DiceRolled] = ()) -> None:
        super().__init__(next_index, offered)
        self._face = face
        self.needed: list[Needed] = []

    def roll(self, spec: DiceSpec, purpose: str, *, side: str | None = None) -> Roll:
        held = self._offered_roll(spec, purpose)
        faces = tuple(held.faces) if held is not None else ()
        self.needed.append(Needed(spec.notation, spec.count, spec.sides, purpose, held is not None, side, faces))
        if held is not None:
            return held
        face = 1 if self._face == "low" else spec.sides
        return self._record(spec, (face,) * spec.count, purpose, source="table", entered_by="dry run")

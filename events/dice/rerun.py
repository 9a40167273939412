"""The dice of a recorded command run again by an amendment: its own dice first, then the table's, then new ones.

An amendment re-runs the command it corrects and every later command. Each gets back the dice it recorded, wherever
its rules ask for the same dice (count, sides and modifier), in the order it rolled them; a die it no longer asks
for goes back on the table. When its rules ask for dice none of its own serve, it takes the dice left on the table
first, in the order they were rolled (as any command does), and only then new dice from the amendment's source:
the campaign's seeded dice, faces typed at the table (``--dice 4,2``), faces asked for one at a time (``--dice
ask``), or, for a preview that must not show a seeded die before it is rolled, stand-ins at every die's lowest or
highest face.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from events.dice.ask import Ask, DieRequest
from events.dice.derive import derive_faces
from events.dice.dice import Roll, _RecordingDice
from events.dice.notation import DiceSpec
from events.errors import DiceError
from events.families.dice import DiceRolled

Source = dict[str, str | int | None]
"""How a new die came to be, as its ``dice.rolled`` records it (source, seed epoch or who entered it)."""


class NewDice(Protocol):
    """Where an amendment's new dice come from."""

    known: bool
    """Whether the faces are the dice themselves (False: stand-ins, for a preview)."""

    def take(self, spec: DiceSpec, purpose: str, roll_index: int) -> tuple[tuple[int, ...], Source]: ...


class NotEnoughDiceError(DiceError):
    """The faces typed for an amendment's new dice ran out before its commands stopped asking."""


class SeededFaces:
    """The campaign's own seeded dice, at the next unused roll indexes."""

    known = True

    def __init__(self, campaign_id: str, key: Callable[[], bytes], epoch: int) -> None:
        self._campaign_id, self._key, self._epoch = campaign_id, key, epoch

    def take(self, spec: DiceSpec, purpose: str, roll_index: int) -> tuple[tuple[int, ...], Source]:
        faces = derive_faces(self._key(), self._campaign_id, roll_index, spec.count, spec.sides)
        return faces, {"source": "seeded", "seed_epoch": self._epoch}


class TypedFaces:
    """Faces the table rolled and typed in, used in order across the amendment's commands and checked against
    each die; what a command that no longer applies took is given back (:meth:`mark`, :meth:`restore`)."""

    known = True

    def __init__(self, faces: Sequence[int], entered_by: str) -> None:
        self._faces = list(faces)
        self._entered_by = entered_by
        self.position = 0

    def take(self, spec: DiceSpec, purpose: str, roll_index: int) -> tuple[tuple[int, ...], Source]:
        wanted = tuple(self._faces[self.position : self.position + spec.count])
        if len(wanted) < spec.count:
            raise NotEnoughDiceError.saying(
                "the amendment needs more new dice than --dice gave ({given}): {purpose} needs {notation} "
                "(`amend … --dry-run` lists every die it needs)",
                given=len(self._faces),
                purpose=purpose,
                notation=spec.notation,
            )
        spec.check_faces(wanted)
        self.position += spec.count
        return wanted, {"source": "table", "entered_by": self._entered_by}

    def left(self) -> list[int]:
        return self._faces[self.position :]


class AskedFaces:
    """Faces asked for one die at a time, as the rules need them (``--dice ask``), each checked."""

    known = True

    def __init__(self, ask: Ask, entered_by: str) -> None:
        self._ask = ask
        self._entered_by = entered_by

    def take(self, spec: DiceSpec, purpose: str, roll_index: int) -> tuple[tuple[int, ...], Source]:
        faces = tuple(
            self._ask(DieRequest(purpose, spec.notation, spec.sides, i + 1, spec.count)) for i in range(spec.count)
        )
        spec.check_faces(faces)
        return faces, {"source": "table", "entered_by": self._entered_by}


class StandInFaces:
    """Every new die at its lowest (or highest) face, for a preview: the real dice are not rolled yet.

    A rule that rolls again until a roll leaves a band (Mass Combat's 3d quality for a new unit, rerolled while it
    reads Veterans or Elite) would roll constant stand-ins forever: each further die for the same purpose takes
    the other extreme, so such a roll ends on its second stand-in, and the preview says the command depends on the
    new dice. :data:`MOST` stand-ins at the most, whatever the rules ask: a preview never runs without end."""

    known = False
    MOST = 1000

    def __init__(self, face: Literal["low", "high"]) -> None:
        self.face = face
        self._asked: dict[str, int] = {}
        self._taken = 0

    def take(self, spec: DiceSpec, purpose: str, roll_index: int) -> tuple[tuple[int, ...], Source]:
        self._taken += 1
        if self._taken > self.MOST:
            raise DiceError.saying(
                "the preview stopped after {most} stand-in dice: {purpose} keeps asking for more",
                most=self.MOST,
                purpose=purpose,
            )
        again = self._asked.get(purpose, 0)
        self._asked[purpose] = again + 1
        low = (self.face == "low") == (again % 2 == 0)
        face = 1 if low else spec.sides
        return (face,) * spec.count, {"source": "table", "entered_by": "stand-in"}


@dataclass(frozen=True, slots=True)
class NewDie:
    """A die a re-run command rolled that it had not rolled before: what for, and whether the table held it."""

    notation: str
    purpose: str
    from_table: int | None
    """The roll index of the die a retracted or skipped command left on the table, taken again; None: new."""


class RerunDice(_RecordingDice):
    """A command's own recorded dice handed back where its rules ask for the same dice; then the table's dice
    (``table``: in the order rolled, not changed here: :attr:`table_left` is the table after this command); then
    new dice from ``new``. Records a ``dice.rolled`` for every die taken from the table or new."""

    def __init__(self, own: Sequence[DiceRolled], table: Sequence[DiceRolled], new: NewDice, next_index: int) -> None:
        super().__init__(next_index, table)
        self._own = list(own)
        self._new = new
        self._handed: list[int] = []
        self.new_dice: list[NewDie] = []

    def roll(self, spec: DiceSpec, purpose: str, *, side: str | None = None) -> Roll:
        # ``side`` is not asked: an amendment is the game master's, whose dice serve every side's roll
        for i, die in enumerate(self._own):
            if (die.count, die.sides, die.modifier) == spec.key:
                del self._own[i]
                self._handed.append(die.roll_index)
                return Roll(spec, tuple(die.faces), die.roll_index)
        held = self._offered_roll(spec, purpose)
        if held is not None:
            self.new_dice.append(NewDie(spec.notation, purpose, self.rolled[-1].offered_from))
        else:
            faces, source = self._new.take(spec, purpose, self.next_index)
            held = self._record(spec, faces, purpose, **source)
            self.new_dice.append(NewDie(spec.notation, purpose, None))
        self._handed.append(held.roll_index)
        return held

    @property
    def used(self) -> tuple[int, ...]:
        return tuple(self._handed)

    @property
    def unused(self) -> list[DiceRolled]:
        """The command's own dice its rules did not ask for again: back on the table."""
        return list(self._own)

    @property
    def table_left(self) -> list[DiceRolled]:
        return list(self._offered)

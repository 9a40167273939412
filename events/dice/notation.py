"""Dice notation: ``dN``, ``kdN``, GURPS ``3d``/``4d+20``, ``+``/``-`` modifiers, and die-step shifts.

A die-step shift moves a die along the quality ladder d4 < d6 < d8 < d10 < d12 and clamps at both ends
(Stargrunt's "closed shift"): ``d10-1step`` is a d8, ``d12+1step`` stays a d12. Written after the die,
before any modifier: ``d10-2step+1``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from events.errors import DiceError, Words

SIDES = (4, 6, 8, 10, 12, 20, 100)
STEP_LADDER = (4, 6, 8, 10, 12)
MAX_DICE = 100
MAX_MODIFIER = 1000

_PATTERN = re.compile(
    r"""^\s*(?P<count>\d+)?\s*d\s*(?P<sides>\d+)?
        \s*(?:(?P<step>[+-]\s*\d+)\s*steps?)?
        \s*(?P<mod>[+-]\s*\d+)?\s*$""",
    re.IGNORECASE | re.VERBOSE | re.ASCII,
)


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """What to roll: ``count`` dice of ``base_sides`` shifted ``step`` places on the ladder, plus ``modifier``."""

    count: int
    base_sides: int
    modifier: int = 0
    step: int = 0

    @property
    def key(self) -> tuple[int, int, int]:
        """What makes two rolls the same dice: how many, of how many sides, with what modifier."""
        return (self.count, self.sides, self.modifier)

    @property
    def sides(self) -> int:
        """The die actually rolled, after the step shift."""
        if self.step == 0:
            return self.base_sides
        index = STEP_LADDER.index(self.base_sides) + self.step
        return STEP_LADDER[max(0, min(len(STEP_LADDER) - 1, index))]

    @property
    def notation(self) -> str:
        text = f"{self.count}d{self.base_sides}" if self.count != 1 else f"d{self.base_sides}"
        if self.step:
            text += f"{self.step:+d}step"
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier

    def shifted(self, steps: int) -> DiceSpec:
        """The same roll with the die moved ``steps`` more places on the ladder."""
        if steps and self.base_sides not in STEP_LADDER:
            raise _not_on_the_ladder(self.base_sides)
        return DiceSpec(self.count, self.base_sides, self.modifier, self.step + steps)

    def check_faces(self, faces: tuple[int, ...]) -> None:
        """Refuse table dice that this spec could not have rolled."""
        if len(faces) != self.count:
            raise DiceError.counting(
                "{notation} needs {n} die, but {entered}",
                "{notation} needs {n} dice, but {entered}",
                n=self.count,
                notation=self.notation,
                entered=Words.counted("{n} was entered", "{n} were entered", n=len(faces)),
            )
        for face in faces:
            if not 1 <= face <= self.sides:
                if self.notation == f"d{self.sides}":  # not "a d6 … in d6"
                    raise DiceError.saying(
                        "{face} is not a face of a d{sides} (faces 1–{sides})", face=face, sides=self.sides
                    )
                raise DiceError.saying(
                    "{face} is not a face of a d{sides} (faces 1–{sides}) in {notation}",
                    face=face,
                    sides=self.sides,
                    notation=self.notation,
                )


def die(sides: int, *, step: int = 0, modifier: int = 0) -> DiceSpec:
    """One die of ``sides``, checked like parsed notation."""
    return _checked(DiceSpec(1, sides, modifier, step))


def parse(text: str) -> DiceSpec:
    """Parse dice notation, refusing anything ambiguous with a message that says why."""
    match = _PATTERN.match(text or "")
    if match is None:
        raise DiceError.saying(
            "malformed dice notation {text!r}: use dN, kdN, 3d (GURPS d6s), a +/- modifier, "
            "or a die-step shift such as d10-1step",
            text=text,
        )
    if not match["count"] and not match["sides"]:
        raise DiceError.saying(
            "malformed dice notation {text!r}: say which die, e.g. d6, or 3d for three GURPS d6s", text=text
        )
    if any(len(part) > 9 for part in match.groups() if part):
        raise DiceError.saying(
            "dice notation {text!r}: a number in it is out of range (modifiers are ±{most})",
            text=text[:40],
            most=MAX_MODIFIER,
        )
    count = int(match["count"]) if match["count"] else 1
    sides = int(match["sides"]) if match["sides"] else 6  # GURPS: "3d" means three six-sided dice
    step = int(match["step"].replace(" ", "")) if match["step"] else 0
    modifier = int(match["mod"].replace(" ", "")) if match["mod"] else 0
    return _checked(DiceSpec(count, sides, modifier, step))


def _checked(spec: DiceSpec) -> DiceSpec:
    if spec.base_sides not in SIDES:
        raise DiceError.saying(
            "d{sides} is not a die this program rolls (d4, d6, d8, d10, d12, d20, d100)", sides=spec.base_sides
        )
    if not 1 <= spec.count <= MAX_DICE:
        raise DiceError.saying(
            "between 1 and {most} dice may be rolled at once, not {count}", most=MAX_DICE, count=spec.count
        )
    if abs(spec.modifier) > MAX_MODIFIER:
        raise DiceError.saying(
            "a modifier of {modifier} is out of range (±{most})", modifier=spec.modifier, most=MAX_MODIFIER
        )
    if spec.step and spec.base_sides not in STEP_LADDER:
        raise _not_on_the_ladder(spec.base_sides)
    return spec


def _not_on_the_ladder(sides: int) -> DiceError:
    return DiceError.saying("d{sides} is not on the d4–d12 ladder and cannot be shifted", sides=sides)

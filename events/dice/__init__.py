"""Dice: notation, seeded derivation, and the Dice objects rules roll with."""

from events.dice.derive import DERIVATION, derive_face, derive_faces, dice_key, seed_commitment, share_commitment
from events.dice.dice import (
    AnotherSidesDieError,
    Dice,
    HandedDice,
    ReplayDice,
    Roll,
    SeededDice,
    SidedDice,
    TableDice,
    parse_table_dice,
)
from events.dice.notation import DiceSpec, die, parse

__all__ = [
    "DERIVATION",
    "AnotherSidesDieError",
    "Dice",
    "DiceSpec",
    "HandedDice",
    "ReplayDice",
    "Roll",
    "SeededDice",
    "SidedDice",
    "TableDice",
    "derive_face",
    "derive_faces",
    "dice_key",
    "die",
    "parse",
    "parse_table_dice",
    "seed_commitment",
    "share_commitment",
]

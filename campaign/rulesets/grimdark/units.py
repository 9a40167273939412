"""A Grimdark Future unit as the morale rules read it (RULES.md §4.1), and how wounds fall on it: on its soldiers
one model at a time, then on a joined hero, who is one model of the unit and takes wounds last (R2-32)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from events.errors import InvalidInputError


@dataclass(frozen=True)
class Unit:
    """What the rules read of a unit in a battle."""

    unit_id: str
    name: str
    side: str
    quality: int
    start_size: int
    models: int
    tough: int
    carried: int = 0
    """Wounds on the model that is taking them, short of killing it."""
    total_wounds: int = 0
    fearless: bool = False
    """The unit's own flag; ``every_model_fearless``: every model now in it has Fearless, a joined hero included
    (None: as its own flag, for a unit alone)."""
    every_model_fearless: bool | None = None
    hero: bool = False
    shaken: bool = False
    traits: tuple[str, ...] = ()
    tested: bool = False
    """It has taken a morale test this battle (Motivated passes only the first)."""
    hero_id: str | None = None
    """A hero joined to it (R2-32): one model of the unit, with its own Tough, that takes wounds last."""
    hero_tough: int = 0
    hero_carried: int = 0
    """Wounds on the joined hero, short of killing it."""
    hero_fearless: bool = False

    @property
    def hero_alive(self) -> bool:
        return self.hero_id is not None and self.hero_carried < self.hero_tough

    @property
    def size(self) -> int:
        """The models now in the unit: its soldiers and, while it lives, its joined hero (R2-32)."""
        return self.models + (1 if self.hero_alive else 0)

    @property
    def half(self) -> bool:
        if self.start_size == 1:
            return self.total_wounds * 2 >= self.tough
        return self.size * 2 <= self.start_size

    @property
    def destroyed(self) -> bool:
        return self.size == 0


def take_wounds(unit: Unit, wounds: int, models_lost: int | None = None, *, hero_last: bool = True) -> tuple[Unit, int]:
    """The unit after ``wounds`` unblocked wounds, and the soldiers they killed (``models_lost`` overrides the
    count when the wounds were allocated otherwise). A joined hero takes wounds last (R2-32): what is left once
    every soldier is dead goes onto the hero. ``hero_last`` false: the hero falls with the last soldier."""
    if wounds < 0:
        raise InvalidInputError.saying("wounds cannot be negative ({wounds})", wounds=wounds)
    pool = unit.carried + wounds
    lost = min(unit.models, pool // unit.tough) if models_lost is None else models_lost
    if not 0 <= lost <= unit.models:
        raise InvalidInputError.saying(
            "{unit} has {models} models: it cannot lose {lost}", unit=unit.name, models=unit.models, lost=lost
        )
    models = unit.models - lost
    carried = 0 if models == 0 or models_lost is not None else pool % unit.tough
    spill = pool - unit.models * unit.tough if models == 0 and models_lost is None and unit.hero_alive else 0
    hero = min(unit.hero_tough, unit.hero_carried + max(0, spill))
    if not hero_last and models == 0 and unit.models:
        hero = unit.hero_tough
    after = replace(unit, models=models, carried=carried, total_wounds=unit.total_wounds + wounds, hero_carried=hero)
    if models == 0 and after.hero_alive:  # the lone hero is every model of the unit now (R2-33)
        after = replace(after, every_model_fearless=unit.hero_fearless)
    return after, lost

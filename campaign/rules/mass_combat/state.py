"""The Mass Combat campaign state folded from the log: roster units with their men, wounded and experience."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from campaign.rules.mass_combat.profile import UnitProfile
from campaign.rules.mass_combat.quality import quality_for_experience
from campaign.rules.mass_combat.tables import QUALITIES, Tables
from campaign.rules.tables import Override
from events.envelope import RecordedEvent

RULESET = "mass-combat"


@dataclass(frozen=True)
class Unit:
    unit_id: str
    name: str
    side: str
    profile: UnitProfile
    """``profile.men`` is the men alive; ``wounded`` of them are out until they return."""
    wounded: int = 0
    fought_in: tuple[str, ...] = ()

    @property
    def fit(self) -> int:
        return self.profile.men - self.wounded


@dataclass(frozen=True)
class CampaignState:
    roster: Mapping[str, Unit] = field(default_factory=dict)
    overrides: tuple[Override, ...] = ()
    battles: tuple[str, ...] = ()
    open_battle: str | None = None

    def unit_by_name(self, name: str) -> Unit | None:
        return next((u for u in self.roster.values() if name in (u.name, u.unit_id)), None)


def apply(state: CampaignState, event: RecordedEvent, tables: Tables | None = None) -> CampaignState:
    p = event.payload
    kind = event.type
    if kind == "roster.unit_mustered":
        roster = dict(state.roster)
        roster[p["unit_id"]] = Unit(p["unit_id"], p["name"], p["side"], UnitProfile.model_validate(p["profile"]))
        return replace(state, roster=roster)
    if kind == "rules.table_overridden" and p["ruleset"] == RULESET:
        return replace(state, overrides=(*state.overrides, Override(p["path"], p["value"], p["source"])))
    if kind == "battle.started":
        first_day = p["battle_id"] != state.open_battle
        return replace(
            state, open_battle=p["battle_id"], battles=state.battles + ((p["battle_id"],) if first_day else ())
        )
    if kind == "battle.casualties_taken":
        unit = state.roster.get(p["unit_id"])
        if unit is None:
            return state
        men = max(0, unit.profile.men - p["dead"])
        fought = unit.fought_in if p["battle_id"] in unit.fought_in else (*unit.fought_in, p["battle_id"])
        roster = dict(state.roster)
        roster[unit.unit_id] = replace(
            unit,
            profile=unit.profile.model_copy(update={"men": men}),
            wounded=min(men, unit.wounded + p["wounded"]),
            fought_in=fought,
        )
        return replace(state, roster=roster)
    if kind == "battle.ended" and tables is not None:
        if p.get("result") == "continues":
            return state
        # One more battle of experience for every man of every unit that fought in it (§2.3).
        roster = dict(state.roster)
        for unit in state.roster.values():
            if p["battle_id"] in unit.fought_in:
                experience = unit.profile.experience + 1
                earned = quality_for_experience(tables, experience)
                quality = max(unit.profile.quality, earned, key=QUALITIES.index)
                roster[unit.unit_id] = replace(
                    unit, profile=unit.profile.model_copy(update={"experience": experience, "quality": quality})
                )
        return replace(state, roster=roster, open_battle=None)
    return state


def fold(events: Iterable[RecordedEvent], tables_for: object = None) -> CampaignState:
    from campaign.rules.tables import apply_overrides

    state = CampaignState()
    for event in events:
        tables = None
        if event.type == "battle.ended" and isinstance(tables_for, Mapping):
            tables = Tables(apply_overrides(tables_for, state.overrides))
        state = apply(state, event, tables)
    return state

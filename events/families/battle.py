"""What happens on the table during a battle: the facts that rules cause and projections fold."""

from __future__ import annotations

from events.recorded import JsonValue
from events.registry import Event, registry


@registry.register
class BattleStarted(Event):
    """A battle began. ``settings`` holds each side's ruleset settings (e.g. ``{"Keno": {"motivation": "low"}}``)."""

    event_name = "battle.started"

    battle_id: str
    name: str
    scenario: str = ""
    sides: tuple[str, ...]
    settings: dict[str, dict[str, JsonValue]]


@registry.register
class UnitDeployed(Event):
    event_name = "battle.unit_deployed"

    battle_id: str
    unit_id: str
    side: str
    men: int
    state: dict[str, JsonValue]
    """Ruleset state at deployment (five grades: fatigue, start grade, in cover, prone)."""


@registry.register
class TurnBegan(Event):
    event_name = "battle.turn_began"

    battle_id: str
    turn: int


@registry.register
class UnitActivated(Event):
    event_name = "battle.unit_activated"

    battle_id: str
    unit_id: str
    turn: int


@registry.register
class AttackResolved(Event):
    """Fire or an assault hit the unit: who fell, and what it did to the unit."""

    event_name = "battle.attack_resolved"

    battle_id: str
    unit_id: str
    killed: int
    wounded: int
    suppressing: bool = False
    artillery: bool = False
    leader_hit: bool = False
    source: str = ""


@registry.register
class WoundedChecked(Event):
    """A Reorganise action checked wounded men: they are no longer unverified casualties."""

    event_name = "battle.wounded_checked"

    battle_id: str
    unit_id: str
    count: int


@registry.register
class WoundedAbandoned(Event):
    event_name = "battle.wounded_abandoned"

    battle_id: str
    unit_id: str


@registry.register
class PositionChanged(Event):
    event_name = "battle.position_changed"

    battle_id: str
    unit_id: str
    prone: bool | None = None
    in_cover: bool | None = None


@registry.register
class SuppressionChanged(Event):
    event_name = "battle.suppression_changed"

    battle_id: str
    unit_id: str
    markers: int
    """The unit's suppression markers after the change."""


@registry.register
class ActivationLost(Event):
    event_name = "battle.activation_lost"

    battle_id: str
    unit_id: str
    turn: int


@registry.register
class UnitRemoved(Event):
    """The unit left the battle: fled, surrendered, scattered or wiped out."""

    event_name = "battle.unit_removed"

    battle_id: str
    unit_id: str
    reason: str


@registry.register
class BattleEnded(Event):
    event_name = "battle.ended"

    battle_id: str
    result: str
    winner: str | None = None


@registry.register
class ModelsLost(Event):
    """Models a unit lost: to shooting or melee (which calls for a morale check) or captured while retreating."""

    event_name = "battle.models_lost"

    battle_id: str
    unit_id: str
    count: int
    cause: str
    """shooting, melee or captured."""


@registry.register
class ForceMorale(Event):
    """A force's morale (seed 001): ``half`` (every unit tests, once) or ``flees`` (its remaining units flee)."""

    event_name = "battle.force_morale"

    battle_id: str
    side: str
    status: str
    lost_points: int


@registry.register
class OfficerRemoved(Event):
    """A force's officer was removed from play (seed 001): every unit of the side tests, once per game."""

    event_name = "battle.officer_removed"

    battle_id: str
    side: str


@registry.register
class WoundsTaken(Event):
    """Unblocked wounds a unit took in one activation (seed 004), the models they killed, and who caused them."""

    event_name = "battle.wounds_taken"

    battle_id: str
    unit_id: str
    wounds: int
    models_lost: int
    source: str
    """shooting or melee."""
    by_unit_id: str | None = None
    carried: int = 0
    """Wounds left on the model now taking them, short of killing it (Tough above 1)."""


@registry.register
class VictoryPoints(Event):
    event_name = "battle.victory_points"

    battle_id: str
    side: str
    points: int


@registry.register
class KillCredited(Event):
    """Which unit destroyed or routed another (seed 004): the campaign's XP counts kills."""

    event_name = "battle.kill_credited"

    battle_id: str
    unit_id: str
    victim_id: str
    victim_hero: bool = False

"""A game master's table for the seed-002 errata tests: two small armies, battles fought through the public
service with table dice. The dice a test cares about are given as totals; the rest are low filler dice (each
face 2), trimmed to exactly what the battle asks for."""

from __future__ import annotations

from typing import Any

from campaign.executor import Ledger, TableEntry
from campaign.rulesets.mass_combat import battle as mc_battle
from campaign.rulesets.mass_combat import commands as mc
from campaign.rulesets.mass_combat.commands import parse_setup
from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from campaign.rulesets.mass_combat.strength import Strength, troop_strength
from events.dice import TableDice
from events.store import AppendResult
from tests.conftest import Backend, make_ledger


def strength(ledger: Ledger, name: str, *, full: bool = False) -> Strength:
    """The troop strength of the campaign's unit ``name``: of its fit men, or ``full`` of all it musters."""
    from campaign.rulesets.common import find_unit

    state, tables = ledger.in_force(ledger.resolve(None), MASS_COMBAT)
    unit = find_unit(state, name, active=False)
    return troop_strength(tables, unit.profile, men=unit.profile.men if full else unit.fit)


def reevaluate(ledger: Ledger, battle_seq: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rule applications the battle day at ``battle_seq`` recorded, and the ones it decides again now."""
    events = list(ledger.store.read(ledger.resolve(None).campaign_id))
    record = next(e for e in events if e.seq == battle_seq)
    _, tables = ledger.in_force(ledger.resolve(None), MASS_COMBAT, battle_seq - 1)
    command = [e for e in events if e.meta.get("command_id") == record.meta.get("command_id")]
    return mc.replay_battle_day(tables, record, command)


def faces(total: int, count: int = 3) -> list[int]:
    """Six-sided faces that add up to ``total``."""
    out = [1] * count
    left = total - count
    for i in range(count):
        add = min(5, left)
        out[i] += add
        left -= add
    assert left == 0 and all(1 <= f <= 6 for f in out), (total, count)
    return out


def d3(*totals: int) -> list[int]:
    return [f for t in totals for f in faces(t)]


def d4(*totals: int) -> list[int]:
    return [f for t in totals for f in faces(t, 4)]


def side(name: str, units: list[str], strategy: int = 12, **extra: Any) -> dict[str, Any]:
    return {"name": name, "commander": {"strategy": strategy}, "units": [{"unit": u} for u in units], **extra}


def battle(name: str, *sides: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"name": name, "morale_ts": False, "sides": list(sides), **extra}


class War:
    def __init__(self) -> None:
        self.ledger = make_ledger(Backend("memory"))
        self.ledger.create_campaign("Errata", "mass-combat")

    @property
    def info(self) -> Any:
        return self.ledger.resolve(None)

    def muster(self, name: str, side: str, **profile: Any) -> None:
        """These tests turn on other modifiers: troops of TS 0 (given per man) never earn a TS-comparison bonus
        however the armies shrink. Average troops unless told (R3-23 would roll a quality given neither)."""
        stated = {"quality": "average"} if "quality" not in profile and "experience" not in profile else {}
        self.ledger.execute(
            self.info, mc.Muster.build(name=name, side=side, profile={"men": 100, "ts_per_man": 0, **stated, **profile})
        )

    def morale(self, name: str) -> int:
        """The campaign's persistent Morale on a unit, outside any battle (no 'same enemy' modifier)."""
        state, tables = self.ledger.in_force(self.info, MASS_COMBAT)
        unit = state.unit_by_name(name)
        assert unit is not None
        return state.campaign_morale(unit, tables, set())

    def fight(self, setup: dict[str, Any], dice: list[int], **kw: Any) -> AppendResult:
        """The battle with ``dice`` first and filler after, trimmed to what it uses (probed on the same roster)."""
        parsed = parse_setup(setup)
        state, tables = self.ledger.in_force(self.info, MASS_COMBAT)
        names = {s.name for s in parsed.sides}
        roster = {
            u.name: mc_battle.ArmyUnit(
                u.unit_id,
                u.name,
                u.side,
                u.profile.model_copy(update={"men": u.fit}),
                state.campaign_morale(u, tables, names - {u.side}),
            )
            for u in state.roster.values()
            if u.fit + u.profile.crew > 0 and not u.disbanded
        }
        full = [*dice, *[2] * 300]
        probe = TableDice(full, "probe", 0)
        mc_battle.resolve_battle(tables, parsed, roster, "probe", probe)
        used = sum(len(r.faces) for r in probe.rolled)
        assert used >= len(dice), "the battle used fewer dice than the test scripted"
        return self.ledger.execute(self.info, mc.Battle.build(setup=parsed, **kw), table=TableEntry(tuple(full[:used])))


RED = ["Red foot", "Red guard"]
BLUE = ["Blue foot", "Blue guard"]


def two_armies() -> War:
    """Crimson's two units (RED) and Azure's two (BLUE), mustered as :meth:`War.muster` makes them."""
    w = War()
    for name in RED:
        w.muster(name, "Crimson")
    for name in BLUE:
        w.muster(name, "Azure")
    return w


def applied(result: AppendResult, rule: str) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in result.events if e.type == "rules.applied" and e.payload["rule"] == rule]

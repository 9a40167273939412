"""A game master's table for the seed-002 errata tests: two small armies, battles fought through the public
service with table dice. The dice a test cares about are given as totals; the rest are low filler dice (each
face 2), trimmed to exactly what the battle asks for."""

from __future__ import annotations

from typing import Any

from campaign.executor import TableEntry
from campaign.rulesets.mass_combat import battle as mc_battle
from campaign.rulesets.mass_combat.commands import parse_setup
from events.dice import TableDice
from events.store import AppendResult
from tests.conftest import Backend, make_ledger
from tests.services import MassCombat


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
        self.game = MassCombat(self.ledger)

    @property
    def info(self) -> Any:
        return self.ledger.resolve(None)

    def muster(self, name: str, side: str, **profile: Any) -> None:
        """These tests turn on other modifiers: troops of TS 0 (given per man) never earn a TS-comparison bonus
        however the armies shrink. Average troops unless told (R3-23 would roll a quality given neither)."""
        stated = {"quality": "average"} if "quality" not in profile and "experience" not in profile else {}
        self.game.muster(self.info, name, side, {"men": 100, "ts_per_man": 0, **stated, **profile})

    def morale(self, name: str) -> int:
        """The campaign's persistent Morale on a unit, outside any battle (no 'same enemy' modifier)."""
        state, tables = self.game.state(self.info)
        unit = state.unit_by_name(name)
        assert unit is not None
        return state.campaign_morale(unit, tables, set())

    def fight(self, setup: dict[str, Any], dice: list[int], **kw: Any) -> AppendResult:
        """The battle with ``dice`` first and filler after, trimmed to what it uses (probed on the same roster)."""
        parsed = parse_setup(setup)
        state, tables = self.game.state(self.info)
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
        return self.game.battle(self.info, parsed, table=TableEntry(tuple(full[:used])), **kw)


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

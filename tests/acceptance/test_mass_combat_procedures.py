"""Mass Combat procedures beyond the worked battle: Extraordinary Force, several opponents, Luck,
quick-and-dirty armies, assaults and captured artillery (RULES.md §2.8–§2.13)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.executor import Ledger, TableEntry
from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from campaign.rulesets.mass_combat.commands import parse_setup
from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from events.errors import InvalidInputError
from events.recorded import whole
from tests.acceptance.mass_combat_table import strength
from tests.conftest import Backend, make_ledger

NO_CATASTROPHE = [1, 1, 1]  # a catastrophe roll of 3: nothing happens


@pytest.fixture
def ledger() -> Ledger:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Wars", "mass-combat")
    units = {
        "Green HI": ("North", {"men": 25, "armour": "heavy", "quality": "green", "experience": 1}),  # TS 100
        "North LI": ("North", {"quality": "average", "men": 100, "armour": "light"}),
        "South LI": ("South", {"quality": "average", "men": 100, "armour": "light"}),
        "South guns": ("South", {"quality": "average", "men": 10, "special": {"light_artillery": 4}}),
        "East LI": ("East", {"quality": "average", "men": 60, "armour": "light"}),
        "North horde": ("North", {"men": 1000, "ts_per_man": 3, "quality": "average"}),
        "South horde": ("South", {"men": 800, "ts_per_man": 3, "quality": "average"}),
    }
    for name, (side, profile) in units.items():
        ledger.execute(ledger.resolve(None), mc.Muster.build(name=name, side=side, profile=profile))
    return ledger


def side(name: str, units: list[str], **extra: Any) -> dict[str, Any]:
    return {"name": name, "commander": {"strategy": 12}, "units": [{"unit": u} for u in units], **extra}


def applied(result: Any, rule: str) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in result.events if e.type == "rules.applied" and e.payload["rule"] == rule]


@pytest.mark.parametrize(("direction", "morale"), [(1, 13), (-1, 9)])
def test_extraordinary_force_two_points_move_a_ts_100_units_morale_by_two(
    ledger: Ledger, direction: int, morale: int
) -> None:
    setup = parse_setup(
        {
            "name": "Ford",
            "sides": [
                side(
                    "North",
                    ["Green HI"],
                    es=2,
                    spells=[{"kind": "morale", "points": 2, "target": "Green HI", "direction": direction}],
                ),
                side("South", ["South LI"]),
            ],
            "morale_ts": False,
        }
    )
    dice = NO_CATASTROPHE * 2 + [3, 3, 4, 3, 3, 4] + [3, 3, 3] * 4 + [4, 4, 4, 4] * 2
    result = ledger.execute(ledger.resolve(None), mc.Battle.build(setup=setup), table=_fit(ledger, setup, dice))
    es = applied(result, "extraordinary_force")[0]
    assert f"Morale {direction * 2:+d} on Green HI (TS 100)" in es["explanation"]
    morale_rolls = [d for d in applied(result, "unit_morale") if d["unit_id"] and "Green HI" in d["explanation"]]
    assert morale_rolls, "equal Strategy rolls: no clear winner, so every unit rolls Morale"
    assert morale_rolls[0]["inputs"]["morale"] == morale


def test_spending_more_extraordinary_force_than_the_side_has_is_refused(ledger: Ledger) -> None:
    with pytest.raises(InvalidInputError, match="spends 3 Extraordinary Force points but has 2"):
        parse_setup(
            {
                "name": "x",
                "sides": [
                    side("North", ["Green HI"], es=2, spells=[{"kind": "strike", "points": 3, "target": "South LI"}]),
                    side("South", ["South LI"]),
                ],
            }
        )


def test_a_defence_spell_blocks_the_enemys_strike(ledger: Ledger) -> None:
    setup = parse_setup(
        {
            "name": "Ward",
            "sides": [
                side("North", ["Green HI"], es=1, spells=[{"kind": "strike", "points": 1, "target": "South LI"}]),
                side("South", ["South LI"], es=1, spells=[{"kind": "defence", "points": 1, "target": "South LI"}]),
            ],
        }
    )
    es = applied(ledger.execute(ledger.resolve(None), mc.Battle.build(setup=setup)), "extraordinary_force")
    assert "Strike on South LI: 0 rows up" in es[0]["explanation"]


def test_several_opponents_contest_together_and_compare_with_their_average_ts(ledger: Ledger) -> None:
    setup = parse_setup(
        {
            "name": "Three kings",
            "sides": [
                side("North", ["North LI"]),
                side("South", ["South LI"]),
                side("East", ["East LI"]),
            ],
        }
    )
    dice = NO_CATASTROPHE * 3 + [3, 3, 4, 4, 4, 4, 6, 6, 6]  # North rolls 10, South 12, East 18
    dice += [3, 3, 3] * 5 + [4, 4, 4, 4] * 3  # the losers' Morale rolls (enough), casualty rolls
    result = ledger.execute(ledger.resolve(None), mc.Battle.build(setup=setup), table=_fit(ledger, setup, dice))
    contest = applied(result, "strategy_contest")[0]
    # Each side against the average of its two opponents: North and South (300 vs 240) get +1, East none.
    assert "TS 300:240 = 1.25" in " ".join(contest["inputs"]["modifiers"]["North"])
    assert "TS 300:240 = 1.25" in " ".join(contest["inputs"]["modifiers"]["South"])
    assert contest["inputs"]["modifiers"]["East"] == {}
    assert contest["outcome"]["margins"] == {"North": 3, "South": 1, "East": -6}
    verdict = applied(result, "result")[0]
    assert verdict["outcome"]["winner"] == "North"
    rows = {c["inputs"]["side"]: c["inputs"]["row"] for c in applied(result, "casualties")}
    assert rows == {"North": 2, "South": -2, "East": -9}  # the winner's row is against the closest loser


def _fit(ledger: Ledger, setup: Any, dice: list[int]) -> TableEntry:
    """Table dice: use as many as the battle asks for (the number of Morale rolls depends on the result)."""
    from campaign.rulesets.mass_combat import battle as mc_battle
    from events.dice import TableDice

    state, tables = ledger.in_force(ledger.resolve(None), MASS_COMBAT)
    roster = {u.name: mc_battle.ArmyUnit(u.unit_id, u.name, u.side, u.profile) for u in state.roster.values()}
    probe = TableDice(dice, "probe", 0)
    mc_battle.resolve_battle(tables, setup, roster, "probe", probe)
    return TableEntry(tuple(dice[: sum(len(r.faces) for r in probe.rolled)]))


def test_a_lucky_commander_rerolls_a_lost_contest(ledger: Ledger) -> None:
    lucky = side("South", ["South LI"])
    lucky["commander"] = {"strategy": 12, "luck": True}
    setup = parse_setup({"name": "Fortune", "sides": [side("North", ["North LI"]), lucky]})
    # North rolls 10 (margin +2), South 18 (margin −6), then South's Luck reroll 6 (margin +6).
    dice = NO_CATASTROPHE * 2 + [3, 3, 4, 6, 6, 6, 2, 2, 2] + [3, 3, 3] * 4 + [4, 4, 4, 4] * 2
    result = ledger.execute(ledger.resolve(None), mc.Battle.build(setup=setup), table=_fit(ledger, setup, dice))
    contest = applied(result, "strategy_contest")[0]
    assert "South uses Luck: rolled 6" in contest["explanation"]
    assert contest["outcome"]["margins"]["South"] == 6


def test_quick_and_dirty_armies_are_one_unit_each(ledger: Ledger) -> None:
    assert strength(ledger, "North horde").total == 3000
    setup = parse_setup({"name": "Quick", "sides": [side("North", ["North horde"]), side("South", ["South horde"])]})
    dice = NO_CATASTROPHE * 2 + [3, 3, 4, 3, 3, 4] + [3, 3, 3] * 4 + [4, 4, 4, 4] * 2
    contest = applied(
        ledger.execute(ledger.resolve(None), mc.Battle.build(setup=setup), table=_fit(ledger, setup, dice)),
        "strategy_contest",
    )[0]
    assert contest["inputs"]["ts"] == {"North": 3000, "South": 2400}


def test_an_assault_uses_tables_b_and_c_and_the_victor_captures_lost_artillery(ledger: Ledger) -> None:
    attacker = side("North", ["North LI"], role="attacker", plan=2)
    defender = side("South", ["South LI", "South guns"], role="defender", defensive={"*palisade": 3})
    setup = parse_setup({"name": "Stockade", "kind": "assault", "sides": [attacker, defender]})
    # Attacker 12 + 2 plan, rolls 3 → +11; defender 12 + 1 TS + 3 palisade, rolls 18 → −2: W 13, Table C.
    dice = NO_CATASTROPHE * 2 + [1, 1, 1, 6, 6, 6] + [6, 6, 6] * 4 + [6, 6, 6, 6] * 2 + [6] * 4
    result = ledger.execute(ledger.resolve(None), mc.Battle.build(setup=setup), table=_fit(ledger, setup, dice))
    verdict = applied(result, "result")[0]
    assert verdict["inputs"]["table"] == "C" and verdict["outcome"]["result"] == "position_taken"
    fates = [d["outcome"]["fate"] for d in applied(result, "unit_morale")]
    assert fates == ["routs", "routs"]
    artillery = applied(result, "artillery")
    assert artillery and "North captures" in artillery[0]["explanation"]


def test_the_side_holding_the_field_strips_the_fallen(ledger: Ledger) -> None:
    ledger.execute(
        ledger.resolve(None),
        mc.Muster.build(
            name="Knights",
            side="North",
            profile={"quality": "average", "men": 20, "armour": "heavy", "mount": "heavy_horse", "troop_type": "HC"},
        ),
    )
    ledger.execute(
        ledger.resolve(None),
        mc.Muster.build(
            name="Spears",
            side="South",
            profile={"quality": "average", "men": 200, "armour": "light", "troop_type": "LI"},
        ),
    )
    setup = parse_setup({"name": "Meadow", "sides": [side("North", ["Knights"], plan=3), side("South", ["Spears"])]})
    dice = NO_CATASTROPHE * 2 + [1, 1, 2, 6, 6, 6] + [6, 6, 6] + [6] + [4, 4, 4, 4] * 2
    result = ledger.execute(ledger.resolve(None), mc.Battle.build(setup=setup), table=_fit(ledger, setup, dice))
    battle_id = next(e.payload["battle_id"] for e in result.events if e.type == "battle.started")
    spears = next(
        e.payload for e in result.events if e.type == "battle.casualties_taken" and whole(e.payload["percent"]) > 50
    )
    loot = ledger.execute(ledger.resolve(None), mcal.Loot.build(battle_id=battle_id, side="North"))
    # ⅓ of $1500, sold for 20% = $100 a man; the Spears routed, so their wounded are stripped too.
    assert next(e for e in loot.events if e.type == "economy.funds_changed").payload["amount"] == 100 * (
        whole(spears["dead"]) + whole(spears["wounded"])
    )
    with pytest.raises(InvalidInputError, match="stripped already"):
        ledger.execute(ledger.resolve(None), mcal.Loot.build(battle_id=battle_id, side="North"))
    with pytest.raises(InvalidInputError, match="did not hold the field"):
        ledger.execute(ledger.resolve(None), mcal.Loot.build(battle_id=battle_id, side="South"))

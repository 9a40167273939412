"""The command path's defects, kept fixed: loot and the year's record as rules read from the fold, a command id that
names one command only, and re-evaluation (what `verify` runs) that agrees with an honest log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from campaign.executor import Ledger, TableEntry
from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from campaign.rulesets.mass_combat.commands import parse_setup
from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from campaign.timeline import Timeline
from events.errors import InvalidInputError
from events.recorded import text, whole
from tests.acceptance.test_mass_combat_procedures import NO_CATASTROPHE, _fit, side
from tests.conftest import Backend, make_ledger


@pytest.fixture
def ledger() -> Ledger:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Wars", "mass-combat")
    return ledger


def _meadow(ledger: Ledger) -> tuple[str, Mapping[str, Any], int]:
    """RULES.md §2.12's loot, played: North's Knights rout South's Spears (the dice of the procedures test)."""
    ledger.execute(
        ledger.resolve(None),
        mc.Muster.build(
            name="Knights",
            side="North",
            profile={"men": 20, "armour": "heavy", "mount": "heavy_horse", "troop_type": "HC"},
        ),
    )
    ledger.execute(
        ledger.resolve(None),
        mc.Muster.build(name="Spears", side="South", profile={"men": 200, "armour": "light", "troop_type": "LI"}),
    )
    setup = parse_setup({"name": "Meadow", "sides": [side("North", ["Knights"], plan=3), side("South", ["Spears"])]})
    dice = NO_CATASTROPHE * 2 + [1, 1, 2, 6, 6, 6] + [6, 6, 6] + [6] + [4, 4, 4, 4] * 2
    result = ledger.execute(ledger.resolve(None), mc.Battle.build(setup=setup), table=_fit(ledger, setup, dice))
    battle_id = next(text(e.payload["battle_id"]) for e in result.events if e.type == "battle.started")
    spears = next(
        e.payload for e in result.events if e.type == "battle.casualties_taken" and whole(e.payload["percent"]) > 50
    )
    seq = next(e.seq for e in result.events if e.type == "timeline.command_issued")
    return battle_id, spears, seq


def _paid(result: Any) -> int:
    return int(next(e for e in result.events if e.type == "economy.funds_changed").payload["amount"])


def test_loot_after_an_amend_pays_once_for_the_fallen_still_in_effect(ledger: Ledger) -> None:
    battle_id, spears, seq = _meadow(ledger)
    # The same battle amended (an unchanged input): its casualty events are retracted and appended again.
    Timeline(ledger).amend(ledger.resolve(None), seq, {"final_day": True})
    loot = ledger.execute(ledger.resolve(None), mcal.Loot.build(battle_id=battle_id, side="North"))
    # ⅓ of $1500 sold for 20% = $100 a man, dead and (the Spears routed) wounded: once, not twice.
    assert _paid(loot) == 100 * (spears["dead"] + spears["wounded"])


def test_loot_is_a_rule_with_its_record_and_the_field_is_found_by_the_battles_name(ledger: Ledger) -> None:
    _, spears, _ = _meadow(ledger)
    loot = ledger.execute(ledger.resolve(None), mcal.Loot.build(battle_id="meadow", side="North"))  # by name, any case
    [record] = [e.payload for e in loot.events if e.type == "rules.applied"]
    assert record["rule"] == "loot" and record["clause"] == "RULES.md §2.12"
    assert record["outcome"] == {"value": 100 * (spears["dead"] + spears["wounded"])}


def test_re_evaluating_a_campaign_that_looted_finds_no_drift(ledger: Ledger) -> None:
    """`verify` re-runs every command on its dice: a loot must not find its own payment ("stripped already")."""
    battle_id, _, _ = _meadow(ledger)
    ledger.execute(ledger.resolve(None), mcal.Loot.build(battle_id=battle_id, side="North"))
    assert Timeline(ledger).reevaluate(ledger.resolve(None)) == []


def test_the_year_record_against_the_same_enemy_is_a_rule_a_house_rule_reaches(ledger: Ledger) -> None:
    _meadow(ledger)
    state, _ = ledger.in_force(ledger.resolve(None), MASS_COMBAT)
    # §2.11: "beat the same enemy this year +1; lost to it −2", each counted only against that enemy.
    assert state.side_modifiers["North"]["vs South: beat them this year"].value == 1
    assert state.side_modifiers["South"]["vs North: lost to them this year"].value == -2
    ledger.execute(ledger.resolve(None), mc.HouseRule.build(path="same_enemy.beat", value=3, note="our house rule"))
    ledger.execute(ledger.resolve(None), mc.HouseRule.build(path="same_enemy.lost", value=-1))
    setup = parse_setup({"name": "Ford", "sides": [side("North", ["Knights"], plan=3), side("South", ["Spears"])]})
    dice = NO_CATASTROPHE * 2 + [1, 1, 2, 6, 6, 6] + [6, 6, 6] + [6] + [4, 4, 4, 4] * 2
    result = ledger.execute(ledger.resolve(None), mc.Battle.build(setup=setup), table=_fit(ledger, setup, dice))
    [record] = [
        e.payload for e in result.events if e.type == "rules.applied" and e.payload["rule"] == "same_enemy_this_year"
    ]
    assert record["outcome"] == {"beat": 3, "lost": -1} and record["clause"] == "RULES.md §2.11"


def test_a_command_id_names_one_command_with_its_inputs() -> None:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Ids", "grimdark")
    first = ledger.roll(ledger.resolve(None), "d6", "scatter", command_id="k-1")
    again = ledger.roll(ledger.resolve(None), "d6", "scatter", command_id="k-1")
    assert again.duplicate and again.events == first.events, "a retry of the same command is the earlier result"
    before = len(list(ledger.store.read(ledger.resolve(None).campaign_id)))
    with pytest.raises(InvalidInputError, match=r"already used .*other inputs"):
        ledger.roll(ledger.resolve(None), "d8", "scatter", command_id="k-1")
    assert len(list(ledger.store.read(ledger.resolve(None).campaign_id))) == before


def test_table_dice_on_a_command_that_rolls_none_are_refused() -> None:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Dice", "grimdark")
    from campaign.rulesets.grimdark.commands import Muster

    with pytest.raises(InvalidInputError, match="rolls no dice"):
        ledger.execute(
            ledger.resolve(None),
            Muster(unit_name="A", side="X", profile={"models": 5, "quality": 4, "points": 50}),
            table=TableEntry((3,)),
        )

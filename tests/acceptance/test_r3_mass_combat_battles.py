"""Third-edition errata of seed 002 that a battle decides (RULES.md R3-14 … R3-20), on both sides of each edge.

Every expected value is worked by hand from RULES.md's words; the comments show the arithmetic. The battles are
fought through the one executor with table dice (``War.fight``: the dice a test cares about first, low filler
after). Dice order (battle.py): each side's catastrophe and its draws or atrocity rolls, each PC's Survival and
Glory rolls, the Strategy rolls, the units' Morale rolls, the casualty rolls.
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from campaign.rulesets.mass_combat.position import position
from campaign.rulesets.mass_combat.setup import Commander, Side
from campaign.rulesets.mass_combat.tables import Tables
from campaign.tables import base_values
from events.errors import InvalidInputError
from events.recorded import text
from events.store import AppendResult
from tests.acceptance.mass_combat_table import BLUE, RED, War, applied, battle, d3, faces, side, two_armies

T = Tables.of(base_values("mass_combat"))
NONE = (1, 1, 1)  # a catastrophe roll of 3: nothing happens


def contest(result: AppendResult) -> dict[str, Any]:
    return applied(result, "strategy_contest")[0]


def morale_of(result: AppendResult) -> dict[str, int]:
    """Each unit's Morale as its Morale roll read it (§2.11), by name."""
    rolled = [d for d in applied(result, "unit_morale") if "morale" in d["inputs"]]  # the undead roll none
    return {d["explanation"].split(":")[0]: d["inputs"]["morale"] for d in rolled}


def side_of(w: War, name: str) -> str:
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    unit = state.unit_by_name(name)
    assert unit is not None
    return unit.side


# --- R3-14: the Glory roll's critical success and failure, at any target ------------------------------------------


@pytest.mark.parametrize(
    ("target", "roll", "row"),
    [
        (23, 18, "failed_7"),  # 18: a critical failure whatever the margin (the second edition: made by 5)
        (25, 18, "failed_7"),
        (20, 17, "failed_1"),  # 17 from target 16: an automatic failure, the smallest failure's row
        (16, 17, "failed_1"),
        (25, 17, "failed_1"),  # (by the margin alone: made by 8)
        (15, 17, "failed_7"),  # 17 up to target 15: a critical failure
        (12, 17, "failed_7"),  # (by the margin alone: failed by 5)
        (16, 6, "critical"),  # a 6 from target 16
        (15, 6, "made_7"),  # made by 9
        (15, 5, "critical"),  # a 5 from target 15
        (14, 5, "made_7"),  # made by 9
        (3, 4, "critical"),  # a 3 or 4 always
        (5, 15, "failed_7"),  # 10 over the target
        (12, 5, "made_7"),
        (12, 8, "made_4"),
        (12, 9, "made_0"),
        (12, 12, "made_0"),
        (12, 15, "failed_1"),
        (12, 16, "failed_4"),
        (12, 18, "failed_7"),
    ],
)
def test_r3_14_the_glory_row_for_each_roll(target: int, roll: int, row: str) -> None:
    from campaign.rulesets.mass_combat.pcs import glory_row  # the row's reading has a name of its own since R3-14

    assert glory_row(T, roll, target) == row


@pytest.mark.parametrize(("over_by", "roll", "row"), [(5, 15, "failed_7"), (5, 14, "failed_4"), (6, 15, "failed_4")])
def test_r3_14_how_far_over_the_target_is_a_critical_failure_is_a_table_value(
    over_by: int, roll: int, row: str
) -> None:
    # R3-14: "r ≥ T + 10" (``glory.critical_failure.over_target_by``). At 10 it only ever names rows failing by 7+
    # already; a group's house rule of 5 makes T 10, r 15 a critical failure (failed by 5 would be the 4–6 row).
    from campaign.rulesets.mass_combat.pcs import glory_row
    from campaign.rulesets.tables import Sourced

    values = dict(T.values)
    values["glory.critical_failure.over_target_by"] = Sourced(over_by, "HOUSE RULE")
    assert glory_row(Tables.of(values), roll, 10) == row


ALDRIC = {"name": "Aldric", "side": "Crimson", "unit": "Red guard", "leads": "unit", "tactics": 18, "weapon": 20}
"""Battle (18 + 20) ÷ 2 = 19; at Risk −2: Survival min(16, 17) = 16, Glory 21."""


@pytest.mark.parametrize(("reaction", "demoted"), [(11, True), (12, False)])
def test_r3_14_15_a_glory_roll_of_18_against_21_is_a_critical_failure(reaction: int, demoted: bool) -> None:
    """R3-14's example: T 23, r 18 → "−3 Strategy for a unit leader, −2 Reputation for 1d months, called a coward,
    and the reaction roll of R3-15"; here T 21. The 1d of months rolls 4; high command's 3d + Reputation −2: 11 → 9,
    Poor (possible demotion); 12 → 10, Neutral (nothing)."""
    w = two_armies()
    pc = {**ALDRIC, "risk": -2}
    dice = [*NONE, *NONE, *faces(4), *faces(18), 4, *faces(reaction)]
    result = w.fight(battle("Ford", side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), dice)
    glory = applied(result, "glory")[0]
    assert glory["inputs"]["target"] == 21
    assert glory["outcome"]["strategy_mod"] == -3
    assert glory["outcome"]["promotion"] is False
    assert glory["outcome"]["possible_demotion"] is demoted
    assert glory["outcome"]["reaction"] == ("poor" if demoted else "neutral")
    changes = [
        (e.payload["change"], e.payload["months"]) for e in result.events if e.type == "career.reputation_changed"
    ]
    assert changes == [(-2, 4)]
    assert "called a coward" in glory["explanation"] and "a critical failure" in glory["explanation"]
    assert contest(result)["inputs"]["modifiers"]["Crimson"] == {"Glory of Aldric": -3}
    assert not [e for e in result.events if e.type == "career.promotion_rolled"]


def test_r3_14_a_17_from_target_16_is_the_smallest_failure_not_a_promotion() -> None:
    # T 25 (Battle 19, Risk −6), r 17: by the margin alone "made by 8" (+1 Strategy, Reputation +1, a promotion
    # roll); R3-14: "failed by 1–3", nothing at all (no duration die, no reaction roll).
    w = two_armies()
    pc = {**ALDRIC, "risk": -6}
    result = w.fight(
        battle("Ford", side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), [*NONE, *NONE, 1, 1, 2, 6, 6, 5]
    )
    glory = applied(result, "glory")[0]
    assert glory["inputs"]["target"] == 25
    assert glory["outcome"] == {"margin": 8, "strategy_mod": 0, "promotion": False}
    assert "an automatic failure" in glory["explanation"]
    assert not [e for e in result.events if e.type.startswith("career.") and e.type != "career.pc_wounded"]


# --- R3-15: Glory failed by 4 or more: high command's reaction roll ---------------------------------------------

BRENNA = {"name": "Brenna", "side": "Crimson", "tactics": 12, "weapon": 12, "risk": 0}
"""Battle 12, Risk 0: Survival 12, Glory 12."""


@pytest.mark.parametrize(
    ("glory", "extra", "reaction"),
    [
        (16, [3, *faces(10)], ("poor", True)),  # failed by 4: −1 for 1d−2 = 1 month; 10 − 1 = 9: Poor
        (16, [3, *faces(11)], ("neutral", False)),  # 11 − 1 = 10: Neutral
        (17, [2, *faces(11)], ("poor", True)),  # a critical failure (17 up to 15): −2 for 2 months; 11 − 2 = 9
        (15, [], None),  # failed by 3: fought adequately, no roll
    ],
)
def test_r3_15_failing_by_4_or_more_calls_for_high_commands_reaction(
    glory: int, extra: list[int], reaction: tuple[str, bool] | None
) -> None:
    w = two_armies()
    dice = [*NONE, *NONE, *faces(4), *faces(glory), *extra]
    result = w.fight(battle("Ford", side("Crimson", RED), side("Azure", BLUE), pcs=[BRENNA]), dice)
    outcome = applied(result, "glory")[0]["outcome"]
    got = (outcome["reaction"], outcome["possible_demotion"]) if "reaction" in outcome else None
    assert got == reaction
    purposes = [e.payload["purpose"] for e in result.events if e.type == "dice.rolled"]
    assert ("high command's reaction roll, Brenna" in purposes) is (reaction is not None)


def test_r3_15_a_dead_pc_makes_no_reaction_roll() -> None:
    # Survival 12 rolled 12: made exactly, 2 hits; the GM rules him dead at 1 damage. Glory 16: failed by 4,
    # Reputation −1 ("Roll Glory even for a dead PC"), but no reaction roll for a dead PC [INF].
    w = two_armies()
    pc = {**BRENNA, "dead_at": 1}
    result = w.fight(
        battle("Ford", side("Crimson", RED), side("Azure", BLUE), pcs=[pc]), [*NONE, *NONE, 4, 4, 4, 6, 5, 5, 3]
    )
    glory = applied(result, "glory")[0]
    assert "reaction" not in glory["outcome"] and "he died: high command makes no reaction roll" in glory["explanation"]
    purposes = [e.payload["purpose"] for e in result.events if e.type == "dice.rolled"]
    assert "high command's reaction roll, Brenna" not in purposes


def _crowned(w: War) -> None:
    """A first battle in which Brenna's Glory is a critical success (3): Reputation +2 for 1d = 6 months and +1
    for ever, so +3 at the next battle, the same day."""
    w.fight(
        battle("Crown", side("Crimson", RED), side("Azure", BLUE), pcs=[BRENNA]),
        [*NONE, *NONE, *faces(4), 1, 1, 1, 6, *faces(10)],
    )
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    assert state.reputation("Brenna") == 3


@pytest.mark.parametrize(("reaction", "demoted"), [(8, False), (7, True)])
def test_r3_15_the_reaction_roll_reads_the_reputation_after_this_battles_change(reaction: int, demoted: bool) -> None:
    # Reputation 3 before, failed by 4 (−1 for 1d−2 = 1 month): 2 after. 3d 8 + 2 = 10, Neutral; 7 + 2 = 9, Poor.
    # (Had only this battle's −1 counted, 8 − 1 = 7 would have been Poor.)
    w = two_armies()
    _crowned(w)
    dice = [*NONE, *NONE, *faces(4), *faces(16), 3, *faces(reaction)]
    result = w.fight(battle("Second", side("Crimson", RED), side("Azure", BLUE), pcs=[BRENNA]), dice)
    outcome = applied(result, "glory")[0]["outcome"]
    assert outcome["possible_demotion"] is demoted
    assert outcome["reaction"] == ("poor" if demoted else "neutral")


@pytest.mark.parametrize(("reaction", "rank"), [(13, 1), (12, 0)])
def test_r3_15_the_promotion_roll_reads_the_new_reputation_too(reaction: int, rank: int) -> None:
    # "the promotion roll is made «based on the increased Reputation»": Reputation 3 before; made by 5 (Glory 12,
    # rolled 7): no change. 3d 13 + 3 = 16, Very Good: +1 Rank; 12 + 3 = 15, Good: none.
    w = two_armies()
    _crowned(w)
    dice = [*NONE, *NONE, *faces(4), *faces(7), *faces(reaction)]
    result = w.fight(battle("Second", side("Crimson", RED), side("Azure", BLUE), pcs=[BRENNA]), dice)
    [promotion] = [e.payload for e in result.events if e.type == "career.promotion_rolled"]
    assert (promotion["reaction"], promotion["rank_change"]) == (("very_good", 1) if rank else ("good", 0))


# --- R3-16: catastrophe 13, every unit rolls its own Morale ----------------------------------------------------


def _atrocity_armies() -> War:
    w = War()
    w.muster("Red foot", "Crimson")  # Average: Morale 13
    w.muster("Red raw", "Crimson", quality="inexperienced", experience=0)  # Morale 9
    w.muster("Dead men", "Crimson", troop_type="zombies")  # not subject to Morale (R2-26)
    for name in BLUE:
        w.muster(name, "Azure")
    return w


ATROCITY = ["Red foot", "Red raw", "Dead men"]


def test_r3_16_at_13_every_unit_rolls_its_own_morale() -> None:
    # R3-16's example: units at Morale 13 and 9 roll 10 and 11: the first goes to 14, the second to 8. The undead
    # roll nothing. Both sides then roll 10 on 12: W 0, every unit rolls Morale and shows its Morale.
    w = _atrocity_armies()
    dice = d3(13, 10, 11, 3, 10, 10)
    result = w.fight(battle("Pyre", side("Crimson", ATROCITY), side("Azure", BLUE)), dice)
    catastrophe = applied(result, "catastrophe")[0]
    assert catastrophe["outcome"]["atrocity"] == {"Red foot": 1, "Red raw": -1}
    morale = morale_of(result)
    assert (morale["Red foot"], morale["Red raw"], morale["Blue foot"]) == (14, 8, 13)


def test_r3_16_c_14_one_army_roll_against_the_average_is_a_house_rule() -> None:
    # C-14's alternative: one roll against the average Morale, (13 + 9) ÷ 2 = 11, rounded down: 11 made → +1 on
    # both: 14 and 10.
    w = _atrocity_armies()
    w.ledger.execute(w.info, mc.HouseRule.build(path="catastrophe.rules.atrocity_roll", value="army_average"))
    result = w.fight(battle("Pyre", side("Crimson", ATROCITY), side("Azure", BLUE)), d3(13, 11, 3, 10, 10))
    morale = morale_of(result)
    assert (morale["Red foot"], morale["Red raw"]) == (14, 10)


# --- R3-17: catastrophe 14, the defecting troops go over to the enemy ---------------------------------------------


def _treachery() -> War:
    """R3-17's example: A: A1 TS 400 and A2 TS 120; B: B1 TS 520."""
    w = War()
    w.muster("A1", "A", ts_per_man=4)
    w.muster("A2", "A", men=120, ts_per_man=1)
    w.muster("B1", "B", men=130, ts_per_man=4)
    return w


def test_r3_17_the_unit_the_gm_names_goes_over_to_the_enemy() -> None:
    # "A 400 against B 640 (1.6 : 1 → B +2), and A −2 Strategy. The program's reading gives 400 : 520."
    w = _treachery()
    setup = battle("Treachery", side("A", ["A1", "A2"], catastrophe_unit="A2"), side("B", ["B1"]))
    result = w.fight(setup, d3(14, 3, 10, 10))
    fought = contest(result)
    assert fought["inputs"]["ts"] == {"A": 400, "B": 640}
    assert fought["inputs"]["modifiers"] == {"A": {"catastrophe 14": -2}, "B": {"TS 640:400 = 1.60": 2}}
    # it fights the battle as an enemy unit: its casualties, and after the battle it serves B
    casualties = applied(result, "casualties")
    assert "A2 row" in casualties[1]["explanation"] and "A2 row" not in casualties[0]["explanation"]
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    a2 = state.unit_by_name("A2")
    assert a2 is not None and a2.side == "B" and a2.disbanded is None
    went = [e.payload for e in result.events if e.type == "roster.unit_went_over"]
    assert went == [{"unit_id": a2.unit_id, "side": "B", "reason": "defected at Treachery, day 1"}]


def test_r3_17_unnamed_the_defector_is_drawn_by_a_die() -> None:
    # Candidates A1 and A2, in the set-up's order: 1d6 5 → again, 2 → A2.
    w = _treachery()
    result = w.fight(battle("Treachery", side("A", ["A1", "A2"]), side("B", ["B1"])), [*faces(14), 5, 2, *faces(3)])
    assert contest(result)["inputs"]["ts"] == {"A": 400, "B": 640}
    draws = [e.payload for e in result.events if e.type == "dice.rolled" and "defects" in text(e.payload["purpose"])]
    assert [(d["notation"], d["total"]) for d in draws] == [("d6", 5), ("d6", 2)]
    assert side_of(w, "A2") == "B"


def test_r3_17_the_army_commanders_own_unit_and_a_pcs_never_defect() -> None:
    # The commander leads A2 in person: A1 is the only candidate, no die; then a PC leads A1 and the commander A2:
    # no unit can defect.
    w = _treachery()
    commander = {"strategy": 12, "unit": "A2"}
    setup = battle("Treachery", {**side("A", ["A1", "A2"]), "commander": commander}, side("B", ["B1"]))
    result = w.fight(setup, d3(14, 3, 10, 10))
    assert contest(result)["inputs"]["ts"] == {"A": 120, "B": 920}
    assert side_of(w, "A1") == "B"
    w = _treachery()
    pc = {"name": "Cato", "side": "A", "unit": "A1", "leads": "unit", "weapon": 12, "risk": 0}  # Battle 8
    setup = battle("Treachery", {**side("A", ["A1", "A2"]), "commander": commander}, side("B", ["B1"]), pcs=[pc])
    result = w.fight(setup, [*d3(14, 3), *faces(4), *faces(10)])
    assert contest(result)["inputs"]["ts"] == {"A": 520, "B": 520}
    assert "no unit can defect" in applied(result, "catastrophe")[0]["explanation"]


def test_r3_17_leave_is_the_second_editions_reading_kept_as_a_house_rule() -> None:
    w = _treachery()
    w.ledger.execute(w.info, mc.HouseRule.build(path="catastrophe.rules.defection_goes", value="leave"))
    setup = battle("Treachery", side("A", ["A1", "A2"], catastrophe_unit="A2"), side("B", ["B1"]))
    result = w.fight(setup, d3(14, 3, 10, 10))
    assert contest(result)["inputs"]["ts"] == {"A": 400, "B": 520}
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    a2 = state.unit_by_name("A2")
    assert a2 is not None and a2.side == "A" and a2.disbanded == "defected at Treachery"


# --- R3-18: catastrophes 15 and 17, the major unit is drawn by a die ---------------------------------------------


def _majors(w: War, *ts: int) -> list[str]:
    names = []
    for i, each in enumerate(ts, 1):
        names.append(f"R{i}")
        w.muster(f"R{i}", "Crimson", men=1, ts_per_man=each)
    w.muster("Blue host", "Azure", men=1, ts_per_man=1000)
    return names


@pytest.mark.parametrize(
    ("draws", "struck"),
    [
        ((1,), "R1"),  # TS 400
        ((2,), "R2"),  # 300
        ((3,), "R3"),  # 200: 5 × 200 = 1000 is the total, a candidate at the edge
        ((4, 6, 3), "R3"),  # 4–6: roll again
    ],
)
def test_r3_18_catastrophe_15_falls_on_a_major_unit_drawn_by_a_die(draws: tuple[int, ...], struck: str) -> None:
    # R3-18's example: TS 400, 300, 200 and 100 (total 1000): candidates 400, 300, 200. 15: −1 Morale all, −2 the
    # unit: 13 − 3 = 10 on it, 12 on the others.
    w = War()
    units = _majors(w, 400, 300, 200, 100)
    dice = [*faces(15), *draws, *faces(3), *d3(10, 10)]
    result = w.fight(battle("Ambush", side("Crimson", units), side("Azure", ["Blue host"])), dice)
    morale = morale_of(result)
    assert morale == {**dict.fromkeys(units, 12), struck: 10, "Blue host": 13}


def test_r3_18_catastrophe_17_draws_the_same_way() -> None:
    # 17: −3 on the unit (C-2's default: no Morale all), −2 Strategy; 1d6 2 → the 300.
    w = War()
    units = _majors(w, 400, 300, 200, 100)
    result = w.fight(battle("Ambush", side("Crimson", units), side("Azure", ["Blue host"])), [*faces(17), 2, *faces(3)])
    assert applied(result, "catastrophe")[0]["outcome"]["persist"] == [{"unit_id": _id(w, "R2"), "value": -3}]


def _id(w: War, name: str) -> str:
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    unit = state.unit_by_name(name)
    assert unit is not None
    return unit.unit_id


def test_r3_18_with_no_major_unit_the_largest_first_listed_and_with_one_no_die() -> None:
    # "TS 150 × 7 (1050): none reaches 210, so the first-mustered 150" — here the first the set-up lists; no die.
    w = War()
    units = _majors(w, *[150] * 7)
    result = w.fight(battle("Ambush", side("Crimson", units), side("Azure", ["Blue host"])), d3(15, 3, 10, 10))
    assert morale_of(result)["R1"] == 10 and morale_of(result)["R2"] == 12
    # 900 and 100: only the 900 reaches 20 %: no die either.
    w = War()
    units = _majors(w, 100, 900)
    result = w.fight(battle("Ambush", side("Crimson", units), side("Azure", ["Blue host"])), d3(15, 3, 10, 10))
    assert morale_of(result)["R2"] == 10 and morale_of(result)["R1"] == 12
    assert not [e for e in result.events if e.type == "dice.rolled" and e.payload["notation"] == "d6"]


# --- R3-19: Table C, a defender with nowhere to go surrenders; R3-20: the sappers' −2 on the casualty row -------


def _storm(pcs: list[dict[str, Any]] | None = None, **profile: Any) -> tuple[War, dict[str, Any]]:
    w = War()
    for name in ("Trapped", "Free", "Cornered"):
        w.muster(name, "Crimson", **profile)
    w.muster("Blue foot", "Azure")
    defender = {
        **side("Crimson", [], role="defender", position=["walled_town"]),
        "units": [
            {"unit": "Trapped", "nowhere_to_go": True},
            {"unit": "Free"},
            {"unit": "Cornered", "nowhere_to_go": True},
        ],
    }
    setup = battle(
        "Walls",
        side("Azure", ["Blue foot"], strategy=20, role="attacker"),
        defender,
        kind="assault",
        attacker_has_artillery_or_sappers=True,
        pcs=pcs or [],
    )
    return w, setup


STORM = [
    *NONE,  # Azure's catastrophe
    *NONE,  # Crimson's
    1, 1, 1,  # Azure's Strategy 20, rolled 3: margin +17
    6, 6, 6,  # Crimson's 12 + walled town 6 − 2 (sappers) = 16, rolled 18: margin −2 → W 19: Table C 17+
    # each defender unit at Morale 13 − 2 = 11
    *faces(14),  # Trapped fails by 3, with nowhere to go: surrenders
    *faces(14),  # Free fails by 3: routs
    *faces(10),  # Cornered makes it: told to retreat, nowhere to go: again at 11 + 2 = 13 …
    *faces(15),  # … fails by 2: surrenders
    1, 1, 1, 1,  # Azure's casualties
    2, 2, 2, 2,  # Crimson's: 4d 8
    3,  # the 1d rows up of Free, which routed (none for the units that surrendered)
]  # fmt: skip


def test_r3_19_a_defender_with_nowhere_to_go_surrenders_and_r3_20_its_walls_count_4_against_sappers() -> None:
    w, setup = _storm()
    result = w.fight(setup, STORM)
    assert applied(result, "result")[0]["outcome"]["result"] == "position_taken_captured"
    fates = {d["explanation"].split(":")[0]: d["outcome"]["fate"] for d in applied(result, "unit_morale")}
    assert fates == {"Trapped": "surrenders", "Free": "routs", "Cornered": "surrenders"}
    # The casualty row: −19 + the walled town as the sappers lowered it, 6 − 2 = 4: −15 → 4d + round((30 + 150)
    # ÷ 3) = 4d + 60 = 68 % for the units that surrendered (no 1d rows up); Free −15 − 3 = −18 → 4d + 70 = 78 %.
    crimson = applied(result, "casualties")[1]["explanation"]
    assert "Trapped row -15 (fortification +4) → 68%: 34 dead, 34 wounded" in crimson
    assert "Cornered row -15 (fortification +4) → 68%" in crimson
    assert "Free row -18 (fortification +4, routed (1d) -3) → 78%" in crimson
    assert "its 66 men left are prisoners, TS 0" in crimson
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    gone = {u.name: u.disbanded for u in state.roster.values()}
    assert gone["Free"] is None
    assert gone["Trapped"] == "surrendered at Walls, day 1: its men are prisoners of Azure"
    assert gone["Cornered"] == gone["Trapped"]


def test_r3_19_a_defender_that_can_escape_routs_and_one_that_holds_at_plus_2_stays() -> None:
    # The other sides of the edges: Cornered's second roll made (13 against 13) → holds; Trapped, which could
    # escape (not nowhere_to_go), routs on the same failed roll.
    w, setup = _storm()
    setup["sides"][1]["units"][0] = {"unit": "Trapped"}
    dice = [*STORM[:12], *faces(14), *faces(14), *faces(10), *faces(13), 1, 1, 1, 1, 2, 2, 2, 2, 3, 3]
    result = w.fight(setup, dice)
    fates = {d["explanation"].split(":")[0]: d["outcome"]["fate"] for d in applied(result, "unit_morale")}
    assert fates == {"Trapped": "routs", "Free": "routs", "Cornered": "holds"}


def test_r3_19_a_pc_in_a_unit_that_surrendered_rolls_again_without_the_minus_2() -> None:
    # Dunstan, in Trapped, leads nothing: Battle (4 + 12) ÷ 2 = 8, Risk 0. First Survival 8, rolled 4: unhurt;
    # Glory 8, rolled 10: failed by 2. His side lost: the second roll is 8 + the walls 4 (as lowered, R3-20) −
    # 19 ÷ 3 = 6 → 6, with no −2: his unit surrendered, it did not rout.
    pc = {"name": "Dunstan", "side": "Crimson", "unit": "Trapped", "weapon": 12, "risk": 0}
    w, setup = _storm([pc])
    dice = [*STORM[:6], *faces(4), *faces(10), *STORM[6:], *faces(4)]
    result = w.fight(setup, dice)
    second = applied(result, "survival")[1]
    assert second["inputs"]["target"] == 6
    assert "Trapped surrendered: if he lives, Dunstan is a prisoner" in second["explanation"]


def _defender(**extra: Any) -> Side:
    return Side(name="Crimson", role="defender", commander=Commander(strategy=12), units=(), **extra)


@pytest.mark.parametrize(
    ("extra", "artillery", "strategy", "rows"),
    [
        ({"position": ("walled_town",)}, True, {"position walled town": 4}, 4),  # R3-20: the program gave +6 rows
        ({"position": ("walled_town",)}, False, {"position walled town": 6}, 6),
        # "A castle (*+8) on a steep slope (+2) against artillery: Strategy +8, casualty row +6."
        ({"position": ("castle", "steep_slope")}, True, {"position castle": 6, "position steep slope": 2}, 6),
        # "A defile at +2 against artillery: 0 everywhere, still starred"; at +1, 0 too: not below 0.
        ({"defensive": {"defile": 2}}, True, {"position defile": 0}, 0),
        ({"defensive": {"defile": 1}}, True, {"position defile": 0}, 0),
        ({"defensive": {"defile": 3}}, True, {"position defile": 1}, 1),
    ],
)
def test_r3_20_the_minus_2_lowers_the_starred_value_everywhere(
    extra: dict[str, Any], artillery: bool, strategy: dict[str, int], rows: int
) -> None:
    held = position(T, _defender(**extra), enemy_artillery_or_sappers=artillery)
    assert held.strategy == strategy and held.casualty_rows == rows and held.starred
    assert held.defensive_bonus == sum(strategy.values())


def test_r3_17_18_too_many_units_to_draw_from_asks_for_the_gm() -> None:
    # A draw takes the smallest die with as many faces as candidates; past a d100 the GM names the unit.
    w = War()
    names = [f"U{i}" for i in range(101)]
    for name in names:
        w.muster(name, "Crimson", men=1)
    w.muster("Blue host", "Azure")
    with pytest.raises(InvalidInputError, match="101 units to draw from: name the one"):
        w.fight(battle("Mutiny", side("Crimson", names), side("Azure", ["Blue host"])), [*faces(14)])


@pytest.mark.parametrize(("units", "die"), [(6, "d6"), (7, "d8")])
def test_r3_17_18_a_draw_among_more_than_six_takes_the_next_die(units: int, die: str) -> None:
    # A defection draws among every unit of the side (R3-17): six by a d6 (3 → the third), seven by a d8 [INF].
    w = War()
    names = [f"U{i}" for i in range(1, units + 1)]
    for name in names:
        w.muster(name, "Crimson", men=1)
    w.muster("Blue host", "Azure")
    result = w.fight(battle("Mutiny", side("Crimson", names), side("Azure", ["Blue host"])), [*faces(14), 3])
    [drawn] = [e.payload for e in result.events if e.type == "dice.rolled" and "defects" in text(e.payload["purpose"])]
    assert (drawn["notation"], drawn["total"]) == (die, 3)
    assert side_of(w, "U3") == "Azure"


def test_r3_19_the_victor_strips_the_men_who_surrendered_as_captured() -> None:
    # §2.12: gear worth ⅓ of the raise cost, sold for 20 %: $300 a man → 300 ÷ 3 × 20 % = $20. R3-19: "its gear may
    # be stripped as for captured men": the dead and every man left of a unit that surrendered; of a rout, the dead
    # and the wounded. Trapped and Cornered: 34 dead + 66 prisoners = 100 men each; Free (78 %): 39 + 39. So
    # (100 + 100 + 78) × 20 = $5560.
    w, setup = _storm(cost_per_man=300)
    result = w.fight(setup, STORM)
    battle_id = next(e.payload["battle_id"] for e in result.events if e.type == "battle.started")
    looted = w.ledger.execute(w.info, mcal.Loot.build(battle_id=battle_id, side="Azure"))
    assert applied(looted, "loot")[0]["outcome"] == {"value": 5560}

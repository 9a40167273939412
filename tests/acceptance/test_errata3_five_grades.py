"""Third-edition errata of seed 000 (RULES.md R3-1 … R3-8), each from its words, on both sides of its edge.

Expected values are worked by hand from RULES.md §0 and its errata; the comments show the arithmetic. Units:
Untrained d4, Green d6, Regular d8, Veteran d10 (§0.2); a morale test passes when the die beats LV + threat,
and loses two grades when 2 × roll ≤ the target (§0.4); a panic test passes when the die beats LV (§0.8).
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fsc
from campaign.rulesets.fighting_spirit import state as fs_state
from campaign.rulesets.fighting_spirit.plugin import PLUGIN
from campaign.tables import base_values
from tests.acceptance.third_edition import Table, facts


class Fs(Table):
    def __init__(self) -> None:
        super().__init__("fighting-spirit", PLUGIN)

    def muster(self, name: str, quality: str, lv: int, size: int, side: str = "Keno", **more: Any) -> None:
        reports_to = more.pop("reports_to", None)
        profile = {"quality": quality, "leadership": lv, "size": size, **more}
        self.run(fsc.Muster, name=name, side=side, profile=profile, reports_to=reports_to)

    def start(self, name: str = "Ridge", keno: str = "medium", steel: str = "medium", **units: str) -> None:
        """Each unit as ``name="fatigue[,cover][,prone][,start:grade]"`` (underscores for spaces)."""
        deployments = []
        for unit, spec in units.items():
            fatigue, *flags = spec.split(",")
            starts = [f.removeprefix("start:") for f in flags if f.startswith("start:")]
            deployments.append(
                {
                    "unit": unit.replace("_", " "),
                    "fatigue": fatigue,
                    "in_cover": "cover" in flags,
                    "prone": "prone" in flags,
                    "start_grade": starts[0] if starts else None,
                }
            )
        self.run(fsc.StartBattle, name=name, motivation={"Keno": keno, "Steel": steel}, deployments=deployments)

    def grade(self, name: str) -> str:
        return str(self.on_table(name).grade)

    def quality(self, name: str) -> str:
        return str(self.state().roster[self.unit_id(name)].profile.quality)

    def experience(self, name: str) -> int:
        return int(self.state().records[self.unit_id(name)].experience)

    def turn(self) -> None:
        self.run(fsc.NextTurn)

    def attack(self, unit: str, *faces: int, **inputs: Any) -> list[dict[str, Any]]:
        fields = {"killed": 0, "wounded": 0, **inputs}
        return self.rules(fsb.Attack, *faces, unit_name=unit, **fields)

    def psi(self, psion: str, target: str, effect: str, *faces: int, distance: object = 5) -> list[dict[str, Any]]:
        return self.rules(
            fsb.Psi, *faces, psion_name=psion, target_name=target, effect=effect, distance=distance, in_sight=True
        )


@pytest.fixture
def fs() -> Fs:
    table = Fs()
    table.muster("U", "untrained", 1, 6)  # d4, LV 1
    table.muster("G", "green", 2, 8)  # d6, LV 2
    table.muster("R", "regular", 2, 10)  # d8, LV 2
    table.muster("P", "regular", 2, 1, psi_rank="master")  # psi d8
    table.muster("E", "veteran", 2, 8, side="Steel")  # d10: the enemy that fires
    table.muster("F", "regular", 2, 8, side="Steel")  # an enemy that does not
    return table


@pytest.fixture
def ridge(fs: Fs) -> Fs:
    fs.start(U="fresh", G="fresh", R="fresh", P="fresh", E="fresh", F="fresh")
    return fs


# -- R3-1: one activation per unit per turn -------------------------------------------------------------------


def test_r3_1_a_second_activation_in_the_same_turn_is_refused(ridge: Fs) -> None:
    # RULES.md R3-1's example: turn 1: U activates → accepted; again in turn 1 → refused. Turn 2 → accepted.
    ridge.run(fsc.Activate, unit_name="R")
    ridge.refused(fsc.Activate, "R has had its activation in turn 1", unit_name="R")
    ridge.run(fsc.Activate, unit_name="U")  # another unit's activation is its own
    ridge.turn()
    ridge.run(fsc.Activate, unit_name="R")


def test_r3_1_a_unit_that_lost_its_activation_to_confusion_has_had_it(ridge: Fs) -> None:
    # Confusion (≥ 4 on the psion's d8 at 5"): F loses its activation, so it may not activate this turn.
    ridge.psi("P", "F", "confusion", 4)
    ridge.refused(fsc.Activate, "F has had its activation in turn 1", unit_name="F")
    ridge.turn()
    ridge.run(fsc.Activate, unit_name="F")


def test_r3_1_two_psi_actions_per_turn_even_across_an_activation(ridge: Fs) -> None:
    # R2-4 (a): 2 psi actions per activation, and one activation per turn: so 2 per turn. Before, activating
    # the psion after its two actions counted two more.
    ridge.psi("P", "R", "psi_detection", 1)
    ridge.psi("P", "R", "psi_detection", 1)
    ridge.run(fsc.Activate, unit_name="P")
    ridge.refused(fsb.Psi, "2 psi actions this turn", 1, psion_name="P", target_name="R", effect="psi_detection",
                  distance=5, in_sight=True)  # fmt: skip
    ridge.turn()
    ridge.psi("P", "R", "psi_detection", 1)


def test_r3_1_two_rally_attempts_per_turn_even_across_an_activation(fs: Fs) -> None:
    # §0.6: an officer's rally may be tried twice in one activation, and one activation per turn: twice per turn.
    fs.muster("HQ", "regular", 1, 4)
    fs.muster("Squad", "regular", 1, 6, reports_to="HQ")
    fs.start(HQ="fresh", Squad="fresh", E="fresh")
    fs.rules(fsb.Morale, 1, unit_name="Squad", rows=["leader_lost"])  # 1 + 3 = 4; d8 1: −2, Ув → По
    for _ in range(2):  # within 6" in sight: LV 1 + 1 = 2; d8 1 → no change
        fs.rules(fsb.Rally, 1, unit_name="Squad", officer_name="HQ", distance=3, in_sight=True)
    fs.run(fsc.Activate, unit_name="HQ")
    fs.refused(fsb.Rally, "2 rally actions this turn", 1, unit_name="Squad", officer_name="HQ", distance=3,
               in_sight=True)  # fmt: skip
    fs.turn()
    fs.rules(fsb.Rally, 1, unit_name="Squad", officer_name="HQ", distance=3, in_sight=True)


# -- R3-2: panic, one test per activation and nothing else ----------------------------------------------------


@pytest.fixture
def panicking(ridge: Fs) -> Fs:
    # RULES.md R3-2's example: Untrained U (d4, LV 1), Ув; an enemy comes into sight in the enemy's activation:
    # trigger test, d4 1 ≤ 1 → panics, Ст.
    [test] = ridge.rules(fsb.Panic, 1, unit_name="U", trigger="enemy_in_sight")
    assert test["outcome"] == {"result": "fail", "from": "confident", "to": "steady"}
    assert ridge.on_table("U").panic == "panicking"
    return ridge


def test_r3_2_one_panic_test_in_the_units_own_activation(panicking: Fs) -> None:
    # U's activation in turn 1: test 1 → По; a second test in that activation → refused.
    first = panicking.run(fsb.Panic, 1, unit_name="U")
    assert facts(first, "battle.unit_activated") == [
        {"battle_id": panicking.battle().battle_id, "unit_id": panicking.unit_id("U"), "turn": 1}
    ], "the test is the unit's activation"
    assert panicking.grade("U") == "shaken"
    panicking.refused(fsb.Panic, "U has taken its panic test in this activation", 1, unit_name="U")
    panicking.refused(fsc.Activate, "U has had its activation in turn 1", unit_name="U")
    # Turn 2, U's activation: test 2 → 2 > 1 passes, the panic is over (U stays По).
    panicking.turn()
    [passed] = panicking.rules(fsb.Panic, 2, unit_name="U")
    assert passed["outcome"] == {"result": "pass", "from": "shaken", "to": "shaken"}
    assert "the panic is over" in passed["explanation"] and "the test was its activation" in passed["explanation"]
    assert panicking.on_table("U").panic == "immune" and panicking.grade("U") == "shaken"


def test_r3_2_confident_to_broken_in_one_activation_is_refused(panicking: Fs) -> None:
    # Before, three panic tests in one activation took Ув → Ра; now Ст after the trigger, По after the one
    # test of its activation, and no third.
    panicking.run(fsc.Activate, unit_name="U")
    panicking.rules(fsb.Panic, 1, unit_name="U")
    panicking.refused(fsb.Panic, "panic test in this activation", 1, unit_name="U")
    assert panicking.grade("U") == "shaken"


def test_r3_2_the_activation_in_which_the_trigger_test_failed_takes_no_other_test(ridge: Fs) -> None:
    # The trigger in U's own activation: the rest of that activation is lost; its next test is in turn 2.
    ridge.run(fsc.Activate, unit_name="U")
    ridge.rules(fsb.Panic, 1, unit_name="U", trigger="enemy_in_sight")
    ridge.refused(fsb.Panic, "U: its activation in turn 1 is spent", 1, unit_name="U")
    ridge.turn()
    assert ridge.rules(fsb.Panic, 1, unit_name="U")[0]["outcome"]["to"] == "shaken"


def test_r3_2_a_trigger_test_that_passes_costs_no_activation(ridge: Fs) -> None:
    # d4 2 > LV 1: no panic; U goes on with its activation (go prone in the open: 1 + 2 = 3, d4 4 passes).
    ridge.run(fsc.Activate, unit_name="U")
    [test] = ridge.rules(fsb.Panic, 2, unit_name="U", trigger="enemy_in_sight")
    assert test["explanation"].endswith("passes: no panic, and never again this game")
    assert ridge.rules(fsb.React, 4, unit_name="U", action="go_prone_open")[0]["outcome"] == {"result": "pass"}


@pytest.mark.parametrize(
    ("model", "inputs"),
    [
        (fsb.React, {"unit_name": "U", "action": "go_prone_open"}),
        (fsb.React, {"unit_name": "U", "action": "close_combat"}),
        (fsc.Position, {"unit_name": "U", "prone": True}),
        (fsc.Position, {"unit_name": "U", "in_cover": True}),
        (fsc.Wounded, {"unit_name": "U", "checked": 1}),
    ],
)
def test_r3_2_a_panicking_unit_takes_no_action_and_no_reaction_test(
    panicking: Fs, model: type[Any], inputs: dict[str, Any]
) -> None:
    if model is fsc.Wounded:
        panicking.attack("U", 4, wounded=1, by="E")  # an unverified casualty to check (LV 1 + 1 = 2 < 4: passes)
    faces = (4,) if model.rolls else ()
    panicking.refused(model, "U is panicking: it takes no action", *faces, **inputs)


def test_r3_2_the_same_actions_are_taken_by_a_unit_that_is_not_panicking(ridge: Fs) -> None:
    # The other side of the edge: U, not panicking, goes prone in the open (1 + 2 = 3, d4 4 > 3).
    assert ridge.rules(fsb.React, 4, unit_name="U", action="go_prone_open")[0]["outcome"] == {"result": "pass"}
    ridge.run(fsc.Position, unit_name="U", in_cover=True)


def test_r3_2_a_panicking_psion_makes_no_psi_action(ridge: Fs) -> None:
    ridge.muster("Pupil", "untrained", 1, 1, psi_rank="pupil")
    ridge.run(fsc.EndBattle, result="a pause")
    ridge.start(name="Ford", Pupil="fresh", E="fresh")
    ridge.rules(fsb.Panic, 1, unit_name="Pupil", trigger="enemy_in_sight")  # d4 1 ≤ 1: panics
    ridge.refused(fsb.Psi, "Pupil is panicking", 6, psion_name="Pupil", target_name="E", effect="psi_strike",
                  distance=5, in_sight=True)  # fmt: skip


def test_r3_2_a_trigger_on_a_panicking_unit_calls_for_no_new_test(panicking: Fs) -> None:
    panicking.refused(fsb.Panic, "U is already panicking", 1, unit_name="U", trigger="enemy_in_sight")
    # Psi Panic (d8 4 ≥ 4) reaches it, but a panicking unit takes no new test for it (R3-2, point 5).
    rules = panicking.psi("P", "U", "panic", 4)
    assert [r["rule"] for r in rules] == ["psi"] and rules[0]["outcome"] == {"result": "no_effect"}
    assert "blast" not in rules[0]["inputs"]  # a Psi Panic has no blast option to record
    assert panicking.grade("U") == "steady"
    # Psi-blast (≥ 7) with the panic option is such a trigger too; with the grades option it takes its 2 grades.
    blast = panicking.rules(fsb.Psi, 7, psion_name="P", target_name="U", effect="psi_blast", distance=5,
                            in_sight=True, blast_choice="panic")  # fmt: skip
    assert [r["rule"] for r in blast] == ["psi"] and blast[0]["outcome"] == {"result": "no_effect"}
    assert blast[0]["inputs"]["blast"] == "panic"  # the record says which option the psion chose
    panicking.turn()
    grades = panicking.rules(fsb.Psi, 7, psion_name="P", target_name="U", effect="psi_blast", distance=5,
                             in_sight=True, blast_choice="grades")  # fmt: skip
    assert grades[0]["outcome"] == {"result": "success", "to": "broken"} and panicking.grade("U") == "broken"


def test_r3_2_events_still_reach_a_panicking_unit(panicking: Fs) -> None:
    # A morale test called by an event (leader lost, medium: 3; target 1 + 3 = 4; d4 3 → −1 grade) is no action.
    [test] = panicking.rules(fsb.Morale, 3, unit_name="U", rows=["leader_lost"])
    assert test["outcome"]["to"] == "shaken"


def test_r3_2_a_superior_rallies_a_panicking_unit_but_the_panic_goes_on(fs: Fs) -> None:
    fs.muster("HQ", "regular", 1, 4)
    fs.muster("Squad", "untrained", 1, 6, reports_to="HQ")
    fs.start(HQ="fresh", Squad="fresh", E="fresh")
    fs.rules(fsb.Panic, 1, unit_name="Squad", trigger="enemy_in_sight")  # d4 1 ≤ 1: panics, Ст
    # Rally within 6" and in sight: no communication test; LV 1 + LV 1 + no threat = 2; d4 3 > 2 → Ст → Ув.
    [rally] = fs.rules(fsb.Rally, 3, unit_name="Squad", officer_name="HQ", distance=3, in_sight=True)
    assert rally["outcome"] == {"result": "rallied", "from": "steady", "to": "confident"}
    assert fs.on_table("Squad").panic == "panicking"


# -- R3-3: what a Broken (Ра) and a Routed (Бе) unit may do ---------------------------------------------------


@pytest.fixture
def broken(fs: Fs) -> Fs:
    fs.muster("B", "regular", 2, 6)
    fs.muster("Rt", "regular", 2, 6)
    fs.muster("Bp", "regular", 2, 1, psi_rank="master")
    fs.start(B="fresh,cover,start:broken", Rt="fresh,prone,start:broken", Bp="fresh,start:broken",
             R="fresh", E="fresh", F="fresh")  # fmt: skip
    # Rt: leader lost (medium 3): target 2 + 3 = 5; d8 2: 2·2 = 4 ≤ 5 → −2 grades, Ра → Бе (Routed, §0.3).
    assert fs.rules(fsb.Morale, 2, unit_name="Rt", rows=["leader_lost"])[0]["outcome"]["to"] == "routed"
    return fs


@pytest.mark.parametrize("action", ["go_prone_open", "close_combat"])
def test_r3_3_a_routed_unit_goes_neither_prone_nor_into_close_combat(broken: Fs, action: str) -> None:
    # RULES.md R3-3's example: a Бе unit: `react go_prone_open` → refused (the program rolled and passed it).
    broken.rules(fsb.React, 5, unit_name="Rt", action="move_while_prone")  # up, by a move (2 + 2 = 4 < 5)
    broken.refused(fsb.React, "Rt is routed", 8, unit_name="Rt", action=action)


def test_r3_3_a_routed_unit_takes_the_move_while_prone_test(broken: Fs) -> None:
    # It is a move: allowed. LV 2 + threat 2 = 4; d8 5 > 4 passes and it is up.
    assert broken.rules(fsb.React, 5, unit_name="Rt", action="move_while_prone")[0]["outcome"] == {"result": "pass"}
    assert broken.on_table("Rt").prone is False


@pytest.mark.parametrize(
    ("unit", "inputs", "allowed"),
    [
        ("Rt", {"prone": True}, False),  # going prone: refused at Бе
        ("B", {"prone": False}, False),  # nor getting up without a move (B is not prone: refused first)
        ("Rt", {"in_cover": True}, True),  # toward its edge, wherever that ends
        ("B", {"prone": True}, False),  # going prone in cover: refused at Ра
        ("B", {"in_cover": False}, True),  # leaving cover to withdraw
        ("R", {"prone": True}, True),  # a Confident unit: any order
    ],
)
def test_r3_3_positions_a_broken_or_routed_unit_may_take(
    broken: Fs, unit: str, inputs: dict[str, Any], allowed: bool
) -> None:
    if unit == "Rt":
        broken.rules(fsb.React, 5, unit_name="Rt", action="move_while_prone")  # up, by a move (2 + 2 = 4 < 5)
    if allowed:
        broken.run(fsc.Position, unit_name=unit, **inputs)
    else:
        broken.refused(fsc.Position, f"{unit} is (broken|routed): it may", unit_name=unit, **inputs)


def test_r3_3_a_broken_unit_in_cover_does_not_go_prone(broken: Fs) -> None:
    # RULES.md R3-3's example: a Ра unit in cover: `react go_prone_cover` → refused; close combat → refused.
    broken.refused(fsb.React, "B is broken", 8, unit_name="B", action="go_prone_cover")
    broken.refused(fsb.React, "B is broken", 8, unit_name="B", action="close_combat")


def test_r3_3_a_broken_unit_fires_only_at_an_enemy_that_fired_on_it_this_turn(broken: Fs) -> None:
    # E fires on B (1 killed): B's morale test, medium casualties 1: 2 + 1 = 3; d8 8 passes.
    broken.attack("B", 8, killed=1, by="E")
    # Fire at E, which fired on it this turn → accepted (E's morale test: 2 + 1 = 3; d10 9 passes).
    broken.attack("E", 9, killed=1, by="B")
    # Fire at F, which did not → refused.
    broken.refused(fsb.Attack, "B is broken: it may fire only", 9, unit_name="F", killed=1, wounded=0, by="B")
    broken.turn()  # "in this turn": E's fire was last turn's
    broken.refused(fsb.Attack, "B is broken: it may fire only", 9, unit_name="E", killed=1, wounded=0, by="B")


def test_r3_3_a_broken_psion_attacks_only_what_fired_on_it_and_gives_no_support(broken: Fs) -> None:
    broken.attack("Bp", by="F")  # a miss: F fired on Bp, no casualty, no test
    # Psi-strike on F (d8 4 ≥ 4), F's morale test: medium, +3: 2 + 3 = 5; d8 6 passes.
    assert broken.psi("Bp", "F", "psi_strike", 4, 6)[0]["outcome"] == {"result": "success"}
    broken.refused(fsb.Psi, "Bp is broken", 4, psion_name="Bp", target_name="E", effect="psi_strike", distance=5,
                   in_sight=True)  # fmt: skip
    broken.refused(fsb.Psi, "Bp is broken", 4, psion_name="Bp", target_name="R", effect="remove_suppression",
                   distance=5, in_sight=True)  # fmt: skip


def test_r3_3_a_routed_psion_makes_no_psi_action(broken: Fs) -> None:
    # Bp: leader lost (3): 2 + 3 = 5; d8 1 → −2 grades, Ра → Бе.
    broken.rules(fsb.Morale, 1, unit_name="Bp", rows=["leader_lost"])
    broken.attack("Bp", by="F")
    broken.refused(fsb.Psi, "Bp is routed", 4, psion_name="Bp", target_name="F", effect="psi_strike", distance=5,
                   in_sight=True)  # fmt: skip


def test_r3_3_a_broken_officer_does_not_rally_but_a_broken_unit_is_rallied(fs: Fs) -> None:
    fs.muster("HQ", "regular", 1, 4)
    fs.muster("Squad", "regular", 1, 6, reports_to="HQ")
    fs.muster("Platoon", "regular", 1, 6, reports_to="Squad")
    fs.start(HQ="fresh", Squad="fresh,start:steady", Platoon="fresh", E="fresh")
    fs.rules(fsb.Morale, 1, unit_name="Platoon", rows=["leader_lost"])  # 1 + 3 = 4; d8 1 → −2: Ув → По
    fs.rules(fsb.Morale, 1, unit_name="Squad", rows=["leader_lost"])  # the same: Ст → Ра
    fs.refused(fsb.Rally, "Squad is broken", 8, unit_name="Platoon", officer_name="Squad", distance=3, in_sight=True)
    # Being rallied is allowed at Ра: within 6" in sight, LV 1 + LV 1 = 2; d8 3 > 2 → Ра → По.
    [rally] = fs.rules(fsb.Rally, 3, unit_name="Squad", officer_name="HQ", distance=3, in_sight=True)
    assert rally["outcome"] == {"result": "rallied", "from": "broken", "to": "shaken"}


# -- R3-4: "the first time fired on" is the first recorded fire on that unit in the battle --------------------


@pytest.mark.parametrize(("panic_roll", "result", "grade"), [(1, "fail", "steady"), (2, "fail", "steady"),
                                                               (3, "pass", "confident")])  # fmt: skip
def test_r3_4_a_green_units_first_fire_calls_for_its_panic_test(
    ridge: Fs, panic_roll: int, result: str, grade: str
) -> None:
    # RULES.md R3-4's example: G fresh; first attack (1 killed): its morale test (medium casualties 1: LV 2 + 1 =
    # 3; d6 6 passes), then its panic test: d6 > LV 2.
    rules = ridge.attack("G", 6, panic_roll, killed=1)
    assert [r["rule"] for r in rules] == ["attack", "morale_test", "panic_test"]
    assert rules[2]["inputs"]["trigger"] == "fired_on" and rules[2]["outcome"]["result"] == result
    assert ridge.grade("G") == grade
    assert ridge.on_table("G").panic == ("panicking" if result == "fail" else "immune")


def test_r3_4_a_second_fire_calls_for_no_panic_test_and_fired_on_is_refused_after_it(ridge: Fs) -> None:
    first = ridge.run(fsb.Attack, 6, 3, unit_name="G", killed=1, wounded=0)
    first_fire = next(e.seq for e in first.events if e.type == "rules.applied")  # the attack's own line
    assert [r["rule"] for r in ridge.attack("G", 6, killed=1)] == ["attack", "morale_test"]
    ridge.refused(fsb.Panic, f"#{first_fire}", 1, unit_name="G", trigger="fired_on")


def test_r3_4_a_miss_is_fire_too(ridge: Fs) -> None:
    # Fired on, "whether or not it hits": no casualty, no morale test; the panic test (d6 1 ≤ 2: panics).
    rules = ridge.attack("G", 1, by="E")
    assert [r["rule"] for r in rules] == ["attack", "panic_test"] and ridge.grade("G") == "steady"


def test_r3_4_fired_on_before_any_fire_is_refused(ridge: Fs) -> None:
    ridge.refused(fsb.Panic, "G has not been fired on", 1, unit_name="G", trigger="fired_on")


def test_r3_4_an_assault_is_not_fire(ridge: Fs) -> None:
    # Close combat is not fire: no panic test; the first fire after it calls for the test.
    assert [r["rule"] for r in ridge.attack("G", 6, killed=1, assault=True)] == ["attack", "morale_test"]
    assert [r["rule"] for r in ridge.attack("G", 6, 3, killed=1)] == ["attack", "morale_test", "panic_test"]


@pytest.mark.parametrize("kind", ["artillery", "air"])
def test_r3_4_artillery_and_air_attacks_are_fire(ridge: Fs, kind: str) -> None:
    # Medium, casualties 1 + artillery/air +1: 2 + 2 = 4; d6 6 passes; then the panic test (d6 3 > 2).
    rules = ridge.attack("G", 6, 3, killed=1, **{kind: True})
    assert rules[1]["inputs"]["target"] == 4 and rules[2]["rule"] == "panic_test"


def test_r3_4_no_first_fire_test_for_a_unit_already_panicking_or_past_its_test(ridge: Fs) -> None:
    ridge.rules(fsb.Panic, 3, unit_name="G", trigger="armour_in_sight")  # d6 3 > 2: passes, never again
    assert [r["rule"] for r in ridge.attack("G", 6, killed=1)] == ["attack", "morale_test"]


def test_r3_4_a_regular_unit_has_no_fired_on_trigger(ridge: Fs) -> None:
    assert [r["rule"] for r in ridge.attack("R", 8, killed=1)] == ["attack", "morale_test"]


def test_r3_4_an_attack_with_nothing_is_refused_when_it_is_not_fire(ridge: Fs) -> None:
    ridge.refused(fsb.Attack, "calls for nothing", unit_name="R", killed=0, wounded=0, assault=True)


# -- R3-5: "more men lost than remain" counts the whole battle ------------------------------------------------


def test_r3_5_lost_more_than_left_counts_the_battle(ridge: Fs) -> None:
    # RULES.md R3-5's example: 10 men, Medium. Attack 1 kills 5: 5 lost, 5 left, not more → casualties, threat 1:
    # target 2 + 1 = 3; d8 4 > 3 passes.
    first = ridge.attack("R", 4, killed=5)
    assert first[0]["outcome"]["threat_rows"] == ["casualties"] and first[1]["inputs"]["threat"] == 1
    # Attack 2 kills 1: 6 lost > 4 left → threat 3: target 5; d8 4 ≤ 5, 2·4 = 8 > 5 → −1 grade.
    second = ridge.attack("R", 4, killed=1)
    assert second[0]["outcome"]["threat_rows"] == ["casualties", "lost_more_than_left"]
    assert second[1]["inputs"]["threat"] == 3 and second[1]["outcome"]["to"] == "steady"


def test_r3_5_the_wounded_are_lost_men_too(ridge: Fs) -> None:
    # 4 wounded, then 2 killed: 6 lost (unverified or not) > 4 left → threat 3 (+ 0 for unverified at Medium).
    ridge.attack("R", 8, wounded=4)
    ridge.run(fsc.Wounded, unit_name="R", checked=4)  # verified, but not back in the ranks: still lost
    assert ridge.attack("R", 8, killed=2)[1]["inputs"]["threat"] == 3


def test_r3_5_the_row_never_calls_a_test_on_its_own(ridge: Fs) -> None:
    ridge.attack("R", 8, killed=6)  # 6 lost > 4 left
    # A suppression with no casualties: first suppression only (Medium 1), not the lost-more row.
    rules = ridge.attack("R", 8, suppressing=True)
    assert rules[0]["outcome"]["threat_rows"] == ["first_suppression"] and rules[1]["inputs"]["threat"] == 1


def test_r3_5_the_alternative_reading_counts_one_attack(ridge: Fs) -> None:
    # A-9's alternative (SGII "in one attack"): the second attack's 1 lost < 4 left → threat 1, the old answer.
    ridge.run(fsc.HouseRule, path="threats.lost_more_than_left.counts", value="attack")
    ridge.attack("R", 8, killed=5)
    assert ridge.attack("R", 4, killed=1)[1]["inputs"]["threat"] == 1
    ridge.refused(fsc.HouseRule, "battle.*attack", path="threats.lost_more_than_left.counts", value="war")


# -- R3-6: the No step back ending against the start-grade cap ------------------------------------------------


@pytest.mark.parametrize(("fatigue", "start", "end"), [("exhausted", "shaken", "shaken"), ("tired", "steady", "steady"),
                                                       ("fresh", "confident", "steady")])  # fmt: skip
def test_r3_6_no_step_back_ends_at_the_worse_of_steady_and_the_start_grade(
    fs: Fs, fatigue: str, start: str, end: str
) -> None:
    # RULES.md R3-6's example: an exhausted side (start По) → По; tired (Ст) → Ст; fresh (Ув) → Ст.
    fs.muster("S", "regular", 2, 6, side="Steel")
    fs.start(S=f"{fatigue},cover", R="fresh")
    assert fs.grade("S") == start
    fs.rules(fsb.LastStand, 6, unit_name="S", friends_within_12=0, enemy_squads_in_sight=3)  # d6 6 ≥ 6: stands
    [ended] = fs.rules(fsb.EndLastStand, unit_name="S", reason="only_broken_enemies")
    assert ended["outcome"]["to"] == end and fs.grade("S") == end
    assert ("its start grade" in ended["explanation"]) is (end != "steady")  # the cap is said where it bites


def test_r3_6_a_broken_start_stays_broken_and_the_alternative_is_steady_always(fs: Fs) -> None:
    # A Ра start reaches No step back only by psi (R2-2): it ends at Ра; under A-10's alternative, at Ст.
    fs.muster("S", "regular", 2, 6, side="Steel")
    fs.muster("T", "regular", 2, 6, side="Steel")
    fs.start(S="exhausted,start:broken", T="exhausted", P="fresh")
    fs.psi("P", "S", "no_step_back", 6)
    assert fs.rules(fsb.EndLastStand, unit_name="S", reason="only_broken_enemies")[0]["outcome"]["to"] == "broken"
    fs.run(fsc.HouseRule, path="last_stand.end_capped_by_start", value=False)
    fs.psi("P", "T", "no_step_back", 6)
    assert fs.rules(fsb.EndLastStand, unit_name="T", reason="only_broken_enemies")[0]["outcome"]["to"] == "steady"


# -- R3-7: five-grade veterancy: dilution may lower the quality; the average is floored -----------------------


@pytest.fixture
def veterans(fs: Fs) -> Fs:
    fs.muster("B", "regular", 2, 10)  # mustered at 3 battles per man (§5: Regular from 3)
    fs.muster("V", "veteran", 2, 10)  # at 10
    fs.start(B="fresh", V="fresh", E="fresh")
    fs.run(fsc.EndBattle, result="held")  # one battle more: B 4, V 11
    assert (fs.experience("B"), fs.experience("V")) == (4, 11)
    return fs


def test_r3_7_recruits_lower_a_regular_unit_to_green(veterans: Fs) -> None:
    # RULES.md R3-7's example: B, 10 men at 4, takes 5 recruits: floor(40 ÷ 15) = floor(2.67) = 2 → Green.
    veterans.run(fsc.Recruit, unit_name="B", men=5)
    assert (veterans.experience("B"), veterans.quality("B")) == (2, "green")
    # After one more battle: 3 → Regular.
    veterans.start(name="Ford", B="fresh", E="fresh")
    veterans.run(fsc.EndBattle, result="held")
    assert (veterans.experience("B"), veterans.quality("B")) == (3, "regular")


def test_r3_7_fewer_recruits_keep_the_unit_in_its_band(veterans: Fs) -> None:
    # 10 men at 4 and 3 recruits: floor(40 ÷ 13) = floor(3.08) = 3 → still Regular.
    veterans.run(fsc.Recruit, unit_name="B", men=3)
    assert (veterans.experience("B"), veterans.quality("B")) == (3, "regular")


@pytest.mark.parametrize(("men", "experience", "quality"), [(1, 10, "veteran"), (2, 9, "regular")])
def test_r3_7_a_veteran_unit_falls_to_regular_below_10(veterans: Fs, men: int, experience: int, quality: str) -> None:
    # 10 men at 11: 1 recruit → floor(110 ÷ 11) = 10, Veteran; 2 → floor(110 ÷ 12) = 9, Regular.
    veterans.run(fsc.Recruit, unit_name="V", men=men)
    assert (veterans.experience("V"), veterans.quality("V")) == (experience, quality)


def test_r3_7_the_floored_average_is_kept_at_each_join(veterans: Fs) -> None:
    # 15 recruits at 0 into B (10 at 4): floor(40 ÷ 25) = 1; then 5 more: floor(25 ÷ 30) = 0, where one average
    # of all (40 ÷ 30 = 1.33) would have kept 1.
    veterans.run(fsc.Recruit, unit_name="B", men=15)
    assert veterans.experience("B") == 1
    veterans.run(fsc.Recruit, unit_name="B", men=5)
    assert veterans.experience("B") == 0


def test_r3_7_a_transfer_in_is_averaged_and_floored(fs: Fs) -> None:
    # RULES.md R3-7: 5 men at 2 transferred into 6 men at 1: floor(16 ÷ 11) = 1.
    fs.muster("Five", "green", 2, 5)
    fs.muster("Six", "green", 2, 6)
    fs.start(Five="fresh", Six="fresh", E="fresh")
    fs.run(fsc.EndBattle, result="one")  # Five 1, Six 1
    fs.start(name="Two", Five="fresh", E="fresh")
    fs.run(fsc.EndBattle, result="two")  # Five 2
    fs.run(fsc.Transfer, from_unit="Five", to_unit="Six", men=5)
    assert fs.experience("Six") == 1 and fs.quality("Six") == "green"


def test_r3_7_the_upward_only_rule_is_kept_as_a_house_rule(veterans: Fs) -> None:
    veterans.run(fsc.HouseRule, path="campaign.veterancy.may_fall", value=False)
    veterans.run(fsc.Recruit, unit_name="B", men=5)
    assert (veterans.experience("B"), veterans.quality("B")) == (2, "regular")
    # The state folds the same from the log, each event under the house rules then in force.
    folded = fs_state.fold(veterans.ledger.store.read(veterans.info.campaign_id), base_values("fighting_spirit"))
    assert folded.roster[veterans.unit_id("B")].profile.quality == "regular"


def test_r3_7_untrained_and_elite_are_not_moved_by_experience(fs: Fs) -> None:
    fs.muster("El", "elite", 2, 10)  # mustered at 10 (the Veteran band's bottom)
    fs.start(El="fresh", U="fresh", E="fresh")
    fs.run(fsc.EndBattle, result="held")
    fs.run(fsc.Recruit, unit_name="El", men=10)  # floor(110 ÷ 20) = 5: a Regular's band, but Elite stays
    fs.run(fsc.Recruit, unit_name="U", men=1)
    assert (fs.quality("El"), fs.quality("U")) == ("elite", "untrained")


# -- R3-8: measured distances that are not whole inches -------------------------------------------------------


@pytest.fixture
def command(fs: Fs) -> Fs:
    fs.muster("HQ", "regular", 1, 4, radio=True)
    fs.muster("Squad", "regular", 1, 6, reports_to="HQ", radio=True)
    fs.start(HQ="fresh", Squad="fresh", P="fresh", E="fresh", F="fresh")
    fs.rules(fsb.Morale, 1, unit_name="Squad", rows=["leader_lost"])  # 1 + 3 = 4; d8 1: −2 grades, Ув → По
    return fs


@pytest.mark.parametrize(("distance", "comms"), [("6.0", False), ("6", False), ("6.1", True), (6, False)])
def test_r3_8_within_6_inches_is_at_most_6_point_0(command: Fs, distance: object, comms: bool) -> None:
    # RULES.md R3-8: 6.0" and in sight → no communication test; 6.1" → a test (HQ's d8 > max(LV 1, 1): 5 passes).
    faces = (5, 8) if comms else (8,)
    [rally] = command.rules(fsb.Rally, *faces, unit_name="Squad", officer_name="HQ", distance=distance, in_sight=True)
    assert ("communication: officer quality d8" in rally["explanation"]) is comms
    assert rally["outcome"]["result"] == "rallied"


@pytest.mark.parametrize(("distance", "die"), [("12.0", 8), ("12.1", 6), ("24.0", 6), ("24.1", 4), ("0", 8)])
def test_r3_8_psi_bands_of_12_inches(fs: Fs, distance: str, die: int) -> None:
    # Band ceil(d ÷ 12): 12.0" → 1, 12.1" → 2, 24.0" → 2, 24.1" → 3; a step down per band after the first.
    fs.start(P="fresh", E="fresh")
    [detect] = fs.psi("P", "E", "psi_detection", 1, distance=distance)
    assert f"d{die}" in detect["explanation"]


@pytest.mark.parametrize(("enemy", "surrenders"), [("12.0", True), ("12.1", False)])
def test_r3_8_a_routed_unit_surrenders_to_an_enemy_within_12_point_0(fs: Fs, enemy: str, surrenders: bool) -> None:
    # An enemy at 12.0" → a Бе unit surrenders; at 12.1" → it does not.
    fs.muster("Rt", "regular", 2, 6)
    fs.start(Rt="fresh,start:broken", E="fresh")
    fs.rules(fsb.Morale, 1, unit_name="Rt", rows=["leader_lost"])  # 2 + 3 = 5; d8 1: Ра → Бе
    if surrenders:
        fs.rules(fsb.Surrender, unit_name="Rt", enemy_within=enemy)
        assert fs.on_table("Rt").removed == "surrendered"
    else:
        fs.refused(fsb.Surrender, 'the nearest enemy 12.1" away', unit_name="Rt", enemy_within=enemy)


@pytest.mark.parametrize(
    ("distance", "words"),
    [
        ("6.55", "to a tenth at most"),
        ("-1", "distance cannot be negative"),
        ("six", "must be inches as measured"),
        ("1e3", "must be inches as measured"),
        ("6.", "must be inches as measured"),
        ("10001", "more than 10000 inches"),
    ],
)
def test_r3_8_a_distance_is_inches_to_one_decimal_place(command: Fs, distance: str, words: str) -> None:
    command.refused(fsb.Rally, words, 8, unit_name="Squad", officer_name="HQ", distance=distance, in_sight=True)


def test_r3_8_house_rules_on_measuring(command: Fs) -> None:
    # measure.within_inclusive false: "within 6" is d < 6, so 6.0" calls for the communication test.
    command.run(fsc.HouseRule, path="measure.within_inclusive", value=False)
    [rally] = command.rules(fsb.Rally, 5, 8, unit_name="Squad", officer_name="HQ", distance="6.0", in_sight=True)
    assert "communication" in rally["explanation"]
    # … and a psi target at exactly 12" is in the second band.
    assert "d6" in command.psi("P", "E", "psi_detection", 1, distance="12")[0]["explanation"]
    # measure.decimals 0: whole inches only.
    command.run(fsc.HouseRule, path="measure.decimals", value=0)
    command.refused(fsb.Psi, "whole inches", 1, psion_name="P", target_name="E", effect="psi_detection",
                    distance="5.5", in_sight=True)  # fmt: skip
    command.refused(fsc.HouseRule, "measure.decimals", path="measure.decimals", value=3)

"""What each battle card says a unit may (or must) do now, from the rules' words, on both sides of each edge.

Grimdark (RULES.md §4.1, R3-25, R3-26): a unit activates once a round; a Shaken one "must stay idle" in its next
activation and stops being Shaken at its end; "if it has already activated and then becomes Shaken, it cannot
remove it in the same round". Five grades (§0.3, R3-1, R3-2, R3-3): one activation a turn; a panicking unit's
activation is one panic test and nothing else; Shaken may not move toward the enemy, Broken and Routed have their
lists. Disorder markers (§1.2–§1.6, R2-6, R3-11): a unit that failed badly must try to rally in the next turn, one
attempt a turn; the permanent marker never comes off. Mass Combat (§2.11): the Strategy contest decides, and each
unit's fate (holds, retreats, routs, surrenders) is what its result says.
"""

from __future__ import annotations

from campaign.i18n import _, reading_in
from campaign.rulesets.disorder.shown import disorder_now
from campaign.rulesets.disorder.state import UnitInBattle as DisorderUnit
from campaign.rulesets.fighting_spirit.shown import fs_now
from campaign.rulesets.fighting_spirit.state import UnitState
from campaign.rulesets.grimdark.shown import gf_now
from campaign.rulesets.grimdark.state import BattleState, UnitInBattle
from campaign.rulesets.mass_combat.shown import MC_NOW


def _gf(shaken: bool = False, activations: tuple[tuple[str, bool], ...] = ()) -> BattleState:
    units = {
        uid: UnitInBattle(uid, side, 10, 10, 1, 4, shaken=shaken and uid == "robots")
        for uid, side in (("robots", "Robots"), ("saurians", "Saurians"))
    }
    return BattleState("b1", "Ruins", 1, ("Robots", "Saurians"), units=units, activations=activations)


def _said(now: tuple[str, ...]) -> str:
    return " ".join(now)


def test_grimdark_not_activated_may_act_and_activated_is_done_this_round() -> None:
    assert "may activate this round: Hold, Advance, Rush or Charge" in _said(gf_now(_gf(), "robots"))
    activating = _gf(activations=(("robots", False),))
    assert "activating now" in _said(gf_now(activating, "robots"))
    assert "may activate this round" in _said(gf_now(activating, "saurians"))  # the other has not
    done = _gf(activations=(("robots", False), ("saurians", False)))
    assert _said(gf_now(done, "robots")) == "done this round: it activates again next round"


def test_grimdark_shaken_must_spend_its_activation_idle_and_after_activating_waits_a_round() -> None:
    before = _said(gf_now(_gf(shaken=True), "robots"))
    assert "must spend its activation this round idle" in before and "Hold" in before
    assert "may activate" not in before and "strike back in melee, as if Fatigued" in before
    after = _said(gf_now(_gf(shaken=True, activations=(("robots", False),)), "robots"))
    assert "stays Shaken until its idle activation next round" in after
    assert "this round idle" not in after  # R3-26: not this round


def _fs(**changes: object) -> UnitState:
    base = {"unit_id": "keno", "side": "Keno", "start_grade": "confident", "grade": "confident"}
    return UnitState(**{**base, "start_men": 7, "men": 7, **changes})  # type: ignore[arg-type]


def test_five_grades_one_activation_a_turn_and_what_each_grade_allows() -> None:
    assert fs_now(_fs()) == ("may activate this turn (once a turn)", "its grade allows any order")
    assert fs_now(_fs(activations=1))[0] == "has activated this turn: no second activation until next turn"
    assert fs_now(_fs(spent=True))[0] == "done this turn: its next activation comes next turn"
    assert "but moving toward the enemy" in fs_now(_fs(grade="shaken"))[1]
    assert "but moving toward the enemy" not in fs_now(_fs(grade="steady"))[1]
    assert "fire at an enemy that fired on it this turn" in fs_now(_fs(grade="broken"))[1]
    assert "never stopping" in fs_now(_fs(grade="routed"))[1]
    assert "passes every morale and reaction test" in _said(fs_now(_fs(last_stand=True)))
    assert fs_now(_fs(removed="fled")) == ()


def test_five_grades_a_panicking_units_activation_is_one_panic_test() -> None:
    waiting = _said(fs_now(_fs(panic="panicking")))
    assert "one panic test and nothing else" in waiting and "grade allows" not in waiting
    assert "its panic test is all this activation may do" in _said(fs_now(_fs(panic="panicking", activations=1)))
    tested = fs_now(_fs(panic="panicking", activations=1, panic_tests=1))
    assert tested[0] == "done this turn: its next activation comes next turn"
    assert "panic" not in _said(fs_now(_fs(panic="passed")))


def _dis(**changes: object) -> DisorderUnit:
    return DisorderUnit(**{"unit_id": "a", "side": "French", "start_models": 12, "models": 12, "points": 60, **changes})  # type: ignore[arg-type]


def test_disorder_must_rally_next_turn_once_a_turn_and_the_permanent_marker_stays() -> None:
    assert disorder_now(1, _dis()) == ("in order: no marker to rally off",)
    assert disorder_now(1, _dis(markers=1, must_rally=2))[0] == "must try to rally next turn"
    assert disorder_now(2, _dis(markers=1, must_rally=2))[0] == "must try to rally this turn"
    assert "may rally (once a turn)" in disorder_now(2, _dis(markers=1))[0]
    tried = disorder_now(2, _dis(markers=1, rallied_in=(2,)))
    assert tried == ("has tried to rally this turn: its next try is next turn",)
    assert "may rally" in disorder_now(3, _dis(markers=1, rallied_in=(2,)))[0]  # the next turn
    assert disorder_now(2, _dis(permanent=1)) == ("its permanent marker never comes off: a rally removes none",)
    assert disorder_now(2, _dis(markers=1, removed="fled")) == ()


def test_mass_combat_the_fate_its_result_gave() -> None:
    assert "Strategy contest decides" in MC_NOW[""][0]
    assert MC_NOW["retreats"] == ("retreats in good order",)
    assert MC_NOW["routs"] == ("routs: out of this battle",)


def test_the_words_are_said_in_russian_and_polish() -> None:
    for lang in ("ru", "pl"):
        with reading_in(lang):
            for sentence in (*gf_now(_gf(), "robots"), *fs_now(_fs(grade="broken")), *disorder_now(1, _dis())):
                assert _(sentence) != sentence, (lang, sentence)

"""RULES.md second edition, seed 002: errata met while mustering, paying and fighting, through the public service."""

from __future__ import annotations

import pytest

from campaign.executor import TableEntry
from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from events.errors import InvalidInputError
from tests.acceptance.mass_combat_table import War, applied, battle, d3, faces, side


def test_r2_12_a_veteran_unit_mustered_without_experience_averages_from_10() -> None:
    w = War()
    w.ledger.execute(
        w.info, mc.Muster.build(name="Old guard", side="Crimson", profile={"men": 40, "quality": "veteran"})
    )
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    guard = state.unit_by_name("Old guard")
    assert guard is not None and guard.profile.experience == 10
    # 25 Green recruits join: (40 × 10 + 25 × 1) ÷ 65 = 6.54 → 6 → Seasoned (the old default 3 gave Green).
    w.ledger.execute(w.info, mc.Recruit.build(unit_name="Old guard", men=25, quality="green", pay=False))
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    guard = state.unit_by_name("Old guard")
    assert guard is not None and (guard.profile.experience, guard.profile.quality) == (6, "seasoned")


def test_r2_12_mustering_a_veteran_unit_with_experience_5_is_refused() -> None:
    w = War()
    before = len(list(w.ledger.store.read(w.info.campaign_id)))
    with pytest.raises(InvalidInputError, match="experience 5 is average, not veteran"):
        w.ledger.execute(
            w.info,
            mc.Muster.build(
                name="Pretenders", side="Crimson", profile={"men": 40, "quality": "veteran", "experience": 5}
            ),
        )
    with pytest.raises(InvalidInputError, match="not veteran"):
        w.ledger.execute(
            w.info,
            mc.Raise.build(
                name="Pretenders", side="Crimson", profile={"men": 40, "quality": "veteran", "experience": 9}, pay=False
            ),
        )
    assert len(list(w.ledger.store.read(w.info.campaign_id))) == before
    w.ledger.execute(
        w.info, mc.Muster.build(name="Seasoned hands", side="Crimson", profile={"men": 40, "experience": 6})
    )
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    hands = state.unit_by_name("Seasoned hands")
    assert hands is not None and hands.profile.quality == "seasoned"


def test_r2_19_conscripts_lose_1_when_paid_and_2_when_not_without_arrears() -> None:
    w = War()
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=100_000, reason="the levy's chest"))
    w.ledger.execute(
        w.info,
        mc.Muster.build(
            name="Levy",
            side="Crimson",
            profile={"quality": "average", "men": 10, "cost_per_man": 100, "conscript": True},
        ),
    )
    assert w.morale("Levy") == -1  # pay current
    w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 0}))  # the monthly pay not made on its payday
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    levy = state.unit_by_name("Levy")
    assert levy is not None and levy.pay.penalty == 0  # no arrears: conscripts need not be paid
    assert w.morale("Levy") == -2  # −2 replaces the −1
    w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 100}))
    assert w.morale("Levy") == -1


def _pc(unit: str, side_name: str = "Crimson") -> dict[str, object]:
    return {"name": "Caliburn", "side": side_name, "unit": unit, "iq": 12, "weapon": 14, "risk": 0}


@pytest.mark.parametrize(("levy_roll", "second"), [(18, 8), (11, None)])
def test_r2_22_a_pc_whose_unit_routs_rolls_again_on_the_winning_side(levy_roll: int, second: int | None) -> None:
    # Table A, W 1: Crimson 12 rolls 10 → 2, Azure rolls 11 → 1. The Green levy (Morale 11) rolls 18: failed by 7,
    # it routs; Caliburn (Battle 10, Risk 0) rolls again at 10 − 2 = 8, with no difference penalty (his side won).
    # Rolling 11 the levy holds: no second roll.
    w = War()
    w.muster("Levy", "Crimson", quality="green")
    w.muster("Blue foot", "Azure")
    setup = battle("Field", side("Crimson", ["Levy"]), side("Azure", ["Blue foot"]), pcs=[_pc("Levy")])
    result = w.fight(setup, [*d3(3, 3), *d3(5), *d3(10), *d3(10, 11), *d3(levy_roll)])
    assert applied(result, "result")[0]["inputs"]["w"] == 1
    rolls = applied(result, "survival")
    if second is None:
        assert len(rolls) == 1
    else:
        assert len(rolls) == 2 and rolls[1]["inputs"]["target"] == second


def test_r2_22_a_pc_on_the_losing_side_takes_the_difference_penalty() -> None:
    # Crimson rolls 4 → 8, Azure rolls 11 → 1: W 7, a minor victory. Caliburn (Azure) rolls again at
    # 10 − 2 (7 ÷ 3, rounded down) = 8; his unit retreats in good order, so no −2.
    w = War()
    w.muster("Red foot", "Crimson")
    w.muster("Blue foot", "Azure")
    setup = battle(
        "Field", side("Crimson", ["Red foot"]), side("Azure", ["Blue foot"]), pcs=[_pc("Blue foot", "Azure")]
    )
    result = w.fight(setup, [*d3(3, 3), *d3(5), *d3(10), *d3(4, 11), *d3(6)])
    rolls = applied(result, "survival")
    assert len(rolls) == 2 and rolls[1]["inputs"]["target"] == 8


def test_r2_23_and_24_force_in_a_battle() -> None:
    # 1 point of Morale on a unit of TS 60: 100 ÷ 60 = 1.67 → +2 (rounding down gave +1); recon with 7 points: +2.
    w = War()
    w.muster("Red foot", "Crimson", men=20, ts_per_man=3)
    w.muster("Blue foot", "Azure", men=20, ts_per_man=3)
    spells = [{"kind": "morale", "points": 1, "target": "Red foot"}, {"kind": "recon", "points": 7}]
    setup = battle("Field", side("Crimson", ["Red foot"], es=8, spells=spells), side("Azure", ["Blue foot"]))
    result = w.fight(setup, [*d3(3, 3), *d3(10, 10)])
    force = applied(result, "extraordinary_force")[0]
    assert "Morale +2 on Red foot (TS 60)" in force["explanation"]
    assert applied(result, "strategy_contest")[0]["inputs"]["modifiers"]["Crimson"]["recon (Extraordinary Force)"] == 2


def test_r2_25_three_armies_compare_with_the_average_of_their_opponents() -> None:
    # TS 900, 600 and 300: the first compares 900 with 450 → 2 : 1 → +3; the second 600 with 600 → 0; the third
    # 300 with 750 → 0. The highest margin wins; each other's W is the winner's margin minus its own.
    w = War()
    for name, ts in (("North", 9), ("South", 6), ("East", 3)):
        w.muster(f"{name} host", name, men=100, ts_per_man=ts)
    sides = [side(n, [f"{n} host"]) for n in ("North", "South", "East")]
    result = w.fight(battle("Three kings", *sides), [*d3(3, 3, 3), *d3(10, 10, 10)])
    mods = applied(result, "strategy_contest")[0]["inputs"]["modifiers"]
    assert mods["North"] == {"TS 900:450 = 2.00": 3} and mods["South"] == {} and mods["East"] == {}
    assert applied(result, "strategy_contest")[0]["outcome"]["margins"] == {"North": 5, "South": 2, "East": 2}
    verdict = applied(result, "result")[0]
    assert verdict["inputs"]["w"] == 3 and verdict["outcome"]["winner"] == "North"


def test_r2_26_undead_pass_every_morale_roll_without_rolling() -> None:
    w = War()
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=100_000, reason="grave goods"))
    w.muster("Dead men", "Crimson", troop_type="zombies", cost_per_man=100)
    w.muster("Red foot", "Crimson", cost_per_man=100)
    w.muster("Blue foot", "Azure")
    w.ledger.execute(
        w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 0})
    )  # a missed payday: arrears, which do not touch the dead
    assert w.morale("Dead men") == 0 and w.morale("Red foot") == -1
    # Table A, W 0: every unit rolls Morale, except the dead.
    setup = battle("Barrow", side("Crimson", ["Dead men", "Red foot"]), side("Azure", ["Blue foot"]))
    result = w.fight(setup, [*d3(3, 3), *d3(10, 10), *d3(18), *d3(6)])
    morale = {d["explanation"].split(":")[0]: d for d in applied(result, "unit_morale")}
    assert (
        morale["Dead men"]["outcome"] == {"fate": "holds"}
        and "not subject to Morale" in morale["Dead men"]["explanation"]
    )
    assert morale["Red foot"]["outcome"]["fate"] == "routs"  # it took the 18: 12 − 18, failed by 6
    purposes = [e.payload["purpose"] for e in result.events if e.type == "dice.rolled"]
    assert "Morale roll, Dead men" not in purposes


def test_r2_19_arrears_run_in_days_and_fall_by_1_every_second_day_once_paid() -> None:
    # (c) Three unpaid days: −1, −3, −5, with three Morale rolls; paid on the fourth day: −4 two days later,
    # −3 after four days, … 0 after ten.
    w = War()
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=100_000, reason="the chest"))
    w.muster("Swords", "Crimson", cost_per_man=100)

    def arrears() -> int:
        return -w.morale("Swords")

    rolls = [applied(w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 0})), "payday")]
    assert arrears() == 1
    for expected in (3, 5):
        rolls.append(applied(w.ledger.execute(w.info, mcal.Days.build(days=1, activity="march")), "unpaid_day"))
        assert arrears() == expected
    assert [len(r) for r in rolls] == [1, 1, 1] and "morale_roll" in rolls[0][0]["outcome"]
    w.ledger.execute(w.info, mcal.Pay.build(unit_name="Swords", pay_pct=100))  # the month's arrears paid in full
    seen = []
    for _ in range(10):
        w.ledger.execute(w.info, mcal.Days.build(days=1, activity="rest"))
        seen.append(arrears())
    assert seen == [5, 4, 4, 3, 3, 2, 2, 1, 1, 0]
    assert not applied(
        w.ledger.execute(w.info, mcal.Days.build(days=1, activity="rest")), "unpaid_day"
    )  # nothing owed: no roll


def test_r2_19_a_payday_paid_in_full_does_not_clear_older_arrears() -> None:
    w = War()
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=100_000, reason="the chest"))
    w.muster("Swords", "Crimson", cost_per_man=100)
    w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 0}))  # −1, $1000 owed
    w.ledger.execute(
        w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 100})
    )  # pays the month only: the arrears are still owed, another unpaid day
    assert w.morale("Swords") == -3
    w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 200}))  # the month and the arrears: paid in full
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    swords = state.unit_by_name("Swords")
    assert swords is not None and swords.pay.owed == 0 and w.morale("Swords") == -3


@pytest.mark.parametrize(("roll", "made"), [(12, "made"), (13, "failed")])
def test_r2_19_the_unpaid_day_morale_roll_is_made_at_equality(roll: int, made: str) -> None:
    # Average 13. The payday's roll is after its reduction: 13 − 1 = 12, so 12 is made and 13 failed; the next
    # unpaid day's: 13 − 3 = 10, so 10 is made and 11 failed.
    w = War()
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=100_000, reason="the chest"))
    w.muster("Swords", "Crimson", cost_per_man=100)
    payday = w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 0}), table=TableEntry(tuple(faces(roll))))
    assert applied(payday, "payday")[0]["outcome"]["morale_roll"] == made
    day = w.ledger.execute(w.info, mcal.Days.build(days=1, activity="rest"), table=TableEntry(tuple(faces(roll - 2))))
    assert applied(day, "unpaid_day")[0]["inputs"]["morale"] == 10
    assert applied(day, "unpaid_day")[0]["outcome"]["morale_roll"] == made


@pytest.mark.parametrize(("pct", "bonus"), [(149, 0), (150, 1), (199, 1), (200, 2)])
def test_bonus_pay_from_150_and_200_percent(pct: int, bonus: int) -> None:
    w = War()
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=100_000, reason="the chest"))
    w.muster("Swords", "Crimson", cost_per_man=100)
    w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": pct}))
    assert w.morale("Swords") == bonus

"""Bonus pay between paydays (RULES.md §2.11 Pay: "Pay +50% → +1 Morale next month; +100% → +2").

`mc pay UNIT` is "back pay, or a bonus". With nothing owed (the month's pay made at its end) it took a month's pay
again and gave nothing for it: the money spent, no bonus, and the next month's end charged the month as ever. A
payment with nothing owed is bonus pay on top of the month's: ``--pct P`` makes (100 + P)% of a month's pay.
Swords: 100 men at $100 a man cost $10,000, so a month's pay (10 %, R2-20) is $1,000.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from tests.acceptance.mass_combat_table import War, applied
from tests.e2e.test_cli import Cli

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "logs_2026_12_01_pay" / "mass-combat-pay.jsonl"


def _war() -> War:
    w = War()
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=100_000, reason="the chest"))
    w.muster("Swords", "Crimson", cost_per_man=100)
    w.ledger.execute(
        w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 100})
    )  # the month's pay made in full: nothing owed
    return w


def _treasury(w: War) -> int:
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    return state.treasury["Crimson"]


@pytest.mark.parametrize(("pct", "bonus"), [(49, 0), (50, 1), (99, 1), (100, 2)])
def test_a_payment_with_nothing_owed_is_bonus_pay_for_next_month(pct: int, bonus: int) -> None:
    # 149 % of a month's pay earns nothing, 150 % +1, 199 % +1, 200 % +2 — next month, not this one.
    w = _war()
    before = _treasury(w)
    month = 100_000 - before  # what a month's end costs: upkeep and the month's pay
    paid = applied(w.ledger.execute(w.info, mcal.Pay.build(unit_name="Swords", pay_pct=pct)), "payday")[0]
    assert _treasury(w) == before - 1000 * pct // 100
    assert paid["outcome"]["paid"] == 1000 * pct // 100 and paid["outcome"]["due"] == 0
    assert paid["explanation"].startswith(f"Swords: bonus pay ${1000 * pct // 100} ({pct}% of a month's $1000; nothing")
    assert w.morale("Swords") == 0  # this month: the bonus is for the next
    state, _ = w.ledger.in_force(w.info, MASS_COMBAT)
    swords = state.unit_by_name("Swords")
    assert swords is not None and swords.pay.owed == 0
    w.ledger.execute(
        w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 100})
    )  # the next month's end costs what the first did …
    assert _treasury(w) == before - 1000 * pct // 100 - month
    assert w.morale("Swords") == bonus  # … and does not undo the bonus already earned


def test_back_pay_is_not_a_bonus() -> None:
    # A unit in arrears (month's end at 0 %: $1000 owed, −1) paid 100 %: the arrears paid, no bonus.
    w = War()
    w.ledger.execute(w.info, mcal.Funds.build(side="Crimson", amount=100_000, reason="the chest"))
    w.muster("Swords", "Crimson", cost_per_man=100)
    w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 0}))
    paid = applied(w.ledger.execute(w.info, mcal.Pay.build(unit_name="Swords", pay_pct=100)), "payday")[0]
    assert paid["outcome"]["due"] == 1000 and "arrears are paid" in paid["explanation"]
    w.ledger.execute(w.info, mcal.MonthEnd.build(pay_pct={"Crimson": 100}))
    assert w.morale("Swords") <= 0


def test_a_log_that_paid_for_nothing_under_0_2_verifies_with_a_note_not_drift(tmp_path: Path) -> None:
    """``tests/fixtures/logs_2026_12_01_pay/mass-combat-pay.jsonl`` was exported by main on 2026-12-01 (rules 0.2):
    a month's end at 100 %, then `mc pay Swords` charged a month's pay again ($90000 of $90000). Today's rules decide
    that payment differently (bonus pay); the log is honest, so verify passes and says why it differs."""
    cli = Cli(str(tmp_path / "pay.db"))
    cli("import", str(FIXTURE))
    [report] = cli.json("verify")
    assert report["ok"] is True, report
    assert [(c["command"], c["recorded_under"]) for c in report["rules_changed_since"]] == [("mc.pay", "0.2")]
    said = " ".join(cli("verify").stdout.split())  # as read, not as wrapped
    assert "same outcomes but for 1 command recorded under an older version of the rules" in said
    assert "note: #11 mc pay was recorded under ruleset version 0.2" in said

"""Ten battles of a five-grade campaign (RULES.md §5), the database closed and reopened between them.

After every battle the projections must equal what this test works out on its own from the rules of §5:
men lost, experience and veterancy, recruits and transfers, fatigue from rest and march, and pay with missed paydays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from campaign.bootstrap import bootstrap
from campaign.commands import fold_for
from campaign.rulesets.fighting_spirit import battle_commands as fsb
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.fighting_spirit.commands import Deployment
from campaign.rulesets.fighting_spirit.plugin import PLUGIN as FIGHTING_SPIRIT
from campaign.rulesets.fighting_spirit.tables import Tables
from campaign.tables import base_values
from events.recorded import whole
from projections.state.campaigns import CampaignInfo

T = Tables.of(base_values("fighting_spirit"))
TIRED, BATTLES, WINDOW, REST = (
    whole(T.values[f"campaign.{k}"].value)
    for k in ("tired_after_front_days", "exhausted_battles", "exhausted_window_days", "fresh_after_rest_days")
)
VET = {q: whole(T.values[f"campaign.veterancy.{q}"].value) for q in ("green", "regular", "veteran")}
WAGE = int(T.campaign.pay.monthly_per_man)


@dataclass
class Expected:
    side: str
    quality: str
    men: int
    experience: int
    battles: list[int] = field(default_factory=list)
    front: int = 0
    rest: int = 0
    forced: bool = False
    owed: int = 0
    missed: int = 0

    def fatigue(self, day: int, no_supplies: bool) -> str:
        recent = [d for d in self.battles if day - d < WINDOW]
        if len(recent) >= BATTLES or self.forced or no_supplies:
            return "exhausted"
        if self.rest >= REST:
            return "fresh"
        return "tired" if self.front >= TIRED else "fresh"

    def gain(self, experience: int) -> None:
        self.experience = experience
        ladder = ["green", "regular", "veteran"]
        if self.quality in ladder:
            earned = [q for q in ladder if experience >= VET[q]][-1]
            if ladder.index(earned) > ladder.index(self.quality):
                self.quality = earned


def test_ten_battles_carry_men_veterancy_fatigue_and_pay(tmp_path: Path) -> None:  # noqa: C901 (ten battles played in order, each checked)
    db = str(tmp_path / "long-war.db")
    app = bootstrap(db, actor="gm")
    app.ledger.create_campaign("Long War", "fighting-spirit")

    def info() -> CampaignInfo:
        return app.ledger.resolve("Long War")

    app.ledger.execute(
        info(),
        fs.Muster.build(
            name="Alpha", side="Keno", profile={"quality": "regular", "leadership": 2, "size": 10, "radio": True}
        ),
    )
    app.ledger.execute(
        info(), fs.Muster.build(name="Bravo", side="Keno", profile={"quality": "green", "leadership": 3, "size": 8})
    )
    app.ledger.execute(
        info(), fs.Muster.build(name="Steel", side="Steel", profile={"quality": "veteran", "leadership": 1, "size": 10})
    )
    app.ledger.execute(info(), fs.Funds.build(side="Keno", amount=10_000, reason="the war chest"))
    app.close()
    expected = {
        "Alpha": Expected("Keno", "regular", 10, VET["regular"]),
        "Bravo": Expected("Keno", "green", 8, VET["green"]),
        "Steel": Expected("Steel", "veteran", 10, VET["veteran"]),
    }
    treasury, day, steel_hungry = 10_000, 0, False
    bravo_quality: list[str] = []

    for battle in range(1, 11):
        app = bootstrap(db, actor="gm")  # a new evening: the database is opened afresh
        # Between battles: march to the front, rest every third battle, a forced march before the sixth.
        activity, days = ("rest", 8) if battle % 3 == 0 else ("forced_march", 2) if battle == 6 else ("march", 5)
        app.ledger.execute(info(), fs.PassDays.build(days=days, activity=activity))
        day += days
        for e in expected.values():
            if activity == "rest":
                e.rest += days
                e.front = 0 if e.rest >= REST else e.front
                e.forced = False
            else:
                e.front += days
                e.rest = 0
                e.forced = e.forced or activity == "forced_march"
        if battle == 8:
            app.ledger.execute(info(), fs.Condition.build(side="Steel", condition="no_supplies", active=True))
            steel_hungry = True
        if battle == 9:
            app.ledger.execute(info(), fs.Condition.build(side="Steel", condition="no_supplies", active=False))
            steel_hungry = False
        if battle == 5:  # replacements for Alpha, who bring no battles with them
            app.ledger.execute(info(), fs.Recruit.build(unit_name="Alpha", men=3))
            a = expected["Alpha"]
            a.gain((a.men * a.experience) // (a.men + 3))
            a.men += 3
        if battle == 7:  # two of Bravo's men go to Alpha, bringing Bravo's experience with them
            app.ledger.execute(info(), fs.Transfer.build(from_unit="Bravo", to_unit="Alpha", men=2))
            a, b = expected["Alpha"], expected["Bravo"]
            a.gain((a.men * a.experience + 2 * b.experience) // (a.men + 2))
            a.men += 2
            b.men -= 2
        if battle % 4 == 0:  # month's end: Keno pays, Steel's treasury is empty: a missed payday
            app.ledger.execute(info(), fs.MonthEnd.build(pay_pct={"Keno": 100, "Steel": 0}))
            for e in expected.values():
                due = WAGE * e.men
                if e.side == "Keno":
                    treasury -= due
                else:
                    e.owed += due
                    e.missed += 1
        # The battle: fatigue comes from the campaign record, the dice from the seed.
        app.ledger.execute(
            info(),
            fs.StartBattle.build(
                name=f"Battle {battle}",
                motivation={"Keno": "medium", "Steel": "high"},
                deployments=[Deployment(unit="Alpha"), Deployment(unit="Bravo"), Deployment(unit="Steel")],
            ),
        )
        state, _tables = app.ledger.in_force(info(), FIGHTING_SPIRIT)
        battle_state = state.battles[state.active_battle or ""]
        for name, e in expected.items():
            unit = state.unit_by_name(name)
            assert unit is not None
            assert battle_state.units[unit.unit_id].start_grade == T.start_grade_for(
                e.fatigue(day, steel_hungry and e.side == "Steel")
            ), name
        for name in ("Alpha", "Steel"):
            if expected[name].men > 2:
                app.ledger.execute(info(), fsb.Attack.build(unit_name=name, killed=1, wounded=1))
                expected[name].men -= 1
        app.ledger.execute(info(), fs.EndBattle.build(result="fought to a standstill", winner=None))
        for e in expected.values():
            e.battles.append(day)
            e.forced = False
            e.gain(e.experience + 1)
        app.close()

        # Reopen and compare the projections with what this test worked out.
        app = bootstrap(db, actor="gm")
        summary = fold_for("fighting-spirit").summary(app.ledger.states.get(info()))  # type: ignore[union-attr]
        units = {u["name"]: u for u in summary.units}
        for name, e in expected.items():
            got = units[name]
            assert (got["men"], got["experience"], got["quality"], got["battles"]) == (
                e.men,
                e.experience,
                e.quality,
                len(e.battles),
            ), f"battle {battle}: {name}"
            assert got["fatigue"] == e.fatigue(day, steel_hungry and e.side == "Steel"), f"battle {battle}: {name}"
            assert (got["pay_owed"], got["paydays_missed"]) == (e.owed, e.missed)
        bravo_quality.append(str(units["Bravo"]["quality"]))
        assert summary.treasury["Keno"] == treasury and summary.day == day
        assert len(summary.battles) == battle
        app.close()
    # Bravo, Green at the start, is Regular from its third battle and Veteran from its tenth.
    assert bravo_quality == ["green"] * 2 + ["regular"] * 7 + ["veteran"]
    assert expected["Steel"].missed == 2

"""After an append the inline writer makes again only the summary rows whose inputs changed. A row is
kept when its unit (or battle, or career) and everything else it reads are the very objects it was made from;
these tests change one such input alone, where the rules say the row must then change, and find the row made
again and equal to one made afresh (values worked from RULES.md and the tables as shipped)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from campaign.commands import fold_for
from campaign.rulesets.fighting_spirit.state import UnitRecord
from campaign.rulesets.mass_combat.state import Career, Modifier
from campaign.rulesets.tables import Override
from projections.fold import RulesetFold, Summary
from tests.conftest import Backend, make_ledger
from tests.integration.test_projections import play_disorder, play_five_grades, play_mass_combat


def played(name: str, play: Any) -> tuple[RulesetFold[Any], Any]:
    ledger = make_ledger(Backend("memory"))
    play(ledger, [])
    info = ledger.resolve(name)
    fold = fold_for(info.ruleset)
    assert fold is not None
    return fold, ledger.states.get(info)


def kept_then(fold: RulesetFold[Any], before: Any, after: Any) -> Summary:
    """``after``'s summary made from ``before``'s (as the writer does), checked against one made afresh."""
    _, kept = fold.summarize(before, None)
    summary = fold.summarize(after, kept)[0]
    assert summary == fold.summary(after), "a row was kept that the change alone should have made again"
    return summary


def unit(summary: Summary, name: str) -> dict[str, Any]:
    return dict(next(u for u in summary.units if u["name"] == name))


def with_unit(state: Any, name: str, **changes: Any) -> Any:
    u = next(u for u in state.roster.values() if u.name == name)
    return replace(state, roster={**state.roster, u.unit_id: replace(u, **changes)})


def test_mass_combat_a_next_day_modifier_lapses_with_the_day_alone() -> None:
    """R2-18: a modifier "until the next day" set on day 0 still counts on day 1, and has lapsed on day 2."""
    fold, state = played("Mass", play_mass_combat)
    shaken = {"shaken": Modifier("shaken", -1, "next_day", since_day=0)}
    day_one = replace(with_unit(state, "Blue foot", modifiers=shaken), day=1)
    morale = unit(fold.summary(state), "Blue foot")["campaign_morale"]
    assert unit(kept_then(fold, state, day_one), "Blue foot")["campaign_morale"] == morale - 1
    assert unit(kept_then(fold, day_one, replace(day_one, day=2)), "Blue foot")["campaign_morale"] == morale


def test_mass_combat_a_side_wide_modifier_reaches_every_unit_of_its_side_alone() -> None:
    fold, state = played("Mass", play_mass_combat)
    before = fold.summary(state)
    lost = replace(state, side_modifiers={"Blue": {"commander lost": Modifier("commander lost", -2, "year_end", 0)}})
    after = kept_then(fold, state, lost)
    for name, change in (("Blue foot", -2), ("Blue reserve", -2), ("Red foot", 0)):
        assert unit(after, name)["campaign_morale"] == unit(before, name)["campaign_morale"] + change, name


def test_mass_combat_bonus_pay_counts_in_the_month_it_is_for_when_only_the_month_turns() -> None:
    fold, state = played("Mass", play_mass_combat)
    morale = unit(fold.summary(state), "Blue foot")["campaign_morale"]
    paid = replace(with_unit(state, "Blue foot", bonus_morale=2, bonus_month=1), month=0)
    assert unit(kept_then(fold, state, paid), "Blue foot")["campaign_morale"] == morale
    assert unit(kept_then(fold, paid, replace(paid, month=1)), "Blue foot")["campaign_morale"] == morale + 2


def test_mass_combat_a_house_rule_alone_changes_the_rows_that_read_its_table() -> None:
    """A paid conscript unit has −1 Morale (economy.conscript_paid); a house rule making it −3 shows at once."""
    fold, state = played("Mass", play_mass_combat)
    blue = next(u for u in state.roster.values() if u.name == "Blue foot")
    conscripts = with_unit(state, "Blue foot", profile=blue.profile.model_copy(update={"conscript": True}))
    morale = unit(fold.summary(state), "Blue foot")["campaign_morale"]
    assert unit(kept_then(fold, state, conscripts), "Blue foot")["campaign_morale"] == morale - 1
    harsher = replace(conscripts, overrides=(Override("economy.conscript_paid", -3, "house rule"),))
    assert unit(kept_then(fold, conscripts, harsher), "Blue foot")["campaign_morale"] == morale - 3


def test_mass_combat_temporary_reputation_expires_with_the_day_alone() -> None:
    """§2.9: a temporary Reputation change counts until the day it expires (30 here), not on it."""
    fold, state = played("Mass", play_mass_combat)
    hero = replace(state, careers={"Hero": Career("Hero", temporary_reputation=((2, 30),), permanent_reputation=1)})
    summary = kept_then(fold, state, replace(hero, day=29))
    assert summary.careers[0]["reputation"] == 3
    assert kept_then(fold, replace(hero, day=29), replace(hero, day=30)).careers[0]["reputation"] == 1


def test_five_grades_fatigue_follows_the_day_the_sides_conditions_and_the_records() -> None:
    """RULES.md §5 [INF]: EXHAUSTED after 3 battles within 7 days (days 0, 1, 2: still on day 6, not on day 7,
    when the battle of day 0 is 7 days back); EXHAUSTED whatever the record under a side's condition; TIRED
    after 14 days at the front."""
    fold, state = played("Five", play_five_grades)
    squad = next(u for u in state.roster.values() if u.name == "Squad")
    fought = replace(state.records[squad.unit_id], battle_days=(0, 1, 2))
    day_six = replace(state, records={**state.records, squad.unit_id: fought}, day=6)
    assert unit(kept_then(fold, state, day_six), "Squad")["fatigue"] == "exhausted"
    assert unit(kept_then(fold, day_six, replace(day_six, day=7)), "Squad")["fatigue"] == "fresh"
    supply = replace(day_six, day=7, conditions={"Keno": ("out of supply",)})
    after = kept_then(fold, replace(day_six, day=7), supply)
    assert [unit(after, n)["fatigue"] for n in ("HQ", "Squad", "Foe")] == ["exhausted", "exhausted", "fresh"]
    front = replace(state, records={**state.records, squad.unit_id: UnitRecord(men=9, front_days=14)})
    assert unit(kept_then(fold, state, front), "Squad")["fatigue"] == "tired"


def test_disorder_who_commands_a_side_changes_with_the_officers_alone() -> None:
    fold, state = played("Skirmish", play_disorder)
    assert {c["pc"]: c["commands"] for c in fold.summary(state).careers} == {"Dubreton": True, "Sharpe": True}
    relieved = replace(state, officers={**state.officers, "British": "Hogan"})
    assert {c["pc"]: c["commands"] for c in kept_then(fold, state, relieved).careers} == {
        "Dubreton": True,
        "Sharpe": False,
    }

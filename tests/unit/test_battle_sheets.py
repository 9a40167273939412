"""The battle sheet reads every ruleset's battle state: in each demo campaign (one per ruleset), during its first
battle, a card for each unit fighting it (a Mass Combat battle: each unit of its sides), its name first."""

from __future__ import annotations

import pytest
from markupsafe import escape

from campaign.commands import fold_for
from campaign.rulesets.sheets import battle_sheet
from campaign.server.live_parts import _render
from tests.unit.test_fold_shortcuts import LOGS


@pytest.mark.parametrize("name", sorted(LOGS))
def test_each_unit_in_the_battle_has_a_card(name: str) -> None:
    events = LOGS[name]
    end = next(i for i, e in enumerate(events) if e.type == "battle.ended")
    fold = fold_for(name)
    assert fold is not None
    state = fold.fold(events[:end])
    summary = fold.summary(state)
    cards = battle_sheet(name, state, summary)
    if name == "mass-combat":
        battle = state.battles[state.open_battle]
        fighting = {u.unit_id for u in state.roster.values() if u.side in battle.sides and not u.disbanded}
    else:
        fighting = set(state.battles[state.active_battle].units)
    assert fighting and {c.unit_id for c in cards} == fighting
    names = {u["unit_id"]: u["name"] for u in summary.units}
    assert all(c.name == names[c.unit_id] and c.items for c in cards)
    html = _render("battle.html", battle=summary.battles[0], battle_log=[], members=[], cards=cards, ruleset=name)
    assert html.count('class="unit-card') == len(cards)
    assert all(f"<b>{escape(c.name)}</b>" in html for c in cards)
    after = fold.fold(events)  # every battle of the demo ended: no sheet
    assert battle_sheet(name, after, fold.summary(after)) == []

"""Properties of the disorder-marker (RULES.md §1.4) and Grimdark Future (§4.1) rules, over any state and dice."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from campaign.rulesets.disorder import rules as dis
from campaign.rulesets.disorder.tables import Tables as DisTables
from campaign.rulesets.grimdark import rules as gf
from campaign.rulesets.grimdark.tables import Tables as GfTables
from campaign.tables import base_values
from events.dice import TableDice

DIS = DisTables.of(base_values("disorder"))
GF = GfTables.of(base_values("grimdark"))
d6 = st.integers(1, 6)


@given(
    markers=st.integers(0, 1),
    permanent=st.integers(0, 1),
    discipline=st.integers(-1, 2),
    lost=st.integers(0, 6),
    extra=st.lists(st.sampled_from(["friend_removed", "officer_removed", "force_half"]), unique=True, max_size=3),
    close=st.booleans(),
    near=st.booleans(),
    faces=st.tuples(d6, d6),
)
def test_a_morale_check_is_the_sum_rules_md_gives_and_its_result_follows_the_total(
    markers: int,
    permanent: int,
    discipline: int,
    lost: int,
    extra: list[str],
    close: bool,
    near: bool,
    faces: tuple[int, int],
) -> None:
    unit = dis.Unit("u", "U", "A", 12, 12 - lost, 50, discipline, markers=markers, permanent=permanent)
    causes = (["casualties"] if lost else []) + extra
    if not causes:
        causes = ["friend_removed"]
    decision = dis.morale_check(
        DIS, unit, TableDice(faces, "gm", 0), "b", causes=causes, lost=lost, close_order=close, officer_near=near
    )
    total = sum(faces) - lost - markers - permanent + discipline + close + near - (len(causes) - 1)
    assert decision.outcome["total"] == total
    result = decision.outcome["result"]
    assert result == (
        "pass" if total >= 6 else "retreat" if total > 2 else "flees" if markers + permanent else "disordered"
    )
    removed = [f for f in decision.facts if type(f).__name__ == "UnitRemoved"]
    assert bool(removed) == (result == "flees")


@given(
    models=st.integers(1, 20),
    tough=st.integers(1, 6),
    carried=st.integers(0, 5),
    hits=st.lists(st.integers(0, 12), min_size=1, max_size=6),
)
def test_wounds_pile_onto_one_model_at_a_time(models: int, tough: int, carried: int, hits: list[int]) -> None:
    unit = gf.Unit("u", "U", "A", 4, start_size=models, models=models, tough=tough, carried=carried % tough)
    total = unit.carried
    for wounds in hits:
        before = unit
        unit, lost = gf.take_wounds(unit, wounds)
        total += wounds
        assert before.models - unit.models == lost >= 0
        assert 0 <= unit.carried < tough
        if unit.models:
            assert unit.models == models - total // tough and unit.carried == total % tough
    assert unit.destroyed == (total >= models * tough)


@given(
    models=st.integers(2, 20),
    left=st.integers(0, 20),
    shaken=st.booleans(),
    face=d6,
    fearless_face=d6,
    fearless=st.booleans(),
)
def test_a_lost_melee_routs_only_at_half_strength_and_only_on_a_failed_test(
    models: int, left: int, shaken: bool, face: int, fearless_face: int, fearless: bool
) -> None:
    left = min(left, models - 1) + 1
    loser = gf.Unit("l", "L", "A", 4, start_size=models, models=left, tough=1, shaken=shaken, fearless=fearless)
    winner = gf.Unit("w", "W", "B", 4, start_size=10, models=10, tough=1)
    faces = () if shaken else ((face, fearless_face) if fearless and face < 4 else (face,))
    decisions = gf.melee(GF, winner, loser, TableDice(faces, "gm", 0), "b", wounds_by_a=1, wounds_by_b=0, b_lost=0)
    test = decisions[-1]
    assert test.rule == "morale_test" and test.unit_id == "l"
    passed = test.outcome["passed"]
    assert passed == (not shaken and (face >= 4 or (fearless and fearless_face >= 4)))
    assert test.outcome["result"] == ("passed" if passed else "routed" if left * 2 <= models else "shaken")

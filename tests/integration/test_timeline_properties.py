"""Any play of the four rulesets, with amends, rewinds and undos interleaved, on SQLite: after each amendment what is
in effect is exactly what its preview said (later commands that no longer apply skipped alone, those that need
fewer dice or more kept), no command in effect twice, and `verify` passes with every rule re-run; at the end the
projections kept inline equal a rebuild, and every view equals the same view computed by a fresh fold of the log
with its retractions applied."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from campaign.commands import fold_for
from campaign.executor import Ledger
from campaign.replay import command_groups, rerun_in_place
from campaign.timeline import Timeline
from campaign.timeline.reports import IN_EFFECT
from events.dice.rerun import AskedFaces
from events.errors import CampaignError
from events.recorded import obj
from events.registry import registry
from events.timeline import effective, live_events
from events.verify import verify_events
from projections.state.campaigns import CampaignInfo
from tests.conftest import Backend, empty_tables, examples, make_ledger
from tests.integration.test_projections import (
    check_inline_equals_rebuild,
    disorder_step,
    five_grade_step,
    grimdark_step,
    hypo_engine,  # noqa: F401  (a fixture)
    mass_step,
    play_disorder,
    play_five_grades,
    play_grimdark,
    play_mass_combat,
)

PLAYS: dict[str, tuple[str, Callable[[Ledger, list[tuple[Any, ...]]], None], Any]] = {
    "fighting-spirit": ("Five", play_five_grades, five_grade_step),
    "mass-combat": ("Mass", play_mass_combat, mass_step),
    "disorder": ("Skirmish", play_disorder, disorder_step),
    "grimdark": ("Match", play_grimdark, grimdark_step),
}

timeline_op = st.one_of(
    st.tuples(st.just("undo")),
    st.tuples(st.just("rewind"), st.floats(0, 1)),
    st.tuples(st.just("amend"), st.floats(0, 1), st.integers(0, 2**32), st.sampled_from([0, 1, -1, 2, -2, 5])),
)
"""An amendment: which command, the seed of the faces its new dice show, and by how much its inputs change
(0: as they were; a number moves by it, a yes/no flips, a word stays): later commands may then no longer apply,
need fewer dice or more."""


def changed(value: Any, delta: int) -> Any:
    if isinstance(value, bool):
        return value if delta == 0 else not value
    if isinstance(value, int):
        return max(0, value + delta)
    return value


def apply_op(ledger: Ledger, name: str, op: tuple[Any, ...]) -> None:
    """One timeline operation on the campaign; a refusal (nothing to undo, an input that no longer applies)
    is part of what may happen, and appends nothing."""
    timeline = Timeline(ledger)
    info = ledger.resolve(name)
    groups = command_groups(effective(ledger.store.read(info.campaign_id)))
    commands = [g for g in groups if g.issued is not None and g.issued.payload["args"]]
    try:
        if op[0] == "undo":
            timeline.undo(info)
        elif op[0] == "rewind" and len(groups) > 1:
            target = groups[min(len(groups) - 2, int(op[1] * (len(groups) - 1)))]
            timeline.rewind(info, target.last_seq, "property test")
        elif op[0] == "amend" and commands:
            group = commands[min(len(commands) - 1, int(op[1] * len(commands)))]
            assert group.issued is not None
            args = dict(obj(group.issued.payload["args"]))
            key = sorted(args)[op[2] % len(args)]
            amend_as_previewed(ledger, name, group.first_seq, {key: changed(args[key], op[3])}, op[2])
    except CampaignError:
        pass


def amend_as_previewed(ledger: Ledger, name: str, seq: int, changes: dict[str, Any], seed: int) -> None:
    """An amendment previewed, its new dice thrown at the table (faces drawn from ``seed``), then applied: what is
    in effect after it is exactly what its preview said. The commands from its rewind on are the amended one and
    the later commands it kept, in order, as they were entered; each of the commands before is in effect once (a
    skipped command is in effect no more, a kept one once, none twice); the log verifies with every rule re-run."""
    faces = random.Random(seed)
    dice = AskedFaces(lambda asked: faces.randint(1, asked.sides), "gm")
    timeline = Timeline(ledger)
    info = ledger.resolve(name)
    before = command_groups(effective(ledger.store.read(info.campaign_id)))
    preview, batch = timeline.preview(info, seq, changes, new_dice=dice)
    assert preview.exact and batch is not None, "new dice thrown before the preview: it is the amendment"
    assert ledger.resolve(name).last_seq == info.last_seq, "a preview appends nothing"
    done = timeline.apply(info, preview, batch)
    assert done.result is not None
    after = command_groups(effective(ledger.store.read(info.campaign_id)))
    rerun = [g for g in after if g.first_seq > info.last_seq and g.issued is not None]
    said = [(done.command, done.args), *((f.command, f.args) for f in done.fates if f.kind in IN_EFFECT)]
    assert [(str(g.issued.payload["command"]), g.issued.payload["args"]) for g in rerun if g.issued] == said
    kept_before = [g for g in before if g.issued is not None and g.first_seq < preview.retracted[0]]
    kept_after = [g for g in after if g.issued is not None and g.first_seq <= info.last_seq]
    assert kept_after == kept_before, "the commands before the amended one are in effect as they were"
    assert len([g for g in after if g.issued]) == len([g for g in before if g.issued]) - len(done.dropped)
    report = verify_events(info.campaign_id, list(ledger.store.read(info.campaign_id)), registry)
    assert report.ok, report.findings
    assert Timeline(ledger).reevaluate(ledger.resolve(name)) == [], "a rule re-run on its dice differs"


def views_equal_a_fresh_fold(ledger: Ledger, info: CampaignInfo) -> None:
    fold = fold_for(info.ruleset)
    assert fold is not None
    fresh = fold.fold(effective(ledger.store.read(info.campaign_id)))
    assert ledger.states.get(info) == fresh, f"{info.name}: the state the views read differs from a fresh fold"
    assert fold.summary(ledger.states.get(info)) == fold.summary(fresh), f"{info.name}: status/unit/battles view"


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data(), ruleset=st.sampled_from(sorted(PLAYS)))
def test_any_play_with_amends_rewinds_and_undos_keeps_every_promise(
    hypo_engine: Engine,  # noqa: F811
    data: st.DataObject,
    ruleset: str,
) -> None:
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    name, play, step = PLAYS[ruleset]
    play(ledger, data.draw(st.lists(step, max_size=10), label="play"))
    for op in data.draw(st.lists(timeline_op, max_size=6), label="timeline"):
        apply_op(ledger, name, op)
    info = ledger.resolve(name)
    events = list(ledger.store.read(info.campaign_id))
    report = verify_events(info.campaign_id, events, registry)
    assert report.ok, report.findings
    assert Timeline(ledger).reevaluate(info) == [], "a rule re-run on its recorded inputs and dice differs"
    # Re-evaluation streams the log (no sandbox, no copy) and gives the sandbox's verdict on any play.
    assert list(live_events(ledger.store, info.campaign_id)) == effective(events)
    assert rerun_in_place(ledger, info) == [], "the streamed re-run differs where the sandbox's does not"
    views_equal_a_fresh_fold(ledger, info)
    check_inline_equals_rebuild(hypo_engine, ledger)


@pytest.mark.parametrize("ruleset", sorted(PLAYS))
def test_undo_after_every_command_leaves_only_the_campaign(hypo_engine: Engine, ruleset: str) -> None:  # noqa: F811
    """Undo, again and again, alternates: each undo takes back the last thing appended, an undo included."""
    empty_tables(hypo_engine)
    ledger = make_ledger(Backend("sqlite", hypo_engine))
    name, play, _ = PLAYS[ruleset]
    play(ledger, [])
    info = ledger.resolve(name)
    before = ledger.states.get(info)
    Timeline(ledger).undo(info)
    Timeline(ledger).undo(ledger.resolve(name))
    assert ledger.states.get(ledger.resolve(name)) == before, "undoing an undo restores what was there"
    check_inline_equals_rebuild(hypo_engine, ledger)

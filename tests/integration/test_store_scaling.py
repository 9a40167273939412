"""What a command costs the store does not grow with its campaign's log.

Counted, not timed: SQLite's progress handler counts the virtual-machine instructions each statement runs, a
deterministic measure of the rows it touches. A read that scanned the campaign's index would cost in
proportion to the log; a point or range read of the ``(campaign_id, seq)`` index costs the same on a long
campaign as on a short one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event

from campaign.bootstrap import ensure_schema
from campaign.rulesets.mass_combat import calendar_commands as mcal
from campaign.rulesets.mass_combat import commands as mc
from campaign.rulesets.mass_combat.plugin import PLUGIN as MASS_COMBAT
from events.db import make_engine
from events.envelope import NewEvent
from events.sql import SqlEventStore

SHORT, LONG = 200, 6000


@pytest.fixture
def counted(tmp_path: Path) -> Iterator[tuple[Engine, list[int]]]:
    engine = make_engine(str(tmp_path / "scale.db"))
    ensure_schema(engine)
    steps = [0]

    @event.listens_for(engine, "connect")
    def _count(dbapi_connection: Any, _record: Any) -> None:
        def tick() -> int:
            steps[0] += 1
            return 0

        dbapi_connection.set_progress_handler(tick, 1)

    engine.dispose()  # connections opened by the migration check are replaced by counted ones
    yield engine, steps
    engine.dispose()


def grow(store: SqlEventStore, campaign_id: str, size: int) -> None:
    seq = store.head(campaign_id).seq
    while seq < size:
        batch = [NewEvent("test.happened", {"n": n}) for n in range(seq + 1, min(seq + 500, size) + 1)]
        seq = store.append(campaign_id, batch, seq).head.seq


def cost(steps: list[int], operation: Callable[[], Any]) -> int:
    before = steps[0]
    operation()
    return steps[0] - before


def test_reading_from_the_head_the_last_events_or_a_type_appending_and_finding_a_command_cost_the_same_on_a_long_log(
    counted: tuple[Engine, list[int]],
) -> None:
    engine, steps = counted
    store = SqlEventStore(engine)
    # Two campaigns, so that neither is alone in the index; "long" holds thirty times more events.
    grow(store, "short", SHORT)
    grow(store, "long", LONG)
    store.append("short", [NewEvent("test.probe", {"n": 0})], SHORT, command_id="probe")
    store.append("long", [NewEvent("test.probe", {"n": 0})], LONG, command_id="probe")
    costs: dict[str, dict[str, int]] = {}
    for campaign_id, size in (("short", SHORT + 1), ("long", LONG + 1)):
        costs[campaign_id] = {
            "tail": cost(steps, lambda c=campaign_id, s=size: list(store.read(c, after_seq=s - 1))),
            "head": cost(steps, lambda c=campaign_id: store.head(c)),
            "command": cost(steps, lambda c=campaign_id: store.command_events(c, "probe")),
            "last 20": cost(steps, lambda c=campaign_id: store.read_last(c, 20)),
            "by type": cost(steps, lambda c=campaign_id: store.read_types(c, ["test.probe"], limit=5, last=True)),
            "append": cost(
                steps, lambda c=campaign_id, s=size: store.append(c, [NewEvent("test.happened", {"n": 1})], s)
            ),
        }
    for name, short in costs["short"].items():
        # The index's depth may grow by a level between the two sizes; a scan would cost thirty times more.
        assert costs["long"][name] <= 1.5 * short + 50, (name, costs)


def test_a_rule_command_and_a_roll_cost_the_same_on_a_long_campaign(counted: tuple[Engine, list[int]]) -> None:
    """The whole command: directory, seed, state, decision, append and every inline read model."""
    from tests.conftest import Backend, make_ledger

    engine, steps = counted
    ledger = make_ledger(Backend("sqlite", engine, str(engine.url.database)))

    def grow(name: str, size: int) -> None:
        ledger.create_campaign(name, "mass-combat")
        ledger.execute(ledger.resolve(name), mcal.Funds.build(side="Blue", amount=10**6, reason="war chest"))
        ledger.execute(
            ledger.resolve(name),
            mc.Raise.build(
                name=f"{name} foot", side="Blue", profile={"men": 100, "troop_type": "MI", "armour": "medium"}
            ),
        )
        while (info := ledger.resolve(name)).last_seq < size:
            ledger.roll(info, "3d", "filler")  # two events: the command and its dice

    grow("Short", SHORT)
    grow("Long", LONG // 2)  # fifteen times as long: enough to tell a scan from a point read
    costs = {
        name: {
            "funds": cost(
                steps,
                lambda n=name: ledger.execute(
                    ledger.resolve(n), mcal.Funds.build(side="Blue", amount=5, reason="a purse")
                ),
            ),
            "roll": cost(steps, lambda n=name: ledger.roll(ledger.resolve(n), "2d6", "a roll")),
            "state": cost(steps, lambda n=name: ledger.in_force(ledger.resolve(n), MASS_COMBAT)),
        }
        for name in ("Short", "Long")
    }
    for what, short in costs["Short"].items():
        assert costs["Long"][what] <= 1.5 * short + 50, (what, costs)

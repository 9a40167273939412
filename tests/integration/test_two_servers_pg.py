"""Two server processes writing one campaign on PostgreSQL (two wirings of one database, as two processes have):
what each holds between appends never stands for what the other wrote, and the read models stay the log's."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from sqlalchemy import Engine

from campaign.bootstrap import App, bootstrap, projectors
from campaign.commands import command_type
from campaign.executor import Ledger
from events.envelope import RecordedEvent
from events.errors import ConcurrencyError
from projections.consistency import compare
from tests.conftest import empty_tables
from tests.statements import counted

pytestmark = pytest.mark.postgres
SQUAD = {"models": 5, "quality": 4, "points": 50}


@pytest.fixture
def two(pg_engine: Engine, pg_url: str) -> Iterator[tuple[App, App]]:
    empty_tables(pg_engine)
    north, south = bootstrap(pg_url, actor="north"), bootstrap(pg_url, actor="south")
    yield north, south
    north.close()
    south.close()
    empty_tables(pg_engine)


def muster(ledger: Ledger, campaign_id: str, name: str) -> None:
    info = ledger.directory.get(campaign_id)
    assert info is not None
    ledger.execute(info, command_type("gf.muster").build(name=name, side="Robots", profile=SQUAD))


def units(ledger: Ledger, campaign_id: str) -> list[str]:
    info = ledger.directory.get(campaign_id)
    assert info is not None
    return sorted(u.name for u in ledger.states.get(info).roster.values() if u.disbanded is None)


def check_read_models(app: App, campaign_id: str) -> None:
    log = list(app.ledger.store.read(campaign_id))
    assert compare(app.engine, campaign_id, log, lambda: [*projectors(), app.ledger.vault]) == []


def test_two_processes_taking_turns_write_each_command_in_one_statement_and_keep_the_read_models(
    two: tuple[App, App],
) -> None:
    north, south = two
    cid = north.ledger.create_campaign("Kessel", "grimdark").events[0].campaign_id
    for k in range(3):  # each process's state is one command behind: read again, not rewritten whole
        muster(north.ledger, cid, f"North {k}")
        with counted() as sent:
            muster(south.ledger, cid, f"South {k}")
        assert not [t for t in sent.texts if t in ("BEGIN", "COMMIT")], "one statement of writes, in autocommit"
    assert (
        units(north.ledger, cid)
        == units(south.ledger, cid)
        == sorted([*(f"North {k}" for k in range(3)), *(f"South {k}" for k in range(3))])
    )
    check_read_models(north, cid)


class RivalFirst:
    """An inline projector that lets the other process append first, once: this process's append then loses its
    race after its projectors ran (a rival committing between its read of the head and its write)."""

    def __init__(self, act: Any) -> None:
        self.act = act

    def project(self, connection: Any, events: Sequence[RecordedEvent]) -> None:
        act, self.act = self.act, None
        if act is not None:
            act()


def test_a_race_lost_after_the_projectors_ran_leaves_nothing_of_it_held(two: tuple[App, App]) -> None:
    north, south = two
    cid = north.ledger.create_campaign("Kessel", "grimdark").events[0].campaign_id
    muster(north.ledger, cid, "Alpha")
    muster(south.ledger, cid, "Bravo")
    muster(north.ledger, cid, "Charlie")  # north holds the state and the directory's entry at its head
    store: Any = north.ledger.store
    store._projectors.append(RivalFirst(lambda: muster(south.ledger, cid, "Delta")))
    with pytest.raises(ConcurrencyError):
        muster(north.ledger, cid, "Echo")  # folded into what north holds, then beaten to the seq by Delta
    assert units(north.ledger, cid) == ["Alpha", "Bravo", "Charlie", "Delta"]
    muster(north.ledger, cid, "Foxtrot")
    assert units(south.ledger, cid) == ["Alpha", "Bravo", "Charlie", "Delta", "Foxtrot"]
    check_read_models(north, cid)

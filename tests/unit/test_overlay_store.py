"""The amend sandbox's store (``OverlayStore``): the real log up to its head, what the sandbox appends in memory.
Its ``read_types`` asks the real store only for what its ``limit`` leaves to find; whatever it asks, it answers
as one store holding both parts would."""

from __future__ import annotations

import random

from events.envelope import NewEvent
from events.memory import InMemoryEventStore
from events.overlay import OverlayStore
from events.store import limited

TYPES = ("a.x", "b.y", "c.z")


def test_read_types_answers_as_one_store_holding_the_log_and_the_sandboxs_tail() -> None:
    rng = random.Random(7)
    for _ in range(200):
        base = InMemoryEventStore()
        n, m = rng.randint(0, 30), rng.randint(0, 15)
        if n:
            base.append("c", [NewEvent(rng.choice(TYPES), {"i": i}, 1) for i in range(n)], 0)
        overlay = OverlayStore(base, "c", base.head("c"))
        if m:
            overlay.append("c", [NewEvent(rng.choice(TYPES), {"j": j}, 1) for j in range(m)], n)
        every = list(overlay.read("c"))
        assert len(every) == n + m
        for _ in range(30):
            types = set(rng.sample(TYPES, rng.randint(1, 3)))
            after, upto = rng.randint(0, n + m + 2), rng.choice([None, rng.randint(0, n + m + 2)])
            limit, last = rng.choice([None, 0, 1, 2, 5, 40]), rng.random() < 0.5
            chosen = [e for e in every if e.type in types and e.seq > after and (upto is None or e.seq <= upto)]
            got = overlay.read_types("c", types, after, upto, limit=limit, last=last)
            assert [e.seq for e in got] == [e.seq for e in limited(chosen, limit, last)]

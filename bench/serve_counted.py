"""``campaign serve``, measured from inside for ``bench/server_load.py`` and ``bench/live_bench.py``: the
statements it sends to PostgreSQL (``tests/statements.py``), how long its commands waited for their campaign's
turn, and how many attempts they took. On SIGUSR1 it writes what it counted so far, as JSON, to the file
``BENCH_COUNTS`` names. ``BENCH_KEEPALIVE_SECONDS`` stretches the live streams' keep-alive (each one checks its
session and membership again), so that a measure of live updates counts the updates only.

    BENCH_COUNTS=/tmp/counts.json python bench/serve_counted.py --db URL serve --port 8001
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson

from campaign.server import turns
from tests.statements import counted

lock = threading.Lock()
tally = {"turns": 0, "turn_wait_s": 0.0, "attempts": 0, "commands": 0}


def _measured() -> None:
    """Wrap the turns and the retries before the server's modules import them."""
    turn = turns.Turns.turn

    @asynccontextmanager
    async def timed_turn(self: turns.Turns, campaign_id: str) -> AsyncIterator[bool]:
        start = time.perf_counter()
        async with turn(self, campaign_id) as waited:
            with lock:
                tally["turns"] += 1
                tally["turn_wait_s"] += time.perf_counter() - start
            yield waited

    fresh = turns.on_the_fresh_state

    def counted_attempts(info: Any, reread: Any, run: Callable[[Any], Any], name: str) -> Any:
        def attempt(at: Any) -> Any:
            with lock:
                tally["attempts"] += 1
            return run(at)

        with lock:
            tally["commands"] += 1
        return fresh(info, reread, attempt, name)

    turns.Turns.turn = timed_turn  # type: ignore[method-assign,assignment]
    turns.on_the_fresh_state = counted_attempts


def main() -> None:
    out = Path(os.environ["BENCH_COUNTS"])
    _measured()
    if os.environ.get("BENCH_KEEPALIVE_SECONDS"):
        from campaign.server import live

        live.KEEPALIVE_SECONDS = float(os.environ["BENCH_KEEPALIVE_SECONDS"])
    from campaign.cli.main import main as campaign

    with counted() as sent:
        seq = 0

        def dump(_signum: int, _frame: Any) -> None:
            nonlocal seq
            seq += 1
            with lock:
                figures = {"seq": seq, "statements": sent.count, **tally}
            tmp = out.with_suffix(".tmp")
            tmp.write_bytes(orjson.dumps(figures))
            tmp.replace(out)

        signal.signal(signal.SIGUSR1, dump)
        sys.argv = ["campaign", *sys.argv[1:]]
        campaign()


if __name__ == "__main__":
    main()

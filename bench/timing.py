"""How the benchmarks time: CPU seconds for work done in this process, wall seconds for work done elsewhere
(a database server, a second thread), and ratios paired round by round."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def timed(fn: Callable[[], Any]) -> float:
    """CPU seconds of ``fn()``: what the machine's other load changes least."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def wall(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median_ratio(floor: list[float], ours: list[float]) -> float:
    """The median over rounds of floor / ours (paired: both measured in the same round)."""
    return statistics.median(f / o for f, o in zip(floor, ours, strict=True))

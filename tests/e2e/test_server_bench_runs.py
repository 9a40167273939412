"""The server's benchmarks still run end to end, small: under load every command arrives once and every campaign
verifies; with pages open every page is sent every head (their figures are for people; timing is never
asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.mark.postgres
@pytest.mark.slow
def test_the_server_load_benchmark_loses_and_duplicates_nothing(pg_url: str) -> None:
    args = ["--pg", pg_url, "--clients", "4", "--configs", "2x2", "--commands", "2", "--rounds", "1", "--json"]
    out = subprocess.run(
        [sys.executable, str(BENCH / "server_load.py"), *args], capture_output=True, timeout=600, check=False
    )
    assert out.returncode == 0, out.stderr.decode()[-2000:]
    result = orjson.loads(out.stdout)
    assert result["commands"] == 8 and result["lost"] == 0 and result["duplicated"] == 0
    assert result["every_campaign_verifies"] is True
    assert result["throughput_ratio_server_to_in_process"] > 0 and result["cpu_ratio_server_to_in_process"] > 0


@pytest.mark.postgres
@pytest.mark.slow
def test_the_live_page_benchmark_serves_every_open_page_every_head(pg_url: str) -> None:
    args = ["--pg", pg_url, "--streams", "3", "--sizes", "40,80", "--events", "2", "--rounds", "1", "--json"]
    out = subprocess.run(
        [sys.executable, str(BENCH / "live_bench.py"), *args], capture_output=True, timeout=600, check=False
    )
    assert out.returncode == 0, out.stderr.decode()[-2000:]  # it stops, refusing, when a page misses a head
    result = orjson.loads(out.stdout)
    assert set(result["rounds"]) == {"40", "80"} and result["cpu_ratio_largest_to_smallest"] > 0

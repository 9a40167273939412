"""The benchmarks still run, end to end, on a small scale: their numbers are for people; here only that every
contender ran and every ratio and ceiling was computed (timing is never asserted in tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

BENCH = Path(__file__).resolve().parents[2] / "bench"


def run(*args: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, *args, "--json"], capture_output=True, check=False, timeout=300)
    assert out.returncode in (0, 1), out.stderr.decode()  # 1: a target missed, which is a result, not a failure
    parsed: dict[str, object] = orjson.loads(out.stdout)
    return parsed


def test_the_store_benchmark_runs_every_contender() -> None:
    result = run(str(BENCH / "store_bench.py"), "--events", "3000", "--single", "30", "--repeat", "1")
    contenders = ("ledger_s", "raw_s", "raw_multirow_s", "es_app_s", "es_s", "es_store_s", "es_store_orjson_s")
    assert set(result["append"]) == set(contenders)  # type: ignore[arg-type]
    assert set(result["floors"]) == {  # type: ignore[arg-type]
        "encode_s",
        "prepare_s",
        "hash_s",
        "overlapped_s",
        "ledger_no_gc_s",
        "append_encoded_s",
    }
    ratios, ceilings = result["ratios"], result["ceilings"]
    assert all(v > 0 for v in ratios.values()) and all(v > 0 for v in ceilings.values())  # type: ignore[attr-defined]
    assert set(result["targets_met"]) == {"append_vs_raw", "append_vs_es_app", "single_vs_raw", "read_vs_raw_orjson"}  # type: ignore[arg-type]


def test_the_campaign_benchmark_plays_and_verifies_its_campaign() -> None:
    result = run(str(BENCH / "campaign_bench.py"), "--battles", "3", "--units", "3")
    assert result["verified"] is True and result["drift"] == 0 and result["battles"] == 3, result


def test_one_rule_command_goes_from_the_command_line_to_its_rule_through_at_most_eight_modules_each_once() -> None:
    """The road from the command line to a rule is one executor, not a maze (29 modules, 59 crossings
    before): the project's frames on the stack when the rule runs, outermost first."""
    result = run(str(BENCH / "command_path.py"))
    stack = [frame.rsplit(".", 1)[0] for frame in result["stack_to_rule"]]  # type: ignore[attr-defined]
    modules = list(dict.fromkeys(stack))
    assert modules == result["modules_to_rule"] and len(modules) <= 8, stack
    assert [m for i, m in enumerate(stack) if i == 0 or stack[i - 1] != m] == modules, "each module once"
    assert modules[-1].endswith(".rules") and "campaign.executor" in modules, modules


def test_the_cli_latency_benchmark_times_each_command_and_a_rule_command_of_every_ruleset_against_the_floor() -> None:
    # One run with both ladders: each run of the benchmark starts some sixty interpreters.
    result = run(str(BENCH / "cli_latency.py"), "--repeat", "1", "--causes", "--every-ruleset")
    every = {"fs attack", "mc rest", "dis hit", "gf shoot"}
    assert set(result["cpu_s"]) == {"floor", "help", "status", "rule"} | every  # type: ignore[arg-type]
    assert all(v > 0 for v in result["cpu_s"].values())  # type: ignore[attr-defined]
    assert set(result["ratios"]) == set(result["targets_met"]) == {"help", "status", "rule"} | every  # type: ignore[arg-type]
    assert result["targets"] == {"help": 1.0, "status": 1.6, "rule": 1.6} | dict.fromkeys(every, 1.6)
    causes = [c["cause"] for c in result["causes"]]  # type: ignore[attr-defined]
    assert causes[0] == "floor" and causes[-1].startswith("fs rest 1: running it") and len(causes) == 12
    assert result["causes"][0]["vs_floor"] == 1.0  # type: ignore[index]
    # the least a status costs on the libraries alone is computed (its ratio is a timing: never asserted here)
    assert result["bound"]["vs_floor"] > 0  # type: ignore[index]


def test_the_scale_benchmark_measures_every_size_side_by_side_with_raw(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    result = run(str(BENCH / "scale_bench.py"), "--sizes", "300,600", "--rounds", "2", "--cache", str(cache))
    assert result["sizes"] == [300, 600]
    assert sorted(result["results"]) == ["300 SQLite", "600 SQLite"]  # type: ignore[arg-type]
    # Played once: the 600 continued from the 300, and a second run reuses both.
    assert sorted(p.name.rsplit("-", 1)[1] for p in cache.glob("scale-*.db")) == ["300.db", "600.db"]
    for size, measured in result["results"].items():  # type: ignore[attr-defined]
        assert measured["events"] >= int(size.split()[0].replace(",", ""))
        for key in ("rule_command", "roll", "rebuild", "log_last_20"):
            assert measured[key]["vs_raw"] > 0, (size, key)
        assert measured["verify"]["events_per_s"] > 0 and measured["verify_rules"]["events_per_s"] > 0
        assert 0 < measured["storage"]["log"] < measured["storage"]["file"]
        names = sorted(measured["processes"])
        assert names[0] == "amend --dry-run"  # of a recorded command near the head (its cost is what follows it)
        assert names[1].startswith("audit --roll ") and names[2:] == [
            "log --last 20", "rebuild", "rewind", "start-up (list)", "undo",
            "unit 'Red 1'", "verify (rules)", "verify --no-rules"
        ]  # fmt: skip
        assert all(p["rss_mib"] > 0 and p["cpu_s"] > 0 for p in measured["processes"].values())
    assert "snapshots ≤ log bytes" in result["targets_met"]  # type: ignore[operator]
    # The growth targets from the two sizes measured against each other, round by round.
    growth = result["across_sizes"]
    assert sorted(growth) == ["log_last_20", "rebuild", "roll", "rule_command"]  # type: ignore[arg-type]
    assert all(v > 0 for v in growth.values())  # type: ignore[attr-defined]
    assert "peak RSS of rebuild, verify, audit ≤ 300 MiB" in result["targets_met"]  # type: ignore[operator]
    for name in ("rewind", "undo", "unit"):  # each within 2× of the smallest size, in CPU and peak RSS
        assert f"{name} ≤ 2× smallest (process CPU and peak RSS)" in result["targets_met"]  # type: ignore[operator]


def test_the_entropy_benchmark_times_rolls_with_and_without_shares() -> None:
    result = run(str(BENCH / "entropy_bench.py"), "--rolls", "5", "--rounds", "2")
    assert result["plain_ms"] > 0 and result["mixed_ms"] > 0 and result["mixed_over_plain"] > 0, result  # type: ignore[operator]


def test_the_state_once_benchmark_reads_and_decodes_the_state_once_after_another_process_and_never_after_itself(
    tmp_path: Path,
) -> None:
    result = run(str(BENCH / "state_once_bench.py"), "--size", "300", "--rounds", "3", "--cache", str(tmp_path))
    measured = result["results"]
    assert measured["other_wrote_last"]["reads"] == measured["other_wrote_last"]["decodes"] == 1  # type: ignore[index]
    assert measured["same_process"]["reads"] == measured["same_process"]["decodes"] == 0  # type: ignore[index]
    assert all(m["ms"] > 0 for m in measured.values())  # type: ignore[attr-defined]

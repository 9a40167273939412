"""Global options where a person puts them, negative amounts as numbers, --version, shell completion and help
without type tags."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import orjson
import pytest
import typer
from typer.testing import CliRunner

from campaign.cli.argv import arrange, tidy_help
from campaign.cli.main import app


def run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    return result.output


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "c.db")
    run("--db", path, "new", "Otlok Front", "--ruleset", "fighting-spirit")
    run("--db", path, "new", "Peninsula", "--ruleset", "disorder")  # two campaigns: -c is needed
    return path


@pytest.mark.parametrize(
    "order",
    [
        ["--db", "{db}", "-c", "Otlok Front", "--json", "status"],
        ["status", "--db", "{db}", "-c", "Otlok Front", "--json"],
        ["--json", "status", "--db={db}", "--campaign=Otlok Front"],
        ["-c", "Otlok Front", "status", "--json", "--db", "{db}"],
    ],
    ids=["all-before", "all-after", "mixed-equals", "mixed"],
)
def test_db_campaign_and_json_work_before_or_after_the_command(db: str, order: list[str]) -> None:
    status = orjson.loads(run(*[a.replace("{db}", db) for a in order]))
    assert status["campaign"] == "Otlok Front" or status.get("name") == "Otlok Front", status


def test_global_options_before_a_rulesets_leaf_command(db: str) -> None:
    out = orjson.loads(run("--json", "-c", "Otlok Front", "--db", db, "fs", "funds", "Steel", "250", "--reason", "pay"))
    assert [e["payload"].get("amount") for e in out["events"]][-1] == 250


def test_a_negative_amount_is_a_number_not_an_option(db: str) -> None:
    run("--db", db, "-c", "Otlok Front", "fs", "funds", "Steel", "300", "--reason", "war chest")
    out = orjson.loads(
        run("--db", db, "fs", "funds", "Steel", "-100", "--reason", "spent", "-c", "Otlok Front", "--json")
    )
    assert [e["payload"].get("amount") for e in out["events"]][-1] == -100
    text = run("--db", db, "-c", "Otlok Front", "fs", "funds", "Steel", "-25", "--reason", "lost")
    assert "−25" in text  # a real minus sign for a person; --json keeps -100
    treasury = orjson.loads(run("--db", db, "-c", "Otlok Front", "treasury", "--json"))
    assert "175" in orjson.dumps(treasury).decode()  # 300 - 100 - 25


def test_an_option_value_is_never_moved() -> None:
    root = typer.main.get_command(app)
    assert arrange(root, ["fs", "funds", "Steel", "-5", "--reason", "--json"]) == [
        "fs",
        "funds",
        "--reason",
        "--json",
        "--",
        "Steel",
        "-5",
    ]  # "--json" here is the reason's text: it stays with --reason
    assert arrange(root, ["status", "-vv", "--actor", "ann"]) == ["-vv", "--actor", "ann", "status"]
    assert arrange(root, ["stauts", "--db", "x"]) == ["--db", "x", "stauts"]  # Click then suggests `status`


def test_version_names_the_installed_package() -> None:
    assert run("--version").strip() == f"campaign {version('campaign-ledger')}"


def test_shell_completion_is_offered_and_completes_commands() -> None:
    """As a person turns it on: from bash, ``eval "$(campaign --show-completion)"``, then a tab after ``fs fu``.
    Typer finds the shell among the process's ancestors, so the script is asked for from a bash of the test's
    own: in-process it depended on how pytest was started (no shell above it: "Shell  not supported")."""
    assert "--install-completion" in run("--help") and "--show-completion" in run("--help")
    exe = Path(sys.executable).with_name("campaign")
    session = """
        script=$(campaign --show-completion) || exit 1
        eval "$script"
        complete -p campaign
        COMP_WORDS=(campaign fs fu) COMP_CWORD=2
        _campaign_completion campaign fu fs
        printf '%s\\n' "${COMPREPLY[@]}"
    """
    env = {**os.environ, "PATH": f"{exe.parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "--norc", "-c", session], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["complete -o default -F _campaign_completion campaign", "funds"], done


DETACHED = """
import json, os, subprocess, sys, time
parent = os.getpid()
if os.fork():
    os._exit(0)  # the launcher goes at once: its child is taken over by PID 1 (or a subreaper), no shell
while os.getppid() == parent:
    time.sleep(0.01)
os.setsid()
done = subprocess.run(sys.argv[1:], env={"PATH": os.environ["PATH"]}, capture_output=True, text=True)
print(json.dumps([done.returncode, done.stdout, done.stderr]))
"""


def detached(*args: str) -> tuple[int, str, str]:
    """``campaign ARGS``: its exit code, output and errors, run with no shell among its ancestors and a bare
    environment (``env -i`` with PATH): a plain exec of the entry point from a process in a session of its own,
    orphaned at once (what a job started by cron or an editor sees)."""
    exe = str(Path(sys.executable).with_name("campaign"))
    launched = subprocess.run(
        [sys.executable, "-c", DETACHED, exe, *args],
        env={"PATH": f"{Path(exe).parent}{os.pathsep}/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    code, out, err = orjson.loads(launched.stdout)
    return int(code), str(out), str(err)


def test_the_shell_named_to_show_completion_wins_even_with_no_shell_among_the_ancestors() -> None:
    """``--show-completion bash`` was a flag followed by a stray word: Typer looked for the shell among the
    process's ancestors, and with none there said "Shell  not supported" (exit 1)."""
    code, out, err = detached("--show-completion")
    if code == 0:
        pytest.skip(f"a shell is among the ancestors even when orphaned here: {out[:40]!r}")
    assert (code, err) == (1, "Shell  not supported.\n")  # the premise: no shell to detect
    code, out, err = detached("--show-completion", "bash")
    assert code == 0, err
    assert out.strip().endswith("complete -o default -F _campaign_completion campaign")
    code, out, err = detached("--show-completion=zsh")
    assert code == 0 and out.startswith("#compdef campaign"), err


def test_the_shell_named_to_show_completion_wins_over_the_shell_detected() -> None:
    """Run from a bash (the test's own, so that one is among the ancestors), zsh and fish are named: their
    scripts, not bash's."""
    exe = Path(sys.executable).with_name("campaign")
    env = {**os.environ, "PATH": f"{exe.parent}{os.pathsep}{os.environ['PATH']}"}

    def from_bash(*args: str) -> str:
        line = " ".join(["campaign", *args])
        return subprocess.run(
            ["bash", "--norc", "-c", line], env=env, capture_output=True, text=True, check=True
        ).stdout

    assert from_bash("--show-completion").strip().endswith("-F _campaign_completion campaign")  # detected
    assert from_bash("--show-completion", "zsh").startswith("#compdef campaign")
    assert from_bash("--show-completion", "fish").startswith("complete --command campaign")
    assert from_bash("--db", "x.db", "--show-completion=FISH").startswith("complete --command campaign")


def test_the_shell_named_to_install_completion_wins(tmp_path: Path) -> None:
    """From a bash, ``--install-completion fish`` installs fish's script (in that HOME), not bash's."""
    exe = Path(sys.executable).with_name("campaign")
    env = {**os.environ, "HOME": str(tmp_path), "PATH": f"{exe.parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "--norc", "-c", "campaign --install-completion fish"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    script = tmp_path / ".config" / "fish" / "completions" / "campaign.fish"
    assert done.returncode == 0 and f"fish completion installed in {script}" in done.stdout, done
    assert script.read_text().startswith("complete --command campaign")
    assert not (tmp_path / ".bashrc").exists()


def test_an_unknown_shell_is_refused_in_words() -> None:
    for args in (["--show-completion", "tcsh"], ["--show-completion=tcsh"], ["--install-completion", "tcsh"]):
        said = run(*args, code=2)
        assert "error: unknown shell 'tcsh': completion is offered for bash, zsh, fish" in said, args


def _every_command(command: Any, path: list[str]) -> list[tuple[list[str], Any]]:
    found = [(path, command)]
    if hasattr(command, "commands"):
        for name in command.list_commands(None):
            found += _every_command(command.get_command(None, name), [*path, name])
    return found


def test_no_help_shows_type_tags() -> None:
    root = typer.main.get_command(app)
    tidy_help(root)  # as the group does each time it runs
    pages = _every_command(root, [])
    assert len(pages) > 60
    tags = re.compile(r"<(?:str|bool|int|float|path)>")
    for path, command in pages:
        ctx = typer.Context(command, info_name=path[-1] if path else "campaign")
        shown = [p.display_type_rich(ctx) or "" for p in command.get_params(ctx)]
        assert not [t for t in shown if tags.search(t)], f"campaign {' '.join(path)} --help shows {shown}"
    for path in (["fs", "funds"], ["new"], [], ["mc"]):  # and as printed
        page = run(*path, "--help")
        assert not tags.search(page) and "Usage: campaign" in page, page

"""The developer scripts: a test run's PostgreSQL server is its own (a free port) and is stopped when the run
ends, never someone else's; setup says what it is doing while it installs instead of a minute's silence."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
needs_pg = pytest.mark.skipif(
    not glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reason="no PostgreSQL server binaries on this machine"
)


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def env_without_port() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("CAMPAIGN_TEST_PG_")}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@needs_pg
@pytest.mark.slow
def test_a_run_starts_its_own_server_on_a_free_port_and_stops_it_when_it_ends() -> None:
    probe = 'echo "$CAMPAIGN_TEST_PG_PORT $CAMPAIGN_TEST_PG_URL"; exit 5'
    run = subprocess.run(
        [str(SCRIPTS / "with-pg-test-server"), "bash", "-c", probe],
        env=env_without_port(),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert run.returncode == 5, run.stderr  # the command's own exit status, after the server was stopped
    port_text, url = run.stdout.split()
    port = int(port_text)
    assert port != 54329 and url.endswith(f"127.0.0.1:{port}/campaign_test")
    assert "server stopped" in run.stderr
    assert not listening(port)
    assert not Path(f"/tmp/campaign-ledger-pg-{port}").exists()  # its throwaway data folder went with it


@needs_pg
@pytest.mark.slow
def test_a_server_already_running_on_the_given_port_is_used_and_left_running() -> None:
    port = free_port()
    env = {**env_without_port(), "CAMPAIGN_TEST_PG_PORT": str(port)}
    started = subprocess.run([str(SCRIPTS / "pg-test-server")], env=env, capture_output=True, text=True, check=True)
    assert "CAMPAIGN_TEST_PG_STARTED=1" in started.stdout
    try:
        run = subprocess.run(
            [str(SCRIPTS / "with-pg-test-server"), "bash", "-c", 'echo "$CAMPAIGN_TEST_PG_STARTED"'],
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
            check=True,
        )
        assert run.stdout.strip() == "0"
        assert listening(port)  # someone else's server: not stopped
    finally:
        subprocess.run([str(SCRIPTS / "pg-test-server"), "stop"], env=env, capture_output=True, check=False)
        shutil.rmtree(f"/tmp/campaign-ledger-pg-{port}", ignore_errors=True)
        Path(f"/tmp/campaign-ledger-pg-{port}.log").unlink(missing_ok=True)
    assert not listening(port)


def test_scripts_test_runs_under_its_own_server() -> None:
    text = (SCRIPTS / "test").read_text()
    assert "scripts/with-pg-test-server" in text and "pg-test-server)" not in text


def test_setup_says_what_it_installs_and_lets_pip_show_its_progress(tmp_path: Path) -> None:
    """A stand-in Python records what setup asks of it: the first run must not be a silent minute."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(SCRIPTS / "setup", tmp_path / "scripts" / "setup")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    calls = tmp_path / "calls"
    stub = tmp_path / "python"
    stub.write_text(
        "#!/usr/bin/env bash\n"
        f'echo "$*" >> {calls}\n'
        'if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin"; cp "$0" "$3/bin/python"; fi\n'
    )
    stub.chmod(0o755)
    run = subprocess.run(
        [str(tmp_path / "scripts" / "setup")],
        env={**os.environ, "PYTHON": str(stub)},
        capture_output=True,
        text=True,
        check=True,
    )
    lines = run.stderr.splitlines()
    assert any("installing" in line and "minute" in line for line in lines), run.stderr
    install = [c for c in calls.read_text().splitlines() if "-e .[dev,bench]" in c]
    assert install and "--quiet" not in install[0] and "-q" not in install[0].split()
    again = subprocess.run([str(tmp_path / "scripts" / "setup")], capture_output=True, text=True, check=True)
    assert again.stderr == ""  # already installed: nothing to say, nothing done

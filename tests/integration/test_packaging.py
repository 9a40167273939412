"""A wheel install works on its own (issue 13): migrations and rules inside the package, the `campaign`
command, `--version`, and a campaign created and read on a fresh SQLite file, run from outside the source tree."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def sources(into: Path) -> Path:
    """The working tree's files (tracked, and new ones not ignored), copied: building never touches the tree."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = sources(tmp_path_factory.mktemp("src"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(tree),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = out.glob("campaign_ledger-*.whl")
    return built


def test_the_wheel_carries_the_migrations_and_the_rules(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    versions = {p.name for p in (ROOT / "campaign" / "migrations" / "versions").glob("*.py")}
    assert versions and {f"campaign/migrations/versions/{v}" for v in versions} <= names
    assert {"campaign/migrations/env.py", "campaign/migrations/script.py.mako", "campaign/RULES.md"} <= names


@pytest.mark.slow
def test_the_installed_wheel_creates_and_reads_a_campaign(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    # The dependencies come from this environment (no network); the program itself only from the wheel.
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    work = tmp_path / "table"
    work.mkdir()
    campaign = str(venv / "bin" / "campaign")

    def run(*args: str) -> str:
        done = subprocess.run([campaign, *args], cwd=work, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
        return done.stdout

    where = subprocess.run(
        [str(python), "-c", "import campaign; print(campaign.__file__)"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(venv)), where
    assert run("--version").strip() == "campaign 0.1.0"
    run("new", "Peninsula", "--ruleset", "disorder")
    assert "Peninsula (disorder)" in run("status")
    assert (work / "campaign.db").is_file()
    assert run("rules", "§1.1").startswith("§1.1 Identification")  # the rules ship in the wheel

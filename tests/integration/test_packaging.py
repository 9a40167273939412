"""A wheel install works on its own: migrations and rules inside the package, the `campaign` command,
`--version`, a campaign created and read on a fresh SQLite file, run from outside the source tree, and the
server started from it serving its sign-in page, its static files and /healthz; the licence and the extras
(charts, postgres, both in server) are in its metadata."""

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


def test_the_wheel_carries_every_file_the_program_reads_from_its_package(wheel: Path) -> None:
    """Every file under campaign/ that is not Python source nor a catalog's source (.po, .pot) is read by the
    program — a page's live parts, the catalogs in each language, the rules in each language, the tables — and
    must be in the wheel: an installed server lacked its page's fragments and spoke English only."""
    names = set(zipfile.ZipFile(wheel).namelist())
    package = ROOT / "campaign"
    read = {
        f"campaign/{p.relative_to(package)}"
        for p in package.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc", ".po", ".pot") and "__pycache__" not in p.parts
    }
    kinds = {Path(n).suffix for n in read}
    assert {".html", ".mo", ".md", ".toml", ".js", ".css"} <= kinds, kinds
    assert any("/fragments/" in n for n in read) and any(n.endswith("RULES.ru.md") for n in read)
    assert sorted(read - names) == []


def test_the_wheel_carries_the_server_s_templates_and_static_files_its_licence_and_extras(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    server = ROOT / "campaign" / "server"
    shipped = {f"campaign/server/{p.relative_to(server)}" for p in (server / "templates").rglob("*.html")}
    shipped |= {f"campaign/server/{p.relative_to(server)}" for p in (server / "static").iterdir() if p.is_file()}
    assert len(shipped) > 10 and shipped <= names
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: MIT" in text and any(n.endswith("/licenses/LICENSE") for n in names)
    requires = [line for line in text.splitlines() if line.startswith("Requires-Dist:")]
    for extra, module in (("charts", "matplotlib"), ("postgres", "psycopg")):
        assert any(module in r and f'extra == "{extra}"' in r for r in requires), (extra, requires)
        assert not any(module in r and "extra ==" not in r for r in requires), module  # not for everyone
        assert any(f"campaign-ledger[{extra}" in r or ("," in r and extra in r) for r in requires if "server" in r)


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
    assert run("--lang", "ru", "rules", "§1.1").startswith("§1.1 Опознание")  # in each language
    assert "кампания «Peninsula» создана" in run("--lang", "ru", "log")  # and so do the catalogs
    served = serve_from(campaign, work)
    assert served["/signin"].startswith("<!doctype html>") and 'name="password"' in served["/signin"]
    assert "htmx" in served["/static/htmx-2.0.11.min.js"] and served["/healthz"].startswith('{"status":"ok"')


def serve_from(campaign: str, work: Path) -> dict[str, str]:
    """``campaign serve`` of the installed wheel, on a free port from the environment: each page's text."""
    import os

    from tests.live_server import free_port

    port = free_port()
    env = {**os.environ, "CAMPAIGN_PORT": str(port), "CAMPAIGN_DB": str(work / "served.db")}
    log = work / "serve.log"
    with log.open("w") as err, subprocess.Popen([campaign, "serve"], cwd=work, env=env, stderr=err) as server:
        try:
            return _pages(server, port, log)
        finally:
            server.terminate()
            server.wait(10)


def _pages(server: subprocess.Popen[bytes], port: int, log: Path) -> dict[str, str]:
    import time
    import urllib.request

    deadline = time.monotonic() + 60
    texts: dict[str, str] = {}
    for path in ("/signin", "/static/htmx-2.0.11.min.js", "/healthz"):
        while path not in texts:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
                    texts[path] = answer.read().decode()
            except OSError:
                assert server.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "the installed server did not answer"
                time.sleep(0.2)
    return texts

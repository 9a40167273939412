"""A laptop's small install (no ``[charts]``, no ``[postgres]``): the commands that need an extra say in words
which one to install, exit non-zero and touch nothing; the rest work as before."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_cli import Cli


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch) -> None:
    """matplotlib and psycopg as if not installed (what ``pip install campaign-ledger`` leaves out)."""
    found = importlib.util.find_spec

    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        return None if name in ("matplotlib", "psycopg") else found(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def test_a_chart_file_without_the_charts_extra_names_what_to_install(tmp_path: Path, without: None) -> None:
    cli = Cli(str(tmp_path / "c.db"))
    cli("new", "Ardennes", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    said = cli("chart", "strength", "-o", str(tmp_path / "s.png"), code=2).output
    assert "needs the 'charts' extra" in said and "pip install 'campaign-ledger[charts]'" in said
    assert "Traceback" not in said and not (tmp_path / "s.png").exists()
    cli("chart", "strength")  # in the terminal: no extra needed


def test_a_postgresql_url_without_the_postgres_extra_names_what_to_install(tmp_path: Path, without: None) -> None:
    cli = Cli("postgresql://ledger@127.0.0.1:1/ledger")
    said = cli("list", code=2).output
    assert "needs the 'postgres' extra" in said and "pip install 'campaign-ledger[postgres]'" in said
    assert "Traceback" not in said


def test_the_demo_without_the_charts_extra_builds_its_campaigns_and_says_why_no_chart(
    tmp_path: Path, without: None
) -> None:
    db = tmp_path / "demo.db"
    said = Cli(str(db))("demo").output
    assert "No charts drawn: that needs the 'charts' extra" in said
    assert db.is_file() and not list(tmp_path.glob("*.svg"))

"""What the command line itself says to a Russian or Polish reader, met playing README's walkthroughs with
``--lang ru`` and ``--lang pl``: the names of a command's arguments and values, its own refusals, verify's
findings, the amend preview, the tables' notes, the views' words. Each expected line is written from the
catalogs' translations and the seeds' words; English is held where it was."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from campaign.cli.main import app

FRAME = re.compile(r"[╭╮╰╯│─]+")


def said(lang: str, *args: str, db: str | None = None) -> tuple[int, list[str]]:
    """Exit status and the lines printed, each without a panel's frame and with its spaces squeezed."""
    argv = ["--lang", lang, *(["--db", db] if db else []), *args]
    result = CliRunner().invoke(app, argv, env={"COLUMNS": "200"})
    lines = [" ".join(FRAME.sub(" ", line).split()) for line in result.output.splitlines()]
    return result.exit_code, [line for line in lines if line]


@pytest.mark.parametrize(
    ("lang", "usage", "missing"),
    [
        ("ru", "Использование: campaign gf shoot [ПАРАМЕТРЫ] {подразделение}", "Не указан аргумент 'подразделение'."),
        ("pl", "Użycie: campaign gf shoot [OPCJE] {oddział}", "Brak argumentu 'oddział'."),
        ("en", "Usage: campaign gf shoot [OPTIONS] {unit}", "Missing argument 'unit'."),
    ],
)
def test_an_arguments_name_is_said_in_the_readers_words(lang: str, usage: str, missing: str) -> None:
    code, lines = said(lang, "gf", "shoot")
    assert code == 2
    assert lines[0] == usage and missing in lines


@pytest.mark.parametrize(
    ("lang", "options"),
    [
        ("ru", ["--wounds РАНЫ", "--by КЕМ", "--campaign -c КАМПАНИЯ"]),
        ("pl", ["--wounds RANY", "--by PRZEZ", "--campaign -c KAMPANIA"]),
        ("en", ["--wounds WOUNDS", "--by BY", "--campaign -c CAMPAIGN"]),
    ],
)
def test_an_options_value_is_named_in_the_readers_words(lang: str, options: list[str]) -> None:
    code, lines = said(lang, "gf", "shoot", "--help")
    assert code == 0
    for option in options:
        assert any(line.lstrip("* ").startswith(option + " ") for line in lines), (option, lines)

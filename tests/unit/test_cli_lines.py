"""The short lines a command prints beside what it appended go through Click, not Rich: styles on a terminal,
plain text off one and under NO_COLOR, user text never read as markup; and a path the system refuses is said
in the reader's language."""

from __future__ import annotations

import pytest
import typer

from campaign.cli.output import handles_errors, head_line, say, strong
from campaign.i18n import reading_in
from tests.unit.test_cli_console import Screen

BOLD = "\x1b[1m"


def printed(line: str, tty: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    screen = Screen(tty)
    monkeypatch.setattr("sys.stdout", screen)
    say(line)
    return screen.getvalue()


def test_a_name_is_bold_on_a_terminal_and_plain_off_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    line = f"{strong('Otlok Front')}:"
    assert printed(line, True, monkeypatch).startswith(f"{BOLD}Otlok Front")
    assert printed(line, False, monkeypatch) == "Otlok Front:\n"


def test_no_color_drops_the_styles_on_a_terminal_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert printed(f"{strong('Otlok Front')}:", True, monkeypatch) == "Otlok Front:\n"


def test_user_text_that_looks_like_markup_is_printed_as_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    name = r"Keno [bold] \ 3rd [/] squad \[x]"
    assert printed(f"  #9 {name} rests", False, monkeypatch) == f"  #9 {name} rests\n"


def test_the_head_is_said_in_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    digest = "ab" * 32
    assert printed(head_line(7, digest), False, monkeypatch) == f"head #7 {digest}\n"
    with reading_in("ru"):
        assert printed(head_line(7, digest), False, monkeypatch) == f"вершина #7 {digest}\n"
    with reading_in("pl"):
        assert printed(head_line(7, digest), False, monkeypatch) == f"wierzchołek #7 {digest}\n"


def test_a_path_the_system_refuses_is_said_in_the_readers_language(capsys: pytest.CaptureFixture[str]) -> None:
    @handles_errors
    def command(as_json: bool = False) -> None:
        raise FileNotFoundError(2, "No such file or directory", "/nowhere/x.db")

    with reading_in("ru"), pytest.raises(typer.Exit) as refused:
        command()
    assert refused.value.exit_code == 2
    said = " ".join(capsys.readouterr().err.split())
    assert said == "ошибка: не удаётся использовать /nowhere/x.db: No such file or directory; ничего не записано"

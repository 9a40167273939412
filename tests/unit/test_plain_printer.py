"""The CLI's lines printed without Rich (a rule command loads no Rich: start-up time) read exactly as Rich printed them:
the same text, wrapped at the same places, the same styles on a terminal; what it cannot print exactly it hands
to Rich."""

from __future__ import annotations

import io
import os
import re
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.markup import escape as rich_escape

from campaign.cli.output import rich_console
from campaign.cli.plain import Printer, escape

SGR = re.compile(r"\x1b\[[0-9;]*m")


class Screen(io.StringIO):
    """A file that says it is (or is not) a terminal."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def printed(markup: str, *, tty: bool = False, soft_wrap: bool = False, rich: bool = False) -> str:
    screen = Screen(tty)
    if rich:
        rich_console(screen, soft_wrap=soft_wrap).print(markup)
    else:
        Printer(screen, soft_wrap=soft_wrap).print(markup)
    return screen.getvalue()


def test_off_a_terminal_a_line_is_its_text_without_markup() -> None:
    line = "  [dim]#9[/] 1 day of rest for [bold]every side[/]"
    assert printed(line) == "  #9 1 day of rest for every side\n"


def test_escaped_user_text_is_printed_as_typed() -> None:
    name = r"Keno [bold] \ 3rd [/] squad \[x]"
    assert escape(name) == rich_escape(name)
    assert printed(f"[bold]{escape(name)}[/]:") == f"{name}:\n"


def test_a_long_line_wraps_at_its_spaces_at_140_columns_off_a_terminal() -> None:
    words = " ".join(f"word{i:02}" for i in range(30))  # 30 words of 6 columns and 29 spaces: 209 columns
    # 20 words take 20 × 6 + 19 = 139 columns; a 21st would make 146
    assert printed(words).splitlines() == [
        " ".join(f"word{i:02}" for i in range(20)),
        " ".join(f"word{i:02}" for i in range(20, 30)),
    ]


def test_a_line_of_140_columns_is_not_wrapped_and_one_of_141_is() -> None:
    assert printed("a" * 70 + " " + "b" * 69).splitlines() == ["a" * 70 + " " + "b" * 69]
    assert printed("a" * 70 + " " + "b" * 70).splitlines() == ["a" * 70, "b" * 70]


def test_a_word_wider_than_the_screen_is_cut_at_its_edge() -> None:
    assert printed("c" * 300).splitlines() == ["c" * 140, "c" * 140, "c" * 20]


def test_an_error_line_is_never_wrapped() -> None:
    assert printed("a" * 70 + " " + "b" * 70, soft_wrap=True) == "a" * 70 + " " + "b" * 70 + "\n"


def test_on_a_terminal_the_styles_are_shown_and_end_with_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLUMNS", "80")
    assert printed("  [dim]#9[/] rest", tty=True) == "  \x1b[2m#9\x1b[0m rest\n"
    assert printed("[bold]A[yellow]B[/]C[/]", tty=True) == "\x1b[1mA\x1b[0m\x1b[1;33mB\x1b[0m\x1b[1mC\x1b[0m\n"


def test_no_color_keeps_bold_and_dim_but_drops_colours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm")
    assert printed("[yellow]warn[/] [dim]x[/]", tty=True) == "warn \x1b[2mx\x1b[0m\n"


def test_a_dumb_terminal_shows_no_styles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    assert printed("[bold]A[/]", tty=True) == "A\n"


@pytest.mark.parametrize(
    "markup",
    [
        "a" * 137 + "e\u0301 b",  # 140 columns (a combining accent takes none): not wrapped
        "a" * 138 + "e\u0301 b",  # 141: wrapped
        "[link=https://x]a[/]",  # a style this printer does not know
        "[/] closes nothing",  # markup Rich refuses: the CLI's console prints it as it is
        "[bold]a[/italic]",
        "wide 漢字 names",
        "tab\there",
        "emoji :smile:",
    ],
)
def test_what_it_cannot_print_exactly_goes_to_rich(markup: str) -> None:
    assert printed(markup) == printed(markup, rich=True)


PIECES = st.sampled_from(
    [
        "[bold]",
        "[dim]",
        "[yellow]",
        "[red]",
        "[green]",
        "[i]",
        "[strike]",
        "[/]",
        "[/bold]",
        "[/dim]",
        "\\",
        "\\\\",
        "\\[",
        "[",
        "]",
        " ",
        "  ",
        "\n",
        "→",
        "—",
        "é",
        "e\u0301",
        "\xad",
        "x" * 30,
        "word",
        "#12",
        "[str]",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=40), st.booleans())
def test_every_line_reads_as_rich_printed_it(pieces: list[str], soft_wrap: bool) -> None:
    markup = "".join(pieces)
    assert printed(markup, soft_wrap=soft_wrap) == printed(markup, soft_wrap=soft_wrap, rich=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(PIECES, max_size=40))
def test_on_a_terminal_the_text_is_rich_s_and_each_character_has_rich_s_styles(pieces: list[str]) -> None:
    markup = "".join(pieces)
    with mock.patch.dict(os.environ, {"COLUMNS": "80", "TERM": "xterm-256color"}):
        os.environ.pop("NO_COLOR", None)
        mine, theirs = printed(markup, tty=True), printed(markup, tty=True, rich=True)
    assert SGR.sub("", mine) == SGR.sub("", theirs)
    assert styled_characters(mine) == styled_characters(theirs)


def styled_characters(text: str) -> list[tuple[str, frozenset[str]]]:
    """Each printed character with the SGR codes in force over it, as a terminal reads them."""
    out, codes = [], frozenset[str]()
    for piece in re.split(r"(\x1b\[[0-9;]*m)", text):
        if piece.startswith("\x1b["):
            params = piece[2:-1]
            for code in params.split(";"):
                if code in ("", "0"):
                    codes = frozenset()
                else:  # a colour (30–37) takes the place of the one before
                    codes = frozenset(c for c in codes if not (code.startswith("3") and c.startswith("3"))) | {code}
        else:
            out.extend((c, codes) for c in piece if c != "\n")
    return out


@pytest.mark.parametrize(
    ("environ", "tty", "styled"),
    [
        ({}, True, True),
        ({}, False, False),
        ({"FORCE_COLOR": "1"}, False, True),
        ({"FORCE_COLOR": ""}, True, False),
        ({"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"}, True, False),
        ({"TTY_COMPATIBLE": "1"}, False, True),
        ({"TERM": "unknown"}, True, False),
        ({"NO_COLOR": ""}, True, True),
    ],
)
def test_styles_are_shown_where_rich_shows_them(
    monkeypatch: pytest.MonkeyPatch, environ: dict[str, str], tty: bool, styled: bool
) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("COLUMNS", "80")
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    line = "[dim]#9[/] [yellow]rest[/]"
    mine, theirs = printed(line, tty=tty), printed(line, tty=tty, rich=True)
    assert ("\x1b[" in mine) is styled
    assert styled_characters(mine) == styled_characters(theirs)

"""What the CLI asks of its console (Rich): off a terminal lines are plain text wrapped at 140 columns, not
Rich's 80; an error line is never wrapped; user text escaped by the views is printed as typed."""

from __future__ import annotations

import io

from rich.markup import escape

from campaign.cli.output import rich_console


class Screen(io.StringIO):
    """A file that says it is (or is not) a terminal."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def printed(markup: str, *, soft_wrap: bool = False) -> str:
    screen = Screen(False)
    rich_console(screen, soft_wrap=soft_wrap).print(markup)
    return screen.getvalue()


def test_off_a_terminal_a_line_is_its_text_without_markup() -> None:
    assert printed("  [dim]#9[/] 1 day of rest for [bold]every side[/]") == "  #9 1 day of rest for every side\n"


def test_escaped_user_text_is_printed_as_typed() -> None:
    name = r"Keno [bold] \ 3rd [/] squad \[x]"
    assert printed(f"[bold]{escape(name)}[/]:") == f"{name}:\n"


def test_broken_markup_a_view_forgot_to_escape_is_printed_as_it_is() -> None:
    assert printed("Keno [/] squad") == "Keno [/] squad\n"


def lines(markup: str) -> list[str]:
    return [line.rstrip() for line in printed(markup).splitlines()]


def test_a_line_of_140_columns_is_not_wrapped_and_one_of_141_is() -> None:
    assert lines("a" * 70 + " " + "b" * 69) == ["a" * 70 + " " + "b" * 69]
    assert lines("a" * 70 + " " + "b" * 70) == ["a" * 70, "b" * 70]


def test_an_error_line_is_never_wrapped() -> None:
    assert printed("a" * 70 + " " + "b" * 70, soft_wrap=True) == "a" * 70 + " " + "b" * 70 + "\n"

"""The CLI's lines of text printed without loading Rich (a rule command's start-up time).

The CLI writes its output in Rich's console markup (``[bold]name[/]:``, ``[dim]#12[/]``), and a command that only
appends prints nothing but such lines. Importing Rich costs a rule command about a tenth of its start-up, so
:class:`Printer` prints a line itself when the line is plain enough to print exactly as Rich would: the few styles
the CLI uses, text whose every character is one column wide, no control characters. Anything else (a table, a
style it does not know, a wide character, markup Rich would refuse) goes to Rich, loaded then. Like the Rich
console it stands for: a line wider than the screen is wrapped at its spaces (off a terminal, at 140 columns),
and styles are shown only on a terminal (none under ``NO_COLOR`` but bold, dim, italic and strike, none at all
on a ``dumb`` one).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

TAG = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")
"""A markup tag, with the backslashes before it (as Rich's ``rich.markup.RE_TAGS``)."""

STYLES = {"bold": "1", "dim": "2", "i": "3", "italic": "3", "strike": "9", "red": "31", "green": "32", "yellow": "33"}
"""The styles the CLI's lines use, as the SGR codes a terminal reads; another tag is Rich's to print."""
COLOURS = frozenset({"red", "green", "yellow"})

NARROW = frozenset("→←—–·…‘’“”−×°§±½¼¾•")
"""Characters past Latin (U+02FF) that a terminal (and Rich) gives one column: what the CLI's own words use.
Combining marks (no column of their own) and the soft hyphen are left to Rich."""

OFF_TERMINAL_WIDTH = 140
"""Off a terminal Rich would assume 80 columns; a log or a status table reads better wider."""


def escape(markup: str) -> str:
    """Text made safe to put in markup: what looks like a tag is escaped (Rich's ``rich.markup.escape``)."""

    def backslashed(match: re.Match[str]) -> str:
        backslashes, text = match.group(2), match.group(1)[len(match.group(2)) :]
        return f"{backslashes}{backslashes}\\{text}"

    escaped = TAG.sub(backslashed, markup)
    if escaped.endswith("\\") and not escaped.endswith("\\\\"):
        return escaped + "\\"
    return escaped


def spans(markup: str) -> list[tuple[str, tuple[str, ...]]] | None:
    """The text of ``markup`` in runs, each with the styles open over it; None where the markup holds more than
    :data:`STYLES` or would be refused by Rich (an unmatched closing tag): Rich prints those."""
    out: list[tuple[str, tuple[str, ...]]] = []
    stack: list[str] = []
    position = 0

    def text(piece: str) -> None:
        if piece:
            out.append((piece.replace("\\[", "["), tuple(stack)))

    for match in TAG.finditer(markup):
        full, escapes, tag = match.groups()
        start, end = match.span()
        text(markup[position:start])
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            if backslashes:
                out.append(("\\" * backslashes, tuple(stack)))
            if escaped:
                out.append((full[len(escapes) :], tuple(stack)))
                continue
        if not tag.startswith("/"):
            if tag not in STYLES:
                return None
            stack.append(tag)
        elif tag == "/":
            if not stack:
                return None
            stack.pop()
        else:
            name = tag[1:].strip()
            if name not in stack:
                return None
            del stack[len(stack) - 1 - stack[::-1].index(name)]
    text(markup[position:])
    return out


def _narrow(text: str) -> bool:
    """Whether every character prints one column wide and none is a control character (but a newline)."""
    return all(
        (" " <= c < "\x7f") or ("\xa0" <= c <= "\u02ff" and c != "\xad") or c in NARROW or c == "\n" for c in text
    )


def _wrapped(line: str, width: int) -> list[str]:
    """One line of output as Rich wraps it: at its spaces, a word longer than the screen cut at its edge."""
    if len(line) <= width:
        return [line]
    return textwrap.wrap(
        line, width, expand_tabs=False, replace_whitespace=False, break_on_hyphens=False, drop_whitespace=True
    ) or [""]


class Printer:
    """A console for the CLI's output: prints its lines itself where it can (see the module), through Rich
    otherwise. ``print`` takes what Rich's ``Console.print`` takes."""

    def __init__(self, file: IO[str] | None = None, *, soft_wrap: bool = False) -> None:
        self._file = file
        self.soft_wrap = soft_wrap
        self._rich: Console | None = None

    @property
    def file(self) -> IO[str]:
        return self._file if self._file is not None else sys.stdout

    def _terminal(self) -> bool:
        """Whether styles are shown: as Rich decides it (TTY_COMPATIBLE, then FORCE_COLOR, then the file being
        a terminal; never on a dumb one)."""
        environ = os.environ
        if environ.get("TERM", "").strip().lower() in ("dumb", "unknown"):
            return False
        compatible = environ.get("TTY_COMPATIBLE", "")
        if compatible in ("0", "1"):
            return compatible == "1"
        force = environ.get("FORCE_COLOR")
        if force is not None:
            return force != ""
        return self.file.isatty()

    def width(self) -> int:
        if not self.file.isatty():
            return OFF_TERMINAL_WIDTH
        return shutil.get_terminal_size((80, 25)).columns

    def print(self, *objects: Any, **settings: Any) -> None:
        if len(objects) == 1 and not settings and isinstance(objects[0], str) and _narrow(objects[0]):
            runs = spans(objects[0])
            if runs is not None:
                self._write(runs)
                return
        self.rich().print(*objects, **settings)

    def rich(self) -> Console:
        """The Rich console this stands for (what prints a table), made the first time it is needed."""
        if self._rich is None:
            from campaign.cli.output import rich_console

            self._rich = rich_console(self._file, soft_wrap=self.soft_wrap)
        return self._rich

    def _write(self, runs: list[tuple[str, tuple[str, ...]]]) -> None:
        plain = "".join(text for text, _ in runs)
        lines = plain.split("\n")
        if not self.soft_wrap:
            width = self.width()
            lines = [piece for line in lines for piece in _wrapped(line, width)]
        if not self._terminal() or not any(styles for _, styles in runs):
            self.file.write("\n".join(lines) + "\n")
            self.file.flush()
            return
        self.file.write(_styled(runs, lines) + "\n")
        self.file.flush()


def _styled(runs: list[tuple[str, tuple[str, ...]]], lines: list[str]) -> str:
    """The lines (the runs' text, wrapped) with each run's styles as a terminal reads them; a style ends at each
    line's end, as Rich ends it."""
    colours = os.environ.get("NO_COLOR", "") == ""
    plain = "".join(text for text, _ in runs)
    style_at = [styles for text, styles in runs for _ in text]
    out: list[str] = []
    index = 0
    for line in lines:
        index = plain.index(line, index) if line else index
        pieces: list[str] = []
        current = ""
        for offset, char in enumerate(line):
            styles = style_at[index + offset]
            codes = _codes(styles, colours)
            if codes != current:
                pieces.append("\x1b[0m" if current else "")
                pieces.append(f"\x1b[{codes}m" if codes else "")
                current = codes
            pieces.append(char)
        pieces.append("\x1b[0m" if current else "")
        out.append("".join(pieces))
        index += len(line)
    return "\n".join(out)


def _codes(styles: tuple[str, ...], colours: bool) -> str:
    """The SGR codes of the styles open (innermost last): each once, and of the colours only the innermost."""
    codes = list(dict.fromkeys(STYLES[s] for s in styles if s not in COLOURS))
    shown = [s for s in styles if s in COLOURS]
    if colours and shown:
        codes.append(STYLES[shown[-1]])
    return ";".join(codes)

"""Printing for the CLI: Rich for people, JSON for scripts, errors on stderr with a non-zero exit."""

from __future__ import annotations

import functools
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import orjson
import typer

from campaign.i18n import N_, _, pgettext
from campaign.read.describe import describe, dice_of, kind, readable, value
from events.envelope import RecordedEvent
from events.errors import CampaignError, ConcurrencyError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from events.store import AppendResult

P = ParamSpec("P")
R = TypeVar("R")


@functools.cache
def _console_type() -> type[Console]:
    """Rich's console, made never to fail on user text: text read as broken markup (a name holding ``[/]`` that
    a view forgot to escape) is printed as it is. Views escape what users typed; this is the net under them."""
    from rich.console import Console
    from rich.errors import MarkupError

    class _Console(Console):
        def render_str(self, text: str, **kwargs: Any) -> Any:
            try:
                return super().render_str(text, **kwargs)
            except MarkupError:
                return super().render_str(text, **{**kwargs, "markup": False})

    return _Console


def escape(text: str) -> str:
    """``text`` as Rich prints it literally (``[`` escaped), for a view that prints through Rich.

    Rich's markup module is imported when first asked, not with this one: importing it (and the text, style and
    colour modules it pulls in) cost a rule command 9 ms of CPU in `bench/cli_latency.py`, and a rule command
    prints through Click (:func:`say`) and never needs it."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def say(line: str = "", *, err: bool = False) -> None:
    """One line for people, through Click: what a command appended, and every short line beside it. Styles
    made by :func:`strong`, :func:`faint` and :func:`warning` show on a terminal and are dropped off one (a file,
    a pipe) and under ``NO_COLOR``, as Rich does. Not Rich: importing Rich's console cost a rule command about
    16 ms of CPU (a fifth of what the program adds to its libraries), for four lines that need none of it."""
    typer.echo(line, err=err, color=False if os.environ.get("NO_COLOR") else None)


def strong(text: str) -> str:
    """``text`` in bold, for :func:`say` (a name a line is about)."""
    return typer.style(text, bold=True)


def faint(text: str) -> str:
    """``text`` dimmed, for :func:`say` (entry numbers, the head)."""
    return typer.style(text, dim=True)


def warning(text: str) -> str:
    """``text`` in yellow, for :func:`say`."""
    return typer.style(text, fg="yellow")


def head_line(seq: int, head_hash: str) -> str:
    """The log's head after a command, as :func:`say` prints it: what a GM compares with another copy's."""
    return faint(_("head #{seq} {hash}").format(seq=seq, hash=head_hash))


OFF_TERMINAL_WIDTH = 140
"""Off a terminal Rich would assume 80 columns; a log or a status table reads better wider."""


def rich_console(file: Any = None, *, soft_wrap: bool = False) -> Console:
    """The Rich console the CLI prints with. No emoji codes: a unit named ``:smile: Lancers`` is printed as typed
    (and Rich's table of emoji codes is never loaded)."""
    target = file if file is not None else sys.stdout
    width = None if soft_wrap or target.isatty() else OFF_TERMINAL_WIDTH
    return _console_type()(file=file, highlight=False, emoji=False, width=width, soft_wrap=soft_wrap)


class Output:
    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json

    @property
    def console(self) -> Console:
        """Where the output goes: Rich, made when first printed to (a command under --json never makes one)."""
        return rich_console()

    def json(self, value: Any) -> None:
        typer.echo(orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode())

    def appended(self, result: AppendResult, headline: str, names: Mapping[str, str] | None = None) -> None:
        """What ``result`` appended, each event in words, after ``headline`` (plain text for :func:`say`; a name
        in it made :func:`strong`)."""
        if self.as_json:
            self.json(
                {
                    "duplicate": result.duplicate,
                    "events": [e.as_dict() for e in result.events],
                    "head": {"seq": result.head.seq, "hash": result.head.hash},
                }
            )
            return
        if result.duplicate:
            say(warning(_("this command id was already recorded; nothing new was appended")))
        if headline:
            say(headline)
        for event, text in readable(result.events, names or {}):
            say(f"  {faint(f'#{event.seq}')} {text}")
        say(head_line(result.head.seq, result.head.hash))

    def events_table(
        self,
        events: Iterable[RecordedEvent],
        title: str,
        names: Mapping[str, str] | None = None,
        retracted: set[int] | None = None,
        notes: Mapping[int, str] | None = None,
        dice: Iterable[RecordedEvent] = (),
    ) -> None:
        """The events as a table; ``notes`` adds words to some of them, by seq (where a branch's roll came from);
        ``dice``: the rolls of their rule applications that are not among them (read before the page)."""
        from rich.table import Table  # a command that only appends prints no table (start-up time)

        table = Table(title=title, show_lines=False)
        table.add_column(_("seq"), justify="right")
        table.add_column(_("kind"))
        table.add_column(_("by"))
        table.add_column(_("what happened"))
        listed = list(events)
        retracted_word = _("(retracted)")
        # the dice each rule application used, for its sentence in the reader's language (campaign.i18n.explain)
        rolls, faces = dice_of([*dice, *listed])
        for e in listed:
            gone = retracted is not None and e.seq in retracted
            what = escape(describe(e, names, rolls, faces))
            if notes and e.seq in notes:
                what += f" [dim]— {escape(notes[e.seq])}[/]"
            table.add_row(
                f"[strike]{e.seq}[/]" if gone else str(e.seq),
                kind(e.type),
                escape(str(e.meta.get("actor", ""))),
                f"[dim]{retracted_word}[/] {what}" if gone else what,
            )
        self.console.print(table)

    def progress(self, total: int | None, description: str) -> Progress:
        """A progress bar on stderr for long work; silent under --json or off a terminal."""
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        return Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=rich_console(sys.stderr),
            disable=self.as_json or not sys.stderr.isatty(),
            transient=True,
        )


def fail(message: str, code: int, as_json: bool) -> typer.Exit:
    if as_json:
        typer.echo(orjson.dumps({"error": message, "exit_code": code}).decode())
    said = _("error:")
    rich_console(sys.stderr, soft_wrap=True).print(f"[red]{said}[/] {escape(message)}")
    return typer.Exit(code)


def handles_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn the project's errors into a clear message and their exit status (nothing was appended)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        from campaign.cli.inputs import checked_arguments

        try:
            checked = checked_arguments(fn, kwargs)
            for attempt in range(1, CONFLICT_ATTEMPTS + 1):
                try:
                    return fn(*args, **checked)
                except ConcurrencyError as exc:
                    if attempt == CONFLICT_ATTEMPTS:
                        raise ConcurrencyError(_conflict(exc, attempt)) from None
                    time.sleep(random.uniform(0.02, 0.1) * attempt)
            raise AssertionError("unreachable")
        except CampaignError as exc:
            from campaign.i18n import refusal

            raise fail(refusal(exc), exc.exit_code, bool(kwargs.get("as_json"))) from None
        except (typer.Exit, typer.Abort, typer.TyperException):  # typer's own click: usage errors go to it
            raise
        except OSError as exc:
            if exc.filename is None:
                raise
            # A path the system refuses (a name too long, a folder not there, no permission), wherever it was met.
            said = _("cannot use {path}: {why}; nothing was recorded").format(
                path=exc.filename, why=exc.strerror or exc
            )
            raise fail(said, 2, bool(kwargs.get("as_json"))) from None
        except Exception as exc:
            damaged = _damaged_file(exc) or _damaged_event()
            if damaged is None:
                raise  # a defect of the program, not of the data: the traceback is for its developers
            raise fail(str(damaged), damaged.exit_code, bool(kwargs.get("as_json"))) from None

    return wrapper


CONFLICT_ATTEMPTS = 3
"""How many times a command that met another writer's append is run again, on the new head, before giving up."""


def _conflict(exc: ConcurrencyError, attempts: int) -> str:
    """A conflict in words, naming the campaign by its name when it can be read."""
    from campaign.cli.session import state

    name = None
    if exc.campaign_id is not None and state.app is not None:
        try:
            found = state.app.ledger.directory.get(exc.campaign_id)
            name = found.name if found is not None else None
        except CampaignError:
            name = None
    what = f"campaign {name!r}" if name else (f"campaign {exc.campaign_id}" if exc.campaign_id else "the database")
    return (
        f"{what} was being written by someone else at the same time; tried {attempts} times on the new state "
        f"and gave up ({exc}). Nothing was recorded: run the command again"
    )


def _damaged_file(exc: Exception) -> CampaignError | None:
    """A driver error saying the database file is damaged (SQLite: "database disk image is malformed"), in words:
    the command's transaction was rolled back, nothing was recorded."""
    from campaign.cli.session import state
    from events.db import damaged

    return damaged(exc, state.db)


def _damaged_event() -> CampaignError | None:
    """After an unexpected failure: an event of the open database that was damaged by hand, if any (named,
    exit 3), since a stored event that is not of its schema can break any command that reads it."""
    from campaign.cli.session import state
    from events.registry import registry
    from events.verify import first_damaged

    if state.app is None:
        return None
    store = state.app.ledger.store
    try:
        for campaign_id in store.campaign_ids():
            found = first_damaged(store.read(campaign_id), registry)
            if found is not None:
                return found
    except Exception:  # the first failure is the one to show
        return None
    return None


def print_tables(out: Output, title: str, values: Mapping[str, Any], prefix: str) -> None:
    """The rule tables in force (house rules included) under ``prefix``, each value with its provenance."""
    rows = sorted((p, s) for p, s in values.items() if p.startswith(prefix))
    if out.as_json:
        out.json({p: {"value": s.value, "tag": s.tag, "erratum": s.errata, "source": s.source} for p, s in rows})
        return
    from rich.table import Table

    view = Table(title=title)
    for column in (N_("path"), N_("value"), N_("tag"), N_("erratum"), N_("provenance")):
        view.add_column(_(column))
    for path, sourced in rows:
        # The note in the reader's language (its tag, errata and numbers kept); --json keeps the file's English.
        note = pgettext("provenance", sourced.source)
        view.add_row(path, escape(value(sourced.value)), sourced.tag, sourced.errata, escape(note))
    out.console.print(view)


def print_rows(out: Output, title: str, columns: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    """A table for people: ``title`` over ``columns``, every cell shown as the text it is (never as markup)."""
    from rich.table import Table

    view = Table(title=escape(title))
    for column in columns:
        view.add_column(column)
    for row in rows:
        view.add_row(*(escape(str(cell)) for cell in row))
    out.console.print(view)

"""Printing for the CLI: Rich for people, JSON for scripts, errors on stderr with a non-zero exit."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import orjson
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from campaign.describe import describe
from events.envelope import RecordedEvent
from events.errors import CampaignError
from events.store import AppendResult

if TYPE_CHECKING:
    from rich.progress import Progress

P = ParamSpec("P")
R = TypeVar("R")


class Output:
    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json

    @property
    def console(self) -> Console:
        # Off a terminal Rich assumes 80 columns; a log or a status table reads better wider.
        width = None if sys.stdout.isatty() else 140
        return Console(highlight=False, width=width)

    def json(self, value: Any) -> None:
        typer.echo(orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode())

    def appended(self, result: AppendResult, headline: str, names: Mapping[str, str] | None = None) -> None:
        if self.as_json:
            self.json(
                {
                    "duplicate": result.duplicate,
                    "events": [e.as_dict() for e in result.events],
                    "head": {"seq": result.head.seq, "hash": result.head.hash},
                }
            )
            return
        console = self.console
        if result.duplicate:
            console.print("[yellow]this command id was already recorded; nothing new was appended[/]")
        console.print(headline)
        for event in result.events:
            console.print(f"  [dim]#{event.seq}[/] {escape(describe(event, names))}")
        console.print(f"[dim]head #{result.head.seq} {result.head.hash}[/]")

    def events_table(
        self,
        events: Iterable[RecordedEvent],
        title: str,
        names: Mapping[str, str] | None = None,
        retracted: set[int] | None = None,
    ) -> None:
        table = Table(title=title, show_lines=False)
        table.add_column("seq", justify="right")
        table.add_column("type")
        table.add_column("by")
        table.add_column("what happened")
        for e in events:
            gone = retracted is not None and e.seq in retracted
            what = escape(describe(e, names))
            table.add_row(
                f"[strike]{e.seq}[/]" if gone else str(e.seq),
                e.type,
                str(e.meta.get("actor", "")),
                f"[dim](retracted)[/] {what}" if gone else what,
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
            console=Console(file=sys.stderr),
            disable=self.as_json or not sys.stderr.isatty(),
            transient=True,
        )


def fail(message: str, code: int, as_json: bool) -> typer.Exit:
    if as_json:
        typer.echo(orjson.dumps({"error": message, "exit_code": code}).decode())
    Console(file=sys.stderr, highlight=False, soft_wrap=True).print(f"[red]error:[/] {escape(message)}")
    return typer.Exit(code)


def handles_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn the project's errors into a clear message and their exit status (nothing was appended)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except CampaignError as exc:
            raise fail(str(exc), exc.exit_code, bool(kwargs.get("as_json"))) from None

    return wrapper


def print_tables(out: Output, title: str, values: Mapping[str, Any], prefix: str) -> None:
    """The rule tables in force (house rules included) under ``prefix``, each value with its provenance."""
    rows = sorted((p, s) for p, s in values.items() if p.startswith(prefix))
    if out.as_json:
        out.json({p: {"value": s.value, "tag": s.tag, "erratum": s.errata, "source": s.source} for p, s in rows})
        return
    view = Table(title=title)
    for column in ("path", "value", "tag", "erratum", "provenance"):
        view.add_column(column)
    for path, sourced in rows:
        view.add_row(path, escape(str(sourced.value)), sourced.tag, sourced.errata, escape(sourced.source))
    out.console.print(view)

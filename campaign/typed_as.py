"""A command's recorded name as a person types it (``gf.battle_end`` → "gf battle-end").

A module of its own, in no layer and importing nothing of the project's, so that the rules may import it (a
command refusing its inputs names itself as typed: "fs attack: killed cannot be negative", not
"fs.attack: …") as well as the views (``campaign.read.describe``), and a view such as ``status`` loads no ruleset
package for it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

TYPED_AS = {"mc.morale": "mc morale-mod", "gf.round": "gf turn"}
"""Recorded commands whose name is not the words typed for them."""
TYPED_BY_ACTIVITY = frozenset({"fs.days", "mc.days"})
"""Recorded commands typed as their activity: ``fs.days`` of a forced march is "fs forced-march"."""


_ON_THE_PAGE: ContextVar[bool] = ContextVar("commands named as the campaign page names them", default=False)


@contextmanager
def as_the_page_names() -> Iterator[None]:
    """``with as_the_page_names(): …``: the block names a command as the campaign page's own list does, without
    the ruleset's word the command line types first (the page is the campaign's, whose ruleset it says once: its
    list groups "shoot", "melee"), wherever the name is said — a log line, an amend preview, a refusal."""
    token = _ON_THE_PAGE.set(True)
    try:
        yield
    finally:
        _ON_THE_PAGE.reset(token)


def typed(command: str, args: Mapping[str, object] | None = None) -> str:
    """A command's recorded name as a person types it: ``gf.battle_end`` → "gf battle-end", ``ledger.roll`` →
    "roll" (the ledger's own commands have no ruleset word); with its recorded ``args``, a command typed as one
    of its arguments by that word: ``mc.days`` of rest → "mc rest". On the page (:func:`as_the_page_names`):
    as its command list names it, "battle-end", "rest"."""
    group, _, leaf = command.rpartition(".")
    activity = (args or {}).get("activity")
    if command in TYPED_BY_ACTIVITY and isinstance(activity, str) and activity != "other":
        leaf = activity
    elif command in TYPED_AS:
        return TYPED_AS[command].rpartition(" ")[2] if _ON_THE_PAGE.get() else TYPED_AS[command]
    if _ON_THE_PAGE.get():
        group = ""
    return " ".join(w for w in ("" if group == "ledger" else group, leaf.replace("_", "-")) if w)

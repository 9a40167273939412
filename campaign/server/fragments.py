"""The live page's fragments: each rendered once per head of its campaign, and shared by every page that shows it.

A fragment is an element of the campaign page, named by its ``id``, with a renderer registered by that name in the
page's :class:`Registry` (``campaign.server.live_parts.PAGE``). A renderer is given the campaign as it stands at a
head (:class:`At`) and returns the element's HTML; it reads by pages (the summary at the head, the last entries of
the log, a chart's points), never the whole log, so its cost does not grow with the campaign's length.
:class:`Fragments` renders every fragment of a campaign once for each head and keeps the latest rendering: the
page's first view, its ``…/live`` part and every open page's live stream are all made of it
(:mod:`campaign.server.live` sends each page the fragments whose HTML changed). A fragment is the same for every
member who may see the page, but for the language it is read in and, for a fragment registered ``by_role``,
whether the reader is the game master (:data:`GM`) or not (:data:`OTHERS`): a rendering per head for each
language and role kind some page reads it in.

Why the role kind is a key of the rendering and not a check at each page: the game master's log rows carry
controls (amend, rewind to here, undo) a player or an observer must never be sent, and a fragment is sent as one
piece to every page of its rendering. Two kinds, not one rendering per member: what a fragment shows depends on
the role only, so a head costs at most one rendering of each fragment per language, and one more of the
``by_role`` fragments (the log) if a game master's page is open; the others' fragments are taken as they are
from the rendering every role shares. A GM's rendering lists only the game masters as those who may see it,
so a stream whose member stops being a game master is closed (and reopens on the others' rendering).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypedDict

from campaign.access.memberships import Member, Memberships
from campaign.executor import Ledger
from campaign.i18n import language, reading_in
from campaign.typed_as import as_the_page_names
from projections.state.campaigns import CampaignInfo

if TYPE_CHECKING:
    from campaign.server.charts import Point
    from projections.fold import Summary

Head = tuple[str, int, str]
"""What a value kept for a campaign's head was worked out at: its name, the head's seq and hash."""

Memo = TypedDict(
    "Memo",
    {
        "summary": "tuple[Head, Summary]",
        "accounts": "tuple[Head, frozenset[str]]",
        "chart points": "dict[int, Point]",
        "log rows": "dict[tuple[int, bool, bool], str]",
        "log names": "dict[str, str]",
        "log accounts": "frozenset[str]",
    },
    total=False,
)
"""What the renderers of a campaign keep from one head to the next (``At.memo``), by the name each keeps it under."""

RoleKind = Literal["gm", "others"]
GM: RoleKind = "gm"
OTHERS: RoleKind = "others"


def role_kind(role: str) -> RoleKind:
    """The rendering a member of ``role`` reads: the game master's, or everyone else's."""
    return GM if role == "gm" else OTHERS


KEPT_CAMPAIGNS = 256
"""Campaigns whose latest rendering is kept (the least recently shown are let go)."""


@dataclass(frozen=True)
class At:
    """A campaign at one head, as a renderer reads it."""

    ledger: Ledger
    info: CampaignInfo
    members: dict[str, Member]
    memo: Memo
    """The campaign's own store for what a renderer works out once and reuses at later heads (what depends only on
    the log up to a seq it names, which never changes): kept as long as the campaign's rendering is."""
    kind: RoleKind = OTHERS
    """Whose rendering it is: the game master's (a ``by_role`` fragment shows its controls) or everyone else's."""


@dataclass(frozen=True)
class Rows:
    """A fragment that is a list of rows, each under a key of its own (``data-key``, in the element marked
    ``data-rows``): its whole HTML, and each row's. A page one head behind is sent only the rows that are new or
    changed and the keys' order (a log's new entry, not its 200 rows again: 105 kB an append to every open page
    before, measured with bench/live_bench.py)."""

    html: str
    rows: tuple[tuple[str, str], ...]


Renderer = Callable[[At], "str | Rows"]


class Registry:
    """A page's fragments: each renderer registered by the name of the element it renders."""

    def __init__(self) -> None:
        self.renderers: dict[str, Renderer] = {}
        self.by_role: set[str] = set()
        """The fragments whose HTML depends on the reader's role kind (:attr:`At.kind`)."""

    def fragment(self, name: str, *, by_role: bool = False) -> Callable[[Renderer], Renderer]:
        """Register the decorated function as the renderer of fragment ``name`` (a later one replaces it);
        ``by_role``: it is rendered once more for the game master's pages. It returns the element's HTML, or
        :class:`Rows` for a list of keyed rows."""

        def register(renderer: Renderer) -> Renderer:
            self.renderers[name] = renderer
            (self.by_role.add if by_role else self.by_role.discard)(name)
            return renderer

        return register


@dataclass(frozen=True)
class Rendered:
    """Every fragment of a campaign at one head."""

    head: int
    head_hash: str
    parts: dict[str, str]
    members: frozenset[str]
    """The accounts that may see it (a stream whose account is not among them is closed)."""
    previous: int | None = None
    """The head of the rendering this one followed, and the fragments whose HTML changed since (``changed``)."""
    changed: frozenset[str] = frozenset()
    rows: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """Each :class:`Rows` fragment's rows by key, in order."""
    row_changes: dict[str, RowChanges] = field(default_factory=dict)
    """For each changed :class:`Rows` fragment of the rendering before (``previous``): what a page showing that
    one needs to show this (its HTML is not sent again)."""


@dataclass(frozen=True)
class RowChanges:
    """The keys of a :class:`Rows` fragment in their order now, and the HTML of the rows new or changed since the
    rendering before; a row not among them is the page's own, as it shows it."""

    order: tuple[str, ...]
    rows: dict[str, str]


def row_changes(before: tuple[tuple[str, str], ...], now: tuple[tuple[str, str], ...]) -> RowChanges:
    had = dict(before)
    return RowChanges(tuple(k for k, _ in now), {k: html for k, html in now if had.get(k) != html})


@dataclass
class _Campaign:
    lock: threading.Lock = field(default_factory=threading.Lock)
    latest: Rendered | None = None
    memo: Memo = field(default_factory=Memo)


class Fragments:
    def __init__(self, ledger: Ledger, members: Memberships, page: Registry) -> None:
        self._ledger = ledger
        self._members = members
        self._renderers = page.renderers
        self._by_role = page.by_role
        self._campaigns: OrderedDict[tuple[str, str, RoleKind], _Campaign] = OrderedDict()
        self._guard = threading.Lock()
        self.renderings = 0
        """How many renderings were made (each of every fragment): one per head a page was shown at."""
        self.gm_renderings = 0
        """How many game master's renderings were made (each of the ``by_role`` fragments only)."""

    def _campaign(self, campaign_id: str, lang: str, kind: RoleKind) -> _Campaign:
        key = (campaign_id, lang, kind)
        with self._guard:
            found = self._campaigns.get(key)
            if found is None:
                found = self._campaigns[key] = _Campaign()
                while len(self._campaigns) > KEPT_CAMPAIGNS:
                    self._campaigns.popitem(last=False)
            self._campaigns.move_to_end(key)
            return found

    def at(self, info: CampaignInfo, lang: str | None = None, kind: RoleKind = OTHERS) -> Rendered:
        """The campaign's fragments at ``info``'s head in ``lang`` (the reader's language of the moment if None)
        for the role ``kind``: rendered now if nobody rendered them yet (a second caller meanwhile waits for that
        rendering instead of making its own)."""
        lang = lang or language()
        kept = self._campaign(info.campaign_id, lang, kind)
        latest = kept.latest
        if latest is not None and (latest.head, latest.head_hash) == (info.last_seq, info.head_hash):
            return latest
        with kept.lock:
            latest = kept.latest
            if latest is not None and (latest.head, latest.head_hash) == (info.last_seq, info.head_hash):
                return latest
            shared = self.at(info, lang, OTHERS) if kind != OTHERS else None  # the fragments every role reads
            members = self._members.of(info.campaign_id)
            at = At(self._ledger, info, members, kept.memo, kind)
            parts: dict[str, str] = {}
            rows: dict[str, tuple[tuple[str, str], ...]] = {}
            with reading_in(lang), as_the_page_names():
                for name, render in self._renderers.items():
                    if shared is not None and name not in self._by_role:
                        parts[name] = shared.parts[name]
                        if name in shared.rows:
                            rows[name] = shared.rows[name]
                        continue
                    made = render(at)
                    if isinstance(made, Rows):
                        parts[name], rows[name] = made.html, made.rows
                    else:
                        parts[name] = made
            if shared is None:
                self.renderings += 1
            else:
                self.gm_renderings += 1
                members = {a: m for a, m in members.items() if m.role == "gm"}
            changed = frozenset(n for n, html in parts.items() if latest is None or latest.parts.get(n) != html)
            rendered = Rendered(
                info.last_seq,
                info.head_hash,
                parts,
                frozenset(members),
                latest.head if latest is not None else None,
                changed,
                rows,
                {
                    n: row_changes(latest.rows[n], rows[n])
                    for n in changed
                    if n in rows and latest is not None and n in latest.rows
                },
            )
            if latest is None or rendered.head >= latest.head:  # a late rendering of an older head is not kept
                kept.latest = rendered
            return rendered

"""Explanations rendered when read: a rule application's sentence in the reader's language, from what it recorded.

The log keeps each ``rules.applied`` event's English ``explanation`` (hashed with the rest); a view shows the same
decision in the reader's language by :func:`render`, which looks up the renderer of its ``(ruleset, rule)``. A
renderer is a pure function of the recorded payload and of what the view knows beside it (:class:`Beside`: the
units' names, and the totals of the rolls the decision used, by roll index, from the ``dice.rolled`` events of
its command). It returns ``None`` when the record holds too little to say the sentence (a test recorded before
its rule recorded its terms), and the view shows the recorded English instead: never half a translation.

In English a view shows the recorded sentence itself; each renderer's English is held equal to it by the tests
(``tests/unit/test_i18n_explain.py``), so the languages never say different things. The plan for the rest of
the rules, and what each needs recorded, is in :mod:`campaign.i18n`'s docstring.

The renderers of each ruleset are a module in its own folder, ``said.py`` beside its rules (a ruleset is one
folder: a plug-in's package ships its own), imported when a view first renders one of its decisions. Adding a
renderer::

    @renders("fighting-spirit", "morale_test")
    def _morale_test(p: JsonObject, beside: Beside) -> str | None: ...

A renderer reads its record's free-shape fields by the shape its rule gave them (:mod:`events.recorded`:
``obj(p["inputs"])``, ``whole(outcome["total"])``); one of another shape raises, and the view says it as recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from importlib.util import find_spec
from typing import TypeVar

from campaign.i18n import DEFAULT, N_, _, language, reading_in
from campaign.i18n.terms import package_of, shown
from events.recorded import JsonObject

T = TypeVar("T")


@dataclass(frozen=True)
class Beside:
    """What a view knows beside a payload: unit (and battle) names by id, roll totals by roll index, and each
    roll's faces (``4 (2+2)``, as disorder's checks say them) where the view has them."""

    names: Mapping[str, str] = field(default_factory=dict)
    rolls: Mapping[int, int] = field(default_factory=dict)
    faces: Mapping[int, Sequence[int]] = field(default_factory=dict)

    def name(self, unit_id: object) -> str:
        """A unit's (or battle's) name by id, or words saying it is not on the roster."""
        return self.names.get(str(unit_id), _("a unit not on the roster"))


Renderer = Callable[[JsonObject, Beside], "str | None"]
RENDERERS: dict[tuple[str, str], Renderer] = {}
_LOADED: set[str] = set()


def _load_renderers(ruleset: str) -> None:
    """Import the ruleset's ``said`` module, if its package has one (a ruleset with none shows its English)."""
    try:
        package = package_of(ruleset)
    except KeyError:  # a log of a ruleset this installation lacks: its records are shown as recorded
        return
    if find_spec(f"{package}.said") is not None:
        import_module(f"{package}.said")


def renders(ruleset: str, rule: str) -> Callable[[Renderer], Renderer]:
    def register(fn: Renderer) -> Renderer:
        RENDERERS[(ruleset, rule)] = fn
        return fn

    return register


def render(payload: JsonObject, beside: Beside, lang: str | None = None) -> str | None:
    """The decision's sentence in ``lang`` (the reader's language by default), or None when it has no renderer
    or its record is too thin to say it."""
    ruleset = str(payload.get("ruleset"))
    if ruleset not in _LOADED:  # each ruleset's renderers, read on first use
        _LOADED.add(ruleset)
        _load_renderers(ruleset)
    renderer = RENDERERS.get((ruleset, str(payload.get("rule"))))
    if renderer is None:
        return None
    with reading_in(lang or language()):
        try:
            return renderer(payload, beside)
        except (KeyError, IndexError, TypeError, ValueError):  # a record of another shape: say it as recorded
            return None


def explained(payload: JsonObject, beside: Beside) -> str:
    """What a person reads for a rule application: the recorded sentence in English, else its rendering (or the
    recorded sentence when it cannot be rendered)."""
    if language() == DEFAULT:
        return str(payload["explanation"])
    return render(payload, beside) or str(payload["explanation"])


def term(ruleset: str, kind: str, value: object, *, short: bool = False) -> str:
    """A recorded value in the reader's words (the seed's own where it has one); as recorded in English, where
    the sentence was recorded with the canonical value itself."""
    if language() == DEFAULT:
        return str(value)
    return shown(ruleset, kind, str(value), short=short)


REASONS = {
    "routed": N_("routed"),
    "destroyed": N_("destroyed"),
    "surrendered": N_("surrendered"),
    "scattered": N_("scattered"),
    "wiped_out": N_("wiped out"),
    "disbanded": N_("disbanded"),
    "sold": N_("sold"),
    "rallied": N_("rallied"),
    "at half strength": N_("at half strength"),
    "failed a morale check": N_("failed a morale check"),
    "an activation spent idle": N_("an activation spent idle"),
    "mission reward (campaign points)": N_("mission reward (campaign points)"),
    "test passed": N_("test passed"),
    "only_broken_enemies": N_("no enemy in view but Broken ones"),
    "psi": N_("psi"),
}
"""The reasons the rules record in their own words (``battle.unit_removed``'s "routed"), said in the reader's
language when read. What is recorded stays as it is (it is hashed); a reason a person typed is shown as typed."""


def reason_said(recorded: T) -> T | str:
    """A recorded reason in the reader's language, where the rules gave it; anything else as recorded."""
    if language() == DEFAULT or not isinstance(recorded, str) or recorded not in REASONS:
        return recorded
    return _(REASONS[recorded])

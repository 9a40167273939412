"""The installed rulesets: each one's plug-in, read from the Python entry points of the group
``campaign_ledger.rulesets`` once, when first asked for.

A ruleset plugs in by declaring a :class:`RulesetInfo` (its plug-in: what it is called, its version and seed,
and where its parts are) and naming it as an entry point of that group in its distribution's metadata
(``pyproject.toml``'s ``[project.entry-points."campaign_ledger.rulesets"]``). A plug-in names its parts by import
path (``"package.module:attribute"``) and nothing of them is imported until a campaign needs it: ``campaign
--help`` lists every ruleset from the declarations alone. This module sits under every other of ``campaign``'s
(the layers contract): the language's terms and the rules' text look up a ruleset's package here.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GROUP = "campaign_ledger.rulesets"
"""The entry-point group a ruleset's distribution declares its plug-in in."""


@dataclass(frozen=True)
class Mutation:
    """What ``scripts/mutation.py`` mutates in a ruleset and which tests must catch it (shell patterns of test
    file names under ``tests/``)."""

    modules: tuple[str, ...] = ("rules.py",)
    """The ruleset's modules (in its package) that hold its rules."""
    tests: tuple[str, ...] = ()
    """The unit and acceptance tests that must fail on a mutant (default: the files naming its package)."""
    cli_tests: tuple[str, ...] = ()
    """The end-to-end tests run with ``--e2e``."""


@dataclass(frozen=True)
class RulesetInfo:
    """A ruleset's plug-in: what it is, and where each of its parts is (``"module:attribute"``, imported when
    first needed). Every part but its rules has a default, so a new ruleset declares only what it has."""

    name: str
    """Its name on the command line (``campaign new … --ruleset NAME``), recorded in every campaign of it."""
    package: str
    """Its Python package (``campaign.rulesets.disorder``): its ``tables.toml`` and ``terms.toml`` are read from
    there, and its rules' modules are ``rules``, ``fold``, … in it unless said otherwise below."""
    version: str
    """The version of its rules: 0.1 the first edition of RULES.md, 0.2 the second (its errata R2-…), 0.3 the
    third (its errata R3-…), 0.N.M a fix of the program's reading of one that decides some command differently.
    Every rule application records it, so re-evaluating a log tells a rules change from an altered log."""
    seed: str
    """Its seed's number (``000``): the rulesets are listed in their seeds' order."""
    title: str
    """What it is, in a line ("GURPS Mass Combat: troop strength, …": its game's name before a colon), marked with
    ``N_`` for the catalogs: the page says it in the reader's language."""
    prefix: str
    """The first part of its commands' names (``gf`` in ``gf.shoot``), and its command group on the CLI."""
    help: str
    """What its command group is for, as ``campaign --help`` lists it."""
    rules: str = ""
    """Its :class:`~campaign.rulesets.command.Ruleset` (commands, fold, tables): default ``PACKAGE.plugin:PLUGIN``."""
    fold: str = ""
    """The module whose ``make_fold`` folds its campaigns (reading a campaign imports no command model):
    default ``PACKAGE.fold``."""
    events: tuple[str, ...] = ()
    """The modules declaring its own event types, whose names start with its prefix (``fifth.coin_tossed``):
    imported when a log holding one is read."""
    cli: str | None = None
    """Its command group (a Typer app) where it has hand-written parts (a battle file, a roster view); default:
    made from its command models alone (``campaign.cli.generated.ruleset_app``)."""
    sentences: Mapping[str, str] = field(default_factory=dict)
    """Its own event types in words for the log (event type → a sentence of its fields, as ``describe.SAID``
    writes them); an event type without one reads as its name and fields."""
    restated: frozenset[tuple[str, str]] = frozenset()
    """(rule, outcome event type): where that rule's explanation already states the outcome, so the log prints
    the fact once."""
    charts: str | None = None
    """Its chart measures (``campaign chart``, the report's charts): a mapping of measure name →
    ``campaign.rulesets.hooks``' ``Measure`` (or ``Lacking``, saying why it keeps none); default: none."""
    demo: str | None = None
    """A function ``(app, campaign name)`` playing its sample campaign for ``campaign demo``; default: the
    campaign is created and left empty."""
    days_pass: bool = False
    """Whether its campaigns count days (``rest``, ``march``): ``status`` gives the day of these only."""
    counts: str = "models"
    """What its units count in the report: ``men`` or ``models``."""
    money_word: str = "money"
    """What its treasuries hold, in the report's words."""
    rules_md: str | None = None
    """Its sections of the rules (a Markdown file in its package, ``RULES.md``'s format) for ``campaign
    rules``; the four built in are sections of the program's own RULES.md."""
    sheet: str | None = None
    """Its battle sheet (``campaign.rulesets.sheets.Sheet``): a card for each unit in the battle being fought, with
    its state there and what its rules let it do now; default: none (the page shows the battle's log alone)."""
    roster: str | None = None
    """Its roster's columns in CSV (``roster --format csv``: a tuple of ``campaign.rulesets.hooks``'
    ``CsvColumn``) where it has a roster view of its own (in ``cli``); default: none."""
    army_list: str | None = None
    """Its reader of another program's army lists (``import-list``, the page's upload): a
    ``campaign.rulesets.hooks``' ``ArmyLists``; default: it imports none."""
    catalogs: str | None = None
    """Its message catalogs: a folder in its package (``locale``) holding ``LANG/LC_MESSAGES/messages.mo``
    (Babel's layout and default domain) — its commands' help, its sentences and its tables' notes in Russian and
    Polish, looked up where the program's own catalogs have no entry; default: none (it speaks English)."""
    worded: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Its words in the shared event types' fields: event type → field → the term set (its ``terms.toml``)
    the recorded value is a word of, said in the reader's language in the log (``morale.grade_changed``'s
    grades)."""
    mutation: Mutation = field(default_factory=Mutation)

    @property
    def rules_ref(self) -> str:
        return self.rules or f"{self.package}.plugin:PLUGIN"

    @property
    def fold_module(self) -> str:
        return self.fold or f"{self.package}.fold"


def load(reference: str) -> Any:
    """What ``"package.module:attribute"`` names, its module imported now."""
    module, _, attribute = reference.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


@dataclass(frozen=True)
class Installed:
    """The rulesets the installed distributions declare, and the entry points that could not be read (each
    with why)."""

    found: dict[str, RulesetInfo]
    problems: dict[str, str]
    catalogs: tuple[Path, ...] = ()
    """The folders of the rulesets' own message catalogs (``catalogs``), in the rulesets' order."""


@functools.cache
def installed() -> Installed:
    """Every entry point of :data:`GROUP`, read once: its plug-in is loaded (a declaration; its parts are not
    imported), checked and listed by its seed. One that cannot be read is left out, and said why when named."""
    from importlib.metadata import distributions

    found: dict[str, RulesetInfo] = {}
    problems: dict[str, str] = {}
    # Every distribution's, not ``entry_points(group=…)``'s: that keeps one distribution of a name, the first
    # on sys.path, and a checkout's stale ``campaign_ledger.egg-info`` (a setuptools build left it, without
    # these entry points; the current folder comes first on ``python -c``'s path) hid the installed one's.
    points = [p for d in distributions() for p in d.entry_points if p.group == GROUP]
    for point in points:
        if point.name in found:  # the same ruleset again, further down sys.path: the first one stands
            continue
        try:
            declared = point.load()
        except Exception as exc:  # a broken plug-in must not stop the program (or the other rulesets)
            problems[point.name] = f"its plug-in {point.value} could not be loaded ({type(exc).__name__}: {exc})"
            continue
        clash = next((r.name for r in found.values() if r.prefix == getattr(declared, "prefix", None)), None)
        if not isinstance(declared, RulesetInfo):
            problems[point.name] = f"{point.value} is not a ruleset's plug-in (a campaign.plugins.RulesetInfo)"
        elif declared.name != point.name:
            problems[point.name] = f"its entry point is called {point.name!r} but its plug-in {declared.name!r}"
        elif declared.name in found or clash is not None:
            problems[point.name] = f"a second ruleset called {declared.name!r} (or prefix {declared.prefix!r})"
        else:
            found[declared.name] = declared
    ordered = dict(sorted(found.items(), key=lambda item: (item[1].seed, item[0])))
    _register_event_families(ordered.values())
    return Installed(ordered, problems, tuple(_catalogs(ordered.values())))


def _catalogs(rulesets: Iterable[RulesetInfo]) -> Iterator[Path]:
    for info in rulesets:
        if info.catalogs:
            from importlib.resources import files

            yield Path(str(files(info.package).joinpath(info.catalogs)))


def _register_event_families(rulesets: Any) -> None:
    """A ruleset's own event types (named ``PREFIX.…``) are found, like the shared families, when first read."""
    for info in rulesets:
        if info.events:
            from events.registry import registry  # only then: `campaign --help` imports no event type

            registry.add_family(info.prefix, info.events)


class Registry(Mapping[str, RulesetInfo]):
    """The installed rulesets by name (:func:`installed`), read when first looked at."""

    def __getitem__(self, name: str) -> RulesetInfo:
        return installed().found[name]

    def __iter__(self) -> Iterator[str]:
        return iter(installed().found)

    def __len__(self) -> int:
        return len(installed().found)

    def __contains__(self, name: object) -> bool:
        return name in installed().found


RULESETS: Mapping[str, RulesetInfo] = Registry()


def by_prefix(prefix: str) -> RulesetInfo | None:
    """The ruleset whose commands' (and own event types') names start ``PREFIX.``."""
    return next((r for r in RULESETS.values() if r.prefix == prefix), None)


def ruleset(name: str) -> RulesetInfo:
    try:
        return RULESETS[name]
    except KeyError:
        from events.errors import InvalidInputError  # not at start-up: `campaign --help` lists RULESETS

        known = ", ".join(RULESETS)
        if not known:  # the distribution's metadata, where its entry points are, was not installed (or is stale)
            raise InvalidInputError.saying(
                "unknown ruleset {name!r}: no ruleset is installed (reinstall Campaign Ledger: `pip install .`, "
                "or scripts/setup in a clone)",
                name=name,
            ) from None
        why = installed().problems.get(name)
        if why is not None:
            raise InvalidInputError.saying(
                "the ruleset {name!r} is installed but cannot be used: {why}", name=name, why=why
            ) from None
        raise InvalidInputError.saying(
            "unknown ruleset {name!r}: choose one of {known}", name=name, known=known
        ) from None


__all__ = ["GROUP", "RULESETS", "Mutation", "RulesetInfo", "by_prefix", "installed", "load", "ruleset"]

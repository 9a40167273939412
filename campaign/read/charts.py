"""The series a chart draws, folded from a campaign's log: pure, no drawing and no I/O.

The events in effect (retractions honoured: :func:`events.timeline.effective`) are folded with the ruleset's own
fold, one command at a time; after each command the chart reads its measure from the state. A point is kept when
a value changed, and at each battle's end, so a chart shows the campaign's story and not every command of it.

The measures are each ruleset's own, in its terms, declared in its folder (its plug-in's ``charts``):
morale, strength, treasury and glory, where it keeps them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from campaign.commands import fold_for, plugin, tables_in_force
from campaign.i18n import DEFAULT, _, language
from campaign.plugins import RULESETS, load
from campaign.rulesets.hooks import Charted, Lacking, Measure, Reading
from events.envelope import RecordedEvent
from events.errors import InvalidInputError, Words
from events.recorded import obj
from events.timeline import by_command, effective

if TYPE_CHECKING:
    from campaign.rulesets.command import Overridden
    from campaign.rulesets.tables import RuleTables
    from projections.fold import RulesetFold

AnyMeasure = Measure["Overridden", "RuleTables"]
"""A measure of whichever ruleset a campaign plays, as the chart reads it: of a state and tables that ruleset's
own measures know (the plug-in's ``charts``, loaded by name)."""

MEASURES = ("morale", "strength", "treasury", "glory")


def keeps_days(ruleset: str) -> bool:
    """Whether the ruleset's campaigns keep a day (its plug-in's ``days_pass``: RULES.md §5's calendar, time
    passing by days of rest and march and by battle days, as events); the others are told by their battles."""
    info = RULESETS.get(ruleset)
    return info is not None and info.days_pass


@dataclass(frozen=True)
class Step:
    """A moment of the campaign a chart shows: after the command that ends at ``seq``."""

    seq: int
    label: str
    """What that command did ("attack", "Ruins ends"), in English as ``--json`` keeps it."""
    when: str = ""
    """Where it lies in the campaign's calendar, as an axis says it (:func:`when_words`): "Ruins, day 3"."""
    command: str = ""
    """The command as recorded (``fs.battle_start``), or the event's type where no command was recorded."""
    args: Mapping[str, object] | None = None
    ended: str | None = None
    """The battle that ended in this step."""

    @property
    def said(self) -> str:
        """What the step did, in the reader's language: a battle's end in words, a command as the reader types
        it ("fs battle-start"; the log names it so too)."""
        if language() == DEFAULT or not self.command:
            return self.label
        if self.ended is not None:
            return _("{battle} ends").format(battle=self.ended)
        from campaign.typed_as import typed

        return typed(self.command, self.args)


@dataclass(frozen=True)
class Series:
    name: str
    side: str | None
    values: tuple[int | None, ...]
    """One per step; None where the series has no value (a unit not yet mustered, not in a battle, disbanded)."""


@dataclass(frozen=True)
class Chart:
    campaign: str
    measure: str
    title: str
    axis: str
    """What the values count, for the axis: "grade", "men", "crowns" …"""
    steps: tuple[Step, ...]
    series: tuple[Series, ...]
    levels: tuple[str, ...] = ()
    """For a measure of named levels (grades): the name of value 1, 2, …"""
    ruleset: str = ""
    level_term: str | None = None
    """The seed's term set its levels are values of (``grade``), to say them in the reader's words."""
    named: str = ""
    """The measure's own title ("Treasury"), as recorded in English: ``title`` and ``axis`` stay English for
    ``--json``, and :attr:`said` and :attr:`axis_said` say them in the reader's language when shown."""

    @property
    def said(self) -> str:
        """The title in the reader's language ("Kessel: Казна")."""
        return f"{self.campaign}: {_(self.named)}" if self.named else self.title

    @property
    def levels_said(self) -> tuple[str, ...]:
        """The levels in the reader's words (the seed's own: "Уверенный"), as recorded in English."""
        if language() == DEFAULT or self.level_term is None:
            return self.levels
        from campaign.i18n.terms import shown

        return tuple(shown(self.ruleset, self.level_term, level) for level in self.levels)

    @property
    def axis_said(self) -> str:
        """What the values count, in the reader's language ("модели")."""
        return _(self.axis)

    def points(self, name: str) -> list[tuple[int, int]]:
        """The series called ``name`` as (seq, value) pairs, gaps left out."""
        found = next((s for s in self.series if s.name == name), None)
        if found is None:
            raise KeyError(name)
        return [(step.seq, v) for step, v in zip(self.steps, found.values, strict=True) if v is not None]


def _declared(ruleset: str) -> Mapping[str, AnyMeasure | Lacking]:
    """The ruleset's plug-in's ``charts``: each measure it keeps, or why it keeps none."""
    info = RULESETS.get(ruleset)
    if info is None or info.charts is None:
        return {}
    declared: Mapping[str, AnyMeasure | Lacking] = load(info.charts)
    return declared


def measures_of(ruleset: str) -> Mapping[str, AnyMeasure]:
    """The measures a ruleset keeps (its plug-in's ``charts``), none for a ruleset without them."""
    return {name: m for name, m in _declared(ruleset).items() if isinstance(m, Measure)}


def measure_for(ruleset: str, measure: str) -> AnyMeasure:
    """The measure as this ruleset keeps it; refused in words when the ruleset has none."""
    if measure not in MEASURES:
        raise InvalidInputError.saying(
            "no chart called {measure}: charts are {charts}", measure=repr(measure), charts=", ".join(MEASURES)
        )
    declared = _declared(ruleset)
    found = declared.get(measure)
    if not isinstance(found, Measure):
        # a ruleset's reason is marked for the catalogs where it is declared (N_): said here in the same language
        why = (
            Words(found.why)
            if isinstance(found, Lacking)
            else Words("{ruleset} has no {measure} measure", ruleset=ruleset, measure=measure)
        )
        kept = ", ".join(m for m in MEASURES if isinstance(declared.get(m), Measure))
        raise InvalidInputError.saying(
            "no {measure} chart for a {ruleset} campaign: {why}. Charts it has: {kept}",
            measure=measure,
            ruleset=ruleset,
            why=why,
            kept=kept,
        )
    return found


# -- folding the log into steps ------------------------------------------------------------------------------


def _label(group: Sequence[RecordedEvent], battle_names: dict[str, str]) -> tuple[str, bool]:
    """Words for a step, and whether a battle ended in it."""
    for event in group:
        if event.type == "battle.ended":
            name = battle_names.get(str(event.payload.get("battle_id")), "the battle")
            return f"{name} ends", True
    issued = group[0]
    if issued.type != "timeline.command_issued":
        return issued.type.partition(".")[2].replace("_", " "), False
    return str(issued.payload["command"]).partition(".")[2].replace("_", " "), False


def _step(seq: int, label: str, when: str, group: Sequence[RecordedEvent], ended: str | None) -> Step:
    issued = group[0]
    if issued.type != "timeline.command_issued":
        return Step(seq, label, when, issued.type, None, ended)
    return Step(seq, label, when, str(issued.payload["command"]), dict(obj(issued.payload.get("args") or {})), ended)


def when_words(day: int | None, battle: str | None = None, *, ended: bool = False, after: str | None = None) -> str:
    """A moment in the campaign's calendar, as short as an axis needs: the battle being fought ("Ruins"), or at
    its end ("end of Ruins"), with the campaign's day where its ruleset keeps one ("Ruins, day 3", "day 16");
    between battles of a ruleset without days, the battle fought last ("after Ruins", "before the first battle").
    ``day`` is None for a ruleset without days."""
    if battle is not None:
        where = _("end of {battle}").format(battle=battle) if ended else battle
    elif day is None:
        where = _("after {battle}").format(battle=after) if after else _("before the first battle")
    else:
        where = ""
    return ", ".join(part for part in (where, day_words(day)) if part)


def day_words(day: int | None) -> str:
    """The campaign's day on an axis ("day 16"); nothing for a ruleset without days."""
    return "" if day is None else _("day {day}").format(day=day)


def _day(ruleset: str, state: object) -> int | None:
    day = getattr(state, "day", None)
    return day if keeps_days(ruleset) and isinstance(day, int) else None


def _matches(reading: Reading, only: str | None) -> bool:
    if only is None:
        return True
    wanted = only.strip().casefold()
    return wanted in (reading.name.casefold(), (reading.side or "").casefold())


def chart(campaign: str, ruleset: str, events: Iterable[RecordedEvent], measure: str, only: str | None = None) -> Chart:
    """The chart of ``measure`` for a campaign's log; ``only`` keeps one unit, side or officer (by name)."""
    how = measure_for(ruleset, measure)
    fold = fold_for(ruleset)
    assert fold is not None  # measure_for knows only rulesets
    state = fold.initial()
    battle_names: dict[str, str] = {}
    steps: list[Step] = []
    rows: list[dict[str, int]] = []
    names: dict[str, tuple[str, str | None]] = {}
    seen_any: set[str] = set()
    fighting: str | None = None
    fought_last: str | None = None
    for group in by_command(effective(events)):
        ended: str | None = None
        for event in group:
            if event.type == "battle.started":
                battle_names[str(event.payload["battle_id"])] = fighting = str(event.payload["name"])
            elif event.type == "battle.ended":
                ended = battle_names.get(str(event.payload.get("battle_id")), fighting)
            state = fold.apply(state, event)
        seen = _charted(ruleset, fold, state)
        every = how.read(seen)
        readings = [r for r in every if _matches(r, only)]
        seen_any.update(r.name for r in every)
        row = {r.key: r.value for r in readings}
        for r in readings:
            names.setdefault(r.key, (r.name, r.side))
        label, battle_end = _label(group, battle_names)
        if row and (battle_end or not rows or row != rows[-1]):
            when = when_words(_day(ruleset, state), ended or fighting, ended=ended is not None, after=fought_last)
            steps.append(_step(group[-1].seq, label, when, group, ended if battle_end else None))
            rows.append(row)
        if ended is not None:
            fighting, fought_last = None, ended
    if only is not None and not names:
        known: str | Words = ", ".join(sorted(seen_any)) or Words("none yet")
        raise InvalidInputError.saying(
            "no unit, side or officer called {name} has a {measure} here (known: {known})",
            name=repr(only),
            measure=measure,
            known=known,
        )
    if not rows:
        raise InvalidInputError(
            _("nothing to chart yet: no {what} has been recorded in {campaign}").format(
                what=_(how.title).lower(), campaign=campaign
            )
        )
    shown = _display_names(names)
    series = tuple(Series(shown[key], names[key][1], tuple(row.get(key) for row in rows)) for key in names)
    levels = how.levels(_charted(ruleset, fold, state)) if how.levels is not None else ()
    title = f"{campaign}: {how.title}"
    return Chart(
        campaign, measure, title, how.axis, tuple(steps), series, levels,
        named=how.title, ruleset=ruleset, level_term=how.level_term,
    )  # fmt: skip


def _charted(ruleset: str, fold: RulesetFold[Overridden], state: Overridden) -> Charted[Overridden, RuleTables]:
    """The campaign after a command as a measure reads it; its tables in force worked out if a measure asks."""
    return Charted(state, fold, lambda: tables_in_force(plugin(ruleset), state.overrides))


def _display_names(names: dict[str, tuple[str, str | None]]) -> dict[str, str]:
    """Each series' name; names shared by several units are told apart by their side, then by a number."""
    counts: dict[str, int] = {}
    for name, _side in names.values():
        counts[name] = counts.get(name, 0) + 1
    shown: dict[str, str] = {}
    used: set[str] = set()
    for key, (name, side) in names.items():
        label = name if counts[name] == 1 else f"{name} ({side})" if side else name
        base, n = label, 2
        while label in used:
            label, n = f"{base} #{n}", n + 1
        used.add(label)
        shown[key] = label
    return shown

"""A campaign's log read as its story: the battles in order, each with its sides, result and winner, casualties,
the morale turns, careers and money, what happened between them, the rolls disputed and the commands amended or
taken back with their reasons, and the charts. Told in the campaign's calendar (its days and months where its
ruleset counts them, its battles in every ruleset), never in the log's seqs.

What the story says comes from the recorded facts and the rules' own explanations (``campaign.read.describe``), by
their event families: a casualty is a unit's loss in any ruleset (men killed, models lost, dead and wounded), a
morale turn any change of morale state (a grade, Shaken, disorder, a force's morale, a unit's fate), a career
any ``career.`` fact. So every ruleset's campaign is told alike.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from campaign.i18n import N_, _
from campaign.read.describe import (
    command_line,
    count,
    describe,
    label,
    money,
    reading_campaign,
    result_said,
    unit_names,
    value,
)
from campaign.rulesets import RULESETS
from events.envelope import RecordedEvent
from events.recorded import JsonObject, obj, whole
from events.recorded import seq as array
from events.timeline import REWOUND, by_command, effective

if TYPE_CHECKING:
    from campaign.read import charts
    from events.store import EventStore
    from projections.fold import RowValue, RulesetFold, SummaryRow
    from projections.state.campaigns import CampaignInfo

MORALE = frozenset(
    {
        "morale.grade_changed",
        "morale.shaken_changed",
        "morale.disorder_changed",
        "morale.panic_changed",
        "morale.last_stand_changed",
        "battle.force_morale",
        "battle.unit_fate",
    }
)
"""Facts that are a turn of a unit's (or a force's) morale."""
QUIET = frozenset(
    {
        "timeline.command_issued",
        "dice.rolled",
        "battle.started",
        "battle.ended",
        "battle.unit_deployed",
        "battle.turn_began",
        "battle.unit_activated",
        "battle.kill_credited",
        "battle.wounded_checked",
        "battle.suppression_changed",
        "battle.position_changed",
        "battle.activation_lost",
        "roster.unit_listed",
        "roster.join_planned",
        "morale.action_failed",
        "morale.rally_attempted",
        "economy.pay_settled",
        "dice.seed_committed",
        "dice.seed_revealed",
        "dice.share_committed",
        "dice.set_aside",
        "dice.corrected",
        "membership.granted",
        "membership.removed",
        "campaign.created",
    }
)
"""Facts the story does not tell one by one (the battle's own lines, the dice, the record keeping)."""
SECTIONS = (
    N_("How it went"), N_("Casualties"), N_("Morale"), N_("Careers"), N_("Roster"), N_("Time"),
    N_("Pay and treasury"), N_("House rules"),
)  # fmt: skip
"""The sections of a chapter, in order; their names are keys, translated where they are shown."""
S = TypeVar("S")
"""The state of the campaign's ruleset, as its fold makes it."""

_AMEND = re.compile(r"^amend of seq (\d+)(.*)$")
_UNDO = re.compile(r"^undo of (.+) \(#(\d+)[–-]#(\d+)\)$")
_TAKEN_BACK = {
    "amend": N_("the amendment at #{seq} was taken back"),
    "undo": N_("the undo at #{seq} was taken back"),
    "rewind": N_("the rewind at #{seq} was taken back"),
}
"""An undo of one of the timeline's own commands (its first event is a rewind, not a command), by what it undid."""


@dataclass
class Chapter:
    """A battle, or the time between two battles (before the first, after the last)."""

    title: str
    battle_id: str | None = None
    battle_name: str = ""
    number: int = 0
    first: str = ""
    last: str = ""
    """The calendar at its start and at its end ("day 3"; empty where the ruleset counts no days)."""
    sides: list[str] = field(default_factory=list)
    result: str | None = None
    sections: dict[str, list[str]] = field(default_factory=dict)
    treasury: dict[str, int] = field(default_factory=dict)
    """Each side's treasury (or campaign points) at its end."""
    losses: dict[str, dict[str, int]] = field(default_factory=dict, repr=False)
    xp: dict[str, int] = field(default_factory=dict, repr=False)
    mustered: dict[tuple[str, str], list[str]] = field(default_factory=dict, repr=False)

    def add(self, section: str, line: str) -> None:
        self.sections.setdefault(section, []).append(line)

    @property
    def when(self) -> str:
        if not self.first:
            return ""
        if self.first == self.last or not self.last:
            return self.first
        return _("{first} to {last}").format(first=self.first, last=self.last)

    @property
    def empty(self) -> bool:
        return self.battle_id is None and not any(self.sections.values())


@dataclass(frozen=True)
class Dispute:
    when: str
    what: str
    text: str


@dataclass(frozen=True)
class Chart:
    """A chart as ``campaign chart`` draws it (``drawn``), named for the report: its title without the
    campaign's name (the report's heading says it), its steps by their place in the calendar."""

    drawn: charts.Chart

    @property
    def title(self) -> str:
        return _(self.drawn.named) if self.drawn.named else self.drawn.title

    @property
    def axis(self) -> str:
        return self.drawn.axis_said

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(step.when for step in self.drawn.steps)

    @property
    def series(self) -> tuple[tuple[str, tuple[int | None, ...]], ...]:
        return tuple((s.name, s.values) for s in self.drawn.series)

    @property
    def levels(self) -> tuple[str, ...]:
        return self.drawn.levels


@dataclass
class Report:
    name: str
    ruleset: str
    ruleset_title: str
    head_hash: str
    chapters: list[Chapter]
    disputes: list[Dispute]
    roster_columns: list[str]
    roster: Sequence[SummaryRow]
    careers: Sequence[SummaryRow]
    treasury: dict[str, int]
    charts: list[Chart] = field(default_factory=list)
    money_word: str = "money"

    @property
    def battles(self) -> list[Chapter]:
        return [c for c in self.chapters if c.battle_id is not None]


def campaign_report(store: EventStore, info: CampaignInfo, *, charts: bool = True) -> Report:
    """The story of ``info``'s campaign as its log holds it now."""
    events = list(store.read(info.campaign_id))
    return story(info.name, info.ruleset, events, head_hash=info.head_hash, charts=charts)


def story(
    name: str, ruleset: str, events: Sequence[RecordedEvent], *, head_hash: str = "", charts: bool = True
) -> Report:
    """The story of a campaign's log (pure: no store, no clock)."""
    from campaign.commands import fold_for
    from campaign.read.views import STATUS_COLUMNS

    fold = fold_for(ruleset)
    if fold is None:
        raise ValueError(f"{ruleset!r} is not a ruleset this program knows")
    names = unit_names(events)
    teller = _Teller(ruleset, names, fold)
    with reading_campaign(ruleset):  # an event an amendment re-ran says the ruleset's words, as its first run did
        for group in by_command(effective(events)):
            teller.command(group)
        teller.close()
    summary = fold.summary(teller.state)
    columns = [c for c in STATUS_COLUMNS if any(u.get(c) not in (None, False, []) for u in summary.units)]
    info = RULESETS.get(ruleset)
    report = Report(
        name=name,
        ruleset=ruleset,
        # its game's name, as the reader's catalog says its title (before a colon, where it has one)
        ruleset_title=_(info.title).partition(":")[0] if info is not None else ruleset,
        head_hash=head_hash,
        chapters=[c for c in teller.chapters if not c.empty],
        disputes=_disputes(events, teller.when_at, names),
        roster_columns=columns,
        roster=summary.units,
        careers=[{k: _named(v, names) for k, v in c.items()} for c in summary.careers],
        treasury=dict(summary.treasury),
        money_word=info.money_word if info is not None else "money",
    )
    if charts:
        report.charts = _charts(name, ruleset, events)
    return report


class _Teller(Generic[S]):
    """Folds the log command by command, telling each into the chapter it belongs to."""

    def __init__(self, ruleset: str, names: Mapping[str, str], fold: RulesetFold[S]) -> None:
        self.ruleset = ruleset
        self.names = names
        self.fold = fold
        self.state = fold.initial()
        self.chapters: list[Chapter] = [Chapter(_("Before the first battle"))]
        self.battles: dict[str, Chapter] = {}
        self.when_at: dict[int, str] = {}
        """The calendar at each seq in effect (what a dispute about it says)."""
        info = RULESETS.get(ruleset)
        self.men_word = info.counts if info is not None else "models"
        self.days_pass = info is not None and info.days_pass

    @property
    def calendar(self) -> str:
        day = getattr(self.state, "day", None)
        if self.days_pass and isinstance(day, int):
            month = getattr(self.state, "month", None)
            if isinstance(month, int):
                return _("day {day}, month {month}").format(day=day, month=month + 1)
            return _("day {day}").format(day=day)
        return ""

    def command(self, group: list[RecordedEvent]) -> None:
        battle_id = next((str(e.payload["battle_id"]) for e in group if e.payload.get("battle_id")), None)
        if battle_id is not None and battle_id not in self.battles and any(e.type == "battle.started" for e in group):
            started = next(e for e in group if e.type == "battle.started")
            chapter = Chapter(
                _("Battle {n}: {name}").format(n=len(self.battles) + 1, name=started.payload["name"]),
                battle_id=battle_id,
                battle_name=str(started.payload["name"]),
                number=len(self.battles) + 1,
            )
            self.battles[battle_id] = chapter
            self.chapters.append(chapter)
        found = self.battles.get(battle_id) if battle_id is not None else None
        chapter = found if found is not None else self.chapters[-1]
        if found is None and chapter.battle_id is not None and chapter.result is not None:
            chapter = Chapter(_("After {battle}").format(battle=chapter.battle_name))
            self.chapters.append(chapter)
        before = self.calendar
        for event in group:
            self.state = self.fold.apply(self.state, event)
        now = self.calendar
        chapter.first = chapter.first or before
        chapter.last = now
        for event in group:
            self.when_at[event.seq] = self._when(chapter, now)
        self._tell(chapter, group)
        chapter.treasury = dict(getattr(self.state, "treasury", {}) or {})

    def _when(self, chapter: Chapter, calendar: str) -> str:
        """Where a moment lies, in words: its chapter ("Battle 2: Ruins", "after Ruins"), and its day."""
        where = chapter.title if chapter.battle_id is not None else chapter.title[0].lower() + chapter.title[1:]
        return f"{where}, {calendar}" if calendar else where

    def _tell(self, chapter: Chapter, group: list[RecordedEvent]) -> None:
        """One command's events into ``chapter``: a rule by its explanation where it tells a turn of the story
        (a battle's course, a morale turn, a career, pay), every other fact by itself, losses and XP summed."""
        from campaign.read.describe import dice_of, explained_by

        covered = explained_by(group)
        rolls, faces = dice_of(group)
        told: set[int] = set()
        in_battle = chapter.battle_id is not None
        for rule in (e for e in group if e.type == "rules.applied"):
            p = rule.payload
            # as the log says it (rows by name, money with separators), in the reader's language where its rule
            # has a renderer (the recorded English sentence otherwise)
            said = describe(rule, self.names, rolls, faces)
            facts = [e for e in group if covered.get(e.seq) == rule.seq]
            kinds = {f.type for f in facts}
            money_only = bool(kinds) and all(k in _MONEY for k in kinds)
            if p["rule"] in _ROUTINE:
                continue
            if "pc" in obj(p.get("inputs") or {}):  # a player character's roll: his career
                chapter.add("Careers", said)
                told |= {f.seq for f in facts}
            elif _paying(str(p["rule"])):
                chapter.add("Pay and treasury", said)
                told |= {f.seq for f in facts if f.type in _MONEY}
            elif any(k.startswith("career.") and k != "career.xp_gained" for k in kinds):
                chapter.add("Careers", said)
                told |= {f.seq for f in facts if f.type.startswith("career.") and f.type != "career.xp_gained"}
            elif in_battle and p.get("unit_id") is None:
                chapter.add("Pay and treasury" if money_only else "How it went", said)
                told |= {f.seq for f in facts if money_only}
            elif any(f.type in MORALE and not _steady(f) for f in facts):
                chapter.add("Morale", said)
                told |= {f.seq for f in facts if f.type in MORALE}
            elif kinds & _MONEY and not in_battle:
                chapter.add("Pay and treasury", said)
                told |= {f.seq for f in facts if f.type in _MONEY}
            elif not in_battle and not facts:
                chapter.add("Roster", said)
        issued = group[0] if group[0].type == "timeline.command_issued" else None
        args = dict(obj(issued.payload["args"])) if issued is not None else {}
        source = (
            f"the {args.get('source')} list “{args.get('list_name')}”"
            if issued is not None and str(issued.payload["command"]).endswith(".import_list")
            else ""
        )
        for event in group:
            if event.seq in told or event.type in QUIET or event.type == "rules.applied":
                self._notable(chapter, event)
                continue
            self._fact(chapter, event, source)

    def _notable(self, chapter: Chapter, event: RecordedEvent) -> None:
        """What a quiet fact still tells: a battle's sides and result."""
        p = event.payload
        if event.type == "battle.started" and chapter.battle_id is not None and not chapter.sides:
            chapter.sides = [str(s) for s in array(p["sides"])]
        elif event.type == "battle.ended" and chapter.battle_id is not None:
            recorded, winner = str(p["result"]), p.get("winner")
            # in the reader's words, as the log and `campaign battles` say it (the winner once: a result
            # recorded as "won by SIDE" names it)
            result = result_said(recorded, winner, self.ruleset)
            chapter.result = (
                _("won by {side} ({result})").format(side=winner, result=result)
                if winner and str(winner) not in recorded
                else result
            )

    def _fact(self, chapter: Chapter, event: RecordedEvent, source: str) -> None:
        p = event.payload
        kind = event.type
        said = describe(event, self.names)
        if kind in MORALE:
            if not _steady(event):
                chapter.add("Morale", said)
        elif kind in _LOSSES:
            loss = chapter.losses.setdefault(str(p["unit_id"]), {})
            for key, value in _losses(kind, p).items():
                loss[key] = loss.get(key, 0) + value
        elif kind == "battle.unit_removed" or (kind == "roster.unit_disbanded" and chapter.battle_id is not None):
            chapter.add("Casualties", said)
        elif kind == "career.xp_gained":
            unit = self.names.get(str(p["unit_id"]), "a unit")
            chapter.xp[unit] = chapter.xp.get(unit, 0) + whole(p["xp"])
        elif kind.startswith("career."):
            chapter.add("Careers", said)
        elif kind == "roster.unit_mustered":
            chapter.mustered.setdefault((str(p["side"]), source), []).append(str(p["name"]))
        elif kind in _MONEY:
            chapter.add("Pay and treasury", said)
        elif kind == "rules.table_overridden":
            chapter.add("House rules", said)
        elif kind.startswith("calendar."):
            chapter.add("Time", said)
        else:
            chapter.add("How it went" if chapter.battle_id is not None else "Roster", said)

    def close(self) -> None:
        """Each chapter's sums told (losses, XP, units mustered), and a battle not ended said so."""
        for chapter in self.chapters:
            for unit_id, loss in chapter.losses.items():
                said = _loss_words(loss, self.men_word)
                if said:
                    unit = self.names.get(unit_id) or _("a unit")
                    chapter.add("Casualties", f"{unit}: {said}")
            if chapter.xp:
                gained = ", ".join(f"{u} {x:+d}" for u, x in chapter.xp.items())
                chapter.add("Careers", _("XP gained: {gains}").format(gains=gained))
            for (side, source), units in chapter.mustered.items():
                said = _("mustered for {side} from {source}: {units}") if source else _("mustered for {side}: {units}")
                chapter.add("Roster", said.format(side=side, source=source, units=", ".join(units)))
        if self.chapters and self.chapters[-1].battle_id is not None and self.chapters[-1].result is None:
            self.chapters[-1].result = _("still being fought")


_MONEY = frozenset({"economy.funds_changed", "battle.victory_points", "economy.pay_settled"})
_LOSSES = frozenset({"battle.attack_resolved", "battle.models_lost", "battle.wounds_taken", "battle.casualties_taken"})
_ROUTINE = frozenset({"troop_quality"})


def _paying(rule: str) -> bool:
    """A rule of pay (a payday, an unpaid day, upkeep): told under pay and treasury."""
    return any(word in rule for word in ("pay", "upkeep"))


def _steady(event: RecordedEvent) -> bool:
    """A morale fact that is no turn: a unit that holds its ground, a Shaken unit that recovers."""
    p = event.payload
    if event.type == "battle.unit_fate":
        return str(p.get("fate")) == "holds"
    if event.type == "morale.shaken_changed":
        return not p.get("shaken")
    return False


def _losses(kind: str, p: JsonObject) -> dict[str, int]:
    if kind == "battle.attack_resolved":
        return {"killed": whole(p.get("killed", 0)), "wounded": whole(p.get("wounded", 0))}
    if kind == "battle.models_lost":
        return {"lost": whole(p.get("count", 0))}
    if kind == "battle.wounds_taken":
        return {"lost": whole(p.get("models_lost", 0) or 0), "wounds": whole(p.get("wounds", 0))}
    return {"dead": whole(p.get("dead", 0)), "wounded": whole(p.get("wounded", 0))}


def _loss_words(loss: Mapping[str, int], men: str) -> str:
    parts = []
    if loss.get("killed"):
        parts.append(_("{men} killed").format(men=count(loss["killed"], men)))
    if loss.get("dead"):
        parts.append(_("{n} dead").format(n=loss["dead"]))
    if loss.get("lost"):
        parts.append(_("{men} lost").format(men=count(loss["lost"], men)))
    if loss.get("wounded"):
        parts.append(_("{n} wounded").format(n=loss["wounded"]))
    if loss.get("wounds") and not loss.get("lost"):
        parts.append(_("{wounds} taken, no model lost").format(wounds=count(loss["wounds"], "wounds")))
    return ", ".join(parts)


def _disputes(events: Sequence[RecordedEvent], when_at: Mapping[int, str], names: Mapping[str, str]) -> list[Dispute]:
    """The rolls rerolled or corrected, and the commands amended, undone or rewound, each with its reason and when
    it was entered, in the order they were recorded."""
    by_seq = {e.seq: e for e in events}
    issued = [e for e in events if e.type == "timeline.command_issued"]

    def when(seq: int) -> str:
        known = [s for s in when_at if s <= seq]
        return when_at[max(known)] if known else _("before the first battle")

    def command_at(seq: int) -> RecordedEvent | None:
        before = [e for e in issued if e.seq <= seq]
        return before[-1] if before else None

    def said(command: RecordedEvent | None) -> str:
        if command is None or "command" not in command.payload:
            return _("a command")
        return command_line(str(command.payload["command"]), dict(obj(command.payload["args"])), names)

    out: list[Dispute] = []
    for event in events:
        p = event.payload
        if event.type == "dice.set_aside":
            out.append(
                Dispute(
                    when(event.seq),
                    _("reroll"),
                    _("a die left on the table was rerolled: {reason}").format(reason=p["reason"]),
                )
            )
        elif event.type == "dice.corrected":
            before = ", ".join(map(str, array(p["faces_before"])))
            after = ", ".join(map(str, array(p["faces"])))
            out.append(
                Dispute(
                    when(event.seq),
                    _("table dice corrected"),
                    _("the {notation} of {command} read {before}; {by} corrected it to {after}: {reason}").format(
                        notation=p["notation"],
                        command=said(by_seq.get(whole(p["amends"]))),
                        before=before,
                        by=p["by"],
                        after=after,
                        reason=p["reason"],
                    ),
                )
            )
        elif event.type == REWOUND:
            reason = str(p["reason"])
            amend = _AMEND.match(reason)
            undo = _UNDO.match(reason)
            if amend:
                original = command_at(int(amend.group(1)))
                redone = next(
                    (e for e in issued if e.seq > event.seq and e.payload.get("amends") == int(amend.group(1))), None
                )
                changes = _changed(original, redone, names)
                why = amend.group(2).strip(" :()") or _("no reason given")
                text = _("{command} was amended: {changes} ({why})") if changes else _("{command} was amended ({why})")
                out.append(
                    Dispute(
                        when(int(amend.group(1))),
                        _("amendment"),
                        text.format(command=said(original), changes=changes, why=why),
                    )
                )
            elif undo:
                first = int(undo.group(2))
                target = by_seq.get(first)
                kind = undo.group(1)
                if (
                    target is not None and target.type == REWOUND and kind in _TAKEN_BACK
                ):  # an undo of the timeline's own
                    text = _(_TAKEN_BACK[kind]).format(seq=first)
                else:
                    text = _("{command} was taken back").format(command=said(target))
                out.append(Dispute(when(first), _("undo"), text))
            elif reason != "re-evaluation":
                taken = [e for e in issued if whole(p["to_seq"]) < e.seq < event.seq]
                what = "; ".join(said(c) for c in taken[:5])
                if len(taken) > 5:
                    what = _("{commands} and {n} more").format(commands=what, n=len(taken) - 5)
                text = (_("rewound: {reason} — taken back: {commands}") if what else _("rewound: {reason}")).format(
                    reason=reason, commands=what
                )
                out.append(Dispute(when(whole(p["to_seq"])), _("rewind"), text))
    return out


def _changed(original: RecordedEvent | None, redone: RecordedEvent | None, names: Mapping[str, str]) -> str:
    """What an amendment changed in a command's inputs, in words: a field by its name, a profile or a set-up by
    the fields of it that changed (one left out on one side and empty on the other is no change)."""
    if original is None or redone is None:
        return ""
    before, after = dict(obj(original.payload["args"])), dict(obj(redone.payload["args"]))
    said: list[str] = []
    for k in sorted(set(before) | set(after)):
        was, now = before.get(k), after.get(k)
        if isinstance(was, dict) and isinstance(now, dict):
            said += [
                f"{label(str(f))} {_plain(was.get(f), names)} → {_plain(now.get(f), names)}"
                for f in sorted(set(was) | set(now))
                if _differ(was.get(f), now.get(f))
            ]
        elif _differ(was, now):
            said.append(f"{label(k)} {_plain(was, names)} → {_plain(now, names)}")
    return ", ".join(said)


def _differ(was: object, now: object) -> bool:
    return was != now and not (was in _EMPTY and now in _EMPTY)


_EMPTY: tuple[object, ...] = (None, False, "", [], {})


def _named(value: RowValue, names: Mapping[str, str]) -> RowValue:
    """A recorded value with the ids in it (a career's battles) as the names they stand for."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_named(v, names) for v in value]
    return value


def _plain(v: object, names: Mapping[str, str]) -> str:
    if isinstance(v, str):
        return names.get(v, v)
    if isinstance(v, int) and not isinstance(v, bool):
        return money(v)
    return _("none") if v is None else value(v)


def _charts(name: str, ruleset: str, events: Sequence[RecordedEvent]) -> list[Chart]:
    """Each chart the ruleset keeps, its steps named in the campaign's calendar as ``campaign chart`` names them
    ("Hill 203, day 3", "end of Hill 203, day 3", "day 7"; "after Ruins" where the ruleset counts no days)."""
    from campaign.read.charts import MEASURES, chart, measures_of
    from events.errors import InvalidInputError

    out: list[Chart] = []
    for measure in MEASURES:
        if measure not in measures_of(ruleset):
            continue
        try:
            drawn = chart(name, ruleset, events, measure)
        except InvalidInputError:
            continue  # nothing recorded for it yet
        out.append(Chart(drawn))
    return out

"""One line a person can read for each event: what the log view and command output print."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from campaign.typed_as import typed
from events.envelope import RecordedEvent

ROLE_WORDS = {"gm": "game master", "player": "player", "observer": "observer"}


_SNAKE = re.compile(r"(?<![\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b(?!\.\w)")
"""A row or option name in snake case, not a segment of a table path (``campaign.exhausted_window_days`` is
typed, and shown, as it is)."""
_SETTING = re.compile(r"^[\w.]+=\S+$")
_PLURALS = {"men": "man", "models": "model", "battles": "battle", "wounds": "wound", "days": "day", "units": "unit"}


def words(text: str) -> str:
    """Row and option names as a person writes them: ``minor_victory`` → "minor victory"; a table path stays as
    it is typed."""
    return _SNAKE.sub(lambda m: m.group(0).replace("_", " "), text)


def kind(event_type: str) -> str:
    """An event's type in words: ``battle.unit_deployed`` → "battle · unit deployed"."""
    family, _, name = event_type.partition(".")
    return f"{family} · {name.replace('_', ' ')}"


def count(n: int, noun: str) -> str:
    """``n`` of a plural ``noun``, in the singular for one: "1 man", "3 men"."""
    return f"{n} {_PLURALS.get(noun, noun.removesuffix('s')) if n == 1 else noun}"


_MODELS_KEYS = frozenset({"start_size", "troops"})
"""A deployment whose state holds one of these counts models, not men (Grimdark Future, disorder markers)."""


def value(v: Any) -> str:
    """A recorded value in words: lists joined, a mapping as "key value" pairs, no Python reprs."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, dict):
        return ", ".join(f"{words(str(k))} {value(x)}" for k, x in v.items() if x not in (None, False, "", [], {}))
    if isinstance(v, list | tuple):
        if v and all(isinstance(x, list | tuple) for x in v):  # a table's rows: "0 no clear winner; 4 …"
            return "; ".join(" ".join(value(y) for y in x) for x in v)
        return ", ".join(value(x) for x in v) or "none"
    if isinstance(v, str) and _SETTING.match(v):  # a house rule's path=value, as the tables name it
        path, _, setting = v.partition("=")
        return f"{path} set to {setting}"
    return words(str(v))


def facts(p: Mapping[str, Any], names: Mapping[str, str], skip: Iterable[str] = ()) -> str:
    """The fields of a payload as "key value" words: flags by name alone, ids by the name they stand for,
    nothing for what is empty or unknown."""
    out = []
    for k, v in p.items():
        if k == "value" and isinstance(v, bool) and k not in skip:  # a setting's value (house-rule), not a flag
            out.append(f"value {'true' if v else 'false'}")
            continue
        if k in skip or v in (None, False, "", [], {}):
            continue
        if k.endswith("_id"):
            if isinstance(v, str) and v in names:
                out.append(f"{words(k[:-3])} {names[v]}")
            continue
        shown = names.get(v, value(v)) if isinstance(v, str) else value(v)
        out.append(words(k) if v is True else f"{words(k)} {shown}")
    return ", ".join(out)


def unit_names(events: Iterable[RecordedEvent]) -> dict[str, str]:
    """Unit and battle ids → names, from the roster and battle events of a log."""
    names: dict[str, str] = {}
    for e in events:
        if e.type == "roster.unit_mustered":
            names[e.payload["unit_id"]] = e.payload["name"]
        elif e.type == "battle.started":
            names[e.payload["battle_id"]] = e.payload["name"]
    return names


def describe(event: RecordedEvent, names: Mapping[str, str] | None = None) -> str:
    """The event in words, its units and battles by name (an id never shows: one not on the roster reads as
    such)."""
    return words(_describe(event, names or {}))


SAID: dict[str, str] = {
    "dice.seed_revealed": "seed of epoch {epoch} revealed: every roll made with it can now be checked",
    "timeline.rewound": "rewound to seq {to_seq}: {reason} (later events kept, retracted)",
    "roster.unit_disbanded": "{unit_id} disbanded: {reason}",
    "morale.grade_changed": "{unit_id}: {from_grade} → {to_grade}",
    "battle.unit_removed": "{unit_id} leaves the battle: {reason}",
    "battle.turn_began": "turn {turn} begins",
    "morale.action_failed": "{unit_id} may not try {action} again this turn",
    "morale.panic_changed": "{unit_id}: {panic}",
    "morale.rally_attempted": "{officer_id} spends a rally action on {unit_id}",
    "battle.officer_removed": "{side}'s officer is removed from play",
    "career.glory_awarded": "{officer} ({side}) gains {glory:+d} Glory",
    "career.rank_reached": "{officer} reaches the rank of {rank} ({glory} Glory)",
    "battle.victory_points": "{points} VP to {side}",
    "economy.funds_changed": "{side}: {amount:+d} ({reason})",
    "career.xp_gained": "{unit_id} gains {xp} XP",
    "battle.casualties_taken": "{unit_id}: {dead} dead, {wounded} wounded ({percent}%)",
    "battle.unit_fate": "{unit_id} {fate}",
    "battle.wounded_checked": "{unit_id}: {count} wounded checked",
    "campaign.created": "campaign “{name}” created under {ruleset} (dice seed committed: {seed_commitment:.12}…)",
    "dice.seed_committed": "new dice seed committed for epoch {epoch} ({commitment:.12}…)",
    "dice.share_committed": "{by} commits a share of entropy for epoch {epoch} ({commitment:.12}…)",
    "roster.men_transferred": "{men:men} transferred from {from_unit_id} to {to_unit_id}, bringing experience "
    "{experience}",
    "morale.last_stand_changed": "{unit_id}: No step back {active:begins|ends} ({reason})",
    "battle.models_lost": "{unit_id} loses {count:models} ({cause})",
    "morale.shaken_changed": "{unit_id} is {shaken:Shaken|no longer Shaken} ({reason})",
    "battle.kill_credited": "{unit_id} is credited with {victim_id}{victim_hero: (a hero)|}",
    "calendar.wounded_returned": "{unit_id}: {men:men} back from the wounded",
    "economy.troops_recruited": "{unit_id}: {men:men} recruited ({quality}, experience {experience}, cost {cost})",
    "membership.removed": "{account} leaves the campaign{reason:: {reason}|}",
    "rules.table_overridden": "house rule: {path} = {value}{note: ({note})|}",
    "career.officer_appointed": "{officer}{rank: ({rank})|} takes command of {side}",
    "calendar.days_passed": "{days:days} of {activity} {side:for {side}'s units|for every side}{note: ({note})|}",
    "economy.pay_settled": "{unit_id}: paid {paid} of {due}{penalty:, arrears Morale −{penalty}|}",
    "roster.unit_mustered": "{name} mustered for {side} ({profile:facts}){reports_to:, reports to {reports_to}|}",
    "roster.unit_profile_changed": "profile of {unit_id} changed: {profile:facts}",
    "battle.wounds_taken": "{unit_id} takes {wounds:wounds} ({source}{by_unit_id: from {by_unit_id}|})"
    "{models_lost:: {models_lost:models} killed|}",
    "career.trait_gained": "{unit_id} gains the {kind} trait {trait}{points:, {points:+d} pts|}",
}
"""The events told in one sentence of their fields (:class:`_Shown` says how each is written); the others below."""


class _Shown:
    """A recorded field in a sentence of :data:`SAID`, as its format says:

    * none: as recorded; a ``…_id`` (and ``reports_to``) by the name it stands for, "no one" if not recorded;
    * a plural noun: counted, ``{men:men}`` → "1 man", "3 men";
    * ``facts``: a mapping's fields as words (:func:`facts`);
    * ``WHEN SET|WHEN NOT``: the words before the last bar when the field is recorded and not empty, the words
      after it when not; they may hold the field itself: ``{note: ({note})|}``;
    * any of Python's: ``{commitment:.12}``, ``{glory:+d}`` (nothing when the field is not recorded, so that
      ``{points:, {points:+d} pts|}`` reads a missing ``points`` as nothing)."""

    __slots__ = ("name", "names", "recorded")

    def __init__(self, recorded: Any, names: Mapping[str, str], name: str | None) -> None:
        self.recorded = recorded
        self.names = names
        self.name = name

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            when_set, _, when_not = spec.rpartition("|")
            return when_set if self.recorded else when_not
        if self.name is not None:
            return self.name
        if isinstance(self.recorded, bool) and not spec:  # a house rule's setting, as typed: not Python's True
            return "true" if self.recorded else "false"
        if spec in _PLURALS:
            return count(self.recorded, spec)
        if spec == "facts":
            return facts(self.recorded, self.names)
        return "" if self.recorded is None and spec else format(self.recorded, spec)


class _Fields:
    """A payload as a sentence of :data:`SAID` reads it: each field :class:`_Shown`."""

    def __init__(self, payload: Mapping[str, Any], names: Mapping[str, str]) -> None:
        self.payload = payload
        self.names = names

    def __getitem__(self, key: str) -> _Shown:
        named = self.named(key) if key.endswith("_id") or key == "reports_to" else None
        return _Shown(self.payload.get(key), self.names, named)

    def named(self, key: str) -> str:
        """The name of the unit (or battle) the field ``key`` refers to."""
        found = self.payload.get(key)
        return self.names.get(found, "a unit not on the roster") if found else "no one"


def _describe(event: RecordedEvent, names: Mapping[str, str]) -> str:
    p: Mapping[str, Any] = event.payload

    fields = _Fields(p, names)
    n = fields.named

    if "explanation" in p:
        return str(p["explanation"])
    kind = event.type
    if kind == "dice.seed_revealed" and p.get("shares"):
        given = len(p["shares"])
        return (
            f"seed of epoch {p['epoch']} revealed with its {given} share{'s' if given > 1 else ''} of entropy: "
            "every roll made with it can now be checked"
        )
    if kind in SAID:
        return SAID[kind].format_map(fields)
    if kind == "dice.rolled":
        faces = "+".join(str(f) for f in p["faces"])
        source = (
            f"table dice entered by {p['entered_by']}"
            if p["source"] == "table"
            else f"the dice of roll #{p.get('offered_from')}, left on the table"
            if p["source"] == "offered"
            else f"seed epoch {p['seed_epoch']}"
        )
        total = f" = {p['total']}" if len(p["faces"]) > 1 or p["modifier"] else ""
        return f"roll #{p['roll_index']} {p['notation']} for “{p['purpose']}”: {faces}{total} ({source})"
    if kind == "timeline.command_issued":
        # Scalars in full; a profile or a list of deployments only by name (the events after it spell them out).
        args = facts({k: "…" if isinstance(v, dict | list) else v for k, v in p["args"].items()}, names)
        amends = f", amending #{p['amends']}" if p.get("amends") is not None else ""
        return f"command {typed(str(p['command']), p['args'])}" + (f" ({args})" if args else "") + amends
    if kind == "membership.granted":
        sides = f" for {', '.join(p['sides'])}" if p.get("sides") else ""
        return f"{p['account']} joins as {ROLE_WORDS.get(p['role'], p['role'])}{sides}"
    if kind == "battle.started":
        settings = "; ".join(f"{side} {facts(s, names)}" if s else str(side) for side, s in p["settings"].items())
        return f"battle “{p['name']}” begins: {settings}"
    if kind == "battle.unit_deployed":
        state = facts(p["state"], names)
        # Grimdark and disorder count models (their deployments record a start size or troops), the others men.
        noun = "models" if _MODELS_KEYS & p["state"].keys() else "men"
        return f"{n('unit_id')} deployed for {p['side']}: {count(p['men'], noun)}" + (f", {state}" if state else "")
    if kind == "battle.attack_resolved":
        extras = [
            w
            for w, on in (
                ("suppressed", p["suppressing"]),
                ("artillery", p["artillery"]),
                ("leader hit", p["leader_hit"]),
            )
            if on
        ]
        return f"{n('unit_id')}: {p['killed']} killed, {p['wounded']} wounded" + (
            f" ({', '.join(extras)})" if extras else ""
        )
    if kind == "battle.ended":
        winner = p.get("winner")
        shown = f" (winner {winner})" if winner and str(winner) not in str(p["result"]) else ""
        return f"battle {n('battle_id')} ends: {p['result']}{shown}"
    if kind == "morale.disorder_changed":
        total = p["markers"] + p["permanent"]
        permanent = " (one permanent)" if p["permanent"] else ""
        return f"{n('unit_id')}: {total} disorder marker{'s' if total != 1 else ''}{permanent}, {p['reason']}"
    if kind == "battle.force_morale":
        what = "every unit tests once" if p["status"] == "half" else "its remaining units flee"
        return f"{p['side']}'s force has lost {p['lost_points']} points: {what}"
    if kind == "calendar.month_ended":
        return f"month {p['month'] + 1} of the campaign ends"
    if kind == "career.pc_wounded":
        wounds = " + ".join(str(w) for w in p.get("wounds", []))
        return f"{p['pc']} takes {p['damage']} damage" + (f" ({wounds})" if len(p.get("wounds", [])) > 1 else "")
    if kind == "morale.modifier_set":
        who = n("unit_id") if p.get("unit_id") else p.get("side", "every side")
        until = f" until {p['until']}" if p.get("until") else ""
        return f"Morale modifier {p['value']:+d} for {who} ({p['name']}){until}"
    what = kind.split(".", 1)[1].replace("_", " ")
    if "unit_id" in p:
        rest = facts(p, names, skip=("battle_id", "unit_id"))
        return f"{n('unit_id')}: {what}" + (f" ({rest})" if rest else "")
    rest = facts(p, names, skip=("battle_id",))
    return what + (f": {rest}" if rest else "")


RESTATED = frozenset(
    {
        "battle.attack_resolved",
        "battle.casualties_taken",
        "battle.models_lost",
        "battle.unit_fate",
        "career.pc_wounded",
        "career.xp_gained",
        "economy.pay_settled",
        "morale.action_failed",
        "morale.disorder_changed",
        "morale.grade_changed",
        "morale.shaken_changed",
    }
)
"""Outcome events whose fact the rule application beside them already states in its explanation."""


def explained_by(events: Iterable[RecordedEvent]) -> dict[int, int]:
    """Each outcome event → the seq of the rule application, in the same command, that already says it.

    A view for a person prints the explanation and leaves the outcome out, so each fact is printed once. Pay
    is explained after it is settled; every other outcome after the rule that decided it."""
    listed = list(events)
    covered: dict[int, int] = {}

    def same(rule: RecordedEvent, event: RecordedEvent) -> bool:
        unit = rule.payload.get("unit_id")
        return rule.meta.get("command_id") == event.meta.get("command_id") and unit in (
            None,
            event.payload.get("unit_id"),
        )

    rule: RecordedEvent | None = None
    for i, event in enumerate(listed):
        if event.type == "rules.applied":
            rule = event
        elif event.type in ("timeline.command_issued", "timeline.rewound"):
            rule = None
        elif event.type == "economy.pay_settled":
            after = listed[i + 1] if i + 1 < len(listed) else None
            if after is not None and after.type == "rules.applied" and same(after, event):
                covered[event.seq] = after.seq
        elif event.type in RESTATED and rule is not None and same(rule, event):
            covered[event.seq] = rule.seq
    return covered


def readable(events: Iterable[RecordedEvent], names: Mapping[str, str]) -> list[tuple[RecordedEvent, str]]:
    """The events a person reads, each in words, leaving out an outcome its rule's explanation already says."""
    listed = list(events)
    covered = explained_by(listed)
    return [(e, describe(e, names)) for e in listed if e.seq not in covered]

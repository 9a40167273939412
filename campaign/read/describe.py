"""One line a person can read for each event: what the log view and command output print."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from campaign.i18n import DEFAULT, N_, _, language, ngettext, pgettext
from campaign.i18n.dice import notation_said
from campaign.i18n.explain import reason_said
from campaign.i18n.purposes import modifier_said, purpose_said, recorded_said
from campaign.possessive import possessive
from campaign.typed_as import typed
from events.envelope import RecordedEvent
from events.recorded import JsonObject, obj, seq, text, texts, whole

if TYPE_CHECKING:
    from projections.fold import Summary

ROLE_WORDS = {"gm": N_("game master"), "player": N_("player"), "observer": N_("observer")}


_SNAKE = re.compile(r"(?<![\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b(?!\.\w)")
"""A row or option name in snake case, not a segment of a table path (``campaign.exhausted_window_days`` is
typed, and shown, as it is)."""
_SETTING = re.compile(r"^[\w.]+=\S+$")
_PLURALS = {"men": "man", "models": "model", "battles": "battle", "wounds": "wound", "days": "day", "units": "unit"}


_DOLLARS = re.compile(r"(?<![\w.])\$(\d{4,})(?![\d.])")
"""A sum of money in a rule's explanation, written without separators when it was recorded ("upkeep $70400")."""


_OFFICER_DOWN = re.compile(r"^(.+?)(?:'s|') officer (.*?) is removed from play: each of its units")
"""disorder's officer_removed explanation as older versions recorded it ("French's officer Capitaine Dubois …")."""


def words(text: str) -> str:
    """Row and option names as a person writes them: ``minor_victory`` → "minor victory"; a table path stays as
    it is typed; a sum in dollars with its thousands separated: "$70400" → "$70,400"; a side's officer named
    without a possessive on the side ("Capitaine Dubois, commanding French, is removed …")."""
    text = _DOLLARS.sub(lambda m: f"${int(m.group(1)):,}", text)
    text = _OFFICER_DOWN.sub(r"\2, commanding \1, is removed from play: each of the side's units", text)
    return _SNAKE.sub(lambda m: m.group(0).replace("_", " "), text)


def money(n: int, *, signed: bool = False) -> str:
    """A sum for a person: thousands separated, a real minus sign; ``signed``: a plus sign on a gain too.
    ``12500`` → "12,500" ("12 500" for a Russian or Polish reader), ``-100`` → "−100" (``--json`` keeps the
    number)."""
    if language() != DEFAULT:
        from campaign.i18n.formats import number

        return number(n, signed=signed)
    shown = f"{abs(n):,}"
    return f"−{shown}" if n < 0 else f"+{shown}" if signed else shown


def gains(n: int, what: str) -> str:
    """A gain that may be a loss, in words: "gains 5 Glory", "loses 2 Glory", "gains no Glory"."""
    if n > 0:
        return _("gains {n} {what}").format(n=n, what=what)
    return _("loses {n} {what}").format(n=-n, what=what) if n < 0 else _("gains no {what}").format(what=what)


_CLAUSE = re.compile(r"^§(\d+)\.(\d+)(?:–(?:(\d+)\.)?(\d+))?$")


def _clause_parts(recorded: str) -> list[str]:
    """One recorded clause field as the clauses it names: "RULES.md §2.9, R2-14" → §2.9, R2-14; a range of one
    section, "§2.8–2.12", → §2.8 … §2.12."""
    found: list[str] = []
    for piece in recorded.removeprefix("RULES.md").split(","):
        part = piece.strip()
        m = _CLAUSE.match(part)
        if m and m.group(4) is not None and m.group(3) in (None, m.group(1)):
            found += [f"§{m.group(1)}.{n}" for n in range(int(m.group(2)), int(m.group(4)) + 1)]
        elif part:
            found.append(part)
    return found


def _clause_key(clause: str) -> tuple[int, tuple[int, ...], str]:
    """The rules' order: §0.4 < §0.10 < §2.8 < … < the errata R2-1 < R2-10 (numbers compared as numbers)."""
    numbers = tuple(int(n) for n in re.findall(r"\d+", clause))
    return (1 if clause.startswith("R") else 0 if clause.startswith("§") else 2, numbers, clause)


def clause_list(recorded: Iterable[str]) -> str:
    """The clauses of RULES.md some rules applied, each once and in the rules' order: "RULES.md §2.8, §2.9,
    §2.10" (recorded as "§2.8–2.12", "§2.10–2.11", "§2.11", … by each rule)."""
    every = {c for r in recorded for c in _clause_parts(str(r))}
    return "RULES.md " + ", ".join(sorted(every, key=_clause_key)) if every else ""


KINDS = {
    "battle.activation_lost": N_("battle · activation lost"),
    "battle.attack_resolved": N_("battle · attack resolved"),
    "battle.casualties_taken": N_("battle · casualties taken"),
    "battle.ended": N_("battle · ended"),
    "battle.force_morale": N_("battle · force morale"),
    "battle.kill_credited": N_("battle · kill credited"),
    "battle.models_lost": N_("battle · models lost"),
    "battle.officer_removed": N_("battle · officer removed"),
    "battle.position_changed": N_("battle · position changed"),
    "battle.started": N_("battle · started"),
    "battle.suppression_changed": N_("battle · suppression changed"),
    "battle.turn_began": N_("battle · turn began"),
    "battle.unit_activated": N_("battle · unit activated"),
    "battle.unit_deployed": N_("battle · unit deployed"),
    "battle.unit_fate": N_("battle · unit fate"),
    "battle.unit_removed": N_("battle · unit removed"),
    "battle.victory_points": N_("battle · victory points"),
    "battle.wounded_abandoned": N_("battle · wounded abandoned"),
    "battle.wounded_checked": N_("battle · wounded checked"),
    "battle.wounds_taken": N_("battle · wounds taken"),
    "calendar.days_passed": N_("calendar · days passed"),
    "calendar.month_ended": N_("calendar · month ended"),
    "calendar.side_condition": N_("calendar · side condition"),
    "calendar.wounded_returned": N_("calendar · wounded returned"),
    "campaign.created": N_("campaign · created"),
    "career.glory_awarded": N_("career · glory awarded"),
    "career.officer_appointed": N_("career · officer appointed"),
    "career.pc_wounded": N_("career · pc wounded"),
    "career.promotion_rolled": N_("career · promotion rolled"),
    "career.rank_reached": N_("career · rank reached"),
    "career.reputation_changed": N_("career · reputation changed"),
    "career.trait_gained": N_("career · trait gained"),
    "career.xp_gained": N_("career · xp gained"),
    "career.xp_set": N_("career · xp set"),
    "dice.corrected": N_("dice · corrected"),
    "dice.rolled": N_("dice · rolled"),
    "dice.seed_committed": N_("dice · seed committed"),
    "dice.seed_revealed": N_("dice · seed revealed"),
    "dice.set_aside": N_("dice · set aside"),
    "dice.share_committed": N_("dice · share committed"),
    "economy.funds_changed": N_("economy · funds changed"),
    "economy.pay_settled": N_("economy · pay settled"),
    "economy.troops_recruited": N_("economy · troops recruited"),
    "membership.granted": N_("membership · granted"),
    "membership.removed": N_("membership · removed"),
    "morale.action_failed": N_("morale · action failed"),
    "morale.disorder_changed": N_("morale · disorder changed"),
    "morale.grade_changed": N_("morale · grade changed"),
    "morale.last_stand_changed": N_("morale · last stand changed"),
    "morale.modifier_set": N_("morale · modifier set"),
    "morale.panic_changed": N_("morale · panic changed"),
    "morale.rally_attempted": N_("morale · rally attempted"),
    "morale.shaken_changed": N_("morale · shaken changed"),
    "roster.join_planned": N_("roster · join planned"),
    "roster.men_transferred": N_("roster · men transferred"),
    "roster.unit_disbanded": N_("roster · unit disbanded"),
    "roster.unit_listed": N_("roster · unit listed"),
    "roster.unit_mustered": N_("roster · unit mustered"),
    "roster.unit_profile_changed": N_("roster · unit profile changed"),
    "roster.unit_quality_changed": N_("roster · unit quality changed"),
    "roster.unit_went_over": N_("roster · unit went over"),
    "rules.applied": N_("rules · applied"),
    "rules.table_overridden": N_("rules · table overridden"),
    "timeline.branched": N_("timeline · branched"),
    "timeline.command_issued": N_("timeline · command issued"),
    "timeline.rewound": N_("timeline · rewound"),
}
"""Each event type in words, for the catalogs (a type of a plug-in's own, not here, reads in English)."""


def kind(event_type: str) -> str:
    """An event's type in words, in the reader's language: ``battle.unit_deployed`` → "battle · unit deployed"."""
    if event_type in KINDS:
        return _(KINDS[event_type])
    family, _sep, name = event_type.partition(".")
    return f"{family} · {name.replace('_', ' ')}"


_COUNTED = {
    "men": lambda n: ngettext("{n} man", "{n} men", n),
    "models": lambda n: ngettext("{n} model", "{n} models", n),
    "battles": lambda n: ngettext("{n} battle", "{n} battles", n),
    "wounds": lambda n: ngettext("{n} wound", "{n} wounds", n),
    "days": lambda n: ngettext("{n} day", "{n} days", n),
    "units": lambda n: ngettext("{n} unit", "{n} units", n),
    "events": lambda n: ngettext("{n} event", "{n} events", n),
}
"""The nouns the views count, each with its plural forms (three in Russian and Polish: 1 человек, 3 человека,
5 человек)."""


def amount(n: int) -> str:
    """A whole number for a person, its thousands grouped as the reader's locale groups them."""
    if language() == DEFAULT:
        return f"{n:,}"
    from campaign.i18n.formats import number

    return number(n)


def count(n: int, noun: str) -> str:
    """``n`` of a plural ``noun``, in the singular for one, its thousands separated: "1 man", "3 men",
    "10,001 events"; in the reader's language and its plural forms where the noun is one of :data:`_COUNTED`."""
    if language() != DEFAULT and noun in _COUNTED:
        return _COUNTED[noun](n).format(n=amount(n))
    return f"{n:,} {_PLURALS.get(noun, noun.removesuffix('s')) if n == 1 else noun}"


_MODELS_KEYS = frozenset({"start_size", "troops"})
"""A deployment whose state holds one of these counts models, not men (Grimdark Future, disorder markers)."""
LABELS = {"tl": "TL", "hero_is_model": "its hero counted as a model"}
"""Recorded field names that read otherwise in words than with their underscores taken out."""
_SUBJECTS = ("unit_name", "name")
"""A command's input that names what it acts on: said right after the command, as it is typed
("fs attack Keno 3rd Squad"), not as "unit name Keno 3rd Squad"."""
_FIELDS = frozenset(
    {
        "models", "quality", "tough", "points", "hero", "side", "profile", "start_size", "hero_is_model",
        "joined_to", "units", "joins", "wounds", "by", "winner", "killed", "wounded", "leadership", "size",
        "fatigue", "start_grade", "armour", "mount", "ranged", "irregular", "experience", "troop_type", "healing",
        "role", "strategy", "kind", "radio", "psi_rank", "keno_guard", "terrifying", "crew_weapon", "troops",
        "contingent",
    }
)  # fmt: skip
"""The keys :func:`_field_words` says in the reader's language (the set, without a catalog read for English)."""
_UNTYPED = frozenset({"hero_is_model"})
"""Inputs no one types (an edition's reading, recorded for re-runs): left out of the command's line."""


def _field_words() -> dict[str, str]:
    """The recorded fields a muster's or a command's line names most, in the reader's language (a field's name,
    not the column heading: "моделей 10" would read wrong). Grimdark's and the five-grade rulesets' own first."""
    return {
        "models": pgettext("field", "models"),
        "quality": pgettext("field", "quality"),
        "tough": pgettext("field", "tough"),
        "points": pgettext("field", "points"),
        "hero": pgettext("field", "hero"),
        "side": pgettext("field", "side"),
        "profile": pgettext("field", "profile"),
        "start_size": pgettext("field", "start size"),
        "hero_is_model": pgettext("field", "its hero counted as a model"),
        "joined_to": pgettext("field", "joined to"),
        "units": pgettext("field", "units"),
        "joins": pgettext("field", "joins"),
        "wounds": pgettext("field", "wounds"),
        "by": pgettext("field", "by"),
        "winner": pgettext("field", "winner"),
        "killed": pgettext("field", "killed"),
        "wounded": pgettext("field", "wounded"),
        "leadership": pgettext("field", "leadership"),
        "size": pgettext("field", "size"),
        "fatigue": pgettext("field", "fatigue"),
        "start_grade": pgettext("field", "start grade"),
        "armour": pgettext("field", "armour"),  # a Mass Combat profile's (seed 002: броня, мобильность …)
        "mount": pgettext("field", "mount"),
        "ranged": pgettext("field", "ranged"),
        "irregular": pgettext("field", "irregular"),
        "experience": pgettext("field", "experience"),
        "troop_type": pgettext("field", "troop type"),
        "healing": pgettext("field", "healing"),
        "role": pgettext("field", "role"),  # a side's in a battle (Mass Combat's set-up)
        "strategy": pgettext("field", "strategy"),
        "kind": pgettext("field", "kind"),  # a five-grade profile's (seed 000)
        "radio": pgettext("field", "radio"),
        "psi_rank": pgettext("field", "psi rank"),
        "keno_guard": pgettext("field", "Keno Guard"),
        "terrifying": pgettext("field", "terrifying"),
        "crew_weapon": pgettext("field", "crew-served weapon"),
        "troops": pgettext("field", "troops"),  # a disorder-marker profile's (seed 001)
        "contingent": pgettext("field", "contingent"),
    }


def label(key: str) -> str:
    """A recorded field's name in words: ``tl`` → "TL", ``psion_name`` → "psion", ``troop_type`` → "troop
    type"; in the reader's language (the fields :func:`_field_words` names first, each other as the command
    models name it: their field names are in the catalogs, each in context "field")."""
    if language() != DEFAULT and key in _FIELDS:
        return _field_words()[key]
    english = LABELS[key] if key in LABELS else words(key.removesuffix("_name") if key.endswith("_name") else key)
    return english if language() == DEFAULT else pgettext("field", english)


_RULESET: ContextVar[str | None] = ContextVar("campaign_described_ruleset", default=None)
"""The ruleset whose command (or whose command's event) is being said: its closed sets' values are said in its
seed's words (``quality`` ``green`` → "Зеленые"); None where no command says which."""


_CAMPAIGN_RULESET: ContextVar[str | None] = ContextVar("campaign_read_ruleset", default=None)
"""The ruleset of the campaign whose log is being said (:func:`reading_campaign`), None where no reader set it."""

RE_RUN = "amend"
"""The name an amendment records every event of the commands it re-runs under (one append, one meta)."""


@contextmanager
def reading_campaign(ruleset: str | None) -> Iterator[None]:
    """Within the block, the events said are a campaign of ``ruleset``'s: one an amendment re-ran, recorded under
    its name ("amend"), not the re-run command's, reads in that ruleset's terms as the first run read ("вид
    пехота, качество Регулярные", not "вид infantry, качество regular")."""
    token = _CAMPAIGN_RULESET.set(ruleset)
    try:
        yield
    finally:
        _CAMPAIGN_RULESET.reset(token)


@contextmanager
def _reading(ruleset: str | None) -> Iterator[None]:
    token = _RULESET.set(ruleset)
    try:
        yield
    finally:
        _RULESET.reset(token)


def ruleset_of_command(command: object) -> str | None:
    """The ruleset a recorded command's name belongs to (``mc.raise`` → ``mass-combat``), None for the ledger's
    own commands (``ledger.roll``) or none recorded."""
    from campaign.plugins import by_prefix

    prefix, dot, _rest = str(command or "").partition(".")
    info = by_prefix(prefix) if dot else None
    return info.name if info is not None else None


def term_said(key: str, v: str) -> str:
    """A recorded value of the field ``key`` in words: a value of the reading ruleset's closed set of that name in
    its seed's words for the reader (``armour`` ``light`` → "легкие"), any other as :func:`value` says it."""
    said = seed_word(key, v)
    return value(v) if said is None else said


_TERM_SETS = {
    "start_grade": "grade", "from_grade": "grade", "to_grade": "grade", "psi_rank": "psi_rank", "effect": "psi_effect",
}  # fmt: skip
"""Fields whose values are those of a term set of another name (a five-grade unit's starting grade)."""


def seed_word(key: str, v: str) -> str | None:
    """The reading ruleset's word for ``v`` as a value of its closed set ``key``, or None (none, or English)."""
    ruleset = _RULESET.get()
    if ruleset is None or language() == DEFAULT:
        return None
    from campaign.i18n.terms import shown

    said = shown(ruleset, _TERM_SETS.get(key, key), v)
    return said if said != v else None


def result_said(recorded: str, winner: object = None, ruleset: str | None = None) -> str:
    """A battle's result as recorded (``battle.ended``'s, with its ``winner``) in the reader's words: the two
    every ruleset records in the same words ("won by SIDE", "draw") in the reader's language; one of its
    ruleset's own (Mass Combat's §2.11 ``minor_victory``) in that ruleset's words (its terms' ``result`` set, as
    ``campaign battles`` says it); one a person typed (a five-grade battle's "the patrol withdrew") as typed.
    ``ruleset``: the one being read where not given (:func:`describe`'s)."""
    if language() == DEFAULT:
        return words(recorded)
    if winner and recorded == f"won by {winner}":
        return _("won by {side}").format(side=winner)
    if recorded == "draw":
        return _("draw")
    with _reading(ruleset or _RULESET.get()):
        return seed_word("result", recorded) or words(recorded)


def field_said(key: str, v: str) -> str:
    """The field ``key`` and its recorded value ``v`` in words ("броня Легкий"); a term whose words name the
    field too alone ("без брони", not "броня без брони")."""
    said = term_said(key, v)
    ruleset = _RULESET.get()
    if ruleset is not None and language() != DEFAULT:
        from campaign.i18n.terms import vocabulary

        found = vocabulary(ruleset).term(_TERM_SETS.get(key, key), v)
        if found is not None and found.alone:
            return said
    return f"{label(key)} {said}"


def value(v: object) -> str:
    """A recorded value in words: lists joined, a mapping as "key value" pairs, no Python reprs."""
    if isinstance(v, bool):
        return _("yes") if v else _("no")
    if isinstance(v, dict):
        return ", ".join(
            field_said(str(k), x) if isinstance(x, str) else f"{label(str(k))} {value(x)}"
            for k, x in v.items()
            if x not in (None, False, "", [], {})
        )
    if isinstance(v, list | tuple):
        if v and all(isinstance(x, list | tuple) for x in v):  # a table's rows: "0 no clear winner; 4 …"
            return "; ".join(" ".join(value(y) for y in x) for x in v)
        return ", ".join(value(x) for x in v) or _("none")
    if isinstance(v, str) and _SETTING.match(v):  # a house rule's path=value, as the tables name it
        path, _eq, setting = v.partition("=")
        return _("{path} set to {setting}").format(path=path, setting=setting)
    return words(str(v))


def facts(p: Mapping[str, object], names: Mapping[str, str], skip: Iterable[str] = ()) -> str:
    """The fields of a payload as "key value" words: flags by name alone, ids by the name they stand for,
    nothing for what is empty or unknown."""
    out = []
    for k, v in p.items():
        if k == "value" and isinstance(v, bool) and k not in skip:  # a setting's value (house-rule), not a flag
            # said as yes or no in words (as typed, true or false, in English)
            said = ("true" if v else "false") if language() == DEFAULT else value(v)
            out.append(f"{label(k)} {said}")
            continue
        if k in skip or v in (None, False, "", [], {}):
            continue
        if k.endswith("_id"):
            if isinstance(v, str) and v in names:
                out.append(f"{label(k[:-3])} {names[v]}")
            continue
        if isinstance(v, str) and v not in names:
            out.append(field_said(k, v))
            continue
        shown = names[v] if isinstance(v, str) else value(v)
        out.append(label(k) if v is True else f"{label(k)} {shown}")
    return ", ".join(out)


def command_line(command: str, args: Mapping[str, object], names: Mapping[str, str]) -> str:
    """A recorded command as a person reads it: as typed, what it acts on by name, then its inputs in words
    ("fs attack Keno 3rd Squad (killed 2, wounded 2)"); a profile or a list of deployments only by name (the
    events after it spell them out)."""
    with _reading(ruleset_of_command(command)):
        return _command_line(command, args, names)


def _command_line(command: str, args: Mapping[str, object], names: Mapping[str, str]) -> str:
    rest = {k: v for k, v in args.items() if k not in _UNTYPED}
    subject = next((str(rest.pop(k)) for k in _SUBJECTS if isinstance(rest.get(k), str) and rest.get(k)), "")
    if isinstance(rest.get("a"), str) and isinstance(rest.get("b"), str):  # gf melee: the two units by name
        a, b = str(rest.pop("a")), str(rest.pop("b"))
        subject = _("{a} against {b}").format(a=a, b=b)
        by = {
            "wounds_by_a": _("wounds by {unit}").format(unit=a),
            "wounds_by_b": _("wounds by {unit}").format(unit=b),
            "a_lost": _("models {unit} lost").format(unit=a),
            "b_lost": _("models {unit} lost").format(unit=b),
        }
        rest = {by.get(k, k): v for k, v in rest.items()}
    if isinstance(amount := rest.get("amount"), int):  # funds: a sum of money
        rest["amount"] = money(amount)
    said = [f"{label('pay')} {_percent(rest.pop('pay_pct'))}"] if rest.get("pay_pct") not in (None, {}) else []
    more = facts({k: "…" if isinstance(v, dict | list) and v else v for k, v in rest.items()}, names)
    shown = ", ".join([*said, more] if more else said)
    return " ".join(w for w in (typed(command, args), subject) if w) + (f" ({shown})" if shown else "")


def _percent(pay: object) -> str:
    """Pay as a share of what is due: ``{"Keno": 100}`` → "Keno 100 %"; ``50`` → "50 %"."""
    if isinstance(pay, dict):
        return ", ".join(f"{side} {pct} %" for side, pct in pay.items())
    return f"{pay} %"


def unit_names(events: Iterable[RecordedEvent]) -> dict[str, str]:
    """Unit and battle ids → names, from the roster and battle events of a log."""
    names: dict[str, str] = {}
    for e in events:
        if e.type == "roster.unit_mustered":
            names[text(e.payload["unit_id"])] = text(e.payload["name"])
        elif e.type == "battle.started":
            names[text(e.payload["battle_id"])] = text(e.payload["name"])
    return names


def _as_recorded(actor: str) -> str:
    return actor


def describe(
    event: RecordedEvent,
    names: Mapping[str, str] | None = None,
    rolls: Mapping[int, int] | None = None,
    faces: Mapping[int, Sequence[int]] | None = None,
    who: Callable[[str], str] = _as_recorded,
) -> str:
    """The event in words, its units and battles by name (an id never shows: one not on the roster reads as
    such). A rule application reads in the reader's language where its rule has a renderer and ``rolls`` (roll
    index → total; ``faces``: index → faces) holds its dice (``campaign.i18n.explain``); otherwise, and in
    English, as recorded. ``who``: how it names whoever entered table dice (as recorded: the command line's
    view; the page's says the account or the game master, ``campaign.read.views.author_said``)."""
    command = event.payload.get("command") if event.type == "timeline.command_issued" else event.meta.get("command")
    ruleset = ruleset_of_command(command)
    if ruleset is None and command == RE_RUN:
        ruleset = _CAMPAIGN_RULESET.get()
    with _reading(ruleset):
        return words(_describe(event, names or {}, rolls or {}, faces or {}, who))


SAID: dict[str, str] = {
    "dice.seed_revealed": N_("seed of epoch {epoch} revealed: every roll made with it can now be checked"),
    "timeline.rewound": N_("rewound to seq {to_seq}: {reason} (later events kept, retracted)"),
    "roster.unit_disbanded": N_("{unit_id} disbanded: {reason}"),
    "roster.unit_went_over": N_("{unit_id} goes over to {side}: {reason}"),
    "morale.grade_changed": N_("{unit_id}: {from_grade} → {to_grade}"),
    "battle.unit_removed": N_("{unit_id} leaves the battle: {reason}"),
    "battle.turn_began": N_("turn {turn} begins"),
    "battle.unit_activated": N_("{unit_id}: unit activated (turn {turn})"),
    "morale.action_failed": N_("{unit_id} may not try {action} again this turn"),
    "morale.panic_changed": N_("{unit_id}: {panic}"),
    "morale.rally_attempted": N_("{officer_id} spends a rally action on {unit_id}"),
    "battle.officer_removed": N_("the officer commanding {side} is removed from play"),
    "career.glory_awarded": N_("{officer} ({side}) {glory:Glory}"),
    "career.rank_reached": N_("{officer} reaches the rank of {rank} ({glory} Glory)"),
    "battle.victory_points": N_("{points} VP to {side}"),
    "economy.funds_changed": N_("{side}: {amount:signed} ({reason})"),
    "career.xp_gained": N_("{unit_id} gains {xp} XP"),
    "battle.casualties_taken": N_("{unit_id}: {dead} dead, {wounded} wounded ({percent}%)"),
    "battle.unit_fate": N_("{unit_id} {fate}"),
    "battle.wounded_checked": N_("{unit_id}: {count} wounded checked"),
    "campaign.created": N_("campaign “{name}” created under {ruleset} (dice seed committed: {seed_commitment:.12}…)"),
    "dice.seed_committed": N_("new dice seed committed for epoch {epoch} ({commitment:.12}…)"),
    "dice.share_committed": N_("{by} commits a share of entropy for epoch {epoch} ({commitment:.12}…)"),
    "dice.set_aside": N_("roll #{roll_index} taken off the table by a reroll: {reason}"),
    "roster.men_transferred": N_(
        "{men:men} transferred from {from_unit_id} to {to_unit_id}, bringing experience {experience}"
    ),
    "morale.last_stand_changed": N_("{unit_id}: No step back {active:begins|ends} ({reason})"),
    "battle.models_lost": N_("{unit_id} loses {count:models} ({cause})"),
    "morale.shaken_changed": N_("{unit_id} is {shaken:Shaken|no longer Shaken} ({reason})"),
    "battle.kill_credited": N_("{unit_id} is credited with {victim_id}{victim_hero: (a hero)|}"),
    "calendar.wounded_returned": N_("{unit_id}: {men:men} back from the wounded"),
    "economy.troops_recruited": N_(
        "{unit_id}: {men:men} recruited ({quality}, experience {experience}, cost {cost:money})"
    ),
    "membership.removed": N_("{account} leaves the campaign{reason:: {reason}|}"),
    "rules.table_overridden": N_("house rule: {path} = {value}{note: ({note})|}"),
    "career.officer_appointed": N_("{officer}{rank: ({rank})|} takes command of {side}"),
    "calendar.days_passed": N_(
        "{days:days} of {activity} {side:for the units of {side}|for every side}{note: ({note})|}"
    ),
    "economy.pay_settled": N_(
        "{unit_id}: {due:paid {paid:money} of {due:money}|bonus pay {paid:money}, nothing owed}"
        "{penalty:, arrears Morale −{penalty}|}"
    ),
    "roster.unit_mustered": N_("{name} mustered for {side} ({profile:facts}){reports_to:, reports to {reports_to}|}"),
    "roster.unit_profile_changed": N_("profile of {unit_id} changed: {profile:facts}"),
    "battle.wounds_taken": N_(
        "{unit_id} takes {wounds:wounds} ({source}{by_unit_id: from {by_unit_id}|})"
        "{models_lost:: {models_lost:models} killed|}"
    ),
    "career.trait_gained": N_("{unit_id} gains the {kind} trait {trait}{points:, {points:+d} pts|}"),
    "career.xp_set": N_("{unit_id} has {xp} XP ({reason})"),
    "roster.unit_listed": N_("{unit_id} is entry {entry} of the {source} list “{list_name}”"),
    "roster.join_planned": N_("{unit_id} {joins:joins {joins} at the start of each battle|fights on its own}"),
}
"""The events told in one sentence of their fields (:class:`_Shown` says how each is written); the others below."""


class _Shown:
    """A recorded field in a sentence of :data:`SAID`, as its format says:

    * none: as recorded; a ``…_id`` (and ``reports_to``) by the name it stands for, "no one" if not recorded;
    * a plural noun: counted, ``{men:men}`` → "1 man", "3 men";
    * ``facts``: a mapping's fields as words (:func:`facts`);
    * ``money``, ``signed``: a sum (:func:`money`), ``signed`` with its sign; ``Glory`` (or any word, as a translation
      words it: ``{glory:славы}``): a gain or a loss of it (:func:`gains`);
    * ``WHEN SET|WHEN NOT``: the words before the last bar when the field is recorded and not empty, the words
      after it when not; they may hold the field itself: ``{note: ({note})|}``;
    * any of Python's: ``{commitment:.12}``, ``{glory:+d}`` (nothing when the field is not recorded, so that
      ``{points:, {points:+d} pts|}`` reads a missing ``points`` as nothing)."""

    __slots__ = ("name", "names", "recorded")

    def __init__(self, recorded: object, names: Mapping[str, str], name: str | None) -> None:
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
            return count(whole(self.recorded), spec)
        if spec == "facts":
            return facts(obj(self.recorded), self.names)
        if spec in ("money", "signed") and isinstance(self.recorded, int):
            return money(self.recorded, signed=spec == "signed")
        if spec.isalpha() and len(spec) > 1 and isinstance(self.recorded, int):
            # a gain of what the spec names ("Glory"), in the translation's own form of the word ("славы"):
            # no format of Python's is two letters or more
            return gains(self.recorded, spec)
        return "" if self.recorded is None and spec else format(self.recorded, spec)


_WORDED = ("source", "reason")
"""The fields the rules (or the timeline) word in English that a sentence of :data:`SAID` shows in brackets."""


class _Fields:
    """A payload as a sentence of :data:`SAID` reads it: each field :class:`_Shown`."""

    def __init__(self, payload: Mapping[str, object], names: Mapping[str, str]) -> None:
        if language() != DEFAULT and any(k in payload for k in _WORDED):  # the rules' own English, said
            payload = {**payload, **{k: recorded_said(k, payload[k]) for k in _WORDED if k in payload}}
        self.payload = payload
        self.names = names

    def __getitem__(self, key: str) -> _Shown:
        named = self.named(key) if key.endswith("_id") or key in ("reports_to", "joins") else None
        recorded = self.payload.get(key)
        if isinstance(recorded, str) and named is None and key != "reason":
            recorded = seed_word(key, recorded) or recorded  # a closed set's value in the seed's words
        return _Shown(reason_said(recorded) if key == "reason" else recorded, self.names, named)

    def named(self, key: str) -> str:
        """The name of the unit (or battle) the field ``key`` refers to."""
        found = self.payload.get(key)
        if not found:
            return _("no one")
        # ids are recorded as strings: any other value names no unit on the roster
        return (
            self.names.get(found, _("a unit not on the roster"))
            if isinstance(found, str)
            else _("a unit not on the roster")
        )


def _describe(  # noqa: C901, PLR0911, PLR0912, PLR0915 (one sentence per event type)
    event: RecordedEvent,
    names: Mapping[str, str],
    rolls: Mapping[int, int],
    faces: Mapping[int, Sequence[int]],
    who: Callable[[str], str] = _as_recorded,
) -> str:
    p: JsonObject = event.payload

    fields = _Fields(p, names)
    n = fields.named

    if "explanation" in p:
        if language() != DEFAULT:
            from campaign.i18n.explain import Beside, explained

            return explained(p, Beside(names, rolls, faces))
        return str(p["explanation"])
    kind = event.type
    if kind == "dice.seed_revealed" and p.get("shares"):
        given = len(seq(p["shares"]))
        return ngettext(
            "seed of epoch {epoch} revealed with its {n} share of entropy: every roll made with it can now be checked",
            "seed of epoch {epoch} revealed with its {n} shares of entropy: every roll made with it can now be checked",
            given,
        ).format(epoch=p["epoch"], n=given)
    if kind == "economy.funds_changed" and (paid := _month_end_pay(event)) is not None:
        month, upkeep = paid
        said = _("{side}: {amount} (upkeep and pay at the end of month {month})") if upkeep else None
        return (said or _("{side}: {amount} (pay at the end of month {month})")).format(
            side=p["side"], amount=money(whole(p["amount"]), signed=True), month=month
        )
    if kind == "economy.troops_recruited" and p.get("quality") == "recruit" and language() != DEFAULT:
        # the five-grade rules' own word for the men a recruiting adds (no quality of its seed's five)
        fields = _Fields({**p, "quality": pgettext("recruited men", "recruit")}, names)
    if kind in SAID and language() != DEFAULT and (worded := in_terms(kind)) is not None:
        return _(SAID[kind]).format_map(_Fields(in_words(p, *worded), names))
    if kind in SAID:
        return _(SAID[kind]).format_map(fields)
    own = own_sentence(kind)
    if own is not None:
        return _(own).format_map(fields)
    if kind == "dice.rolled":
        modifier, faces_thrown = whole(p["modifier"]), seq(p["faces"])  # d6+2 rolled 4: "4+2 = 6", not "4 = 6"
        thrown = "+".join(str(f) for f in faces_thrown) + (money(modifier, signed=True) if modifier else "")
        source = (
            _("table dice entered by {who}").format(who=who(str(p["entered_by"])))
            if p["source"] == "table"
            else _("the dice of roll #{index}, left on the table").format(index=p.get("offered_from"))
            if p["source"] == "offered"
            else _("seed epoch {epoch}").format(epoch=p["seed_epoch"])
        )
        total = f" = {p['total']}" if len(faces_thrown) > 1 or modifier else ""
        return _("roll #{index} {notation} for “{purpose}”: {faces}{total} ({source})").format(
            index=p["roll_index"],
            notation=notation_said(text(p["notation"])),
            purpose=purpose_said(text(p["purpose"])),
            faces=thrown,
            total=total,
            source=source,
        )
    if kind == "dice.corrected":
        return corrected(p, who)
    if kind == "timeline.command_issued":
        line = command_line(str(p["command"]), obj(p["args"]), names)
        if p.get("amends") is not None:
            return _("command {line}, amending #{seq}").format(line=line, seq=p["amends"])
        return _("command {line}").format(line=line)
    if kind == "membership.granted":
        recorded_role = text(p["role"])
        role = _(ROLE_WORDS.get(recorded_role, recorded_role))
        if p.get("sides"):
            return _("{account} joins as {role} for {sides}").format(
                account=p["account"], role=role, sides=", ".join(texts(p["sides"]))
            )
        return _("{account} joins as {role}").format(account=p["account"], role=role)
    if kind == "battle.started":
        settings = "; ".join(
            f"{side} {facts(obj(s), names)}" if s else str(side) for side, s in obj(p["settings"]).items()
        )
        return _("battle “{name}” begins: {settings}").format(name=p["name"], settings=settings)
    if kind == "battle.unit_deployed":
        deployed = obj(p["state"])
        state = facts(deployed, names)
        # Grimdark and disorder count models (their deployments record a start size or troops), the others men.
        noun = "models" if _MODELS_KEYS & deployed.keys() else "men"
        return _("{unit} deployed for {side}: {men}").format(
            unit=n("unit_id"), side=p["side"], men=count(whole(p["men"]), noun)
        ) + (f", {state}" if state else "")
    if kind == "battle.attack_resolved":
        extras = [
            _(w)
            for w, on in (
                (N_("suppressed"), p["suppressing"]),
                (N_("artillery"), p["artillery"]),
                (N_("leader hit"), p["leader_hit"]),
            )
            if on
        ]
        return _("{unit}: {killed} killed, {wounded} wounded").format(
            unit=n("unit_id"), killed=p["killed"], wounded=p["wounded"]
        ) + (f" ({', '.join(extras)})" if extras else "")
    if kind == "battle.ended":
        winner = p.get("winner")
        result = str(p["result"])
        shown = _(" (winner {side})").format(side=winner) if winner and str(winner) not in result else ""
        # quoted as its beginning is
        return _("battle “{name}” ends: {result}{winner}").format(
            name=n("battle_id"), result=result_said(result, winner), winner=shown
        )
    if kind == "morale.disorder_changed":
        markers = whole(p["markers"]) + whole(p["permanent"])
        said = (
            ngettext(
                "{unit}: {n} disorder marker (one permanent), {reason}",
                "{unit}: {n} disorder markers (one permanent), {reason}",
                markers,
            )
            if p["permanent"]
            else ngettext("{unit}: {n} disorder marker, {reason}", "{unit}: {n} disorder markers, {reason}", markers)
        )
        return said.format(unit=n("unit_id"), n=markers, reason=reason_said(p["reason"]))
    if kind == "battle.force_morale":
        half = p["status"] == "half"
        if language() == DEFAULT:  # the side owning its force as English writes it ("Robots' force")
            what = "every unit tests once" if half else "its remaining units flee"
            return f"{possessive(p['side'])} force has lost {p['lost_points']} points: {what}"
        said = (
            _("the force of {side} has lost {points} points: every unit tests once")
            if half
            else _("the force of {side} has lost {points} points: its remaining units flee")
        )
        return said.format(side=p["side"], points=p["lost_points"])
    if kind == "calendar.month_ended":
        return _("month {month} of the campaign ends").format(month=whole(p["month"]) + 1)
    if kind == "career.pc_wounded":
        taken = seq(p.get("wounds", []))
        wounds = " + ".join(str(w) for w in taken)
        said = _("{pc} takes {damage} damage").format(pc=p["pc"], damage=p["damage"])
        return said + (f" ({wounds})" if len(taken) > 1 else "")
    if kind == "morale.modifier_set":
        from campaign.i18n.formats import number  # a modifier, not a sum: a real minus sign in the reader's way

        shown = number(whole(p["value"]), signed=True) if language() != DEFAULT else f"{whole(p['value']):+d}"
        until = str(p.get("until") or "")
        whom = n("unit_id") if p.get("unit_id") else p.get("side")
        lasting = " " + (_(UNTIL[until]) if until in UNTIL else words(until)) if until else ""
        said = (
            _("Morale modifier {value} for {whom} ({name}){until}")
            if whom
            else _("Morale modifier {value} for every side ({name}){until}")
        )
        return said.format(value=shown, whom=whom, name=modifier_said(str(p["name"])), until=lasting)
    what = kind.split(".", 1)[1].replace("_", " ")
    if "unit_id" in p:
        rest = facts(p, names, skip=("battle_id", "unit_id"))
        return f"{n('unit_id')}: {what}" + (f" ({rest})" if rest else "")
    rest = facts(p, names, skip=("battle_id",))
    return what + (f": {rest}" if rest else "")


UNTIL = {
    "year_end": N_("until year end"),
    "month_end": N_("until month end"),
    "clear_victory": N_("until clear victory"),
    "removed": N_("until removed"),
}
"""How long a Morale modifier lasts (``morale.modifier_set``'s ``until``: Mass Combat's, RULES.md §2.11)."""


_MONTH_END_PAY = re.compile(r"(?:pay, month (\d+)|month (\d+) upkeep and pay)")
"""The reasons a month's end records for its pay, counted from 0 as they always were (recorded text is hashed and
re-decided word for word, so it stays): read as the month it is, counted from 1 as the calendar counts it."""


def _month_end_pay(event: RecordedEvent) -> tuple[int, bool] | None:
    """The month (counted from 1) whose end paid this treasury change, when a month's end made it, and whether
    it paid upkeep too (Mass Combat's). An amendment's events are those of the commands it re-ran, all recorded
    under its own name ("amend"): a month's end re-run there reads as the one it re-ran."""
    command = str(event.meta.get("command", ""))
    if not command.endswith(".month_end") and command != RE_RUN:
        return None
    found = _MONTH_END_PAY.fullmatch(str(event.payload.get("reason", "")))
    if found is None:
        return None
    return int(found.group(1) or found.group(2)) + 1, found.group(2) is not None


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


def restated_by_rule(ruleset: str) -> frozenset[tuple[str, str]]:
    """(rule, outcome event) where that rule's explanation states the outcome (its plug-in's ``restated``),
    beside outcomes that another rule of the same command does not state (a Grimdark melee's wounds; its rule
    names only the wounds caused)."""
    from campaign.rulesets import RULESETS

    info = RULESETS.get(ruleset)
    return info.restated if info is not None else frozenset()


def in_terms(event_type: str) -> tuple[str, Mapping[str, str]] | None:
    """The ruleset whose plug-in words the fields of this shared event type in its terms (``worded``: the
    five-grade seed's grades in ``morale.grade_changed``), and which fields in which of its term sets."""
    from campaign.rulesets import RULESETS

    return next(((r.name, r.worded[event_type]) for r in RULESETS.values() if event_type in r.worded), None)


def in_words(payload: Mapping[str, object], ruleset: str, sets: Mapping[str, str]) -> dict[str, object]:
    """The payload with each field of ``sets`` said in the reader's words for it (the ruleset's terms)."""
    from campaign.i18n.terms import shown as term

    return {**payload, **{f: term(ruleset, s, str(payload[f])) for f, s in sets.items() if f in payload}}


def own_sentence(event_type: str) -> str | None:
    """The sentence a ruleset's plug-in gives its own event type (named by its prefix), if it gives one."""
    from campaign.rulesets import by_prefix

    info = by_prefix(event_type.partition(".")[0])
    return info.sentences.get(event_type) if info is not None else None


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
        elif (
            rule is not None
            and same(rule, event)
            and (
                event.type in RESTATED
                or (rule.payload.get("rule"), event.type) in restated_by_rule(str(rule.payload.get("ruleset")))
            )
        ):
            covered[event.seq] = rule.seq
    return covered


def readable(events: Iterable[RecordedEvent], names: Mapping[str, str]) -> list[tuple[RecordedEvent, str]]:
    """The events a person reads, each in words, leaving out an outcome its rule's explanation already says."""
    listed = list(events)
    covered = explained_by(listed)
    rolls, faces = dice_of(listed)
    return [(e, describe(e, names, rolls, faces)) for e in listed if e.seq not in covered]


def dice_of(events: Iterable[RecordedEvent]) -> tuple[dict[int, int], dict[int, tuple[int, ...]]]:
    """The rolls among ``events``, by roll index: their totals and their faces (what a rule's sentence in the
    reader's language says of its dice: ``campaign.i18n.explain``)."""
    thrown = [e.payload for e in events if e.type == "dice.rolled"]
    rolls = {whole(p["roll_index"]): whole(p["total"]) for p in thrown}
    return rolls, {whole(p["roll_index"]): tuple(whole(f) for f in seq(p["faces"])) for p in thrown}


def corrected(p: JsonObject, who: Callable[[str], str] = _as_recorded) -> str:
    """A ``dice.corrected`` event in words: which table roll, from what to what, by whom, where and why."""
    faces, before = seq(p["faces"]), seq(p["faces_before"])
    said = "+".join(map(str, faces))
    now = _("{faces} (roll #{index})").format(faces=said, index=p["replaced_by"]) if faces else _("no die")
    if list(faces) == list(before):  # carried with the dice corrected beside it, not changed
        return _("table dice of roll #{index} ({notation}) entered again as they were: {now}").format(
            index=p["roll_index"], notation=notation_said(str(p["notation"])), now=now
        )
    return _(
        "table dice of roll #{index} ({notation}) corrected from {before} to {now} by {by}, amending #{seq}: {reason}"
    ).format(
        index=p["roll_index"],
        notation=notation_said(str(p["notation"])),
        before="+".join(map(str, before)),
        now=now,
        by=who(str(p["by"])),
        seq=p["amends"],
        reason=p["reason"],
    )


STANDING = ("quality", "fatigue", "traits", "campaign_morale", "pay_penalty", "disbanded")
"""A unit's standing between battles, as its ruleset's summary rows hold it: promoted or demoted (quality),
tired or exhausted (fatigue), a trait won, the Morale the campaign gives it, the arrears penalty in force, and
whether it was disbanded. Each change is said when the command that made it is entered (and on the page)."""
CAREER = ("rank", "reputation", "glory")
"""An officer's or a player character's standing: rank, Reputation, Glory."""


def standing_changes(before: Summary | None, after: Summary | None, ruleset: str | None = None) -> list[str]:
    """How each unit's (and each career's) standing changed between two summaries of a campaign (``Summary``
    objects, or None for none yet), one line for each: "Keno 3rd Squad: quality green → regular", "Robot Squad:
    traits none → Headstrong". A unit new in ``after`` is no change of standing (its muster said it)."""
    if before is None or after is None:
        return []
    with _reading(ruleset):  # its closed sets' values (a quality) in its seed's words
        return _standing_changes(before, after)


def _standing_changes(before: Summary, after: Summary) -> list[str]:
    lines: list[str] = []
    for rows_before, rows_after, key, columns in (
        (before.units, after.units, "unit_id", STANDING),
        (before.careers, after.careers, "pc", CAREER),
    ):
        was = {str(r.get(key)): r for r in rows_before}
        for row in rows_after:
            old = was.get(str(row.get(key)))
            if old is None:
                continue
            changed = [
                f"{label(c)} {_standing(c, old.get(c))} → {_standing(c, row.get(c))}"
                for c in columns
                if c in row and old.get(c) != row.get(c)
            ]
            if changed:
                lines.append(f"{row.get('name') or row.get(key)}: {'; '.join(changed)}")
    return lines


def _standing(column: str, v: object) -> str:
    if column == "disbanded":
        return _("disbanded") if v else _("on the roster")
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:+d}" if column in ("campaign_morale", "pay_penalty") else f"{v:,}"
    if isinstance(v, str) and v:
        return term_said(column, v)
    return value(v) if v not in (None, "", [], ()) else _("none")

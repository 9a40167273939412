"""One Page Rules' Army Forge lists, read into ``gf.import_list``: the plug-in's ``army_list`` (:data:`ARMY_FORGE`),
which ``gf import-list`` and the page's upload run.

The format is Army Forge's own and undocumented as a specification; it is read as Army Forge writes it:

* the list as Army Forge exports it for Tabletop Simulator and serves it at ``/api/tts?id=LIST``: the
  list's ``id``, ``name``, ``gameSystem`` (``gf`` Grimdark Future, ``gff`` Firefight, ``aof`` Age of Fantasy …),
  ``campaignMode``, ``points`` and ``units``; each unit its ``name``, ``customName``, ``size``, ``quality``,
  ``defense``, ``cost``, ``specialRules`` (``{"key": "tough", "name": "Tough", "rating": "3"}``), the upgrades
  chosen (``selectedUpgrades``: each ``option`` with its ``cost``, ``isModel`` and the rules it ``gains``), its
  ``selectionId``, ``joinToUnit`` and ``combined``, and in a campaign its ``xp`` and ``traits`` (names).
  Army Forge's source (github.com/AdamLay/opr-army-forge: ``data/interfaces.ts`` ``ISelectedUnit``,
  ``data/listSlice.ts`` ``ListState``, ``services/PersistenceService.ts`` ``downloadTTS``,
  ``services/UpgradeService.tsx`` ``calculateUnitTotal``) defines these fields; lists served by ``/api/tts``
  add ``gameSystem`` and ``id`` (as in github.com/ydirson/test-yew-tutorial ``src/static_data.rs``), and newer
  ones give a unit's rules as ``rules`` (``{"name": "Tough", "rating": 3}``), read alike.
* Army Forge's own save file (``saveVersion``, ``list.units`` naming each unit by its army book id only) holds
  no unit's profile: it is refused with the way to export the list instead.

A unit's models are its ``size`` and one per upgrade that adds a model; its Tough the sum of its Tough ratings
(Army Forge adds them up); its points what Army Forge charges for it: its cost, its upgrades' and, in Grimdark
Future, 25 pts per 5 XP (``calculateUnitTotal``). The morale rules read Tough, Fearless and Hero; the other rules
are named once, as not kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson
from pydantic import ValidationError

from campaign.i18n import DEFAULT, _, ngettext, reading_in
from campaign.i18n.terms import shown
from campaign.possessive import possessive
from campaign.rulesets.decision import problems
from campaign.rulesets.grimdark.army_list import ImportList, ImportPlan, ListedUnit, plan_import
from campaign.rulesets.grimdark.profile import UnitProfile
from events.errors import InvalidInputError, Term, Words
from events.limits import check_name

if TYPE_CHECKING:
    from campaign.rulesets.grimdark.state import CampaignState
    from campaign.rulesets.grimdark.tables import Tables

SOURCE = "Army Forge"
GAME_SYSTEM = "gf"
SYSTEMS = {
    "gf": "Grimdark Future",
    "gff": "Grimdark Future: Firefight",
    "aof": "Age of Fantasy",
    "aofs": "Age of Fantasy: Skirmish",
    "aofr": "Age of Fantasy: Regiments",
}
LEVEL_XP, LEVEL_POINTS = 5, 25
"""What Army Forge charges for a Grimdark Future unit's levels: 25 pts per 5 XP (``calculateUnitTotal``)."""
READ_RULES = frozenset({"tough", "fearless", "hero"})


@dataclass(frozen=True)
class ArmyList:
    """A list read from its file: the command that imports it, and what reading it leaves out, in words."""

    command: ImportList
    notes: tuple[Words, ...]


THE_FILE = Words("the file")
"""What a refusal calls a list's file that came with no name of its own."""


def read_army_list(data: bytes, side: str, *, what: str | Words = THE_FILE) -> ArmyList:
    """The Army Forge list in ``data`` as ``side``'s ``gf.import_list``; anything that is not a Grimdark Future
    list the rules can take is refused in words naming the unit (nothing is imported)."""
    # read here rather than by events.errors.json_object, whose refusals are plain text: these are said in words
    try:
        parsed = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise InvalidInputError.saying(
            "{what} is not an Army Forge list: it is not JSON ({why})", what=what, why=str(exc)
        ) from None
    if not isinstance(parsed, dict):
        raise InvalidInputError.saying(
            "{what} is not an Army Forge list: it holds no list (an object with units)", what=what
        )
    if "saveVersion" in parsed or isinstance(parsed.get("list"), dict):
        raise InvalidInputError.saying(
            "{what} is an Army Forge save file: it names its units by their army book ids only. Export the list "
            "instead (Army Forge: the list's menu → Export for TTS, or its share link's /api/tts?id=… JSON)",
            what=what,
        )
    system = parsed.get("gameSystem")
    if system != GAME_SYSTEM:
        said = (
            f"{SYSTEMS.get(str(system), str(system))} ({system})"
            if system is not None
            else Words("no game system (gameSystem)")
        )
        raise InvalidInputError.saying(
            "{what} is an Army Forge list for {system}: this campaign plays {ours} ({code})",
            what=what,
            system=said,
            ours=SYSTEMS[GAME_SYSTEM],
            code=GAME_SYSTEM,
        )
    name = _text(parsed.get("name"), Words("the list's name")) or "Army Forge list"
    list_id = str(parsed.get("id") or parsed.get("creationTime") or name)
    units = parsed.get("units")
    if not isinstance(units, list) or not units:
        raise InvalidInputError.saying("{what} is not an Army Forge list: it holds no units", what=what)
    entries: list[ListedUnit] = []
    unread: set[str] = set()
    for index, unit in enumerate(units, 1):
        entry, left_out = _entry(unit, index)
        entries.append(entry)
        unread |= left_out
    notes: tuple[Words, ...] = ()
    if unread:
        notes = (Words("rules the morale rules do not read are not kept: {rules}", rules=", ".join(sorted(unread))),)
    try:
        command = ImportList.build(
            side=side,
            source=SOURCE,
            list_id=list_id,
            list_name=name,
            entries=[e.model_dump(mode="json") for e in entries],
        )
    except InvalidInputError as exc:
        raise InvalidInputError.saying("{what}: {problem}", what=what, problem=exc.words or str(exc)) from None
    return ArmyList(command, notes)


def preview_import(state: CampaignState, tables: Tables, command: ImportList) -> ImportPlan:
    """What importing the list would do to the campaign ``state`` (under its ``tables`` in force), appending
    nothing (new units numbered ``new-1``, ``new-2``… in place of the ids the import will give them)."""
    fresh = iter(range(1, 10_000))
    return plan_import(state, tables, command, lambda: f"new-{next(fresh)}")


def _entry(unit: object, index: int) -> tuple[ListedUnit, set[str]]:
    """One unit of the list as an entry, and the names of its rules the morale rules do not read."""
    if not isinstance(unit, dict):
        raise InvalidInputError.saying(
            "unit {index} of the list is not a unit (an object with a name and a size)", index=index
        )
    base = _text(unit.get("name"), Words("the name of unit {index}", index=index))
    custom = _text(unit.get("customName"), Words("the custom name of unit {index}", index=index))
    if not (custom or base):
        raise InvalidInputError.saying("unit {index} of the list has no name", index=index)
    name = check_name(custom or base, f"unit {possessive(index)} name")
    who = Words("{unit} (unit {index} of the list)", unit=name, index=index)
    entry = unit.get("selectionId")
    if not isinstance(entry, str) or not entry.strip():
        raise InvalidInputError.saying("{who} has no selectionId: Army Forge gives every unit of a list one", who=who)
    options = [u.get("option") for u in _listed(unit.get("selectedUpgrades"), who, "selectedUpgrades")]
    chosen = [o for o in options if isinstance(o, dict)]
    if len(chosen) != len(options):
        raise InvalidInputError.saying(
            "{who}: its upgrades name no option (an Army Forge save file's units, not a list's)", who=who
        )
    rules = list(_rules(unit, chosen, who))
    keys = [k for k, _ in rules]
    tough = sum(rating for key, rating in rules if key == "tough")
    xp = _number(unit.get("xp", 0) or 0, who, "xp")
    upgrades = sum(_number(o.get("cost", 0) or 0, who, Words("upgrade cost")) for o in chosen)
    points = _number(unit.get("cost"), who, "cost") + upgrades
    profile_fields = {
        "models": _number(unit.get("size"), who, "size") + sum(1 for o in chosen if o.get("isModel")),
        "quality": _number(unit.get("quality"), who, "quality"),
        "defense": _number(unit.get("defense"), who, "defense") if unit.get("defense") is not None else None,
        "tough": tough or 1,
        "fearless": "fearless" in keys,
        "hero": "hero" in keys,
        "points": points + xp // LEVEL_XP * LEVEL_POINTS,
    }
    try:
        profile = UnitProfile.model_validate(profile_fields)
    except ValidationError as exc:
        raise InvalidInputError.saying(
            "{who} cannot be a Grimdark Future unit here: {problems}", who=who, problems=problems(exc, Words("unit"))
        ) from None
    traits = unit.get("traits") or []
    if not isinstance(traits, list) or not all(isinstance(t, str) for t in traits):
        raise InvalidInputError.saying("{who}: its traits are not a list of names", who=who)
    joins = unit.get("joinToUnit")
    if joins is not None and not isinstance(joins, str):
        raise InvalidInputError.saying("{who}: its joinToUnit is not a unit's selectionId", who=who)
    listed = ListedUnit.model_validate(
        {"entry": entry.strip(), "name": name, "profile": profile, "xp": xp, "traits": traits, "joins": joins or None}
    )
    unread = {_rule_name(r) for r in _all_rules(unit, chosen) if _rule_key(r) not in READ_RULES} - {""}
    return listed, unread


def _rules(
    unit: Mapping[str, object], options: Iterable[Mapping[str, object]], who: Words
) -> Iterable[tuple[str, int]]:
    """Each rule of the unit as (key, rating): its own and those its upgrades give it."""
    for rule in _all_rules(unit, options):
        key = _rule_key(rule)
        rating = rule.get("rating")
        if key == "tough":
            yield key, _number(rating, who, Words("Tough rating"))
        else:
            yield key, 0


def _all_rules(unit: Mapping[str, object], options: Iterable[Mapping[str, object]]) -> list[Mapping[str, object]]:
    rules: list[Mapping[str, object]] = [
        r for field in ("specialRules", "rules") for r in _items(unit.get(field)) if isinstance(r, dict)
    ]
    for option in options:
        for gain in _items(option.get("gains")):
            if not isinstance(gain, dict):
                continue
            if gain.get("type") in ("ArmyBookRule", "ArmyBookDefense"):
                rules.append(gain)
            elif gain.get("type") == "ArmyBookItem":
                rules += [
                    c for c in _items(gain.get("content")) if isinstance(c, dict) and "Rule" in str(c.get("type"))
                ]
    return rules


def _items(value: object) -> list[object]:
    """What a file's array holds (none where it has no array, or a value of another kind: nothing in it is a
    rule)."""
    return value if isinstance(value, list) else []


def _rule_key(rule: Mapping[str, object]) -> str:
    key = rule.get("key") or rule.get("name") or ""
    return "".join(str(key).split()).casefold()


def _rule_name(rule: Mapping[str, object]) -> str:
    return str(rule.get("name") or rule.get("key") or "")


def _listed(value: object, who: Words, field: str) -> list[Mapping[str, object]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise InvalidInputError.saying("{who}: its {field} are not a list", who=who, field=field)
    return value


def _text(value: object, what: Words) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidInputError.saying("{what} is not text", what=what)
    return " ".join(value.split())


def _number(value: object, who: Words, what: str | Words) -> int:
    """A whole number as Army Forge writes one: a number, or its digits as text ("3", "+1"); ``what`` is the
    field (its name in the file, or words for it)."""
    if isinstance(value, bool):
        raise InvalidInputError.saying("{who}: its {what} is not a number ({value!r})", who=who, what=what, value=value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("+").isdigit():
        return int(value.strip().lstrip("+"))
    raise InvalidInputError.saying(
        "{who}: its {what} is not a whole number ({value!r})", who=who, what=what, value=value
    )


def plan_in_words(plan: ImportPlan, notes: Iterable[Words] = ()) -> list[str]:
    """What importing a list does, a line each, in the reader's language: the units mustered, updated, unchanged,
    no longer in the list, and the notes of reading it (names numbered, traits or rules no rule reads). Names
    are as the list and the roster have them; Quality, Tough and Fearless are the seed's terms."""
    lines = [_("the {source} list “{list}” for {side}:").format(source=SOURCE, list=plan.list_name, side=plan.side)]
    lines += ["  " + _("mustered {unit}: {said}").format(unit=c.name, said=_phrases(c.said)) for c in plan.added]
    lines += ["  " + _("updated {unit}: {said}").format(unit=c.name, said=_phrases(c.said)) for c in plan.updated]
    if plan.unchanged:
        lines.append("  " + _("as the list has them already: {units}").format(units=", ".join(plan.unchanged)))
    if plan.missing:
        lines.append(
            "  "
            + _("no longer in the list, left on the roster: {units} (`gf disband` takes a unit off)").format(
                units=", ".join(plan.missing)
            )
        )
    lines += ["  " + _("note: {note}").format(note=_said(n)) for n in (*plan.notes, *notes)]
    return lines


def plan_as_json(plan: ImportPlan, notes: Iterable[Words] = ()) -> dict[str, object]:
    """The plan for ``--json``: its words in English, whoever reads (scripts see the same words everywhere)."""
    with reading_in(DEFAULT):
        return {
            "list": plan.list_name,
            "side": plan.side,
            "added": [{"unit": c.name, "said": [_said(w) for w in c.said]} for c in plan.added],
            "updated": [{"unit": c.name, "said": [_said(w) for w in c.said]} for c in plan.updated],
            "unchanged": list(plan.unchanged),
            "missing": list(plan.missing),
            "notes": [_said(n) for n in (*plan.notes, *notes)],
        }


def _phrases(said: Iterable[Words | Term]) -> str:
    return ", ".join(_said(w) for w in said)


def _said(words: Words | Term) -> str:
    """A phrase of the plan in the reader's language: its template through the catalogs, a term in the seed's
    words, a count of models in the plural form its number takes."""
    if isinstance(words, Term):
        return _term(words)
    return words.said(_, _term, plural=ngettext)


def _term(term: Term) -> str:
    return shown(term.ruleset, term.set, term.value)


@dataclass(frozen=True)
class ArmyForge:
    """Army Forge's lists as the plug-in's ``army_list`` (``campaign.rulesets.hooks.ArmyLists``)."""

    source: str = SOURCE
    command: str = "gf.import_list"
    # A docstring's lines as they were written (the catalogs' msgid of its help is these words, broken here)
    help: str = """Import an Army Forge list: each unit mustered (models, Quality, Defense, Tough, Fearless, hero, points, XP
    and traits), its heroes' joins kept for each battle's start. Importing a later version of the same list
    updates the units it made (shown first, asked or --yes); names it holds twice are numbered."""  # noqa: E501

    def read(self, data: bytes, side: str, *, what: str | Words | None = None) -> ArmyList:
        return read_army_list(data, side, what=what or THE_FILE)

    def plan(self, state: CampaignState, tables: Tables, command: ImportList) -> ImportPlan:
        return preview_import(state, tables, command)

    def in_words(self, plan: ImportPlan, notes: Iterable[Words] = ()) -> list[str]:
        return plan_in_words(plan, notes)

    def as_json(self, plan: ImportPlan, notes: Iterable[Words] = ()) -> dict[str, object]:
        return plan_as_json(plan, notes)


ARMY_FORGE = ArmyForge()

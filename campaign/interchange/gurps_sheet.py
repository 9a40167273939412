"""GURPS Character Sheet (GCS) characters as Mass Combat PCs, and battle files that name them.

A ``.gcs`` file is GCS's JSON (github.com/richardwilkes/gcs: ``model/gurps/entity.go`` ``EntityData``, data
``version`` 2 to 5 as ``model/jio/version.go`` accepts them): ``profile.name``; ``total_points``; ``attributes``,
each an ``attr_id`` with its ``calc.value`` (``iq``); ``skills``, each a ``name``, an optional
``specialization`` and its ``calc.level`` (a skill container holds ``children``: ``model/gurps/skill.go``); and
``traits`` (advantages, older files ``advantages``), each a ``name``, containers holding ``children``. GCS writes
the ``calc`` values when it saves a sheet.

A battle file's ``[[pcs]]`` entry may say ``gcs = "caliburn.gcs"`` (a path from the battle file's folder) and
which of the sheet's skills is the PC's main weapon (``weapon_skill = "Broadsword"``); the PC's name, IQ, that
skill's level, Tactics (when the sheet has the skill; else the rules default it from IQ), Combat Reflexes,
Danger Sense, Luck and the character's points are read from the sheet. A value the entry gives itself stands
(the GM's word over the sheet's); a skill the sheet lacks is refused in words.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import orjson

from campaign.i18n import ngettext
from events.errors import InvalidInputError

VERSIONS = range(2, 6)
"""The data versions GCS reads (``MinimumDataVersion`` 2 to ``CurrentDataVersion`` 5)."""
FLAGS = {
    "combat_reflexes": ("combat reflexes",),
    "danger_sense": ("danger sense",),
    "luck": ("luck", "extraordinary luck", "ridiculous luck"),
}
"""The PC's advantages the battle reads, by the names GCS gives them (Extraordinary and Ridiculous Luck are Luck)."""
SHEET_KEYS = frozenset({"gcs", "weapon_skill"})


@dataclass(frozen=True)
class Character:
    """What the battle reads of a GURPS character."""

    name: str
    iq: int
    points: int
    skills: Mapping[str, int]
    """Each skill's level by its name as GCS shows it ("Guns (Rifle)"), in the sheet's order."""
    traits: tuple[str, ...]

    def skill(self, wanted: str, what: str) -> int:
        """The level of the skill ``wanted`` (letter case aside; a skill with a specialization by its name alone
        when the sheet has one of that name); refused in words when the sheet lacks it."""
        folded = {name.casefold(): level for name, level in self.skills.items()}
        key = " ".join(wanted.split()).casefold()
        if key in folded:
            return folded[key]
        alike = [level for name, level in self.skills.items() if name.casefold().partition(" (")[0] == key]
        if len(alike) == 1:
            return alike[0]
        if not self.skills:
            raise InvalidInputError.saying(
                "{what} ({character}) has no skill {skill!r}: the sheet has no skills",
                what=what,
                character=self.name,
                skill=wanted,
            )
        raise InvalidInputError.saying(
            "{what} ({character}) has no skill {skill!r}: its skills are {skills}",
            what=what,
            character=self.name,
            skill=wanted,
            skills=", ".join(self.skills),
        )

    def has(self, names: Iterable[str]) -> bool:
        """Whether the character has one of the advantages ``names`` (GCS's names, letter case aside)."""
        wanted = set(names)
        return any(" ".join(t.split()).casefold() in wanted for t in self.traits)


def read_character(data: bytes, what: str) -> Character:
    """The character of a ``.gcs`` file, or a refusal in words (``what`` names the file)."""
    try:
        sheet = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise InvalidInputError.saying(
            "{what} is not a GURPS Character Sheet file: it is not JSON ({why})", what=what, why=str(exc)
        ) from None
    if not isinstance(sheet, dict) or not isinstance(sheet.get("profile"), dict):
        raise InvalidInputError.saying(
            "{what} is not a GURPS Character Sheet file: it has no character profile", what=what
        )
    version = sheet.get("version")
    if version not in VERSIONS:
        raise InvalidInputError.saying(
            "{what} is GCS data version {version!r}: versions {first}–{last} are read (open it in GCS and save it "
            "again)",
            what=what,
            version=version,
            first=VERSIONS.start,
            last=VERSIONS.stop - 1,
        )
    name = " ".join(str(sheet["profile"].get("name") or "").split())
    if not name:
        raise InvalidInputError.saying("{what}: the character has no name (its profile's name)", what=what)
    iq = next((a for a in sheet.get("attributes") or [] if isinstance(a, dict) and a.get("attr_id") == "iq"), None)
    iq_value = _whole((iq or {}).get("calc", {}).get("value") if isinstance(iq, dict) else None)
    if iq_value is None:
        raise InvalidInputError.saying(
            "{what} ({character}) holds no calculated IQ: open it in GCS and save it again", what=what, character=name
        )
    points = _whole(sheet.get("total_points"))
    if points is None:
        raise InvalidInputError.saying("{what} ({character}) holds no total points", what=what, character=name)
    skills: dict[str, int] = {}
    for skill in _rows(sheet.get("skills")):
        calc = skill.get("calc")
        level = _whole(calc.get("level") if isinstance(calc, dict) else None)
        title = " ".join(str(skill.get("name") or "").split())
        if not title or level is None:
            continue
        special = " ".join(str(skill.get("specialization") or "").split())
        skills.setdefault(f"{title} ({special})" if special else title, level)
    traits = tuple(
        str(t.get("name"))
        for t in _rows(sheet.get("traits") or sheet.get("advantages"))
        if t.get("name") and not t.get("disabled")
    )
    return Character(name, iq_value, points, skills, traits)


def pc_from_sheet(entry: Mapping[str, object], character: Character, what: str) -> dict[str, object]:
    """A ``[[pcs]]`` entry naming a sheet, as the battle reads a PC: the sheet's values where the entry gives
    none (its ``name`` must be the character's)."""
    fields = {k: v for k, v in entry.items() if k not in SHEET_KEYS}
    given = fields.get("name")
    if given is not None and " ".join(str(given).split()).casefold() != character.name.casefold():
        raise InvalidInputError.saying(
            "{what} is the sheet of {character}, not of {given}", what=what, character=character.name, given=given
        )
    fields["name"] = character.name
    fields.setdefault("iq", character.iq)
    if "weapon" not in fields:
        skill = entry.get("weapon_skill")
        if not isinstance(skill, str) or not skill.strip():
            raise InvalidInputError.saying(
                "{character}: the entry names a sheet ({what}), so say which skill is the main weapon (weapon_skill = "
                '"Broadsword")',
                character=character.name,
                what=what,
            )
        fields["weapon"] = character.skill(skill, what)
    if "tactics" not in fields and any(name.casefold() == "tactics" for name in character.skills):
        fields["tactics"] = character.skill("Tactics", what)
    for flag, names in FLAGS.items():
        fields.setdefault(flag, character.has(names))
    fields.setdefault("points", character.points)
    return fields


def read_battle_file(path: Path) -> tuple[dict[str, object], list[str]]:
    """A battle set-up file (TOML or JSON) as the battle command takes it, each PC that names a GCS sheet read
    from it; and a line of words for each sheet read, in the reader's language."""
    data = _parsed(path)
    said: list[str] = []
    pcs = data.get("pcs")
    if isinstance(pcs, list):
        resolved = []
        for entry in pcs:
            if not isinstance(entry, dict) or "gcs" not in entry:
                resolved.append(entry)
                continue
            sheet_path = path.parent / str(entry["gcs"])
            what = str(entry["gcs"])
            character = read_character(_read(sheet_path), what)
            pc = pc_from_sheet(entry, character, what)
            resolved.append(pc)
            said.append(_read_from(character, what, pc))
        data = {**data, "pcs": resolved}
    return data, said


def _read_from(character: Character, what: str, pc: Mapping[str, object]) -> str:
    """What the battle read of a sheet, in the reader's language (its character's points with their plural form)."""
    n, fields = character.points, {"character": character.name, "what": what, "iq": pc["iq"], "weapon": pc["weapon"]}
    if "tactics" in pc:
        return ngettext(
            "{character} from {what}: IQ {iq}, weapon skill {weapon}, Tactics {tactics}, {points} point",
            "{character} from {what}: IQ {iq}, weapon skill {weapon}, Tactics {tactics}, {points} points",
            n,
        ).format(tactics=pc["tactics"], points=n, **fields)
    return ngettext(
        "{character} from {what}: IQ {iq}, weapon skill {weapon}, {points} point",
        "{character} from {what}: IQ {iq}, weapon skill {weapon}, {points} points",
        n,
    ).format(points=n, **fields)


def _parsed(path: Path) -> dict[str, object]:
    text = _read(path)
    try:
        data = tomllib.loads(text.decode()) if path.suffix == ".toml" else orjson.loads(text)
    except (tomllib.TOMLDecodeError, orjson.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidInputError.saying(
            "{path} is not valid {format}: {why}",
            path=str(path),
            format=path.suffix.lstrip(".") or "JSON",
            why=str(exc),
        ) from None
    if not isinstance(data, dict):
        raise InvalidInputError.saying("{path} holds no battle set-up (a table of its fields)", path=str(path))
    return data


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InvalidInputError.saying("cannot read {path}: {why}", path=str(path), why=exc.strerror) from None


def _rows(rows: object) -> Iterator[Mapping[str, object]]:
    """Every row of a GCS list, the rows inside its containers included, in the sheet's order (none where the
    sheet has no list)."""
    if not isinstance(rows, list):
        return
    for row in rows:
        if isinstance(row, dict):
            yield row
            yield from _rows(row.get("children"))


def _whole(value: object) -> int | None:
    """A GCS number as a whole number (GCS writes fixed-point values as JSON numbers)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str):
        try:
            return int(float(value))
        except ValueError:
            return None
    return None

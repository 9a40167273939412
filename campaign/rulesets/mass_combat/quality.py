"""Troop quality, Morale and experience (§2.3, §2.5, §2.6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from campaign.rulesets.mass_combat import RULESET
from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.tables import QUALITIES, Tables
from campaign.rulesets.tables import pick
from events.errors import InvalidInputError, Term
from events.recorded import JsonValue, text, whole


def base_morale(tables: Tables, quality: str, *, irregular: bool = False) -> int:
    morale = tables.quality_row(quality).morale
    if irregular and quality == "inexperienced":
        morale += tables.morale.irregular_inexperienced
    return morale


def exempt_from_morale(tables: Tables, p: UnitProfile) -> bool:
    """R2-26: zombies, skeletons (``morale.exempt_troops``) and any unit the GM marks ``no_morale``."""
    return p.no_morale or (p.troop_type or "").lower() in tables.morale.exempt_troops


def leadership_modifier(tables: Tables, leadership: int | None) -> int:
    """+1 per 3 full levels of Leadership above 12, −1 per 3 below (C-3: the example's reading)."""
    if leadership is None:
        return 0
    pivot, step = tables.morale.leadership_pivot, tables.morale.leadership_step
    if leadership >= pivot:
        return (leadership - pivot) // step
    return -((pivot - leadership) // step)


def quality_for_experience(tables: Tables, battles: int) -> str:
    """The quality whose experience band holds ``battles`` (average battles per man)."""
    found = QUALITIES[0]
    for quality in QUALITIES:
        if battles >= tables.quality_row(quality).experience_from:
            found = quality
    return found


def battle_experience(tables: Tables, profile: UnitProfile) -> tuple[int, str]:
    """A unit's experience and quality after one more battle (§2.3): every man who fought has one battle more,
    and the quality follows the band it reaches (never lower than it was)."""
    experience = profile.experience + 1
    quality = max(profile.quality, quality_for_experience(tables, experience), key=QUALITIES.index)
    return experience, quality


def experience_rows(tables: Tables, units: Sequence[tuple[str, UnitProfile]]) -> list[list[JsonValue]]:
    """What the end of a battle does to each unit that fought (§2.3), by name: ``[name, experience before, after,
    quality before, after, base Morale before, after, the inexperienced irregulars' cut that no longer applies
    (0: none)]``, the qualities and Morale the same when the quality does not change."""
    rows: list[list[JsonValue]] = []
    for name, p in sorted(units, key=lambda u: u[0]):
        experience, quality = battle_experience(tables, p)
        before = base_morale(tables, p.quality, irregular=p.irregular)
        after = base_morale(tables, quality, irregular=p.irregular)
        changed = quality != p.quality
        cut = tables.morale.irregular_inexperienced if changed and p.irregular and p.quality == "inexperienced" else 0
        rows.append([name, p.experience, experience, p.quality, quality, before, after, cut])
    return rows


def experience_words(rows: Sequence[Sequence[JsonValue]]) -> str:
    """:func:`experience_rows` in words: 'Caliburn's gang 0 → 1, now green (was inexperienced): base Morale 6 →
    11'. A unit whose quality changes says its base Morale before and after."""
    parts = []
    for name, was, now, quality_was, quality, before, after, cut in rows:
        words = f"{name} {was} → {now}"
        if quality != quality_was:
            words += f", now {quality} (was {quality_was}): base Morale {before} → {after}"
            if cut:
                words += f" (the {whole(cut):+d} for inexperienced irregulars no longer applies)"
        parts.append(words)
    if not parts:
        return ""
    return "; one battle more of experience for every unit that fought (§2.3): " + "; ".join(parts)


def settle_experience(tables: Tables, profile: Mapping[str, JsonValue]) -> dict[str, JsonValue]:
    """A new unit's quality and experience (R2-12, R3-23): given a quality only, the lower bound of its band; given
    an experience only, the band it falls in (no default quality stands in for the missing one); given both, they
    must agree. Given neither, both are left out for the 3d quality table to decide (``quality.when_unstated``
    "roll"), or the unit is Average at its lower bound ("average", the second edition's program)."""
    out = {k: v for k, v in profile.items() if not (k in ("quality", "experience") and v is None)}
    quality, experience = out.get("quality"), out.get("experience")
    if quality is not None and quality not in QUALITIES:
        return out  # the profile's own validation names the qualities
    if experience is not None and (isinstance(experience, bool) or not isinstance(experience, int) or experience < 0):
        return out
    if quality is None and out.get("untrained") is True:
        out["quality"] = quality = "inexperienced"  # untrained men are Inexperienced (§2.3, C-6)
    if quality is None and experience is None:
        if tables.quality.when_unstated == "roll":
            return out
        out["quality"] = "average"
    if experience is None:
        out["experience"] = tables.quality_row(text(out["quality"])).experience_from
    elif quality is None:
        out["quality"] = quality_for_experience(tables, experience)
    elif quality_for_experience(tables, experience) != quality:
        raise InvalidInputError.saying(
            "experience {experience} is {actual}, not {quality}: {quality} troops have from {battles} battles",
            experience=experience,
            actual=Term(RULESET.name, "quality", quality_for_experience(tables, experience)),
            quality=Term(RULESET.name, "quality", quality),
            battles=tables.quality_row(quality).experience_from,
        )
    return out


def _band(roll_from: Mapping[str, int], roll: int) -> str:
    """The row of a 3d table whose band holds ``roll``: the highest low end not above it (``roll_from``: each
    row's low end)."""
    rows = [(roll_from[q], q) for q in QUALITIES]
    eligible = [row for row in rows if roll >= row[0]]
    return max(eligible)[1] if eligible else min(rows)[1]


def quality_from_roll(tables: Tables, roll: int) -> str:
    """The 3d quality table: low rolls are better."""
    return _band({q: tables.quality_row(q).roll_from for q in QUALITIES}, roll)


def needs_reroll(tables: Tables, quality: str, *, new_unit: bool, replacements: int) -> bool:
    """New units, and more than 10 replacements, can't be raised as Veterans or Elite (*)."""
    return bool(tables.quality_row(quality).reroll_when_raised) and (new_unit or replacements > 10)


def average_experience(groups: Sequence[tuple[int, int]]) -> int:
    """floor(Σ men × battles / Σ men): recruits count the lower bound of their quality's band (§2.3)."""
    men = sum(m for m, _ in groups)
    if men <= 0:
        raise InvalidInputError.saying("experience needs at least one man")
    return sum(m * b for m, b in groups) // men


def quality_step_down(quality: str) -> str:
    """A new unit commander drops quality one step, never below Inexperienced (§2.3)."""
    index = QUALITIES.index(quality)
    return QUALITIES[max(0, index - 1)]


def commander_skill(tables: Tables, roll: int) -> tuple[str, int]:
    """NPC commander experience from 3d (§2.5): the same table gives Strategy or Leadership."""
    level = _band({q: pick(tables.commander, q, "commander").roll_from for q in QUALITIES}, roll)
    return level, pick(tables.commander, level, "commander").skill


@dataclass(frozen=True)
class Training:
    """What months of training make of a unit (§2.3, R3-21)."""

    before: int
    """The months it had: the sum of every period recorded, or the months that make untrained men Inexperienced
    for a unit mustered so (not untrained) [INF]."""
    months: int
    """Its months now."""
    quality: str
    untrained: bool
    experience: int


def training(tables: Tables, name: str, p: UnitProfile, months: int) -> Training:
    """``months`` more of training for the unit ``name`` (R3-21): the months of every period add up; untrained men are
    Inexperienced troops from ``training.inexperienced_months``, Green from ``training.green_months`` (counted
    from untrained), at Green's lower bound of experience; no better without battle. A Green or better unit is
    refused, naming its quality."""
    to_inexperienced = tables.training.inexperienced_months
    to_green = tables.training.green_months
    if QUALITIES.index(p.quality) >= QUALITIES.index("green"):
        raise InvalidInputError.saying(
            "{unit} is {quality}: training makes troops no better than Green (untrained men need {inexperienced} "
            "months to be Inexperienced troops, {green} to be Green); only battle makes them better",
            unit=name,
            quality=Term(RULESET.name, "quality", p.quality),
            inexperienced=to_inexperienced,
            green=to_green,
        )
    before = p.trained_months if p.untrained or p.trained_months else to_inexperienced
    total = before + months
    green = total >= to_green
    experience = tables.quality.rows["green"].experience_from if green else p.experience
    return Training(
        before, total, "green" if green else p.quality, p.untrained and total < to_inexperienced, experience
    )


def trained_quality(tables: Tables, quality: str, months: int, *, untrained: bool = False) -> tuple[str, bool]:
    """Training (§2.3): ``training.inexperienced_months`` (6) make untrained men Inexperienced troops, a year
    (``training.green_months``) makes them Green; never higher without combat. (quality, still untrained)."""
    green_after = tables.training.green_months
    if months >= green_after and quality in QUALITIES[: QUALITIES.index("green")]:
        return "green", False
    if untrained and months >= tables.training.inexperienced_months:
        return quality, False
    return quality, untrained


def extraordinary_force_pm(
    tables: Tables, points: int, *, bonus: int = 0, mana: str = "normal", stone_capacity: int = 0
) -> int:
    """One user's ES in per-mille (§2.13, R2-23): 100 points give ½; items add ``bonus``, a power stone +1 per
    ``extraordinary_modifiers.power_stone_capacity`` (10) of its capacity; the mana level (low, normal, very_high)
    scales the whole by ``extraordinary_modifiers.mana_<level>_pct``."""
    if points < 0 or stone_capacity < 0:
        raise InvalidInputError.saying("points and a stone's capacity cannot be negative")
    modifiers = tables.extraordinary_modifiers
    by_mana = {
        "low": modifiers.mana_low_pct,
        "normal": modifiers.mana_normal_pct,
        "very_high": modifiers.mana_very_high_pct,
    }
    if mana not in by_mana:
        raise InvalidInputError.saying("mana {mana!r}: low, normal or very_high", mana=mana)
    steps = tables.extraordinary.points_pm
    es_pm = 0
    for threshold, value in steps:
        if points >= threshold:
            es_pm = int(value)
    top = int(steps[-1][0])
    if points > top:
        es_pm += (points - top) // 10 * tables.extraordinary.per_ten_beyond
    bonus += stone_capacity // tables.extraordinary_modifiers.power_stone_capacity
    return max(0, (es_pm + bonus * 1000) * by_mana[mana] // 100)


def army_force(user_pms: Sequence[int]) -> int:
    """An army's ES (R2-23): each user's ES with its fractions, summed; the army spends whole points."""
    return sum(user_pms) // 1000


def extraordinary_force(
    tables: Tables, points: int, *, bonus: int = 0, mana: str = "normal", stone_capacity: int = 0
) -> int:
    """One user's ES in whole points an army can spend alone (a lone 100-point mage's ½ buys nothing)."""
    return army_force([extraordinary_force_pm(tables, points, bonus=bonus, mana=mana, stone_capacity=stone_capacity)])

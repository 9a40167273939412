"""Extraordinary Force spent in a battle (§2.13): spells on units, the enemy's catastrophe roll, recon."""

from __future__ import annotations

from collections.abc import Sequence

from campaign.rulesets.decision import Decision
from campaign.rulesets.mass_combat.quality import army_force, extraordinary_force_pm
from campaign.rulesets.mass_combat.runs import SideRun
from campaign.rulesets.mass_combat.setup import Side
from campaign.rulesets.mass_combat.tables import Tables
from events.errors import InvalidInputError
from events.recorded import JsonValue


def effect_size(tables: Tables, points: int, ts: int) -> int:
    """Rows or Morale points that ``points`` of ES buy on a unit of TS ``ts``: points × 100 ÷ TS, to the nearest
    whole number, a half up (R2-23); ``extraordinary.rounding`` "down" is the first edition's."""
    numerator = points * tables.extraordinary.ts_per_point
    ts = max(ts, 1)
    if tables.extraordinary.rounding == "down":
        return numerator // ts
    return (2 * numerator + ts) // (2 * ts)


def effect_words(tables: Tables, points: int, ts: int, effect: int) -> str:
    """Why a spell on a unit has the size it has (R2-23): '1 point × 100 ÷ TS 300 = 0.33, to the nearest: 0, too
    few points for a unit of that strength: no effect'."""
    per_point = tables.extraordinary.ts_per_point
    hundredths = points * per_point * 100 // max(ts, 1)
    way = "rounded down" if tables.extraordinary.rounding == "down" else "to the nearest"
    ratio = f"{hundredths // 100}.{hundredths % 100:02d}"
    words = f"{points} point{'s' if points != 1 else ''} × {per_point} ÷ TS {ts} = {ratio}, {way}: {effect}"
    if effect == 0:
        words += ", too few points for a unit of that strength: no effect"
    return words


def recon_bonus(tables: Tables, points: int) -> int:
    """NPC recon by ES (R2-24): +1 Strategy per full 3 points, at most +2; more points buy nothing."""
    return min(tables.extraordinary.recon_max, points // tables.extraordinary.recon_per_points)


def side_force_pm(tables: Tables, side: Side) -> int:
    """A side's Extraordinary Force in per-mille (R2-23): its whole points given (``es``) and each of its users'
    ES with the fractions, summed; the side spends the whole points of the sum."""
    users = (
        extraordinary_force_pm(tables, u.points, bonus=u.bonus, mana=u.mana, stone_capacity=u.stone) for u in side.users
    )
    return side.es * 1000 + sum(users)


def _es_words(pm: int) -> str:
    return f"{pm // 1000}.{pm % 1000:03d}".rstrip("0").rstrip(".")


def spend_force(tables: Tables, sides: Sequence[SideRun]) -> list[Decision]:  # noqa: C901, PLR0912, PLR0915 (RULES.md's steps, in its order)
    """Extraordinary Force (§2.13): each side's spells, less what the targets' own defence blocks."""
    for side in sides:
        spent = sum(spell.points for spell in side.setup.spells)
        have = army_force([side_force_pm(tables, side.setup)])
        if side.setup.users and spent > have:
            raise InvalidInputError.saying(
                "{side} spends {spent} Extraordinary Force points but has {have} (ES {es}: an army spends whole "
                "points, R2-23)",
                side=side.name,
                spent=spent,
                have=have,
                es=_es_words(side_force_pm(tables, side.setup)),
            )
    every_unit = {u.unit.name: (side, u) for side in sides for u in side.units}
    for side in sides:
        for spell in side.setup.spells:
            if spell.kind != "defence":
                continue
            if spell.target is None:
                side.army_defence += spell.points // 2
            else:
                owner, unit = every_unit.get(spell.target, (None, None))
                if unit is None or owner is not side:
                    raise InvalidInputError.saying(
                        "{side} can only shield its own units, not {target!r}", side=side.name, target=spell.target
                    )
                unit.blocked += spell.points
    decisions: list[Decision] = []
    for side in sides:
        lines = []
        said: list[JsonValue] = []  # each line's terms, so that a reader's language can say it (not hashed)
        down = tables.extraordinary.rounding == "down"
        per_point = tables.extraordinary.ts_per_point
        recon_points = 0
        for spell in side.setup.spells:
            if spell.kind == "defence":
                lines.append(f"defence {spell.points} on {spell.target or 'the whole army'}")
                said.append(["defence", spell.points, spell.target])
                continue
            if spell.kind == "recon":
                recon_points += spell.points
                gain = recon_bonus(tables, recon_points)
                side.strategy_mods["recon (Extraordinary Force)"] = gain
                lines.append(f"recon {spell.points} points → Strategy +{gain} for {recon_points} points in all")
                said.append(["recon", spell.points, gain, recon_points])
                continue
            if spell.kind == "catastrophe":
                enemies = [s for s in sides if s is not side]
                target = (
                    next((s for s in enemies if s.name == spell.target), None)
                    if spell.target
                    else (enemies[0] if len(enemies) == 1 else None)
                )
                if target is None:
                    raise InvalidInputError.saying("with several enemies, a catastrophe spell names the side it curses")
                blocked = min(spell.points, target.army_defence * 2)
                target.army_defence -= blocked // 2
                bonus = (spell.points - blocked) // tables.catastrophe.rules.es_per_point
                target.catastrophe_bonus += bonus
                lines.append(f"{spell.points} points on {target.name}'s catastrophe roll → +{bonus}")
                said.append(["catastrophe", spell.points, target.name, bonus])
                continue
            owner, unit = every_unit.get(spell.target or "", (None, None))
            if unit is None or owner is None:
                raise InvalidInputError.saying("no unit {target!r} in this battle", target=spell.target)
            points = spell.points
            if owner is not side:
                stopped = min(points, unit.blocked)
                unit.blocked -= stopped
                points -= stopped
            effect = effect_size(tables, points, unit.ts)
            why = [points, per_point, unit.ts, points * per_point * 100 // max(unit.ts, 1), down, effect]
            if spell.kind == "morale" and unit.exempt:
                lines.append(f"Morale on {unit.unit.name}: not subject to Morale, no effect")
                said.append(["morale_exempt", unit.unit.name])
            elif spell.kind == "morale":
                unit.morale += effect * spell.direction
                lines.append(
                    f"Morale {effect * spell.direction:+d} on {unit.unit.name} (TS {unit.ts}): "
                    f"a spell to {'lower' if spell.direction < 0 else 'raise'} it, "
                    f"{effect_words(tables, points, unit.ts, effect)}"
                )
                said.append(["morale", unit.unit.name, spell.direction, *why])
            elif spell.kind == "strike":
                unit.strike_rows += effect
                lines.append(
                    f"Strike on {unit.unit.name}: {effect} row{'s' if effect != 1 else ''} up "
                    f"({effect_words(tables, points, unit.ts, effect)})"
                )
                said.append(["strike", unit.unit.name, *why])
            else:
                unit.healing_rows += effect
                lines.append(
                    f"Healing on {unit.unit.name}: {effect} row{'s' if effect != 1 else ''} down "
                    f"({effect_words(tables, points, unit.ts, effect)})"
                )
                said.append(["healing", unit.unit.name, *why])
        if side.setup.spells:
            inputs: dict[str, JsonValue] = {"side": side.name, "es": side.setup.es, "users": len(side.setup.users)}
            inputs["said"] = said
            head = f"{side.name} spends Extraordinary Force: "
            if side.setup.users:
                pm = side_force_pm(tables, side.setup)
                inputs["es_pm"] = pm
                head = (
                    f"{side.name} has ES {_es_words(pm)} ({len(side.setup.users)} users' fractions summed"
                    + (f", and {side.setup.es} more" if side.setup.es else "")
                    + f": {pm // 1000} whole points to spend) and spends: "
                )
            decisions.append(
                Decision(
                    "extraordinary_force",
                    "§2.13",
                    None,
                    inputs,
                    {"spent": sum(sp.points for sp in side.setup.spells)},
                    head + "; ".join(lines),
                )
            )
    return decisions

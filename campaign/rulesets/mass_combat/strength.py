"""Troop strength (§2.2), the quality multiplier (§2.3), and the optional Morale ↔ TS rule (§2.7)."""

from __future__ import annotations

from dataclasses import dataclass

from campaign.rulesets.mass_combat.profile import UnitProfile
from campaign.rulesets.mass_combat.tables import Tables
from campaign.rulesets.tables import pick
from events.errors import InvalidInputError


@dataclass(frozen=True)
class Strength:
    per_man: int
    men: int
    specials: int
    quality_pct: int
    total: int
    parts: tuple[str, ...]

    def __str__(self) -> str:
        return f"TS {self.total} = ({' '.join(self.parts)})"


def per_man_ts(tables: Tables, p: UnitProfile) -> tuple[int, list[str]]:  # noqa: C901, PLR0912 (RULES.md's steps, in its order)
    """One man's TS from his equipment, mount and weapons (§2.2): max(1, armour + mount + race), then fine weapons,
    high-tech armour, APC, flying, ranged and rifle, then the irregular cut TS − floor(TS ÷ 3) (R2-28, R2-29)."""
    if p.ts_per_man is not None:
        return p.ts_per_man, [f"{p.ts_per_man} as given (quick and dirty)"]
    parts: list[str] = []
    base = pick(tables.ts.armour, p.armour, "ts.armour")
    if base:
        parts.append(f"{p.armour} {base}")
    mount = pick(tables.ts.mount, p.mount, "ts.mount")
    if mount:
        parts.append(f"+{p.mount} {mount}")
        if p.no_stirrups:
            mount += tables.ts.mount["no_stirrups"]
            parts.append("−no stirrups 1")
    base += mount
    if p.non_human is not None:
        nh = p.non_human
        st = nh.st_mod + nh.super_strength * tables.ts.rules.super_strength_st
        raw = st + nh.ht_mod + nh.extra_hp
        mod = raw // 2 if raw >= 0 else -((-raw) // 2)
        if mod:
            parts.append(f"{'+' if mod > 0 else '−'}non-human {abs(mod)}")
        base += mod
    floor = tables.ts.rules.floor
    if tables.ts.rules.floor_after_armour:
        base = max(base, floor)  # R2-28: the hobbit examples: max(1, armour + mount + race)
    else:  # the text's order: the floor on mount and race, armour added after it
        armour = pick(tables.ts.armour, p.armour, "ts.armour")
        base = max(base - armour, floor) + armour
    if p.fine_weapons:
        base += tables.ts.rules.fine_weapons
        parts.append("+fine weapons 1")
    if p.high_tech_dr:
        base += p.high_tech_dr // 2
        parts.append(f"+½ DR {p.high_tech_dr // 2}")
    if p.apc:
        base += p.tl
        parts.append(f"+APC TL {p.tl}")
    if p.flying:
        base += p.tl
        parts.append(f"+flying TL {p.tl}")
    if p.ranged not in tables.ts.ranged:
        raise InvalidInputError.saying(
            "unknown ranged weapon {typed!r}: one of {known}", typed=p.ranged, known=", ".join(sorted(tables.ts.ranged))
        )
    ranged = pick(tables.ts.ranged, p.ranged, "ts.ranged")  # "none" too: its value is a table value like any other
    base += ranged
    if ranged:
        parts.append(f"+{p.ranged} {ranged}")
    if p.rifle:
        base += p.tl
        parts.append(f"+rifle TL {p.tl}")
    if p.irregular:
        cut = base // tables.ts.rules.irregular_divisor
        base -= cut
        parts.append(f"−⅓ irregular {cut}")
    return base, parts


def troop_strength(tables: Tables, p: UnitProfile, *, men: int | None = None, quality: str | None = None) -> Strength:
    """TS(unit) = per-man TS × men × the quality multiplier, plus special weapons (crew included)."""
    count = p.men if men is None else men
    per_man, parts = per_man_ts(tables, p)
    specials = 0
    archers: list[str] = []
    for item, n in sorted(p.special.items()):
        if item not in tables.ts.special:
            raise InvalidInputError.saying(
                "unknown special weapon {typed!r}: one of {known}",
                typed=item,
                known=", ".join(sorted(tables.ts.special)),
            )
        each = pick(tables.ts.special, item, "ts.special")
        if item in tables.ts.chariots:  # R3-24: and the TS of its extra archer, of the chariot's weight
            weapon = p.ranged if p.ranged != "none" else str(tables.ts.chariots["archer_weapon"])
            weight = str(pick(tables.ts.chariots, item, "ts.chariots"))
            archer = pick(tables.ts.armour, weight, "ts.armour") + pick(tables.ts.ranged, weapon, "ts.ranged")
            each += archer
            archers.append(f"{n} {item.replace('_', ' ')} with a {weight} archer ({weapon}) each: {n} × {each}")
        specials += each * n
    alone = 0 if p.special else p.crew * tables.ts.rules.crew_alone  # §2.2: a crew without its object
    pct = tables.quality_row(quality or p.quality).ts_pct
    total = (per_man * count + specials + alone) * pct // 100
    shown = [f"{per_man} per man [{', '.join(parts) or 'no equipment'}] × {count} men"]
    if specials:
        shown.append(f"+ specials {specials}" + (f" ({'; '.join(archers)})" if archers else ""))
    if alone:
        shown.append(f"+ a crew of {p.crew} without its objects {alone}")
    if pct != 100:
        shown.append(f"× {pct}% ({quality or p.quality})")
    return Strength(per_man, count, specials, pct, total, tuple(shown))


def morale_adjusted_ts(tables: Tables, ts: int, morale: int, base_morale: int) -> int:
    """§2.7 (optional): TS × (1 + 10% × (current − base Morale)), to the nearest whole TS."""
    pct = 100 + tables.morale.ts_pct_per_morale * (morale - base_morale)
    return max(0, (ts * pct * 2 + 100) // 200)

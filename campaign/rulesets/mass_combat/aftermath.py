"""The end of a battle day (§2.11–§2.12): which result table, the units' Morale rolls, casualties."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from campaign.rulesets.decision import Decision
from campaign.rulesets.mass_combat.position import position
from campaign.rulesets.mass_combat.runs import SideRun, UnitRun
from campaign.rulesets.mass_combat.setup import BattleSetup
from campaign.rulesets.mass_combat.strength import morale_adjusted_ts, troop_strength
from campaign.rulesets.mass_combat.tables import Tables
from events.dice import Dice, Roll, die, parse
from events.families.career import CasualtiesTaken, UnitFate
from events.recorded import JsonValue
from events.registry import Event

THREE_D = parse("3d")
FOUR_D = parse("4d")


@dataclass(frozen=True)
class Defeat:
    side: SideRun
    w: int
    key: str


@dataclass(frozen=True)
class Outcome:
    table: str
    winner: SideRun
    defeats: tuple[Defeat, ...]
    clear_from: int = 8

    @property
    def w(self) -> int:
        return min(d.w for d in self.defeats)

    @property
    def key(self) -> str:
        return min(self.defeats, key=lambda d: d.w).key

    @property
    def decided(self) -> bool:
        """Someone has the better of it, clearly or not (not Table A 0–3)."""
        return self.key != "no_clear_winner"

    @property
    def clear(self) -> bool:
        """A clear victory (R2-11): W ≥ ``economy.clear_victory_from`` (8) in Table A, B or C."""
        return self.decided and self.w >= self.clear_from

    def lost(self, side: SideRun) -> bool:
        return any(d.side is side and d.key != "no_clear_winner" for d in self.defeats)


def is_clear_victory(tables: Tables, result: str) -> bool:
    """Whether a recorded result key is a clear victory (R2-11): its band of W starts at ``clear_victory_from``
    or higher in Table A, B or C."""
    clear_from = tables.economy.clear_victory_from
    for table in (tables.results.open_field, tables.results.defender_wins, tables.results.attacker_wins):
        for low, key in table:
            if key == result:
                return int(low) >= clear_from
    return False


def result_of(tables: Tables, setup: BattleSetup, sides: Sequence[SideRun]) -> Outcome:
    """Table A unless the defender holds a starred position; then B (defender wins) or C (attacker wins), R2-16.
    A siege battle is a storm of the besieged, who hold a starred position by being besieged: always B or C."""
    ranked = sorted(sides, key=lambda s: -s.margin)
    winner = ranked[0]
    clear_from = tables.economy.clear_victory_from
    defender = next((s for s in sides if s.setup.role == "defender"), None)
    attacker = next((s for s in sides if s.setup.role == "attacker"), None)
    starred = defender is not None and (
        setup.siege or position(tables, defender.setup, enemy_artillery_or_sappers=False).starred
    )
    if defender is None or attacker is None or not starred:
        defeats = tuple(
            Defeat(s, winner.margin - s.margin, tables.band(tables.results.open_field, winner.margin - s.margin))
            for s in ranked[1:]
        )
        return Outcome("A", winner, defeats, clear_from)
    w = abs(attacker.margin - defender.margin)
    if attacker.margin > defender.margin:
        return Outcome("C", attacker, (Defeat(defender, w, tables.band(tables.results.attacker_wins, w)),), clear_from)
    return Outcome("B", defender, (Defeat(attacker, w, tables.band(tables.results.defender_wins, w)),), clear_from)


def _morale_roll(dice: Dice, u: UnitRun, penalty: int, extra: int = 0) -> tuple[Roll, int, str]:
    mods = sum(u.roll_mods.values()) + penalty + extra
    target = u.morale + mods
    roll = dice.roll(THREE_D, f"Morale roll, {u.unit.name}", side=u.unit.side)
    # the quality's base apart from what the campaign and this battle add (arrears, a lost commander, bonus pay…)
    carried = f" (base {u.base} {u.morale - u.base:+d})".replace("-", "−") if u.morale != u.base else ""
    detail = f"Morale {u.morale}{carried}" + "".join(f" {k.replace('_', ' ')} {v:+d}" for k, v in u.roll_mods.items())
    if penalty:
        detail += f" result {penalty:+d}"
    if extra:
        detail += f" nowhere to go {extra:+d}"
    return roll, target - roll.total, f"{detail} = {target}, rolled {roll.total}"


def morale_phase(tables: Tables, outcome: Outcome, dice: Dice) -> list[Decision]:  # noqa: C901, PLR0912 (RULES.md's steps, in its order)
    decisions: list[Decision] = []
    fail_rout = tables.results.retreat_fail_by
    nowhere = tables.results.nowhere_to_go_bonus

    def roll_unit(
        u: UnitRun, key: str, penalty: int, on_pass: str, on_fail: str, *, needs_room: bool = False, extra: int = 0
    ) -> bool:
        if u.exempt:  # R2-26: not subject to Morale, it passes without a roll
            u.fate = on_pass
            decisions.append(
                Decision(
                    "unit_morale",
                    "§2.11",
                    u.unit.unit_id,
                    {"exempt": "not subject to Morale"},
                    {"fate": on_pass},
                    f"{u.unit.name}: not subject to Morale → passes → {on_pass}",
                )
            )
            return True
        roll, margin, detail = _morale_roll(dice, u, penalty, extra)
        fate = on_pass if margin >= 0 else on_fail
        if key == "no_clear_winner" and margin < 0:
            fate = "retreats" if -margin < fail_rout else "routs"
        extra_rolls = [roll]
        if fate == "retreats" and u.nowhere_to_go and needs_room:
            again, m2, d2 = _morale_roll(dice, u, penalty, nowhere)
            extra_rolls.append(again)
            fate = "holds" if m2 >= 0 else "surrenders"
            detail += f"; nowhere to retreat: {d2} → {fate}"
        u.fate = fate
        decisions.append(
            Decision(
                "unit_morale",
                "§2.11",
                u.unit.unit_id,
                {
                    "morale": u.morale,
                    "modifiers": dict(u.roll_mods),
                    "penalty": penalty,
                    # the sentence's terms in its order (the ruleset's said.py)
                    "base": u.base,
                    "terms": [[k, v] for k, v in u.roll_mods.items()],
                    **({"nowhere_to_go": extra} if extra else {}),
                },
                {"margin": margin, "fate": fate},
                f"{u.unit.name}: {detail} → {'made' if margin >= 0 else 'failed'} by {abs(margin)} → {fate}",
                (),
                tuple(extra_rolls),
            )
        )
        return margin >= 0

    if any(d.key == "no_clear_winner" for d in outcome.defeats):
        for u in outcome.winner.units:
            roll_unit(u, "no_clear_winner", 0, "holds", "retreats")
    for defeat in outcome.defeats:
        loser, key = defeat.side, defeat.key
        if key == "no_clear_winner":
            for u in loser.units:
                roll_unit(u, key, 0, "holds", "retreats")
        elif outcome.table == "A":
            penalty = {"minor_victory": 0, "victory_morale_2": -2, "victory_morale_4": -4}.get(key)
            if penalty is None:
                for u in loser.units:
                    u.fate = "routs"
                decisions.append(
                    Decision(
                        "unit_morale",
                        "§2.11",
                        None,
                        {"side": loser.name},
                        {"fate": "routs"},
                        f"overwhelming victory: every unit of {loser.name} routs",
                    )
                )
            else:
                for u in loser.units:
                    roll_unit(u, key, penalty, "retreats", "routs")
        elif key in ("attacker_holds_half", "attacker_holds_half_2", "defender_holds_half"):
            penalty = -2 if key.endswith("_2") else 0
            passed = [roll_unit(u, key, penalty, "holds", "fails") for u in loser.units]
            holds = sum(passed) * 2 >= len(passed)
            for u in loser.units:
                u.fate = "holds" if holds else "retreats"
            if not holds and key == "defender_holds_half":
                for u in loser.units:
                    if u.nowhere_to_go:
                        roll_unit(u, key, 0, "holds", "surrenders", extra=nowhere)
            decisions.append(
                Decision(
                    "army_morale",
                    "§2.11",
                    None,
                    {"passed": sum(passed), "units": len(passed), "side": loser.name},
                    {"holds": holds},
                    f"{sum(passed)} of {len(passed)} units of {loser.name} pass: the army "
                    f"{'holds' if holds else 'retreats in good order'}",
                )
            )
        elif key in ("attacker_breaks", "attacker_breaks_2", "position_taken", "position_taken_captured"):
            penalty = -2 if key in ("attacker_breaks_2", "position_taken_captured") else 0
            taken = key.startswith("position")
            for u in loser.units:
                # R3-19: a defender that fails and cannot escape surrenders; one that passes is told to retreat.
                on_fail = "surrenders" if taken and u.nowhere_to_go else "routs"
                roll_unit(u, key, penalty, "retreats", on_fail, needs_room=taken)
    return decisions


def next_day_morale(tables: Tables, outcome: Outcome) -> Decision | None:
    """R2-18: Table B 0–3 leaves every attacker unit that fought at −2 Morale the next day, Table C 4–7 every
    defender unit; it lapses at the end of the next calendar day."""
    key = outcome.key
    if (outcome.table, key) not in (("B", "thrown_back"), ("C", "both_hold")):
        return None
    side = outcome.defeats[0].side  # B: the attacker thrown back; C: the defender who held
    value = tables.results.next_day_morale
    units = [u for u in side.units if not u.exempt]
    return Decision(
        "next_day_morale",
        "§2.11",
        None,
        {"side": side.name, "result": key},
        {"persist": [{"unit_id": u.unit.unit_id, "value": value, "until": "next_day"} for u in units]},
        f"{side.name}: Morale {value:+d} on the next day for " + ", ".join(u.unit.name for u in units),
    )


def casualty_offset(tables: Tables, row: int) -> int:
    """The casualty table's modifier to 4d on a row: round((30 − 10·r) / 3) by default (§2.12, [INF])."""
    r = max(tables.casualties.row_min, min(tables.casualties.row_max, row))
    numerator = 2 * (tables.casualties.offset_base + tables.casualties.offset_per_row * r)
    divisor = 2 * tables.casualties.offset_divisor
    return (numerator + tables.casualties.offset_divisor) // divisor


def side_row(outcome: Outcome, side: SideRun) -> int:
    """+W for the winner (against the closest loser), −W for each loser."""
    if side is outcome.winner:
        return outcome.w
    return -next(d.w for d in outcome.defeats if d.side is side)


def _captured_artillery(outcome: Outcome, lost: Mapping[str, dict[str, int]]) -> str:
    """Lost artillery goes to the victor; after a draw each side keeps half of its own, the rest is destroyed."""
    notes = []
    for side_name, items in lost.items():
        for item, count in items.items():
            if not count:
                continue
            if outcome.decided and side_name != outcome.winner.name:
                notes.append(f"{outcome.winner.name} captures {count} {item.replace('_', ' ')} of {side_name}")
            elif not outcome.decided:
                notes.append(
                    f"{side_name} keeps {count // 2} of {count} lost {item.replace('_', ' ')}, the rest is destroyed"
                )
    return "; ".join(notes)


def casualties(
    tables: Tables, setup: BattleSetup, outcome: Outcome, sides: Sequence[SideRun], battle_id: str, dice: Dice
) -> list[Decision]:
    decisions: list[Decision] = []
    lost_artillery: dict[str, dict[str, int]] = {}
    for side in sides:
        row = side_row(outcome, side)
        roll = dice.roll(FOUR_D, f"casualty roll, {side.name}", side=side.name)
        side_rolls: list[Roll] = [roll]
        lines = []
        # each unit's line as data (the ruleset's said.py); verify compares outcomes, never inputs
        rows: list[JsonValue] = []
        facts: list[Event] = []
        for u in side.units:
            shifts: dict[str, int] = {}
            if side.setup.role == "defender" and outcome.table != "A":  # only starred rows, so B and C (R2-16)
                # R3-20: each starred value as the enemy's artillery or sappers lowered it
                sappers = setup.attacker_has_artillery_or_sappers
                starred = position(tables, side.setup, enemy_artillery_or_sappers=sappers).casualty_rows
                if starred:
                    shifts["fortification"] = starred
            armour = u.unit.profile.casualty_armour()
            if armour != "none":
                shifts[f"{armour} armour"] = {
                    "heavy": tables.casualties.armour_heavy,
                    "medium": tables.casualties.armour_medium,
                    "light": tables.casualties.armour_light,
                }[armour]
            # R3-19: a unit that surrenders takes its losses on its row as one that did not rout
            # (``results.surrender_casualty_row`` "as_routed": 1d rows up as a rout).
            if u.fate == "routs" or (u.fate == "surrenders" and tables.results.surrender_casualty_row == "as_routed"):
                rout = dice.roll(die(6), f"rout row shift, {u.unit.name}", side=u.unit.side)
                side_rolls.append(rout)
                shifts["routed (1d)"] = -rout.total
            if side.setup.intensity:
                shifts["intensity"] = -side.setup.intensity
            if u.healing_rows - u.strike_rows:
                shifts["strike/healing"] = u.healing_rows - u.strike_rows
            unit_row = row + sum(shifts.values())
            pct = max(0, min(100, roll.total + casualty_offset(tables, unit_row)))
            men = u.unit.profile.men
            lost = -(-men * pct // 100)
            dead = lost // tables.casualties.dead_divisor
            wounded = lost - dead
            for item, count in u.unit.profile.special.items():
                if "artillery" in item or "siege" in item or "ballista" in item:
                    lost_artillery.setdefault(side.name, {})[item] = count * pct // 100
            after = troop_strength(tables, u.unit.profile, men=men - dead).total
            if setup.morale_ts and not u.exempt:
                after = morale_adjusted_ts(tables, after, u.morale, u.base)
            prisoners = u.fate == "surrenders" and tables.results.surrendered_leave_roster
            u.ts = 0 if prisoners else after
            u.wiped_out = men > 0 and lost >= men
            shown = ", ".join(f"{k} {v:+d}" for k, v in shifts.items())
            kept: list[JsonValue] = [[k, v] for k, v in shifts.items()]
            rows.append([u.unit.name, unit_row, kept, pct, dead, wounded, men - dead if prisoners else None])
            lines.append(
                f"{u.unit.name} row {unit_row:+d}{f' ({shown})' if shown else ''} → {pct}%: {dead} dead, "
                f"{wounded} wounded"
                + (f"; it surrendered: its {men - dead} men left are prisoners, TS 0" if prisoners else "")
            )
            facts.append(
                CasualtiesTaken(battle_id=battle_id, unit_id=u.unit.unit_id, percent=pct, dead=dead, wounded=wounded)
            )
            facts.append(UnitFate(battle_id=battle_id, unit_id=u.unit.unit_id, fate=u.fate))
        side.ts = sum(u.ts for u in side.units)
        base_pct = max(0, min(100, roll.total + casualty_offset(tables, row)))
        decisions.append(
            Decision(
                "casualties",
                "§2.12",
                None,
                {"side": side.name, "row": row, "units": rows},
                {"roll": roll.total, "base_percent": base_pct, "ts_after": side.ts},
                f"{side.name} casualties on row {row:+d}: 4d rolled {roll.total} → {base_pct}% before unit shifts; "
                + "; ".join(lines)
                + f"; TS after the battle {side.ts}",
                tuple(facts),
                tuple(side_rolls),
            )
        )
    captured = _captured_artillery(outcome, lost_artillery)
    if captured:
        decisions.append(
            Decision(
                "artillery",
                "§2.12",
                None,
                {},
                {"lost": {side: dict(lost) for side, lost in lost_artillery.items()}},
                captured,
            )
        )
    return decisions

"""One line a person can read for each event: what the log view and command output print."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from events.envelope import RecordedEvent

ROLE_WORDS = {"gm": "game master", "player": "player", "observer": "observer"}


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
    p: Mapping[str, Any] = event.payload
    names = names or {}

    def n(key: str) -> str:
        value = p.get(key)
        return names.get(value, str(value)[:8]) if value else "?"

    if "explanation" in p:
        return str(p["explanation"])
    kind = event.type
    if kind == "campaign.created":
        commitment = p["seed_commitment"][:12]
        return f"campaign {p['name']!r} created under {p['ruleset']} (dice seed committed: {commitment}…)"
    if kind == "dice.rolled":
        faces = "+".join(str(f) for f in p["faces"])
        source = (
            f"table dice entered by {p['entered_by']}" if p["source"] == "table" else f"seed epoch {p['seed_epoch']}"
        )
        total = f" = {p['total']}" if len(p["faces"]) > 1 or p["modifier"] else ""
        return f"roll #{p['roll_index']} {p['notation']} for {p['purpose']!r}: {faces}{total} ({source})"
    if kind == "dice.seed_revealed":
        return f"seed of epoch {p['epoch']} revealed: every roll made with it can now be checked"
    if kind == "dice.seed_committed":
        return f"new dice seed committed for epoch {p['epoch']} ({p['commitment'][:12]}…)"
    if kind == "roster.unit_mustered":
        profile = ", ".join(f"{k} {v}" for k, v in p["profile"].items() if v not in (None, False))
        chain = f", reports to {n('reports_to')}" if p.get("reports_to") else ""
        return f"{p['name']} mustered for {p['side']} ({profile}){chain}"
    if kind == "timeline.command_issued":
        # Scalars in full; a profile or a list of deployments only by name (the events after it spell them out).
        args = ", ".join(
            f"{k} {v!r}" if not isinstance(v, dict | list) else f"{k} …"
            for k, v in p["args"].items()
            if v not in (None, False, "", [], {})
        )
        amends = f", amending seq {p['amends']}" if p.get("amends") is not None else ""
        return f"command {p['command']}" + (f" ({args})" if args else "") + amends
    if kind == "membership.granted":
        sides = f" for {', '.join(p['sides'])}" if p.get("sides") else ""
        return f"{p['account']} joins as {ROLE_WORDS.get(p['role'], p['role'])}{sides}"
    if kind == "membership.removed":
        return f"{p['account']} leaves the campaign" + (f": {p['reason']}" if p.get("reason") else "")
    if kind == "timeline.rewound":
        return f"rewound to seq {p['to_seq']}: {p['reason']} (later events kept, retracted)"
    if kind == "roster.unit_disbanded":
        return f"{n('unit_id')} disbanded: {p['reason']}"
    if kind == "roster.men_transferred":
        moved = f"{p['men']} men transferred from {n('from_unit_id')} to {n('to_unit_id')}"
        return f"{moved}, bringing experience {p['experience']}"
    if kind == "rules.table_overridden":
        return f"house rule: {p['path']} = {p['value']}" + (f" ({p['note']})" if p.get("note") else "")
    if kind == "battle.started":
        settings = "; ".join(
            f"{side} " + ", ".join(f"{k} {v}" for k, v in s.items()) if s else str(side)
            for side, s in p["settings"].items()
        )
        return f"battle {p['name']!r} begins: {settings}"
    if kind == "battle.unit_deployed":
        state = ", ".join(f"{k} {v}" for k, v in p["state"].items() if v not in (False, None))
        return f"{n('unit_id')} deployed for {p['side']}: {p['men']} men, {state}"
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
    if kind == "morale.grade_changed":
        return f"{n('unit_id')}: {p['from_grade']} → {p['to_grade']}"
    if kind == "battle.unit_removed":
        return f"{n('unit_id')} leaves the battle: {p['reason']}"
    if kind == "battle.ended":
        return f"battle {n('battle_id')} ends: {p['result']}" + (f" (winner {p['winner']})" if p.get("winner") else "")
    if kind == "battle.turn_began":
        return f"turn {p['turn']} begins"
    if kind == "morale.action_failed":
        return f"{n('unit_id')} may not try {p['action']} again this turn"
    if kind == "morale.panic_changed":
        return f"{n('unit_id')}: {p['panic']}"
    if kind == "morale.last_stand_changed":
        return f"{n('unit_id')}: No step back {'begins' if p['active'] else 'ends'} ({p['reason']})"
    if kind == "morale.rally_attempted":
        return f"{n('officer_id')} spends a rally action on {n('unit_id')}"
    if kind == "battle.models_lost":
        return f"{n('unit_id')} loses {p['count']} model{'s' if p['count'] != 1 else ''} ({p['cause']})"
    if kind == "morale.disorder_changed":
        total = p["markers"] + p["permanent"]
        permanent = " (one permanent)" if p["permanent"] else ""
        return f"{n('unit_id')}: {total} disorder marker{'s' if total != 1 else ''}{permanent}, {p['reason']}"
    if kind == "battle.force_morale":
        what = "every unit tests once" if p["status"] == "half" else "its remaining units flee"
        return f"{p['side']}'s force has lost {p['lost_points']} points: {what}"
    if kind == "battle.officer_removed":
        return f"{p['side']}'s officer is removed from play"
    if kind == "career.officer_appointed":
        rank = f" ({p['rank']})" if p.get("rank") else ""
        return f"{p['officer']}{rank} takes command of {p['side']}"
    if kind == "career.glory_awarded":
        return f"{p['officer']} ({p['side']}) gains {p['glory']:+d} Glory"
    if kind == "career.rank_reached":
        return f"{p['officer']} reaches the rank of {p['rank']} ({p['glory']} Glory)"
    if kind == "battle.wounds_taken":
        by = f" from {n('by_unit_id')}" if p.get("by_unit_id") else ""
        killed = f": {p['models_lost']} model{'s' if p['models_lost'] != 1 else ''} killed" if p["models_lost"] else ""
        return f"{n('unit_id')} takes {p['wounds']} wound{'s' if p['wounds'] != 1 else ''} ({p['source']}{by}){killed}"
    if kind == "morale.shaken_changed":
        return f"{n('unit_id')} is {'Shaken' if p['shaken'] else 'no longer Shaken'} ({p['reason']})"
    if kind == "battle.kill_credited":
        return f"{n('unit_id')} is credited with {n('victim_id')}" + (" (a hero)" if p["victim_hero"] else "")
    if kind == "battle.victory_points":
        return f"{p['side']} scores {p['points']} VP"
    if kind == "economy.funds_changed":
        return f"{p['side']}: {p['amount']:+d} ({p['reason']})"
    if kind == "career.xp_gained":
        return f"{n('unit_id')} gains {p['xp']} XP"
    if kind == "career.trait_gained":
        cost = f", {p['points']:+d} pts" if p.get("points") else ""
        return f"{n('unit_id')} gains the {p['kind']} trait {p['trait']}{cost}"
    if "unit_id" in p:
        rest = ", ".join(f"{k} {v}" for k, v in p.items() if k not in ("battle_id", "unit_id"))
        return f"{n('unit_id')}: {kind.split('.', 1)[1].replace('_', ' ')}" + (f" ({rest})" if rest else "")
    return ", ".join(f"{k}={v}" for k, v in p.items())

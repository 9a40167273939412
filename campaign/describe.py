"""One line a person can read for each event: what the log view and command output print."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events.envelope import RecordedEvent


def describe(event: RecordedEvent) -> str:
    p: Mapping[str, Any] = event.payload
    if "explanation" in p:
        return str(p["explanation"])
    if event.type == "campaign.created":
        return (
            f"campaign {p['name']!r} created under {p['ruleset']} (dice seed committed: {p['seed_commitment'][:12]}…)"
        )
    if event.type == "dice.rolled":
        faces = "+".join(str(f) for f in p["faces"])
        source = (
            f"table dice entered by {p['entered_by']}" if p["source"] == "table" else f"seed epoch {p['seed_epoch']}"
        )
        total = f" = {p['total']}" if len(p["faces"]) > 1 or p["modifier"] else ""
        return f"roll #{p['roll_index']} {p['notation']} for {p['purpose']!r}: {faces}{total} ({source})"
    if event.type == "dice.seed_revealed":
        return f"seed of epoch {p['epoch']} revealed: every roll made with it can now be checked"
    if event.type == "dice.seed_committed":
        return f"new dice seed committed for epoch {p['epoch']} ({p['commitment'][:12]}…)"
    return ", ".join(f"{k}={v}" for k, v in p.items())

"""The third-edition errata of seeds 000 and 001 played once through the CLI, with the options they added (RULES.md
R3-1 … R3-13; the values are worked by hand in the acceptance tests' comments)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.test_cli import Cli


def rules(result: dict[str, Any], rule: str | None = None) -> list[dict[str, Any]]:
    return [
        e["payload"]
        for e in result["events"]
        if e["type"] == "rules.applied" and (rule is None or e["payload"]["rule"] == rule)
    ]


def test_five_grades_third_edition_through_the_cli(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "fs.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    muster = ("fs", "muster")
    cli(*muster, "Greens", "--side", "Keno", "--quality", "green", "--lv", "2", "--size", "8")
    cli(*muster, "HQ", "--side", "Keno", "--quality", "regular", "--lv", "1", "--size", "4", "--radio")
    cli(*muster, "Squad", "--side", "Keno", "--quality", "regular", "--lv", "1", "--size", "6", "--radio",
        "--reports-to", "HQ")  # fmt: skip
    cli(*muster, "Steel", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "8")
    cli("fs", "battle-start", "Hill", "--side", "Keno=medium", "--side", "Steel=medium", "--unit", "Greens=fresh",
        "--unit", "HQ=fresh", "--unit", "Squad=fresh,start:steady", "--unit", "Steel=fresh")  # fmt: skip
    # R3-4: a miss by Steel is the Greens' first fire: its panic test (d6 1 ≤ LV 2) comes with the attack.
    fired = cli.json("fs", "attack", "Greens", "--by", "Steel", "--dice", "1")
    assert [r["rule"] for r in rules(fired)] == ["attack", "panic_test"]
    assert rules(fired, "attack")[0]["inputs"]["by"] and rules(fired, "attack")[0]["inputs"]["kind"] == "small_arms"
    # R3-2: panicking, the Greens go nowhere; the one panic test of its activation (d6 3 > 2: over).
    before = cli.events()
    assert "Greens is panicking" in cli("fs", "position", "Greens", "--prone", code=2).stderr
    assert cli.events() == before
    cli("fs", "panic", "Greens", "--dice", "3")
    assert "has had its activation in turn 1" in cli("fs", "activate", "Greens", code=2).stderr  # R3-1
    # An assault is not fire (Steel, a Veteran, has no panic at all): its morale test only.
    assault = cli.json("fs", "attack", "Steel", "--killed", "1", "--assault", "--dice", "9")
    assert rules(assault, "attack")[0]["inputs"]["kind"] == "close_combat"
    # R3-8: 6.0" in sight: no communication test; 6.1": a test (HQ's d8 5 > 1), then the rally (LV 1 + 1 = 2). The
    # Squad first falls below its start: leader lost, 1 + 3 = 4; d8 1 → −2, Ст → Ра.
    cli("fs", "morale", "Squad", "--threat", "leader_lost", "--dice", "1")
    near = cli.json("fs", "rally", "Squad", "--officer", "HQ", "--distance", "6.0", "--dice", "1")
    assert rules(near)[0]["outcome"]["result"] == "failed" and "no communication test" in rules(near)[0]["explanation"]
    far = cli.json("fs", "rally", "Squad", "--officer", "HQ", "--distance", "6.1", "--dice", "5,8")
    assert (
        "communication: officer quality d8" in rules(far)[0]["explanation"]
        and rules(far)[0]["inputs"]["distance"] == "6.1"
    )
    assert "to a tenth at most" in cli("fs", "rally", "Squad", "--officer", "HQ", "--distance", "6.55", code=2).stderr


def test_disorder_third_edition_through_the_cli(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "dis.db"))
    cli("new", "Peninsula", "--ruleset", "disorder")
    ally = ("--contingent", "Portuguese")
    for name, side, extra in (
        ("A1", "British", ()),
        ("A2", "British", ()),
        ("P1", "British", ally),
        ("F1", "French", ()),
    ):
        cli("dis", "muster", name, "--side", side, "--models", "10", "--troops", "line", "--points", "100", *extra)
    cli("dis", "officer", "British", "Sharpe")
    cli("dis", "officer", "French", "Dubreton")
    cli("dis", "battle-start", "Fuentes", "--encounter", "--unit", "A1", "--unit", "A2", "--unit", "P1", "--unit", "F1")
    # R3-9: no friend has left play yet.
    assert "no friendly unit has left play" in cli("dis", "check", "A1", "--cause", "friend_removed", code=2).stderr
    # R3-13: the contingent's unit destroyed: nothing for the British force's points; A1 checks for it (8 ≥ 6).
    removed = cli.json("dis", "remove", "P1", "--reason", "destroyed in melee")
    assert [r["rule"] for r in rules(removed)] == ["unit_removed"]
    checked = cli.json("dis", "check", "A1", "--cause", "friend_removed", "--friend-at", "11.5", "--dice", "4,4")
    assert rules(checked)[0]["inputs"]["friend_at"] == "11.5"
    # R3-11: one rally a turn.
    cli("dis", "marker", "A2", "--reason", "lost a melee")
    cli("dis", "rally", "A2", "--dice", "1,1")
    assert "rally attempt this turn" in cli("dis", "rally", "A2", "--dice", "6,6", code=2).stderr
    # R3-12: French destroyed P1's 10 models, British none: the French win, and a typed British win is refused.
    assert "not British" in cli("dis", "battle-end", "--winner", "British", code=2).stderr
    ended = cli.json("dis", "battle-end")
    assert rules(ended, "battle_end")[0]["outcome"] == {
        "result": "won by French",
        "scores": {"British": 0, "French": 10},
    }

"""A branch keeps its parent's dice for the shared history and says which rolls are new (DESIGN.md,
"Dice": dice of a retracted command stay on the table and are offered again, in order, to the next commands that
roll the same dice). ``branch`` says it in words and in ``--json``; ``log`` and ``audit`` label each roll of a
branch: kept from the parent, offered again, or new."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from events.dice.derive import derive_faces
from tests.e2e.test_cli import SEED, Cli


def _rolls(result: Any) -> list[dict[str, Any]]:
    return [dict(e["payload"]) for e in result["events"] if e["type"] == "dice.rolled"]


def _outcomes(result: Any) -> list[Any]:
    return [e["payload"]["outcome"] for e in result["events"] if e["type"] == "rules.applied"]


@pytest.fixture
def played(tmp_path: Path) -> tuple[Cli, dict[str, Any]]:
    """A played Grimdark campaign with a rewind that left two rolls on the table, one of them taken back since.

    Rolls: #0 d20 weather; #1 d6 A's morale; #2 d6 B's morale and #3 2d6 ambush, both retracted by the rewind
    (on the table); #4 2d6 ambush entered again, taking #3's dice. The branch is made here: #0–#4 kept, #2 on
    the table, new rolls from #5 on."""
    cli = Cli(str(tmp_path / "front.db"))
    cli("new", "Front", "--ruleset", "grimdark", "--seed", SEED)
    for unit, side in (("A", "X"), ("B", "Y")):
        cli("gf", "muster", unit, "--side", side, "--models", "10", "--quality", "4", "--points", "140")
    cli("gf", "battle-start", "Field", "--unit", "A", "--unit", "B")
    seen: dict[str, Any] = {"weather": _rolls(cli.json("roll", "d20", "-p", "weather"))[0]}
    seen["a_morale"] = _rolls(cli.json("gf", "shoot", "A", "--wounds", "5", "--by", "B"))[0]  # half: a d6 test
    # (A fails it on these dice: Shaken, it shoots no more (R3-25); B's wounds below come from no unit named)
    keep = cli.events()
    seen["b_shot"] = cli.json("gf", "shoot", "B", "--wounds", "5")
    seen["ambush"] = _rolls(cli.json("roll", "2d6", "-p", "ambush"))[0]
    cli("rewind", "--to", str(keep), "--reason", "B was out of range")
    seen["ambush_again"] = _rolls(cli.json("roll", "2d6", "-p", "ambush"))[0]
    seen["at"] = cli.events()
    return cli, seen


def test_branch_says_which_rolls_are_kept_offered_again_and_new(played: tuple[Cli, dict[str, Any]]) -> None:
    cli, seen = played
    b_morale = _rolls(seen["b_shot"])[0]
    assert [b_morale["roll_index"], seen["ambush"]["roll_index"], seen["ambush_again"]["roll_index"]] == [2, 3, 4]
    assert seen["ambush_again"]["offered_from"] == 3  # the parent took #3 off the table; #2 is still on it
    made = cli.json("branch", "What if", "--at", str(seen["at"]))
    assert made["dice"] == {
        "parent": "Front",
        "at_seq": seen["at"],
        "kept": {"count": 5, "first_roll": 0, "last_roll": 4},
        "on_table": [
            {"seq": made["dice"]["on_table"][0]["seq"], "roll": 2, "notation": "d6", "faces": b_morale["faces"],
             "purpose": b_morale["purpose"]}
        ],
        "new_from_roll": 5,
        "seed_epoch": 1,
    }  # fmt: skip
    words = cli("branch", "Other", "--at", str(seen["at"]), "-c", "Front").stdout
    assert "rolls #0–#4 (5) kept from Front" in words
    assert "1 on the table, offered again in order" in words and f"roll #2 d6: {b_morale['faces'][0]}" in words
    assert "every other roll from #5 on is new: drawn from Other's own seed (epoch 1" in words


def test_the_parents_next_command_on_the_branch_gets_the_dice_left_on_the_table(
    played: tuple[Cli, dict[str, Any]],
) -> None:
    cli, seen = played
    cli("branch", "What if", "--at", str(seen["at"]))
    parent = cli.json("gf", "shoot", "B", "--wounds", "5", "-c", "Front")  # the parent's next command
    mine = cli.json("gf", "shoot", "B", "--wounds", "5", "-c", "What if")
    b_morale = _rolls(seen["b_shot"])[0]
    for result in (parent, mine):
        [rolled] = _rolls(result)
        assert rolled["roll_index"] == 5 and rolled["offered_from"] == 2 and rolled["faces"] == b_morale["faces"]
    assert _outcomes(mine) == _outcomes(parent) == _outcomes(seen["b_shot"])

    # A roll after those is new: the branch's own seed (epoch 1), which its reveal shows it was derived from.
    new = _rolls(cli.json("roll", "d100", "-p", "scouts", "-c", "What if"))[0]
    assert (new["roll_index"], new["source"], new["seed_epoch"]) == (6, "seeded", 1)
    revealed = cli.json("reveal", "-c", "What if")["events"][0]["payload"]
    assert revealed["epoch"] == 1
    branch_id = cli.json("log", "-c", "What if", "--upto", "1")["events"][0]["campaign_id"]
    parent_id = cli.json("log", "--upto", "1", "-c", "Front")["events"][0]["campaign_id"]
    assert branch_id != parent_id  # a branch derives its dice under its parent's id, from a seed of its own
    assert list(derive_faces(bytes.fromhex(revealed["seed"]), parent_id, 6, 1, 100)) == new["faces"]


def test_log_and_audit_of_a_branch_label_each_roll(played: tuple[Cli, dict[str, Any]]) -> None:
    cli, seen = played
    cli("branch", "What if", "--at", str(seen["at"]))
    w = ("-c", "What if")
    cli("gf", "shoot", "B", "--wounds", "5", *w)  # #5: the dice of the parent's #2
    cli("undo", *w)
    again = _rolls(cli.json("gf", "shoot", "B", "--wounds", "5", *w))[0]  # #6: those of #5, so #2's
    assert (again["roll_index"], again["offered_from"]) == (6, 5)
    cli("roll", "d100", "-p", "scouts", *w)  # #7: new
    cli("undo", *w)
    cli("roll", "d100", "-p", "scouts", *w)  # #8: the dice of #7, first rolled on the branch: new

    rolls = cli.json("log", "--type", "dice.rolled", *w)["events"]
    origin = {e["payload"]["roll_index"]: e["origin"] for e in rolls}
    kinds = {index: o["kind"] for index, o in origin.items()}
    assert kinds == {
        0: "kept", 1: "kept", 2: "kept", 3: "kept", 4: "kept", 5: "offered_again", 6: "offered_again", 7: "new",
        8: "new",
    }  # fmt: skip
    assert Counter(kinds.values()) == {"kept": 5, "offered_again": 2, "new": 2}
    assert origin[5]["from_roll"] == origin[6]["from_roll"] == 2
    assert origin[5]["words"] == "offered again: the dice of Front's roll #2"
    assert origin[7]["words"] == "new on this branch: from this branch's own seed (epoch 1)"
    assert origin[8]["words"] == "new on this branch: dice first rolled on this branch, offered again"
    assert origin[0]["words"] == "kept from Front: shared history, the same dice"
    assert all("origin" not in e for e in cli.json("log", "--type", "dice.rolled", "-c", "Front")["events"])
    # A page read from the end is labelled the same way.
    assert [e["origin"]["kind"] for e in cli.json("log", "--type", "dice.rolled", "--last", "2", *w)["events"]] == [
        "new",
        "new",
    ]

    table = cli("log", "--type", "dice.rolled", *w).stdout
    assert table.count("kept from Front") == 5 and table.count("offered again: the dice of Front's roll #2") == 2
    assert table.count("new on this branch") == 2

    def audited(roll: int) -> dict[str, Any]:
        found: dict[str, Any] = cli.json("audit", "--roll", str(roll), *w)
        [check] = found["checks"]["dice"]
        return dict(check["origin"])

    assert [audited(r)["kind"] for r in (0, 4, 5, 6, 7, 8)] == ["kept", "kept", *["offered_again"] * 2, *["new"] * 2]
    assert audited(6)["from_roll"] == 2
    words = cli("audit", "--roll", "6", *w).stdout
    assert "roll #6: the dice of roll #5, left on the table" in words
    assert "offered again: the dice of Front's roll #2" in words
    parents = cli.json("audit", "--roll", "0", "-c", "Front")["checks"]["dice"][0]
    assert "origin" not in parents, "the parent is no branch"


def test_a_branch_of_a_branch_keeps_its_parents_rolls_and_its_table(played: tuple[Cli, dict[str, Any]]) -> None:
    cli, seen = played
    cli("branch", "What if", "--at", str(seen["at"]))
    cli("roll", "d100", "-p", "scouts", "-c", "What if")  # #5: the branch's own, new there; #2 still on its table
    at = cli.json("log", "-c", "What if")["events"][-1]["seq"]
    made = cli.json("branch", "Deeper", "--at", str(at), "-c", "What if")["dice"]
    assert (made["parent"], made["kept"]["count"], made["new_from_roll"], made["seed_epoch"]) == ("What if", 6, 6, 2)
    assert [d["roll"] for d in made["on_table"]] == [2]
    shot = _rolls(cli.json("gf", "shoot", "B", "--wounds", "5", "-c", "Deeper"))[0]
    assert shot["faces"] == _rolls(seen["b_shot"])[0]["faces"]
    rolls = cli.json("log", "--type", "dice.rolled", "-c", "Deeper")["events"]
    assert [(e["payload"]["roll_index"], e["origin"]["kind"]) for e in rolls] == [
        *((i, "kept") for i in range(6)),
        (6, "offered_again"),
    ]
    assert rolls[5]["origin"]["words"] == "kept from What if: shared history, the same dice"
    assert rolls[6]["origin"]["words"] == "offered again: the dice of What if's roll #2"

"""What one account sends is its own: its command ids (idempotency keys) and its army lists, which take the
campaign's turn as every command does; and what the server acknowledges is in the ``.db`` file as it runs."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

from campaign.server.turns import Turns
from tests.server.conftest import SQUAD, World, post


def commands(world: World) -> str:
    return f"/api/campaigns/{world.campaign_id}/commands"


def muster(name: str, side: str, command_id: str | None = None) -> dict[str, Any]:
    return {"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}, "command_id": command_id}


def test_a_command_id_is_the_accounts_own_and_another_account_cannot_replay_or_block_it(world: World) -> None:
    gina, pat = world.client("gina"), world.client("pat")
    first = post(gina, commands(world), muster("Saurian Warriors", "Saurians", "evening-1"))
    assert first["duplicate"] is False
    # pat sends the same id: his own command runs (it is neither gina's result handed back nor refused as taken)
    his = post(pat, commands(world), muster("Robot Squad", "Robots", "evening-1"))
    assert his["duplicate"] is False and his["head_seq"] > first["head_seq"]
    # gina's retry is still hers, and pat's is his
    assert post(gina, commands(world), muster("Saurian Warriors", "Saurians", "evening-1"))["duplicate"] is True
    again = post(pat, commands(world), muster("Robot Squad", "Robots", "evening-1"))
    assert again["duplicate"] is True and again["head_seq"] == his["head_seq"]


def test_an_id_taken_first_by_another_account_does_not_refuse_the_owners_command(world: World) -> None:
    gina, pat = world.client("gina"), world.client("pat")
    post(pat, commands(world), muster("Robot Squad", "Robots", "gina-will-use-this"))
    done = post(gina, commands(world), muster("Saurian Warriors", "Saurians", "gina-will-use-this"))
    assert done["duplicate"] is False
    long_id = "x" * 100  # the longest id still fits with its account's name
    assert post(gina, commands(world), muster("Saurian Guard", "Saurians", long_id))["duplicate"] is False
    assert post(gina, commands(world), muster("Saurian Guard", "Saurians", long_id))["duplicate"] is True


def test_an_unknown_unit_is_said_to_be_unknown_not_another_sides(world: World) -> None:
    answer = world.client("pat").post(
        commands(world), json={"command": "gf.recover", "args": {"unit_name": "Robot Sqaud"}}
    )
    assert answer.status_code == 400
    assert answer.json()["detail"] == "no unit called 'Robot Sqaud' in this campaign"
    post(world.client("pat"), commands(world), muster("Robot Squad", "Robots"))
    answer = world.client("pat").post(
        commands(world), json={"command": "gf.recover", "args": {"unit_name": "Robot Sqaud"}}
    )
    assert answer.status_code == 400 and "did you mean 'Robot Squad'?" in answer.json()["detail"]


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_an_army_list_waits_for_the_campaigns_turn_as_a_command_does(world: World, monkeypatch: Any) -> None:
    """An upload while another command of the campaign holds its turn runs after it, never beside it."""
    order: list[str] = []
    real_turn = Turns.turn

    def watched(self: Turns, campaign_id: str) -> Any:
        order.append("turn asked")
        return real_turn(self, campaign_id)

    monkeypatch.setattr(Turns, "turn", watched)
    pat = world.client("pat")
    files = {"army_list": ("starhost.json", (EXAMPLES / "starhost.json").read_bytes())}
    answer = pat.post(f"/c/{world.campaign_id}/army-list", data={"side": "Robots"}, files=files)
    assert order == ["turn asked"], answer.text
    assert answer.status_code == 200, answer.text
    state = world.client("gina").get(f"/api/campaigns/{world.campaign_id}").json()
    assert {u["side"] for u in state["units"]} == {"Robots"} and len(state["units"]) > 1


def test_the_db_file_alone_holds_a_command_while_the_server_runs(world: World, tmp_path: Path) -> None:
    post(world.client("gina"), commands(world), muster("Saurian Warriors", "Saurians"))
    copy = tmp_path / "copy.db"
    shutil.copyfile(tmp_path / "server.db", copy)  # the -wal and -shm files left behind, as `cp` leaves them
    with sqlite3.connect(copy) as conn:
        found = conn.execute(
            "SELECT count(*) FROM events WHERE campaign_id = ? AND type = 'roster.unit_mustered'", (world.campaign_id,)
        ).fetchone()[0]
    assert found == 1

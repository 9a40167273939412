"""A five-grade or a disorder refusal on the campaign page, in the reader's language (the page's command form, as a
player at the table on a phone sends it): the sentence in Russian or Polish, a 4xx, and nothing appended; the API
says the same refusal in English."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import World, post


def test_a_second_activation_is_refused_on_the_page_in_russian(world: World) -> None:
    """R3-1: one activation a turn."""
    gina = world.client("gina")
    cid = post(gina, "/api/campaigns", {"name": "Hill", "ruleset": "fighting-spirit"}, 201)["campaign_id"]

    def run(command: str, **args: Any) -> None:
        post(gina, f"/api/campaigns/{cid}/commands", {"command": command, "args": args, "dice": None})

    profile = {"quality": "regular", "leadership": 2, "size": 7}
    run("fs.muster", name="Keno Guard", side="Keno", profile=profile)
    run("fs.muster", name="Steel Squad", side="Steel", profile=profile)
    deployed = [{"unit": "Keno Guard"}, {"unit": "Steel Squad"}]
    run("fs.battle_start", name="Patrol", motivation={"Keno": "low", "Steel": "low"}, deployments=deployed)
    run("fs.activate", unit_name="Keno Guard")
    head = gina.get(f"/api/campaigns/{cid}").json()["seq"]

    gina.get("/lang/ru", params={"next": "/"})
    page = gina.post(f"/c/{cid}/command", data={"_command": "fs.activate", "unit_name": "Keno Guard"})
    assert page.status_code == 400
    said = " ".join(page.text.split())
    assert "Keno Guard: активация в ходу 1 уже была: одна за ход (R3-1); следующая — в ходу 2" in said
    assert "has had its activation" not in said
    api = gina.post(
        f"/api/campaigns/{cid}/commands", json={"command": "fs.activate", "args": {"unit_name": "Keno Guard"}}
    )
    assert api.status_code == 400 and "Keno Guard has had its activation in turn 1" in api.text
    assert gina.get(f"/api/campaigns/{cid}").json()["seq"] == head


def test_an_officer_appointed_in_battle_is_refused_on_the_page_in_polish(world: World) -> None:
    """§1.8: officers take command between battles."""
    gina = world.client("gina")
    cid = post(gina, "/api/campaigns", {"name": "Peninsula", "ruleset": "disorder"}, 201)["campaign_id"]

    def run(command: str, **args: Any) -> None:
        post(gina, f"/api/campaigns/{cid}/commands", {"command": command, "args": args, "dice": None})

    line = {"models": 12, "troops": "line", "points": 80}
    run("dis.muster", name="Fusiliers", side="French", profile=line)
    run("dis.muster", name="Rifles", side="British", profile={**line, "troops": "rifles"})
    run("dis.officer", side="French", officer="Dubreton")
    run("dis.officer", side="British", officer="Sharpe")
    run("dis.battle_start", name="Sabugal", units=["Fusiliers", "Rifles"])
    head = gina.get(f"/api/campaigns/{cid}").json()["seq"]

    gina.get("/lang/pl", params={"next": "/"})
    page = gina.post(f"/c/{cid}/command", data={"_command": "dis.officer", "side": "French", "officer": "Massena"})
    assert page.status_code == 400
    said = " ".join(page.text.split())
    assert "oficerowie obejmują dowództwo między bitwami: najpierw zakończ bitwę" in said
    assert gina.get(f"/api/campaigns/{cid}").json()["seq"] == head

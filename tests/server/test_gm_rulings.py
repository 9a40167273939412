"""A player acts for its own side, never on the record of it: what the rules leave to the game master stays his.

A profile edit is a correction of the record: a unit's quality comes by the rules (Elite only by a scenario or
training, RULES.md §5 and R3-7), its Leadership with its commander, so no player edits its own units (``fs.edit``,
``gf.edit``, ``mc.edit``, ``dis.edit``). A campaign Morale modifier (``mc.morale``) is set by the game master's
rulings (§2.11: a hereditary enemy, spies, treason, loot), so no player cancels the −2 he ruled for its side; and
a ruling's modifier is held to ±10 (§2.11's run −2…+2, the largest lasting one the rules record is −5, R2-10).
Each refusal is a 403 in words on the API and on the page, which offers no form for it; nothing is appended.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import SQUAD, World, post

FIVE = {"quality": "green", "leadership": 2, "size": 7}
"""A five-grade squad (RULES.md §0): Green, Leadership 2, seven men."""
HOST = {"men": 120, "armour": "light", "ranged": "crossbow", "irregular": True, "troop_type": "LI", "quality": "green"}
"""A Mass Combat unit (§2.2): 120 Green light infantry with crossbows."""


def campaign(world: World, name: str, ruleset: str, side: str) -> str:
    """A campaign of ``ruleset`` whose game master is gina, with pat playing ``side``."""
    gina = world.client("gina")
    cid = str(post(gina, "/api/campaigns", {"name": name, "ruleset": ruleset}, 201)["campaign_id"])
    post(gina, f"/api/campaigns/{cid}/members", {"account": "pat", "role": "player", "sides": [side]})
    return cid


def command(client: TestClient, cid: str, name: str, args: dict[str, Any]) -> Any:
    return client.post(f"/api/campaigns/{cid}/commands", json={"command": name, "args": args})


def log(world: World, cid: str) -> list[Any]:
    events: list[Any] = world.client("gina").get(f"/api/campaigns/{cid}/log").json()["events"]
    return events


def test_a_player_may_not_edit_its_own_units_profile_the_game_master_corrects_it(world: World) -> None:
    cid = campaign(world, "Otlok", "fighting-spirit", "Keno")
    gina, pat = world.client("gina"), world.client("pat")
    post(
        gina,
        f"/api/campaigns/{cid}/commands",
        {"command": "fs.muster", "args": {"name": "Keno 3rd Squad", "side": "Keno", "profile": FIVE}},
    )
    before = log(world, cid)
    for changes in ({"quality": "elite"}, {"leadership": 3}):
        answer = command(pat, cid, "fs.edit", {"unit_name": "Keno 3rd Squad", "changes": changes})
        assert answer.status_code == 403, answer.text
        assert answer.json()["detail"] == "fs.edit is the game master's to enter"
    assert log(world, cid) == before  # nothing appended
    # the game master corrects the record
    assert (
        command(gina, cid, "fs.edit", {"unit_name": "Keno 3rd Squad", "changes": {"leadership": 3}}).status_code == 200
    )


def test_a_grimdark_player_may_not_raise_its_own_units_quality(world: World) -> None:
    gina, pat, cid = world.client("gina"), world.client("pat"), world.campaign_id
    post(
        pat,
        f"/api/campaigns/{cid}/commands",
        {"command": "gf.muster", "args": {"name": "Robot Squad", "side": "Robots", "profile": SQUAD}},
    )
    before = log(world, cid)
    answer = command(pat, cid, "gf.edit", {"unit_name": "Robot Squad", "changes": {"quality": 3}})
    assert answer.status_code == 403 and answer.json()["detail"] == "gf.edit is the game master's to enter"
    assert log(world, cid) == before
    assert command(gina, cid, "gf.edit", {"unit_name": "Robot Squad", "changes": {"quality": 3}}).status_code == 200


def test_a_player_may_not_set_its_sides_morale_modifier_nor_wipe_the_game_masters(world: World) -> None:
    cid = campaign(world, "Border", "mass-combat", "Wazif")
    gina, pat = world.client("gina"), world.client("pat")
    post(
        gina,
        f"/api/campaigns/{cid}/commands",
        {"command": "mc.muster", "args": {"name": "Wazif archers", "side": "Wazif", "profile": HOST}},
    )
    spies = {"name": "enemy spy network", "value": -2, "side": "Wazif"}
    post(gina, f"/api/campaigns/{cid}/commands", {"command": "mc.morale", "args": spies})
    before = log(world, cid)
    for value in (0, 2):
        answer = command(pat, cid, "mc.morale", spies | {"value": value})
        assert answer.status_code == 403, answer.text
        assert answer.json()["detail"] == "mc.morale is the game master's to enter"
    assert log(world, cid) == before


def test_a_morale_modifier_is_at_most_ten_either_way(world: World) -> None:
    cid = campaign(world, "Border", "mass-combat", "Wazif")
    gina = world.client("gina")
    post(
        gina,
        f"/api/campaigns/{cid}/commands",
        {"command": "mc.muster", "args": {"name": "Wazif archers", "side": "Wazif", "profile": HOST}},
    )
    before = log(world, cid)
    for value in (11, -11, 1_000_000_000):
        answer = command(gina, cid, "mc.morale", {"name": "loot", "value": value, "side": "Wazif"})
        assert answer.status_code == 400, answer.text
        assert "value" in answer.json()["detail"] and "10" in answer.json()["detail"], answer.text
    assert log(world, cid) == before
    for value in (10, -10):
        assert command(gina, cid, "mc.morale", {"name": "loot", "value": value, "side": "Wazif"}).status_code == 200


def test_the_page_offers_no_player_a_correction_and_refuses_one_sent(world: World) -> None:
    cid = campaign(world, "Otlok", "fighting-spirit", "Keno")
    gina, pat = world.client("gina"), world.client("pat")
    post(
        gina,
        f"/api/campaigns/{cid}/commands",
        {"command": "fs.muster", "args": {"name": "Keno 3rd Squad", "side": "Keno", "profile": FIVE}},
    )
    assert 'id="cmd-fs-edit"' in gina.get(f"/c/{cid}").text  # the game master's page offers it
    page = pat.get(f"/c/{cid}").text
    assert 'id="cmd-fs-muster"' in page and 'id="cmd-fs-edit"' not in page
    before = log(world, cid)
    fields = {"_command": "fs.edit", "unit_name": "Keno 3rd Squad", "changes": '{"quality": "elite"}'}
    sent = pat.post(f"/c/{cid}/command", data=fields, headers={"HX-Request": "true"})
    assert sent.status_code == 403 and "fs.edit is the game master&#39;s to enter" in sent.text
    assert log(world, cid) == before


def test_the_api_says_who_enters_each_command(world: World) -> None:
    cid = campaign(world, "Otlok", "fighting-spirit", "Keno")
    listed = {c["command"]: c["entered_by"] for c in world.client("pat").get(f"/api/campaigns/{cid}/commands").json()}
    assert (listed["fs.edit"], listed["fs.muster"]) == ("gm", "sides")

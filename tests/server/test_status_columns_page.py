"""The page shows a campaign's units in the columns and words `campaign status` uses (one vocabulary
across the views): a Mass Combat unit's Morale, arrears and pay owed, not the state's own names."""

from __future__ import annotations

import re

from tests.server.conftest import World, post


def test_the_page_shows_a_mass_combat_unit_s_morale_arrears_and_pay_owed(world: World) -> None:
    gina = world.client("gina")
    cid = post(gina, "/api/campaigns", {"name": "Border", "ruleset": "mass-combat"}, 201)["campaign_id"]
    profile = {"men": 120, "armour": "light", "ranged": "crossbow", "irregular": True, "troop_type": "LI"}
    profile |= {"quality": "green"}
    body = {"command": "mc.muster", "args": {"name": "Militia archers", "side": "Megalos", "profile": profile}}
    post(gina, f"/api/campaigns/{cid}/commands", body)
    page = gina.get(f"/c/{cid}").text
    headers = re.findall(r"<th>([^<]*)</th>", page)
    assert {"TS", "Morale", "arrears", "pay owed"} <= set(headers), headers
    assert not {"campaign morale", "pay penalty"} & set(headers), headers
    row = next(r for r in re.findall(r"<tr>(.*?)</tr>", page) if "Militia archers" in r)
    cells = dict(re.findall(r'<td data-label="([^"]*)">(.*?)</td>', row))  # each cell labelled by its column
    assert (cells["Morale"], cells["arrears"], cells["pay owed"]) == ("11", "0", "0")  # green: Morale 11 (§2.3)

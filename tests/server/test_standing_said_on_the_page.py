"""A change of a unit's standing between battles is said on the page when it happens, as on the CLI: RULES.md §5
[INF] Regular from three battles a man, EXHAUSTED after three battles within seven days. The third battle's end,
entered through the page's command form, says both (before, they were visible only in the status tab)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import World, post


def test_the_third_battles_end_says_the_promotion_and_the_exhaustion(world: World) -> None:
    gina = world.client("gina")
    cid = post(gina, "/api/campaigns", {"name": "Promo", "ruleset": "fighting-spirit"}, 201)["campaign_id"]

    def run(client: TestClient, command: str, **args: Any) -> None:
        post(client, f"/api/campaigns/{cid}/commands", {"command": command, "args": args, "dice": None})

    profile = {"quality": "green", "leadership": 2, "size": 5}
    run(gina, "fs.muster", name="A", side="Keno", profile=profile)
    run(gina, "fs.muster", name="B", side="Steel", profile=profile)
    ends = []
    for i in range(3):
        deployed = [{"unit": "A"}, {"unit": "B"}]
        run(gina, "fs.battle_start", name=f"Hill {i}", motivation={"Keno": "low", "Steel": "low"}, deployments=deployed)
        page = gina.post(f"/c/{cid}/command", data={"_command": "fs.battle_end", "result": "a draw"})
        assert page.status_code == 200, page.text
        ends.append(" ".join(page.text.split()))
    assert "standing" not in ends[0] + ends[1]
    assert "standing: A: quality green → regular; fatigue fresh → exhausted" in ends[2]
    assert "standing: B: quality green → regular; fatigue fresh → exhausted" in ends[2]

"""The GM changes or removes a member from the page, as events in the campaign's log (like joining); nobody
else may."""

from __future__ import annotations

from tests.server.conftest import World


def members(world: World) -> dict[str, tuple[str, list[str]]]:
    listed = world.client("gina").get(f"/api/campaigns/{world.campaign_id}/members").json()
    return {m["account"]: (m["role"], m["sides"]) for m in listed}


def test_the_gm_removes_a_member_from_the_page_as_an_event(world: World) -> None:
    gina, pat = world.client("gina"), world.client("pat")
    assert "remove-member" in gina.get(f"/c/{world.campaign_id}").text
    assert "remove-member" not in pat.get(f"/c/{world.campaign_id}").text
    said = gina.post(f"/c/{world.campaign_id}/remove", data={"account": "pat", "reason": "left the group"})
    assert said.status_code == 200 and "pat is no longer a member of Kessel" in said.text
    assert "pat" not in members(world)
    last = gina.get(f"/api/campaigns/{world.campaign_id}/log").json()["events"][-1]
    assert last["type"] == "membership.removed" and last["actor"] == "gina"
    assert pat.get(f"/api/campaigns/{world.campaign_id}/log").status_code == 404  # as for a campaign not there


def test_the_gm_changes_a_member_s_role_by_inviting_it_again(world: World) -> None:
    gina = world.client("gina")
    answer = gina.post(
        f"/c/{world.campaign_id}/invite", data={"account": "olive", "role": "player", "sides": "Saurians"}
    )
    assert answer.status_code == 200
    assert members(world)["olive"] == ("player", ["Saurians"])


def test_only_the_gm_removes_and_the_last_gm_stays(world: World) -> None:
    pat, gina = world.client("pat"), world.client("gina")
    assert pat.post(f"/c/{world.campaign_id}/remove", data={"account": "olive"}).status_code == 403
    assert "olive" in members(world)
    kept = gina.post(f"/c/{world.campaign_id}/remove", data={"account": "gina"})
    assert kept.status_code == 400 and "only game master" in kept.text

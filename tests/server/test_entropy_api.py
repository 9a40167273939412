"""The group's shares of entropy on the server: players and the GM commit one each per seed epoch,
observers may not; nobody is ever served a share before the reveal; the server's ``verify`` checks the seeds and
shares it holds against their commitments."""

from __future__ import annotations

import sqlite3

from tests.server.conftest import World, post
from tests.server.test_api import command, url


def test_players_and_the_gm_commit_shares_observers_may_not(world: World) -> None:
    olive = world.client("olive").post(url(world, "/entropy"), json={"share": "an observer's"})
    assert olive.status_code == 403 and "only a game master or a player" in olive.json()["detail"]
    pat = post(world.client("pat"), url(world, "/entropy"), {"share": "pat's own line"})
    assert pat["epoch"] == 0 and "share" not in pat
    gina = post(world.client("gina"), url(world, "/entropy"), {})  # none given: drawn, and returned this once
    assert len(gina["share"]) == 64
    shown = world.client("olive").get(url(world, "/entropy")).json()
    assert [(s["by"], s["seq"]) for s in shown["shares"]] == [("pat", pat["head_seq"]), ("gina", gina["head_seq"])]
    assert shown["open"] is True and all("share" not in s for s in shown["shares"])
    again = world.client("pat").post(url(world, "/entropy"), json={"share": "another"})
    assert again.status_code == 400 and "pat already committed a share of entropy for epoch 0" in again.json()["detail"]
    empty = world.client("gina").post(url(world, "/entropy"), json={"share": ""})
    assert empty.status_code == 400 and "must not be empty" in empty.json()["detail"]


def test_a_share_has_one_limit_and_one_refusal(world: World) -> None:
    # README: a share is 1–200 characters; 201 and 1001 are both too long, and said so in the same words.
    refused = [world.client("pat").post(url(world, "/entropy"), json={"share": "x" * n}) for n in (201, 1001)]
    assert [(r.status_code, r.json()["detail"]) for r in refused] == [
        (422, "share is too long (at most 200 characters)")
    ] * 2
    assert world.client("pat").get(url(world, "/entropy")).json()["shares"] == []  # nothing committed
    assert post(world.client("pat"), url(world, "/entropy"), {"share": "y" * 200})["epoch"] == 0


def test_no_share_is_served_before_the_reveal_and_the_dice_check_after(world: World) -> None:
    gina, pat = world.client("gina"), world.client("pat")
    post(pat, url(world, "/entropy"), {"share": "PAT-SECRET-LINE"})
    drawn = post(gina, url(world, "/entropy"), {})["share"]
    rolled = command(gina, world, "ledger.roll", notation="3d6", purpose="weather")
    seq = rolled["events"][-1]["seq"]
    late = world.client("pat").post(url(world, "/entropy"), json={"share": "x"})
    assert late.status_code == 400  # the seed's first roll closed the round: the share is refused
    pages = ["", "/log?all=true", "/verify", "/entropy", "/members", "/battles", "/treasury"]
    texts = [c.get(url(world, p)).text for c in (gina, pat) for p in pages]
    texts += [gina.get(url(world, "/audit"), params={"seq": s}).text for s in range(1, seq + 1)]
    texts += [gina.get(f"/c/{world.campaign_id}").text, gina.get(f"/c/{world.campaign_id}/live").text]
    assert all("PAT-SECRET-LINE" not in t and drawn not in t for t in texts)
    post(gina, url(world, "/reveal"))
    shown = pat.get(url(world, "/entropy"), params={"epoch": 0}).json()
    assert [s["share"] for s in shown["shares"]] == ["PAT-SECRET-LINE", drawn] and shown["revealed"] is True
    audit = gina.get(url(world, "/audit"), params={"seq": seq}).json()
    assert audit["checks"]["dice"][0]["check"].startswith("re-derived from the revealed seed: matches")
    report = pat.get(url(world, "/verify")).json()
    assert report["ok"] and report["rolls_rederived"] == 1


def test_the_page_offers_a_share_to_players(world: World) -> None:
    page = world.client("pat").get(f"/c/{world.campaign_id}").text
    assert 'id="entropy-commit"' in page
    assert 'id="entropy-commit"' not in world.client("olive").get(f"/c/{world.campaign_id}").text
    answer = world.client("pat").post(f"/c/{world.campaign_id}/entropy", data={"share": ""})
    assert answer.status_code == 200 and "drawn for you (shown once)" in answer.text


def test_the_servers_verify_checks_the_held_seed_and_shares_against_their_commitments(world: World) -> None:
    post(world.client("pat"), url(world, "/entropy"), {"share": "pat's"})
    assert world.client("olive").get(url(world, "/verify")).json()["ok"]
    path = world.opened.engine.url.database
    assert path is not None
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE dice_shares SET share = 'swapped'")
    report = world.client("olive").get(url(world, "/verify")).json()
    assert not report["ok"] and report["first_failure"]["check"] == "stored share"
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE dice_shares SET share = ?", ("pat's",))
        conn.execute("UPDATE campaign_secrets SET seed = ?", ("cd" * 32,))
    report = world.client("olive").get(url(world, "/verify")).json()
    assert not report["ok"] and report["first_failure"]["check"] == "stored seed"
    assert "cd" * 32 not in str(report)


def test_the_servers_verify_names_a_replaced_seed_without_showing_it(world: World) -> None:
    """Before this, the server's verify checked the log only: a seed swapped in the database passed."""
    assert world.client("olive").get(url(world, "/verify")).json()["ok"]
    path = world.opened.engine.url.database
    assert path is not None
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE campaign_secrets SET seed = ?", ("cd" * 32,))
    report = world.client("olive").get(url(world, "/verify")).json()
    assert not report["ok"] and report["first_failure"]["check"] == "stored seed"
    assert "cd" * 32 not in str(report)

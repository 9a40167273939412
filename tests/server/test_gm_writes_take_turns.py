"""The game master's writes (and a member's share of entropy) take the campaign's turn as commands do: two server
processes on one database, and the other process's command appended between this one's read of the head and its
append. A write that is right on the new head is run again there (no 409, each append in the log once); one that
would then do what its sender did not see (an undo or rewind taking back the other's command, an amendment
confirmed on its preview's head) is refused in words naming the campaign, and appends nothing.

The race is made deterministically: this process's first append calls the other process over HTTP first."""

from __future__ import annotations

import html
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from campaign.bootstrap import App, bootstrap
from campaign.commands import command_type
from campaign.server.app import create_app
from campaign.server.turns import Turns
from events.envelope import RecordedEvent
from events.recorded import obj
from tests.conftest import empty_tables
from tests.server.conftest import FAST_HASHER, SQUAD, post, sign_in


@dataclass
class Pair:
    """Two server processes (two wirings and apps on one database) and the campaign Kessel on them: ``gina`` its
    GM, ``pat`` playing Robots, ``olive`` its observer; ``north`` signed in on the first process, ``south`` the
    same sessions sent to the second."""

    north_app: App
    south_app: App
    campaign_id: str
    north: dict[str, TestClient]
    south: dict[str, TestClient]

    def url(self, tail: str = "") -> str:
        return f"/api/campaigns/{self.campaign_id}{tail}"

    def log(self) -> list[RecordedEvent]:
        return list(self.north_app.ledger.store.read(self.campaign_id))

    def head(self) -> int:
        return len(self.log())


def other_process(app: FastAPI, client: TestClient) -> TestClient:
    """``client``'s session, sent to another server process."""
    there = TestClient(app, cookies=dict(client.cookies))
    there.headers["X-CSRF-Token"] = client.headers["X-CSRF-Token"]
    return there


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def pair(request: pytest.FixtureRequest, tmp_path: Path, migrated: Path) -> Iterator[Pair]:
    if request.param == "sqlite":
        shutil.copy(migrated, tmp_path / "server.db")
        url = str(tmp_path / "server.db")
    else:
        empty_tables(request.getfixturevalue("pg_engine"))
        url = request.getfixturevalue("pg_url")
    north_app, south_app = bootstrap(url, actor="north"), bootstrap(url, actor="south")
    north, south = create_app(north_app, hasher=FAST_HASHER), create_app(south_app, hasher=FAST_HASHER)
    with TestClient(north), TestClient(south):  # both lifespans (live updates)
        clients = {name: sign_in(north, name) for name in ("gina", "pat", "olive")}
        gina = clients["gina"]
        cid = post(gina, "/api/campaigns", {"name": "Kessel", "ruleset": "grimdark"}, 201)["campaign_id"]
        post(gina, f"/api/campaigns/{cid}/members", {"account": "pat", "role": "player", "sides": ["Robots"]})
        post(gina, f"/api/campaigns/{cid}/members", {"account": "olive", "role": "observer"})
        yield Pair(north_app, south_app, cid, clients, {k: other_process(south, c) for k, c in clients.items()})
    north_app.close()
    south_app.close()
    if request.param == "postgres":
        empty_tables(request.getfixturevalue("pg_engine"))


def muster(client: TestClient, pair: Pair, name: str, side: str = "Robots") -> Any:
    body = {"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}}
    return post(client, pair.url("/commands"), body)


def rival_first(pair: Pair, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Once: when the first process is about to append, pat's command on the second process is appended first
    (the head the first process read is then stale). Returns the head the rival left, once it ran."""
    store = pair.north_app.ledger.store
    real = store.append
    rival: list[int] = []

    def append(campaign_id: str, *args: Any, **kwargs: Any) -> Any:
        if not rival and campaign_id == pair.campaign_id:
            rival.append(muster(pair.south["pat"], pair, "Rival Squad")["head_seq"])
        return real(campaign_id, *args, **kwargs)

    monkeypatch.setattr(store, "append", append)
    return rival


def appends(events: list[RecordedEvent]) -> list[tuple[str, str]]:
    """The appends among ``events``, in order: (the command, who entered it), one per append."""
    found: list[tuple[str, str]] = []
    meta: object = None
    for event in events:
        if event.meta != meta:
            meta = event.meta
            found.append((str(event.meta.get("command")), str(event.meta.get("actor"))))
    return found


def rival_musters(pair: Pair) -> int:
    """How many times pat's command on the other process was recorded (an amendment's re-run of it is gina's)."""
    return sum(
        1
        for e in pair.log()
        if e.type == "timeline.command_issued"
        and e.meta.get("actor") == "pat"
        and dict(obj(e.payload["args"])).get("name") == "Rival Squad"
    )


def issued(answer: Any) -> int:
    """The seq a command's answer recorded it at."""
    return min(int(e["seq"]) for e in answer["events"] if e["type"] == "timeline.command_issued")


Route = Callable[[Pair, int], tuple[str, str, dict[str, Any]]]
API_WRITES: dict[str, tuple[Route, str]] = {
    # the route, as (who, url, body) given the seq of Robot Squad's muster, and the command its append records
    "invite by name": (
        lambda p, _: ("gina", p.url("/members"), {"account": "olive", "role": "gm"}),
        "membership.grant",
    ),
    "remove a member": (lambda p, _: ("gina", p.url("/members/olive/remove"), {}), "membership.remove"),
    "reveal the seed": (lambda p, _: ("gina", p.url("/reveal"), {}), "reveal"),
    "commit a share": (lambda p, _: ("pat", p.url("/entropy"), {"share": "pat's share"}), "entropy commit"),
    "amend (no preview)": (
        lambda p, at: ("gina", p.url("/amend"), {"seq": at, "set": {"name": "Iron Squad"}}),
        "amend",
    ),
}


@pytest.mark.parametrize("what", list(API_WRITES))
def test_a_game_masters_write_that_lost_a_race_is_run_again_on_the_fresh_state(
    pair: Pair, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    at = issued(muster(pair.north["pat"], pair, "Robot Squad"))  # the command an amendment corrects
    route, recorded = API_WRITES[what]
    who, url, body = route(pair, at)
    before = pair.head()
    rival = rival_first(pair, monkeypatch)
    answer = pair.north[who].post(url, json=body)
    assert answer.status_code == 200, answer.text  # not a 409: run again after the other process's command
    assert rival, "the other process appended first"
    assert appends(pair.log()[before:]) == [("gf.muster", "pat"), (recorded, who)]
    assert rival_musters(pair) == 1
    seqs = [e.seq for e in pair.log()]
    assert seqs == list(range(1, len(seqs) + 1))  # each event once, none lost


def test_an_undo_that_lost_a_race_to_a_membership_is_run_again_and_takes_back_what_the_gm_saw(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = issued(muster(pair.north["pat"], pair, "Robot Squad"))
    before = pair.head()
    store = pair.north_app.ledger.store
    real = store.append
    raced: list[bool] = []

    def invited_first(campaign_id: str, *args: Any, **kwargs: Any) -> Any:
        if not raced:  # a membership: no undo takes it back, so the undo still means Robot Squad's muster
            raced.append(True)
            post(pair.south["gina"], pair.url("/members"), {"account": "olive", "role": "gm"})
        return real(campaign_id, *args, **kwargs)

    monkeypatch.setattr(store, "append", invited_first)
    answer = post(pair.north["gina"], pair.url("/undo"), {})
    assert "gf muster" in answer["undone"] and f"#{at}" in answer["undone"], answer
    assert appends(pair.log()[before:]) == [("membership.grant", "gina"), ("undo", "gina")]
    roster = pair.north["gina"].get(pair.url()).json()["units"]
    assert roster == [], "Robot Squad's muster was taken back"


@pytest.mark.parametrize("what", ["undo", "rewind"])
def test_an_undo_or_rewind_that_would_take_back_the_other_processs_command_is_refused_in_words(
    pair: Pair, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    """Run again, it would take back pat's command, which the game master never saw: refused, nothing appended."""
    at = muster(pair.north["pat"], pair, "Robot Squad")["head_seq"]
    muster(pair.north["pat"], pair, "Second Squad")
    body = {"to": at} if what == "rewind" else {}  # Second Squad's muster is what the game master takes back
    rival = rival_first(pair, monkeypatch)
    answer = pair.north["gina"].post(pair.url(f"/{what}"), json=body)
    assert rival, answer.text
    assert answer.status_code == 400, answer.text
    said = answer.json()["detail"]
    assert said.startswith(f"campaign 'Kessel' moved on before the {what} was recorded"), said
    assert "gf muster (pat)" in said and f"{what} again" in said and pair.campaign_id not in said
    assert appends(pair.log()[rival[0] :]) == [], "nothing appended after the rival's command"
    assert rival_musters(pair) == 1
    units = sorted(u["name"] for u in pair.north["gina"].get(pair.url()).json()["units"])
    assert units == ["Rival Squad", "Robot Squad", "Second Squad"]


def test_an_amendment_confirmed_on_its_previews_head_is_refused_in_words_when_it_lost_a_race(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preview was right when it was confirmed; the other process's command came in while it was appended:
    not a lost race to send again, and never amended on a head the preview did not see."""
    at = issued(muster(pair.north["pat"], pair, "Robot Squad"))
    gina = pair.north["gina"]
    amendment = {"seq": at, "set": {"name": "Iron Squad"}}
    preview = post(gina, pair.url("/amend"), {**amendment, "preview": True})
    rival = rival_first(pair, monkeypatch)
    answer = gina.post(pair.url("/amend"), json={**amendment, "head": preview["head"]})
    assert rival, answer.text
    assert answer.status_code == 400, answer.text
    said = answer.json()["detail"]
    assert said.startswith("campaign 'Kessel' moved on since this preview"), said
    assert f"#{rival[0]} gf muster (pat)" in said and said.endswith("preview it again") and pair.campaign_id not in said
    assert pair.head() == rival[0] and rival_musters(pair) == 1
    names = sorted(u["name"] for u in gina.get(pair.url()).json()["units"])
    assert names == ["Rival Squad", "Robot Squad"]


PAGE_WRITES: dict[str, tuple[str, dict[str, str], str, str]] = {
    # the form's path, its fields, the command its append records, and what the page says when it is done
    "invite by name": ("/invite", {"account": "olive", "role": "gm"}, "membership.grant", "olive joins as"),
    "remove a member": ("/remove", {"account": "olive"}, "membership.remove", "olive is no longer a member"),
    "undo": ("/undo", {}, "undo", "undid muster"),
}


@pytest.mark.parametrize("what", list(PAGE_WRITES))
def test_the_pages_game_master_forms_run_again_on_the_fresh_state_too(
    pair: Pair, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    muster(pair.north["pat"], pair, "Robot Squad")
    path, fields, recorded, said = PAGE_WRITES[what]
    before = pair.head()
    store = pair.north_app.ledger.store
    real = store.append
    raced: list[bool] = []

    def others_first(campaign_id: str, *args: Any, **kwargs: Any) -> Any:
        if not raced:  # a share of entropy: no undo takes it back
            raced.append(True)
            post(pair.south["pat"], pair.url("/entropy"), {"share": "pat's share"})
        return real(campaign_id, *args, **kwargs)

    monkeypatch.setattr(store, "append", others_first)
    gina = pair.north["gina"]
    answer = gina.post(f"/c/{pair.campaign_id}{path}", data=fields, headers={"HX-Request": "true"})
    assert answer.status_code == 200, answer.text
    assert said in answer.text
    assert appends(pair.log()[before:]) == [("entropy commit", "pat"), (recorded, "gina")]
    seqs = [e.seq for e in pair.log()]
    assert seqs == list(range(1, len(seqs) + 1))


def test_the_pages_amend_confirm_on_a_stale_preview_shows_the_refusal_in_words(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = issued(muster(pair.north["pat"], pair, "Robot Squad"))
    gina = pair.north["gina"]
    head = pair.head()
    rival = rival_first(pair, monkeypatch)
    fields = {"seq": str(at), "set": "name=Iron Squad", "preview": "0", "head": str(head)}
    answer = gina.post(f"/c/{pair.campaign_id}/amend", data=fields, headers={"HX-Request": "true"})
    assert rival
    assert answer.status_code == 400, answer.text
    text = html.unescape(answer.text)
    assert "campaign 'Kessel' moved on since this preview" in text and "preview it again" in text, text
    assert f"#{rival[0]} muster (pat)" in text and pair.campaign_id not in text
    assert pair.head() == rival[0]


def test_the_pages_rewind_that_would_take_back_the_other_processs_command_is_refused_in_words(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = muster(pair.north["pat"], pair, "Robot Squad")["head_seq"]
    muster(pair.north["pat"], pair, "Second Squad")
    rival = rival_first(pair, monkeypatch)
    gina = pair.north["gina"]
    answer = gina.post(f"/c/{pair.campaign_id}/rewind", data={"to": str(at)}, headers={"HX-Request": "true"})
    assert rival
    assert answer.status_code == 400, answer.text
    text = html.unescape(answer.text)
    assert "campaign 'Kessel' moved on before the rewind was recorded" in text and "rewind again" in text, text
    assert pair.head() == rival[0]


def test_a_members_share_sent_from_the_page_is_run_again_on_the_fresh_state(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = pair.head()
    rival = rival_first(pair, monkeypatch)
    pat = pair.north["pat"]
    answer = pat.post(f"/c/{pair.campaign_id}/entropy", data={"share": "mine"}, headers={"HX-Request": "true"})
    assert rival
    assert answer.status_code == 200, answer.text
    assert "share of entropy committed for seed epoch" in answer.text
    assert appends(pair.log()[before:]) == [("gf.muster", "pat"), ("entropy commit", "pat")]


@pytest.mark.parametrize("where", ["api", "page"])
def test_a_game_masters_write_that_keeps_losing_is_a_409_in_words_naming_the_campaign(pair: Pair, where: str) -> None:
    """Every attempt meets another writer's append (the head it reads is always one behind): after the last, the
    refusal says so in words, names the campaign by its name, and nothing was appended."""
    muster(pair.north["pat"], pair, "Robot Squad")
    directory = pair.north_app.ledger.directory
    stale = directory.get(pair.campaign_id)
    muster(pair.north["pat"], pair, "Second Squad")
    head = pair.head()
    real_get, real_entry = directory.get, directory.entry  # type: ignore[attr-defined]
    directory.get = lambda campaign_id: stale  # type: ignore[method-assign]
    directory.entry = lambda row: stale  # type: ignore[attr-defined]
    gina = pair.north["gina"]
    try:
        if where == "api":
            answer = gina.post(pair.url("/members/olive/remove"), json={})
            said = answer.json()["detail"]
        else:
            form = {"account": "olive"}
            answer = gina.post(f"/c/{pair.campaign_id}/remove", data=form, headers={"HX-Request": "true"})
            said = html.unescape(answer.text)
    finally:
        directory.get, directory.entry = real_get, real_entry  # type: ignore[method-assign,attr-defined]
    assert answer.status_code == 409, answer.text
    assert "campaign 'Kessel' was changed by another command at the same moment: nothing was recorded" in said
    assert pair.campaign_id not in said
    assert pair.head() == head


def test_an_undo_that_waited_for_its_turn_behind_a_players_command_is_refused_in_words(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In one process too: pat's command runs while the game master's undo waits for the campaign's turn; the
    undo would then take back pat's command, which the game master has not seen."""
    muster(pair.north["pat"], pair, "Robot Squad")
    srv = pair.north["gina"].app.state.server  # type: ignore[attr-defined]
    real_turn = Turns.turn
    came: list[int] = []

    def then(self: Turns, campaign_id: str) -> Any:
        if not came:  # as the undo asks for its turn, pat's command (sent to this process) holds it first
            squad = command_type("gf.muster").build(name="Rival Squad", side="Robots", profile=SQUAD)
            came.append(srv.ledger_for("pat").execute(srv.campaign(campaign_id), squad).head.seq)
        return real_turn(self, campaign_id)

    monkeypatch.setattr(Turns, "turn", then)
    answer = pair.north["gina"].post(pair.url("/undo"), json={})
    assert came
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"].startswith("campaign 'Kessel' moved on before the undo was recorded")
    assert pair.head() == came[0] and rival_musters(pair) == 1

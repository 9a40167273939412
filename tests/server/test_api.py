"""The JSON API from a group's point of view: commands through the executor with the account as actor,
the CLI's refusals as 4xx, a lost race as 409, an amendment previewed before it is made, the seed kept secret."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from structlog.testing import capture_logs

from campaign.logging import configure_logging
from campaign.server.app import create_app
from tests.server.conftest import SQUAD, World, post


def url(world: World, tail: str = "") -> str:
    return f"/api/campaigns/{world.campaign_id}{tail}"


def command(
    client: TestClient, world: World, command_: str, code: int = 200, dice: str | None = None, **args: Any
) -> Any:
    return post(client, url(world, "/commands"), {"command": command_, "args": args, "dice": dice}, code)


@pytest.fixture
def battle(world: World) -> World:
    """Robot Squad (pat's, Robots) and Saurian Warriors (the GM's, Saurians) in a match."""
    command(world.client("pat"), world, "gf.muster", name="Robot Squad", side="Robots", profile=SQUAD)
    command(world.client("gina"), world, "gf.muster", name="Saurian Warriors", side="Saurians", profile=SQUAD)
    command(world.client("gina"), world, "gf.battle_start", name="Ruins", units=["Robot Squad", "Saurian Warriors"])
    return world


def log(world: World, who: str = "gina") -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = world.client(who).get(url(world, "/log")).json()["events"]
    return events


def test_a_players_shot_with_table_dice_is_ruled_and_recorded_as_entered_by_that_player(battle: World) -> None:
    # 6 wounds on 10 models of Quality 4+: 4 left, at half strength, so a morale test; the table's 2 fails it.
    answer = command(battle.client("pat"), battle, "gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    said = [e["what"] for e in answer["events"] if e["what"]]
    assert said == [
        "Robot Squad takes 6 wounds: 6 models killed, 4 of 10 left",
        "Robot Squad, morale test (wounds at half strength): rolled 2 against Quality 4+: fails → Shaken",
    ]
    appended = {e["seq"] for e in answer["events"]}
    entered = [e for e in log(battle, "olive") if e["seq"] in appended]
    assert {e["actor"] for e in entered} == {"pat"}
    roll = next(e for e in entered if e["type"] == "dice.rolled")
    assert "table dice entered by pat" in roll["what"]
    audit = battle.client("pat").get(url(battle, "/audit"), params={"seq": roll["seq"]}).json()
    assert audit["actor"] == "pat" and audit["command"] == "gf.shoot"
    assert audit["inputs"]["wounds"] == 6 and audit["checks"]["dice"] == [
        {"roll": 0, "check": "table dice entered by pat"}
    ]


def test_a_player_may_not_act_for_another_side_nor_enter_the_game_masters_commands(battle: World) -> None:
    pat = battle.client("pat")
    before = len(log(battle))
    refused = command(pat, battle, "gf.shoot", 403, dice="2", unit_name="Saurian Warriors", wounds=6)
    assert refused == {"detail": "Saurian Warriors does not fight for your side (Robots)"}
    assert command(pat, battle, "gf.round", 403) == {"detail": "gf.round is the game master's to enter"}
    assert post(pat, url(battle, "/rewind"), {"to": 3}, 403)["detail"].startswith("only the game master")
    assert post(pat, url(battle, "/amend"), {"seq": 5, "set": {}, "preview": True}, 403)
    assert post(pat, url(battle, "/members"), {"account": "sam", "role": "gm"}, 403)
    assert len(log(battle)) == before


def test_an_observer_can_post_nothing(battle: World) -> None:
    olive = battle.client("olive")
    before = len(log(battle))
    assert command(olive, battle, "gf.shoot", 403, unit_name="Robot Squad", wounds=1)
    for tail in ("/rewind", "/undo", "/reveal", "/amend", "/members"):
        assert olive.post(url(battle, tail), json={}).status_code == 403
    assert len(log(battle)) == before


def test_bad_input_gets_the_clis_message_as_a_400_and_appends_nothing(battle: World) -> None:
    gina = battle.client("gina")
    before = len(log(battle))
    unknown = command(gina, battle, "gf.shoot", 400, unit_name="Nobody", wounds=1)
    assert unknown == {"detail": "unknown unit 'Nobody' (units: Robot Squad, Saurian Warriors)"}
    assert "wounds" in command(gina, battle, "gf.shoot", 400, unit_name="Robot Squad", wounds=-1)["detail"]
    assert command(gina, battle, "gf.fly", 400)["detail"].startswith("there is no command called 'gf.fly'")
    assert (
        command(gina, battle, "gf.round", 400, dice="3")["detail"] == "gf.round rolls no dice: leave out the table dice"
    )
    assert len(log(battle)) == before


def test_a_lost_race_is_a_409_and_appends_nothing(battle: World) -> None:
    stale = battle.opened.ledger.directory.get(battle.campaign_id)
    command(battle.client("gina"), battle, "gf.round")
    head = len(log(battle))
    directory = battle.opened.ledger.directory
    real_get, real_entry = directory.get, directory.entry  # type: ignore[attr-defined]
    # read just before the other append: by the request's access check, and on each retry
    directory.get = lambda campaign_id: stale  # type: ignore[method-assign]
    directory.entry = lambda row: stale  # type: ignore[attr-defined]
    try:
        answer = battle.client("gina").post(url(battle, "/commands"), json={"command": "gf.round", "args": {}})
    finally:
        directory.get, directory.entry = real_get, real_entry  # type: ignore[method-assign,attr-defined]
    assert answer.status_code == 409
    assert len(log(battle)) == head


def test_a_command_id_sent_again_with_other_table_dice_is_refused_not_answered_as_done(battle: World) -> None:
    """A retry with the same id and the same dice is the same command (its result again); with another die it
    is not: the corrected die was silently dropped and the first result handed back. Refused in words, nothing
    appended; correcting a die is an amendment."""
    pat = battle.client("pat")
    shot = {"command": "gf.shoot", "args": {"unit_name": "Robot Squad", "wounds": 6}, "command_id": "evening-7"}
    first = post(pat, url(battle, "/commands"), {**shot, "dice": "6"})
    head = len(log(battle))
    again = post(pat, url(battle, "/commands"), {**shot, "dice": "6"})
    assert again["duplicate"] is True and len(log(battle)) == head
    refused = post(pat, url(battle, "/commands"), {**shot, "dice": "1"}, 400)
    assert "already used for this command with other dice (6)" in refused["detail"] and "amend" in refused["detail"]
    assert len(log(battle)) == head and first["duplicate"] is False


def test_the_amend_preview_appends_nothing_and_the_amendment_is_what_it_showed(battle: World) -> None:
    command(battle.client("pat"), battle, "gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    shot = max(e["seq"] for e in log(battle) if e["type"] == "timeline.command_issued")
    head = len(log(battle))
    configure_logging(1)  # the server's level: the log its operator reads says nothing was appended, as nothing was
    try:
        with capture_logs() as lines:
            preview = post(
                battle.client("gina"), url(battle, "/amend"), {"seq": shot, "set": {"wounds": 5}, "preview": True}
            )
    finally:
        configure_logging(0)
    assert preview["preview"] is True and preview["appended"] == [] and len(log(battle)) == head
    assert not [line for line in lines if line["event"] == "command.appended"], lines
    now = [a["explanation"] for a in preview["changed"][0]["after"]]
    assert now[0] == "Robot Squad takes 5 wounds: 5 models killed, 5 of 10 left"
    done = post(battle.client("gina"), url(battle, "/amend"), {"seq": shot, "set": {"wounds": 5}})
    assert [a["explanation"] for a in done["changed"][0]["after"]] == now
    assert done["appended"] and min(done["appended"]) == head + 1
    robots = battle.client("olive").get(url(battle, "/units/Robot Squad")).json()
    assert "5 models killed" in " ".join(h["what"] for h in robots["history"])


def test_an_amendment_confirmed_after_the_campaign_moved_on_is_refused(battle: World) -> None:
    """The page's confirm carries the head its preview was worked out on: what it would append is what it showed,
    or nothing."""
    command(battle.client("pat"), battle, "gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    shot = max(e["seq"] for e in log(battle) if e["type"] == "timeline.command_issued")
    gina = battle.client("gina")
    preview = post(gina, url(battle, "/amend"), {"seq": shot, "set": {"wounds": 5}, "preview": True})
    assert [f["fate"] for f in preview["fates"]] == [] and preview["head"] == len(log(battle))
    command(gina, battle, "gf.round")
    head = len(log(battle))
    stale = gina.post(url(battle, "/amend"), json={"seq": shot, "set": {"wounds": 5}, "head": preview["head"]})
    assert stale.status_code == 400 and "moved on since this preview" in stale.json()["detail"]
    assert len(log(battle)) == head


def test_the_game_master_corrects_a_misread_table_die_with_a_reason(battle: World) -> None:
    """RULES.md §4.1: a morale test passes on d6 ≥ Quality (4+). The table entered 2 (fails: Shaken); it agrees the
    die showed 4: passes. A 3 would still fail; a seeded roll or no reason is refused, nothing appended."""
    command(battle.client("pat"), battle, "gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    shot = max(e["seq"] for e in log(battle) if e["type"] == "timeline.command_issued")
    head = len(log(battle))
    for body, words in [
        ({"seq": shot, "dice": "4"}, "needs a reason"),
        ({"seq": shot, "dice": "7", "reason": "misread"}, "7 is not a face of a d6"),
    ]:
        refused = battle.client("gina").post(url(battle, "/amend"), json=body)
        assert refused.status_code == 400 and words in refused.json()["detail"], refused.json()
    assert len(log(battle)) == head
    gina = battle.client("gina")
    three = post(gina, url(battle, "/amend"), {"seq": shot, "dice": "3", "reason": "x", "preview": True})
    assert "fails → Shaken" in three["changed"][0]["after"][-1]["explanation"]
    done = post(battle.client("gina"), url(battle, "/amend"), {"seq": shot, "dice": "4", "reason": "it rolled to a 4"})
    assert done["corrected"] == [
        {
            "roll": 0,
            "notation": "d6",
            "faces_before": [2],
            "faces": [4],
            "replaced_by": 1,
            "reason": "it rolled to a 4",
        }
    ]
    assert "rolled 4 against Quality 4+: passes" in done["changed"][0]["after"][-1]["explanation"]
    corrected = next(e for e in log(battle, "olive") if e["type"] == "dice.corrected")
    assert corrected["actor"] == "gina" and "corrected from 2 to 4" in corrected["what"]


def test_the_game_master_corrects_a_misread_table_die_on_the_campaign_page_too(battle: World) -> None:
    """The page's amend form takes the dice read right and why (it had only INPUT=VALUE): RULES.md §4.1, the 2
    entered fails the morale test, the 4 the table agrees on passes."""
    command(battle.client("pat"), battle, "gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    shot = max(e["seq"] for e in log(battle) if e["type"] == "timeline.command_issued")
    gina = battle.client("gina")
    form = {"seq": str(shot), "dice": "4", "reason": "it rolled to a 4"}
    head = len(log(battle))
    preview = gina.post(f"/c/{battle.campaign_id}/amend", data={**form, "preview": "1"}).text
    assert "table dice of roll #0 (d6) corrected: 2 → 4: it rolled to a 4" in preview
    assert "rolled 4 against Quality 4+: passes" in preview and len(log(battle)) == head
    refused = gina.post(f"/c/{battle.campaign_id}/amend", data={"seq": str(shot), "dice": "4", "preview": "0"})
    assert "needs a reason" in refused.text and len(log(battle)) == head
    done = gina.post(f"/c/{battle.campaign_id}/amend", data={**form, "preview": "0"}).text
    assert "Amended shoot" in done and "corrected: 2 → 4" in done
    assert any(e["type"] == "dice.corrected" for e in log(battle))


def test_the_seed_is_never_served_before_reveal_and_checks_the_rolls_after(world: World) -> None:
    gina = world.client("gina")
    rolled = command(gina, world, "ledger.roll", notation="2d6", purpose="weather")
    seed = world.opened.ledger.vault.seed(world.campaign_id, 0).hex()
    pages = ["", "/log?all=true", "/verify", "/members", "/commands", "/battles", "/treasury"]
    seq = rolled["events"][-1]["seq"]
    texts = [gina.get(url(world, p)).text for p in pages]
    texts += [gina.get(url(world, "/audit"), params={"seq": s}).text for s in range(1, seq + 1)]
    texts += [gina.get(f"/c/{world.campaign_id}").text, gina.get(f"/c/{world.campaign_id}/audit/{seq}").text]
    assert all(seed not in t for t in texts)
    post(gina, url(world, "/reveal"))
    audit = gina.get(url(world, "/audit"), params={"seq": seq}).json()
    assert audit["checks"]["dice"][0]["check"].startswith("re-derived from the revealed seed: matches")


def test_memberships_are_events_in_the_log_entered_by_the_game_master(world: World) -> None:
    joined = [(e["what"], e["actor"]) for e in log(world) if e["type"].startswith("membership.")]
    assert joined == [
        ("gina joins as game master", "gina"),
        ("pat joins as player for Robots", "gina"),
        ("olive joins as observer", "gina"),
    ]
    assert post(world.client("gina"), url(world, "/members"), {"account": "ghost", "role": "observer"}, 400)
    left = post(world.client("gina"), url(world, "/members/gina/remove"), None, 400)
    assert left["detail"] == "gina is the campaign's only game master: make another member GM first"


def test_the_openapi_document_lists_the_command_endpoint_and_the_read_views(tmp_path: Any) -> None:
    paths = TestClient(create_app(str(tmp_path / "o.db"))).get("/openapi.json").json()["paths"]
    for path in (
        "/api/campaigns/{campaign_id}/commands",
        "/api/campaigns/{campaign_id}/audit",
        "/api/campaigns/{campaign_id}/verify",
    ):
        assert path in paths
    assert paths["/api/campaigns/{campaign_id}/rewind"]["post"]["x-access"] == "gm"


def test_an_invitation_between_a_shot_and_its_amendment_stays_and_is_not_undone(battle: World) -> None:
    command(battle.client("pat"), battle, "gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    shot = max(e["seq"] for e in log(battle) if e["type"] == "timeline.command_issued")
    post(battle.client("gina"), url(battle, "/members"), {"account": "sam", "role": "observer"})
    done = post(battle.client("gina"), url(battle, "/amend"), {"seq": shot, "set": {"wounds": 5}})
    assert done["dropped"] == [] and done["appended"]
    undone = post(battle.client("gina"), url(battle, "/undo"))
    assert undone["undone"].startswith("took back the amend at #")
    in_effect = [e["what"] for e in log(battle) if e["type"] == "membership.granted"]
    assert in_effect[-1] == "sam joins as observer"
    assert battle.client("sam").get(url(battle)).status_code == 200


def test_the_audit_page_says_its_entry_in_words_not_json_ids_or_iso_times(world: World) -> None:
    """A player disputing a roll reads the audit page: the command as it is typed, its inputs as label and value,
    the moment in words — not the recorded JSON, the command's recorded id or an ISO clock string."""
    gina = world.client("gina")
    rolled = command(gina, world, "ledger.roll", notation="2d6", purpose="weather at dawn")
    seq = rolled["events"][0]["seq"]
    whole = gina.get(f"/c/{world.campaign_id}/audit/{seq}").text
    page = whole[whole.index('id="audit"') : whole.index("</section>", whole.index('id="audit"'))]
    assert "<td>roll</td>" in page and "ledger.roll" not in page
    assert "<p>purpose: weather at dawn</p>" in page and "<p>notation: 2d6</p>" in page
    assert '{"' not in page and not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", page)
    assert re.search(r"<td>\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC</td>", page), page
    polish = gina.get(f"/c/{world.campaign_id}/audit/{seq}", headers={"Accept-Language": "pl"}).text
    assert "wpisał(a)" in polish and "Audyt #" in polish
    assert "<p>cel rzutu: weather at dawn</p>" in polish and "<p>zapis rzutu: 2d6</p>" in polish


def test_the_audit_page_of_an_amended_shot_names_the_ruling_in_force_in_its_place(battle: World) -> None:
    """Six wounds put the squad at half strength and call for a morale test (RULES.md §4.1); amended to one
    wound, no test is called for, so no ruling uses the die: the page said "nothing: every ruling on it was taken
    back" beside "same outcome"; it names the amendment's ruling in force in its place."""
    command(battle.client("pat"), battle, "gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    shot = max(e["seq"] for e in log(battle) if e["type"] == "timeline.command_issued")
    post(battle.client("gina"), url(battle, "/amend"), {"seq": shot, "set": {"wounds": 1}})
    amendment = max(e["seq"] for e in log(battle) if e["type"] == "timeline.command_issued")
    whole = battle.client("gina").get(f"/c/{battle.campaign_id}/audit/{shot}").text
    cell = whole[whole.index('id="audit-in-force"') : whole.index("</td>", whole.index('id="audit-in-force"'))]
    assert f"in its place (the amendment at #{amendment})" in cell and "nothing" not in cell
    rule = whole[whole.index('id="audit-rule"') : whole.index("</td>", whole.index('id="audit-rule"'))]
    assert f"the outcome it recorded (not in force: amended at #{amendment}" in rule


def test_the_logs_last_takes_a_count_of_events_as_the_cli_does(world: World) -> None:
    # `log --last N` in the CLI is the last N events; the API takes the same, and a negative count is no count.
    whole = [e["seq"] for e in log(world)]
    last = world.client("pat").get(url(world, "/log"), params={"last": 2})
    assert last.status_code == 200 and [e["seq"] for e in last.json()["events"]] == whole[-2:]
    negative = world.client("pat").get(url(world, "/log"), params={"last": -5})
    assert negative.status_code == 422 and negative.json() == {"detail": "last cannot be negative"}


def test_a_command_spelt_as_the_cli_spells_it_is_the_same_command(world: World) -> None:
    # `campaign gf battle-start` in the CLI; gf.battle_start as recorded: no two commands differ only there
    units = ["Robot Squad", "Saurian Warriors"]
    command(world.client("pat"), world, "gf.muster", name="Robot Squad", side="Robots", profile=SQUAD)
    command(world.client("gina"), world, "gf.muster", name="Saurian Warriors", side="Saurians", profile=SQUAD)
    started = command(world.client("gina"), world, "gf.battle-start", name="Ruins", units=units)
    assert [e["seq"] for e in log(world)][-len(started["events"]) :] == [e["seq"] for e in started["events"]]
    audit = world.client("gina").get(url(world, "/audit"), params={"seq": started["events"][0]["seq"]}).json()
    assert audit["command"] == "gf.battle_start"  # recorded by its one name
    assert command(world.client("gina"), world, "gf.battle-end")["events"]  # the battle was begun: it ends


def test_an_unknown_command_is_said_unknown_with_the_names_close_to_it(world: World) -> None:
    before = len(log(world))
    said = command(world.client("gina"), world, "gf.batle_start", 400, name="Ruins")["detail"]
    assert said.startswith("there is no command called 'gf.batle_start'; did you mean 'gf.battle_start'")
    assert "cannot be run by this version" not in said and len(log(world)) == before


def test_a_command_of_another_ruleset_is_refused_as_that_not_for_its_inputs(world: World) -> None:
    """A grimdark campaign: ``fs.attack`` is the five-grade rules' command, refused as not this ruleset's whatever
    its inputs (not "unit name is required", which sends one to fix the inputs), by the game master or a player;
    nothing appended."""
    before = len(log(world))
    for who in ("gina", "pat"):
        said = command(world.client(who), world, "fs.attack", 400)["detail"]
        assert said == "fs.attack is not a command of grimdark"
        said = command(world.client(who), world, "mc.muster", 400, name="Levy", side="Robots")["detail"]
        assert said == "mc.muster is not a command of grimdark"
    assert len(log(world)) == before


def test_the_log_of_an_unknown_type_is_refused_with_the_types_there_are(world: World) -> None:
    known = world.client("pat").get(url(world, "/log"), params={"type": "dice."})
    assert known.status_code == 200
    refused = world.client("pat").get(url(world, "/log"), params={"type": "nonsense"})
    assert refused.status_code == 400
    said = refused.json()["detail"]
    assert said.startswith("type 'nonsense' is not an event type nor the start of one; the families of types are ")
    assert "battle., " in said and "dice., " in said and "timeline." in said

"""Every route × every kind of caller gets exactly what the role table says.

Generated from the application's route table: each route declares its access level (``x-access``), and a
route added without one fails here. Callers: nobody, a forged session cookie, a member of another campaign
only, and the campaign's observer, player and game master. Refused: 401 (no session: a page redirects to
the sign-in form instead), 404 (signed in, not a member: as for a campaign that is not there, in the same words),
403 (a member, not allowed). Allowed: none of these, and never a 5xx.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from campaign.server.app import create_app, route_table
from campaign.server.context import LEVELS, SESSION_COOKIE
from tests.server.conftest import SQUAD, World

CALLERS = ("nobody", "forged", "stranger", "olive", "pat", "gina")
ROLE_OF = {"stranger": None, "olive": "observer", "pat": "player", "gina": "gm"}
ALLOWED_ROLES = {"member": {"observer", "player", "gm"}, "play": {"player", "gm"}, "gm": {"gm"}}


def routes() -> list[APIRoute]:
    return route_table()


def methods(route: APIRoute) -> set[str]:
    assert route.methods is not None, route.path  # every route of the table answers some method
    return route.methods


def route_id(route: APIRoute) -> str:
    return f"{sorted(methods(route))[0]} {route.path}"


def bodies(route: APIRoute) -> dict[str, Any]:
    """A request each route would accept from a caller allowed to make it (JSON for the API, forms for pages)."""
    path = route.path
    json: dict[str, dict[str, Any]] = {
        "/api/accounts": {"name": "newcomer", "password": "a long enough password"},
        "/api/session": {"name": "gina", "password": "correct horse battery"},
        "/api/campaigns": {"name": "Another", "ruleset": "grimdark"},
        "/api/campaigns/{campaign_id}/commands": {
            "command": "gf.muster",
            "args": {"name": "Robot Squad B", "side": "Robots", "profile": SQUAD},
        },
        "/api/campaigns/{campaign_id}/members": {"account": "sam", "role": "observer"},
        "/api/campaigns/{campaign_id}/rewind": {"to": 6},
        "/api/campaigns/{campaign_id}/amend": {"seq": 5, "set": {"side": "Robots"}, "preview": True},
        "/api/campaigns/{campaign_id}/entropy": {},
        "/api/campaigns/{campaign_id}/invitations": {"role": "observer"},
    }
    form: dict[str, dict[str, Any]] = {
        "/campaigns": {"name": "Another page", "ruleset": "grimdark"},
        "/c/{campaign_id}/command": {"_command": "gf.recover", "name": "Robot Squad"},
        "/c/{campaign_id}/invite": {"account": "sam", "role": "observer"},
        "/c/{campaign_id}/remove": {"account": "sam"},
        "/c/{campaign_id}/amend": {"seq": "5", "set": "side=Robots", "preview": "1"},
        "/c/{campaign_id}/rewind": {"to": "6"},
        "/c/{campaign_id}/entropy": {"share": "a line of our own"},
        "/c/{campaign_id}/invitations": {"role": "observer"},
        "/signin": {"name": "gina", "password": "x", "pre": "x"},
        "/signup": {"name": "x", "password": "x", "pre": "x"},
    }
    if path in json:
        return {"json": json[path]}
    if path in form:
        return {"data": form[path]}
    return {}


def url(route: APIRoute, world: World) -> str:
    values = {
        "campaign_id": world.campaign_id,
        "name": "Robot Squad",
        "pc": "nobody",
        "seq": "6",
        "account": "sam",
        "session_id": "0123456789abcdef",
        "lang": "ru",
        "token": "no-link-of-this-server-0123456789",
        "invitation_id": "0123456789abcdef",
    }
    return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], route.path)


def expected(level: str, caller: str, route: APIRoute) -> set[int] | None:
    """The statuses the role table gives ``caller`` (None: any answer but a refusal or a 5xx; a public route's
    own refusal, a wrong password say, is the route's business)."""
    page_get = "GET" in methods(route) and not route.path.startswith("/api/")
    if level == "public":
        return set(range(200, 500))
    if caller in ("nobody", "forged"):
        return {303} if page_get else {401}
    if level == "account":
        return None
    role = ROLE_OF[caller]
    if role is None:  # not a member: as for a campaign that is not there
        return {404}
    return None if role in ALLOWED_ROLES[level] else {403}


def client_for(world: World, caller: str) -> TestClient:
    if caller == "nobody":
        return TestClient(world.app, follow_redirects=False)
    if caller == "forged":
        forged = TestClient(world.app, follow_redirects=False)
        forged.cookies.set(SESSION_COOKIE, "forged-session-value-0123456789")
        forged.headers["X-CSRF-Token"] = "forged"
        return forged
    client = world.client("sam" if caller == "stranger" else caller)
    client.follow_redirects = False
    return client


def test_one_not_a_member_is_answered_as_for_a_campaign_not_there(world: World) -> None:
    """Neither the campaign's name nor that its id is one: the same 404 in the same words as an unknown id's."""
    sam = world.client("sam")
    there = sam.get(f"/api/campaigns/{world.campaign_id}")
    unknown_id = "0" * len(world.campaign_id)
    not_there = sam.get(f"/api/campaigns/{unknown_id}")
    assert (there.status_code, not_there.status_code) == (404, 404)
    assert there.json()["detail"] == f"no campaign {world.campaign_id!r} on this server"
    assert not_there.json()["detail"] == f"no campaign {unknown_id!r} on this server"
    page = sam.get(f"/c/{world.campaign_id}")
    assert page.status_code == 404 and "Kessel" not in page.text


@pytest.fixture
def seeded(world: World) -> World:
    gina = world.client("gina")
    muster = {"command": "gf.muster", "args": {"name": "Robot Squad", "side": "Robots", "profile": SQUAD}}
    assert gina.post(f"/api/campaigns/{world.campaign_id}/commands", json=muster).status_code == 200
    return world


def test_the_route_table_is_every_route_of_the_api() -> None:
    documented = {
        (method.upper(), path)
        for path, operations in create_app(":memory:").openapi()["paths"].items()
        for method in operations
    }
    assert documented <= {(m, r.path) for r in routes() for m in methods(r)}
    assert len(routes()) >= 30


def test_every_route_declares_its_access_level() -> None:
    undeclared = [route_id(r) for r in routes() if (r.openapi_extra or {}).get("x-access") not in LEVELS]
    assert undeclared == []


@pytest.mark.parametrize("route", routes(), ids=route_id)
def test_each_caller_gets_what_the_role_table_says(route: APIRoute, seeded: World) -> None:
    level = (route.openapi_extra or {})["x-access"]
    if route.path.endswith("/events"):
        callers = [c for c in CALLERS if expected(level, c, route) is not None]  # an allowed one streams for ever
    else:
        callers = list(CALLERS)
    method = sorted(methods(route))[0]
    for caller in callers:
        answer = client_for(seeded, caller).request(method, url(route, seeded), **bodies(route))
        allowed = expected(level, caller, route)
        assert answer.status_code < 500, (caller, answer.text)
        if allowed is None:
            assert answer.status_code not in (401, 403), (caller, answer.status_code, answer.text)
        else:
            assert answer.status_code in allowed, (caller, answer.status_code, answer.text)
            if answer.status_code == 303 and level != "public":  # the language switch goes back where it was
                assert answer.headers["location"] == "/signin"


# -- whose units, whose dice: the command route, command by command ------------------------------------------
#
# README's role table: a player enters the commands of its own sides' units (the unit that acts, tests, moves,
# pays, and a unit its own acts on) and the table dice of their rolls; what happens to another side's unit (a
# melee's wounds dealt to it, a psi action on it) is that side's or the game master's to enter; commands that name
# no unit or side of the player's (a battle's start and end, a house rule, a plain roll) are the game master's.
# pat plays Robots (Robot Squad); Saurian Warriors fight for Saurians, the game master's.

OURS, THEIRS = "Robot Squad", "Saurian Warriors"
LISTED = {"entry": "e1", "name": "Listed Squad", "profile": SQUAD}
CASES: list[tuple[str, dict[str, Any], str]] = [
    ("gf.muster", {"name": "Robot Squad B", "side": "Robots", "profile": SQUAD}, "player"),
    ("gf.muster", {"name": "Raptors", "side": "Saurians", "profile": SQUAD}, "gm"),
    ("gf.buy", {"name": "Robot Squad C", "side": "Robots", "profile": SQUAD}, "player"),
    ("gf.buy", {"name": "Raptors", "side": "Saurians", "profile": SQUAD}, "gm"),
    ("gf.import_list", {"side": "Robots", "list_id": "l1", "list_name": "Bots", "entries": [LISTED]}, "player"),
    ("gf.import_list", {"side": "Saurians", "list_id": "l2", "list_name": "Lizards", "entries": [LISTED]}, "gm"),
    ("gf.sell", {"unit_name": OURS}, "player"),
    ("gf.sell", {"unit_name": THEIRS}, "gm"),
    ("gf.transfer", {"from_unit": OURS, "to_unit": OURS, "men": 1}, "player"),
    ("gf.transfer", {"from_unit": THEIRS, "to_unit": OURS, "men": 1}, "gm"),
    ("gf.disband", {"unit_name": OURS}, "player"),
    ("gf.disband", {"unit_name": THEIRS}, "gm"),
    # a correction of the record, even of its own unit's: the game master's (a quality comes by the rules only)
    ("gf.edit", {"unit_name": OURS, "changes": {"points": 160}}, "gm"),
    ("gf.edit", {"unit_name": THEIRS, "changes": {"points": 160}}, "gm"),
    ("gf.house_rule", {"path": "rewards.loser_points", "value": 250}, "gm"),
    ("gf.battle_start", {"name": "Ruins, again", "units": [OURS, THEIRS]}, "gm"),
    ("gf.round", {}, "gm"),
    ("gf.shoot", {"unit_name": OURS, "wounds": 6}, "player"),
    # the Saurians' shooter would spend its activation and be credited: theirs or the game master's to name
    ("gf.shoot", {"unit_name": OURS, "wounds": 6, "by": THEIRS}, "gm"),
    ("gf.shoot", {"unit_name": OURS, "wounds": 6, "by": OURS}, "player"),
    ("gf.shoot", {"unit_name": THEIRS, "wounds": 6}, "gm"),
    ("gf.melee", {"a": OURS, "b": THEIRS, "wounds_by_a": 9, "wounds_by_b": 0}, "gm"),
    ("gf.melee", {"a": THEIRS, "b": OURS, "wounds_by_a": 0, "wounds_by_b": 9}, "gm"),
    ("gf.activate", {"unit_name": OURS}, "player"),
    ("gf.activate", {"unit_name": THEIRS}, "gm"),
    ("gf.recover", {"unit_name": OURS}, "player"),
    ("gf.recover", {"unit_name": THEIRS}, "gm"),
    ("gf.remove", {"unit_name": OURS, "reason": "destroyed", "by": THEIRS}, "gm"),  # the Saurians credited
    ("gf.remove", {"unit_name": OURS, "reason": "destroyed"}, "player"),
    ("gf.remove", {"unit_name": THEIRS, "reason": "destroyed", "by": OURS}, "gm"),
    ("gf.battle_end", {"winner": "Robots"}, "gm"),
    ("ledger.roll", {"notation": "d6", "purpose": "the weather"}, "gm"),
]
"""Each command of the campaign's ruleset, with inputs naming pat's unit or side and the other side's, and who
may enter it: ``player`` (pat, and the game master) or ``gm`` (the game master only)."""


@pytest.fixture
def match(world: World) -> World:
    gina, pat, cid = world.client("gina"), world.client("pat"), world.campaign_id
    for who, name, side in ((pat, OURS, "Robots"), (gina, THEIRS, "Saurians")):
        body = {"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}}
        assert who.post(f"/api/campaigns/{cid}/commands", json=body).status_code == 200
    start = {"command": "gf.battle_start", "args": {"name": "Ruins", "units": [OURS, THEIRS]}}
    assert gina.post(f"/api/campaigns/{cid}/commands", json=start).status_code == 200
    return world


def test_every_command_of_the_ruleset_has_its_cases() -> None:
    from campaign.server.runner import commands_for

    assert {name for name, _, _ in CASES} == {spec.name for spec in commands_for("grimdark")}


@pytest.mark.parametrize(("name", "args", "who"), CASES, ids=[f"{n}-{who}-{i}" for i, (n, _, who) in enumerate(CASES)])
def test_each_command_is_entered_by_whom_the_role_table_says(
    match: World, name: str, args: dict[str, Any], who: str
) -> None:
    """Refused (403, nothing appended) exactly where the role table refuses; allowed, the rules may still refuse
    the inputs (400: a unit sold during a match, say), never the caller."""
    cid = match.campaign_id
    for caller in ("olive", "pat", "gina"):
        log = match.client("gina").get(f"/api/campaigns/{cid}/log").json()["events"]
        answer = match.client(caller).post(f"/api/campaigns/{cid}/commands", json={"command": name, "args": args})
        assert answer.status_code < 500, answer.text
        refused = caller == "olive" or (caller == "pat" and who == "gm")
        assert (answer.status_code == 403) == refused, (caller, answer.status_code, answer.text)
        if refused:
            assert match.client("gina").get(f"/api/campaigns/{cid}/log").json()["events"] == log
        if answer.status_code == 200:
            return  # done once: the next caller would meet its effects (a unit sold, a battle ended)


def test_a_player_may_not_set_the_other_sides_fate_nor_roll_its_die_in_a_melee(match: World) -> None:
    """The attack on the first server: pat needs only one of the two units to be Robots', sets the wounds it deals
    (9) and types the table die of the Saurians' morale test (1): Saurian Warriors would Rout, removed."""
    pat, cid = match.client("pat"), match.campaign_id
    before = match.client("gina").get(f"/api/campaigns/{cid}/log").json()["events"]
    melee = {"a": OURS, "b": THEIRS, "wounds_by_a": 9, "wounds_by_b": 0}
    answer = pat.post(f"/api/campaigns/{cid}/commands", json={"command": "gf.melee", "args": melee, "dice": "1"})
    assert answer.status_code == 403
    assert answer.json() == {
        "detail": "gf melee sets what happens to Saurian Warriors, a unit of Saurians: the game master enters it "
        "(you play Robots)"
    }
    assert match.client("gina").get(f"/api/campaigns/{cid}/log").json()["events"] == before  # nothing appended
    # the game master enters it, with the table's die for the Saurians' test: the 1 fails at half strength
    gm = {"command": "gf.melee", "args": melee, "dice": "1"}
    done = match.client("gina").post(f"/api/campaigns/{cid}/commands", json=gm)
    assert done.status_code == 200, done.text
    said = " ".join(e["what"] or "" for e in done.json()["events"])
    assert "Saurian Warriors" in said and "Rout" in said


def test_a_players_table_dice_are_for_its_own_units_rolls(match: World) -> None:
    """pat's unit shot at: the morale test it calls for is Robots', and pat's die is taken for it, entered by pat.
    6 wounds on 10 models of Quality 4+ leave 4 (half strength): a test; the table's 2 fails (Shaken). Naming the
    Saurians' shooter would spend its activation and credit it: that is the Saurians' or the game master's."""
    pat, cid = match.client("pat"), match.campaign_id
    before = match.client("gina").get(f"/api/campaigns/{cid}/log").json()["events"]
    theirs = {"command": "gf.shoot", "args": {"unit_name": OURS, "wounds": 6, "by": THEIRS}, "dice": "2"}
    refused = pat.post(f"/api/campaigns/{cid}/commands", json=theirs)
    assert refused.status_code == 403 and "sets what happens to Saurian Warriors" in refused.json()["detail"]
    assert match.client("gina").get(f"/api/campaigns/{cid}/log").json()["events"] == before
    shot = {"command": "gf.shoot", "args": {"unit_name": OURS, "wounds": 6}, "dice": "2"}
    answer = pat.post(f"/api/campaigns/{cid}/commands", json=shot)
    assert answer.status_code == 200, answer.text
    [roll] = [e for e in answer.json()["events"] if e["type"] == "dice.rolled"]
    audit = pat.get(f"/api/campaigns/{cid}/audit", params={"seq": roll["seq"]}).json()
    assert audit["checks"]["dice"] == [{"roll": 0, "check": "table dice entered by pat"}]

"""What the server is sent reads as what the group then sees: no name that looks like another or like nothing, and
no text that shows otherwise than it was typed (a right-to-left override reorders what follows it on a screen).

Names (``events/limits.py``, ``events/confusables.py``): a run of spaces inside a name reads as one space, so
"Company  HQ" beside "Company HQ" is a look-alike; a character that shows as nothing or a blank (a Hangul filler,
the blank Braille pattern) is in no name. Text (a reason, a share of entropy, a token's label): no bidirectional
embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), refused as a control character is. Each refusal a
400 in words, nothing appended.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import World, post

FIVE = {"quality": "green", "leadership": 2, "size": 7}
SPOOF = "deserted\u202e )2 dellik( kcatta"
"""Shown as "deserted attack killed (2)" reversed into another sentence: the override turns what follows."""


def five_grades(world: World) -> str:
    gina = world.client("gina")
    cid = str(post(gina, "/api/campaigns", {"name": "Otlok", "ruleset": "fighting-spirit"}, 201)["campaign_id"])
    post(gina, f"/api/campaigns/{cid}/members", {"account": "pat", "role": "player", "sides": ["Keno"]})
    muster = {"command": "fs.muster", "args": {"name": "Company HQ", "side": "Keno", "profile": FIVE}}
    post(gina, f"/api/campaigns/{cid}/commands", muster)
    return cid


def head(world: World, cid: str) -> int:
    info = world.opened.ledger.directory.get(cid)
    assert info is not None
    return info.last_seq


def send(client: TestClient, cid: str, name: str, args: dict[str, Any]) -> Any:
    return client.post(f"/api/campaigns/{cid}/commands", json={"command": name, "args": args})


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("Company  HQ", "'Company  HQ' looks like the unit 'Company HQ' already on the roster"),
        ("Company HQ\u2800", "invisible character (U+2800): not in a name"),
        ("\u3164", "invisible character (U+3164): not in a name"),
    ],
)
def test_a_name_that_looks_like_another_or_like_nothing_is_refused(world: World, typed: str, said: str) -> None:
    cid = five_grades(world)
    before = head(world, cid)
    answer = send(world.client("pat"), cid, "fs.muster", {"name": typed, "side": "Keno", "profile": FIVE})
    assert answer.status_code == 400, answer.text
    assert said in answer.json()["detail"]
    assert head(world, cid) == before


def test_a_reason_with_a_right_to_left_override_is_refused_as_a_control_character(world: World) -> None:
    cid = five_grades(world)
    before = head(world, cid)
    answer = send(world.client("pat"), cid, "fs.disband", {"unit_name": "Company HQ", "reason": SPOOF})
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"] == (
        "fs disband: reason 'deserted\\u202e )2 dellik( kcatta' holds a control character (U+202E)"
    )
    assert head(world, cid) == before
    for control in "\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069":
        answer = send(world.client("pat"), cid, "fs.disband", {"unit_name": "Company HQ", "reason": f"gone{control}"})
        assert answer.status_code == 400 and f"(U+{ord(control):04X})" in answer.json()["detail"], answer.text
    assert head(world, cid) == before
    assert (
        send(world.client("pat"), cid, "fs.disband", {"unit_name": "Company HQ", "reason": "deserted"}).status_code
        == 200
    )


def test_a_share_of_entropy_and_a_tokens_label_hold_no_direction_control(world: World) -> None:
    pat, cid = world.client("pat"), world.campaign_id
    before = head(world, cid)
    answer = pat.post(f"/api/campaigns/{cid}/entropy", json={"share": f"mine{SPOOF}"})
    assert answer.status_code == 400 and "(U+202E)" in answer.json()["detail"], answer.text
    assert head(world, cid) == before
    label = pat.post("/api/tokens", json={"label": "\u2067script\u2069"})
    assert label.status_code == 400 and "(U+2067)" in label.json()["detail"], label.text
    assert pat.post("/api/tokens", json={"label": "script"}).status_code == 201


def test_the_refused_override_and_blank_are_said_on_the_page_in_russian_and_polish(world: World) -> None:
    cid = five_grades(world)
    pat = world.client("pat")
    before = head(world, cid)
    for lang, control, blank in (
        (
            "ru",
            "есть управляющий символ (U+202E)",
            "есть управляющий или невидимый символ (U+3164): в имени он недопустим",
        ),
        (
            "pl",
            "zawiera znak sterujący (U+202E)",
            "zawiera znak sterujący lub niewidoczny (U+3164): w nazwie jest niedozwolony",
        ),
    ):
        pat.get(f"/lang/{lang}", params={"next": "/"})
        fields = {"_command": "fs.disband", "unit_name": "Company HQ", "reason": SPOOF}
        page = pat.post(f"/c/{cid}/command", data=fields)
        assert page.status_code == 400 and control in " ".join(page.text.split()), page.text
        fields = {
            "_command": "fs.muster",
            "name": "\u3164",
            "side": "Keno",
            "profile.size": "7",
            "profile.quality": "green",
            "profile.leadership": "2",
        }
        page = pat.post(f"/c/{cid}/command", data=fields)
        assert page.status_code == 400 and blank in " ".join(page.text.split()), page.text
    assert head(world, cid) == before

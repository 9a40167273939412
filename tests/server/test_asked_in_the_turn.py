"""Who asks is read again when a writing form's turn comes, as the API's command route reads it: a GM may have
removed the member, made them an observer or another side's player while their form waited for the campaign's
turn. The page's command form and the army-list upload read the member as a dependency first (before the form's
body and the turn): that read only shows the page; what is run is refused for the member as they are in the turn,
and nothing is appended.

The change is made deterministically between the form's dependency and its turn: when the form asks for the turn.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from campaign.access import memberships
from campaign.server.turns import Turns
from tests.server.conftest import World

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MUSTER = {
    "_command": "gf.muster",
    "name": "Robot Squad",
    "side": "Robots",
    "profile.points": "150",
    "profile.models": "10",
    "profile.quality": "4",
}


def removed(world: World) -> None:
    srv = world.app.state.server
    memberships.remove(srv.ledger_for("gina"), srv.members, srv.campaign(world.campaign_id), "pat")


def regranted(role: str, sides: list[str]) -> Callable[[World], None]:
    def change(world: World) -> None:
        srv = world.app.state.server
        info = srv.campaign(world.campaign_id)
        memberships.grant(srv.ledger_for("gina"), srv.members, info, "pat", role, sides, account_exists=True)

    return change


CHANGES = {
    "removed": (removed, 404, "on this server"),  # one no longer a member: as for a campaign not there
    "made an observer": (regranted("observer", []), 403, "pat is observer in Kessel"),
    "moved to another side": (regranted("player", ["Saurians"]), 403, "you play Saurians, not Robots"),
}


def changed_when_the_turn_is_asked(
    world: World, monkeypatch: pytest.MonkeyPatch, change: Callable[[World], None]
) -> list[bool]:
    """The GM's change, made once, as the form (its member already read) asks for the campaign's turn."""
    real_turn = Turns.turn
    done: list[bool] = []

    def then(self: Turns, campaign_id: str) -> Any:
        if not done:
            done.append(True)
            change(world)
        return real_turn(self, campaign_id)

    monkeypatch.setattr(Turns, "turn", then)
    return done


def events(world: World) -> int:
    info = world.opened.ledger.directory.get(world.campaign_id)
    assert info is not None
    return info.last_seq


@pytest.mark.parametrize("what", list(CHANGES))
def test_a_page_command_is_refused_for_the_member_as_they_are_in_its_turn(
    world: World, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    change, code, said = CHANGES[what]
    done = changed_when_the_turn_is_asked(world, monkeypatch, change)
    before = events(world)
    answer = world.client("pat").post(f"/c/{world.campaign_id}/command", data=MUSTER, headers={"HX-Request": "true"})
    assert done, answer.text  # the change was made between the form's dependency and its turn
    assert answer.status_code == code and said in answer.text, answer.text
    assert events(world) == before + 1  # the GM's change alone: no unit mustered
    assert "Robot Squad" not in world.client("gina").get(f"/api/campaigns/{world.campaign_id}").text


@pytest.mark.parametrize("what", list(CHANGES))
def test_an_army_list_is_refused_for_the_member_as_they_are_in_its_turn(
    world: World, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    change, code, said = CHANGES[what]
    done = changed_when_the_turn_is_asked(world, monkeypatch, change)
    before = events(world)
    files = {"army_list": ("starhost.json", (EXAMPLES / "starhost.json").read_bytes())}
    answer = world.client("pat").post(f"/c/{world.campaign_id}/army-list", data={"side": "Robots"}, files=files)
    assert done, answer.text
    assert answer.status_code == code and said in answer.text, answer.text
    assert events(world) == before + 1
    assert world.client("gina").get(f"/api/campaigns/{world.campaign_id}").json()["units"] == []

"""The campaign page lists only the commands the viewer's role and the battle's state allow.

Grimdark (RULES.md §4): a shot, a melee, a round, a unit's activation, recovery or removal and the battle's end
happen during a battle; a battle starts only when none is being fought. Each command declares when it may be
entered (``Command.phase``), and the declaration is checked here against the rules' own refusals: run on the
campaign's state (appending nothing), a command declared for battles is refused with "no battle is being fought"
before one starts, a battle's start "is still being fought" during one, and no other is refused for either.
A player sees only commands that act for a side (never the game master's: a battle's start or end, a round, a
house rule, a plain roll); an observer none.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any, cast

import pytest

from campaign.commands import command_type
from campaign.rulesets import RULESETS
from campaign.rulesets.command import Phase
from campaign.server import pages, runner
from events.dice.ask import CountingDice
from events.errors import InvalidInputError
from tests.server.conftest import SQUAD, World, post
from tests.server.test_authorisation import CASES, OURS, THEIRS

NO_BATTLE = "no battle is being fought"
STILL_FOUGHT = "is still being fought"


def muster(world: World, name: str, side: str) -> None:
    body = {"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}}
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", body)


def start_battle(world: World) -> None:
    body = {"command": "gf.battle_start", "args": {"name": "Ruins", "units": ["Robot Squad", "Saurian Warriors"]}}
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", body)


def listed(world: World, who: str) -> set[str]:
    page = world.client(who).get(f"/c/{world.campaign_id}").text
    return {name.replace("-", ".", 1) for name in re.findall(r'<details class="command" id="cmd-([\w-]+)"', page)}


def refusal(world: World, command: str, args: dict[str, Any]) -> str:
    """What the rules say to ``command`` on the campaign as it stands ('' if they take it): nothing is appended."""
    ledger = world.opened.ledger
    info = ledger.directory.get(world.campaign_id)
    assert info is not None
    try:
        ledger.dry_run(info, runner.build(command, args, info.ruleset), CountingDice("low", info.next_roll_index, []))
    except InvalidInputError as exc:
        return str(exc)
    return ""


@pytest.fixture
def mustered(world: World) -> World:
    muster(world, "Robot Squad", "Robots")
    muster(world, "Saurian Warriors", "Saurians")
    return world


def test_before_a_battle_no_battle_command_and_a_player_never_the_game_masters(mustered: World) -> None:
    gm, player = listed(mustered, "gina"), listed(mustered, "pat")
    assert "gf.battle_start" in gm and "gf.muster" in gm and "ledger.roll" in gm
    assert not {"gf.shoot", "gf.melee", "gf.round", "gf.battle_end", "gf.activate"} & gm
    assert "gf.muster" in player and "gf.disband" in player
    assert not {"gf.battle_start", "gf.battle_end", "gf.round", "gf.house_rule", "ledger.roll", "gf.shoot"} & player
    assert listed(mustered, "olive") == set()
    assert 'id="commands"' not in mustered.client("olive").get(f"/c/{mustered.campaign_id}").text


def test_during_a_battle_its_commands_and_no_second_start(mustered: World) -> None:
    start_battle(mustered)
    gm, player = listed(mustered, "gina"), listed(mustered, "pat")
    assert {"gf.shoot", "gf.melee", "gf.round", "gf.battle_end", "gf.activate", "gf.muster"} <= gm
    assert "gf.battle_start" not in gm
    assert {"gf.shoot", "gf.melee", "gf.activate", "gf.recover"} <= player
    assert not {"gf.round", "gf.battle_end", "gf.battle_start"} & player
    page = mustered.client("pat").get(f"/c/{mustered.campaign_id}").text
    # drawn during the battle: when it ends, the page's script shows the note (the battle part's state differs)
    assert 'id="commands" tabindex="-1" data-fought="yes"' in page and 'id="battle" data-fought="yes"' in page
    assert 'id="commands-stale" class="error" role="status" hidden>The battle is over' in page


def test_a_form_sent_from_a_page_drawn_before_the_battle_ended_is_refused_by_the_rules_in_words(
    mustered: World,
) -> None:
    gina = mustered.client("gina")
    sent = gina.post(
        f"/c/{mustered.campaign_id}/command",
        data={"_command": "gf.round"},
        headers={"HX-Request": "true"},
    )
    assert sent.status_code == 400 and NO_BATTLE in sent.text


def test_each_commands_declared_phase_is_the_rules_own(mustered: World) -> None:
    grimdark = {c.name for c in runner.commands_for("grimdark")}
    assert {name for name, _, _ in CASES} == grimdark  # every command has a case
    for name, args, _ in CASES:
        said = refusal(mustered, name, args)
        assert (NO_BATTLE in said) == (command_type(name).phase is Phase.BATTLE), (name, said)
    start_battle(mustered)
    for name, args, _ in CASES:
        said = refusal(mustered, name, args)
        assert (STILL_FOUGHT in said) == (command_type(name).phase is Phase.BETWEEN), (name, said)
        assert NO_BATTLE not in said, (name, said)


def test_without_javascript_a_battles_start_shows_its_answer_on_the_page_it_redirects_to(mustered: World) -> None:
    gina = mustered.client("gina")
    csrf = gina.headers.pop("X-CSRF-Token")
    try:
        sent = gina.post(
            f"/c/{mustered.campaign_id}/command",
            data={"_csrf": csrf, "_command": "gf.battle_start", "name": "Ruins", "units": [OURS, THEIRS]},
            follow_redirects=False,
        )
        assert sent.status_code == 303
        page = gina.get(sent.headers["location"]).text
    finally:
        gina.headers["X-CSRF-Token"] = csrf
    assert "battle-start: " in page  # its answer, in its form, though the battle has begun
    assert 'id="cmd-gf-battle_start"' not in gina.get(f"/c/{mustered.campaign_id}").text  # then no more


def _drawn(world: World, who: str) -> str:
    answer = world.client(who).get(f"/c/{world.campaign_id}/commands")
    assert answer.status_code == 200
    return answer.text.strip()


def test_the_command_list_alone_follows_the_battles_state_for_the_page_to_swap_in(mustered: World) -> None:
    """What the page's script fetches when the battle part says a battle began or ended: the reader's own list,
    as a reload would draw it, and nothing else of the page; the live parts are not rendered again for it."""
    before = _drawn(mustered, "gina")
    # drawn with the battle's state and the roster's units it offers (the page fetches it when either changes)
    assert before.startswith('<section class="card" id="commands" tabindex="-1" data-fought="no" data-units="2">')
    roster = mustered.client("gina").get(f"/c/{mustered.campaign_id}/live", params={"part": "top"}).text
    assert '<section class="card" id="roster" data-units="2">' in roster
    assert 'id="cmd-gf-battle_start"' in before and 'id="cmd-gf-shoot"' not in before
    assert 'id="roster"' not in before and 'id="log"' not in before
    start_battle(mustered)
    fragments = mustered.app.state.server.fragments
    mustered.client("gina").get(f"/c/{mustered.campaign_id}/live")  # the head's parts, rendered once
    rendered = fragments.renderings
    gm, player = _drawn(mustered, "gina"), _drawn(mustered, "pat")
    assert fragments.renderings == rendered  # the command list is drawn alone, not with the shared parts
    assert 'data-fought="yes"' in gm and 'id="cmd-gf-shoot"' in gm and 'id="cmd-gf-battle_start"' not in gm
    assert 'id="cmd-gf-shoot"' in player and 'id="cmd-gf-round"' not in player
    token = mustered.client("pat").headers["X-CSRF-Token"]
    assert f'name="_csrf" value="{token}"' in player and pages._TOKEN not in player  # its own token, put in
    drawn = pages.LISTS.drawn
    assert _drawn(mustered, "pat") == player and _drawn(mustered, "gina") == gm
    assert pages.LISTS.drawn == drawn  # the same head, role and sides: drawn once, shared
    assert _drawn(mustered, "olive") == ""  # an observer enters nothing


def test_a_command_its_rules_refuse_whatever_its_inputs_is_never_offered(mustered: World) -> None:
    """Grimdark's units do not trade models: its ``transfer`` is refused whatever it is given (the command line
    does not list it), so no form offers it before, during or after a battle, to the GM or a player."""
    moved = {"from_unit": "Robot Squad", "to_unit": "Saurian Warriors", "men": 1}
    assert "do not trade models" in refusal(mustered, "gf.transfer", moved)
    seen = [listed(mustered, "gina"), listed(mustered, "pat")]
    start_battle(mustered)
    seen += [listed(mustered, "gina"), listed(mustered, "pat")]
    body = {"command": "gf.battle_end", "args": {"winner": "Robots"}}
    post(mustered.client("gina"), f"/api/campaigns/{mustered.campaign_id}/commands", body)
    seen += [listed(mustered, "gina"), listed(mustered, "pat")]
    assert "gf.battle_start" in seen[-2]  # the battle is over
    assert all("gf.transfer" not in offered and "gf.muster" in offered for offered in seen), seen


def test_no_ruleset_offers_a_command_its_command_line_hides() -> None:
    from campaign.server.context import InCampaign

    for ruleset in RULESETS:
        member = SimpleNamespace(role="gm", sides=())
        m = cast(InCampaign, SimpleNamespace(info=SimpleNamespace(ruleset=ruleset), member=member))
        for fought in (False, True):
            hidden = [c.name for c in pages._offered(m, fought) if not c.model.listed]
            assert hidden == [], (ruleset, fought, hidden)

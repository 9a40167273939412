"""The page's forms as a new user on a phone reads them: words from the models, not the command line's syntax.

In-process (TestClient and the form generator): a command that rolls only with one of its inputs offers no dice
without it (a Grimdark battle's start rolls only its special objectives, RULES.md §4.2); every generated form of
every ruleset is labelled and helped in words, never ``--option`` or ``KEY=VALUE`` (which stay the command line's,
on its ``--help``); an invitation link is for a player of a side or an observer, never both; a new campaign's
ruleset is a choice said in full; the commands are grouped as the command line groups them, the battle's first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from campaign.rulesets import RULESETS
from campaign.rulesets.inputs import Kind, meaning_of
from campaign.server import forms, pages, runner
from tests.server.conftest import World
from tests.server.test_page_forms import HTMX, battle, form_of, head, muster, send

CLI_SYNTAX = re.compile(r"--[a-z]|\b[A-Z]{2,}=|=[A-Z]{2,}|`|\brepeat\b|\(see ")
"""What is the command line's, not a form's: an option (``--xp``), a typed pair (``JOINER=UNIT``), a backquoted
command, "repeat" (the option given again), "(see `tables`)"."""
NO_WORD = {"", "value", "which", "key"}
"""Labels that say nothing of what is asked."""


def _walk(widgets: list[forms.Widget]) -> Iterator[forms.Widget]:
    for w in widgets:
        yield w
        yield from _walk(w.children)
        for row in w.rows:
            yield from _walk(row)


def test_every_generated_form_of_every_ruleset_is_in_words_not_command_line_syntax() -> None:
    choices = forms.Choices(units=(("Robot Squad", "Robots"),), sides=("Robots",), battles=("Ruins",))
    found = []
    for ruleset in RULESETS:
        for c in runner.commands_for(ruleset):
            where = f"{ruleset} {c.name}"
            if CLI_SYNTAX.search(c.summary):
                found.append(f"{where} summary: {c.summary}")
            for w in _walk(forms.fields_of(c.model, choices, {})):
                if w.label.strip().lower() in NO_WORD:
                    found.append(f"{where} {w.path}: labelled {w.label!r}")
                for text in (w.label, w.help, w.empty_note):
                    if CLI_SYNTAX.search(text):
                        found.append(f"{where} {w.path}: {text}")
    assert found == [], "\n".join(found)


def test_the_command_line_keeps_its_syntax_in_its_own_help() -> None:
    from campaign.cli.help_texts import command_help

    shown = command_help(("gf",))
    # the model says what the input is once; the command line leads it with how it is typed, and "repeat"
    assert shown["JOINER=UNIT: a hero joins a unit, or a like unit combines; repeat."] == "gf battle-start join"
    assert shown["A unit on the table; repeat."] == "gf battle-start unit"


def test_a_battles_joins_are_labelled_by_what_they_are(world: World) -> None:
    muster(world, "Robot Squad", "Robots")
    start = form_of(world.client("gina").get(f"/c/{world.campaign_id}").text, "gf-battle_start")
    assert ">joining unit" in start and ">joins unit" in start
    assert ">value" not in start and "JOINER=UNIT" not in start


def test_every_command_rolling_only_with_an_input_names_a_flag_of_its_own() -> None:
    declared = [c.model for r in RULESETS for c in runner.commands_for(r) if c.model.rolls_with]
    assert {m.name for m in declared} >= {"gf.battle_start", "mc.commander"}
    for model in declared:
        assert model.rolls and meaning_of(model, str(model.rolls_with)).kind is Kind.FLAG


def test_a_battle_start_offers_no_dice_unless_it_rolls_its_special_objectives(world: World) -> None:
    muster(world, "Robot Squad", "Robots")
    muster(world, "Saurian Warriors", "Saurians")
    gina = world.client("gina")
    start = form_of(gina.get(f"/c/{world.campaign_id}").text, "gf-battle_start")
    assert "Which dice to roll?" not in start and "Roll the campaign" not in start
    assert 'value="nodice" class="primary">battle-start</button>' in start
    assert "rolls dice only with “special”" in start
    fields = {"_command": "gf.battle_start", "name": "Ruins", "units": ["Robot Squad", "Saurian Warriors"]}
    before = head(world)
    asked = send(gina, world, {**fields, "special": "true", "_step": "nodice"})
    # each side rolls its special objective (§4.2): the dice are said first, nothing is appended
    assert asked.status_code == 200 and "Dice to roll" in asked.text and 'name="_die"' in asked.text
    assert head(world) == before
    started = send(gina, world, {**fields, "_step": "nodice"})
    assert started.status_code == 200 and "battle-start: battle" in started.text and head(world) > before


def test_an_invitation_link_is_for_a_player_of_a_side_or_an_observer_never_both(world: World) -> None:
    gina = world.client("gina")
    made = gina.post(f"/c/{world.campaign_id}/invitations", data={"whom": "player:Robots"}, headers=HTMX)
    assert "A link for a player for Robots" in made.text
    # the form drawn again after the link: one choice, each player's with its side
    form = made.text[made.text.index('id="invite-link"') :]
    assert "(none: an observer)" not in form and 'name="side"' not in form
    options = re.findall(r'<option value="([^"]*)">([^<]*)</option>', form)
    assert options == [("player:Robots", "a player for Robots"), ("observer", "an observer")]
    refused = gina.post(f"/c/{world.campaign_id}/invitations", data={"whom": "player:"}, headers=HTMX)
    assert refused.status_code == 400 and "a player&#39;s link names the side it plays" in refused.text
    observer = gina.post(f"/c/{world.campaign_id}/invitations", data={"whom": "observer"}, headers=HTMX)
    assert "A link for an observer" in observer.text


def test_a_new_campaigns_ruleset_is_a_choice_said_in_full(world: World) -> None:
    page = world.client("gina").get("/").text
    assert 'select id="new-ruleset"' not in page and '<select name="ruleset"' not in page
    for r in RULESETS.values():
        assert f'id="ruleset-{r.name}" name="ruleset" value="{r.name}"' in page
        # its game's name, then the rest of its title: said in full, never its name as typed ("mass-combat")
        game, about = pages.ruleset_said(r.name)
        assert about in r.title and game in (r.title.partition(":")[0], r.name.replace("-", " ").title())
        assert f'<b>{game}</b> <span class="help">{about}</span>' in page.replace("&#39;", "'")


@pytest.mark.parametrize("fought", [False, True])
def test_the_commands_are_grouped_the_battles_first_one_open_at_a_time(world: World, fought: bool) -> None:
    if fought:
        battle(world)
    page = world.client("gina").get(f"/c/{world.campaign_id}").text
    groups = re.findall(r'<details class="command-group" id="group-(\w+)"( open)?>', page)
    first = "battle" if fought else "between"
    assert groups[0] == (first, " open") and all(not opened for _, opened in groups[1:])
    assert [g for g, _ in groups] == [first, "army", "ledger"]
    shoot = 'id="cmd-gf-shoot"' in page
    assert shoot is fought and ('id="cmd-gf-battle_start"' in page) is not fought
    commands = re.findall(r'<details class="command" id="cmd-[\w-]+"(?: open)?( name="command")?', page)
    assert commands and all(commands)  # one open at a time: every command of the page in one accordion

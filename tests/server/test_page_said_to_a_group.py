"""What the campaign page says to a group at the table, as a new game master and a new player read it (in-process,
TestClient): a die as the reader writes it (``к6`` on a Russian page, as the rules' explanations say it), the log's
entries by their number as its column calls them, the rulesets' descriptions in the reader's language, a command
called as the page's own list calls it, who entered an entry in words the group knows, and a player's form without
the inputs that are never the player's to give.

Grimdark (RULES.md §4): a unit at half strength or less after shooting tests Quality on one d6 (§4.1 A).
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import SQUAD, World, post

HTMX = {"HX-Request": "true"}


def muster(world: World, name: str, side: str) -> None:
    body = {"command": "gf.muster", "args": {"name": name, "side": side, "profile": SQUAD}}
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", body)


def battle(world: World) -> None:
    muster(world, "Robot Squad", "Robots")
    muster(world, "Saurian Warriors", "Saurians")
    body = {"command": "gf.battle_start", "args": {"name": "Ruins", "units": ["Robot Squad", "Saurian Warriors"]}}
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", body)


def send(client: TestClient, world: World, fields: dict[str, Any], lang: str = "en") -> Any:
    headers = HTMX | {"Accept-Language": lang}
    return client.post(f"/c/{world.campaign_id}/command", data=fields, headers=headers, follow_redirects=False)


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_dice_asked_for_are_written_as_the_reader_writes_a_die(world: World) -> None:
    battle(world)
    fields = {"_command": "gf.shoot", "unit_name": "Robot Squad", "wounds": "6", "_step": "count"}
    # 4 models of 10 left: under half, it tests Quality on one d6 (§4.1 A)
    ru = send(world.client("pat"), world, fields, "ru")
    assert ru.status_code == 200, ru.text
    label = re.search(r'<label for="die-gf-shoot-1-1">([^<]*)</label>', ru.text)
    assert label is not None and label.group(1) == "к6"  # seed 000's Russian, as its explanations write it
    assert "d6" not in text_of(ru.text)
    pl = send(world.client("pat"), world, fields, "pl")
    label = re.search(r'<label for="die-gf-shoot-1-1">([^<]*)</label>', pl.text)
    assert label is not None and label.group(1) == "k6"
    en = send(world.client("pat"), world, fields, "en")
    label = re.search(r'<label for="die-gf-shoot-1-1">([^<]*)</label>', en.text)
    assert label is not None and label.group(1) == "d6"


def test_the_logs_rolls_say_their_dice_as_the_reader_writes_them(world: World) -> None:
    battle(world)
    gina = world.client("gina")
    shot = {"command": "gf.shoot", "args": {"unit_name": "Robot Squad", "wounds": 6}, "dice": "3"}
    post(gina, f"/api/campaigns/{world.campaign_id}/commands", shot)
    log = gina.get(f"/c/{world.campaign_id}", headers={"Accept-Language": "ru"}).text
    rolls = [text_of(r) for r in re.findall(r'<td class="what">(.*?)</td>', log, re.S) if "№" in r and "«" in r]
    assert rolls and all("к6" in r and "d6" not in r for r in rolls), rolls


def test_a_players_page_numbers_the_logs_entries_as_its_column_does(world: World) -> None:
    battle(world)
    shot = {"command": "gf.shoot", "args": {"unit_name": "Robot Squad", "wounds": 6}, "dice": "3"}
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/commands", shot)
    for lang, column, roster, entry in (
        ("en", "entry", "after entry", "entry"),
        ("ru", "№", "после записи №", "№"),
        ("pl", "nr", "po wpisie nr", "nr"),
    ):
        page = world.client("pat").get(f"/c/{world.campaign_id}", headers={"Accept-Language": lang}).text
        head = re.search(r'data-after="(\d+)"', page)
        assert head is not None
        log = page[page.index('id="log"') :]
        assert f"<thead><tr><th>{column}</th>" in log
        heading = re.search(r"<h2>[^<]*<span class=\"help\">([^<]*)</span></h2>", page[page.index('id="roster"') :])
        assert heading is not None and heading.group(1) == f"{roster} {head.group(1)}"
        lines = re.findall(r"<li>(.*?)</li>", page[page.index('class="battle-log"') :].split("</ul>")[0], re.S)
        assert lines and all(re.match(rf"{entry} \d+: ", line) for line in lines), lines


def test_the_rulesets_are_described_in_the_readers_language(world: World) -> None:
    english = world.client("sam").get("/", headers={"Accept-Language": "en"}).text
    described = dict(
        re.findall(r'<label for="ruleset-([\w-]+)"><span><b>[^<]*</b> <span class="help">([^<]*)</span>', english)
    )
    assert described["mass-combat"] == "troop strength, quality, pay, glory"  # after the game's name
    assert described["fighting-spirit"] == "Five-grade morale (Stargrunt II-like)"
    for lang in ("ru", "pl"):
        page = world.client("sam").get("/", headers={"Accept-Language": lang}).text
        said = dict(
            re.findall(r'<label for="ruleset-([\w-]+)"><span><b>[^<]*</b> <span class="help">([^<]*)</span>', page)
        )
        assert said.keys() == described.keys()
        left = [
            name
            for name, words in said.items()
            if words == described[name] or re.search(r"\b(and|of|careers|strength)\b", words)
        ]
        assert left == [], (lang, said)


def test_a_command_is_called_on_the_page_as_the_pages_own_list_calls_it(world: World) -> None:
    """The page groups its commands by the command line's names after the ruleset's word ("shoot", "melee"): its
    log, amend form and refusals call a command so too; the API and the command line keep "gf melee"."""
    battle(world)
    gina, pat, cid = world.client("gina"), world.client("pat"), world.campaign_id
    melee = {"a": "Robot Squad", "b": "Saurian Warriors", "wounds_by_a": 2, "wounds_by_b": 1}
    post(gina, f"/api/campaigns/{cid}/commands", {"command": "gf.melee", "args": melee, "dice": "5"})
    page = gina.get(f"/c/{cid}").text
    rows = [text_of(r) for r in re.findall(r'<td class="what">(.*?)</td>', page, re.S)]
    assert any(r.startswith("command melee Robot Squad against Saurian Warriors") for r in rows), rows
    assert not any("gf melee" in r or "gf battle-start" in r or "gf muster" in r for r in rows), rows
    seq = re.findall(r"\?amend=(\d+)#amend", page)[0]  # the newest command's row: the melee
    amending = gina.get(f"/c/{cid}", params={"amend": seq}).text
    assert f"Amending melee at #{seq}" in text_of(amending)
    preview = gina.post(
        f"/c/{cid}/amend",
        data={"seq": seq, "_amending": "gf.melee", "in.a": "Robot Squad", "in.b": "Saurian Warriors",
              "in.wounds_by_a": "3", "in.wounds_by_b": "1"},
        headers=HTMX,
    )  # fmt: skip
    assert preview.status_code == 200, preview.text
    said = text_of(preview.text)
    assert f"Preview of amending melee at #{seq}" in said and "gf " not in said, said
    # a player's melee that sets what happens to another side's unit: refused in the page's words for it
    fields = {"_command": "gf.melee", "a": "Robot Squad", "b": "Saurian Warriors", "wounds_by_a": "9"}
    refused = send(pat, world, {**fields, "wounds_by_b": "0", "_step": "count"})
    assert refused.status_code == 403, refused.text
    assert "melee sets what happens to Saurian Warriors" in refused.text and "gf melee" not in refused.text
    api = pat.post(f"/api/campaigns/{cid}/commands", json={"command": "gf.melee", "args": {**melee, "wounds_by_a": 9}})
    assert api.status_code == 403 and api.json()["detail"].startswith("gf melee sets what happens to")


def test_who_entered_an_entry_is_said_as_the_group_knows_them(world: World) -> None:
    """What the game master enters with the command line on the campaign's database is recorded with the OS user
    ("root" on a server); the page says "the game master" for it, and an account for what the account entered.
    The log keeps the actor as recorded."""
    import copy

    from campaign.access.memberships import Memberships, grant

    cli = copy.copy(world.opened.ledger)
    cli.actor = "root"  # as `campaign invite sam --role observer` records it, run as root
    info = cli.resolve(world.campaign_id)
    grant(cli, Memberships(world.opened.engine), info, "sam", "observer", account_exists=True)
    muster(world, "Robot Squad", "Robots")  # gina's, on the page's server
    for lang, gm in (("en", "the game master"), ("ru", "ведущий"), ("pl", "mistrz gry")):
        page = world.client("pat").get(f"/c/{world.campaign_id}", headers={"Accept-Language": lang}).text
        rows = re.findall(r'<tr class="[^"]*" data-seq="(\d+)" data-key="\d+">\s*<td>\d+</td><td>([^<]*)</td>', page)
        by = {int(seq): who for seq, who in rows}
        joins = [int(s) for s, what in re.findall(r'data-seq="(\d+)".*?<td class="what">(.*?)</td>', page, re.S)
                 if "sam" in what]  # fmt: skip
        assert joins and all(by[s] == gm for s in joins), (lang, by, joins)
        assert "root" not in by.values() and by[max(by)] == "gina", by
        audit = world.client("pat").get(f"/c/{world.campaign_id}/audit/{joins[0]}", headers={"Accept-Language": lang})
        found = re.search(r'<td id="audit-actor">([^<]*)</td>', audit.text)
        assert found is not None and found.group(1) == gm
    recorded = next(iter(world.opened.ledger.store.read(world.campaign_id, after_seq=joins[0] - 1)))
    assert recorded.meta["actor"] == "root"  # what is recorded is unchanged


def test_who_entered_table_dice_is_said_as_the_group_knows_them(world: World) -> None:
    """A shot entered with the command line on the database, its die from the table (``--dice 2``): the roll's line
    on the page's log says the game master entered it."""
    import copy

    from campaign.executor import TableEntry
    from campaign.server import runner

    battle(world)
    cli = copy.copy(world.opened.ledger)
    cli.actor = "root"
    shot = runner.build("gf.shoot", {"unit_name": "Robot Squad", "wounds": 6}, "grimdark")
    cli.execute(cli.resolve(world.campaign_id), shot, table=TableEntry((2,)))
    page = world.client("pat").get(f"/c/{world.campaign_id}").text
    said = text_of(page)
    assert "table dice entered by the game master" in said and "root" not in said


def test_a_players_form_leaves_out_the_enemy_unit_it_never_names(world: World) -> None:
    """The unit that shot (``by``: its activation spent, its kill credited) is another side's: naming it is that
    side's or the game master's (README's role table). A player's shoot form has no picker for it (its own units
    would each be refused: a unit does not shoot its own side); the game master's offers every unit. The API says
    the same to a player who names it."""
    battle(world)
    cid = world.campaign_id
    player = world.client("pat").get(f"/c/{cid}").text
    gm = world.client("gina").get(f"/c/{cid}").text
    for command, own in (("gf-shoot", "unit_name"), ("gf-remove", "unit_name")):
        mine = re.search(rf'<details class="command" id="cmd-{command}".*?</details>', player, re.S)
        theirs = re.search(rf'<details class="command" id="cmd-{command}".*?</details>', gm, re.S)
        assert mine is not None and theirs is not None
        assert f'name="{own}"' in mine.group(0) and 'name="by"' not in mine.group(0), command
        by = re.search(r'<select[^>]*name="by".*?</select>', theirs.group(0), re.S)
        assert by is not None and "Saurian Warriors (Saurians)" in by.group(0) and "Robot Squad" in by.group(0)
    # the form the player sends, without it, runs: 2 wounds leave the squad above half, no test (§4.1 A)
    shot = send(world.client("pat"), world, {"_command": "gf.shoot", "unit_name": "Robot Squad", "wounds": "2"})
    assert shot.status_code == 200 and "shoot: Robot Squad" in shot.text, shot.text
    # named anyway, through the API: refused in words, nothing appended
    args = {"unit_name": "Robot Squad", "wounds": 1, "by": "Saurian Warriors"}
    api = world.client("pat").post(f"/api/campaigns/{cid}/commands", json={"command": "gf.shoot", "args": args})
    assert api.status_code == 403, api.text
    assert "Saurian Warriors, a unit of Saurians" in api.json()["detail"] and "game master" in api.json()["detail"]

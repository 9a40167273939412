"""An amendment's preview says each later command's fate, on the CLI (`amend --dry-run`) and on the page, in the
same words: unchanged, changed (what), no longer applies (why), needs new dice (how many, for what); and a preview
appends nothing. Before, a later command that no longer applied dropped it and every command after it, and the
preview said only "would drop N later commands".

Worked from RULES.md §0.4–§0.5 and the fighting-spirit tables: Keno's squad (regular, d8, LV 2, 7 men) at low
motivation, where a unit's first suppression and casualties are each a threat-2 row and call a morale test (its
d8); a suppression after the first calls none. Company HQ (Steel) is another unit: nothing done to the squad
changes what its test decides."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from campaign.bootstrap import bootstrap
from campaign.i18n import reading_in
from campaign.server.pages import amend_lines
from campaign.server.timeline_ops import amend
from tests.e2e.test_cli import Cli

SQUAD = "Keno 3rd Squad"


@pytest.fixture(scope="module")
def patrol(tmp_path_factory: pytest.TempPathFactory) -> tuple[Cli, dict[str, int]]:
    cli = Cli(str(tmp_path_factory.mktemp("fates") / "patrol.db"))
    cli("new", "Patrol", "--ruleset", "fighting-spirit")
    cli("fs", "muster", SQUAD, "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    cli("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    cli("fs", "battle-start", "Hill", "--side", "Keno=low", "--side", "Steel=medium", "--unit", SQUAD,
        "--unit", "Company HQ")  # fmt: skip
    seqs: dict[str, int] = {}
    for key, command in (
        ("kill", ("fs", "attack", SQUAD, "--killed", "1", "--dice", "6")),  # casualties: 2 + 2 = 4; 6 passes
        ("suppress", ("fs", "attack", SQUAD, "--suppress", "--dice", "2")),  # first suppression: a test, its d8
        ("hq", ("fs", "attack", "Company HQ", "--killed", "1", "--dice", "2")),  # HQ's own test
        ("again", ("fs", "attack", SQUAD, "--suppress")),  # not the first suppression: no test, no die
        ("last", ("fs", "attack", SQUAD, "--killed", "1", "--dice", "3")),  # one more of the squad killed
    ):
        seqs[key] = cli.json(*command)["events"][0]["seq"]
    return cli, seqs


def dry_run(cli: Cli, seq: int, *changes: str) -> list[str]:
    before = cli.events()
    sets = [arg for change in changes for arg in ("--set", change)]
    lines = cli("amend", str(seq), *sets, "--dry-run").stdout.splitlines()
    assert cli.events() == before, "a preview appends nothing"
    return [line.strip() for line in lines]


def test_changed_and_unchanged(patrol: tuple[Cli, dict[str, int]]) -> None:
    """The first attack amended to suppress too: the squad's own first suppression is now that attack, so the
    second calls no test (changed: its d8 back on the table); the attack on Company HQ is unchanged."""
    cli, s = patrol
    said = dry_run(cli, s["kill"], "suppressing=true")
    assert f"#{s['suppress']} fs attack: changed" in said
    assert "1 roll of its own no longer asked for: back on the table" in said
    [unchanged] = [line for line in said if line.startswith("unchanged:")]
    assert f"#{s['hq']} fs attack" in unchanged and f"#{s['again']} fs attack" in unchanged


def test_no_longer_applies_says_why_and_the_rest_is_kept(patrol: tuple[Cli, dict[str, int]]) -> None:
    """The first attack amended to kill all 7: the last attack cannot kill one more (skipped alone, saying why);
    the commands between are re-run, Company HQ's unchanged."""
    cli, s = patrol
    said = dry_run(cli, s["kill"], "killed=7")
    assert (
        f"#{s['last']} fs attack: no longer applies ({SQUAD} has 0 men left; it cannot lose 1): skipped, its dice "
        "back on the table"
    ) in said
    assert any(line.startswith("unchanged:") and f"#{s['hq']} fs attack" in line for line in said)
    assert "1 later command skipped (no longer applies)" in said[0]


def test_needs_new_dice_says_how_many_and_for_what(patrol: tuple[Cli, dict[str, int]]) -> None:
    """The second attack amended to kill one instead of suppressing: the later suppression is now the squad's first,
    a test it never rolled a die for."""
    cli, s = patrol
    said = dry_run(cli, s["suppress"], "suppressing=false", "killed=1")
    assert f"#{s['again']} fs attack: needs new dice, 1 roll: d8 for morale test of {SQUAD} (new)" in said
    assert f"#{s['last']} fs attack: depends on the new dice (decided when they are rolled)" in said
    # the header counts it too: every later command listed below is counted in it
    assert "1 later command decided when the new dice are rolled" in said[0]


def test_the_page_says_the_same_fates(patrol: tuple[Cli, dict[str, int]]) -> None:
    cli, s = patrol
    app = bootstrap(cli.db, create=False, actor="gm")
    try:
        ledger = app.ledger
        info = ledger.resolve("Patrol")
        head = info.last_seq
        lines = amend_lines(amend(ledger, info, s["kill"], {"killed": 7}, preview=True))
        skipped = [line for line in lines if line.startswith(f"#{s['last']} ")]
        assert skipped and "no longer applies" in skipped[0] and "cannot lose 1" in skipped[0]
        assert any(line.startswith(f"#{s['hq']}") and line.endswith(": unchanged") for line in lines)
        lines = amend_lines(amend(ledger, info, s["suppress"], {"suppressing": False, "killed": 1}, preview=True))
        assert any(line.startswith(f"#{s['again']}") and "needs new dice: " in line and "d8" in line for line in lines)
        assert ledger.resolve("Patrol").last_seq == head, "a preview appends nothing"
    finally:
        app.close()


def copy_of(patrol: tuple[Cli, dict[str, int]], tmp_path: Path) -> Cli:
    """The campaign as played, in a file of its own (the `.db` file alone holds it: each command checkpoints)."""
    shutil.copyfile(patrol[0].db, tmp_path / "copy.db")
    return Cli(str(tmp_path / "copy.db"))


def rolled(cli: Cli, after: int) -> list[dict[str, object]]:
    return [e["payload"] for e in cli.json("log", "--all")["events"] if e["type"] == "dice.rolled" and e["seq"] > after]


def test_the_new_dice_are_the_tables_when_given(patrol: tuple[Cli, dict[str, int]], tmp_path: Path) -> None:
    """As previewed, with the table's d8 given: the later suppression, now the squad's first, tests: LV 2 + first
    suppression 2 = 4; 8 > 4 passes. Only that die is new (the others re-run on their own)."""
    cli, s = copy_of(patrol, tmp_path), patrol[1]
    head = cli.events()
    said = cli("amend", str(s["suppress"]), "--set", "suppressing=false", "--set", "killed=1", "--dice", "8", "--yes")
    assert "first suppression 2) = 4; d8 rolled 8 → passes" in " ".join(said.stdout.split())
    [new] = rolled(cli, head)
    assert (new["faces"], new["source"], new["notation"]) == ([8], "table", "d8")


def test_the_new_dice_are_the_campaigns_when_none_are_given(patrol: tuple[Cli, dict[str, int]], tmp_path: Path) -> None:
    cli, s = copy_of(patrol, tmp_path), patrol[1]
    head = cli.events()
    cli("amend", str(s["suppress"]), "--set", "suppressing=false", "--set", "killed=1", "--yes")
    [new] = rolled(cli, head)
    assert (new["source"], new["notation"], new["roll_index"]) == ("seeded", "d8", 4), "the next unused index"


SKIPPED = {
    # the attack after all 7 are killed, said as the reader's language says it (a count of 0 takes the plural of
    # "many" in both): the same men the attack's own line counts
    "ru": "#{seq} fs attack: больше не применяется (Keno 3rd Squad: осталось 0 человек; потерять 1 нельзя): "
    "пропущена, её кости возвращены на стол",
    "pl": "#{seq} fs attack: już nie ma zastosowania (Keno 3rd Squad: pozostało 0 ludzi; nie może stracić 1): "
    "pominięte, jego kości wracają na stół",
}


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_a_skipped_command_says_why_in_the_readers_words(patrol: tuple[Cli, dict[str, int]], lang: str) -> None:
    """Why a later command no longer applies is the rules' refusal, said in the reader's language on the command
    line and on the page alike (it was the recorded English inside a translated sentence)."""
    cli, s = patrol
    before = cli.events()
    lines = cli("--lang", lang, "amend", str(s["kill"]), "--set", "killed=7", "--dry-run").stdout.splitlines()
    assert cli.events() == before, "a preview appends nothing"
    said = " ".join(" ".join(line.split()) for line in lines)
    assert SKIPPED[lang].format(seq=s["last"]) in said
    assert "cannot lose" not in said
    app = bootstrap(cli.db, create=False, actor="gm")
    try:
        with reading_in(lang):
            found = amend(app.ledger, app.ledger.resolve("Patrol"), s["kill"], {"killed": 7}, preview=True, names={})
            page = amend_lines(found)
    finally:
        app.close()
    [skipped] = [line for line in page if line.startswith(f"#{s['last']} ")]
    assert "cannot lose" not in skipped
    assert ("потерять 1 нельзя" if lang == "ru" else "nie może stracić 1") in skipped

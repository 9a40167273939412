"""Amend and undo people can trust: an amendment shows each later command's fate first and needs --yes (or a yes at
a terminal); --dry-run appends nothing; `undo` takes back the last command, rewind or amendment, and itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from campaign.read.describe import words
from tests.e2e.test_cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "undo.db"))
    c("new", "Sector 9", "--ruleset", "grimdark")
    c("gf", "muster", "Saurians A", "--side", "Saurians", "--models", "10", "--quality", "4", "--points", "140")
    c("gf", "muster", "Robot Squad", "--side", "Robots", "--models", "10", "--quality", "4", "--points", "150")
    c("gf", "battle-start", "Ruins", "--unit", "Saurians A", "--unit", "Robot Squad")
    c("gf", "shoot", "Robot Squad", "--wounds", "2", "--by", "Saurians A")
    return c


def _units(cli: Cli) -> list[str]:
    return sorted(u["name"] for u in cli.json("status")["units"])


def test_an_amend_that_would_drop_later_commands_shows_them_and_needs_yes(cli: Cli) -> None:
    events = cli.json("log")["events"]
    seq = next(
        e["seq"]
        for e in events
        if e["type"] == "timeline.command_issued" and e["payload"]["args"].get("name") == "Robot Squad"
    )
    before = cli.events()
    preview = cli.json("amend", str(seq), "--set", "name=Robot Team", "--dry-run")
    assert preview["dry_run"] is True and cli.events() == before
    said = cli("amend", str(seq), "--set", "name=Robot Team", "--dry-run").stdout
    assert said.startswith("would amend gf muster at #") and "gf.muster" not in said  # as typed, not as recorded
    dropped = [d["command"] for d in preview["dropped"]]
    assert dropped == ["gf.battle_start", "gf.shoot"], "the battle names the Robot Squad, which no longer exists"
    refused = cli("amend", str(seq), "--set", "name=Robot Team", code=2)
    assert "2 later commands skipped (no longer apply)" in refused.output and "run it with --yes" in refused.output
    assert cli.events() == before, "an amendment refused appends nothing"
    done = cli.json("amend", str(seq), "--set", "name=Robot Team", "--yes")
    assert done["dry_run"] is False and [d["command"] for d in done["dropped"]] == dropped
    assert _units(cli) == ["Robot Team", "Saurians A"]
    cli("undo")
    assert _units(cli) == ["Robot Squad", "Saurians A"], "undo takes the whole amendment back"
    assert cli.json("status")["battles"][0]["name"] == "Ruins", "and what it dropped is in effect again"
    cli("undo")
    assert _units(cli) == ["Robot Team", "Saurians A"], "an undo is itself undone the same way"


def test_undo_takes_back_the_last_command_only(cli: Cli) -> None:
    cli("gf", "round")  # the old word still works; it is said as help lists it
    out = cli("undo").stdout
    assert "undid gf turn" in out
    log = cli.json("log")["events"]
    assert not any(e["type"] == "battle.turn_began" for e in log)
    assert any(e["payload"].get("command") == "gf.shoot" for e in log), "the shot before it stands"
    assert cli.json("verify")[0]["ok"] is True


def test_undo_with_nothing_to_take_back_and_a_rewind_that_changes_nothing_are_refused(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "empty.db"))
    cli("new", "Empty", "--ruleset", "grimdark")
    before = cli.events()
    assert "nothing to undo" in cli("undo", code=2).output
    cli("gf", "muster", "A", "--side", "X", "--models", "5", "--quality", "4", "--points", "50")
    cli("undo")
    head = cli.events()
    assert "nothing after seq" in cli("rewind", "--to", "1", code=2).output
    assert cli.events() == head and head == before + 3


def test_undo_after_only_an_entropy_share_says_shares_are_never_taken_back(tmp_path: Path) -> None:
    """An entropy share (like a reveal) is never retracted: with only such events since the campaign was made,
    undo says so, not that the campaign has only just been created."""
    cli = Cli(str(tmp_path / "dice.db"))
    cli("new", "Dice", "--ruleset", "grimdark")
    cli("entropy", "commit", "a share of mine")
    before = cli.events()
    said = cli("undo", code=2).output
    assert "never taken back" in said and "only just been created" not in said
    assert cli.events() == before


def test_a_units_record_leaves_out_what_a_rewind_retracted(cli: Cli) -> None:
    """`campaign unit` listed retracted events as if they still stood (`log --unit` did not)."""
    shot = next(e for e in cli.json("log")["events"] if e["type"] == "rules.applied")
    cli("rewind", "--to", str(shot["seq"] - 2))
    record = cli.json("unit", "Robot Squad")
    seqs = {item["seq"] for item in record["history"]}
    assert shot["seq"] not in seqs and all(s < shot["seq"] for s in seqs), record["history"]
    assert all(isinstance(item["what"], str) for item in record["history"]), "each line in words"
    log_unit = {e["seq"] for e in cli.json("log", "--unit", "Robot Squad")["events"]}
    assert seqs <= log_unit


def test_a_rewind_to_a_die_of_a_command_taken_back_is_refused(cli: Cli) -> None:
    """An amend takes its command back (a rewind before it) and re-runs it on the same dice; the old command's die
    stays in effect, as dice do. A rewind to that die would retract the amendment's rewind and so bring back the
    old command's start but not its rules after the die: refused, nothing appended, the log still verifies."""
    shot = cli.json("gf", "shoot", "Saurians A", "--wounds", "5", "--by", "Robot Squad")  # half: a morale test
    die = next(e["seq"] for e in shot["events"] if e["type"] == "dice.rolled")
    wounds = next(e["seq"] for e in shot["events"] if e["type"] == "rules.applied")
    cli("amend", str(wounds), "--set", "wounds=6", "--yes")
    before = cli.events()
    said = cli("rewind", "--to", str(die), "--reason", "back to the die", code=2).output
    assert "taken back" in said
    assert cli.events() == before
    assert cli.json("verify")[0]["ok"]


def test_undo_says_what_it_took_back_as_typed_and_an_undo_of_an_undo_says_what_is_back(cli: Cli) -> None:
    """ "undid gf.shoot" and "undid undo" were the recorder's words: an undo names the command as it is typed, and
    taking back an undo says which undo and that what it had taken back is in effect again."""
    first = cli("undo").stdout
    assert first.startswith("undid gf shoot (from #") and "gf.shoot" not in first
    second = " ".join(cli("undo").stdout.split())
    undo_seq = int(second.split("#", 1)[1].split(" ", 1)[0])
    assert second.startswith("took back the undo at #") and "(it had undone gf shoot, #" in second
    assert "is in effect again" in second
    assert any(e["payload"].get("command") == "gf.shoot" for e in cli.json("log")["events"])  # the shot is back
    # a third undo takes back the second: said as the undo it had undone, not "undo of undo (#N–#N)"
    third = " ".join(cli("undo").stdout.split())
    assert f"(it had undone the undo at #{undo_seq}):" in third and "undo of undo" not in third


@pytest.mark.parametrize(
    ("ruleset", "commands", "words"),
    [
        ("mass-combat", [["roll", "2d6", "--purpose", "weather"]], "roll"),
        ("mass-combat", [["mc", "rest", "3"]], "mc rest"),
        ("mass-combat", [["mc", "march", "2"]], "mc march"),
        ("mass-combat", [["mc", "morale-mod", "Rain", "-1", "--side", "Red"]], "mc morale-mod"),
        ("fighting-spirit", [["fs", "forced-march", "1"]], "fs forced-march"),
        ("fighting-spirit", [["fs", "front", "2"]], "fs front"),
        (
            "grimdark",
            [
                ["gf", "muster", "Saurians", "--side", "Saurians", "--models", "5", "--quality", "4", "--points", "9"],
                ["gf", "muster", "Robot Squad", "--side", "Robots", "--models", "5", "--quality", "4", "--points", "9"],
                ["gf", "battle-start", "Ruins", "--unit", "Saurians", "--unit", "Robot Squad"],
                ["gf", "turn"],
            ],
            "gf turn",
        ),
    ],
)
def test_the_log_and_undo_name_a_command_as_it_was_typed(
    tmp_path: Path, ruleset: str, commands: list[list[str]], words: str
) -> None:
    """The log said "command ledger roll" for `campaign roll` and "command mc days" for `mc rest`: a command is
    named in the log and by `undo` by the words a person types for it."""
    cli = Cli(str(tmp_path / "typed.db"))
    cli("new", "Typed", "--ruleset", ruleset)
    for command in commands:
        cli(*command)
    last = cli.json("log", "--last", "5")["events"]
    issued = [e for e in last if e["type"] == "timeline.command_issued"][-1]
    shown = cli("log", "--last", "5").stdout
    assert re.search(rf"command {re.escape(words)}(?![\w-])", shown), shown
    recorded = issued["payload"]["command"].replace(".", " ").replace("_", "-")
    assert recorded == words or not re.search(rf"command {re.escape(recorded)}(?![\w-])", shown)
    assert cli("undo").stdout.startswith(f"undid {words} (from #")


def test_a_house_rule_is_logged_with_its_table_path_as_typed(tmp_path: Path) -> None:
    """`fs house-rule campaign.exhausted_window_days 5` was logged as "campaign.exhausted window days = 5": a
    path a person types, and `tables` lists, is shown as it is; a row name in a sentence is still in words."""
    cli = Cli(str(tmp_path / "house.db"))
    cli("new", "Ardennes", "--ruleset", "fighting-spirit")
    said = cli("fs", "house-rule", "campaign.exhausted_window_days", "5", "--note", "short war").stdout
    assert "house rule: campaign.exhausted_window_days = 5 (short war)" in said, said
    assert "path campaign.exhausted_window_days," in said
    assert words("the result: minor_victory.") == "the result: minor victory."
    assert words("threats.unverified_casualty.low set to 2") == "threats.unverified_casualty.low set to 2"


def test_a_grimdark_deployment_is_logged_in_models(cli: Cli) -> None:
    """Grimdark counts a unit in models (its `--models`): its deployments read "10 models", not "10 men"."""
    shown = cli("log").stdout
    assert "Saurians A deployed for Saurians: 10 models" in shown, shown
    assert " men" not in shown


def test_a_house_rule_set_to_true_or_false_is_said_as_typed(tmp_path: Path) -> None:
    """`dis house-rule force.flees_at_exactly true` said "= True", Python's word, not the one typed."""
    cli = Cli(str(tmp_path / "flag.db"))
    cli("new", "Peninsula", "--ruleset", "disorder")
    said = " ".join(cli("dis", "house-rule", "force.flees_at_exactly", "true").stdout.split())
    assert "house rule: force.flees_at_exactly = true" in said and "True" not in said, said
    assert "(path force.flees_at_exactly, value true)" in said
    said = " ".join(cli("dis", "house-rule", "force.flees_at_exactly", "false").stdout.split())
    assert "house rule: force.flees_at_exactly = false" in said and "False" not in said, said
    assert "(path force.flees_at_exactly, value false)" in said


def test_log_of_a_unit_or_battle_no_one_is_named_is_refused_in_words(cli: Cli) -> None:
    """`log --unit Nobody` printed an empty table and exit 0, where `unit Nobody` says "unknown unit": a typo
    is refused with a "did you mean", a name known but with nothing to show is an empty log."""
    said = cli("log", "--unit", "Robot Sqaud", code=2).output
    assert "--unit: no unit or battle named 'Robot Sqaud' in Sector 9; did you mean 'Robot Squad'?" in said, said
    assert "no unit or battle named 'Nowhere'" in cli("log", "--battle", "Nowhere", code=2).output
    assert cli.json("log", "--unit", "robot squad")["events"]  # matched as typed in any case
    assert cli.json("log", "--unit", "Robot Squad", "--type", "economy.")["events"] == []  # known, nothing to show


def test_the_log_says_how_many_entries_it_leaves_out_as_no_longer_in_effect(cli: Cli) -> None:
    """After an undo and an undo of it, the last entries of the log are the undos themselves and the command they
    took back and forth: `log` shows what is in effect, and says how many of the entries from the first it shows
    to the head it left out (a GM who sees head #N must not wonder where the last ones went)."""
    cli("gf", "round")
    cli("undo")  # retracts the round's command and its events
    cli("undo")  # the undo taken back: a rewind of its own, the first undo now retracted
    every = cli.json("log", "--all")["events"]
    head = every[-1]["seq"]
    shown = cli.json("log", "--last", "3")["events"]
    gone = [e for e in every if e["seq"] >= shown[0]["seq"] and e["seq"] not in {s["seq"] for s in shown}]
    assert gone and all(e["retracted"] or e["type"] == "timeline.rewound" for e in gone)
    said = " ".join(cli("log", "--last", "3").stdout.split())
    n = len(gone)
    assert f"{n} entries from the first shown to the head not shown: undone or rewound" in said
    assert f"head #{head}" in said
    assert "not shown: undone" not in " ".join(cli("log", "--last", "3", "--all").stdout.split())
    assert "not shown: undone" not in " ".join(cli("log", "--last", "3", "--type", "dice.").stdout.split())


@pytest.mark.parametrize(
    ("lang", "took_back", "took_back_that"),
    [
        ("ru", "откат к #{to}: отмена команды gf shoot (#{first}–#{last})", "отмена отмены #{undo}"),
        ("pl", "cofnięto do #{to}: cofnięcie polecenia gf shoot (#{first}–#{last})", "cofnięcie cofnięcia #{undo}"),
    ],
)
def test_the_log_says_what_an_undo_took_back_in_the_readers_words(
    cli: Cli, lang: str, took_back: str, took_back_that: str
) -> None:
    """The rewind an undo records keeps its reason in English ("undo of gf shoot (#8–#10)", hashed with it); the
    log says it in the reader's language, and an undo of that undo as the undo it took back."""
    first = cli.json("undo")["events"][0]
    undo = first["seq"]
    cli("undo")
    shot = next(e for e in cli.json("log")["events"] if e["payload"].get("command") == "gf.shoot")
    reason = re.search(r"#(\d+)–#(\d+)", first["payload"]["reason"])
    assert reason and int(reason[1]) == shot["seq"]
    said = " ".join(cli("--lang", lang, "log", "--all").stdout.split())
    assert took_back.format(to=shot["seq"] - 1, first=reason[1], last=reason[2]) in said
    assert took_back_that.format(undo=undo) in said
    assert "undo of" not in said

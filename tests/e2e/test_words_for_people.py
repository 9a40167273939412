"""What a new user's second test of the CLI found still written for the program, not for a game
master. Each expected text below is written by hand from what a person at the table would read; ``--json`` is
held unchanged beside it.

1. an input refused names the command as typed ("fs attack: …"), not its recorded name ("fs.attack: …");
2. a command's line in the log names its fields in words (no "unit name", "pay pct", "hero is model", "tl 3");
3. ``amend`` says its changes and its errors in words (no "lost_more_than_left", no "ledger.roll");
4. a loss of Glory reads "loses 2 Glory"; a side's officer is named without "French's officer";
5. each fact is printed once in ``log``, ``unit`` and a command's output (a Grimdark hit, a level and its trait,
   a battle's end);
6. money has its thousands separated for people;
7. ``audit`` lists each clause once, in the rules' order.
"""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

from tests.e2e import walkthroughs
from tests.e2e.test_cli import Cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OLD_LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs_2026_12_01"
DAY1_DICE = ",".join(["3,4"] * 18)  # the README's 36 table dice for the first day at Bannok


def said(text: str) -> str:
    """Output with its line wrapping undone (a console wraps long lines at 140 columns)."""
    return " ".join(text.split())


def log_seqs(text: str) -> list[int]:
    """The seqs of the rows a ``log`` table shows."""
    return [int(s) for s in re.findall(r"^│\s+(\d+) │", text, re.MULTILINE)]


@pytest.fixture
def fs(tmp_path: Path) -> Cli:
    """The README's five-grade walkthrough, up to the first attack."""
    return walkthroughs.five_grade(Cli(str(tmp_path / "fs.db")))


@pytest.fixture
def gf(tmp_path: Path) -> Cli:
    """The README's Grimdark walkthrough, up to the first battle's start (a hero joined to a unit)."""
    return walkthroughs.grimdark(Cli(str(tmp_path / "gf.db")))


@pytest.fixture
def dis(tmp_path: Path) -> Cli:
    """The README's disorder walkthrough, up to the first battle's start."""
    return walkthroughs.disorder(Cli(str(tmp_path / "dis.db")))


@pytest.fixture
def mc(tmp_path: Path) -> Cli:
    """The README's Mass Combat walkthrough, up to the first day at Bannok."""
    return walkthroughs.mass_combat(Cli(str(tmp_path / "mc.db")))


# 1. Errors name the command as typed.


def test_an_input_refused_names_the_command_as_typed_and_appends_nothing(fs: Cli) -> None:
    before = fs.events()
    refused = fs("fs", "attack", "Keno 3rd Squad", "--killed", "-1", code=2)
    assert refused.stderr == "error: fs attack: killed cannot be negative\n"
    as_json = fs("fs", "attack", "Keno 3rd Squad", "--killed", "-1", "--json", code=2)
    assert orjson.loads(as_json.stdout) == {"error": "fs attack: killed cannot be negative", "exit_code": 2}
    named = fs("fs", "attack", "Keno 3rd Squad", "--killed", "1", "--enemy-within", "-3", code=2)
    assert named.stderr == "error: fs attack: enemy within cannot be negative\n"  # as --enemy-within is typed
    assert fs.events() == before


# 2. A command's line names its fields in words.


def test_a_commands_line_names_what_it_acts_on_and_its_fields_in_words(fs: Cli) -> None:
    attacked = said(fs("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "6").stdout)
    assert "command fs attack Keno 3rd Squad (killed 2, wounded 2)" in attacked
    fs("fs", "battle-end", "--result", "the patrol withdrew", "--winner", "Steel")
    fs("fs", "funds", "Keno", "500", "--reason", "the regiment's chest")
    paid = said(fs("fs", "month-end", "--pay", "Keno=100").stdout)
    assert "command fs month-end (pay Keno 100 %)" in paid
    log = said(fs("log").stdout)
    assert "command fs attack Keno 3rd Squad (killed 2, wounded 2)" in log
    assert "unit name" not in log and "pay pct" not in log
    recorded = {e["payload"]["command"]: e["payload"]["args"] for e in fs.json("log", "--type", "timeline.")["events"]}
    assert {"unit_name": "Keno 3rd Squad", "killed": 2, "wounded": 2}.items() <= recorded["fs.attack"].items()
    assert recorded["fs.month_end"] == {"pay_pct": {"Keno": 100}}  # --json unchanged


def test_a_profiles_tl_and_a_joined_hero_read_as_words(mc: Cli, gf: Cli) -> None:
    log = said(mc("log").stdout)
    assert "command mc raise Militia archers (" in log and "TL 3" in log and "tl 3" not in log
    begun = said(gf("gf", "battle-start", "Ruins", "--unit", "Saurian Warriors", "--unit", "Saurian Hero",
                    "--unit", "Robot Squad", "--join", "Saurian Hero=Saurian Warriors").stdout)  # fmt: skip
    assert "command gf battle-start Ruins (units …, joins …)" in begun  # no one types hero_is_model
    assert "Saurian Warriors deployed for Saurians: 10 models, start size 11, tough 1, quality 4, its hero counted " \
        "as a model" in begun  # fmt: skip
    melee = said(gf("gf", "melee", "Saurian Warriors", "Robot Squad", "--a-wounds", "1", "--b-wounds", "2").stdout)
    assert "command gf melee Saurian Warriors against Robot Squad (wounds by Saurian Warriors 1, wounds by Robot " \
        "Squad 2)" in melee  # fmt: skip
    assert "hero is model" not in said(gf("log").stdout)


# 3. amend in words.


def test_amend_says_its_changes_and_errors_in_words(fs: Cli) -> None:
    fs("fs", "attack", "Keno 3rd Squad", "--killed", "2", "--wounded", "2", "--dice", "6")
    preview = said(fs("amend", "10", "--set", "killed=1", "--dry-run").stdout)
    # §0.4: 2 killed + 2 wounded of 7 is more lost than the 3 left (threat 4); 1 + 2 of 7 is not (casualties 2).
    assert "was: Keno 3rd Squad morale test: LV 2 + threat 6 (lost more than left 4 + unverified casualty +1×2)" \
        in preview  # fmt: skip
    assert "now: Keno 3rd Squad morale test: LV 2 + threat 4 (casualties 2 + unverified casualty +1×2)" in preview
    assert "_" not in preview
    fs("roll", "d6", "--purpose", "a die", "--dice", "3")
    seq = fs.json("log", "--last", "2")["events"][0]["seq"]
    assert fs("amend", str(seq), "--set", "dice=3", code=2).stderr == (
        "error: roll has no input dice (its inputs: notation, purpose)\n"
    )
    assert fs("amend", "10", "--set", "killed=-1", code=2).stderr == (
        "error: fs attack: killed cannot be negative: nothing was amended\n"
    )


# 4. Glory lost, a side's officer.


def test_glory_lost_reads_as_a_loss_and_an_officer_down_reads_naturally(dis: Cli) -> None:
    down = said(dis("dis", "officer-down", "French").stdout)
    assert "Capitaine Dubois, commanding French, is removed from play: each of the side's units takes a morale " \
        "check (officer removed): Voltigeurs" in down  # fmt: skip
    dis("dis", "battle-end", "--winner", "British", "--objectives", "British=2")
    # §1.8 [PLACEHOLDER]: won +3, objectives +1 each; lost +0, officer removed −2.
    careers = said(dis("log", "--type", "career.glory").stdout)
    assert "Lt Sharpe (British) gains 5 Glory" in careers
    assert "Capitaine Dubois (French) loses 2 Glory" in careers and "-2 Glory" not in careers
    dis("dis", "battle-start", "Sabugal, the second day", "--unit", "95th Rifles", "--unit", "Voltigeurs")
    dis("dis", "battle-end", "--winner", "French")
    assert "Lt Sharpe (British) gains no Glory" in said(dis("log", "--type", "career.glory").stdout)
    assert "'s officer" not in said(dis("log").stdout + dis("log", "--type", "battle.").stdout)
    glory = [e["payload"]["glory"] for e in dis.json("log", "--type", "career.glory")["events"]]
    assert glory == [5, -2, 0, 3]  # --json unchanged


def test_an_old_logs_officer_down_reads_as_a_new_one(tmp_path: Path) -> None:
    """The explanation recorded before (an older log) is read the same way: the record itself is unchanged."""
    cli = Cli(str(tmp_path / "old.db"))
    cli("import", str(OLD_LOGS / "disorder.jsonl"))
    audited = said(cli("audit", "61").stdout)
    assert "Lt Sharpe, commanding British, is removed from play: each of the side's units takes a morale check " \
        "(officer removed): 95th Rifles, Line company" in audited  # fmt: skip
    assert cli.json("audit", "61")["explanations"][0].startswith("British's officer Lt Sharpe")


# 5. Each fact once.


def test_a_grimdark_hit_a_level_and_its_trait_and_a_battles_end_are_each_said_once(gf: Cli) -> None:
    gf("gf", "battle-start", "Ruins", "--unit", "Saurian Warriors", "--unit", "Saurian Hero", "--unit", "Robot Squad",
       "--join", "Saurian Hero=Saurian Warriors")  # fmt: skip
    shot = said(gf("gf", "shoot", "Saurian Warriors", "--wounds", "6", "--by", "Robot Squad", "--dice", "2").stdout)
    assert (
        shot.count("takes 6 wounds") == 1 and "Saurian Warriors takes 6 wounds: 6 models killed, 5 of 11 left" in shot
    )
    gf("gf", "melee", "Saurian Warriors", "Robot Squad", "--a-wounds", "1", "--b-wounds", "2")
    ended = said(gf("gf", "battle-end", "--winner", "Robots", "--dice", "6,6,6").stdout)
    assert "Ruins ends: won by Robots; Shaken ends with it" in ended and "battle “Ruins” ends" not in ended
    assert "Saurian Hero, casualty roll 6: Toughened" in ended and "gains the talent trait" not in ended
    # Robot Squad has 4 XP: +1 not a casualty is its fifth, a level (§4.2): a unit trait, rolled on a d6 (4).
    gf("gf", "battle-start", "Ruins, again", "--unit", "Saurian Warriors", "--unit", "Robot Squad")
    levelled = said(gf("gf", "battle-end", "--winner", "Saurians", "--dice", "4").stdout)
    assert "Robot Squad reaches 5 XP: +25 pts, Resilient" in levelled
    assert "gains the unit trait" not in levelled and "battle “Ruins, again” ends" not in levelled
    log = gf("log").stdout
    every = gf.json("log")["events"]
    hit = next(e["seq"] for e in every if e["type"] == "battle.wounds_taken")
    trait = [e["seq"] for e in every if e["type"] == "career.trait_gained"]
    end = [e["seq"] for e in every if e["type"] == "battle.ended"]
    melee = [e["seq"] for e in every if e["type"] == "battle.wounds_taken"][1:]
    shown = log_seqs(log)
    assert hit not in shown and not set(trait) & set(shown) and not set(end) & set(shown)
    assert set(melee) <= set(shown), "a melee's wounds: its rule's line says only the wounds caused"
    assert said(log).count("Resilient") == 1 and "each already said by a rule's line above" in said(log)
    assert len(every) == max(e["seq"] for e in every)  # --json lists every event
    history = gf("unit", "Robot Squad").stdout.split("\n", 1)[1]  # after the unit's own line (its traits)
    assert said(history).count("Resilient") == 1
    warriors = said(gf("unit", "Saurian Warriors").stdout)
    assert warriors.count("takes 6 wounds") == 1


def test_a_log_filtered_to_the_outcomes_still_shows_them(gf: Cli) -> None:
    """Left out only beside the rule's line that says it: ``log --type battle.`` shows the battle's end."""
    gf("gf", "battle-start", "Ruins", "--unit", "Saurian Warriors", "--unit", "Robot Squad")
    gf("gf", "battle-end", "--winner", "Robots")
    assert "battle “Ruins” ends: won by Robots" in said(gf("log", "--type", "battle.").stdout)


# 6. Money.


def test_money_has_its_thousands_separated_for_people_and_json_keeps_the_number(mc: Cli) -> None:
    log = said(mc("log").stdout)
    assert "command mc funds Megalos" not in log  # a side is not what funds acts on by name
    assert "amount 2,000,000" in log and "Megalos: +2,000,000 (the city's war chest)" in log
    # §2 economy: 120 crossbow-armed light infantry cost $3,000 each (tables.toml): 360,000 from Megalos.
    assert "Megalos: −360,000 (raising Militia archers: 120 men)" in log
    assert "treasury of Megalos: 1,640,000" in said(mc("status").stdout)
    treasury = said(mc("treasury").stdout)
    assert "Megalos: 1,640,000" in treasury and "Al-Wazif: 500,000" in treasury
    assert mc.json("treasury")["treasury"] == {"Megalos": 1640000, "Al-Wazif": 500000}
    mc("mc", "month-end", "--pay", "Megalos=100", "--pay", "Al-Wazif=100")
    paid = said(mc("log").stdout)
    assert re.search(r"upkeep \$\d{1,3}(,\d{3})+;", paid) and not re.search(r"\$\d{4}", paid)
    assert not re.search(r"paid \d{4}", paid)


# 7. audit's clauses.


def test_audit_lists_each_clause_once_in_the_rules_order(mc: Cli) -> None:
    mc("mc", "battle", str(EXAMPLES / "bannok-day1.toml"), "--dice", DAY1_DICE)
    audited = mc("audit", "--roll", "2").stdout
    # recorded: §2.8–2.12, §2.13, §2.8, §2.9, §2.10–2.11, §2.11, §2.12 (a rule each)
    assert "rule: RULES.md §2.8, §2.9, §2.10, §2.11, §2.12, §2.13\n" in audited
    clauses = mc.json("audit", "--roll", "2")["clauses"]
    assert "RULES.md §2.8–2.12" in clauses  # --json keeps them as recorded


def test_clauses_compare_as_numbers_and_errata_come_after_the_body() -> None:
    from campaign.read.describe import clause_list

    recorded = ["RULES.md §0.10", "RULES.md §2.9, R2-14", "RULES.md §0.4", "RULES.md R2-9", "RULES.md §0.4"]
    assert clause_list(recorded) == "RULES.md §0.4, §0.10, §2.9, R2-9, R2-14"
    assert clause_list(["§10.1", "§2.1", "§2.1"]) == "RULES.md §2.1, §10.1"
    assert clause_list(["RULES.md §1.2–1.4"]) == "RULES.md §1.2, §1.3, §1.4"
    assert clause_list([]) == ""

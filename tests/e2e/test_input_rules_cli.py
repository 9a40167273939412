"""One set of input rules at the boundary: every bad input is refused with a clear message, exit 2,
nothing appended and never a traceback; names are printed literally, markup and all."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from campaign.exchange import MAX_LINE
from tests.e2e.test_cli import SEED, Cli


@pytest.fixture
def war(tmp_path: Path) -> Cli:
    cli = Cli(str(tmp_path / "w.db"))
    cli("new", "War", "--ruleset", "mass-combat", "--seed", SEED)
    cli("mc", "muster", "[/]Riders", "--side", "[bold]Megalos", "--men", "30")
    cli("mc", "funds", "[bold]Megalos", "100", "--reason", "a [red]purse")
    return cli


def test_names_holding_markup_are_printed_literally_everywhere(war: Cli) -> None:
    for command in (["log"], ["status"], ["treasury"], ["verify"], ["list"], ["mc", "roster"], ["unit", "[/]Riders"]):
        shown = war(*command).stdout
        assert "[/]Riders" in shown or "[bold]Megalos" in shown or "War" in shown, command
    assert "[/]Riders" in war("status").stdout and "[bold]Megalos: 100" in war("treasury").stdout
    assert "a [red]purse" in war("log").stdout


def test_names_holding_emoji_codes_are_printed_literally(war: Cli) -> None:
    """Rich reads ``:smile:`` as an emoji by default: a unit so named must print as typed."""
    war("mc", "muster", ":smile: Lancers", "--side", ":crossed_swords:", "--men", "20")
    for command in (["status"], ["log"], ["mc", "roster"], ["unit", ":smile: Lancers"]):
        shown = war(*command).stdout
        assert ":smile: Lancers" in shown and "\N{SMILING FACE WITH OPEN MOUTH AND SMILING EYES}" not in shown, command


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["mc", "muster", "x" * 101, "--side", "Megalos", "--men", "3"], "at most 100"),
        (["mc", "muster", "Bad\x00name", "--side", "Megalos", "--men", "3"], "control or invisible character"),
        (["mc", "muster", "Bad\u202ename", "--side", "Megalos", "--men", "3"], "control or invisible character"),
        (["mc", "muster", "   ", "--side", "Megalos", "--men", "3"], "must not be empty"),
        (["mc", "muster", "Ok", "--side", "Megalos", "--men", "9223372036854775808"], "out of range"),
        (["mc", "rest", "9223372036854775807"], "out of range"),
        (["mc", "funds", "Megalos", str(10**10), "--reason", "x"], "out of range"),
        (["log", "--upto", str(2**64)], "out of range"),
        (["status", "--at", str(2**64)], "out of range"),
        (["roll", "d6+" + "9" * 50, "-p", "x"], "out of range"),
        (["roll", "d6+" + "9" * 5000, "-p", "x"], "at most 1000"),
        (["roll", "d6", "-p", "x", "--dice", "٣"], "not a die face"),
        (["roll", "d6", "-p", "x", "--command-id", ""], "command id must not be empty"),
        (["roll", "d6", "-p", "x", "--command-id", "c" * 101], "at most 100"),
        (["roll", "d6", "-p", "bad\udcffbytes"], "not valid UTF-8"),
        (["roll", "d6", "-p", "a\x07bell"], "control character"),
        (["export", "-o", "/no/such/folder/x.jsonl"], "cannot write"),
        (["branch", "[/]what if", "--at", "1"], "is not usable"),
        (["branch", "y" * 101, "--at", "1"], "at most 100"),
    ],
)
def test_a_bad_input_is_refused_clearly_and_appends_nothing(war: Cli, args: list[str], message: str) -> None:
    before = war.events()
    result = war(*args, code=2)
    assert message in result.stderr, result.stderr
    assert war.events() == before


def test_every_name_argument_is_refused_in_the_words_of_the_argument_as_typed(tmp_path: Path) -> None:
    """The command line and the command models kept a list of name inputs each: ``fs psi``'s PSION and
    ``--reports-to`` were on the models' list only, so they were refused in a field's words ("fs.psi: psion
    name …") where TARGET and ``--officer``, on both, were refused in the argument's. One list now."""
    cli = Cli(str(tmp_path / "f.db"))
    cli("new", "Front", "--ruleset", "fighting-spirit", "--seed", SEED)
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    hq = ["fs", "muster", "HQ", "--side", "Steel", "--quality", "regular", "--lv", "2", "--size", "5"]
    psi = ["--effect", "x", "--distance", "10"]
    squad, hidden = "Keno 3rd Squad", "Bad\u200bname"
    invisible = "'Bad\\u200bname' holds a control or invisible character (U+200B): not in a name"
    before = cli.events()
    for args, said in [
        ([*hq, "--reports-to", hidden], f"reports-to {invisible}"),
        ([*hq, "--reports-to", "x" * 101], "reports-to is 101 characters long: at most 100"),
        (["fs", "psi", hidden, squad, *psi], f"psion {invisible}"),
        (["fs", "psi", "   ", squad, *psi], "psion must not be empty"),
        (["fs", "psi", squad, hidden, *psi], f"target {invisible}"),
        (["fs", "rally", squad, "--officer", hidden, "--distance", "20"], f"officer {invisible}"),
    ]:
        assert cli(*args, code=2).stderr == f"error: {said}\n", args
    assert cli.events() == before
    platoon = ["fs", "muster", "Keno Platoon", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "5"]
    recorded = cli.json(*platoon, "--reports-to", "  Keno 3rd Squad  ")["events"][0]["payload"]["args"]
    assert recorded["reports_to"] == "Keno 3rd Squad"  # trimmed, as every name is


def test_amend_refuses_empty_non_json_and_mistyped_values(war: Cli) -> None:
    seq = war.json("mc", "funds", "Megalos", "50", "--reason", "loot")["events"][0]["seq"]
    before = war.events()
    assert "--set takes INPUT=VALUE" in war("amend", str(seq), "--set", "amount=", code=2).stderr
    assert "not a valid list or object" in war("amend", str(seq), "--set", "amount=[1,", code=2).stderr
    assert "amount must be a whole number" in war("amend", str(seq), "--set", "amount=lots", code=2).stderr
    assert "amount must be a whole number" in war("amend", str(seq), "--set", 'amount={"a": 1}', code=2).stderr
    assert war.events() == before
    war("amend", str(seq), "--set", "reason=12", "--yes")  # a word input given digits: the word 12
    funds = [e for e in war.json("log")["events"] if e["type"] == "economy.funds_changed"]
    assert funds[-1]["payload"]["reason"] == "12"


def test_invalid_utf8_in_a_real_argument_is_refused_with_exit_2(tmp_path: Path) -> None:
    db = str(tmp_path / "u.db").encode()
    env = {**os.environ, "PYTHONUTF8": "1"}
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"campaign.cli.main", b"--db", db, b"new", b"Caf\xe9", b"-r", b"disorder"],
        capture_output=True,
        env=env,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert b"not valid UTF-8" in done.stderr and b"Traceback" not in done.stderr


def _export(war: Cli, tmp_path: Path) -> list[bytes]:
    path = tmp_path / "war.jsonl"
    war("export", "--with-secrets", "-o", str(path))
    return path.read_bytes().splitlines()


def _rechained(lines: list[bytes], change: int, edit: object) -> list[bytes]:
    """An export with one event edited and every hash after it recomputed (the header's head too)."""
    from events.canonical import canonical_json
    from events.envelope import chain_hash, envelope_bytes

    out, prev = [lines[0]], "0" * 64
    for number, line in enumerate(lines[1:], start=1):
        item = orjson.loads(line)
        if "secret" in item:
            out.append(line)
            continue
        if number == change:
            edit(item)  # type: ignore[operator]
        item["prev_hash"] = prev
        payload = item["payload"]
        item["hash"] = prev = chain_hash(
            prev,
            envelope_bytes(
                campaign_id=item["campaign_id"],
                seq=item["seq"],
                type=item["type"],
                schema_version=item["schema_version"],
                payload_json=canonical_json(payload) if isinstance(payload, dict) else orjson.dumps(payload),
                meta_json=canonical_json(item["meta"])
                if isinstance(item["meta"], dict)
                else orjson.dumps(item["meta"]),
                prev_hash=item["prev_hash"],
            ),
        )
        out.append(orjson.dumps(item, option=orjson.OPT_SORT_KEYS))
    header = orjson.loads(out[0])
    header["head_hash"] = prev
    out[0] = orjson.dumps(header, option=orjson.OPT_SORT_KEYS)
    return out


def _seven(item: dict[str, object]) -> None:
    item["payload"] = {**item["payload"], "faces": [7], "total": 7}  # type: ignore[dict-item]


@pytest.mark.parametrize(
    ("edit", "at", "message"),
    [
        (lambda item: item.update(payload=[1, 2]), 2, "payload and meta must be JSON objects"),
        (lambda item: item.update(meta="someone"), 2, "payload and meta must be JSON objects"),
        (lambda item: item.update(payload={**item["payload"], "name": "[/]War"}), 1, "is not usable"),
        (lambda item: item.update(meta={**item["meta"], "command_id": "c" * 101}), 2, "at most 100"),
        (lambda item: item.update(seq=True), 2, "seq a whole number"),
    ],
)
def test_an_import_with_wrong_types_or_names_is_refused_whole(
    war: Cli, tmp_path: Path, edit: object, at: int, message: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(_rechained(_export(war, tmp_path), at, edit)) + b"\n")
    target = Cli(str(tmp_path / "target.db"))
    result = target("import", str(bad), code=2)
    assert message in result.stderr, result.stderr
    assert target.json("list") == []


def test_an_import_refuses_a_7_on_a_d6(tmp_path: Path) -> None:
    source = Cli(str(tmp_path / "s.db"))
    source("new", "Dice", "--ruleset", "fighting-spirit")
    source("roll", "d6", "-p", "x")
    lines = _export(source, tmp_path)
    dice_line = next(i for i, line in enumerate(lines) if b'"dice.rolled"' in line)
    bad = tmp_path / "seven.jsonl"
    bad.write_bytes(b"\n".join(_rechained(lines, dice_line, _seven)) + b"\n")
    target = Cli(str(tmp_path / "target.db"))
    result = target("import", str(bad), code=2)
    assert "face 7 is impossible on a d6" in result.stderr
    assert target.json("list") == []


def test_an_import_of_endless_or_oversize_input_is_refused(tmp_path: Path) -> None:
    target = Cli(str(tmp_path / "target.db"))
    assert "longer than 1024 KiB" in target("import", "/dev/zero", code=2).stderr
    huge = tmp_path / "huge.jsonl"
    huge.write_bytes(b"{" + b" " * MAX_LINE + b"}\n")
    assert "longer than 1024 KiB" in target("import", str(huge), code=2).stderr
    assert not (tmp_path / "target.db").exists()  # refused at its first line: no database was made for it


def test_every_unit_named_in_a_list_is_held_to_the_name_rule(tmp_path: Path) -> None:
    """``--unit`` of ``dis battle-start`` and ``gf battle-start``, ``gf --join`` and ``fs battle-start``'s
    ``--unit NAME=FATIGUE``: each name in the list trimmed, 1–100 characters, no control or invisible character,
    and found whatever its letter case, or answered with the close names. They were checked as text: kept
    untrimmed in the log, and a name too long, empty or with an invisible character was an unknown unit."""
    hidden, long_name = "Volti\u200bgeurs", "V" * 100
    invisible = "unit 'Volti\\u200bgeurs' holds a control or invisible character (U+200B): not in a name"

    dis = Cli(str(tmp_path / "d.db"))
    dis("new", "Peninsula", "--ruleset", "disorder", "--seed", SEED)
    dis("dis", "muster", "95th Rifles", "--side", "British", "--models", "10", "--troops", "rifles", "--points", "100")
    dis("dis", "muster", long_name, "--side", "French", "--models", "12", "--troops", "light", "--points", "90")
    dis("dis", "officer", "British", "Lt Sharpe")
    dis("dis", "officer", "French", "Capitaine Dubois")
    before = dis.events()
    for units, said in [
        ([hidden, "95th Rifles"], f"dis battle-start: {invisible}"),
        (["   ", "95th Rifles"], "dis battle-start: unit must not be empty"),
        (["V" * 101, "95th Rifles"], "dis battle-start: unit is 101 characters long: at most 100"),
        (["95th Rifls", long_name], "unknown unit '95th Rifls'; did you mean '95th Rifles'?"),
    ]:
        args = [a for u in units for a in ("--unit", u)]
        assert dis("dis", "battle-start", "Sabugal", *args, code=2).stderr == f"error: {said}\n", units
    assert dis.events() == before
    started = dis.json("dis", "battle-start", "Sabugal", "--unit", "  95TH rifles ", "--unit", f" {long_name.lower()}")
    assert started["events"][0]["payload"]["args"]["units"] == ["95TH rifles", long_name.lower()]  # trimmed
    assert [e["type"] for e in started["events"]].count("battle.unit_deployed") == 2  # found whatever the case

    gf = Cli(str(tmp_path / "g.db"))
    gf("new", "Sector 7", "--ruleset", "grimdark", "--seed", SEED)
    gf("gf", "muster", "Saurian Warriors", "--side", "Saurians", "--models", "10", "--quality", "4", "--points", "140")
    gf(
        "gf",
        "muster",
        "Saurian Hero",
        "--side",
        "Saurians",
        "--models",
        "1",
        "--quality",
        "3",
        "--hero",
        "--points",
        "60",
    )
    gf("gf", "muster", "Robot Squad", "--side", "Robots", "--models", "5", "--quality", "4", "--points", "150")
    units = ["--unit", "Saurian Warriors", "--unit", "Saurian Hero", "--unit", "Robot Squad"]
    before = gf.events()
    for args, said in [
        (["--unit", "Saurian Warriors", "--unit", "Robot\u200bSquad"], "unit 'Robot\\u200bSquad' holds a control"),
        (["--unit", "Saurian Warriors", "--unit", "\t"], "unit must not be empty"),
        ([*units, "--join", "Saurian Hero=" + "W" * 101], "unit is 101 characters long: at most 100"),
        ([*units, "--join", f"{hidden}=Saurian Warriors"], invisible),
    ]:
        assert said in gf("gf", "battle-start", "Ruins", *args, code=2).stderr, args
    assert gf.events() == before
    ruins = gf.json("gf", "battle-start", "Ruins", "--unit", " saurian warriors", "--unit", "Saurian Hero ",
                    "--unit", "ROBOT SQUAD", "--join", "saurian hero =  Saurian Warriors")  # fmt: skip
    recorded = ruins["events"][0]["payload"]["args"]
    assert recorded["units"] == ["saurian warriors", "Saurian Hero", "ROBOT SQUAD"]
    assert recorded["joins"] == {"saurian hero": "Saurian Warriors"}

    fs = Cli(str(tmp_path / "f.db"))
    fs("new", "Front", "--ruleset", "fighting-spirit", "--seed", SEED)
    fs("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    fs("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    sides = ["--side", "Keno=low", "--side", "Steel=medium"]
    before = fs.events()
    for unit, said in [
        ("Keno\u200b3rd Squad=fresh", "unit 'Keno\\u200b3rd Squad' holds a control or invisible character"),
        ("K" * 101 + "=fresh", "unit is 101 characters long: at most 100"),
        ("Keno 3rd Sqaud=fresh", "unknown unit 'Keno 3rd Sqaud'; did you mean 'Keno 3rd Squad'?"),
    ]:
        stderr = fs("fs", "battle-start", "Hill", *sides, "--unit", unit, "--unit", "Company HQ=tired", code=2).stderr
        assert said in stderr, unit
    assert fs.events() == before
    hill = fs.json("fs", "battle-start", "Hill", *sides, "--unit", "keno 3RD squad=fresh", "--unit", "Company HQ=tired")
    assert [d["unit"] for d in hill["events"][0]["payload"]["args"]["deployments"]] == ["keno 3RD squad", "Company HQ"]

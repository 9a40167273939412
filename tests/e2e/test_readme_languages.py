"""README's walkthroughs read in Russian and Polish: the five-grade one in Russian, the Grimdark one in Polish, each
beside the same walkthrough in English. Every command of the block runs as README writes it (with the reader's
language chosen by ``--lang``, and one dice seed for all, so that the rolls are the same); each succeeds, what it
prints is in the chosen language, and the log holds the same events as in English, byte for byte once each run's
own random ids (and so the hashes that chain them) are named by their first appearance and the envelopes'
clock times set aside: the language is how the
campaign is read, never what it records. (The same log read in each language gives one head hash:
tests/e2e/test_lang_views.py.)"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from tests.e2e.test_readme import ROOT, blocks

SEED = "5eed" * 8  # a dice seed chosen, so that a run is the same each time (README's `new` draws one)
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
POLISH = re.compile(r"[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]")


def walkthrough(ruleset: str) -> list[list[str]]:
    """The commands of README's walkthrough of ``ruleset``, each as its words (comments and line joins undone)."""
    for block in blocks(ROOT / "README.md"):
        text = "\n".join(block.lines).replace("\\\n", " ")
        if f"--ruleset {ruleset}" in text and "battle-start" in text:
            lines = [shlex.split(line, comments=True) for line in text.splitlines()]
            return [words for words in lines if words and words[0] in ("campaign", "export")]
    raise AssertionError(f"README has no walkthrough of {ruleset}")


ID = re.compile(rb"\b[0-9a-f]{32}\b")
HASH = re.compile(rb"\b[0-9a-f]{64}\b")
WHEN = re.compile(rb'"recorded_at":"[^"]*"')  # the envelope's wall-clock time, outside what the rules decide


def recorded(folder: Path, env: dict[str, str]) -> bytes:
    """The campaign's log as exported, each random id named by its first appearance, each hash and time blanked."""
    out = folder / "log.jsonl"
    result = CliRunner().invoke(app, ["--db", str(folder / "campaign.db"), "export", "-o", str(out)], env=env)
    assert result.exit_code == 0, result.output
    names: dict[bytes, bytes] = {}
    text = WHEN.sub(b'"recorded_at":"-"', HASH.sub(b"#", out.read_bytes()))
    return ID.sub(lambda m: names.setdefault(m[0], b"id%d" % len(names)), text)


def play(folder: Path, commands: list[list[str]], lang: str) -> tuple[list[str], bytes]:
    """Run the walkthrough in ``folder`` (its campaign already made there: see below); what each command printed
    (an ``export`` line prints nothing), and the log it left."""
    runner, env, said = CliRunner(), {"COLUMNS": "120", "CAMPAIGN_ACTOR": "readme"}, []
    db = ["--db", str(folder / "campaign.db"), "--lang", lang]
    for words in commands:
        if words[0] == "export":
            name, _, value = words[1].partition("=")
            env[name] = value
            said.append("")
            continue
        if words[1] == "new":
            said.append("")
            continue
        result = runner.invoke(app, [*db, *words[1:]], env=env)
        assert result.exit_code == 0, f"{lang}: campaign {shlex.join(words[1:])}\n{result.output}"
        said.append(result.output)
    return said, recorded(folder, env)


def started(tmp_path: Path, commands: list[list[str]], *langs: str) -> None:
    """README's ``campaign new`` run once, with one dice seed, and its database copied for each language: the
    seeded dice derive from the seed and the campaign's id, so every run rolls what the others roll."""
    new = next(words for words in commands if words[:2] == ["campaign", "new"])
    first = tmp_path / "new.db"
    result = CliRunner().invoke(app, ["--db", str(first), *new[1:], "--seed", SEED])
    assert result.exit_code == 0, result.output
    for lang in langs:
        (tmp_path / lang).mkdir()
        shutil.copyfile(first, tmp_path / lang / "campaign.db")


@pytest.mark.parametrize(
    ("ruleset", "lang", "letters"),
    [("fighting-spirit", "ru", CYRILLIC), ("grimdark", "pl", POLISH)],
    ids=["five-grade-in-russian", "grimdark-in-polish"],
)
def test_a_walkthrough_read_in_another_language_says_it_there_and_records_the_same(
    tmp_path: Path, ruleset: str, lang: str, letters: re.Pattern[str]
) -> None:
    commands = walkthrough(ruleset)
    started(tmp_path, commands, "en", lang)
    english, log_en = play(tmp_path / "en", commands, "en")
    translated, log = play(tmp_path / lang, commands, lang)
    assert log.count(b"\n") > 20 and log == log_en
    # what the first morale test's command says of it (the rule's sentences, its dice), in the reader's words
    shot = next(i for i, words in enumerate(commands) if words[1:3] in (["fs", "attack"], ["gf", "shoot"]))
    assert letters.search(translated[shot]), translated[shot]
    assert not letters.search(english[shot]), english[shot]

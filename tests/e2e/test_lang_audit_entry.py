"""``campaign audit --lang ru|pl`` of a ruling says the ruling first as ``campaign log`` says it, in the reader's
words: it said it in the English it was recorded in ("#14 правила · применено: Robot Squad, morale test …"), its
line under "in force" in Russian. And an undo's rewind reads in the reader's words in the log ("undo of gf shoot"
before). Grimdark, RULES.md §4.1: ten models of Quality 4+ taking 6 wounds are four left, at half strength, and
test on a d6; the table's 2 fails (Shaken)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_cli import Cli


@pytest.mark.parametrize(
    ("lang", "entry", "undone"),
    [
        ("ru", "#{seq} правила · применено: Robot Squad, тест морали (раны при половинной численности): выпало 2 "
               "против Quality 4+: тест провален → Shaken (потрясён)",
         "откат к #{before}: отмена команды gf shoot (#{first}–#{last})"),
        ("pl", "#{seq} zasady · zastosowano: Robot Squad, test morale (rany przy połowie stanu): wyrzucono 2 "
               "przeciw Quality 4+: nie zdaje → Shaken",
         "cofnięto do #{before}: cofnięcie polecenia gf shoot (#{first}–#{last})"),
    ],
)  # fmt: skip
def test_the_audit_of_a_ruling_says_it_first_in_the_readers_words(
    tmp_path: Path, lang: str, entry: str, undone: str
) -> None:
    cli = Cli(str(tmp_path / "gf.db"))
    cli("new", "Kessel", "--ruleset", "grimdark")
    cli("gf", "muster", "Robot Squad", "--side", "Robots", "--models", "10", "--quality", "4", "--points", "150")
    cli("gf", "muster", "Saurian Warriors", "--side", "Saurians", "--models", "10", "--quality", "4", "--points", "150")
    cli("gf", "battle-start", "Ruins", "--unit", "Robot Squad", "--unit", "Saurian Warriors")
    shot = cli.json("gf", "shoot", "Robot Squad", "--wounds", "6", "--dice", "2")["events"]
    first, last = shot[0]["seq"], shot[-1]["seq"]
    test = max(e["seq"] for e in shot if e["type"] == "rules.applied")
    said = " ".join(cli("--lang", lang, "audit", str(test)).stdout.split())  # its lines as Rich wraps them, joined
    assert said.startswith(entry.format(seq=test) + " ")
    assert "morale test" not in said and "against Quality" not in said
    cli("undo")
    log = " ".join(cli("--lang", lang, "log", "--all", "--last", "1").stdout.replace("│", " ").split())
    assert undone.format(before=first - 1, first=first, last=last) in log and "undo of" not in log

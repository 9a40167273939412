"""Four facts the log (and so the audit page and the report) said in English whatever the reader's language: a
lasting Morale modifier, a player character's damage (Mass Combat, RULES.md §2.11, §2.9), a unit's disorder
markers and a force's morale (disorder markers, §1.2, §1.9). Said in Russian and Polish now, the names as
recorded.

The sample logs (tests/fixtures): Mass Combat's second day at Bannok won by Al-Wazif, so Megalos have −2 Morale
against them until the year ends and Al-Wazif +1 against Megalos; Caliburn takes 7 + 9 + 6 = 22 damage. The
disorder sample's Fusiliers fail a morale check: one marker. The third edition's disorder sample: the French
force has lost 100 points, and its remaining units flee."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from campaign.cli.main import app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def log(db: str, lang: str, kind: str) -> str:
    """The log's entries of one kind, as one line of words (a row wrapped in its cell reads on)."""
    done = CliRunner().invoke(app, ["--db", db, "--lang", lang, "log", "--all", "--type", kind], env={"COLUMNS": "250"})
    assert done.exit_code == 0, done.output
    return " ".join(done.output.replace("│", " ").split())


def imported(tmp_path: Path, fixture: str) -> str:
    db = str(tmp_path / "sample.db")
    done = CliRunner().invoke(app, ["--db", db, "import", str(FIXTURES / fixture)])
    assert done.exit_code == 0, done.output
    return db


@pytest.mark.parametrize(
    ("lang", "modifiers", "damage"),
    [
        ("ru", ["модификатор Морали −2 для Megalos (против Al-Wazif: поражение от них в этом году) до конца года",
                "модификатор Морали +1 для Al-Wazif (против Megalos: победа над ними в этом году) до конца года"],
         "Caliburn получает урон 22 (7 + 9 + 6)"),
        ("pl", ["modyfikator Morale −2 dla Megalos (przeciw Al-Wazif: porażka z nimi w tym roku) do końca roku",
                "modyfikator Morale +1 dla Al-Wazif (przeciw Megalos: zwycięstwo nad nimi w tym roku) do końca roku"],
         "Caliburn otrzymuje obrażenia: 22 (7 + 9 + 6)"),
    ],
)  # fmt: skip
def test_a_lasting_morale_modifier_and_a_characters_damage(
    tmp_path: Path, lang: str, modifiers: list[str], damage: str
) -> None:
    db = imported(tmp_path, "logs_2026_12_01/mass-combat.jsonl")
    said = log(db, lang, "morale.modifier_set")
    for modifier in modifiers:
        assert modifier in said, modifier
    assert "Morale modifier" not in said and "this year" not in said and "year end" not in said
    wounded = log(db, lang, "career.pc_wounded")
    assert damage in wounded and "damage" not in wounded


@pytest.mark.parametrize(
    ("lang", "markers", "flees"),
    [
        ("ru", "Fusiliers: 1 маркер расстройства, провалил проверку боевого духа",
         "силы стороны French потеряли 100 очк.: оставшиеся отряды бегут"),
        ("pl", "Fusiliers: 1 znacznik dezorganizacji, nie zdała testu morale",
         "siły strony French straciły 100 pkt: pozostałe oddziały uciekają"),
    ],
)  # fmt: skip
def test_a_units_disorder_markers_and_a_forces_morale(tmp_path: Path, lang: str, markers: str, flees: str) -> None:
    said = log(imported(tmp_path, "logs_2026_12_01/disorder.jsonl"), lang, "morale.disorder_changed")
    assert markers in said and "disorder marker" not in said
    third = tmp_path / "r3"
    third.mkdir()
    force = log(imported(third, "logs_r3_fs_dis/disorder-r3.jsonl"), lang, "battle.force_morale")
    assert flees in force and "force has lost" not in force

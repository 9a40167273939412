"""The source note beside each rule table value (``campaign fs tables``: "SEED (psi-strike: +3 threat)"), said in
the reader's language: the tag, the errata and case ids, the sections, the numbers and the seed's own words kept as
the tables write them. The expected notes are translated by hand from the tables' English and the games' terms
(each ruleset's terms.toml); English is held as tables.toml writes it, and ``--json`` keeps the file's note."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from campaign.i18n import catalogs
from campaign.rulesets.tables import Sourced
from campaign.tables import base_values
from tests.e2e.test_cli import Cli

RULESETS = {"fighting-spirit": "fs", "disorder": "dis", "mass-combat": "mc", "grimdark": "gf"}
PACKAGES = ("fighting_spirit", "disorder", "mass_combat", "grimdark")


def rows(cli: Cli, lang: str, group: str, prefix: str) -> dict[str, list[str]]:
    """The tables view's rows by path: [value, tag, erratum, note], each cell rejoined where the table wrapped it."""
    argv = ["--lang", lang, "--db", cli.db, "--actor", "tester", group, "tables", prefix, "-c", "C"]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    found: dict[str, list[str]] = {}
    last: list[str] | None = None
    for line in result.output.splitlines():
        if not line.startswith("│"):
            continue
        cells = [cell.strip() for cell in line.strip("│").split("│")]
        if cells[0]:
            last = found[cells[0]] = cells[1:]
        elif last is not None:  # a wrapped row: its cells go on under the one before
            last[:] = [f"{kept} {more}".strip() for kept, more in zip(last, cells[1:], strict=True)]
    return found


@pytest.fixture(params=list(RULESETS))
def campaign(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Cli, str]:
    cli = Cli(str(tmp_path / "c.db"))
    cli("new", "C", "--ruleset", request.param)
    return cli, RULESETS[request.param]


NOTES = {
    ("fs", "threats.psi_strike.medium"): (
        "SEED (psi-strike: +3 threat)",
        "SEED (пси-удар: угроза +3)",
        "SEED (uderzenie psi: zagrożenie +3)",
    ),
    ("fs", "psi.rules.android_resist_die"): (
        "SEED (every psi-resistance test of an android is rolled on this die, R2-1)",
        "SEED (каждый тест пси-сопротивления андроида бросается этим кубом, R2-1)",
        "SEED (każdy test odporności psi androida rzuca się tą kością, R2-1)",
    ),
    ("dis", "check.pass_at"): (
        "SEED (total ≥ 6 passes)",
        "SEED (итог ≥ 6 — проверка пройдена)",
        "SEED (wynik ≥ 6 — sprawdzian zdany)",
    ),
    ("dis", "markers.flees_at"): (
        "SEED (a 3rd marker from any source: the unit flees, removed at once)",
        # the seed's word for a unit: подразделение (its force is the отряд)
        "SEED (3-й маркер расстройства из любого источника: подразделение бежит и сразу удаляется из игры)",
        "SEED (3. znacznik dezorganizacji z dowolnego źródła: jednostka ucieka, natychmiast usunięta)",
    ),
    ("mc", "morale.exempt_troops"): (
        "SEED (R2-26: zombies and skeletons are not subject to Morale)",
        "SEED (R2-26: зомби и скелеты не подвержены Морали)",
        "SEED (R2-26: zombie i szkielety nie podlegają Morale)",
    ),
    ("mc", "morale.ts_pct_per_morale"): (
        "SEED (§2.7: ±10% TS per point of Morale)",
        "SEED (§2.7: ±10% TS за очко Морали)",
        "SEED (§2.7: ±10% TS za punkt Morale)",
    ),
    ("gf", "test.natural_one_fails"): (
        "SEED (the article: a natural 1 always fails; answers D-3)",
        "SEED (статья: выпавшая 1 — всегда провал; ответ на D-3)",
        "SEED (artykuł: naturalna 1 zawsze jest porażką; odpowiada na D-3)",
    ),
}
"""(group, path) → the note in English, Russian and Polish."""


@pytest.mark.parametrize(("group", "path"), list(NOTES))
@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_a_values_note_is_said_in_the_readers_language(tmp_path: Path, group: str, path: str, lang: str) -> None:
    ruleset = next(name for name, g in RULESETS.items() if g == group)
    cli = Cli(str(tmp_path / "c.db"))
    cli("new", "C", "--ruleset", ruleset)
    english, russian, polish = NOTES[group, path]
    _value, tag, _erratum, note = rows(cli, lang, group, path)[path]
    assert note == {"en": english, "ru": russian, "pl": polish}[lang]
    assert tag == "SEED"  # the tag column is the tables' own in every language


def test_every_note_of_a_view_is_translated_and_english_is_the_files(campaign: tuple[Cli, str]) -> None:
    """Every row of a ruleset's view: in English the note tables.toml writes; in Russian and Polish the note in the
    catalog, and no note with words in it left in English (a long path is cut short in the view: the notes are
    compared as the view's column of them)."""
    cli, group = campaign
    package = next(p for p in PACKAGES if RULESETS[p.replace("_", "-")] == group)
    values = base_values(package)
    english = sorted(cells[3] for cells in rows(cli, "en", group, "").values())
    assert english == sorted(s.source for s in values.values())
    worded = {s.source for s in values.values() if re.search(r"\b[a-z]{3,}\b", s.source)}
    for lang in ("ru", "pl"):
        catalog = catalogs.read(lang)
        said = sorted(cells[3] for cells in rows(cli, lang, group, "").values())
        entries = {s.source: catalog.get(s.source, catalogs.NOTE_CONTEXT) for s in values.values()}
        wanted = sorted(
            s.source if s.source in catalogs.BARE_TAGS else str(getattr(entries[s.source], "string", ""))
            for s in values.values()
        )
        assert said == wanted
        assert not worded & set(said), sorted(worded & set(said))


def test_json_keeps_the_files_note(campaign: tuple[Cli, str]) -> None:
    cli, group = campaign
    result = CliRunner().invoke(app, ["--lang", "ru", "--db", cli.db, group, "tables", "-c", "C", "--json"])
    assert result.exit_code == 0, result.output
    package = next(p for p in PACKAGES if RULESETS[p.replace("_", "-")] == group)
    shown = orjson.loads(result.stdout)
    assert {p: v["source"] for p, v in shown.items()} == {p: s.source for p, s in base_values(package).items()}


KEPT = {
    "numbers": re.compile(r"\d+(?:\.\d+)?"),
    "errata and case ids": re.compile(r"\bR[23]-\d+\b|\b[A-E]-\d+\b"),
    "sections": re.compile(r"§[\d.]*\d"),
}
SEED_WORDS = re.compile(r"[А-Яа-яЁё]+")


@pytest.mark.parametrize("package", PACKAGES)
@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_every_note_of_the_tables_is_in_the_catalogs_with_what_must_stay_exact(package: str, lang: str) -> None:
    """No note of a tables.toml is left out of the catalogs (but a bare tag, said alike in every language), and
    each translation keeps the note's tag, its numbers, errata and case ids, sections and the seed's own words."""
    catalog = catalogs.read(lang)
    notes = {s.source for s in base_values(package).values()}
    assert notes, package
    for note in sorted(notes):
        if note in catalogs.BARE_TAGS:
            continue
        entry = catalog.get(note, catalogs.NOTE_CONTEXT)
        assert entry is not None and entry.string and not entry.fuzzy, (lang, note)
        said = str(entry.string)
        assert Sourced(0, said).tag == Sourced(0, note).tag, (lang, note, said)
        for what, pattern in KEPT.items():
            assert sorted(pattern.findall(said)) == sorted(pattern.findall(note)), (lang, what, note, said)
        for word in SEED_WORDS.findall(note):
            assert word in said, (lang, word, note, said)


def test_the_catalogs_extract_every_note_of_the_tables() -> None:
    """The extraction (scripts/catalogs.py update) finds each note of every built-in ruleset's tables, with the
    provenance context, so that none is shown in English for want of an entry."""
    extracted = catalogs.table_notes()
    for package in PACKAGES:
        for path, sourced in base_values(package).items():
            assert sourced.source in extracted or sourced.source in catalogs.BARE_TAGS, (package, path)

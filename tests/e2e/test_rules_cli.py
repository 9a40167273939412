"""The rules ship with the program: `campaign rules §0.4` prints that clause of RULES.md with the
errata amending it, and every clause the code cites is one the program can show."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from campaign.rules_text import RULES, cited, clause, clauses

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "RULES.md"


def run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.output}"
    return result.output


def test_rules_prints_the_clause_and_the_errata_that_amend_it() -> None:
    out = run("rules", "§0.4")
    assert out.startswith("§0.4 Confidence (morale) test — algorithm")
    assert "0.5 THREAT" not in out  # that clause only
    assert "R2-5: §0.3, §0.4 Two ambiguities added (A-7, A-8)" in out


def test_a_clause_is_printed_as_text_for_a_terminal_not_as_markdown() -> None:
    """For a person: no ``` fences, no **, no backticks, no #; the content kept, the algorithm indented as a block.
    The Cyrillic Бе is the seed's own grade letter (Routed, RULES.md §0.3's table), not a typo for a Latin
    letter: the shipped copy equals the project's (test_the_shipped_rules_are_the_projects_rules) and keeps it."""
    out = run("rules", "§0.4")
    lines = out.splitlines()
    assert not [line for line in lines if "```" in line or line.startswith("#") or "**" in line or "`" in line]
    assert "    target  = LV(unit leader) + ThreatLevel" in lines
    assert "    grade below Бе: stays Бе (SGII has no state beyond Routed)                       [INF]" in lines
    assert 'ThreatLevel = max(all base (no "+") rows that apply to this event)' in out
    assert "“Half” check: 2*roll <= target is the same thing as" in out
    assert "| 5 | Бе Routed |" in run("rules", "§0.3")
    seed = run("rules", "§1")
    assert seed.startswith("§1 Seed 001 —") and "\n§1.4 Morale check — algorithm [SEED]" in seed
    assert run("rules", "R2-5").startswith("R2-5 — §0.3, §0.4 Two ambiguities added")
    assert orjson.loads(run("rules", "§0.4", "--json"))["text"].startswith("## 0.4")  # scripts get RULES.md's text


@pytest.mark.parametrize("reference", ["0.4", "§ 0.4", " §0.4 "])
def test_a_clause_is_found_however_it_is_typed(reference: str) -> None:
    assert clause(reference).title.startswith("0.4 Confidence")


def test_a_seeds_whole_section_the_campaign_layer_and_an_erratum() -> None:
    seed = clause("§1")
    assert seed.title.startswith("Seed 001") and "## 1.4 Morale check" in seed.text and "# Seed 002" not in seed.text
    assert clause("§5").title.startswith("5. The campaign layer")
    erratum = clause("r2-6")
    assert erratum.text.startswith("### R2-6 — §1.5, §1.6") and "### R2-7" not in erratum.text
    assert {"R2-6: §1.5, §1.6 A failed rally test makes the unit retreat (B-7)"} <= set(clause("§1.6").errata)


def test_an_unknown_clause_is_refused_in_words() -> None:
    out = run("rules", "§9.9", code=2)
    assert "RULES.md has no clause '§9.9'" in out and "campaign rules" in out


def test_rules_lists_every_clause_and_prints_json() -> None:
    listing = run("rules").splitlines()
    assert (
        listing[0].startswith("§0 Seed 000")
        and "§0.4 Confidence (morale) test — algorithm [SEED, same as PUB: SGII p.20]" in listing
    )
    assert any(line.strip().startswith("R2-36 — ") for line in listing)
    data = orjson.loads(run("rules", "R2-5", "--json"))
    assert data["clause"] == "R2-5" and data["text"].startswith("### R2-5")


def test_every_clause_the_code_cites_is_one_the_program_can_show() -> None:
    known = clauses()
    missing = []
    files = [
        p
        for folder in ("campaign", "events", "projections")
        for p in (ROOT / folder).rglob("*")
        if p.suffix in {".py", ".toml"}
    ]
    assert len(files) > 50
    for path in files:
        for number in cited(path.read_text(encoding="utf-8")):
            if number not in known:
                missing.append(f"{path.relative_to(ROOT)}: §{number}")
    assert not missing, missing
    assert {"0.4", "2.11", "4.2", "5", "0"} <= {n for p in files for n in cited(p.read_text(encoding="utf-8"))}


def test_the_shipped_rules_are_the_projects_rules() -> None:
    if not SHARED.is_file():
        pytest.skip("the project's shared RULES.md is not beside this checkout")
    assert RULES.read_bytes() == SHARED.read_bytes(), "campaign/RULES.md is stale: copy ../shared/RULES.md over it"


def test_the_third_editions_errata_are_clauses_and_amend_the_clauses_they_name() -> None:
    """RULES.md's third edition: `rules R3-5` prints the erratum, and §0.5 lists it among the errata that amend it
    (R3-5 — §0.5 "More men lost than remain" counts the whole battle), as it lists the second edition's."""
    assert run("rules", "R3-5").startswith('R3-5 — §0.5 "More men lost than remain" counts the whole battle (A-9)')
    assert 'R3-5: §0.5 "More men lost than remain" counts the whole battle (A-9)' in run("rules", "§0.5")
    assert "R3-27" in clauses() and clause("r3-27").text.startswith("### R3-27 — §4.2")
    assert cited("see R3-3 and §0.3") == ["R3-3", "0.3"]

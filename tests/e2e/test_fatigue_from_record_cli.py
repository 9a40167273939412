"""`fs battle-start --unit UNIT` takes the unit's fatigue from the campaign record (RULES.md §5, R2-3), as README
says; `--unit UNIT=cover` too, with its position. A newcomer's first defect: `--unit "Keno 3rd Squad"` was refused
("--unit must look like NAME=VALUE"). A fatigue typed is the scenario's, as before."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_cli import Cli


def test_a_unit_deployed_without_a_fatigue_takes_the_record_s_and_one_typed_is_kept(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "fs.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    cli("fs", "muster", "Company HQ", "--side", "Steel", "--quality", "veteran", "--lv", "2", "--size", "5")
    marched = cli("fs", "forced-march", "3").stdout  # §5: a forced march → exhausted, as the record then says
    assert "standing Keno 3rd Squad: fatigue fresh → exhausted" in marched  # said as it happens
    said = cli("fs", "battle-start", "Hill 203", "--side", "Keno=low", "--side", "Steel=medium",
               "--unit", "Keno 3rd Squad", "--unit", "Company HQ=cover").stdout  # fmt: skip
    assert "Keno 3rd Squad deployed for Keno: 7 men, fatigue exhausted" in said
    assert "Company HQ deployed for Steel: 5 men, fatigue exhausted" in said and "in cover" in said
    cli("fs", "battle-end", "--result", "a feint")
    typed = cli("fs", "battle-start", "Hill 204", "--side", "Keno=low", "--side", "Steel=medium",
                "--unit", "Keno 3rd Squad=fresh,prone", "--unit", "Company HQ=tired").stdout  # fmt: skip
    assert "Keno 3rd Squad deployed for Keno: 7 men, fatigue fresh" in typed and "prone" in typed
    assert "Company HQ deployed for Steel: 5 men, fatigue tired" in typed

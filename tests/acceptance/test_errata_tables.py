"""R2-36 and the provenance tags of every ruleset's tables: every key is read by a rule, a house rule on a key no
rule reads is refused, every value carries a tag, and `campaign … tables` shows the tag and the erratum."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import campaign.commands
import campaign.tables
from campaign.rulesets import RULESETS
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.tables import TAGS
from campaign.tables import base_values, is_read, unread_paths
from events.errors import InvalidInputError
from tests.acceptance.conftest import FsTable
from tests.e2e.test_cli import Cli

PACKAGES = [r.package for r in RULESETS.values()]

PENDING: dict[str, set[str]] = {}
"""Keys R2-36 names whose rule is not built yet: none is left, and nothing may join."""


@pytest.mark.parametrize("package", PACKAGES)
def test_r2_36_every_key_of_every_tables_toml_is_read_by_a_rule(package: str) -> None:
    unread = set(unread_paths(package))
    assert unread <= PENDING.get(package, set()), f"read by no rule of {package}: {sorted(unread)}"


def test_r2_36_the_reads_are_found_in_the_rules_code() -> None:
    # f-string lookups (threats.{row}.{motivation}) and literal ones (psi.rules.band_inches) count; a path that
    # appears nowhere in a lookup does not, nor does a part of a path.
    assert is_read("fighting_spirit", "threats.artillery.low")
    assert is_read("fighting_spirit", "psi.rules.band_inches")
    assert not is_read("fighting_spirit", "psi.rules.android_resists_if_at_least_psion")
    assert not is_read("fighting_spirit", "threats")
    # The typical skills and the hiring bonus are gone from the Mass Combat tables (R2-36).
    mass = base_values("mass_combat")
    assert not any(p.startswith("skills.") for p in mass) and "economy.hiring_bonus_pct" not in mass


def test_r2_36_a_house_rule_on_a_key_no_rule_reads_is_refused(table: FsTable, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every five-grade key is read; pretend one is not, as the refusals the tables in force carry are built.
    unread = "last_stand.friends_within"
    real = campaign.tables.house_rule_refusals
    refusals = {**real("fighting_spirit"), unread: f"no rule reads {unread}: a house rule on it would change nothing"}
    monkeypatch.setattr(campaign.commands, "house_rule_refusals", lambda package: refusals)
    before = table.log_length()
    with pytest.raises(InvalidInputError, match=f"no rule reads {unread}"):
        table.ledger.execute(table.info, fs.HouseRule.build(path=unread, value=10))
    assert table.log_length() == before
    table.ledger.execute(
        table.info, fs.HouseRule.build(path="last_stand.other_die", value=8)
    )  # a key a rule reads is accepted
    assert table.log_length() > before


def test_r2_36_the_refusals_name_every_unread_key_and_every_alternative() -> None:
    for package in PACKAGES:
        refused = campaign.tables.house_rule_refusals(package)
        unread = {p for p in refused if not p.startswith("alternatives.")}
        assert unread == set(unread_paths(package)) - {p for p in unread_paths(package) if p.startswith("alt")}
    assert (
        "threats.unverified_casualty.low"
        in campaign.tables.house_rule_refusals("fighting_spirit")["alternatives.a1_unverified_text.value"]
    )


def test_r2_36_an_alternative_reading_is_applied_through_its_table_path(table: FsTable) -> None:
    with pytest.raises(InvalidInputError, match=re.escape("house-rule threats.unverified_casualty.low 2")):
        table.ledger.execute(table.info, fs.HouseRule.build(path="alternatives.a1_unverified_text.value", value=3))


def test_r2_1_the_withdrawn_android_save_key_is_refused(table: FsTable) -> None:
    withdrawn = "psi.rules.android_resists_if_at_least_psion"
    with pytest.raises(InvalidInputError, match=re.escape(f"no table value at {withdrawn!r}")):
        table.ledger.execute(table.info, fs.HouseRule.build(path=withdrawn, value=False))


@pytest.mark.parametrize("package", PACKAGES)
def test_every_table_value_carries_a_provenance_tag(package: str) -> None:
    untagged = {p: s.source for p, s in base_values(package).items() if s.tag not in TAGS[:-1]}
    assert not untagged, f"{package}: values without a provenance tag: {untagged}"


def test_campaign_tables_shows_each_values_tag_and_its_erratum(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "t.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    shown = cli.json("fs", "tables", "psi.rules")
    assert shown["psi.rules.android_resist_die"]["tag"] == "SEED"
    assert shown["psi.rules.android_resist_die"]["erratum"] == "R2-1"
    assert shown["psi.rules.band_inches"]["erratum"] == ""
    human = cli("fs", "tables", "psi.rules.android").stdout
    assert "R2-1" in human and "SEED" in human
    cli("fs", "house-rule", "psi.rules.android_resist_die", "4")
    after = cli.json("fs", "tables", "psi.rules.android_resist_die")["psi.rules.android_resist_die"]
    assert after["tag"] == "HOUSE RULE" and after["erratum"] == "R2-1"


def test_r2_36_the_refusals_are_worked_out_for_a_house_rule_only(
    table: FsTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding them parses the ruleset's source, a tenth of a second of start-up: a command that takes no house
    rule does not pay it, and a house rule still meets them."""
    worked: list[str] = []
    real = campaign.tables.house_rule_refusals

    def counted(package: str) -> dict[str, str]:
        worked.append(package)
        return real(package)

    monkeypatch.setattr(campaign.commands, "house_rule_refusals", counted)
    table.muster("Keno 3rd Squad", quality="regular", leadership=2, size=7)
    assert worked == []
    with pytest.raises(InvalidInputError, match="alternative reading kept as data"):
        table.ledger.execute(table.info, fs.HouseRule.build(path="alternatives.a1_unverified_text.value", value=2))
    assert worked == ["fighting_spirit"]

"""R2-36 and the provenance tags of every ruleset's tables: every key is a field of its ruleset's model and every
field is read by a rule, a house rule on a path no field has is refused, every value carries a tag, and
`campaign … tables` shows the tag and the erratum."""

from __future__ import annotations

import ast
import importlib
import re
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel

import campaign
import campaign.tables
from campaign.rulesets import RULESETS
from campaign.rulesets.fighting_spirit import commands as fs
from campaign.rulesets.tables import TAGS, Section, Sourced
from campaign.tables import base_values, module_of
from events.errors import InvalidInputError
from tests.acceptance.conftest import FsTable
from tests.e2e.test_cli import Cli

PACKAGES = [r.package for r in RULESETS.values()]

PENDING: dict[str, set[str]] = {}
"""Keys R2-36 names whose rule is not built yet: none is left, and nothing may join."""


# R2-36 without reading the program's source at run time: a ``tables.toml`` key that is not a field of its
# ruleset's model is refused when the tables load, a house rule may name only a field, and this test finds each
# field read by a rule. It is static (each field's name is an attribute some rule module reads) rather than an
# access-recording run of the worked examples: the rules read a field by attribute only, so its name is in their
# code, and a static look costs milliseconds where running every worked example again would cost the CI minutes.
# A section keyed by data (``qualities``, ``ts.armour``) counts as read when the section is: its rows are chosen by
# a unit's profile or a roll, as a lookup of the section.
UNREAD_BY_DESIGN = {"alternatives"}
"""Alternative readings kept as data: applied through the house rules on the paths they name."""


def _fields(model: type[BaseModel], prefix: str = "") -> Iterator[tuple[str, str]]:
    """Each field of a tables model and its sections, as (dotted path, attribute name)."""
    for name, info in model.model_fields.items():
        if name == "rows":
            continue
        yield f"{prefix}{name}", name
        for inner in _models_in(info.annotation):
            yield from _fields(inner, f"{prefix}{name}.")


def _models_in(annotation: object) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, Section):
        yield annotation
        rows = annotation.model_fields.get("rows")
        if rows is not None:
            yield from _models_in(rows.annotation)
    for arg in typing.get_args(annotation):
        yield from _models_in(arg)


def _attributes_read(package: str) -> set[str]:
    """Every attribute name the ruleset's modules read (``tables.morale.leadership_step`` reads three)."""
    folder = Path(importlib.import_module(module_of(package)).__file__ or "").parent
    names: set[str] = set()
    for module in [*folder.glob("*.py"), Path(campaign.__file__).parent / "read" / "charts.py"]:
        names |= {n.attr for n in ast.walk(ast.parse(module.read_text("utf-8"))) if isinstance(n, ast.Attribute)}
    return names


@pytest.mark.parametrize("package", PACKAGES)
def test_r2_36_every_field_of_every_tables_model_is_read_by_a_rule(package: str) -> None:
    model = importlib.import_module(f"{module_of(package)}.tables").Tables
    read = _attributes_read(package)
    unread = [p for p, name in _fields(model) if name not in read and p.split(".")[0] not in UNREAD_BY_DESIGN]
    assert not unread, f"read by no rule of {package}: {unread}"


def test_r2_36_a_field_no_rule_reads_is_found() -> None:
    class Lonely(Section):
        read_nowhere_by_any_rule: int

    assert [p for p, n in _fields(Lonely) if n not in _attributes_read("fighting_spirit")] == [
        "read_nowhere_by_any_rule"
    ]


@pytest.mark.parametrize("package", PACKAGES)
def test_r2_36_every_key_of_every_tables_toml_is_a_field_of_its_model(package: str) -> None:
    model = importlib.import_module(f"{module_of(package)}.tables").Tables
    tables = model.of(base_values(package))
    assert set(tables.values) == set(base_values(package))
    with pytest.raises(InvalidInputError, match="not_a_rule_key: extra inputs are not permitted"):
        extra = next(iter(base_values(package))).rsplit(".", 1)[0] + ".not_a_rule_key"  # a key under a section
        model.of({**base_values(package), extra: Sourced(1, "INF")})


def test_a_malformed_tables_toml_is_refused_in_words() -> None:
    from campaign.rulesets.fighting_spirit.tables import Tables

    values = {**base_values("fighting_spirit"), "psi.ranks.pupil": Sourced("six", "INF")}
    with pytest.raises(
        InvalidInputError, match=re.escape("do not fit their model: psi.ranks.pupil: input should be a valid integer")
    ):
        Tables.of(values)
    missing = {p: v for p, v in base_values("fighting_spirit").items() if p != "panic.threat"}
    with pytest.raises(InvalidInputError, match=re.escape("panic.threat: field required")):
        Tables.of(missing)


def test_r2_36_a_house_rule_on_a_path_no_field_has_is_refused(table: FsTable) -> None:
    before = table.log_length()
    with pytest.raises(InvalidInputError, match=re.escape("no table value at 'last_stand.friends_within_range'")):
        table.ledger.execute(table.info, fs.HouseRule.build(path="last_stand.friends_within_range", value=10))
    with pytest.raises(InvalidInputError, match="same kind of value"):
        table.ledger.execute(table.info, fs.HouseRule.build(path="last_stand.end_capped_by_start", value=3))
    assert table.log_length() == before
    table.ledger.execute(
        table.info, fs.HouseRule.build(path="last_stand.other_die", value=8)
    )  # a field a rule reads is accepted
    assert table.log_length() > before


def test_a_house_rule_of_ntr_is_refused_where_the_model_takes_only_a_number(table: FsTable) -> None:
    # NTR is a threat cell's "no test required"; ``panic.threat`` is a number the panic test adds (§0.8), and
    # the program recorded NTR there once, to fail on the next panic test.
    before = table.log_length()
    with pytest.raises(InvalidInputError, match=re.escape("panic.threat holds 0; a house rule must give the same")):
        table.ledger.execute(table.info, fs.HouseRule.build(path="panic.threat", value="NTR"))
    assert table.log_length() == before
    table.ledger.execute(
        table.info, fs.HouseRule.build(path="threats.artillery.high", value="NTR")
    )  # a threat cell takes it
    assert table.log_length() > before


def test_r2_36_the_refusals_name_every_alternative() -> None:
    assert set(campaign.tables.house_rule_refusals("mass_combat")) == {"alternatives.c2_catastrophe_17_table.paths"}
    assert "threats.unverified_casualty.low" in str(
        campaign.tables.house_rule_refusals("fighting_spirit")["alternatives.a1_unverified_text.value"]
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

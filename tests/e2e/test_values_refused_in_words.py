"""A value that is not of its kind is refused in the program's words (never pydantic's words):
`fs funds Keno 1e6` said "Input should be a valid integer, unable to parse string as an integer"."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.cli.argv import in_words
from tests.e2e.test_cli import Cli


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("fs", "funds", "Keno", "1e6", "--reason", "x"), "Invalid value for 'amount': not a whole number"),
        (("fs", "rest", "1.5"), "Invalid value for 'days': not a whole number"),
        (
            ("fs", "muster", "A", "--side", "K", "--quality", "regular", "--lv", "x", "--size", "7"),
            "Invalid value for '--leadership' / '--lv': not a whole number",
        ),
    ],
)
def test_a_value_not_of_its_kind_is_refused_in_words(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    cli = Cli(str(tmp_path / "c.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    before = cli.events()
    refused = cli(*args, code=2)
    assert said in " ".join(refused.output.replace("│", " ").split())
    assert "Input should be" not in refused.output and cli.events() == before


@pytest.mark.parametrize(
    ("pydantic", "ours"),
    [
        ("Input should be a valid integer, unable to parse string as an integer", "not a whole number"),
        ("Input should be a valid integer, got a number with a fractional part", "not a whole number"),
        ("Input should be a valid boolean, unable to interpret input", "not true or false"),
        ("Input should be greater than or equal to 1", "it must be at least 1"),
        ("Input should be less than or equal to 500", "it must be at most 500"),
        ("Input should be a valid number, unable to parse string as a number", "not a number"),
        ("Input should be 'a' or 'b'", "'a' or 'b'"),
        ("'x' is not one of 'a', 'b'.", "'x' is not one of 'a', 'b'."),
    ],
)
def test_pydantic_s_words_are_put_in_the_program_s(pydantic: str, ours: str) -> None:
    assert in_words(pydantic) == ours


def test_a_house_rule_path_that_names_nothing_is_refused_with_the_nearest_one(tmp_path: Path) -> None:
    """A new user's `house-rule threats.unverified_casualty.lo 2` got the first eight `threats.` paths listed,
    none of them the one meant; now the nearest path is named, or the rest are counted and `tables` named."""
    cli = Cli(str(tmp_path / "c.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    before = cli.events()

    def refused(path: str) -> str:
        return " ".join(cli("fs", "house-rule", path, "2", code=2).stderr.split())

    near = "did you mean 'threats.unverified_casualty.low'?"
    assert near in refused("threats.unverified_casualty.lo")
    assert near in refused("threatz.unverified_casualty.low")
    under = sorted(cli.json("fs", "tables", "threats."))
    said = refused("threats.nothing")
    assert (
        f"values under 'threats': {', '.join(under[:8])} and {len(under) - 8} more (`tables threats.` lists them)"
        in (said)
    )
    assert "the tables' first parts are" in refused("qqq") and "threats" in refused("qqq")
    assert cli.events() == before

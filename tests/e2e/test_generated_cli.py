"""The command line is made from the command models (``campaign/cli/generated.py``): every command of every
ruleset is typed as its model declares it, and only what the rulesets' CLI modules write by hand is not.

The declaration is the model's: its docstring's first paragraph is the command's help, a field's description
its option's help, a field's default the option's; nothing is written twice (the old hand-written Typer
functions repeated each of them)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer
from typer.testing import CliRunner

from campaign.cli.generated import Extra, Typing, commands_of, ruleset_app
from campaign.cli.main import app
from campaign.commands import plugin
from campaign.rulesets import RULESETS
from campaign.rulesets.command import help_of
from campaign.rulesets.grimdark import commands as gfc
from campaign.rulesets.grimdark.plugin import PLUGIN as GRIMDARK
from campaign.rulesets.inputs import meanings
from tests.e2e.test_cli import SEED, Cli

HAND_WRITTEN = {"mc.battle", "gf.import_list"}
"""Commands whose interaction differs from their model's inputs: a battle, an Army Forge list read from a file."""


def help_page(*words: str) -> str:
    result = CliRunner().invoke(app, [*words, "--help"], env={"COLUMNS": "200"}, terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_command_model_is_a_command_helped_by_its_docstring(ruleset: str) -> None:
    info = RULESETS[ruleset]
    group = help_page(info.prefix)
    for model in plugin(ruleset).commands:
        for word, _, said, hidden in commands_of(model):
            if model.name in HAND_WRITTEN:
                break
            assert hidden or f" {word} " in group, (model.name, word)
            assert said == help_of(model) or "{}" not in said, model.name
            page = help_page(info.prefix, word)
            assert " ".join(said.split()) in " ".join(page.split()), (model.name, word)


def test_an_options_help_and_default_are_its_fields() -> None:
    page = " ".join(help_page("gf", "shoot").split())
    for field in ("wounds", "by", "models_lost"):
        assert meanings(gfc.Shoot)[field].description in page
    assert "--wounds" in page and "--models-lost" in page and "--by" in page
    assert "--dice" in page  # gf.shoot rolls: --dice, then the options every command takes
    disband = " ".join(help_page("gf", "disband").split())
    assert "[default: sold]" in disband  # the model's default (its own word for Grimdark: units are sold)


def test_a_command_typed_per_choice_is_one_command_each(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "d.db"))
    cli("new", "Front", "--ruleset", "fighting-spirit", "--seed", SEED)
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    for word, activity in (("rest", "rest"), ("forced-march", "forced_march"), ("front", "front")):
        appended = cli.json("fs", word, "1")["events"][0]["payload"]
        assert (appended["command"], appended["args"]["activity"]) == ("fs.days", activity)


def test_a_hand_written_part_may_add_options_to_a_generated_command(tmp_path: Path) -> None:
    """An extra option on a generated command (``--from FILE.csv`` on ``muster`` is one): given, its part runs
    instead of the command as typed, whose own inputs the command line then does not require (the part is told
    which were given and which required ones are missing); not given, it runs the command as typed."""
    seen: list[Any] = []

    def run(typing: Typing) -> None:
        seen.append((typing.extra["source"], typing.given, typing.missing))
        if typing.extra["source"] is None:
            typing.run()

    source = inspect.Parameter(
        "source",
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Annotated[str | None, typer.Option("--source")],
        default=None,
    )
    extra = Extra((source,), run, unless="Required, unless --source.")
    group = ruleset_app(GRIMDARK, "Grimdark, with an extra option", extras={"gf.muster": extra})
    db = str(tmp_path / "x.db")
    Cli(db)("new", "Sector 7", "--ruleset", "grimdark", "--seed", SEED)
    root = typer.Typer()
    root.add_typer(group, name="gf")

    @root.callback()
    def _db(db: Annotated[str, typer.Option("--db")] = "campaign.db") -> None:
        from campaign.cli.session import state

        state.db, state.actor, state.app = db, "tester", None

    runner = CliRunner()
    assert runner.invoke(root, ["--db", db, "gf", "muster", "--source", "army"]).exit_code == 0  # no NAME, no --side
    typed = ["--db", db, "gf", "muster", "Robot Squad", "--side", "Robots", "--size", "5", "--quality", "4"]
    result = runner.invoke(root, [*typed, "--points", "100"])
    assert result.exit_code == 0, result.output
    required = ("NAME", "--side", "--quality", "--points")  # --size too, checked where its old name --models is
    assert seen == [("army", (), required), (None, ("NAME", "--side", "--size", "--quality", "--points"), ())]
    assert "Robot Squad" in Cli(db)("status").stdout
    helped = " ".join(
        runner.invoke(root, ["gf", "muster", "--help"], env={"COLUMNS": "200"}, terminal_width=200).output.split()
    )
    assert "The army it belongs to. Required, unless --source." in helped

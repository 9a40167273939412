"""The generated command forms in the reader's language, and the command line's help of the same commands.

Every form of every ruleset's commands (and the ledger's own) is rendered in English and in Russian and Polish,
from the same models and the same campaign: the two renderings have the same controls in the same order, so
their words pair up one to one. A label, help text, choice, note or button left the same as its English is a
text the catalogs do not translate: the test fails on each, unless it is a name of the campaign (a unit, a side),
a number, or the command as it is typed (``fs attack``: a command's name is the same in every language).
The help of a command (the command line's ``--help``) and the help on its form are one catalog message.
"""

from __future__ import annotations

import functools
import re
from html.parser import HTMLParser
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from campaign.i18n import help_said, reading_in
from campaign.plugins import RULESETS
from campaign.server import forms, runner
from campaign.server.pages import templates
from campaign.typed_as import typed

UNITS = (("Keno 3rd Squad", "Keno"), ("Company HQ", "Steel"))
SIDES = ("Keno", "Steel")
CHOICES = forms.Choices(UNITS, SIDES, ("Hill 203",), ("Cpt Ivanov",), None)
PLAYER = forms.Choices(UNITS, SIDES, ("Hill 203",), ("Cpt Ivanov",), frozenset({"Keno"}))
ROLL = {
    "notation": "2d6",
    "purpose": "Keno 3rd Squad",  # a rule's words for its roll are the rule's: not the form's to translate
    "sides": 6,
    "side": "Keno",
    "on_table": True,
    "varies": True,
}
ABBREVIATIONS = {"TS", "ES", "XP", "LV", "NPC", "IQ", "DR", "TL", "PC", "d6", "2d6", "(e.g. 4,2)"}
"""What reads the same in the three languages: the games' own abbreviations, dice notation."""
SAME = {
    "ru": set(),
    # Polish words spelt as the English ones; "Quality" is seed 004's own word in its Polish text (OPR's term)
    "pl": {"android", "radio", "robot", "Morale", "mana", "plan", "Quality N+ (2–6)."},
}


class Words(HTMLParser):
    """The words a reader reads in a piece of a page: its text, and its options' and buttons' labels."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[str] = []

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text:
            self.said.append(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("hx-confirm", "placeholder", "title", "aria-label") and value:
                self.said.append(value)


def words(html: str) -> list[str]:
    parser = Words()
    parser.feed(html)
    return parser.said


def rendered(spec: runner.CommandSpec, choices: forms.Choices, state: str) -> str:
    """One command's form as the campaign page includes it (``state``: asked, dice to enter, no dice)."""
    dice: list[dict[str, Any]] | None = None
    if state == "dice":
        two, waiting = ["d6 (1 of 2)", "d6 (2 of 2)"], ["d6"]
        dice = [{**ROLL, "dice": two, "waiting": False}, {**ROLL, "dice": waiting, "waiting": True}]
    elif state == "none":
        dice = []
    context = {
        "c": spec,
        "typed_name": typed(spec.name),
        "slug": spec.name.replace(".", "-"),
        "widgets": forms.fields_of(spec.model, choices, {}),
        "form_error": "",
        "dice": dice,
        "waiting": [d for d in dice or () if d.get("waiting")],
        "answer": None,
        "info": SimpleNamespace(campaign_id="c1"),
        "csrf": "token",
    }
    # the summary line the campaign page shows above the form, through the template's own help_said
    assert templates.env.globals["help_said"] is help_said
    summary = help_said(spec.summary)
    return f"<p>{summary}</p>" + templates.env.get_template("command_form.html").render(context)


def allowed(text: str, spec: runner.CommandSpec, lang: str) -> bool:
    names = {n for unit in UNITS for n in unit} | set(SIDES) | {f"{u} ({s})" for u, s in UNITS}
    names |= {"Hill 203", "Cpt Ivanov", typed(spec.name)}
    return (
        text in names
        or text in ABBREVIATIONS
        or text in SAME[lang]
        or not re.search(r"[A-Za-z]{2,}", text)  # numbers, dice faces, signs
        or bool(re.fullmatch(r"d\d+( \(\d+ of \d+\))?", text))  # a die, as the rule's roll names it
    )


@functools.cache
def english_left() -> dict[str, list[str]]:
    """Each language's texts left as their English, over every form: as the game master sees it, as a player
    (its own sides' units only), and a rolling command's with its dice asked for and with none to roll."""
    left: dict[str, set[str]] = {"ru": set(), "pl": set()}
    for ruleset in RULESETS.values():
        for spec in runner.commands_for(ruleset.name):
            states = ("ask", "dice", "none") if spec.takes_table_dice else ("ask",)
            for choices, state in [(CHOICES, s) for s in states] + [(PLAYER, "ask")]:
                english = words(rendered(spec, choices, state))
                for lang, found in left.items():
                    with reading_in(lang):
                        said = words(rendered(spec, choices, state))
                    assert len(said) == len(english), f"{spec.name}: the {lang} form has other controls"
                    pairs = zip(english, said, strict=True)
                    found.update(f"{spec.name}: {e!r}" for e, s in pairs if e == s and not allowed(e, spec, lang))
    return {lang: sorted(found) for lang, found in left.items()}


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_every_command_form_of_every_ruleset_is_in_the_readers_language(lang: str) -> None:
    assert english_left()[lang] == []


def test_a_form_says_the_seeds_words_for_its_choices_and_the_help_the_command_line_says() -> None:
    muster = next(s for s in runner.commands_for("fighting-spirit") if s.name == "fs.muster")
    with reading_in("ru"):
        page = rendered(muster, CHOICES, "ask")
    assert ">Новобранцы</option>" in page and 'value="green"' in page  # seed 000's word, the recorded value
    assert "LV командира: 1 лучший … 6 худший" in page  # the field's description, as --help says it
    attack = next(s for s in runner.commands_for("fighting-spirit") if s.name == "fs.attack")
    with reading_in("ru"):
        page = rendered(attack, CHOICES, "ask")
    assert "Какие кубики бросать?" in page and "Бросить кубики кампании" in page and "Which dice" not in page
    battle = next(s for s in runner.commands_for("mass-combat") if s.name == "mc.battle")
    with reading_in("pl"):
        page = rendered(battle, CHOICES, "dice")
    assert "Rozstrzygnij dzień bitwy" in page and "Kości do rzutu" in page and "Czekamy na stronę Keno" in page
    assert "Zamiast tego rzuć kośćmi kampanii" in page and "Zapisz te kości" not in page  # a roll is Keno's
    assert ">Zieloni</option>" not in page  # (no quality on a battle's form)


@pytest.mark.parametrize(
    ("args", "said", "english"),
    [
        (["fs", "attack"], "Записать огонь или атаку врукопашную по подразделению", "Record fire or an assault"),
        (["fs", "attack"], "Командир подразделения выбыл.", "The unit's leader became a casualty."),
        (["mc", "battle"], "Разыграть день битвы: Катастрофы, Состязание Стратегий", "Resolve a battle day"),
        (["mc", "battle"], "Битва продолжится завтра.", "The battle goes on tomorrow."),
        (["verify"], "Проверить цепочку хешей", "Check the hash chain"),
    ],
)
def test_a_russian_help_of_a_command_is_russian(args: list[str], said: str, english: str) -> None:
    out = CliRunner().invoke(app, ["--lang", "ru", *args, "--help"], env={"COLUMNS": "400"})
    assert out.exit_code == 0, out.output
    flat = " ".join(out.output.replace("│", " ").split())
    assert said in flat and english not in flat
    assert "Показать эту справку и выйти." in flat and "╭─ Параметры" in flat and "Options" not in flat  # Typer's words
    english = CliRunner().invoke(app, ["--lang", "en", *args, "--help"], env={"COLUMNS": "400"}).output
    assert "╭─ Options" in english and "Параметры" not in english  # the same process, then in English again

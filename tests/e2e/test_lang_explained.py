"""Every ruleset's rule applications explained in the reader's language from what they recorded.

The demo's four campaigns (one in-process ``campaign demo``, shared by the module) hold today's records; the
fixture logs of ``tests/fixtures`` hold older ones. For each: the English rendering is the recorded sentence
(the languages never say different things), Russian and Polish are said in the seed's words, and a record too
thin to render is shown as recorded — never a traceback, never half a sentence."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from campaign.i18n.explain import RENDERERS, Beside, render

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CAMPAIGNS = {
    "disorder": "Demo disorder",
    "fighting-spirit": "Demo fighting-spirit",
    "grimdark": "Demo grimdark",
    "mass-combat": "Demo mass-combat",
}
RENDERED = {
    "disorder": {"models_lost", "morale_check", "retreat", "glory", "battle_end", "officer_removed"},
    "fighting-spirit": {"attack", "morale_test", "reaction_test", "panic_test", "rally", "psi"},
    "grimdark": {"activation", "wounds", "melee", "morale_test", "experience", "rewards", "battle_end"},
    "mass-combat": {
        "battle_day",
        "unit_morale",
        "battle_end",
        "same_enemy_this_year",
        "result",
        "payday",
        "survival",
        "glory",
    },
}
"""The rules of each demo campaign that must read in Russian and Polish (each occurs in the demo)."""


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, f"{args}: exit {result.exit_code}\n{result.output}"
    return result.output


def beside(events: list[Mapping[str, Any]]) -> Beside:
    thrown = [e["payload"] for e in events if e["type"] == "dice.rolled"]
    names: dict[str, str] = {}
    for e in events:
        p = e["payload"]
        if e["type"] in ("roster.unit_mustered", "battle.started") and "name" in p:
            names[p.get("unit_id") or p["battle_id"]] = p["name"]
    return Beside(
        names, {p["roll_index"]: p["total"] for p in thrown}, {p["roll_index"]: tuple(p["faces"]) for p in thrown}
    )


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, list[Mapping[str, Any]]]]:
    db = str(tmp_path_factory.mktemp("explained") / "demo.db")
    run("--db", db, "demo")
    logs = {r: orjson.loads(run("--db", db, "-c", c, "log", "--json"))["events"] for r, c in CAMPAIGNS.items()}
    return db, logs


def applied(events: list[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    return (e["payload"] for e in events if e["type"] == "rules.applied")


@pytest.mark.parametrize("ruleset", sorted(CAMPAIGNS))
def test_todays_decisions_read_in_each_language_and_say_in_english_what_was_recorded(
    demo: tuple[str, dict[str, list[Mapping[str, Any]]]], ruleset: str
) -> None:
    events = demo[1][ruleset]
    known = beside(events)
    said: dict[str, set[str]] = {"ru": set(), "pl": set()}
    for payload in applied(events):
        english = render(payload, known, "en")
        if english is not None:
            assert english == payload["explanation"], payload["rule"]
        for lang, rules in said.items():
            rendered = render(payload, known, lang)
            if rendered is not None:
                assert english is not None, f"{payload['rule']} says in {lang} what English does not"
                assert rendered != english, f"{payload['rule']} is left in English in {lang}"
                rules.add(str(payload["rule"]))
    for lang, rules in said.items():
        assert RENDERED[ruleset] <= rules, f"{ruleset} in {lang}: {sorted(RENDERED[ruleset] - rules)} as recorded"


@pytest.mark.parametrize("ruleset", sorted(CAMPAIGNS))
@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_every_rolls_purpose_the_rules_wrote_reads_in_the_readers_language(
    demo: tuple[str, dict[str, list[Mapping[str, Any]]]], ruleset: str, lang: str
) -> None:
    """A die the rules roll records what it is for in English ("communication test, Company HQ → Steel
    Veterans"); the log and the page say it in the reader's language — each purpose the demo's rules wrote has
    its template (a purpose a person typed, `campaign roll --purpose`, is shown as typed)."""
    from campaign.i18n import reading_in
    from campaign.i18n.purposes import purpose_said

    purposes = {e["payload"]["purpose"] for e in demo[1][ruleset] if e["type"] == "dice.rolled"}
    assert purposes
    with reading_in(lang):
        untranslated = sorted(p for p in purposes if purpose_said(p) == p)
    assert untranslated == []


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("logs_*/*.jsonl")), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_older_records_render_as_recorded_or_not_at_all(path: Path) -> None:
    """A record of an older program: its English rendering is its sentence, or there is none (and the view shows
    the sentence itself) — in Russian and Polish a sentence or None, never an error."""
    events = [e for e in (orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()) if "type" in e]
    known = beside(events)
    for payload in applied(events):
        english = render(payload, known, "en")
        assert english is None or english == payload["explanation"], (payload["rule"], english)
        for lang in ("ru", "pl"):
            rendered = render(payload, known, lang)
            assert rendered is None or (english is not None and rendered), payload["rule"]


def test_a_disorder_check_reads_in_the_seeds_words(demo: tuple[str, dict[str, list[Mapping[str, Any]]]]) -> None:
    """RULES.md §1.4: 2d6 + discipline − markers − models lost (+1 officer within 12"); ≥ 7 passes, 3–6 retreats.
    The Voltigeurs (discipline 1, officer near) lose 2 models to shooting and roll 2+2: 4 − 2 + 1 + 1 = 4 →
    a retreat of ½ move, no new marker. Seed 001's words: «проверка боевого духа», потери."""
    db = demo[0]
    ru = " ".join(run("--db", db, "-c", "Demo disorder", "--lang", "ru", "log").replace("│", " ").split())
    assert (
        'Voltigeurs, проверка боевого духа (потери): 4 (2+2) − 2 потерянные модели + 1 дисциплина + 1 офицер в 12" = 4 '
        "→ провал: отступает на половину дальности движения, нового маркера нет"
    ) in ru
    assert "Voltigeurs теряет 2 модели (стрельба): осталось 8" in ru  # 10 models − 2: the plural of 2–4
    pl = " ".join(run("--db", db, "-c", "Demo disorder", "--lang", "pl", "log").replace("│", " ").split())
    assert "Voltigeurs, sprawdzian morale (straty): 4 (2+2) − 2 utracone modele" in pl


def test_grimdark_reads_in_seed_004s_words(demo: tuple[str, dict[str, list[Mapping[str, Any]]]]) -> None:
    """RULES.md §4.1: a unit that loses a melee tests Quality on a d6 (an unmodified 1 fails); seed 004's Polish keeps
    OPR's English "Shaken" and "Quality": «Jednostka Shaken …», «test morale»."""
    events = demo[1]["grimdark"]
    known = beside(events)
    tests = [p for p in applied(events) if p["rule"] == "morale_test"]
    said = {render(p, known, "pl") for p in tests}
    assert "Robot Squad, test morale (przegrana walka wręcz): wyrzucono 5 przeciw Quality 4+: zdaje → trzyma się" in (
        said
    )
    shaken = "Saurian Hero, test morale (rany przy połowie stanu): wyrzucono 1: niezmodyfikowana 1 nie zdaje → Shaken"
    assert shaken in said
    wounds = next(p for p in applied(events) if p["rule"] == "wounds")
    # 5 wounds on Tough(1) models: 5 killed of 11 (10 and the hero), 6 left; the Polish plural of 5 is "ran"
    assert render(wounds, known, "pl") == "Saurian Warriors otrzymuje 5 ran: zabitych 5 modeli, zostało 6 z 11"
    assert render(wounds, known, "ru") == "Saurian Warriors получает 5 ран: убито 5 моделей, осталось 6 из 11"


def test_every_ruleset_has_renderers_in_a_module_of_its_own() -> None:
    render({"ruleset": "grimdark", "rule": "activation"}, Beside(), "ru")  # loads its module, as a view does
    for ruleset in CAMPAIGNS:
        render({"ruleset": ruleset, "rule": "-"}, Beside(), "ru")
        assert any(r == ruleset for r, _rule in RENDERERS), ruleset


def test_a_ruleset_commands_help_in_the_readers_language() -> None:
    """The help generated from disorder's and Grimdark's command models (docstrings, field descriptions), in their
    seeds' words."""
    ru = " ".join(run("--lang", "ru", "dis", "check", "--help").replace("│", " ").split())
    assert "Проверка боевого духа без потерь (§1.3): одна проверка на все причины, −1 за каждую лишнюю." in ru
    assert "В сомкнутом строю или каре (+1)." in ru
    pl = " ".join(run("--lang", "pl", "dis", "--help").replace("│", " ").split())
    assert "Test zbiórki (§1.6)" in pl
    assert "A morale check without casualties (§1.3)" in run("dis", "check", "--help")  # English stays English
    # Grimdark's, in seed 004's Polish: OPR's own Rout kept
    gf = " ".join(run("--lang", "pl", "gf", "melee", "--help").replace("│", " ").split())
    assert "porażka przy połowie stanu — Rout." in gf


@pytest.mark.parametrize(
    ("lang", "inputs"),
    [
        ("ru", ["выбор пси-взрыва две градации", "воздействие пси-удар"]),
        ("pl", ["wybór wybuchu psi dwa stopnie", "oddziaływanie uderzenie psi"]),
    ],
)
def test_a_psi_commands_inputs_read_in_the_seeds_words(
    demo: tuple[str, dict[str, list[Mapping[str, Any]]]], lang: str, inputs: list[str]
) -> None:
    """The psion's action (its effect, and a psi-blast's choice of two grades or panic, §0.8) was shown as
    recorded, "psi strike", "grades", in a Russian log's command line."""
    log = " ".join(
        run("--db", demo[0], "--lang", lang, "-c", CAMPAIGNS["fighting-spirit"], "log").replace("│", " ").split()
    )
    for said in inputs:
        assert said in log
    assert "psi strike" not in log and "psi_strike" not in log


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ru", "команда mc battle (бой Battle for Bannok 1, последний день,"),
        ("pl", "polecenie mc battle (bitwa Battle for Bannok 1, ostatni dzień,"),
        ("en", "command mc battle (battle Battle for Bannok 1, final day,"),
    ],
)
def test_a_command_names_what_it_refers_to_in_the_readers_words(
    demo: tuple[str, dict[str, list[Mapping[str, Any]]]], lang: str, said: str
) -> None:
    """A command's input that names a battle or a unit by its id is said as the field's words and the name ("бой
    Battle for Bannok 1"); the field was said in English ("battle Battle for Bannok 1") in every language."""
    log = " ".join(
        run("--db", demo[0], "--lang", lang, "-c", CAMPAIGNS["mass-combat"], "log").replace("│", " ").split()
    )
    assert said in log

"""Five-grade morale's rally, psi and surrender said in Russian and Polish, from what their records hold.

One battle at the table (in-process, shared by the module) plays RULES.md's own cases; the values below are worked
by hand from §0.3, §0.6 and §0.10 (third edition), and the words are seed 000's (тест на связь, тест на
воодушевление, куб качества, ступень, the grade names). A record made before these rules recorded their terms
(the committed fixture logs) still reads as recorded, and verifies."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.recorded import JsonObject
from tests.e2e.test_cli import Cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def said(cli: Cli, lang: str) -> str:
    """The log in ``lang``, its table's borders and wrapping taken out."""
    return " ".join(cli("--lang", lang, "log").stdout.replace("│", " ").split())


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    cli = Cli(str(tmp_path_factory.mktemp("said_fs") / "fs.db"))
    cli("new", "Otlok Front", "--ruleset", "fighting-spirit")
    steel = ("--side", "Steel", "--quality", "veteran", "--lv", "2", "--radio")
    cli("fs", "muster", "Company HQ", *steel, "--size", "5")
    cli("fs", "muster", "Platoon HQ", *steel, "--size", "4", "--reports-to", "Company HQ")
    cli("fs", "muster", "Steel Veterans", *steel, "--size", "10", "--reports-to", "Platoon HQ")
    cli("fs", "muster", "Keno 3rd Squad", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "7")
    cli("fs", "muster", "Barf-jat Master", "--side", "Keno", "--quality", "regular", "--lv", "2", "--size", "1",
        "--psi-rank", "master")  # fmt: skip
    cli("fs", "battle-start", "Hill 203", "--side", "Keno=low", "--side", "Steel=medium",
        "--unit", "Keno 3rd Squad=fresh", "--unit", "Barf-jat Master=fresh", "--unit", "Company HQ=tired",
        "--unit", "Platoon HQ=tired", "--unit", "Steel Veterans=tired,cover")  # fmt: skip
    # E4 (§0.6): 2 wounded, then the wounded abandoned, then 1 more wounded: Steel Veterans are Broken (Ра)
    cli("fs", "attack", "Steel Veterans", "--wounded", "2", "--dice", "1")
    cli("fs", "wounded", "Steel Veterans", "--abandoned")
    cli("fs", "attack", "Steel Veterans", "--wounded", "1", "--dice", "9")
    cli("fs", "rally", "Steel Veterans", "--officer", "Company HQ", "--distance", "20", "--dice", "2")
    cli("fs", "rally", "Steel Veterans", "--officer", "Company HQ", "--distance", "20", "--dice", "5,8")
    # §0.10: confusion needs ≥ 4; 15" is the second 12" band, so the master's d8 is shifted one step, to d6
    cli("fs", "psi", "Barf-jat Master", "Platoon HQ", "--effect", "confusion", "--distance", "15", "--dice", "4")
    # psi-blast needs ≥ 7 on the d8 (first band): Shaken (По) − 2 grades = Routed (Бе, the last)
    cli("fs", "psi", "Barf-jat Master", "Steel Veterans", "--effect", "psi_blast", "--distance", "5", "--dice", "7")
    # §0.3: a Routed unit with an enemy within 12" surrenders (6" ≤ 12")
    cli("fs", "surrender", "Steel Veterans", "--enemy-within", "6")
    return cli


def test_e4s_rally_reads_in_seed_000s_words(battle: Cli) -> None:
    """E4a: the company CO's d10 shifted one step for the one bypassed link → d8, need > max(2, 2) = 2, rolled 2:
    the action is wasted. E4b: comms 5 > 2; target 2 + 2 + 0 (unverified, medium) + 2 (abandoned wounded) = 6,
    d10 rolled 8 > 6 → Ра → По."""
    ru, pl = said(battle, "ru"), said(battle, "pl")
    assert (
        "Company HQ воодушевляет Steel Veterans: тест на связь: куб качества офицера к10, −1 ступень за пропущенные "
        "звенья → к8; нужно больше 2 (худшее лидерство); выпало 2 → провал, действие потрачено впустую"
    ) in ru
    assert (
        "выпало 5; тест на воодушевление: лидерство 2 + лидерство 2 + угроза 2 (непроверенная потеря +0 + брошены "
        "раненые +2) = 6; на к10 выпало 8 → Разбитый → Потрясенный"
    ) in ru
    assert (
        "Company HQ zbiera Steel Veterans: test łączności: kość jakości oficera k10, −1 stopień za pominięte ogniwa "
        "→ k8; potrzeba więcej niż 2 (gorsze przywództwo); wypadło 2 → niepowodzenie, akcja stracona"
    ) in pl
    assert (
        "test zbiórki: przywództwo 2 + przywództwo 2 + zagrożenie 2" in pl and "= 6; na k10 wypadło 8 → Złamany" in pl
    )


def test_psi_reads_in_seed_000s_words(battle: Cli) -> None:
    ru, pl = said(battle, "ru"), said(battle, "pl")
    assert (
        "Barf-jat Master, пси-воздействие «замешательство» на Platoon HQ: на к6 (−1 ступень за зоны дальности) "
        "выпало 4, нужно ≥ 4 → успех: Platoon HQ теряет активацию"
    ) in ru
    assert (
        "Barf-jat Master, oddziaływanie psi „dezorientacja” na Platoon HQ: na k6 (−1 stopień za strefy zasięgu) "
        "wypadło 4, potrzeba ≥ 4 → sukces: Platoon HQ traci aktywację"
    ) in pl
    assert "на к8 выпало 7, нужно ≥ 7 → успех: −2 степени боевого духа (Потрясенный → Бегущий)" in ru
    assert "na k8 wypadło 7, potrzeba ≥ 7 → sukces: −2 stopnie morale (Wstrząśnięty → Uciekający)" in pl


def test_a_surrender_reads_in_seed_000s_words(battle: Cli) -> None:
    assert 'Steel Veterans; Бегущий, противник в 6" (в пределах 12") → сдаётся' in said(battle, "ru")
    assert 'Steel Veterans; Uciekający, wróg o 6" (w zasięgu 12") → poddaje się' in said(battle, "pl")
    assert 'Steel Veterans; Routed with an enemy 6" away (within 12") → surrenders' in said(battle, "en")


@pytest.mark.parametrize("plural", [(2, "−2 ступени", "−2 stopnie"), (1, "−1 ступень", "−1 stopień")])
def test_range_steps_take_each_languages_plural(plural: tuple[int, str, str]) -> None:
    """§0.10: each 12" band beyond the first shifts the psi die one step: 25" is the third band (−2 steps)."""
    from campaign.i18n.explain import Beside, render

    steps, ru, pl = plural
    payload: JsonObject = {
        "ruleset": "fighting-spirit", "rule": "psi", "unit_id": "u", "dice": [1], "outcome": {"result": "fail"},
        "inputs": {"psion": "p", "effect": "panic", "bands": steps + 1, "die": 8 - 2 * steps, "need": 4},
    }  # fmt: skip
    known = Beside({"u": "Keno 3rd Squad", "p": "Barf-jat Master"}, {1: 3})
    assert f"({ru} за зоны дальности) выпало 3, нужно ≥ 4 → провал" in str(render(payload, known, "ru"))
    assert f"({pl} za strefy zasięgu) wypadło 3, potrzeba ≥ 4 → niepowodzenie" in str(render(payload, known, "pl"))


def test_records_made_before_read_as_recorded_and_verify(tmp_path: Path) -> None:
    """The demo log exported on 2026-12-01 holds a psi strike and a rally recorded with their English alone: a
    Russian log shows those sentences as recorded, and the log verifies."""
    cli = Cli(str(tmp_path / "old.db"))
    cli("import", str(FIXTURES / "logs_2026_12_01" / "fighting-spirit.jsonl"))
    ru = said(cli, "ru")
    assert "Barf-jat Master psi psi strike on Steel Veterans: d8 rolled 4, need ≥ 4 → succeeds" in ru
    assert "Company HQ rallies Steel Veterans: communication: officer quality d10" in ru
    [report] = cli.json("verify")
    assert report["ok"] is True, report


def test_a_polish_log_says_event_kinds_and_command_inputs_in_polish(battle: Cli) -> None:
    """The kinds ("zasady · zastosowano", not "rules · applied") and a command's inputs labelled in words (the
    audit page's labels: ``describe.label``), not by their field names."""
    pl = said(battle, "pl")
    assert "rules · applied" not in pl and "timeline · command issued" not in pl
    assert "zasady · zastosowano" in pl and "oś czasu · polecenie" in pl and "kości · rzut" in pl
    assert "polecenie fs surrender Steel Veterans (wróg w zasięgu 6)" in pl
    assert "odległość 15, oddziaływanie dezorientacja, w polu widzenia, psionik Barf-jat Master, cel Platoon HQ)" in pl
    ru = said(battle, "ru")
    assert "правила · применено" in ru and "команда fs surrender Steel Veterans (противник в пределах 6)" in ru
    en = said(battle, "en")
    assert "rules · applied" in en and "command fs surrender Steel Veterans (enemy within 6)" in en


def test_a_page_of_the_log_says_its_rules_in_polish_with_dice_rolled_before_it(battle: Cli) -> None:
    """``--last 1`` shows the surrender's psi blast page without its roll: the roll is read from before the page."""
    page = " ".join(battle("--lang", "pl", "log", "--type", "rules", "--last", "2").stdout.replace("│", " ").split())
    assert "na k8 wypadło 7, potrzeba ≥ 7 → sukces" in page


def test_every_event_type_has_its_kind_in_words() -> None:
    import campaign.commands  # noqa: F401 (every family registered)
    from campaign.read.describe import KINDS
    from events.registry import registry

    assert set(registry.names()) <= set(KINDS)

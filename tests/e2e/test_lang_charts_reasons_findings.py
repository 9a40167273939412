"""The reasons the rules record and verify's findings, said in the reader's language (ru, pl)
where they are shown, while the log and ``--json`` keep the recorded English (the recorded text is hashed).

The Grimdark match is tests/e2e/test_grimdark_cli.py's (RULES.md §4): the Saurian Warriors (10 models, Quality
4+) and their joined Hero lose 6 of 11 (a failed morale test: Shaken), then lose a melee while Shaken and Rout
(§4.1: a Shaken unit that loses a melee Routs), recorded as ``battle.unit_removed`` with reason "routed"."""

from __future__ import annotations

import orjson
import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from campaign.i18n import reading_in
from campaign.read.verify import finding_said
from events.verify import Finding

SEED = "00" * 32


def run(db: str, *args: str) -> str:
    result = CliRunner().invoke(app, ["--db", db, *args], env={"CAMPAIGN_LANG": "", "COLUMNS": "200"})
    assert result.exit_code == 0, f"{args}: exit {result.exit_code}\n{result.output}"
    return " ".join(result.output.replace("│", " ").split())


@pytest.fixture(scope="module")
def routed(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A Grimdark match with two units routed, its campaign's seed typed in (`new --seed`: flagged by verify)."""
    db = str(tmp_path_factory.mktemp("routed") / "gf.db")
    run(db, "new", "Sector 7", "--ruleset", "grimdark", "--seed", SEED)
    run(db, "gf", "muster", "Saurian Warriors", "--side", "Saurians", "--models", "10", "--quality", "4",
        "--points", "140")  # fmt: skip
    run(db, "gf", "muster", "Saurian Hero", "--side", "Saurians", "--models", "1", "--quality", "3", "--tough", "3",
        "--hero", "--points", "60")  # fmt: skip
    run(db, "gf", "muster", "Robot Squad", "--side", "Robots", "--models", "10", "--quality", "4", "--points", "150")
    run(db, "gf", "battle-start", "Ruins", "--unit", "Saurian Warriors", "--unit", "Saurian Hero",
        "--unit", "Robot Squad", "--join", "Saurian Hero=Saurian Warriors")  # fmt: skip
    run(db, "gf", "shoot", "Saurian Warriors", "--wounds", "6", "--by", "Robot Squad", "--dice", "2")
    run(db, "gf", "melee", "Saurian Warriors", "Robot Squad", "--a-wounds", "1", "--b-wounds", "2")
    return db


def test_a_reason_the_rules_recorded_is_said_in_the_readers_language_and_recorded_as_it_was(routed: str) -> None:
    # the hero joined to the routed unit shares its fate (§4.1), its reason the rules' "routed"
    assert "Saurian Hero, joined to Saurian Warriors, shares its fate: routed" in run(routed, "log", "--lang", "en")
    ru = run(routed, "log", "--lang", "ru")
    assert "Saurian Hero, присоединённый к Saurian Warriors, разделяет его судьбу: бежал" in ru
    assert "Saurian Hero, dołączona do Saurian Warriors, dzieli jej los: uciekła" in run(routed, "log", "--lang", "pl")
    events = orjson.loads(run(routed, "log", "--all", "--json", "--lang", "ru"))["events"]
    removed = [e["payload"]["reason"] for e in events if e["type"] == "battle.unit_removed"]
    assert removed == ["routed", "routed"]  # what is recorded (and hashed) stays the rules' English


def test_verify_says_its_flag_in_the_readers_language_and_the_json_keeps_the_checkers_words(routed: str) -> None:
    ru = run(routed, "verify", "--lang", "ru")
    assert "выбранное зерно: зерно эпохи 0 ввёл создатель кампании (new --seed)" in ru
    assert "chosen seed" not in ru
    pl = run(routed, "verify", "--lang", "pl")
    assert "wybrane ziarno: ziarno epoki 0 wpisał twórca kampanii (new --seed)" in pl
    [report] = orjson.loads(run(routed, "verify", "--json", "--lang", "ru"))
    assert [f["check"] for f in report["flags"]] == ["chosen seed"]
    assert report["flags"][0]["message"].startswith("the seed of epoch 0 was typed in by the campaign's creator")


def test_the_checkers_findings_are_said_again_with_their_values() -> None:
    """A failure as `verify` prints it, from the checker's own words (events.verify), values kept."""
    gap = Finding(7, "battle.shot", "sequence", "expected seq 6, found 7 (an event is missing)")
    wrong = Finding(3, "dice.rolled", "dice", "roll 2 recorded [4] but the seed gives [5]")
    unknown = Finding(4, "dice.rolled", "dice", "some future wording")
    with reading_in("ru"):
        assert (
            finding_said(gap) == "запись #7 (battle · shot): порядок: ожидалась запись #6, найдена #7 (событие пропало)"
        )
        assert finding_said(wrong) == "запись #3 (кости · бросок): кубики: бросок 2 записан как [4], но зерно даёт [5]"
        assert finding_said(unknown).endswith(": some future wording")  # not matched: as the checker said it
    with reading_in("pl"):
        assert (
            finding_said(gap)
            == "wpis #7 (battle · shot): kolejność: oczekiwano wpisu #6, znaleziono #7 (brakuje zdarzenia)"
        )
    assert finding_said(gap) == str(gap)  # English: the checker's words


def test_an_event_with_the_rules_reason_is_described_in_the_readers_language() -> None:
    """The event itself, as `log --all` and the page's log describe it (describe.py), beside its English."""
    from campaign.read.describe import describe
    from events.envelope import RecordedEvent

    removed = RecordedEvent(1, "c", 9, "battle.unit_removed", 1, {"battle_id": "b", "unit_id": "u", "reason": "routed"},
                            {}, "", "")  # fmt: skip
    names = {"u": "Saurian Warriors", "b": "Ruins"}
    assert describe(removed, names) == "Saurian Warriors leaves the battle: routed"
    with reading_in("ru"):
        assert describe(removed, names).endswith(": бежал")
    typed = removed._replace(payload={**removed.payload, "reason": "fled the field"})
    with reading_in("pl"):
        assert describe(typed, names).endswith(": fled the field")  # a reason a person typed: as typed

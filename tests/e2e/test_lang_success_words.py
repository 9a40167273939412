"""What a new user playing in Polish and Russian still met in English: the command line's own success lines
(`new`, `reveal`, `user add`, `invite --link`, `serve`, and the others of its commands), an activation's line in
the log ("Ёжики: unit activated (turn 1)"), "1 men left" in an amend's preview, and `fs edit --set
quality=Weterani` refused where `fs muster --quality Rekruci` is read. The expected words are written by hand: the
catalog's Russian and Polish, the seeds' terms (`terms.toml`: Weterani, Ветераны)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from campaign.cli.main import app
from tests.e2e import walkthroughs
from tests.e2e.test_cli import Cli


def said(cli: Cli, lang: str, *args: str, code: int = 0, stdin: str | None = None) -> str:
    """What a command prints (its output and its errors) for a reader of ``lang``, on one line per line."""
    result = cli.runner.invoke(
        app, ["--db", cli.db, "--actor", "tester", "--lang", lang, *args], input=stdin, env={"COLUMNS": "1000"}
    )
    assert result.exit_code == code, result.output
    return str(result.output)


@pytest.mark.parametrize(
    ("lang", "created", "revealed"),
    [
        ("en", "Campaign Otlok Front created (fighting-spirit).", "Otlok Front: seed of epoch 0 revealed."),
        ("pl", "Kampania Otlok Front utworzona (fighting-spirit).", "Otlok Front: ziarno epoki 0 ujawnione."),
        ("ru", "Кампания Otlok Front создана (fighting-spirit).", "Otlok Front: зерно эпохи 0 раскрыто."),
    ],
)
def test_new_and_reveal_say_they_succeeded_in_the_readers_language(
    tmp_path: Path, lang: str, created: str, revealed: str
) -> None:
    cli = Cli(str(tmp_path / "c.db"))
    assert said(cli, lang, "new", "Otlok Front", "--ruleset", "fighting-spirit").splitlines()[0] == created
    assert said(cli, lang, "reveal").splitlines()[0] == revealed


@pytest.mark.parametrize(
    ("lang", "account", "player", "observer"),
    [
        (
            "en",
            "account mistrz created",
            "Front Wschodni: a link for a player for Сталь, open until ",
            "Front Wschodni: a link for an observer, open until ",
        ),
        (
            "pl",
            "konto mistrz utworzone",
            "Front Wschodni: link dla gracza strony Сталь, ważny do ",
            "Front Wschodni: link dla obserwatora, ważny do ",
        ),
        (
            "ru",
            "учётная запись mistrz создана",
            "Front Wschodni: ссылка для игрока за Сталь, действует до ",
            "Front Wschodni: ссылка для наблюдателя, действует до ",
        ),
    ],
)
def test_an_account_and_a_link_are_said_made_in_the_readers_language_each_role_worded_whole(
    tmp_path: Path, lang: str, account: str, player: str, observer: str
) -> None:
    cli = Cli(str(tmp_path / "c.db"))
    cli("new", "Front Wschodni", "--ruleset", "fighting-spirit")
    cli("fs", "muster", "Рота", "--side", "Сталь", "--quality", "green", "--lv", "2", "--size", "5")
    assert said(cli, lang, "user", "add", "Mistrz", "--password-stdin", stdin="a long password\n").strip() == account
    cli("invite", "mistrz", "--role", "gm")
    for role, expected in (("player", player), ("observer", observer)):
        sides = ["--side", "Сталь"] if role == "player" else []
        first = said(cli, lang, "invite", "--link", "--role", role, *sides).splitlines()[0]
        assert first.startswith(expected), first
        ends = {"en": "(shown once):", "pl": "(pokazany raz):", "ru": "(показана один раз):"}[lang]
        assert first.endswith(ends), first


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "serving {db} on http://127.0.0.1:8123/ (Ctrl-C stops)"),
        ("pl", "serwer: {db} pod adresem http://127.0.0.1:8123/ (Ctrl-C zatrzymuje)"),
        ("ru", "сервер: {db} по адресу http://127.0.0.1:8123/ (остановить — Ctrl-C)"),
    ],
)
def test_serve_says_where_it_serves_in_the_readers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, expected: str
) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: None)
    db = tmp_path / "served.db"
    done = CliRunner().invoke(app, ["--lang", lang, "serve", "--port", "8123"], env={"CAMPAIGN_DB": str(db)})
    assert done.exit_code == 0, done.output
    assert expected.format(db=db) in done.output


@pytest.mark.parametrize(
    ("lang", "activated"),
    [
        ("en", "Keno 3rd Squad: unit activated (turn 1)"),
        ("pl", "Keno 3rd Squad: oddział aktywowany (tura 1)"),
        ("ru", "Keno 3rd Squad: подразделение активировано (ход 1)"),
    ],
)
def test_an_activation_is_said_in_the_readers_language(tmp_path: Path, lang: str, activated: str) -> None:
    """Said as the command's echo (the page's answer reads the same words: `readable`) and in the log."""
    cli = walkthroughs.five_grade(Cli(str(tmp_path / "fs.db")))
    assert activated in said(cli, lang, "fs", "activate", "Keno 3rd Squad")
    assert activated in said(cli, lang, "log")


@pytest.mark.parametrize(
    ("lang", "was", "now"),
    [
        (
            "en",
            "was: Company HQ attacked: 3 killed, 0 wounded; 2 men left",
            "now: Company HQ attacked: 4 killed, 0 wounded; 1 man left",
        ),
        (
            "pl",
            "było: Company HQ: atak — zabitych 3, rannych 0; zostało 2 ludzi",
            "jest: Company HQ: atak — zabitych 4, rannych 0; został 1 człowiek",
        ),
        (
            "ru",
            "было: Company HQ: атака — убито 3, ранено 0; осталось 2 человека",
            "стало: Company HQ: атака — убито 4, ранено 0; остался 1 человек",
        ),
    ],
)
def test_one_man_left_is_said_in_the_singular(tmp_path: Path, lang: str, was: str, now: str) -> None:
    """Company HQ musters 5 men (README): 3 killed leave 2, 4 killed leave 1."""
    cli = walkthroughs.five_grade(Cli(str(tmp_path / "fs.db")))
    attack = cli.json("fs", "attack", "Company HQ", "--killed", "3", "--dice", "2")["events"][0]["seq"]
    preview = said(cli, lang, "amend", str(attack), "--set", "killed=4", "--dry-run")
    lines = [line.strip() for line in preview.splitlines()]
    assert was in lines and now in lines, preview


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_an_edit_reads_a_quality_in_the_seeds_words_and_records_its_value(tmp_path: Path, lang: str) -> None:
    cli = walkthroughs.five_grade(Cli(str(tmp_path / "fs.db")))
    said(cli, lang, "fs", "edit", "Keno 3rd Squad", "--set", "quality=Weterani")
    said(cli, lang, "fs", "edit", "Company HQ", "--set", "quality=Новобранцы")
    events = cli.json("log")["events"]
    edits = [e["payload"] for e in events if e["type"] == "timeline.command_issued"]
    commands = [p["args"]["changes"] for p in edits if p["command"] == "fs.edit"]
    changed = [e["payload"]["profile"] for e in events if e["type"] == "roster.unit_profile_changed"]
    assert commands == [{"quality": "veteran"}, {"quality": "green"}], "the command holds the value, not the word"
    assert changed == [{"quality": "veteran"}, {"quality": "green"}]


@pytest.mark.parametrize(
    ("lang", "listed"),
    [
        ("en", "'untrained', 'green', 'regular', 'veteran' or 'elite'"),
        ("pl", "„Niewyszkoleni”, „Rekruci”, „Regularni”, „Weterani” lub „Elita”"),
    ],
)
def test_an_edit_refused_lists_the_qualities_in_the_seeds_words(tmp_path: Path, lang: str, listed: str) -> None:
    cli = walkthroughs.five_grade(Cli(str(tmp_path / "fs.db")))
    before = cli.events()
    refused = said(cli, lang, "fs", "edit", "Keno 3rd Squad", "--set", "quality=Wetrani", code=2)
    assert listed in refused and "Traceback" not in refused
    assert cli.events() == before


def test_other_lines_of_the_cli_are_said_in_polish(tmp_path: Path) -> None:
    """`treasury` of a ruleset without pay, `entropy show`, and the dice a command needs (`--dice-needed`)."""
    cli = walkthroughs.grimdark(Cli(str(tmp_path / "gf.db")))
    treasury = said(cli, "pl", "treasury")
    assert "grimdark nie zna żołdu: żadnemu oddziałowi nic się nie należy." in treasury
    shown = said(cli, "pl", "entropy", "show")
    assert "Sector 7, epoka ziarna 0: otwarta: udziały są przyjmowane do jej pierwszego rzutu z ziarna" in shown
    assert "brak zatwierdzonych udziałów: jej kości wynikają z samego ziarna" in shown
    english = re.compile(r"\b(no shares committed|seed epoch|has no pay|open: shares)\b")
    assert not english.search(treasury + shown)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "What if branches from Sector 7 at #{at}: {at} events shared, head #"),
        ("pl", "What if odgałęzia się od Sector 7 w #{at}: {at} wspólnych zdarzeń, wierzchołek #"),
        ("ru", "What if ответвляется от Sector 7 на #{at}: общих {at} событий, вершина #"),
    ],
)
def test_a_branch_says_what_it_shares_in_the_readers_language(tmp_path: Path, lang: str, expected: str) -> None:
    """Sector 7 mustered holds 7 events (created; three musters, each its command and its unit): 7 takes the
    plural that 5–20 take in Russian and Polish (событий, zdarzeń)."""
    cli = walkthroughs.grimdark(Cli(str(tmp_path / "gf.db")))
    head = cli.json("log")["events"][-1]["seq"]
    assert head == 7
    assert said(cli, lang, "branch", "What if", "--at", str(head)).startswith(expected.format(at=head))


@pytest.mark.parametrize(
    ("lang", "committed", "revealed"),
    [
        (
            "en",
            "Sector 7: share of entropy committed for epoch 0.",
            "seed of epoch 0 revealed with its 1 share of entropy: every roll made with it can now be checked",
        ),
        (
            "pl",
            "Sector 7: udział entropii dla epoki 0 zatwierdzony.",
            "ziarno epoki 0 ujawnione wraz z 1 udziałem entropii: każdy rzut wykonany z nim można teraz sprawdzić",
        ),
        (
            "ru",
            "Sector 7: доля энтропии для эпохи 0 зафиксирована.",
            "зерно эпохи 0 раскрыто вместе с 1 долей энтропии: теперь можно проверить каждый сделанный с ним бросок",
        ),
    ],
)
def test_a_share_of_entropy_and_its_reveal_are_said_in_the_readers_language(
    tmp_path: Path, lang: str, committed: str, revealed: str
) -> None:
    cli = walkthroughs.grimdark(Cli(str(tmp_path / "gf.db")))
    assert said(cli, lang, "entropy", "commit", "the moon over Kessel").splitlines()[0] == committed
    assert revealed in said(cli, lang, "reveal")


@pytest.mark.parametrize(
    ("lang", "recruited"),
    [
        ("en", "Keno 3rd Squad: 3 men recruited (recruit, experience 0, cost 0)"),
        ("pl", "Keno 3rd Squad: zwerbowano 3 ludzi (uzupełnienie, doświadczenie 0, koszt 0)"),
        ("ru", "Keno 3rd Squad: набрано 3 человека (пополнение, опыт 0, стоимость 0)"),
    ],
)
def test_recruits_of_the_five_grades_are_said_in_the_readers_language(
    tmp_path: Path, lang: str, recruited: str
) -> None:
    """README's `fs recruit "Keno 3rd Squad" --men 3` after Hill 203: its men join as recruits (no quality of the
    seed's five: "Rekruci" and "Новобранцы" are its green)."""
    cli = walkthroughs.five_grade(Cli(str(tmp_path / "fs.db")))
    cli("fs", "battle-end", "--result", "the patrol withdrew", "--winner", "Steel")
    cli("fs", "recruit", "Keno 3rd Squad", "--men", "3")
    assert recruited in said(cli, lang, "log")


@pytest.mark.parametrize(
    ("lang", "needs", "order"),
    [
        (
            "en",
            "Otlok Front: fs attack needs 1 die: 1 d8 (nothing was recorded)",
            "  1. d8 for morale test of Keno 3rd Squad",
        ),
        (  # a Polish player writes a d8 as k8
            "pl",
            "Otlok Front: polecenie fs attack potrzebuje: 1 kość: 1 k8 (nic nie zapisano)",
            "  1. k8 na „test morale: Keno 3rd Squad”",
        ),
        (  # a Russian player writes it as the seed does: к8 (a Cyrillic к)
            "ru",
            "Otlok Front: команде fs attack нужно 1 кубик: 1 к8 (ничего не записано)",
            "  1. к8 на «тест на боевой дух: Keno 3rd Squad»",
        ),
    ],
)
def test_the_dice_a_command_needs_are_said_in_the_readers_language(
    tmp_path: Path, lang: str, needs: str, order: str
) -> None:
    """Keno 3rd Squad's attack calls for its morale test on a d8 (Hill 203, README)."""
    cli = walkthroughs.five_grade(Cli(str(tmp_path / "fs.db")))
    shown = said(cli, lang, "fs", "attack", "Keno 3rd Squad", "--killed", "2", "--dice", "count").splitlines()
    assert shown[:2] == [needs, order]


@pytest.mark.parametrize(
    ("lang", "one", "second", "wrong"),
    [
        (
            "en",
            "Morale test of Keno 3rd Squad: d8?",
            "Morale test of Keno 3rd Squad: d6 (2 of 2 for 2d6) [still on the table: 5]?",
            "'9' is not a face of a d8: type a number from 1 to 8",
        ),
        (
            "pl",
            "Test morale: Keno 3rd Squad: k8?",
            "Test morale: Keno 3rd Squad: k6 (2. z 2 dla 2k6) [wciąż na stole: 5]?",
            "'9' to nie ścianka k8: wpisz liczbę od 1 do 8",
        ),
        (
            "ru",
            "Тест на боевой дух: Keno 3rd Squad: к8?",
            "Тест на боевой дух: Keno 3rd Squad: к6 (2-й из 2 для 2к6) [ещё на столе: 5]?",
            "'9' — не грань к8: введите число от 1 до 8",
        ),
    ],
)
def test_dice_asked_for_at_the_terminal_are_written_as_the_readers_players_write_them(
    lang: str, one: str, second: str, wrong: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--dice ask`` asks for each die in the reader's language and dice notation (к8, k8), as ``--dice count``
    lists them."""
    import typer

    from campaign.cli.common import ask_die, question
    from campaign.i18n import reading_in
    from events.dice.ask import DieRequest

    purpose = "morale test of Keno 3rd Squad"
    typed = iter(["9", "4"])
    monkeypatch.setattr(typer, "prompt", lambda *_args, **_kw: next(typed))
    with reading_in(lang):
        assert question(DieRequest(purpose, "d8", 8, 1, 1)) == one
        assert question(DieRequest(purpose, "2d6", 6, 2, 2, on_table=5)) == second
        assert ask_die(DieRequest(purpose, "d8", 8, 1, 1)) == 4
    assert wrong in capsys.readouterr().err


@pytest.mark.parametrize(
    ("lang", "written", "imported"),
    [
        ("en", "checkpoint of Sector 7 at #7 written to {file}", "imported 7 events; head "),
        ("pl", "punkt kontrolny Sector 7 w #7 zapisano w {file}", "zaimportowano 7 zdarzeń; wierzchołek "),
        ("ru", "контрольная точка Sector 7 на #7 записана в {file}", "импортировано 7 событий; вершина "),
    ],
)
def test_a_checkpoint_and_an_import_are_said_in_the_readers_language(
    tmp_path: Path, lang: str, written: str, imported: str
) -> None:
    """Sector 7 mustered is 7 events (created; three musters, each a command and its unit)."""
    cli = walkthroughs.grimdark(Cli(str(tmp_path / "gf.db")))
    checkpoint, exported = tmp_path / "sector7.checkpoint", tmp_path / "sector7.jsonl"
    assert written.format(file=checkpoint) in said(cli, lang, "checkpoint", "-o", str(checkpoint))
    cli("export", "-o", str(exported))
    elsewhere = Cli(str(tmp_path / "elsewhere.db"))
    assert said(elsewhere, lang, "import", str(exported)).startswith(imported)

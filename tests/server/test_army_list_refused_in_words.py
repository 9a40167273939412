"""An Army Forge file the page's upload refuses is answered in the reader's language (its ``Accept-Language``),
the file named as uploaded, and nothing is imported."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.conftest import World

SAVE_FILE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "army_forge" / "army-forge-save.json"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "army-forge-save.json is an Army Forge save file: it names its units by their army book ids only."),
        ("ru", "army-forge-save.json — файл сохранения Army Forge: отряды в нём названы только по id армейской книги."),
        (
            "pl",
            "army-forge-save.json to plik zapisu Army Forge: jednostki są w nim nazwane tylko identyfikatorami z "
            "podręcznika armii.",
        ),
    ],
)
def test_an_army_forge_save_file_uploaded_is_refused_in_the_readers_language(
    world: World, lang: str, said: str
) -> None:
    gina = world.client("gina")
    log = f"/api/campaigns/{world.campaign_id}/log"
    before = gina.get(log).json()["head_seq"]
    answer = gina.post(
        f"/c/{world.campaign_id}/army-list",
        data={"side": "Robots"},
        files={"army_list": (SAVE_FILE.name, SAVE_FILE.read_bytes())},
        headers={"Accept-Language": lang},
    )
    assert 400 <= answer.status_code < 500
    assert said in " ".join(answer.text.split())
    assert gina.get(log).json()["head_seq"] == before

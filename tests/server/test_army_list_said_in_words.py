"""What the page's Army Forge upload did (or would do) is said in the reader's language (its
``Accept-Language``): each unit mustered or updated, the seed's terms, names as the list has them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.conftest import World

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _upload(world: World, lang: str, name: str) -> tuple[int, str]:
    path = EXAMPLES / name
    answer = world.client("gina").post(
        f"/c/{world.campaign_id}/army-list",
        data={"side": "Robots"},
        files={"army_list": (path.name, path.read_bytes())},
        headers={"Accept-Language": lang},
    )
    return answer.status_code, " ".join(answer.text.split())


@pytest.mark.parametrize(
    ("lang", "mustered", "updated", "imported", "shown_first"),
    [
        (
            "en",
            "mustered Raptor Riders: 3 models, Quality 4+, Defense 4+, Tough(3), 135 pts, 5 XP, traits Agile",
            "updated Saurian Captain: points 95 → 120, XP 7 → 10, trait Instigator added",
            "imported (head #",
            "this list updates 2 units already on the roster: nothing was changed; tick “update the units already "
            "listed” to go ahead",
        ),
        (
            "ru",
            "внесён отряд Raptor Riders: 3 модели, Quality (качество) 4+, Defense (защита) 4+, Tough (стойкость) 3, "
            "135 очк., 5 XP, черты: Agile",
            "изменён отряд Saurian Captain: очки 95 → 120, XP 7 → 10, добавлена черта Instigator",
            "— загружено (запись №",
            "этот ростер обновляет 2 подразделения, уже внесённые в список: ничего не изменено; отметьте «обновить "
            "уже внесённые подразделения», чтобы продолжить",
        ),
        (
            "pl",
            "dodana jednostka Raptor Riders: 3 modele, Quality 4+, Defense 4+, Tough(3), 135 pkt, 5 XP, cechy: Agile",
            "zmieniona jednostka Saurian Captain: punkty 95 → 120, XP 7 → 10, dodana cecha Instigator",
            "— zaimportowano (wpis nr ",
            "ta rozpiska aktualizuje 2 oddziały już wpisane: nic nie zmieniono; zaznacz „zaktualizuj oddziały już "
            "wpisane”, aby kontynuować",
        ),
    ],
)
def test_an_uploaded_list_says_what_it_musters_and_would_update_in_the_readers_language(
    world: World, lang: str, mustered: str, updated: str, imported: str, shown_first: str
) -> None:
    code, said = _upload(world, lang, "starhost.json")
    assert code == 200 and mustered in said and imported in said
    code, said = _upload(world, lang, "starhost-later.json")
    assert code == 409 and updated in said, "shown first: it updates units already listed"
    assert shown_first in said


def test_a_refusal_no_page_route_catches_is_said_in_the_readers_language(world: World) -> None:
    """A refusal that reaches the application's own handler (an audit of an entry past the log's end, refused by
    the read side) reads on a page in the reader's language; the API keeps its English, as `--json` does."""
    client = world.client("gina")
    for lang, said in (("ru", "в этой кампании нет события 999"), ("pl", "w tej kampanii nie ma zdarzenia 999")):
        page = client.get(f"/c/{world.campaign_id}/audit/999", headers={"Accept-Language": lang, "Accept": "text/html"})
        assert page.status_code == 404 and said in page.text, page.text[-600:]
    api = client.get(f"/api/campaigns/{world.campaign_id}/audit?seq=999", headers={"Accept-Language": "ru"})
    assert api.status_code == 404 and api.json()["detail"].startswith("no event 999 in this campaign")

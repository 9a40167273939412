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
    ("lang", "mustered", "updated"),
    [
        (
            "en",
            "mustered Raptor Riders: 3 models, Quality 4+, Defense 4+, Tough(3), 135 pts, 5 XP, traits Agile",
            "updated Saurian Captain: points 95 → 120, XP 7 → 10, trait Instigator added",
        ),
        (
            "ru",
            "внесён отряд Raptor Riders: 3 модели, Quality (качество) 4+, Defense (защита) 4+, Tough (стойкость) 3, "
            "135 очк., 5 XP, черты: Agile",
            "изменён отряд Saurian Captain: очки 95 → 120, XP 7 → 10, добавлена черта Instigator",
        ),
        (
            "pl",
            "dodana jednostka Raptor Riders: 3 modele, Quality 4+, Defense 4+, Tough(3), 135 pkt, 5 XP, cechy: Agile",
            "zmieniona jednostka Saurian Captain: punkty 95 → 120, XP 7 → 10, dodana cecha Instigator",
        ),
    ],
)
def test_an_uploaded_list_says_what_it_musters_and_would_update_in_the_readers_language(
    world: World, lang: str, mustered: str, updated: str
) -> None:
    code, said = _upload(world, lang, "starhost.json")
    assert code == 200 and mustered in said
    code, said = _upload(world, lang, "starhost-later.json")
    assert code == 409 and updated in said, "shown first: it updates units already listed"

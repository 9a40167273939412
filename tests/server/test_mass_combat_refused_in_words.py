"""A Mass Combat command the page refuses is answered in the reader's language (its ``Accept-Language``): the
unit's quality in the seed's words (§2.3: Средние, Przeciętni), its name as typed, and nothing appended."""

from __future__ import annotations

import pytest

from tests.server.conftest import World, post


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "Blue foot is average: training makes troops no better than Green (untrained men need 6 months to be "
            "Inexperienced troops, 12 to be Green); only battle makes them better",
        ),
        (
            "ru",
            "Blue foot — Средние: обучение не делает войска лучше Зеленых (необученным людям нужно месяцев: 6, "
            "чтобы стать Неопытными, и 12, чтобы стать Зелеными); лучше их делает только бой",
        ),
        (
            "pl",
            "Blue foot — Przeciętni: szkolenie nie czyni wojsk lepszymi niż Zieloni (nieprzeszkoleni ludzie "
            "potrzebują miesięcy: 6, by zostać Niedoświadczonymi, i 12, by zostać Zielonymi); lepszymi czyni je "
            "tylko bitwa",
        ),
    ],
)
def test_training_refused_on_the_page_is_said_in_the_readers_language(world: World, lang: str, said: str) -> None:
    gina = world.client("gina")
    cid = post(gina, "/api/campaigns", {"name": "Border", "ruleset": "mass-combat"}, 201)["campaign_id"]
    profile = {"men": 50, "quality": "average", "troop_type": "HI"}
    post(
        gina,
        f"/api/campaigns/{cid}/commands",
        {"command": "mc.muster", "args": {"name": "Blue foot", "side": "Azure", "profile": profile}},
    )
    log = f"/api/campaigns/{cid}/log"
    before = gina.get(log).json()["head_seq"]
    answer = gina.post(
        f"/c/{cid}/command",
        data={"_command": "mc.train", "unit_name": "Blue foot", "months": "3"},
        headers={"HX-Request": "true", "Accept-Language": lang},
    )
    assert 400 <= answer.status_code < 500
    assert said in " ".join(answer.text.split())
    assert gina.get(log).json()["head_seq"] == before

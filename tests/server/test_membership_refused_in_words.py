"""A membership the page refuses (the campaign's last game master leaving it) is answered in the reader's
language (its ``Accept-Language``), and nothing is appended."""

from __future__ import annotations

import html

import pytest

from tests.server.conftest import World


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "gina is the campaign's only game master: make another member GM first"),
        ("ru", "gina — единственный ведущий кампании: сначала сделайте ведущим другого участника"),
        ("pl", "gina to jedyny mistrz gry kampanii: najpierw uczyń mistrzem gry innego członka"),
    ],
)
def test_the_last_game_master_is_kept_in_the_readers_words(world: World, lang: str, said: str) -> None:
    gina = world.client("gina")
    log = f"/api/campaigns/{world.campaign_id}/log"
    before = len(gina.get(log).json()["events"])
    kept = gina.post(f"/c/{world.campaign_id}/remove", data={"account": "gina"}, headers={"Accept-Language": lang})
    assert kept.status_code == 400
    assert said in " ".join(html.unescape(kept.text).split())
    assert len(gina.get(log).json()["events"]) == before

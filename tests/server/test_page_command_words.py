"""A command on the page is named and answered in words a player reads, in the reader's language.

In-process (TestClient): the page names each command as its ruleset's command line and README type it after the
ruleset's word (``campaign gf muster`` is "muster" on a Grimdark campaign's page), never its recorded name
(``gf.muster``); a command's answer says what happened, as the command line's answer lines do ("Robot Squad
mustered for Robots …"), not how many events were appended at which seq; in Russian and Polish too.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from tests.server.conftest import World
from tests.server.test_page_forms import MUSTER, send


class Text(HTMLParser):
    """What a person reads of a piece of a page: its text, not its tags' attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.parts.append(" ".join(data.split()))


def read(html: str) -> list[str]:
    text = Text()
    text.feed(re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S))
    return text.parts


def answer_of(html: str) -> list[str]:
    found = re.search(r'<div class="command-result"[^>]*>(.*?)</div>', html, re.S)
    assert found, "no command answer"
    return read(found.group(1))


MUSTERED = "Robot Squad mustered for Robots"
"""The command line's own answer line for this muster (``campaign gf muster``)."""
FIELDS = MUSTER | {"profile.models": "10", "profile.quality": "4"}


def test_a_commands_answer_says_what_happened_not_events_and_seqs(world: World) -> None:
    said = answer_of(send(world.client("gina"), world, FIELDS).text)
    first = said[0]
    assert first.startswith("muster") and MUSTERED in first, said
    for text in said:
        assert not re.search(r"events? appended|head #|#\d|gf[ .]muster", text), text


def test_a_commands_answer_is_in_the_readers_language(world: World) -> None:
    for lang, word in (("ru", "muster"), ("pl", "muster")):
        client = world.client("gina")
        client.cookies.set("lang", lang)
        said = answer_of(send(client, world, FIELDS | {"name": f"Squad {lang}"}).text)
        assert said[0].startswith(word), said
        assert "mustered" not in " ".join(said), f"{lang}: {said}"


def test_the_page_names_commands_as_they_are_typed_never_by_their_recorded_names(world: World) -> None:
    for who in ("gina", "pat"):
        page = world.client(who).get(f"/c/{world.campaign_id}").text
        commands = re.findall(r'<details class="command" id="cmd-[^"]+".*?<summary><b>([^<]*)</b>', page, re.S)
        assert "muster" in commands, commands
        assert not [c for c in commands if c.startswith("gf")], commands
        text = " ".join(read(page.split("<main", 1)[1]))
        assert not re.findall(r"\bgf\.[a-z_]+", text)


def test_a_ruleset_is_named_as_its_game_not_by_its_slug(world: World) -> None:
    gina = world.client("gina")
    campaigns = " ".join(read(gina.get("/").text.split("<main", 1)[1]))
    page = " ".join(read(gina.get(f"/c/{world.campaign_id}").text.split("<main", 1)[1]))
    for slug in ("grimdark", "fighting-spirit", "mass-combat"):
        assert not re.search(rf"(?<![\w-]){slug}(?![\w-])", campaigns), (slug, campaigns)
    assert "One Page Rules Grimdark Future" in page and "Fighting Spirit" in campaigns
    assert "game master" in campaigns and not re.search(r"\bgm\b", campaigns)  # its role in words
    heading = page.split(" · ")[0]  # the campaign's name and its game, under the page's heading
    assert heading.endswith("Kessel One Page Rules Grimdark Future"), heading


def test_a_rewind_is_answered_in_the_readers_language_without_the_head(world: World) -> None:
    gina = world.client("gina")
    send(gina, world, FIELDS)
    gina.cookies.set("lang", "ru")
    answer = gina.post(f"/c/{world.campaign_id}/rewind", data={"to": "3"}, headers={"HX-Request": "true"})
    said = " ".join(read(answer.text))
    assert answer.status_code == 200 and "#3" in said, said
    assert "rewound" not in said.lower() and "head" not in said, said
    assert re.search(r"[а-я]{4}", said), said  # in Russian


def test_the_game_masters_tools_answer_in_the_readers_language(world: World) -> None:
    gina = world.client("gina")
    gina.cookies.set("lang", "pl")
    htmx = {"HX-Request": "true"}
    shared = gina.post(f"/c/{world.campaign_id}/entropy", data={"share": ""}, headers=htmx)
    removed = gina.post(f"/c/{world.campaign_id}/remove", data={"account": "olive", "reason": "left"}, headers=htmx)
    for answer in (shared, removed):
        said = " ".join(read(answer.text))
        assert answer.status_code == 200, said
        assert not re.search(r"\b(share|committed|epoch|drawn|no longer a member)\b", said), said
        assert re.search(r"[ąęłńóśźżć]", said), said  # in Polish

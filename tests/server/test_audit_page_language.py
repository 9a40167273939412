"""The audit page in the reader's language: its heading, and the entry audited said as the log says it.

The audit of a ruling read "Robot Squad, morale test (wounds at half strength): rolled 2 against Quality 4+: fails
→ Shaken" in English on a Russian or Polish page (and in ``campaign audit --lang``), though its line under "in
force" beside it was in the reader's words; an undo's rewind read "undo of gf shoot (#12–#17)" there and in the
log. Grimdark, RULES.md §4.1: ten models of Quality 4+ taking 6 wounds are four left, at half strength, and test
on a d6; the table's 2 fails (Shaken)."""

from __future__ import annotations

import html
import re

import pytest

from tests.server.conftest import SQUAD, World, post


def _command(world: World, who: str, command: str, dice: str | None = None, **args: object) -> None:
    body = {"command": command, "args": args, "dice": dice}
    post(world.client(who), f"/api/campaigns/{world.campaign_id}/commands", body)


def _shot(world: World) -> tuple[int, int, int]:
    """Robot Squad (pat's) shot at in a match: the shot's first seq, the morale test's, the shot's last."""
    for who, name, side in (("pat", "Robot Squad", "Robots"), ("gina", "Saurian Warriors", "Saurians")):
        _command(world, who, "gf.muster", name=name, side=side, profile=SQUAD)
    _command(world, "gina", "gf.battle_start", name="Ruins", units=["Robot Squad", "Saurian Warriors"])
    _command(world, "pat", "gf.shoot", dice="2", unit_name="Robot Squad", wounds=6)
    events = list(world.opened.ledger.store.read(world.campaign_id))
    first = max(e.seq for e in events if e.type == "timeline.command_issued")
    test = max(e.seq for e in events if e.type == "rules.applied")
    return first, test, events[-1].seq


def _said(page: str, pattern: str) -> str:
    found = re.search(pattern, page, re.DOTALL)
    assert found is not None, pattern
    return html.unescape(re.sub(r"<[^>]+>", "", found[1])).strip()


@pytest.mark.parametrize(
    ("lang", "heading", "ruling", "undone"),
    [
        ("ru", "Проверка записи #{seq}",
         "Robot Squad, тест морали (раны при половинной численности): выпало 2 против Quality 4+: тест провален → "
         "Shaken (потрясён)",
         "откат к #{before}: отмена команды gf shoot (#{first}–#{last}) (последующие события сохранены как "
         "отозванные)"),
        ("pl", "Audyt #{seq}",
         "Robot Squad, test morale (rany przy połowie stanu): wyrzucono 2 przeciw Quality 4+: nie zdaje → Shaken",
         "cofnięto do #{before}: cofnięcie polecenia gf shoot (#{first}–#{last}) (późniejsze zdarzenia zachowane "
         "jako wycofane)"),
    ],
)  # fmt: skip
def test_the_audit_page_says_its_heading_and_its_entry_in_the_readers_language(
    world: World, lang: str, heading: str, ruling: str, undone: str
) -> None:
    first, test, last = _shot(world)
    reader = world.client("olive")  # an observer reads the audit as any member does
    page = reader.get(f"/c/{world.campaign_id}/audit/{test}", headers={"Accept-Language": lang}).text
    assert _said(page, r"<h1>(.*?)</h1>") == heading.format(seq=test)
    assert _said(page, r'<p class="what"><b>(.*?)</b>') == ruling
    assert "morale test" not in page and "against Quality" not in page
    post(world.client("gina"), f"/api/campaigns/{world.campaign_id}/undo")
    rewind = last + 1
    page = reader.get(f"/c/{world.campaign_id}/audit/{rewind}", headers={"Accept-Language": lang}).text
    assert _said(page, r'<p class="what"><b>(.*?)</b>') == undone.format(before=first - 1, first=first, last=last)
    assert "undo of" not in page
    log = reader.get(f"/c/{world.campaign_id}", headers={"Accept-Language": lang}).text.split('id="log"', 1)[1]
    assert undone.format(before=first - 1, first=first, last=last) in html.unescape(log)

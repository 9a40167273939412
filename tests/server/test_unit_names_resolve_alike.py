"""The unit a player is authorised for is the unit its command acts on: one resolver reads a unit's name for both
(``campaign.rulesets.common.unit_called``), and no unit is named by another unit's id.

The attack: Keno's player mustered a unit named as Steel's unit's id upper-cased; the role check matched ids
ignoring case (Steel's unit, so Steel's player was let in) while the command matched the exact name first (the
Keno unit, which it then changed). Now a muster refuses a name that is a unit's id in any case, and a roster that
holds such a name already (a log written before) is read by the role check as the command reads it.
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign.access.memberships import Member
from campaign.i18n import reading_in, refusal
from campaign.rulesets.fighting_spirit import commands as fsc
from campaign.server import runner
from events.errors import InvalidInputError
from tests.server.conftest import World, post

FIVE = {"quality": "green", "leadership": 2, "size": 7}


def role_check(*args: Any) -> str | None:
    """The role check's refusal in its English (it is Words, said in the reader's language where shown)."""
    found = runner.refusal(*args)
    return None if found is None else str(found)


def two_sides(world: World) -> tuple[str, str]:
    """A five-grade campaign: pat plays Keno, sam plays Steel; Steel Squad is Steel's. Its id too."""
    gina = world.client("gina")
    cid = str(post(gina, "/api/campaigns", {"name": "Otlok", "ruleset": "fighting-spirit"}, 201)["campaign_id"])
    post(gina, f"/api/campaigns/{cid}/members", {"account": "pat", "role": "player", "sides": ["Keno"]})
    post(gina, f"/api/campaigns/{cid}/members", {"account": "sam", "role": "player", "sides": ["Steel"]})
    muster = {"command": "fs.muster", "args": {"name": "Steel Squad", "side": "Steel", "profile": FIVE}}
    post(gina, f"/api/campaigns/{cid}/commands", muster)
    units = gina.get(f"/api/campaigns/{cid}").json()["units"]
    return cid, str(next(u["unit_id"] for u in units if u["name"] == "Steel Squad"))


def send(world: World, who: str, cid: str, name: str, args: dict[str, Any]) -> Any:
    return world.client(who).post(f"/api/campaigns/{cid}/commands", json={"command": name, "args": args})


def test_a_muster_refuses_a_name_that_is_a_units_id_in_any_case(world: World) -> None:
    cid, steel_id = two_sides(world)
    before = world.client("gina").get(f"/api/campaigns/{cid}").json()["seq"]
    for typed in (steel_id, steel_id.upper(), f" {steel_id.title()} "):
        answer = send(world, "pat", cid, "fs.muster", {"name": typed, "side": "Keno", "profile": FIVE})
        assert answer.status_code == 400, answer.text
        assert answer.json()["detail"] == (
            f"{typed.strip()!r} is the id of the unit 'Steel Squad': give the new unit a name of its own"
        )
    assert world.client("gina").get(f"/api/campaigns/{cid}").json()["seq"] == before


def test_a_units_id_in_another_case_names_no_unit_for_the_role_check_nor_the_command(world: World) -> None:
    """Steel's unit named by its id upper-cased: the command does not read it as Steel Squad, and neither does the
    role check (unknown to both, refused in words, nothing appended)."""
    cid, steel_id = two_sides(world)
    before = world.client("gina").get(f"/api/campaigns/{cid}").json()["seq"]
    answer = send(world, "sam", cid, "fs.disband", {"unit_name": steel_id.upper()})
    assert answer.status_code == 400 and "no unit called" in answer.json()["detail"], answer.text
    assert world.client("gina").get(f"/api/campaigns/{cid}").json()["seq"] == before
    assert send(world, "sam", cid, "fs.disband", {"unit_name": steel_id}).status_code == 200  # its id exactly


STEEL_ID = "dbc1cee359ad4e6ab7f7b216df3bda15"
ROSTER = [  # a log written before the muster refused it: a Keno unit named as Steel's unit's id upper-cased
    {"unit_id": STEEL_ID, "name": "Steel Squad", "side": "Steel"},
    {"unit_id": "a1", "name": STEEL_ID.upper(), "side": "Keno"},
]


def test_the_role_check_finds_the_unit_the_command_acts_on() -> None:
    steel = Member(account="sam", role="player", sides=("Steel",))
    keno = Member(account="pat", role="player", sides=("Keno",))
    on_the_keno_unit = fsc.Disband.build(unit_name=STEEL_ID.upper())
    assert (
        role_check(steel, on_the_keno_unit, lambda: ROSTER)
        == f"{STEEL_ID.upper()} does not fight for your side (Steel)"
    )
    assert role_check(keno, on_the_keno_unit, lambda: ROSTER) is None
    on_steel_squad = fsc.Disband.build(unit_name=STEEL_ID)
    assert role_check(steel, on_steel_squad, lambda: ROSTER) is None
    assert role_check(keno, on_steel_squad, lambda: ROSTER) == f"{STEEL_ID} does not fight for your side (Keno)"


def test_the_id_refused_at_muster_is_said_in_russian_and_polish() -> None:
    from campaign.rulesets.fighting_spirit.plugin import PLUGIN
    from tests.conftest import Backend, make_ledger

    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Otlok", "fighting-spirit")
    ledger.execute(ledger.resolve(None), fsc.Muster.build(name="Steel Squad", side="Steel", profile=FIVE))
    state, _ = ledger.in_force(ledger.resolve(None), PLUGIN, None)
    [steel_id] = state.roster
    head = ledger.resolve(None).last_seq
    with pytest.raises(InvalidInputError) as refused:
        ledger.execute(ledger.resolve(None), fsc.Muster.build(name=steel_id.upper(), side="Keno", profile=FIVE))
    assert ledger.resolve(None).last_seq == head
    typed = repr(steel_id.upper())
    with reading_in("ru"):
        assert refusal(refused.value) == f"{typed} — это id отряда 'Steel Squad': дайте новому отряду собственное имя"
    with reading_in("pl"):
        assert refusal(refused.value) == f"{typed} to id oddziału 'Steel Squad': nadaj nowemu oddziałowi własną nazwę"

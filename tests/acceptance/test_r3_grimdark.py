"""Third-edition errata of seed 004 (RULES.md R3-25 … R3-27), on both sides of each edge, through the executor.

R3-25: while Shaken a unit takes no action of its own (it may strike back when charged); R3-26: each unit activates
once a round, and a Shaken unit's next own activation is its recovery, spent idle; R3-27: §4.2's campaign values
are One Page Rules' published rules or the project's own, never seed 004's.
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign.executor import TableEntry
from campaign.rulesets.command import Command
from campaign.rulesets.grimdark import commands as gd
from campaign.rulesets.grimdark.plugin import PLUGIN as GRIMDARK
from campaign.tables import base_values
from events.errors import InvalidInputError
from events.recorded import obj, text
from events.store import AppendResult
from tests.conftest import Backend, make_ledger

UNITS = {
    "Ten": ("Alpha", {"models": 10, "quality": 4, "points": 100}),
    "Eagles": ("Alpha", {"models": 5, "quality": 4, "points": 100}),
    "Robots": ("Beta", {"models": 10, "quality": 4, "points": 100}),
    "Drone": ("Beta", {"models": 1, "quality": 4, "points": 20}),
}


class Table:
    """A match of the four units above, round 1, nobody activated yet."""

    def __init__(self) -> None:
        self.ledger = make_ledger(Backend("memory"))
        self.ledger.create_campaign("Crossing", "grimdark")
        for name, (side_, profile) in UNITS.items():
            self.ledger.execute(self.info, gd.Muster.build(name=name, side=side_, profile=profile))
        self.ledger.execute(self.info, gd.StartBattle.build(name="Crossing", units=list(UNITS), joins={}))

    @property
    def info(self) -> Any:
        return self.ledger.resolve(None)

    def shaken(self, name: str) -> bool:
        state, _ = self.ledger.in_force(self.info, GRIMDARK)
        battle = state.battles[state.active_battle or ""]
        return battle.units[state.unit_by_name(name).unit_id].shaken  # type: ignore[union-attr]

    def events(self) -> int:
        return len(list(self.ledger.store.read(self.info.campaign_id)))

    def shake(self, name: str, by: str | None = None) -> AppendResult:
        """Five wounds (half of ten): the test rolls a 2 against Quality 4+ → Shaken."""
        result = self.ledger.execute(self.info, gd.Shoot.build(unit_name=name, wounds=5, by=by), table=TableEntry((2,)))
        assert self.shaken(name)
        return result

    def refused(self, match: str, command: Command[Any, Any]) -> None:
        before = self.events()
        with pytest.raises(InvalidInputError, match=match):
            self.ledger.execute(self.info, command)
        assert self.events() == before, "a refused command appends nothing"


def rules(result: AppendResult) -> list[str]:
    return [text(e.payload["rule"]) for e in result.events if e.type == "rules.applied"]


# --- R3-25: a Shaken unit does not shoot, and is not credited with what it did not do ---------------------------


def test_r3_25_a_shaken_unit_is_refused_as_a_shooter() -> None:
    # "Ten is Shaken: `gf shoot E --wounds 1 --by Ten` → refused (the program: "E takes 1 wound")."
    t = Table()
    t.shake("Ten")
    t.refused("Ten is Shaken: it may not be shooting", gd.Shoot.build(unit_name="Robots", wounds=1, by="Ten"))
    # wounds on Robots from no named shooter are still recorded: someone else's fire
    assert rules(t.ledger.execute(t.info, gd.Shoot.build(unit_name="Robots", wounds=1))) == ["wounds"]


def test_r3_25_a_shaken_unit_never_charges_but_strikes_back_and_its_wounds_count() -> None:
    # "E charges Ten, and Ten strikes back for 1 unblocked wound → counted": Robots cause 0, Ten 1: Robots lose
    # the melee and test (a 6 passes).
    t = Table()
    t.shake("Ten")
    t.refused(
        "Ten is Shaken: it may not be charging",
        gd.Melee.build(a="Ten", b="Robots", wounds_by_a=1, wounds_by_b=0, charger="Ten"),
    )
    result = t.ledger.execute(
        t.info,
        gd.Melee.build(a="Robots", b="Ten", wounds_by_a=0, wounds_by_b=1, charger="Robots"),
        table=TableEntry((6,)),
    )
    tested = [e.payload for e in result.events if e.type == "rules.applied" and e.payload["rule"] == "morale_test"]
    assert [(d["unit_id"], obj(d["outcome"])["passed"]) for d in tested] == [(_id(t, "Robots"), True)]


def test_r3_25_a_kill_by_striking_back_is_credited() -> None:
    # The Drone (one model, Tough 1) charges the Shaken Ten and takes its one wound back: destroyed in melee, a
    # kill credited to Ten, which earns XP for it at the battle's end (§4.2: +1 per unit killed).
    t = Table()
    t.shake("Ten")
    result = t.ledger.execute(t.info, gd.Melee.build(a="Drone", b="Ten", wounds_by_a=0, wounds_by_b=1, charger="Drone"))
    assert [e.payload["unit_id"] for e in result.events if e.type == "battle.kill_credited"] == [_id(t, "Ten")]
    ended = t.ledger.execute(
        t.info, gd.EndBattle.build(winner="Alpha", special_achieved=()), table=TableEntry((4,))
    )  # the Drone's casualty roll: 4
    xp = {e.payload["unit_id"]: e.payload["sources"] for e in ended.events if e.type == "career.xp_gained"}
    assert xp[_id(t, "Ten")] == {"not a casualty": 1, "units killed": 1}


def _id(t: Table, name: str) -> str:
    state, _ = t.ledger.in_force(t.info, GRIMDARK)
    return state.unit_by_name(name).unit_id  # type: ignore[union-attr]


# --- R3-26: when a Shaken unit recovers: its next activation, spent idle ---------------------------------------


def test_r3_26_shaken_before_it_activated_it_recovers_in_this_rounds_activation() -> None:
    # "round 1: the Robots have not activated; they are shot and fail → Shaken; their round-1 activation is idle →
    # recovered at its end."
    t = Table()
    t.shake("Robots", by="Ten")
    result = t.ledger.execute(t.info, gd.Recover.build(unit_name="Robots"))
    assert rules(result) == ["activation", "recover"] and not t.shaken("Robots")


def test_r3_26_shaken_after_its_activation_it_waits_for_the_next_round() -> None:
    # "Ten activates in round 1, is then shot and fails → Shaken; `recover Ten` in round 1 → refused; its round-2
    # activation is idle → recovered."
    t = Table()
    t.ledger.execute(t.info, gd.Shoot.build(unit_name="Robots", wounds=1, by="Ten"))  # Ten's activation
    t.shake("Ten", by="Robots")  # the Robots' activation
    t.refused("Ten has already activated in round 1", gd.Recover.build(unit_name="Ten"))
    assert t.shaken("Ten")
    t.ledger.execute(t.info, gd.NextRound.build())
    t.ledger.execute(t.info, gd.Recover.build(unit_name="Ten"))
    assert not t.shaken("Ten")


def test_r3_26_a_unit_shaken_in_its_own_activation_waits_too() -> None:
    # Ten charges the Robots and loses the melee (0 wounds to 1), its test fails on a 1: Shaken during its own
    # activation, so it recovers next round, not this one.
    t = Table()
    t.ledger.execute(
        t.info, gd.Melee.build(a="Ten", b="Robots", wounds_by_a=0, wounds_by_b=1, charger="Ten"), table=TableEntry((1,))
    )
    assert t.shaken("Ten")
    t.refused("Ten has already activated in round 1", gd.Recover.build(unit_name="Ten"))


def test_r3_26_a_unit_activates_once_a_round() -> None:
    t = Table()
    t.ledger.execute(t.info, gd.Shoot.build(unit_name="Robots", wounds=1, by="Ten"))
    second = t.ledger.execute(
        t.info, gd.Shoot.build(unit_name="Drone", wounds=1, by="Ten")
    )  # the same activation goes on: Ten shoots again
    assert rules(second)[0] == "wounds"
    t.ledger.execute(t.info, gd.Shoot.build(unit_name="Ten", wounds=1, by="Robots"))  # the Robots' activation
    t.refused("Ten has already activated in round 1", gd.Shoot.build(unit_name="Robots", wounds=1, by="Ten"))
    t.refused("Ten has already activated in round 1", gd.Activate.build(unit_name="Ten"))
    t.ledger.execute(t.info, gd.Activate.build(unit_name="Eagles"))
    t.refused(
        "Robots has already activated in round 1",
        gd.Melee.build(a="Robots", b="Eagles", wounds_by_a=1, wounds_by_b=0, charger="Robots"),
    )
    t.ledger.execute(t.info, gd.NextRound.build())
    assert rules(t.ledger.execute(t.info, gd.Shoot.build(unit_name="Robots", wounds=1, by="Ten")))[0] == "activation"


def test_r3_26_an_activation_spent_idle_is_all_of_it_and_activate_records_one() -> None:
    t = Table()
    t.shake("Ten", by="Robots")
    t.refused("Ten is Shaken: it neither holds, moves nor shoots", gd.Activate.build(unit_name="Ten"))  # R3-25: no hold
    t.ledger.execute(t.info, gd.Recover.build(unit_name="Ten"))  # a Shaken unit's activation: spent idle, it recovers
    assert not t.shaken("Ten")
    t.refused("Ten has already activated in round 1", gd.Shoot.build(unit_name="Robots", wounds=1, by="Ten"))
    activated = t.ledger.execute(t.info, gd.Activate.build(unit_name="Eagles"))
    assert rules(activated) == ["activation"]
    t.refused("Eagles is activating already", gd.Activate.build(unit_name="Eagles"))
    assert rules(t.ledger.execute(t.info, gd.Shoot.build(unit_name="Robots", wounds=1, by="Eagles"))) == [
        "wounds"
    ]  # its activation goes on


def test_r3_26_becoming_shaken_again_before_the_idle_activation_changes_nothing() -> None:
    # One status, one idle activation: Shaken twice before it activates, one recovery clears it.
    t = Table()
    t.shake("Ten", by="Robots")
    t.ledger.execute(
        t.info, gd.Shoot.build(unit_name="Ten", wounds=1, by="Robots")
    )  # already Shaken: it fails without a roll, stays Shaken
    t.ledger.execute(t.info, gd.Recover.build(unit_name="Ten"))
    assert not t.shaken("Ten")


# --- R3-27: none of §4.2's campaign values is from seed 004 ----------------------------------------------------

CAMPAIGN_KEYS = ("rewards.", "xp.", "level_up.", "casualty.", "traits.", "underdog.", "army.", "special.")
CAMPAIGN_KEYS_TOO = ("hero_level_up.", "skills.")


def test_r3_27_no_campaign_value_carries_a_seed_tag() -> None:
    values = base_values("grimdark")
    campaign = {p: v for p, v in values.items() if p.startswith(CAMPAIGN_KEYS + CAMPAIGN_KEYS_TOO)}
    assert len(campaign) > 20
    assert {p: v.tag for p, v in campaign.items() if v.tag not in ("PUB", "INF", "PLACEHOLDER")} == {}
    # and the §4.1 morale values the article states are its own
    assert values["morale.shaken_auto_fails"].tag == "SEED" and values["test.natural_one_fails"].tag == "SEED"
    assert "third-party transcription" in values["rewards.winner_points"].source

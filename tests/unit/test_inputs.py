"""What an input is, read from its type (``campaign/rulesets/inputs.py``), never from its field's name.

DESIGN.md ("Inputs typed by what they are"): the name rules, the server's authorisation and the command line
read the meaning from the type. So a field renamed keeps its meaning, and a field of a new name that is a unit is
held to the name rule and to whose unit it may be, with no list of field names to extend.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

import pytest
from pydantic import BaseModel, Field

from campaign.access.memberships import Member
from campaign.rulesets.command import Command
from campaign.rulesets.fighting_spirit import commands as fsc
from campaign.rulesets.fighting_spirit.profile import UnitProfile as FsProfile
from campaign.rulesets.grimdark import commands as gfc
from campaign.rulesets.inputs import (
    ARGUMENT,
    Kind,
    OwnUnit,
    TargetUnit,
    UnitName,
    Whose,
    acts,
    meaning_of,
    names_in,
)
from campaign.server import runner
from events.errors import InvalidInputError

ROSTER = [
    {"unit_id": "u1", "name": "Robot Squad", "side": "Robots"},
    {"unit_id": "u2", "name": "Saurian Warriors", "side": "Saurians"},
]
PAT = Member(account="pat", role="player", sides=("Robots",))


def refusal(*args: Any) -> str | None:
    """The role check's refusal in its English (it is Words, said in the reader's language where shown)."""
    found = runner.refusal(*args)
    return None if found is None else str(found)


class Volley(Command[Any, Any]):
    """A test's own command: ``squad`` and ``at`` are names no list ever held."""

    name: ClassVar[str] = "test.volley"

    squad: Annotated[OwnUnit, ARGUMENT]
    at: TargetUnit
    hits: int = Field(default=0, ge=0)


class Renamed(Command[Any, Any]):
    """The same command with its inputs renamed: they mean what they meant."""

    name: ClassVar[str] = "test.volley2"

    shooters: Annotated[OwnUnit, ARGUMENT]
    victims: TargetUnit
    hits: int = Field(default=0, ge=0)


def test_a_renamed_field_keeps_its_meaning_for_the_name_rule_and_for_who_may_run_it() -> None:
    for model, own, target in ((Volley, "squad", "at"), (Renamed, "shooters", "victims")):
        assert (meaning_of(model, own).kind, meaning_of(model, own).whose) == (Kind.UNIT, Whose.OWN)
        assert (meaning_of(model, target).kind, meaning_of(model, target).whose) == (Kind.UNIT, Whose.TARGET)
        assert meaning_of(model, own).typed.argument and not meaning_of(model, target).typed.argument
        # the name rule holds: trimmed, and an invisible character refused in the input's own words
        built = model.build(**{own: "  Robot Squad ", target: "Robot Squad"})
        assert getattr(built, own) == "Robot Squad"
        with pytest.raises(InvalidInputError, match=f"{target} 'Robot\\\\u200bSquad' holds a control or invisible"):
            model.build(**{own: "Robot Squad", target: "Robot\u200bSquad"})
        # pat plays Robots: its own unit acting on its own unit may be entered; on the Saurians' unit it may not
        assert refusal(PAT, model.build(**{own: "Robot Squad", target: "Robot Squad"}), lambda: ROSTER) is None
        on_them = refusal(PAT, model.build(**{own: "Robot Squad", target: "Saurian Warriors"}), lambda: ROSTER)
        assert on_them is not None and "sets what happens to Saurian Warriors, a unit of Saurians" in on_them
        as_them = refusal(PAT, model.build(**{own: "Saurian Warriors", target: "Robot Squad"}), lambda: ROSTER)
        assert as_them == "Saurian Warriors does not fight for your side (Robots)"


def test_a_unit_named_for_reference_authorises_nothing() -> None:
    class Credit(Command[Any, Any]):
        name: ClassVar[str] = "test.credit"

        by: UnitName

    assert not acts(Credit)
    assert refusal(PAT, Credit.build(by="Robot Squad"), lambda: ROSTER) == "test.credit is the game master's to enter"


def test_lists_mappings_and_records_keep_the_meaning_of_what_they_hold() -> None:
    units = meaning_of(gfc.StartBattle, "units")
    assert (units.kind, units.many, units.typed.names) == (Kind.UNIT, True, ("--unit",))
    joins = meaning_of(gfc.StartBattle, "joins")
    assert joins.kind is Kind.UNIT and joins.keys is not None and joins.keys.kind is Kind.UNIT
    motivation = meaning_of(fsc.StartBattle, "motivation")
    assert motivation.kind is Kind.CHOICE and motivation.choices == ("low", "medium", "high")
    assert motivation.keys is not None and motivation.keys.kind is Kind.SIDE
    deployments = meaning_of(fsc.StartBattle, "deployments")
    assert (deployments.kind, deployments.many, deployments.model) == (Kind.RECORD, True, fsc.Deployment)
    assert meaning_of(fsc.Deployment, "unit").kind is Kind.UNIT
    assert meaning_of(fsc.Deployment, "fatigue").choices == ("fresh", "tired", "exhausted")
    profile = meaning_of(fsc.Muster, "profile")
    assert (profile.kind, profile.model) == (Kind.PROFILE, FsProfile)
    assert meaning_of(FsProfile, "leadership").typed.names == ("--leadership", "--lv")
    # by the name the log records an input by, too (``name`` is the muster's ``unit_name``)
    assert meaning_of(fsc.Muster, "name") == meaning_of(fsc.Muster, "unit_name")
    assert meaning_of(fsc.Muster, "name").new and meaning_of(fsc.Muster, "side").whose is Whose.OWN


def test_every_name_a_command_holds_is_found_with_its_meaning_at_any_depth() -> None:
    battle = fsc.StartBattle.build(
        name="Hill 203",
        motivation={"Keno": "low", "Steel": "high"},
        deployments=[{"unit": " Keno 3rd Squad "}, {"unit": "Company HQ", "fatigue": "tired"}],
    )
    found = [(n.key, n.meaning.kind, n.value) for n in names_in(battle)]
    assert found == [
        ("name", Kind.BATTLE, "Hill 203"),
        ("motivation", Kind.SIDE, "Keno"),
        ("motivation", Kind.SIDE, "Steel"),
        ("deployments", Kind.UNIT, "Keno 3rd Squad"),  # trimmed by its type, inside the record
        ("deployments", Kind.UNIT, "Company HQ"),
    ]


@pytest.mark.parametrize(
    ("inputs", "said"),
    [
        ({"units": ["Saurian Warriors", "   "]}, "gf battle-start: unit must not be empty"),
        ({"units": ["A" * 101, "B"]}, "gf battle-start: unit is 101 characters long: at most 100"),
        ({"units": ["A", "B"], "joins": {"Hero\u200b": "A"}}, "unit 'Hero\\u200b' holds a control or invisible"),
        ({"units": ["A", "B"], "joins": {"Hero": "\t"}}, "gf battle-start: unit must not be empty"),
    ],
)
def test_a_name_inside_a_list_or_a_mapping_is_held_to_the_name_rule_in_its_kinds_word(
    inputs: dict[str, Any], said: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        gfc.StartBattle.build(name="Ruins", **inputs)
    assert said in str(refused.value)


def test_a_side_of_the_actor_is_what_lets_a_player_muster() -> None:
    muster = gfc.Muster.build(name="Robot Squad B", side="robots", profile={"models": 5, "quality": 4, "points": 1})
    assert refusal(PAT, muster, lambda: ROSTER) is None  # letter case aside, as the campaign reads a side
    theirs = gfc.Muster.build(name="Raptors", side="Saurians", profile={"models": 5, "quality": 4, "points": 1})
    assert refusal(PAT, theirs, lambda: ROSTER) == "you play Robots, not Saurians"
    with pytest.raises(InvalidInputError, match="not a Grimdark Future unit profile: quality must be at most 6"):
        gfc.Muster.build(name="X", side="Robots", profile={"models": 5, "quality": 7, "points": 1})


def test_a_side_named_in_a_list_is_a_side() -> None:
    assert meaning_of(gfc.EndBattle, "special_achieved").kind is Kind.SIDE
    assert meaning_of(gfc.EndBattle, "winner").kind is Kind.SIDE
    assert meaning_of(gfc.EndBattle, "winner").optional


def test_the_roster_is_read_only_for_a_command_that_names_a_unit() -> None:
    asked: list[int] = []

    def roster() -> list[dict[str, str]]:
        asked.append(1)
        return ROSTER

    muster = gfc.Muster.build(name="Robot Squad B", side="Robots", profile={"models": 5, "quality": 4, "points": 1})
    assert refusal(PAT, muster, roster) is None and not asked  # a side only: the roster is not needed
    shot = gfc.Shoot.build(unit_name="Saurian Warriors", wounds=1, by="Robot Squad")
    assert refusal(PAT, shot, roster) is not None and len(asked) == 1  # read once for both names


def test_a_psi_action_on_another_sides_unit_is_the_game_masters_to_enter() -> None:
    """The five-grade psi action (§0.10) sets what happens to its target: on a friend (inspire) the player's own
    to enter, on another side's unit the game master's (README's role table); its psion must be the player's."""
    roster = [
        {"unit_id": "p", "name": "Barf-jat", "side": "Keno"},
        {"unit_id": "k", "name": "Keno 3rd Squad", "side": "Keno"},
        {"unit_id": "s", "name": "Company HQ", "side": "Steel"},
    ]
    keno = Member(account="kim", role="player", sides=("Keno",))

    def psi(psion: str, target: str) -> Any:
        from campaign.rulesets.fighting_spirit.battle_commands import Psi

        return Psi.build(psion_name=psion, target_name=target, effect="inspire", distance=6)

    assert refusal(keno, psi("Barf-jat", "Keno 3rd Squad"), lambda: roster) is None
    assert refusal(keno, psi("Barf-jat", "Company HQ"), lambda: roster) == (
        "fs psi sets what happens to Company HQ, a unit of Steel: the game master enters it (you play Keno)"
    )
    assert (
        refusal(keno, psi("Company HQ", "Keno 3rd Squad"), lambda: roster)
        == "Company HQ does not fight for your side (Keno)"
    )
    gm = Member(account="gina", role="gm", sides=())
    assert refusal(gm, psi("Barf-jat", "Company HQ"), lambda: roster) is None


def test_a_distance_measured_on_the_table_is_inches_wherever_it_is_asked_for() -> None:
    """RULES.md R3-8: distances are read as measured, to the decimals the tables take. Each command that asks for
    one types it so (the page offers a decimal field for it, the API's spec names it), whatever the field's name;
    a distance nobody gives (an optional one) is left out."""
    from campaign.rulesets.disorder import battle_commands as disb
    from campaign.rulesets.fighting_spirit import battle_commands as fsb
    from campaign.server.runner import spec

    distances: set[tuple[type[BaseModel], str]] = {
        (fsb.Attack, "enemy_within"),
        (fsb.Rally, "distance"),
        (fsb.Psi, "distance"),
        (fsb.Surrender, "enemy_within"),
        (fsb.LastStand, "enemy_within"),
        (disb.Retreat, "needed"),
        (disb.Retreat, "moved"),
        (disb.Hit, "friend_at"),
        (disb.CheckMorale, "friend_at"),
    }
    for model, field in distances:
        assert meaning_of(model, field).kind is Kind.INCHES, (model.__name__, field)
    assert meaning_of(fsb.Attack, "enemy_within").optional
    assert not meaning_of(fsb.Rally, "distance").optional
    assert {f.name: f.means for f in spec(fsb.Rally).fields}["distance"] == "inches"
    assert fsb.Rally.build(unit_name="A", officer_name="B", distance="6.5").distance == "6.5"
    with pytest.raises(InvalidInputError):
        fsb.Rally.build(unit_name="A", officer_name="B", distance="six")


def test_the_names_of_a_mass_combat_battle_file_are_typed_and_the_battle_is_the_game_masters() -> None:
    """A battle set-up (RULES.md §2) names sides, units, commanders and PCs: each is found with its meaning, held
    to the name rule (trimmed; a control character refused), and none is the acting side's, so the battle is the
    game master's to enter."""
    from campaign.rulesets.mass_combat.commands import Battle

    side = {"name": " Rome ", "commander": {"strategy": 12, "unit": "Legio X"}, "units": [{"unit": "Legio X"}]}
    enemy = {
        "name": "Gauls",
        "commander": {"strategy": 11},
        "units": [{"unit": "Warband"}],
        "catastrophe_unit": "Warband",
    }
    pc = {"name": "Marcus", "side": "Rome", "unit": "Legio X", "weapon": 12, "risk": 0}
    battle = Battle.build(setup={"name": "Alesia", "sides": [side, enemy], "pcs": [pc]})
    found = {(n.meaning.kind, n.value) for n in names_in(battle)}
    assert {(Kind.SIDE, "Rome"), (Kind.SIDE, "Gauls"), (Kind.UNIT, "Legio X"), (Kind.UNIT, "Warband")} <= found
    assert {(Kind.OFFICER, "Marcus"), (Kind.OFFICER, "commander"), (Kind.BATTLE, "Alesia")} <= found
    assert not acts(Battle)
    with pytest.raises(InvalidInputError):
        Battle.build(setup={"name": "Alesia", "sides": [side | {"name": "Ro\x07me"}, enemy]})


def test_a_recruits_quality_is_one_of_the_six() -> None:
    """RULES.md §2.3: the six troop qualities, a closed set the page offers as a choice; another is refused."""
    from campaign.rulesets.mass_combat.commands import Recruit

    assert meaning_of(Recruit, "quality").choices == (
        "inexperienced",
        "green",
        "average",
        "seasoned",
        "veteran",
        "elite",
    )
    with pytest.raises(InvalidInputError, match="quality must be one of"):
        Recruit.build(unit_name="Legio X", men=3, quality="great")


def test_a_unit_whose_state_a_command_changes_is_not_named_by_another_sides_player() -> None:
    """A shot's shooter spends its activation and is credited with the kill; a melee's charger spends its
    activation; a unit removed credits its destroyer with XP: each changes that unit's state, so pat (Robots) may
    name only its own there — another side's unit is that side's or the game master's to name."""
    from campaign.rulesets.fighting_spirit import battle_commands as fsb

    saurians_fired = gfc.Shoot.build(unit_name="Robot Squad", wounds=1, by="Saurian Warriors")
    said = refusal(PAT, saurians_fired, lambda: ROSTER)
    assert said is not None and "sets what happens to Saurian Warriors, a unit of Saurians" in said
    charged = gfc.Melee.build(
        a="Robot Squad", b="Robot Squad", wounds_by_a=1, wounds_by_b=0, charger="Saurian Warriors"
    )
    assert refusal(PAT, charged, lambda: ROSTER) is not None
    credited = gfc.Remove.build(unit_name="Robot Squad", reason="destroyed", by="Saurian Warriors")
    assert refusal(PAT, credited, lambda: ROSTER) is not None
    fired_on = fsb.Attack.build(unit_name="Robot Squad", killed=1, by="Saurian Warriors")
    assert refusal(PAT, fired_on, lambda: ROSTER) is not None
    # its own unit named there, or none: pat enters it
    assert refusal(PAT, gfc.Shoot.build(unit_name="Robot Squad", wounds=1, by="Robot Squad"), lambda: ROSTER) is None
    assert refusal(PAT, gfc.Shoot.build(unit_name="Robot Squad", wounds=1), lambda: ROSTER) is None
    assert refusal(Member(account="gina", role="gm"), saurians_fired, lambda: ROSTER) is None


def test_a_morale_modifier_is_the_game_masters_ruling_on_any_side() -> None:
    """RULES.md §2.11: a campaign Morale modifier comes of the game master's rulings (spies, a hereditary enemy,
    loot), so a player sets none, not even for its own side (it would wipe the −2 ruled for it)."""
    from campaign.rulesets.mass_combat import commands as mcc

    on_them = mcc.Morale.build(name="demoralised", value=-5, side="Saurians")
    assert refusal(PAT, on_them, lambda: ROSTER) == "mc.morale is the game master's to enter"
    on_us = mcc.Morale.build(name="home soil", value=1, side="Robots")
    assert refusal(PAT, on_us, lambda: ROSTER) == "mc.morale is the game master's to enter"
    assert refusal(Member(account="gina", role="gm"), on_us, lambda: ROSTER) is None

"""Commands of the disorder-marker ruleset (seed 001): load the campaign's state, run a pure rule with the
campaign's dice, append the rule application and the facts it caused.

A command that costs a unit models runs, in one batch, everything the loss calls for: the permanent marker at
half strength, the morale check (one for all causes), and the force's morale. Between battles the roster, the
officers and their Glory carry on; markers end with the battle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from campaign.commands import command
from campaign.ledger import TableEntry
from campaign.ruleset_service import TableBattles
from campaign.rulesets import RULESETS
from campaign.rulesets.decision import Decision
from campaign.rulesets.disorder import rules as dis
from campaign.rulesets.disorder.profile import UnitProfile
from campaign.rulesets.disorder.state import BattleState, CampaignState, RosterUnit
from campaign.rulesets.disorder.tables import Tables
from campaign.rulesets.tables import Value
from events.dice import Dice
from events.errors import InvalidInputError
from events.families.battle import (
    BattleEnded,
    BattleStarted,
    OfficerRemoved,
    TurnBegan,
    UnitDeployed,
    UnitRemoved,
)
from events.families.career import OfficerAppointed
from events.families.economy import UnitDisbanded
from events.families.roster import MenTransferred, UnitMustered
from events.registry import Event
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

RULESET = RULESETS["disorder"]


class Disorder(TableBattles):
    ruleset = RULESET
    cli = "dis"

    # -- state ---------------------------------------------------------------------------------------

    tables_type = Tables

    def state(self, info: CampaignInfo, at_seq: int | None = None) -> tuple[CampaignState, Tables]:
        """The campaign as it stands (or stood at ``at_seq``), and the tables in force then."""
        state, tables = self._in_force(info, at_seq)
        return state, tables

    def fighting(self, state: CampaignState, tables: Tables, name: str) -> dis.Unit:
        """A unit still on the table in the battle being fought, as the rules read it."""
        battle = self.current_battle(state)
        unit = self.unit(state, name)
        if unit.unit_id not in battle.units:
            raise InvalidInputError(f"{unit.name} is not in the battle {battle.name!r}")
        removed = battle.units[unit.unit_id].removed
        if removed:
            raise InvalidInputError(f"{unit.name} is no longer on the table ({removed})")
        return state.in_battle(battle, unit.unit_id, tables)

    # -- the consequences of a loss, in one place ---------------------------------------------------------

    @staticmethod
    def _force(
        state: CampaignState,
        tables: Tables,
        battle: BattleState,
        unit: dis.Unit,
        *,
        gone: bool,
        status: str | None = None,
        folded: str | None = None,
    ) -> Decision | None:
        """The force's morale once this command's ``unit`` (as it is after it; ``gone`` if removed) counts;
        ``status`` the force's status if this command changed it already, ``folded`` a unit whose check
        already counts force at half (R2-7)."""
        side = unit.side
        units = [unit if uid == unit.unit_id else state.in_battle(battle, uid, tables) for uid in battle.order]
        gone_ids = {uid for uid, u in battle.units.items() if u.removed}
        if gone or unit.models == 0:
            gone_ids.add(unit.unit_id)
        mine = [u for u in units if u.side == side]
        return dis.force_morale(
            tables,
            battle.battle_id,
            side,
            start_points=battle.start_points(side),
            lost_points=sum(dis.points_lost(tables, u, u.unit_id in gone_ids) for u in mine),
            status=status or battle.force.get(side),
            remaining=[u for u in mine if u.unit_id not in gone_ids],
            folded=folded,
        )

    @staticmethod
    def _causes_checked(
        battle: BattleState, unit: dis.Unit, tables: Tables, causes: Sequence[str], force: str | None = None
    ) -> None:
        """R2-7 (4): the causes a check cites have happened (``force``: the force's status if this command changed
        it), and a once-per-game cause is not used again."""
        happened = ["force_half"] * bool(force or battle.force.get(unit.side))
        happened += ["officer_removed"] * (unit.side in battle.officer_removed)
        dis.causes_that_happened(tables, unit, causes, happened=happened, used=battle.units[unit.unit_id].checked_for)

    # -- roster and officers --------------------------------------------------------------------------

    @command("dis.muster")
    def muster(
        self, info: CampaignInfo, name: str, side: str, profile: dict[str, object], command_id: str | None = None
    ) -> AppendResult:
        """A unit joins the roster: its models, troop type (→ Discipline) and points."""
        state, tables = self.state(info)
        checked = self._new_unit(state, name, side, UnitProfile, profile, "disorder-marker")
        tables.discipline(checked.troops)
        event = UnitMustered(
            unit_id=self.ledger.new_id(), name=name, side=side, profile=checked.model_dump(mode="json")
        )
        return self._facts(info, "dis.muster", [event], command_id)

    @command("dis.officer")
    def appoint(self, info: CampaignInfo, side: str, officer: str, command_id: str | None = None) -> AppendResult:
        """An officer takes command of a side's force; his Glory and rank follow him from battle to battle."""
        state, tables = self.state(info)
        if not side.strip() or not officer.strip():
            raise InvalidInputError("an officer needs a name and a side")
        if state.active_battle is not None:
            raise InvalidInputError("officers take command between battles: end the battle first")
        known = state.careers.get(officer)
        if known is not None and known.side != side and state.officers.get(known.side) == officer:
            raise InvalidInputError(f"{officer} commands {known.side}: appoint another officer there first")
        rank = tables.rank(known.glory if known else 0)
        event = OfficerAppointed(side=side, officer=officer, rank=rank)
        return self._facts(info, "dis.officer", [event], command_id)

    @command("dis.transfer")
    def transfer(
        self, info: CampaignInfo, from_unit: str, to_unit: str, men: int, command_id: str | None = None
    ) -> AppendResult:
        """Models move to another unit of the same side between battles."""
        state, _ = self.state(info)
        if state.active_battle is not None:
            raise InvalidInputError("models move between units between battles: end the battle first")
        giver, receiver = self.unit(state, from_unit), self.unit(state, to_unit)
        self._check_transfer(giver, receiver, men, giver.profile.models - 1, "models to spare (one stays)")
        event = MenTransferred(from_unit_id=giver.unit_id, to_unit_id=receiver.unit_id, men=men, experience=0)
        return self._facts(info, "dis.transfer", [event], command_id)

    @command("dis.disband")
    def disband(self, info: CampaignInfo, unit_name: str, reason: str, command_id: str | None = None) -> AppendResult:
        state, _ = self.state(info)
        unit = self.unit(state, unit_name)
        if state.active_battle is not None and unit.unit_id in state.battles[state.active_battle].units:
            raise InvalidInputError(f"{unit.name} is in the battle being fought: end the battle first")
        return self._facts(info, "dis.disband", [UnitDisbanded(unit_id=unit.unit_id, reason=reason)], command_id)

    def _check_table_value(self, path: str, value: Value) -> None:
        super()._check_table_value(path, value)
        dis.check_table_value(path, value)

    @command("dis.house_rule")
    def house_rule(
        self, info: CampaignInfo, path: str, value: Value, note: str = "", command_id: str | None = None
    ) -> AppendResult:
        return self._house_rule(info, path, value, note, "dis.house_rule", command_id)

    # -- battles ---------------------------------------------------------------------------------------

    @command("dis.battle_start")
    def start_battle(
        self, info: CampaignInfo, name: str, units: Sequence[str], scenario: str = "", command_id: str | None = None
    ) -> AppendResult:
        """A scenario begins: the units deployed (at their roster strength), each side under its officer."""
        state, tables = self.state(info)
        if state.active_battle is not None:
            raise InvalidInputError(f"the battle {state.battles[state.active_battle].name!r} is still being fought")
        if not name.strip():
            raise InvalidInputError("a battle needs a name")
        deployed: list[RosterUnit] = []
        for unit_name in units:
            unit = self.unit(state, unit_name)
            if unit in deployed:
                raise InvalidInputError(f"{unit.name} is deployed twice")
            deployed.append(unit)
        sides = tuple(dict.fromkeys(u.side for u in deployed))
        if len(sides) < 2:
            raise InvalidInputError("a battle needs units of two sides at least")
        leaderless = [s for s in sides if s not in state.officers]
        if leaderless:
            raise InvalidInputError(
                f"no officer commands {', '.join(leaderless)}: appoint one with `campaign dis officer SIDE NAME`"
            )
        battle_id = self.ledger.new_id()
        events: list[Event] = [
            BattleStarted(
                battle_id=battle_id,
                name=name,
                scenario=scenario,
                sides=sides,
                settings={side: {"officer": state.officers[side]} for side in sides},
            )
        ]
        kept = {} if tables.flag("markers.cleared_after_battle") else state.permanent_markers()
        events.extend(
            UnitDeployed(
                battle_id=battle_id,
                unit_id=u.unit_id,
                side=u.side,
                men=u.profile.models,
                state={"points": u.profile.points, "troops": u.profile.troops, "permanent": kept.get(u.unit_id, 0)},
            )
            for u in deployed
        )
        return self._facts(info, "dis.battle_start", events, command_id)

    @command("dis.turn")
    def next_turn(self, info: CampaignInfo, command_id: str | None = None) -> AppendResult:
        battle = self.current_battle(self.state(info)[0])
        return self._facts(info, "dis.turn", [TurnBegan(battle_id=battle.battle_id, turn=battle.turn + 1)], command_id)

    @command("dis.hit")
    def hit(
        self,
        info: CampaignInfo,
        unit_name: str,
        lost: int,
        cause: str = "shooting",
        also: Sequence[str] = (),
        close_order: bool = False,
        officer_near: bool = False,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """Models lost to shooting or melee (§1.3), then what that calls for: the permanent marker at half strength,
        one morale check for this and any cause that came with it (``also``), and the force's morale."""
        if cause not in dis.LOSS_CAUSES:
            raise InvalidInputError(f"models are lost to {' or '.join(dis.LOSS_CAUSES)} here, not {cause!r}")

        def decide(state: CampaignState, tables: Tables, battle: BattleState, dice: Dice) -> list[Decision]:
            unit = self.fighting(state, tables, unit_name)
            after, facts, text = dis.lose_models(unit, battle.battle_id, lost, cause)
            decisions = [
                Decision(
                    "models_lost",
                    "§1.3",
                    unit.unit_id,
                    {"lost": lost, "cause": cause, "models": unit.models},
                    {"models": after.models},
                    text,
                    tuple(facts),
                )
            ]
            gone = after.models == 0
            marker = None if gone else dis.permanent_marker(tables, after, battle.battle_id)
            if marker is not None:
                decisions.append(marker)
                after = replace(after, permanent=1)
                gone = bool(marker.outcome["flees"])
            # R2-7: recount the force before the check; beyond the flight threshold nobody checks at all.
            folded = None if gone else after.unit_id
            force = self._force(state, tables, battle, after, gone=gone, folded=folded)
            status = force.outcome["status"] if force else None
            if gone or status == "flees":
                return [*decisions, force] if force else decisions
            causes = ("casualties", *also)
            if status == "half" and "force_half" not in causes:
                causes = (*causes, "force_half")  # its own losses brought the force to half: one more cause
            self._causes_checked(battle, after, tables, causes, status)
            check = dis.morale_check(
                tables,
                after,
                dice,
                battle.battle_id,
                causes=causes,
                lost=min(lost, unit.models),
                close_order=close_order,
                officer_near=officer_near,
            )
            decisions.extend([check, force] if force else [check])
            if check.outcome["result"] == "flees":
                fled = self._force(state, tables, battle, after, gone=True, status=status)
                if fled:
                    decisions.append(fled)
            return decisions

        return self._rule(info, "dis.hit", decide, table, command_id)

    @command("dis.check")
    def check_morale(
        self,
        info: CampaignInfo,
        unit_name: str,
        causes: Sequence[str],
        close_order: bool = False,
        officer_near: bool = False,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """A morale check without casualties (§1.3): a friend removed nearby, the officer lost, the force at half."""
        if "casualties" in causes:
            raise InvalidInputError("a check for casualties comes with the loss: use `campaign dis hit`")

        def decide(state: CampaignState, tables: Tables, battle: BattleState, dice: Dice) -> list[Decision]:
            unit = self.fighting(state, tables, unit_name)
            self._causes_checked(battle, unit, tables, causes)
            check = dis.morale_check(
                tables,
                unit,
                dice,
                battle.battle_id,
                causes=causes,
                close_order=close_order,
                officer_near=officer_near,
            )
            if check.outcome["result"] != "flees":
                return [check]
            force = self._force(state, tables, battle, unit, gone=True)
            return [check, force] if force else [check]

        return self._rule(info, "dis.check", decide, table, command_id)

    @command("dis.marker")
    def add_marker(
        self, info: CampaignInfo, unit_name: str, reason: str, command_id: str | None = None
    ) -> AppendResult:
        """A disorder marker from a source other than a morale check (a lost melee, a scenario rule)."""

        def decide(state: CampaignState, tables: Tables, battle: BattleState, _dice: Dice) -> list[Decision]:
            unit = self.fighting(state, tables, unit_name)
            decision = dis.add_marker(tables, unit, battle.battle_id, reason)
            if not decision.outcome["flees"]:
                return [decision]
            force = self._force(state, tables, battle, unit, gone=True)
            return [decision, force] if force else [decision]

        return self._rule(info, "dis.marker", decide, None, command_id)

    @command("dis.rally")
    def rally(
        self,
        info: CampaignInfo,
        unit_name: str,
        close_order: bool = False,
        officer_near: bool = False,
        table: TableEntry | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """A rally action (§1.6): on a pass the unit's non-permanent markers come off."""

        def decide(state: CampaignState, tables: Tables, battle: BattleState, dice: Dice) -> list[Decision]:
            unit = self.fighting(state, tables, unit_name)
            return [dis.rally(tables, unit, dice, battle.battle_id, close_order=close_order, officer_near=officer_near)]

        return self._rule(info, "dis.rally", decide, table, command_id)

    @command("dis.retreat")
    def retreat(
        self,
        info: CampaignInfo,
        unit_name: str,
        needed: str,
        moved: str | None = None,
        off_table: bool = False,
        command_id: str | None = None,
    ) -> AppendResult:
        """A retreat (§1.5): ``needed`` inches, ``moved`` of them (all by default); a model per full inch short is
        captured; a model off the table takes the whole unit with it."""
        need = dis.tenths_of_inch(needed, "the retreat")
        done = need if moved is None else dis.tenths_of_inch(moved, "the distance moved")

        def decide(state: CampaignState, tables: Tables, battle: BattleState, _dice: Dice) -> list[Decision]:
            unit = self.fighting(state, tables, unit_name)
            decision = dis.retreat(tables, unit, battle.battle_id, needed=need, moved=done, off_table=off_table)
            decisions = [decision]
            after = replace(unit, models=unit.models - int(decision.outcome["captured"]))
            gone = off_table or after.models == 0
            if not gone and decision.outcome["captured"]:
                marker = dis.permanent_marker(tables, after, battle.battle_id)
                if marker is not None:
                    decisions.append(marker)
                    after = replace(after, permanent=1)
                    gone = bool(marker.outcome["flees"])
            if decision.outcome["captured"] or gone:
                force = self._force(state, tables, battle, after, gone=gone)
                if force:
                    decisions.append(force)
            return decisions

        return self._rule(info, "dis.retreat", decide, None, command_id)

    @command("dis.remove")
    def remove(self, info: CampaignInfo, unit_name: str, reason: str, command_id: str | None = None) -> AppendResult:
        """A unit leaves the table for a reason no other command records (destroyed in one melee, say)."""
        if not reason.strip():
            raise InvalidInputError("say why the unit is removed")

        def decide(state: CampaignState, tables: Tables, battle: BattleState, _dice: Dice) -> list[Decision]:
            unit = self.fighting(state, tables, unit_name)
            decisions = [
                Decision(
                    "unit_removed",
                    "§1.2",
                    unit.unit_id,
                    {"reason": reason},
                    {"removed": True},
                    f"{unit.name} is removed: {reason}",
                    (UnitRemoved(battle_id=battle.battle_id, unit_id=unit.unit_id, reason=reason),),
                )
            ]
            force = self._force(state, tables, battle, unit, gone=True)
            return [*decisions, force] if force else decisions

        return self._rule(info, "dis.remove", decide, None, command_id)

    @command("dis.officer_down")
    def officer_down(self, info: CampaignInfo, side: str, command_id: str | None = None) -> AppendResult:
        """The force's officer is removed from play (§1.3): every unit of the side checks, once per game."""

        def decide(state: CampaignState, tables: Tables, battle: BattleState, _dice: Dice) -> list[Decision]:
            if side not in battle.sides:
                raise InvalidInputError(f"{side!r} is not a side of this battle ({', '.join(battle.sides)})")
            if side in battle.officer_removed:
                raise InvalidInputError(f"{side}'s officer was already removed in this battle")
            units = sorted(
                state.roster[uid].name for uid, u in battle.units.items() if u.side == side and u.removed is None
            )
            return [
                Decision(
                    "officer_removed",
                    "§1.3",
                    None,
                    {"side": side, "officer": state.officers.get(side, "")},
                    {"units_to_check": units},
                    f"{side}'s officer {state.officers.get(side, '')} is removed from play: "
                    f"each of its units takes a morale check (officer_removed): {', '.join(units) or 'none left'}",
                    (OfficerRemoved(battle_id=battle.battle_id, side=side),),
                )
            ]

        return self._rule(info, "dis.officer_down", decide, None, command_id)

    @command("dis.battle_end")
    def end_battle(
        self,
        info: CampaignInfo,
        winner: str | None,
        objectives: dict[str, int] | None = None,
        command_id: str | None = None,
    ) -> AppendResult:
        """The last turn is played out (§1.8): each force's Glory goes to its officer; markers end with the battle.

        ``winner`` is a side, or None for a draw; ``objectives`` the scenario objectives each side holds."""
        held = dict(objectives or {})

        def decide(state: CampaignState, tables: Tables, battle: BattleState, _dice: Dice) -> list[Decision]:
            if winner is not None and winner not in battle.sides:
                raise InvalidInputError(f"{winner!r} is not a side of this battle ({', '.join(battle.sides)})")
            strangers = sorted(set(held) - set(battle.sides))
            if strangers:
                raise InvalidInputError(f"{', '.join(strangers)}: not a side of this battle")
            decisions = []
            for side in battle.sides:
                officer = str(state.officers.get(side, ""))
                career = state.careers.get(officer)
                removed = [u for u in battle.units.values() if u.removed]
                decisions.append(
                    dis.glory(
                        tables,
                        battle.battle_id,
                        side,
                        officer,
                        result="drawn" if winner is None else ("won" if winner == side else "lost"),
                        objectives=held.get(side, 0),
                        enemy_removed=sum(1 for u in removed if u.side != side),
                        own_fled=sum(1 for u in removed if u.side == side and (u.removed or "").startswith("fled")),
                        officer_removed=side in battle.officer_removed,
                        glory_before=career.glory if career else 0,
                    )
                )
            result = "draw" if winner is None else f"won by {winner}"
            ended = Decision(
                "battle_end",
                "§1.8",
                None,
                {"winner": winner, "objectives": held},
                {"result": result},
                f"{battle.name} ends: {result}; {dis.markers_after_battle(tables)}",
                (BattleEnded(battle_id=battle.battle_id, result=result, winner=winner),),
            )
            return [*decisions, ended]

        return self._rule(info, "dis.battle_end", decide, None, command_id)

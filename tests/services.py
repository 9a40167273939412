"""The rules' tests call commands the way the services of the first edition were called (``game.shoot(info,
"Warriors", 5, by="Squad")``): this adapter builds the command model from those arguments and runs it through
the one executor, so the tests exercise exactly the path the CLI and the server take."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from campaign.executor import Ledger, TableEntry
from campaign.rulesets.command import Command, Ruleset
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

OMITTED_WHEN_NONE = frozenset({"joins", "battle_id", "objectives"})
"""Inputs the old methods took as None for "none", which the models take as their empty default."""

Signature = tuple[type[Command[Any, Any]], Sequence[str]]
"""A command and the order of the old method's positional parameters (after ``info``)."""


class Service:
    def __init__(self, ledger: Ledger, plugin: Ruleset[Any, Any], methods: Mapping[str, Signature]) -> None:
        self.ledger = ledger
        self.plugin = plugin
        self._methods = methods

    def state(self, info: CampaignInfo, at_seq: int | None = None) -> tuple[Any, Any]:
        return self.ledger.in_force(info, self.plugin, at_seq)

    def __getattr__(self, method: str) -> Callable[..., AppendResult]:
        try:
            model, order = self._methods[method]
        except KeyError:
            raise AttributeError(method) from None

        def call(info: CampaignInfo, *args: Any, **kwargs: Any) -> AppendResult:
            table: TableEntry | None = kwargs.pop("table", None)
            command_id: str | None = kwargs.pop("command_id", None)
            given = {**dict(zip(order, args, strict=False)), **kwargs}
            table = given.pop("table", table)
            command_id = given.pop("command_id", command_id)
            fields = {k: v for k, v in given.items() if v is not None or k not in OMITTED_WHEN_NONE}
            return self.ledger.execute(info, model.build(**fields), table=table, command_id=command_id)

        return call


class Grimdark(Service):
    def __init__(self, ledger: Ledger) -> None:
        from campaign.rulesets.grimdark import commands as gf
        from campaign.rulesets.grimdark.plugin import PLUGIN

        super().__init__(
            ledger,
            PLUGIN,
            {
                "muster": (gf.Muster, ("name", "side", "profile")),
                "buy": (gf.Buy, ("name", "side", "profile")),
                "sell": (gf.Sell, ("unit_name",)),
                "disband": (gf.Disband, ("unit_name", "reason")),
                "transfer": (gf.Transfer, ("from_unit", "to_unit", "men")),
                "house_rule": (gf.HouseRule, ("path", "value", "note")),
                "start_battle": (gf.StartBattle, ("name", "units", "joins", "special", "table", "command_id")),
                "next_round": (gf.NextRound, ("command_id",)),
                "shoot": (gf.Shoot, ("unit_name", "wounds", "by", "models_lost", "table", "command_id")),
                "melee": (
                    gf.Melee,
                    ("a", "b", "wounds_by_a", "wounds_by_b", "a_lost", "b_lost", "table", "command_id"),
                ),
                "recover": (gf.Recover, ("unit_name", "command_id")),
                "activate": (gf.Activate, ("unit_name", "command_id")),
                "remove": (gf.Remove, ("unit_name", "reason", "by", "command_id")),
                "end_battle": (gf.EndBattle, ("winner", "special_achieved", "table", "command_id")),
            },
        )


def grimdark(ledger: Ledger) -> Grimdark:
    return Grimdark(ledger)


class MassCombat(Service):
    def __init__(self, ledger: Ledger) -> None:
        from campaign.rulesets.mass_combat import calendar_commands as mct
        from campaign.rulesets.mass_combat import commands as mcc
        from campaign.rulesets.mass_combat.plugin import PLUGIN

        super().__init__(
            ledger,
            PLUGIN,
            {
                "muster": (mcc.Muster, ("name", "side", "profile")),
                "battle": (mcc.Battle, ("setup", "battle_id", "final_day")),
                "raise_unit": (mcc.Raise, ("name", "side", "profile", "pay", "random_quality")),
                "recruit": (mcc.Recruit, ("unit_name", "men", "quality", "pay")),
                "morale_modifier": (mcc.Morale, ("name", "value", "unit", "side", "until")),
                "new_commander": (mcc.Commander, ("unit_name", "leadership", "npc")),
                "train": (mcc.Train, ("unit_name", "months")),
                "disband": (mcc.Disband, ("unit_name", "reason")),
                "transfer": (mcc.Transfer, ("from_unit", "to_unit", "men")),
                "house_rule": (mcc.HouseRule, ("path", "value", "note")),
                "funds": (mct.Funds, ("side", "amount", "reason")),
                "month_end": (mct.MonthEnd, ("pay_pct",)),
                "pay": (mct.Pay, ("unit_name", "pay_pct")),
                "pass_days": (mct.Days, ("days", "activity", "side", "magic_healing", "healers")),
                "loot": (mct.Loot, ("battle_id", "side")),
                "treason": (mct.Treason, ("unit_name",)),
            },
        )

    def reevaluate(self, info: CampaignInfo, battle_seq: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        from campaign.rulesets.mass_combat.commands import replay_battle_day

        events = list(self.ledger.store.read(info.campaign_id))
        record = next(e for e in events if e.seq == battle_seq)
        _, tables = self.state(info, battle_seq - 1)
        command = [e for e in events if e.meta.get("command_id") == record.meta.get("command_id")]
        return replay_battle_day(tables, record, command)

    def strength(self, info: CampaignInfo, name: str, *, full: bool = False) -> Any:
        from campaign.rulesets.common import find_unit
        from campaign.rulesets.mass_combat.strength import troop_strength

        state, tables = self.state(info)
        unit = find_unit(state, name, active=False)
        return troop_strength(tables, unit.profile, men=unit.profile.men if full else unit.fit)


def disorder(ledger: Ledger) -> Service:
    from campaign.rulesets.disorder import battle_commands as b
    from campaign.rulesets.disorder import commands as c
    from campaign.rulesets.disorder.plugin import PLUGIN

    return Service(
        ledger,
        PLUGIN,
        {
            "muster": (c.Muster, ("name", "side", "profile", "command_id")),
            "appoint": (c.Appoint, ("side", "officer", "command_id")),
            "transfer": (c.Transfer, ("from_unit", "to_unit", "men", "command_id")),
            "disband": (c.Disband, ("unit_name", "reason", "command_id")),
            "house_rule": (c.HouseRule, ("path", "value", "note", "command_id")),
            "start_battle": (b.StartBattle, ("name", "units", "scenario", "command_id")),
            "next_turn": (b.NextTurn, ("command_id",)),
            "hit": (
                b.Hit,
                ("unit_name", "lost", "cause", "also", "close_order", "officer_near", "table", "command_id"),
            ),
            "check_morale": (
                b.CheckMorale,
                ("unit_name", "causes", "close_order", "officer_near", "table", "command_id"),
            ),
            "add_marker": (b.AddMarker, ("unit_name", "reason", "command_id")),
            "rally": (b.Rally, ("unit_name", "close_order", "officer_near", "table", "command_id")),
            "retreat": (b.Retreat, ("unit_name", "needed", "moved", "off_table", "command_id")),
            "remove": (b.Remove, ("unit_name", "reason", "command_id")),
            "officer_down": (b.OfficerDown, ("side", "command_id")),
            "end_battle": (b.EndBattle, ("winner", "objectives", "command_id")),
        },
    )


def fighting_spirit(ledger: Ledger) -> Service:
    from campaign.rulesets.fighting_spirit import battle_commands as fsb
    from campaign.rulesets.fighting_spirit import commands as fs
    from campaign.rulesets.fighting_spirit.plugin import PLUGIN

    return Service(
        ledger,
        PLUGIN,
        {
            "muster": (fs.Muster, ("name", "side", "profile", "reports_to", "command_id")),
            "recruit": (fs.Recruit, ("unit_name", "men", "command_id")),
            "transfer": (fs.Transfer, ("from_unit", "to_unit", "men", "command_id")),
            "disband": (fs.Disband, ("unit_name", "reason", "command_id")),
            "house_rule": (fs.HouseRule, ("path", "value", "note", "command_id")),
            "start_battle": (fs.StartBattle, ("name", "motivation", "deployments", "scenario", "command_id")),
            "end_battle": (fs.EndBattle, ("result", "winner", "command_id")),
            "next_turn": (fs.NextTurn, ("command_id",)),
            "activate": (fs.Activate, ("unit_name", "command_id")),
            "wounded": (fs.Wounded, ("unit_name",)),
            "position": (fs.Position, ("unit_name",)),
            "pass_days": (fs.PassDays, ("days", "activity", "side", "command_id")),
            "condition": (fs.Condition, ("side", "condition", "active", "command_id")),
            "funds": (fs.Funds, ("side", "amount", "reason", "command_id")),
            "month_end": (fs.MonthEnd, ("pay_pct", "command_id")),
            "attack": (fsb.Attack, ("unit_name",)),
            "morale": (fsb.Morale, ("unit_name", "rows")),
            "rally": (fsb.Rally, ("unit_name", "officer_name")),
            "react": (fsb.React, ("unit_name", "action")),
            "panic": (fsb.Panic, ("unit_name", "trigger")),
            "last_stand": (fsb.LastStand, ("unit_name",)),
            "end_last_stand": (fsb.EndLastStand, ("unit_name", "reason", "command_id")),
            "surrender": (fsb.Surrender, ("unit_name", "enemy_within", "command_id")),
            "psi": (fsb.Psi, ("psion_name", "target_name")),
            "defence": (fsb.Defence, ("unit_name",)),
        },
    )

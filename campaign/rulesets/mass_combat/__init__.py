"""Seed 002 (RULES.md §2): GURPS Mass Combat: troop strength, quality, battles, pay, glory.

:data:`RULESET` is its plug-in (``pyproject.toml`` names it as an entry point): what it is and where its parts are.
"""

from campaign.i18n import N_
from campaign.plugins import Mutation, RulesetInfo

RULESET = RulesetInfo(
    name="mass-combat",
    package=__name__,
    # 0.2.1: `mc pay` with nothing owed is bonus pay (it spent a month's pay for nothing under 0.2);
    # 0.2.2: a clear victory clears a lost commander's lasting penalty on every unit of the army, whether
    # or not it fought (R2-10); under 0.2.1 only on those that fought;
    # 0.3: the third edition's errata R3-14…R3-24 (Glory's criticals and high command's reaction roll,
    # catastrophes 13, 14, 15 and 17, surrender, the sappers' −2 on the casualty row, training months,
    # a muster's quality, chariots' archers)
    version="0.3",
    seed="002",
    title=N_("GURPS Mass Combat: troop strength, quality, pay, glory"),
    prefix="mc",
    help=N_("GURPS Mass Combat (mass-combat, RULES.md §2): battles, troop strength, pay and glory."),
    cli="campaign.cli.mass_combat:app",  # its battle read from a file, its views
    demo="campaign.cli.demo:mass_combat_campaign",
    charts="campaign.rulesets.mass_combat.shown:CHARTS",
    roster="campaign.rulesets.mass_combat.shown:ROSTER",
    sheet="campaign.rulesets.mass_combat.shown:sheet",  # its battle cards: what each unit may do now
    days_pass=True,
    counts="men",
    restated=frozenset(
        {
            ("battle_end", "battle.ended"),
            ("glory", "career.promotion_rolled"),
            ("same_enemy_this_year", "morale.modifier_set"),
        }
    ),
    mutation=Mutation(
        modules=(
            "battle.py",
            "economy.py",
            "pcs.py",
            "quality.py",
            "strength.py",
            "lasting.py",
            "arrears.py",
            "aftermath.py",
            "position.py",
            "extraordinary.py",
            "calendar_commands.py",
        ),
        tests=("*mass_combat*", "*one_command_path*"),
        cli_tests=("*mass_combat_cli*",),
    ),
)

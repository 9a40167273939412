"""Seed 004 (RULES.md §4): One Page Rules Grimdark Future v3.5.1 morale, and its campaign (XP, casualties, traits).

:data:`RULESET` is its plug-in (``pyproject.toml`` names it as an entry point): what it is and where its parts are.
"""

from campaign.i18n import N_
from campaign.plugins import Mutation, RulesetInfo

RULESET = RulesetInfo(
    name="grimdark",
    package=__name__,
    version="0.3",  # 0.3: R3-25, R3-26: a Shaken unit neither shoots nor charges; activations once a round
    seed="004",
    title=N_("One Page Rules Grimdark Future: morale (seed 004) and campaign (OPR's published rules)"),
    prefix="gf",
    help=N_("One Page Rules Grimdark Future (grimdark, RULES.md §4): morale tests, Shaken and Rout, XP and traits."),
    cli="campaign.cli.grimdark:app",
    demo="campaign.cli.demo:grimdark_campaign",
    charts="campaign.rulesets.grimdark.shown:CHARTS",
    roster="campaign.rulesets.grimdark.shown:ROSTER",
    sheet="campaign.rulesets.grimdark.shown:sheet",  # its battle cards: what each unit may do now
    army_list="campaign.rulesets.grimdark.army_forge:ARMY_FORGE",  # `gf import-list`, the page's upload
    money_word="campaign points",
    restated=frozenset(
        {
            ("battle_end", "battle.ended"),
            ("casualty", "career.trait_gained"),
            ("level_up", "career.trait_gained"),
            ("morale_test", "battle.unit_removed"),
            ("rewards", "battle.victory_points"),
            ("rewards", "economy.funds_changed"),
            ("shares_fate", "battle.unit_removed"),
            ("wounds", "battle.wounds_taken"),
        }
    ),
    mutation=Mutation(
        modules=("rules.py", "units.py"),
        tests=("*grimdark*", "*newer_rulesets*", "*one_command_path*"),
        cli_tests=("*grimdark_cli*", "*errata_cli*"),
    ),
)

"""Seed 001 (RULES.md §1): disorder markers, morale checks, rallies, retreats, force morale and officer Glory.

:data:`RULESET` is its plug-in (``pyproject.toml`` names it as an entry point): what it is and where its parts are.
"""

from campaign.i18n import N_
from campaign.plugins import Mutation, RulesetInfo

RULESET = RulesetInfo(
    name="disorder",
    package=__name__,
    # 0.2.1: `dis hit` refuses a loss larger than the models left (0.2 capped it unsaid);
    # 0.3: the third edition's errata R3-8 … R3-13
    version="0.3",
    seed="001",
    title=N_("Disorder markers and officer careers (Napoleonic skirmish)"),
    prefix="dis",
    help=N_("Disorder markers and officer careers (disorder, RULES.md §1): checks, rallies, retreats, Glory."),
    cli="campaign.cli.disorder:app",
    demo="campaign.cli.demo:disorder_campaign",
    charts="campaign.rulesets.disorder.shown:CHARTS",
    roster="campaign.rulesets.disorder.shown:ROSTER",
    sheet="campaign.rulesets.disorder.shown:sheet",  # its battle cards: what each unit may do now
    restated=frozenset(
        {
            ("battle_end", "battle.ended"),
            ("glory", "career.glory_awarded"),
            ("officer_removed", "battle.officer_removed"),
        }
    ),
    # the seed's rank names and a loss's cause, said in the reader's words
    worded={"career.officer_appointed": {"rank": "rank"}, "battle.models_lost": {"cause": "loss"}},
    mutation=Mutation(
        modules=("rules.py",),
        tests=("*disorder*", "*newer_rulesets*"),
        cli_tests=("*disorder_cli*", "*errata_cli*"),
    ),
)

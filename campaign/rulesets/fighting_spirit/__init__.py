"""Five-grade morale (seed 000; Stargrunt II chapter 8 "Confidence and Reaction"), RULES.md §0.

Pure: tables arrive as data (:class:`~campaign.rulesets.fighting_spirit.tables.Tables`), dice as a Dice object;
every rule returns a Decision. Its modules are imported by what uses them: reading a campaign needs its state and
fold alone (``state``, ``fold``), a command its models (``commands``, ``battle_commands``), a rule command its rule
(``rules``, ``pressure``), imported where the command plays it.

:data:`RULESET` is its plug-in (``pyproject.toml`` names it as an entry point): what it is and where its parts are.
"""

from campaign.i18n import N_
from campaign.plugins import Mutation, RulesetInfo

RULESET = RulesetInfo(
    name="fighting-spirit",
    package=__name__,
    version="0.3",  # 0.3: the third edition's errata R3-1 … R3-8
    seed="000",
    title=N_("Five-grade morale (Stargrunt II-like)"),
    prefix="fs",
    help=N_("Five-grade morale (fighting-spirit, RULES.md §0): battles, tests, rallies, psionics."),
    cli="campaign.cli.fighting_spirit:app",
    demo="campaign.cli.demo:five_grade_demo",
    charts="campaign.rulesets.fighting_spirit.shown:CHARTS",
    roster="campaign.rulesets.fighting_spirit.shown:ROSTER",
    sheet="campaign.rulesets.fighting_spirit.shown:sheet",  # its battle cards: what each unit may do now
    worded={"morale.grade_changed": {"from_grade": "grade", "to_grade": "grade"}},
    days_pass=True,
    counts="men",
    mutation=Mutation(
        modules=("rules.py", "pressure.py", "start.py", "state.py"),
        tests=("*fighting_spirit*", "*five_grade*"),
        cli_tests=("*fighting_spirit_cli*", "*errata_cli*"),
    ),
)

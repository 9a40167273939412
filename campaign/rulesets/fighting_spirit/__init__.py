"""Five-grade morale (seed 000; Stargrunt II chapter 8 "Confidence and Reaction"), RULES.md §0.

Pure: tables arrive as data (:class:`~campaign.rulesets.fighting_spirit.tables.Tables`), dice as a Dice object;
every rule returns a Decision. Its modules are imported by what uses them: reading a campaign needs its state and
fold alone (``state``, ``fold``), a command its models (``commands``, ``battle_commands``), a rule command its rule
(``rules``, ``pressure``), imported where the command plays it.
"""

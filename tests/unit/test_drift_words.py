"""Drift in words: a command whose re-run the rules now refuse is said to be refused, and why (verify said "the
rules say: a rule")."""

from __future__ import annotations

from campaign.read.verify import _outcomes_said
from campaign.replay import RuleOutcome


def test_a_refused_re_run_is_said_as_refused_with_its_reason() -> None:
    refused: list[RuleOutcome] = [{"error": "Voltigeurs has 12 models left; it cannot lose 20"}]
    assert _outcomes_said(refused) == "the command is refused (Voltigeurs has 12 models left; it cannot lose 20)"


def test_outcomes_are_said_by_their_explanations_or_their_rule_s_name() -> None:
    outcomes: list[RuleOutcome] = [
        {"rule": "models_lost", "explanation": "Voltigeurs lost 12 models (shooting): 0 left"},
        {"rule": "force_flees"},
    ]
    assert _outcomes_said(outcomes) == "Voltigeurs lost 12 models (shooting): 0 left; force flees"
    assert _outcomes_said([]) == "nothing"

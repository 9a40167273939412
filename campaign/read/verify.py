"""What `verify` shows of a campaign (the CLI's and the server's): the chain, schemas and dice checked, the seeds
held, and every rule re-run on its dice — drift, or a difference the rules' version explains."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign.read.describe import words
from events.errors import NotFoundError, VerificationError
from projections.state.campaigns import CampaignInfo

if TYPE_CHECKING:  # imported where used: `status` and the other views need none of them (start-up time)
    from campaign.executor import Ledger
    from campaign.timeline import Change
    from events.verify import VerifyReport


def verify(
    ledger: Ledger, info: CampaignInfo, *, rules: bool = True, on_event: Any = None
) -> tuple[VerifyReport, list[Change]]:
    """The hash chain, every event's schema and die, and (with ``rules``) every rule re-run on its dice: a
    different outcome is drift (a finding), unless the command was recorded under an older version of the
    rules (returned apart: expected after a rules change, not a sign the log was altered)."""
    from events.registry import registry
    from events.verify import verify_events

    report = verify_events(info.campaign_id, ledger.store.read(info.campaign_id), registry, on_event=on_event)
    check_held(ledger, info.campaign_id, report)
    return report, rule_drift(ledger, info, report) if rules else []


def check_held(ledger: Ledger, campaign_id: str, report: VerifyReport) -> None:
    """The seeds and shares of entropy this database holds apart from the log, each against its commitment in
    the log (what the CLI's and the server's ``verify`` add to the log's own checks; nothing secret is shown)."""
    from events.verify import check_held_seeds, check_held_shares

    def seed(epoch: int) -> bytes | None:
        try:
            return ledger.vault.seed(campaign_id, epoch)
        except NotFoundError:
            return None
        except VerificationError:
            return b""  # not even hexadecimal: it cannot match its commitment

    check_held_seeds(report, seed)
    check_held_shares(report, lambda: [(h.epoch, h.seq, h.share) for h in ledger.vault.shares(campaign_id)])


def rule_drift(ledger: Ledger, info: CampaignInfo, report: VerifyReport) -> list[Change]:
    """Every rule re-run on its recorded inputs and dice, when ``report`` found nothing else: a different outcome
    is drift, added to ``report`` as a finding, unless the command was recorded under an older version of the
    rules; those differences are returned apart (expected after a rules change, not a sign of an altered log)."""
    from campaign.timeline import Timeline
    from events.verify import Finding

    editions: list[Change] = []
    if not report.ok:
        return editions
    for change in Timeline(ledger).reevaluate(info):
        if change.recorded_under is not None:
            editions.append(change)
            continue
        report.findings.append(
            Finding(
                change.seq,
                change.command,
                "drift",
                f"re-evaluated now, the rules say: {_outcomes_said(change.after)}; the log records: "
                f"{_outcomes_said(change.before)}",
            )
        )
    return editions


def _outcomes_said(outcomes: list[dict[str, Any]]) -> str:
    """Rule outcomes in words: each one's explanation (its rule's name where it has none); a re-run the rules
    refuse, as refused and why (it said "a rule")."""

    def said(outcome: dict[str, Any]) -> str:
        if "error" in outcome:
            return f"the command is refused ({outcome['error']})"
        return str(outcome.get("explanation") or words(str(outcome.get("rule", "a rule"))))

    return "; ".join(said(o) for o in outcomes) or "nothing"


def verify_dict(report: VerifyReport, editions: list[Change]) -> dict[str, Any]:
    return {
        **report.as_dict(),
        "rules_changed_since": [
            {"seq": c.seq, "command": c.command, "recorded_under": c.recorded_under} for c in editions
        ],
    }

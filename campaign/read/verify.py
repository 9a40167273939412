"""What `verify` shows of a campaign (the CLI's and the server's): the chain, schemas and dice checked, the seeds
held, and every rule re-run on its dice — drift, or a difference the rules' version explains."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from campaign.i18n import DEFAULT, N_, _, language
from campaign.read.describe import words
from events.errors import NotFoundError, VerificationError
from projections.state.campaigns import CampaignInfo

if TYPE_CHECKING:  # imported where used: `status` and the other views need none of them (start-up time)
    from campaign.executor import Ledger
    from campaign.replay import RuleOutcome
    from campaign.timeline import Change
    from events.envelope import RecordedEvent
    from events.verify import Finding, VerifyReport


def verify(
    ledger: Ledger, info: CampaignInfo, *, rules: bool = True, on_event: Callable[[RecordedEvent], None] | None = None
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
                DriftSaid(ledger, info, change),
            )
        )
    return editions


class DriftSaid:
    """A drift finding's sentence in the reader's language: each decision, re-run and recorded, said from what it
    records (:func:`campaign.i18n.explain.explained`, with the campaign's unit names and the command's dice)."""

    def __init__(self, ledger: Ledger, info: CampaignInfo, change: Change) -> None:
        self.ledger, self.info, self.change = ledger, info, change

    def said(self) -> str:
        from campaign.read.describe import unit_names

        names = unit_names(self.ledger.store.read(self.info.campaign_id))  # a drift is rare: read when shown
        change = self.change
        return _("re-evaluated now, the rules say: {now}; the log records: {then}").format(
            now=self._decisions(change.after, change.rerun, change.recorded, names),
            then=self._decisions(change.before, change.recorded, change.recorded, names),
        )

    @staticmethod
    def _decisions(
        outcomes: list[RuleOutcome],
        events: tuple[RecordedEvent, ...],
        recorded: tuple[RecordedEvent, ...],
        names: dict[str, str],
    ) -> str:
        """``events``' decisions said; their dice are the recorded command's (a re-run rolls none of its own)."""
        from campaign.i18n.explain import Beside, explained
        from campaign.read.describe import dice_of

        refused = [o["error"] for o in outcomes if "error" in o]
        if refused:
            return "; ".join(_("the command is refused ({error})").format(error=error) for error in refused)
        rolls, faces = dice_of([*recorded, *events])
        beside = Beside(names, rolls, faces)
        said = [explained(e.payload, beside) for e in events if e.type == "rules.applied"]
        return "; ".join(said) or _("nothing")


def _outcomes_said(outcomes: list[RuleOutcome]) -> str:
    """Rule outcomes in words: each one's explanation (its rule's name where it has none); a re-run the rules
    refuse, as refused and why (it said "a rule")."""

    def said(outcome: RuleOutcome) -> str:
        if "error" in outcome:
            return f"the command is refused ({outcome['error']})"
        return str(outcome.get("explanation") or words(str(outcome.get("rule", "a rule"))))

    return "; ".join(said(o) for o in outcomes) or "nothing"


def verify_dict(report: VerifyReport, editions: list[Change]) -> dict[str, object]:
    return {
        **report.as_dict(),
        "rules_changed_since": [
            {"seq": c.seq, "command": c.command, "recorded_under": c.recorded_under} for c in editions
        ],
    }


# -- findings in the reader's language ------------------------------------------------------------------------
# The log's checker (events.verify) is below the catalogs and words its findings in English, as ``--json`` keeps
# them; shown to a person they are said again in the reader's language, matched by their check and wording.

CHECKS = {
    "sequence": N_("sequence"),
    "chain": N_("chain"),
    "schema": N_("schema"),
    "dice": N_("dice"),
    "share": N_("share"),
    "anchor": N_("anchor"),
    "stored seed": N_("stored seed"),
    "stored share": N_("stored share"),
    "stored bytes": N_("stored bytes"),
    "projection": N_("projection"),
    "drift": N_("drift"),
    "throwaway roll": N_("throwaway roll"),
    "chosen seed": N_("chosen seed"),
    "reroll": N_("reroll"),
    "table dice corrected": N_("table dice corrected"),
}
"""Each check's name as a finding or a flag says it."""

_SAID: tuple[tuple[str, str], ...] = (
    (r"expected seq (?P<expected>\d+), found (?P<found>\d+) \(an event is missing\)",
     N_("expected seq {expected}, found {found} (an event is missing)")),
    (r"expected seq (?P<expected>\d+), found (?P<found>\d+) \(an event is out of order\)",
     N_("expected seq {expected}, found {found} (an event is out of order)")),
    (r"prev_hash does not match the hash of the event before it",
     N_("prev_hash does not match the hash of the event before it")),
    (r"stored hash does not match the event's content: it was changed after it was written",
     N_("stored hash does not match the event's content: it was changed after it was written")),
    (r"payload is not in canonical form", N_("payload is not in canonical form")),
    (r"a campaign is created only by its first event", N_("a campaign is created only by its first event")),
    (r"revealed seed is not hexadecimal", N_("revealed seed is not hexadecimal")),
    (r"revealed seed of epoch (?P<epoch>\d+) does not match the commitment made for it",
     N_("revealed seed of epoch {epoch} does not match the commitment made for it")),
    (r"roll (?P<index>\d+) recorded (?P<recorded>\[.*\]) but the seed gives (?P<derived>\[.*\])",
     N_("roll {index} recorded {recorded} but the seed gives {derived}")),
    (r"roll index (?P<index>\d+) reuses or goes back from (?P<last>-?\d+)",
     N_("roll index {index} reuses or goes back from {last}")),
    (r"seed epoch (?P<epoch>\d+) was never committed", N_("seed epoch {epoch} was never committed")),
    (r"rolled with the seed of epoch (?P<epoch>\d+) after it was revealed",
     N_("rolled with the seed of epoch {epoch} after it was revealed")),
    (r"roll (?P<index>\d+) was consumed by no rule", N_("roll {index} was consumed by no rule")),
    (r"the seed of epoch 0 was typed in by the campaign's creator \(new --seed\), not drawn: whoever chose it knew "
     r"every roll of that epoch in advance",
     N_("the seed of epoch 0 was typed in by the campaign's creator (new --seed), not drawn: whoever chose it knew "
        "every roll of that epoch in advance")),
    (r"roll (?P<index>\d+), left on the table by a command taken back, was set aside by (?P<actor>.*?) "
     r"\(`campaign reroll`\): (?P<reason>.*); the next command to roll those dice rolled new ones",
     N_("roll {index}, left on the table by a command taken back, was set aside by {actor} (`campaign reroll`): "
        "{reason}; the next command to roll those dice rolled new ones")),
    (r"roll (?P<index>\d+) \((?P<notation>[^)]*)\), entered as (?P<was>\S*), corrected to (?P<now>\S+) "
     r"\(roll (?P<replaced>\d+)\) by (?P<by>.*?) amending seq (?P<amends>\d+): (?P<reason>.*)",
     N_("roll {index} ({notation}), entered as {was}, corrected to {now} (roll {replaced}) by {by} amending seq "
        "{amends}: {reason}")),
    (r"roll (?P<index>\d+) \((?P<notation>[^)]*)\), entered as (?P<was>\S*), corrected to (?P<now>\S+|no die) "
     r"by (?P<by>.*?) amending seq (?P<amends>\d+): (?P<reason>.*)",
     N_("roll {index} ({notation}), entered as {was}, corrected to {now} by {by} amending seq {amends}: {reason}")),
    (r"the checkpoint records event #(?P<seq>\d+) but the log ends at #(?P<last>\d+): events were removed "
     r"\(truncated\)",
     N_("the checkpoint records event #{seq} but the log ends at #{last}: events were removed (truncated)")),
    (r"event #(?P<seq>\d+) has hash (?P<anchored>\S+) but the checkpoint says (?P<expected>\S+): the history up to "
     r"it was rewritten",
     N_("event #{seq} has hash {anchored} but the checkpoint says {expected}: the history up to it was rewritten")),
    (r"the seed held in this database for epoch (?P<epoch>\d+) does not match the commitment in the log: it was "
     r"replaced",
     N_("the seed held in this database for epoch {epoch} does not match the commitment in the log: it was "
        "replaced")),
    (r"re-evaluated now, the rules say: (?P<now>.*); the log records: (?P<then>.*)",
     N_("re-evaluated now, the rules say: {now}; the log records: {then}")),
)  # fmt: skip
"""What the checker says, as patterns of its words, and each said again for the catalogs: a finding that matches
none is shown as the checker worded it."""

_PATTERNS = tuple((re.compile(pattern), said) for pattern, said in _SAID)


def message_said(message: str) -> str:
    """A finding's message in the reader's language (as the checker worded it where no pattern matches)."""
    if language() == DEFAULT:
        return message
    for pattern, said in _PATTERNS:
        found = pattern.fullmatch(message)
        if found is not None:
            fields = dict(found.groupdict())
            if fields.get("now") == "no die":
                fields["now"] = _("no die")
            return _(said).format(**fields)
    return message


def check_said(check: str) -> str:
    """A check's name in the reader's language."""
    return _(CHECKS[check]) if check in CHECKS else check


def _entry_said(finding: Finding) -> str:
    """What the entry a finding names holds, for a person: in English as recorded (``fs.attack``,
    ``dice.rolled``); otherwise a command as the command line names it ("fs attack": a drift names the command
    re-run), an event's type in words ("кости · брошены")."""
    from campaign.read.describe import kind
    from campaign.typed_as import typed

    if language() == DEFAULT or "." not in finding.type:
        return finding.type
    return typed(finding.type) if finding.check == "drift" else kind(finding.type)


def finding_said(finding: Finding, *, seq_word: bool = True) -> str:
    """A finding as a person reads it, in the reader's language: "seq 3 (dice.rolled): dice: …" (``seq_word``),
    or "#3 (dice · rolled): …" as a flag is listed."""
    from campaign.read.describe import kind

    check, message = check_said(finding.check), message_said(finding.message)
    if finding.words is not None and language() != DEFAULT:
        message = finding.words.said()
    if seq_word:
        return _("seq {seq} ({type}): {check}: {message}").format(
            seq=finding.seq, type=_entry_said(finding), check=check, message=message
        )
    return f"#{finding.seq} ({kind(finding.type)}): {check}: {message}"

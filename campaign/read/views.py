"""The read views every interface shows (the CLI's ``status``, ``unit``, ``battles``, ``treasury``, ``career``,
``log``, ``audit`` and ``verify``, and the server's pages and API): plain data, no printing."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NotRequired, TypedDict

from campaign.i18n import N_, _, ngettext, refusal
from campaign.read.describe import corrected, describe, dice_of, money, reading_campaign, unit_names, value, words
from events.envelope import RecordedEvent
from events.errors import CampaignError, InvalidInputError, NotFoundError
from events.recorded import JsonValue, maybe_whole, text, texts, whole
from events.recorded import seq as array
from events.timeline import effective, retracted, retracted_among
from projections.fold import Summary, SummaryRow
from projections.state.campaigns import CampaignInfo

if TYPE_CHECKING:  # imported where used: `status` and the other views need none of them (start-up time)
    from campaign.executor import Ledger
    from campaign.replay import CommandGroup
    from events.store import EventStore


STATUS_COLUMNS = (
    "name", "side", "quality", "troops", "men", "models", "points", "wounded", "experience", "xp", "battles",
    "fatigue", "ts", "morale", "arrears", "pay_owed", "disbanded",
)  # fmt: skip
"""The units' columns `status` and the page show, in one vocabulary for every ruleset: each ruleset's rows
carry those it keeps (men or models, experience or XP, fatigue or TS and Morale, arrears)."""

HEADINGS = {"pc": "officer", "ts": "TS", "xp": "XP", "morale": "Morale", "campaign_morale": "campaign Morale"}
"""A column's heading (or a unit line's word) where its key is not a word a player uses (an officer's career is
keyed ``pc``, troop strength ``ts``); any other key is read with its underscores as spaces."""


COLUMN_WORDS = {
    "name": N_("name"), "side": N_("side"), "quality": N_("quality"), "troops": N_("troops"), "men": N_("men"),
    "models": N_("models"), "points": N_("points"), "wounded": N_("wounded"), "experience": N_("experience"),
    "xp": N_("XP"), "battles": N_("battles"), "fatigue": N_("fatigue"), "ts": N_("TS"), "morale": N_("Morale"),
    "arrears": N_("arrears"), "pay_owed": N_("pay owed"), "disbanded": N_("disbanded"), "pc": N_("officer"),
    "glory": N_("glory"), "rank": N_("rank"), "campaign_morale": N_("campaign Morale"), "grade": N_("grade"),
    "commands": N_("commands"), "glory_by_battle": N_("glory by battle"), "reputation": N_("reputation"),
    "injuries": N_("injuries"), "traits": N_("traits"),
    "battle": N_("battle"), "day": N_("day"), "turns": N_("turns"), "result": N_("result"), "winner": N_("winner"),
}  # fmt: skip
"""The headings a reader of another language reads (English: :data:`HEADINGS`, or the key in words)."""


NAMES = ("name", "side", "unit", "pc", "winner", "battle")
"""Columns that hold a name as it was typed (never reworded)."""

MONEY = ("owed", "pay_owed")
"""Columns that hold a sum of money: thousands separated for a person (``--json`` keeps the number)."""


TERMS = ("quality", "troops", "fatigue", "grade", "motivation", "experience", "rank", "result")
"""Columns whose values are terms of the ruleset's seed: shown in the reader's language (``terms.toml``)."""


def cell(column: str, v: object, ruleset: str | None = None) -> str:
    """One table cell in words: a flag as "yes" or nothing, a list joined, a row name without underscores; a
    seed's term (a quality, a fatigue) in the reader's language. The command line's tables and the page's
    roster say their cells with it, so the two never word one value differently."""
    if v is None or v is False or v == []:
        return ""
    if column in NAMES:
        return str(v)
    if ruleset is not None and column in TERMS and isinstance(v, str):
        from campaign.i18n import DEFAULT, language

        if language() != DEFAULT:
            from campaign.i18n.terms import shown

            return shown(ruleset, column, v)
    if column in MONEY and isinstance(v, int) and not isinstance(v, bool):
        return money(v)
    return value(v)


def heading(key: str) -> str:
    """A column's heading in the reader's language."""
    from campaign.i18n import DEFAULT, _, language

    if language() != DEFAULT and key in COLUMN_WORDS:
        return _(COLUMN_WORDS[key])
    return HEADINGS.get(key, key.replace("_", " "))


def summary(ledger: Ledger, info: CampaignInfo, at: int | None = None) -> Summary:
    """The campaign folded by its ruleset, as it stands (or stood at seq ``at``)."""
    from campaign.commands import fold_for  # the ruleset's fold: `status` reads the read models instead

    fold = fold_for(info.ruleset)
    if fold is None:
        raise InvalidInputError.saying(
            "{ruleset!r} is not a ruleset this version of Campaign Ledger knows", ruleset=info.ruleset
        )
    if at is not None and not 0 <= at <= info.last_seq:
        raise InvalidInputError.saying("--at must be between 0 and {last}, the campaign's last seq", last=info.last_seq)
    return ledger.states.summary(info, fold, at)


def status(ledger: Ledger, info: CampaignInfo, at: int | None = None) -> dict[str, object]:
    return status_of(info, summary(ledger, info, at), at)


def status_of(info: CampaignInfo, s: Summary, at: int | None = None) -> dict[str, object]:
    """What ``status --json`` shows of a campaign's summary (at seq ``at``)."""
    return {
        "campaign": info.name,
        "ruleset": info.ruleset,
        "seq": at if at is not None else info.last_seq,
        "day": s.day,
        "units": s.units,
        "battles": s.battles,
        "treasury": s.treasury,
        "careers": s.careers,
    }


def unit(ledger: Ledger, info: CampaignInfo, name: str, at: int | None = None) -> dict[str, object]:
    """One unit's record and every event in effect about it, in words."""
    s = summary(ledger, info, at)
    found = next((u for u in s.units if name in (u["name"], u["unit_id"])), None)
    if found is None:
        raise InvalidInputError.saying("unknown unit {name!r}{known}", name=name, known="")
    history = unit_history(ledger.store, info.campaign_id, text(found["unit_id"]), at)
    return {"unit": found, "history": [{k: v for k, v in h.items() if k != "shown"} for h in history]}


def unit_history(store: EventStore, campaign_id: str, unit_id: str, at: int | None = None) -> list[dict[str, object]]:
    """Every event in effect about a unit (its mustering aside), in words, each with whether a person's view
    shows it (``shown``: not when a rule application about the unit, in the same command, already says it). What
    is in effect only, as ``effective`` says (a rewind or an amendment retracted the rest; ``log --all`` shows it).

    Streamed page by page, in memory bounded by a page and the unit's own history: which events are
    retracted is known from the rewinds alone, and the names from the mustering and battle events (both read by
    the type index), as ``log`` pages them; what explains what is settled within one command's events. Where the
    store keeps the ``event_refs`` index, only the commands that hold an event about the unit are read;
    elsewhere (a store in memory) every event up to ``at`` is read."""
    from campaign.read.describe import explained_by
    from campaign.read.log import NAMING, _retracted_by, is_retracted, ref_index
    from events.timeline import REWOUND

    spans = _retracted_by(store.read_types(campaign_id, [REWOUND], upto_seq=at))
    names = unit_names(e for e in store.read_types(campaign_id, NAMING, upto_seq=at) if not is_retracted(e, spans))
    history: list[dict[str, object]] = []

    def add(command: list[RecordedEvent]) -> None:
        mine = [e for e in command if e.payload.get("unit_id") == unit_id]
        if not mine:
            return
        covered = explained_by(command)
        about = {e.seq for e in mine}
        # the command's dice, for a rule's sentence in the reader's language (campaign.i18n.explain)
        rolls, faces = dice_of(command)
        for event in mine:
            if event.type != "roster.unit_mustered":
                shown = covered.get(event.seq) not in about
                what = describe(event, names, rolls, faces)
                history.append({"seq": event.seq, "type": event.type, "what": what, "shown": shown})

    def in_effect(event: RecordedEvent) -> bool:
        return event.type != REWOUND and not is_retracted(event, spans)

    if ref_index(store) is not None:
        commands = _unit_commands(store, campaign_id, unit_id, at, in_effect)
        if commands is not None:
            for events in commands:
                add(events)
            return history
    command: list[RecordedEvent] = []
    for event in store.read(campaign_id, upto_seq=at):
        if not in_effect(event):
            continue
        if command and event.meta.get("command_id") != command[-1].meta.get("command_id"):
            add(command)
            command = []
        command.append(event)
    add(command)
    return history


def _unit_commands(
    store: EventStore, campaign_id: str, unit_id: str, at: int | None, in_effect: Callable[[RecordedEvent], bool]
) -> list[list[RecordedEvent]] | None:
    """The events in effect (up to ``at``) of each command that holds an event in effect about the unit, in seq
    order, read by the ``event_refs`` index and the commands' own ranges: what ``unit_history`` groups when it
    reads the whole log. None where an event about the unit names no command (it is grouped by adjacency then)."""
    from campaign.read.log import PAGE, ref_index
    from projections.event_refs import ref_seqs, unit_ref

    engine = ref_index(store)
    if engine is None:
        return None
    ids: dict[str, None] = {}
    after = 0
    while True:
        seqs = ref_seqs(engine, campaign_id, [unit_ref(unit_id)], after, at, limit=PAGE)
        for event in store.read_seqs(campaign_id, seqs):
            if event.payload.get("unit_id") == unit_id and in_effect(event):
                command_id = event.meta.get("command_id")
                if not isinstance(command_id, str):
                    return None
                ids.setdefault(command_id)
        if len(seqs) < PAGE:
            break
        after = seqs[-1]
    groups: list[list[RecordedEvent]] = []
    for command_id in ids:
        events = store.command_events(campaign_id, command_id)
        if events is None:
            return None
        groups.append([e for e in events if (at is None or e.seq <= at) and in_effect(e)])
    return groups


def treasury(ledger: Ledger, info: CampaignInfo, at: int | None = None) -> dict[str, object]:
    s = summary(ledger, info, at)
    return {"treasury": s.treasury, "owed": owed_pay(s)}


def owed_pay(s: Summary) -> list[dict[str, object]]:
    """The units owed pay or in arrears: what each owes, and what its ruleset keeps of it (Mass Combat the Morale
    penalty in arrears, the five-grade paydays missed; a ruleset that keeps neither shows none, not a 0)."""
    rows = []
    for u in s.units:
        if not (u.get("pay_owed") or u.get("pay_penalty")):
            continue
        row: dict[str, object] = {"unit": u["name"], "side": u["side"], "owed": u.get("pay_owed", 0)}
        if "pay_penalty" in u:
            row["arrears"] = u["pay_penalty"]
        if "paydays_missed" in u:
            row["paydays_missed"] = u["paydays_missed"]
        rows.append(row)
    return rows


def career(ledger: Ledger, info: CampaignInfo, pc: str, at: int | None = None) -> SummaryRow:
    found = next((c for c in summary(ledger, info, at).careers if c["pc"] == pc), None)
    if found is None:
        raise InvalidInputError.saying("no career for {pc!r} in this campaign", pc=pc)
    return found


def log_filter(
    events: list[RecordedEvent], *, show_all: bool, unit: str | None, battle: str | None
) -> list[tuple[RecordedEvent, bool]]:
    """The entries ``log`` shows: in effect (or all, retracted marked), for a unit or a battle."""
    from campaign.rulesets.common import same_name

    names = unit_names(events)
    gone = retracted(events)
    chosen = events if show_all else effective(events)
    if unit is not None:
        ids = {k for k, v in names.items() if same_name(v, unit)} | {unit}
        chosen = [e for e in chosen if e.payload.get("unit_id") in ids or e.payload.get("officer_id") in ids]
    if battle is not None:
        ids = {k for k, v in names.items() if same_name(v, battle)} | {battle}
        chosen = [e for e in chosen if e.payload.get("battle_id") in ids]
    return [(e, e.seq in gone) for e in chosen]


def log_entries(  # noqa: PLR0913 (the log's filters, by keyword)
    ledger: Ledger,
    info: CampaignInfo,
    *,
    type_: str | None = None,
    unit: str | None = None,
    battle: str | None = None,
    after: int = 0,
    upto: int | None = None,
    last: int | None = None,
    limit: int | None = None,
    show_all: bool = False,
) -> tuple[list[RecordedEvent], list[tuple[RecordedEvent, bool]]]:
    """The events that name units and battles up to ``upto`` (for ``log_in_words``), and the chosen entries with
    whether each is retracted: paged by the store's indexes as ``log`` pages them, or, for a unit or a
    battle where the store keeps no index of them (in memory), the whole log filtered."""
    from campaign.read.log import NAMING, log_page, ref_index

    if (unit is None and battle is None) or ref_index(ledger.store) is not None:
        page = log_page(
            ledger.store, info.campaign_id, after=after, upto=upto, type_prefix=type_ or None, unit=unit,
            battle=battle, last=last, limit=limit, show_all=show_all,
        )  # fmt: skip
        return ledger.store.read_types(info.campaign_id, NAMING, upto_seq=upto), page.entries
    every = list(ledger.store.read(info.campaign_id, upto_seq=upto))
    entries = [
        (e, gone)
        for e, gone in log_filter(every, show_all=show_all, unit=unit, battle=battle)
        if e.seq > after and (not type_ or e.type.startswith(type_))
    ]
    if last is not None:  # as ``log --last``: the last of those chosen, then ``limit`` of them
        entries = entries[max(0, len(entries) - last) :]
    return every, entries if limit is None else entries[:limit]


def known_type(typed: str | None, flag: str = "--type") -> None:
    """Refuse a log's type filter that no event type starts with, saying the types there are: a typo is not
    "nothing of that type happened". Asked only of an empty log (every family of types is imported to answer)."""
    from campaign.rulesets.common import did_you_mean
    from events.registry import registry

    if not typed:
        return
    types = registry.names()
    if any(t.startswith(typed) for t in types):
        return
    families = ", ".join(sorted({t.split(".", 1)[0] + "." for t in types}))
    raise InvalidInputError.saying(
        "{flag} {typed!r} is not an event type nor the start of one{hint}; the families of types are "
        "{families} (or a whole type, as dice.rolled)",
        flag=flag,
        typed=typed,
        hint=did_you_mean(typed, types),
        families=families,
    )


def log_in_words(
    events: Iterable[RecordedEvent], entries: Iterable[tuple[RecordedEvent, bool]], ruleset: str | None = None
) -> list[dict[str, object]]:
    """Each entry as a person reads it: seq, who entered it, when, what happened, its clause (``ruleset``: the
    campaign's, which an amendment's re-run events read in)."""
    return entries_in_words(unit_names(events), entries, ruleset=ruleset)


def entries_in_words(
    names: Mapping[str, str],
    entries: Iterable[tuple[RecordedEvent, bool]],
    rolls: Mapping[int, int] | None = None,
    faces: Mapping[int, Sequence[int]] | None = None,
    accounts: Collection[str] | None = None,
    ruleset: str | None = None,
) -> list[dict[str, object]]:
    """:func:`log_in_words` with the names of units and battles already known (``log_page`` reads them);
    ``rolls`` and ``faces``: the dice the rule applications among them used, for their sentences in the reader's
    language (:func:`dice_of`, with ``campaign.read.log.dice_before`` for the rolls before a page). With
    ``accounts`` (:func:`accounts_of`), who entered table dice is said as the group knows them
    (:func:`author_said`), as the page says who entered each entry; without, as recorded. ``ruleset``: the
    campaign's, in whose terms the events an amendment re-ran read (:func:`reading_campaign`)."""
    kept = accounts
    who = (lambda actor: author_said(actor, kept)) if kept is not None else (lambda actor: actor)
    with reading_campaign(ruleset):
        return [
            {
                "seq": e.seq,
                "type": e.type,
                "actor": e.meta.get("actor"),
                "recorded_at": e.meta.get("recorded_at"),
                "what": describe(e, names, rolls, faces, who),
                "clause": e.payload.get("clause"),
                "retracted": gone,
            }
            for e, gone in entries
        ]


GRANTED = "membership.granted"


def accounts_of(store: EventStore, campaign_id: str, upto: int | None = None) -> frozenset[str]:
    """Every account the campaign's log has granted a membership (a member removed since included: what it
    entered stays its own), by the store's type index."""
    return frozenset(str(e.payload["account"]) for e in store.read_types(campaign_id, [GRANTED], upto_seq=upto))


def author_said(actor: object, accounts: Iterable[str]) -> str:
    """Who entered an entry, in words the group knows: its account where the recorded actor is one of the
    campaign's (:func:`accounts_of`: what was entered on the server is recorded by the account); else "the game
    master" — an entry made on the campaign's database itself, by the command line, records its OS user
    ("root" on a server) or its ``--actor``, and whoever holds the database runs the campaign. The log keeps the
    actor as recorded (its hash chain holds it)."""
    if isinstance(actor, str) and actor in accounts:
        return actor
    return _("the game master")


AUDIT_CHAIN_WINDOW = 1000
"""How many events up to the audited one ``audit`` re-hashes: the whole log is ``verify``'s work."""


def _changed_since(
    store: EventStore, cid: str, first_seq: int, checks: list[DiceCheck], rewinds: list[RecordedEvent]
) -> None:
    """Each roll's check told what happened to it since, on the record: a reroll took it off the table, or the
    table corrected it (``amend --dice``: from what to what, by whom, why), or it is itself such a correction."""
    # A correction comes just before the command it re-ran: read them all (by the type index; they are few).
    later = store.read_types(cid, ["dice.set_aside", "dice.corrected"], after_seq=first_seq - 1)
    later = [*store.read_types(cid, ["dice.corrected"], upto_seq=first_seq - 1), *later]
    if not later:
        return
    gone = retracted_among(later, rewinds)
    for entry in checks:
        for e in later:
            p, taken_back = e.payload, " (" + _("since taken back") + ")" if e.seq in gone else ""
            who = e.meta.get("actor")
            if e.type == "dice.set_aside" and p["roll_index"] == entry["roll"]:
                entry["check"] += "; " + _("taken off the table by a reroll at #{seq} by {who}: {reason}").format(
                    seq=e.seq, who=who, reason=p["reason"]
                )
                entry["changed"] = {"seq": e.seq, "type": e.type, "reason": p["reason"], "by": who}
            elif e.type == "dice.corrected" and entry["roll"] in (p["roll_index"], p["replaced_by"]):
                entry["check"] += "; " + _("at #{seq}{taken_back}, {corrected}").format(
                    seq=e.seq, taken_back=taken_back, corrected=corrected(p)
                )
                entry["changed"] = {
                    "seq": e.seq,
                    "type": e.type,
                    "retracted": e.seq in gone,
                    "roll": whole(p["roll_index"]),
                    "faces_before": list(array(p["faces_before"])),
                    "faces": list(array(p["faces"])),
                    "replaced_by": maybe_whole(p["replaced_by"]),
                    "by": p["by"],
                    "reason": p["reason"],
                }


def audit(ledger: Ledger, info: CampaignInfo, seq: int | None = None, roll: int | None = None) -> Audit:
    """One event (:func:`_audit`), said in the campaign's ruleset's words (an event an amendment re-ran too)."""
    with reading_campaign(info.ruleset):
        return _audit(ledger, info, seq, roll)


def _audit(ledger: Ledger, info: CampaignInfo, seq: int | None, roll: int | None) -> Audit:
    """One event (or the event of roll #``roll``): who entered it and when, its inputs, its dice re-derived
    where the seed is revealed, and its rule re-run on its recorded inputs and dice.

    By point reads, whatever the log's length: the roll found by the type index, its command by its command id,
    the campaign before it from the nearest snapshot; the chain re-hashed over the events just before it."""
    if seq is None and roll is None:
        raise InvalidInputError.saying("name what to audit: an event's seq, or a roll's number")
    from campaign.branch_dice import Origins, branch_point, may_be_branch
    from campaign.replay import command_of, roll_seq
    from events.dice.derive import derive_faces, dice_key
    from events.envelope import compute_hash

    store, cid = ledger.store, info.campaign_id
    if roll is not None:
        found = roll_seq(store, cid, roll, info.last_seq)
        if found is None:
            raise NotFoundError.saying("no roll #{roll} in this campaign", roll=roll)
        seq = found
    if seq is None or not 1 <= seq <= info.last_seq:
        raise NotFoundError.saying("no event {seq} in this campaign (it has {last})", seq=seq, last=info.last_seq)
    event = next(iter(store.read(cid, after_seq=seq - 1, upto_seq=seq)))
    group = command_of(store, event)
    indexes = {e.payload["roll_index"] for e in group.events if e.type == "dice.rolled"}
    # Rules that used these dice come at or after the command that rolled them.
    rules = list(store.read_types(cid, ["rules.applied"], after_seq=group.first_seq - 1))
    users_events = [e for e in rules if indexes & set(array(e.payload["dice"]))]
    own_rules = [e for e in group.events if e.type == "rules.applied" and e not in users_events]
    rewinds = store.read_types(cid, ["timeline.rewound"])
    gone = retracted_among([event, *users_events, *own_rules], rewinds)
    names = unit_names(store.read_types(cid, ["roster.unit_mustered", "battle.started"], upto_seq=seq))
    window = list(store.read(cid, after_seq=max(0, seq - AUDIT_CHAIN_WINDOW), upto_seq=seq))
    broken = next((e for e in window if compute_hash(e) != e.hash), None)
    dice_id = info.dice_id or info.campaign_id
    reveals = store.read_types(cid, ["dice.seed_revealed"])
    revealed = {  # each revealed epoch's key: its seed, mixed with its shares of entropy if it had any
        e.payload["epoch"]: dice_key(
            bytes.fromhex(text(e.payload["seed"])),
            dice_id,
            whole(e.payload["epoch"]),
            texts(e.payload.get("shares", [])),
        )
        for e in reveals
    }
    mixed = {e.payload["epoch"]: len(array(e.payload.get("shares", []))) for e in reveals}
    dice_checks: list[DiceCheck] = []
    for d in (e for e in group.events if e.type == "dice.rolled"):
        p = d.payload
        if p["source"] == "table":
            dice_checks.append(
                {"roll": whole(p["roll_index"]), "check": _("table dice entered by {who}").format(who=p["entered_by"])}
            )
        elif p["source"] == "offered":
            dice_checks.append(
                {
                    "roll": whole(p["roll_index"]),
                    "check": _("the dice of roll #{index}, left on the table").format(index=p["offered_from"]),
                }
            )
        elif p["seed_epoch"] in revealed:
            again = derive_faces(
                revealed[p["seed_epoch"]], dice_id, whole(p["roll_index"]), whole(p["count"]), whole(p["sides"])
            )
            dice_checks.append(
                {
                    "roll": whole(p["roll_index"]),
                    "check": (
                        _("re-derived from the revealed seed: matches")
                        if list(again) == list(array(p["faces"]))
                        else _("re-derived from the revealed seed: MISMATCH {faces}").format(faces=list(again))
                    )
                    + (
                        " "
                        + ngettext(
                            "(mixed with its {n} share of entropy)", "(mixed with its {n} shares of entropy)", n
                        ).format(n=n)
                        if (n := mixed[p["seed_epoch"]])
                        else ""
                    ),
                }
            )
        else:
            dice_checks.append(
                {"roll": whole(p["roll_index"]), "check": _("seed not revealed yet: checkable after `reveal`")}
            )
    point = branch_point(store, cid) if may_be_branch(info) else None
    if point is not None:  # a branch: each roll kept from its parent, offered again, or new
        whence = Origins(store, cid, point).of(group.events)
        for entry, d in zip(dice_checks, (e for e in group.events if e.type == "dice.rolled"), strict=True):
            entry["origin"] = whence[d.seq]
    _changed_since(store, cid, group.first_seq, dice_checks, rewinds)
    consumed = {i for e in rules for i in array(e.payload["dice"])}
    for entry in dice_checks:
        if entry["roll"] not in consumed:
            entry["check"] += "; " + _(
                "consumed by no rule (a throwaway roll: whoever holds an unrevealed seed can burn these)"
            )
    # Every rule application that used these dice, retracted or re-run by an amendment.
    users: list[InForce] = [
        {"seq": e.seq, "retracted": e.seq in gone, "explanation": text(e.payload["explanation"])} for e in users_events
    ]
    # What is in force first: the rulings on these dice (or of this command) still in effect, then each one
    # retracted, superseded by those in force where there are any (an amendment re-ran it on the same dice).
    own: list[InForce] = [
        {"seq": e.seq, "retracted": e.seq in gone, "explanation": text(e.payload["explanation"])} for e in own_rules
    ]
    rulings = sorted([*users, *own], key=lambda r: r["seq"])
    in_force = [r for r in rulings if not r["retracted"]]
    # A command amended is retracted, and the amendment's own rulings (on its corrected inputs) are in force in
    # its place: said as such, not as "nothing" (the amendment may no longer use these dice at all).
    taken_back = group.issued is not None and bool(retracted_among([group.issued], rewinds))
    amended = _amended_by(store, cid, group, rewinds) if taken_back else None
    superseded: list[Superseded] = [
        {**r, "superseded_by": [f["seq"] for f in in_force if f["seq"] > r["seq"]]} for r in rulings if r["retracted"]
    ]
    clauses = sorted({str(e.payload["clause"]) for e in group.events if e.type == "rules.applied"})
    first = next(iter(store.read(cid, upto_seq=1)))
    first_checked = window[0].seq if window else seq
    said = _rulings_said(store, group, users_events, own_rules, amended, names)
    return {
        "seq": seq,
        "type": event.type,
        "retracted": seq in gone,
        # a ruling audited reads as its line among the rulings does, from its dice (without them, as recorded)
        "what": said.get(seq) or describe(event, names),
        "actor": event.meta.get("actor"),
        "recorded_at": event.meta.get("recorded_at"),
        "command": group.issued.payload["command"] if group.issued else event.meta.get("command"),
        "inputs": group.issued.payload["args"] if group.issued else None,
        "entered": describe(group.issued, names) if group.issued else words(str(event.meta.get("command", ""))),
        "explanations": [o["explanation"] for o in group.outcomes],
        "clauses": clauses,
        "checks": {
            "chain": (
                _("intact up to here")
                if broken is None and first_checked == 1
                else _("intact from #{seq} up to here (`verify` checks the whole log)").format(seq=first_checked)
                if broken is None
                else _("BROKEN: seq {seq} ({type}): its stored hash does not match its content").format(
                    seq=broken.seq, type=broken.type
                )
            ),
            "dice": dice_checks,
            "rule": _rule_check(ledger, info, group, gone_since=taken_back, amended=amended),
        },
        "dice_used_by": users,
        "in_force": in_force,
        "superseded": superseded,
        "amended_by": amended,
        "seed_chosen": bool(first.payload.get("seed_chosen")),
        "hash": event.hash,
        "said": said,
    }


def _rulings_said(
    store: EventStore,
    group: CommandGroup,
    users: list[RecordedEvent],
    own: list[RecordedEvent],
    amended: Amended | None,
    names: Mapping[str, str],
) -> dict[int, str]:
    """Each ruling the audit shows, by seq, in the reader's language (its recorded sentence in English): for the
    views to print, never for ``--json``, which keeps the recorded explanations."""
    from campaign.replay import command_of

    events = list(group.events)
    if amended is not None:
        first = next(
            iter(store.read(group.events[0].campaign_id, after_seq=amended["seq"] - 1, upto_seq=amended["seq"]))
        )
        events += command_of(store, first).events
    rolls, faces = dice_of(events)
    amending = [e for e in events if e.type == "rules.applied" and e not in group.events]
    return {e.seq: describe(e, names, rolls, faces) for e in [*users, *own, *amending]}


class InForce(TypedDict):
    seq: int
    retracted: bool
    explanation: str


class Amended(TypedDict):
    """The amendment in effect of an audited command: its seq and its rulings in force."""

    seq: int
    in_force: list[InForce]


class Superseded(InForce):
    """A ruling retracted, and the rulings in force after it (an amendment re-ran it on the same dice)."""

    superseded_by: list[int]


class DiceChange(TypedDict):
    """A roll taken off the table by a reroll (``dice.set_aside``), or corrected by the table (``dice.corrected``:
    the keys marked not required are its own)."""

    seq: int
    type: str
    reason: JsonValue
    by: object
    """Who: the reroll's actor, the correction's ``by``."""
    retracted: NotRequired[bool]
    roll: NotRequired[int]
    faces_before: NotRequired[list[JsonValue]]
    faces: NotRequired[list[JsonValue]]
    replaced_by: NotRequired[int | None]


class DiceCheck(TypedDict):
    """What ``audit`` found of one of the command's rolls."""

    roll: int
    check: str
    """In the reader's language."""
    origin: NotRequired[Mapping[str, object]]
    """On a branch: kept from its parent, offered again, or new."""
    changed: NotRequired[DiceChange]
    """What happened to it since, on the record (a reroll, a correction)."""


class AuditChecks(TypedDict):
    chain: str
    dice: list[DiceCheck]
    rule: str


class Audit(TypedDict):
    """What ``audit`` shows of one event (:func:`audit`): ``--json`` prints it as it is."""

    seq: int
    type: str
    retracted: bool
    what: str
    actor: object
    recorded_at: object
    command: object
    """The command's name as recorded (its ``issued`` record, or the event's meta)."""
    inputs: JsonValue
    """The command's inputs as recorded; None for an event no command issued."""
    entered: str
    explanations: list[str]
    clauses: list[str]
    checks: AuditChecks
    dice_used_by: list[InForce]
    in_force: list[InForce]
    superseded: list[Superseded]
    amended_by: Amended | None
    seed_chosen: bool
    hash: str
    said: NotRequired[dict[int, str]]
    """Each ruling by seq in the reader's language, for the views (``--json`` and the API, which leaves it out,
    keep the recorded explanations)."""


def _amended_by(store: EventStore, cid: str, group: CommandGroup, rewinds: list[RecordedEvent]) -> Amended | None:
    """The amendment in effect of ``group``'s command (an amendment of an amendment followed to the last one), with
    its rulings in force; None when the command was not amended, or its amendment is itself taken back."""
    from campaign.replay import command_of

    if group.issued is None:
        return None
    amending = [
        e for e in store.read_types(cid, ["timeline.command_issued"], after_seq=group.issued.seq)
        if e.payload.get("amends") is not None
    ]  # fmt: skip
    gone = retracted_among(amending, rewinds)
    target, found = group.issued.seq, None
    while True:
        later = [e for e in amending if e.payload["amends"] == target and e.seq not in gone]
        if not later:
            break
        found = later[-1]
        target = found.seq
    if found is None:
        return None
    events = command_of(store, found).events
    own = [e for e in events if e.type == "rules.applied"]
    taken = retracted_among(own, rewinds)
    return {
        "seq": found.seq,
        "in_force": [
            {"seq": e.seq, "retracted": False, "explanation": text(e.payload["explanation"])}
            for e in own
            if e.seq not in taken
        ],
    }


def _rule_check(
    ledger: Ledger,
    info: CampaignInfo,
    group: CommandGroup,
    *,
    gone_since: bool = False,
    amended: Amended | None = None,
) -> str:
    """The command's rule re-run on its recorded inputs and dice, from the campaign as it stood before it; for a
    command no longer in effect, the check is of what it recorded, and says that is not what is in force."""
    from campaign.replay import Sandbox, command_groups, redecide

    if group.issued is None or not group.outcomes:
        return _("no rule applied")
    try:
        # a rule application's whole payload decided again, or (re-run in a sandbox) what a re-run compares of it
        outcomes: Sequence[Mapping[str, object]] | None = redecide(ledger, info, group)
        if outcomes is None:  # recorded without its ids: re-run in a sandbox over the log before it
            before = list(ledger.store.read(info.campaign_id, upto_seq=group.first_seq - 1))
            outcomes = command_groups(Sandbox(ledger, before).run(info.campaign_id, group))[0].outcomes
    except CampaignError as exc:
        return _("cannot be re-evaluated: {error}").format(error=refusal(exc))
    same = [o["outcome"] for o in outcomes] == [o["outcome"] for o in group.outcomes]
    if not gone_since:
        return (
            _("re-evaluated on its recorded inputs and dice: same outcome")
            if same
            else _("re-evaluated on its recorded inputs and dice: DRIFT")
        )
    if amended is not None:
        where = _("not in force: amended at #{seq}, `campaign audit {seq}`").format(seq=amended["seq"])
    else:
        where = _("not in force: taken back")
    said = (
        _("re-evaluated on its recorded inputs and dice: the outcome it recorded ({where})")
        if same
        else _("re-evaluated on its recorded inputs and dice: DRIFT from what it recorded ({where})")
    )
    return said.format(where=where)


class RollAt(TypedDict):
    roll: int
    seq: int


class ShareShown(TypedDict):
    seq: int
    by: str
    commitment: str
    share: NotRequired[str]
    """Only once the epoch's seed is revealed with it."""


class Entropy(TypedDict):
    """What ``entropy`` shows of a seed epoch (:func:`entropy`)."""

    campaign: str
    epoch: int
    current: bool
    revealed: bool
    open: bool
    closed_by_roll: RollAt | None
    """The first seeded roll of the current epoch, which closed it to shares (None while it is open)."""
    shares: list[ShareShown]


def entropy(ledger: Ledger, info: CampaignInfo, epoch: int | None = None) -> Entropy:
    """The shares of entropy committed for a seed epoch (the current one by default): who gave each and its
    commitment; the shares themselves only once the epoch's seed is revealed with them. Whether the epoch still
    takes shares: until its first seeded roll."""
    current = info.seed_epoch
    wanted = current if epoch is None else epoch
    if not 0 <= wanted <= current:
        raise NotFoundError.saying(
            "no seed epoch {epoch} in {campaign}: its epochs are 0–{current}",
            epoch=wanted,
            campaign=info.name,
            current=current,
        )
    committed = ledger.epoch_shares(info, wanted)
    reveal = next(
        (e for e in ledger.store.read_types(info.campaign_id, ["dice.seed_revealed"]) if e.payload["epoch"] == wanted),
        None,
    )
    published = texts(reveal.payload.get("shares", [])) if reveal is not None else []
    first = ledger.first_seeded_roll(info) if wanted == current else None
    shares: list[ShareShown] = []
    for i, e in enumerate(committed):
        entry: ShareShown = {"seq": e.seq, "by": text(e.payload["by"]), "commitment": text(e.payload["commitment"])}
        if i < len(published):
            entry["share"] = published[i]
        shares.append(entry)
    return {
        "campaign": info.name,
        "epoch": wanted,
        "current": wanted == current,
        "revealed": reveal is not None,
        "open": wanted == current and first is None,
        "closed_by_roll": None if first is None else {"roll": whole(first.payload["roll_index"]), "seq": first.seq},
        "shares": shares,
    }

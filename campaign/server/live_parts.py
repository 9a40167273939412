"""The campaign page's live parts, as fragments (:mod:`campaign.server.fragments`): the roster, the battle being
fought (with the members), the charts and the log. Each reads by pages: the summary at the head, the battle's
last entries and the log's last :data:`LOG_ENTRIES` by the store's indexes, the charts' points from snapshots."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from campaign.access.invitations import sides_known
from campaign.i18n import DEFAULT, _, language, ngettext, pgettext
from campaign.i18n.terms import shown
from campaign.read import views
from campaign.read.describe import ROLE_WORDS, dice_of, explained_by
from campaign.read.log import dice_before, log_page
from campaign.rulesets.sheets import battle_sheet
from campaign.server.charts import chart_series
from campaign.server.fragments import GM, At, Registry, Rows
from events.envelope import RecordedEvent
from events.families.timeline import CommandIssued
from events.recorded import text
from projections.fold import Summary, SummaryRow

PAGE = Registry()
LOG_ENTRIES = 200
BATTLE_ENTRIES = 12
_templates = Environment(
    loader=FileSystemLoader(Path(__file__).parent / "templates" / "fragments"), autoescape=select_autoescape()
)
# Rendered in the language Fragments.at reads them in: the fragments say their words through _ and ngettext.
_templates.globals.update(
    _=_, ngettext=ngettext, pgettext=pgettext, heading=views.heading, shown=shown, role_words=ROLE_WORDS
)


def _render(name: str, **context: object) -> str:
    return _templates.get_template(name).render(**context)


def _summary(at: At) -> Summary:
    """The summary at the head, made once for the parts of one rendering that show it."""
    key = ("summary", at.info.last_seq, at.info.head_hash)
    found = at.memo.get("summary")
    if found is None or found[0] != key:
        found = at.memo["summary"] = (key, views.summary(at.ledger, at.info))
    return found[1]


def _accounts(at: At) -> frozenset[str]:
    """The accounts the campaign's log granted a membership, read once for the parts of one rendering: who entered
    an entry (or its table dice) is said by them (``views.author_said``)."""
    key = ("accounts", at.info.last_seq, at.info.head_hash)
    found = at.memo.get("accounts")
    if found is None or found[0] != key:
        found = at.memo["accounts"] = (key, views.accounts_of(at.ledger.store, at.info.campaign_id, at.info.last_seq))
    return found[1]


CAREER_COLUMNS = ("side", "glory", "reputation", "rank", "battles", "xp", "injuries", "traits")
"""What a career row may hold, in the order shown: each ruleset's rows have some of them (an officer's Glory and
rank; a Grimdark hero's battles, XP and injuries)."""


@PAGE.fragment("roster")
def roster(at: At) -> str:
    s = _summary(at)
    # an officer's battles are recorded as the battles' ids: counted here, never shown as ids
    careers = [
        {**r, "battles": len(battles)} if isinstance(battles := r.get("battles"), list | tuple) else r
        for r in s.careers
    ]
    career_columns = [c for c in CAREER_COLUMNS if any(r.get(c) not in (None, "", [], ()) for r in careers)]
    return _render(
        "roster.html",
        head=at.info.last_seq,
        units=s.units,
        # a closed set's value (a quality, a fatigue, a rank) in the seed's words, as the CLI's roster says it
        cell=lambda column, v: views.cell(column, v, at.info.ruleset) if column in views.TERMS else v,
        columns=[c for c in views.STATUS_COLUMNS if any(c in u for u in s.units)],
        headings=views.HEADINGS,
        careers=careers,
        career_columns=career_columns,
        heroes=bool(careers) and all(r.get("hero") for r in careers),
        treasury=s.treasury,
    )


def _dice(
    at: At, events: list[RecordedEvent], *, among: bool = False
) -> tuple[dict[int, int], dict[int, tuple[int, ...]]]:
    """The dice the rule applications among ``events`` used (those rolled before them read too): a ruling's
    sentence in the reader's language says its dice, as the CLI's log and the audit page say it. English reads
    the recorded text, which needs none."""
    if language() == DEFAULT:
        return {}, {}
    return dice_of([*dice_before(at.ledger.store, at.info.campaign_id, events, among=among), *events])


def battle_being_fought(summary: Summary) -> SummaryRow | None:
    """The battle being fought (the last one not ended, with no result yet), or None."""
    return next((b for b in reversed(summary.battles) if not b.get("ended") and not b.get("result")), None)


@PAGE.fragment("battle")
def battle(at: At) -> str:
    fought = battle_being_fought(_summary(at))
    entries: list[dict[str, object]] = []
    if fought is not None:
        page = log_page(
            at.ledger.store,
            at.info.campaign_id,
            battle=text(fought["battle_id"]),
            upto=at.info.last_seq,
            last=BATTLE_ENTRIES,
        )
        # each fact once, as the CLI's log says it: an outcome its rule's line already says is left out
        said = explained_by([e for e, _ in page.entries])
        kept = [(e, gone) for e, gone in page.entries if e.seq not in said]
        dice = _dice(at, [e for e, _ in page.entries], among=True)
        entries = views.entries_in_words(page.names, kept, *dice, accounts=_accounts(at), ruleset=at.info.ruleset)
    members = sorted(at.members.values(), key=lambda m: (m.role, m.account))
    cards = battle_sheet(at.info.ruleset, at.ledger.states.get(at.info), _summary(at)) if fought else []
    return _render(
        "battle.html", battle=fought, battle_log=entries, members=members, cards=cards, ruleset=at.info.ruleset
    )


@PAGE.fragment("link-for", by_role=True)
def link_for(at: At) -> str:
    """Whom the game master's invitation link is for: a player of each side the campaign knows (its units' and
    its players'), drawn again as a side musters its first unit. Only the game master's rendering holds it."""
    if at.kind != GM:
        return ""
    return _render("link_for.html", known_sides=sides_known(_summary(at).units, at.members.values()))


@PAGE.fragment("invite-side-list", by_role=True)
def invite_sides(at: At) -> str:
    """The sides an invitation by account name suggests (the game master's rendering only)."""
    if at.kind != GM:
        return ""
    return _render("invite_sides.html", known_sides=sides_known(_summary(at).units, at.members.values()))


@PAGE.fragment("charts")
def charts(at: At) -> str:
    return _render("charts.html", charts=chart_series(at.ledger, at.info, at.memo.setdefault("chart points", {})))


@PAGE.fragment("log", by_role=True)
def log(at: At) -> Rows:
    """The last entries, newest first. Each row is worded and rendered once and kept while it is shown: a new head
    adds its own rows (a row changes only if a rewind retracts its event, or a name it uses is new).

    The game master's rendering (``at.kind``) gives each row its corrections: amend a command's row, rewind to
    a row, and undo on the newest. They are links to the page's own forms, filled in (``?amend=SEQ``,
    ``?rewind=SEQ``), not forms: a fragment is shared by every game master's page, and a form would need the
    reader's own session token; the page's form then previews an amendment and asks before a rewind."""
    gm = at.kind == GM
    page = log_page(at.ledger.store, at.info.campaign_id, upto=at.info.last_seq, last=LOG_ENTRIES, show_all=True)
    kept: dict[tuple[int, bool, bool], str] = at.memo.setdefault("log rows", {})
    # who entered each row, in words the group knows: its account, or the game master for an entry made on the
    # database itself (the command line records its OS user)
    accounts = _accounts(at)
    if at.memo.get("log names") != page.names or at.memo.get("log accounts") != accounts:
        kept.clear()
        at.memo["log names"] = dict(page.names)
        at.memo["log accounts"] = accounts
    rows = {}
    newest = True
    dice: tuple[dict[int, int], dict[int, tuple[int, ...]]] | None = None  # read once, for the new rows only
    for event, gone in reversed(page.entries):
        key = (event.seq, gone, newest)
        row = kept.get(key)
        if row is None:
            dice = dice or _dice(at, [e for e, _ in page.entries])
            (entry,) = views.entries_in_words(
                page.names, [(event, gone)], *dice, accounts=accounts, ruleset=at.info.ruleset
            )
            row = _render(
                "log_row.html",
                e=entry,
                by=views.author_said(entry["actor"], accounts),
                campaign_id=at.info.campaign_id,
                gm=gm,
                amendable=event.type == CommandIssued.event_name and not gone,  # one link a command: its own row
                newest=newest,
            )
        rows[key] = row
        newest = False
    at.memo["log rows"] = rows
    return Rows(
        _render("log.html", rows=list(rows.values())), tuple((str(seq), row) for (seq, _, _), row in rows.items())
    )

"""Campaign memberships: granted and removed by ``membership.*`` events, read from their read model.

A rewind retracts game events, not memberships: who could act on the campaign is not part of the story being
rewound, and the membership events stay in the log for audit whatever is retracted around them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import orjson
from sqlalchemy import ColumnElement, Connection, Engine, bindparam, delete, insert, select

from campaign.access.tables import memberships
from campaign.executor import Ledger
from campaign.read.describe import ROLE_WORDS
from events.envelope import RecordedEvent
from events.errors import InvalidInputError, Words
from events.families.membership import MemberGranted, MemberRemoved, Role
from events.limits import check_name, check_text
from events.recorded import seq
from events.registry import registry
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

ROLES: tuple[Role, ...] = ("gm", "player", "observer")
MAX_SIDES = 20
"""The sides one player may play (a campaign has a handful; a list of thousands is not an invitation)."""


@dataclass(frozen=True, slots=True)
class Member:
    account: str
    role: Role
    sides: tuple[str, ...] = ()


class MembershipsProjector:
    """Inline writer of ``memberships``, in the same transaction as the events it reads."""

    name = "memberships"

    def project(self, connection: Connection, events: Sequence[RecordedEvent]) -> None:
        for event in events:
            if event.type not in ("membership.granted", "membership.removed"):
                continue
            p = event.payload
            connection.execute(
                delete(memberships).where(
                    memberships.c.campaign_id == event.campaign_id, memberships.c.account == p["account"]
                )
            )
            if event.type == "membership.granted":
                connection.execute(
                    insert(memberships).values(
                        campaign_id=event.campaign_id,
                        account=p["account"],
                        role=p["role"],
                        sides=orjson.dumps(list(seq(p.get("sides", [])))).decode(),
                    )
                )

    def reset(self, connection: Connection) -> None:
        connection.execute(delete(memberships))


_BY_KEY = select(memberships.c.account, memberships.c.role, memberships.c.sides).where(
    memberships.c.campaign_id == bindparam("campaign_id"), memberships.c.account == bindparam("account")
)


class Memberships:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def of(self, campaign_id: str) -> dict[str, Member]:
        return {m.account: m for _, m in self._where(memberships.c.campaign_id == campaign_id)}

    def member(self, campaign_id: str, account: str) -> Member | None:
        # By its key, not the campaign's every membership: every request of a member reads it. One statement
        # built once, its values bound: building and keying a new one cost more than the read itself.
        with self.engine.connect() as conn:
            row = conn.execute(_BY_KEY, {"campaign_id": campaign_id, "account": account}).first()
        return None if row is None else Member(row[0], row[1], tuple(orjson.loads(row[2])))

    def campaigns_of(self, account: str) -> dict[str, Member]:
        """The campaign ids ``account`` belongs to, with its membership in each."""
        return dict(self._where(memberships.c.account == account))

    def _where(self, condition: ColumnElement[bool]) -> list[tuple[str, Member]]:
        """The memberships meeting ``condition``, each with its campaign id."""
        c = memberships.c
        with self.engine.connect() as conn:
            rows = conn.execute(select(c.campaign_id, c.account, c.role, c.sides).where(condition)).all()
        return [(r[0], Member(r[1], r[2], tuple(orjson.loads(r[3])))) for r in rows]


def grant(
    ledger: Ledger,
    members: Memberships,
    info: CampaignInfo,
    account: str,
    role: str,
    sides: Sequence[str] = (),
    *,
    account_exists: bool,
    command_id: str | None = None,
) -> AppendResult:
    """Give ``account`` a role in the campaign (the invitation), as a ``membership.granted`` event."""
    if not account_exists:
        raise InvalidInputError.saying(
            "no account named {account!r}: it signs up first (or `campaign user add`)", account=account
        )
    if role not in ROLES:
        raise InvalidInputError.saying("role must be one of {roles}, not {role!r}", roles=", ".join(ROLES), role=role)
    if len(sides) > MAX_SIDES:
        raise InvalidInputError.saying(
            "a player plays at most {most} sides, not {count}", most=MAX_SIDES, count=len(sides)
        )
    chosen = sorted({check_name(s, Words("a side")) for s in sides if s.strip()})
    if role == "player" and not chosen:
        raise InvalidInputError.saying("a player plays one or more sides: name them (e.g. --side Keno)")
    if role != "player" and chosen:
        raise InvalidInputError.saying(
            "only a player is bound to sides, not the {role}", role=Words(ROLE_WORDS.get(role, role))
        )
    current = members.of(info.campaign_id)
    chosen = _sides_as_known(chosen, members.engine, info, current)
    _keep_a_gm(current, account, role)
    event = MemberGranted(account=account, role=role, sides=chosen)
    return ledger.append_prepared(info, [registry.encode(event)], "membership.grant", command_id)


def remove(
    ledger: Ledger,
    members: Memberships,
    info: CampaignInfo,
    account: str,
    reason: str = "",
    command_id: str | None = None,
) -> AppendResult:
    check_text(reason, Words("a removal's reason"))
    current = members.of(info.campaign_id)
    if account not in current:
        raise InvalidInputError.saying("{account} is not a member of {campaign}", account=account, campaign=info.name)
    _keep_a_gm(current, account, None)
    event = MemberRemoved(account=account, reason=reason)
    return ledger.append_prepared(info, [registry.encode(event)], "membership.remove", command_id)


def _sides_as_known(chosen: Sequence[str], engine: Engine, info: CampaignInfo, current: dict[str, Member]) -> list[str]:
    """The sides as the campaign spells them (its units', its players'; matched as names are, letter case aside).
    A side it does not know yet may be one not mustered yet; one a letter or two away from a side it knows is a
    typo that would bind the player to nobody's units: refused, with the side meant."""
    import difflib

    from projections.summaries import stored_summary

    summary = stored_summary(engine, info.campaign_id, info.last_seq)
    known = {str(u["side"]) for u in summary.units if u.get("side")} if summary is not None else set()
    known |= {side for m in current.values() for side in m.sides}
    folded = {k.casefold(): k for k in known}
    spelled = []
    for side in chosen:
        if side.casefold() in folded:
            spelled.append(folded[side.casefold()])
            continue
        spelled.append(side)
        near = difflib.get_close_matches(side.casefold(), list(folded), n=1, cutoff=0.75)
        if near:
            raise InvalidInputError.saying(
                "{campaign} has no side {side!r}: did you mean {near!r}? (a new side needs a name apart from the "
                "others)",
                campaign=info.name,
                side=side,
                near=folded[near[0]],
            )
    return sorted(set(spelled))


def _keep_a_gm(current: dict[str, Member], account: str, new_role: str | None) -> None:
    gms = {a for a, m in current.items() if m.role == "gm"}
    if gms == {account} and new_role != "gm":
        raise InvalidInputError.saying(
            "{account} is the campaign's only game master: make another member GM first", account=account
        )

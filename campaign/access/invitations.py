"""Invitation links: the game master makes a link for a role (a player of named sides, or an observer); whoever
opens it signs up or signs in and joins the campaign with that role.

A link is a random secret (``secrets``) shown once, to the game master who made it; the database keeps only its
SHA-256 (as for sessions), so a copy of the database joins nobody. It opens once, until it expires (the server's
invitation lifetime, ``campaign serve --invite-hours``) or the game master revokes it. Joining by it is the
``membership.granted`` event an invitation by account name appends, entered by the account that joins.

The link is marked used before the membership is granted, by a compare-and-set on its row, and the mark taken back
if the grant is refused: two people opening one link at once cannot both join by it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Column, ColumnElement, Engine, Row, and_, insert, select, update

from campaign.access.accounts import digest, iso
from campaign.access.memberships import MAX_SIDES, Member, Memberships, grant
from campaign.access.tables import invitations as invitations_t
from campaign.executor import Ledger
from campaign.i18n import N_, _, refusal
from events.errors import CampaignError, ConcurrencyError, InvalidInputError, NotFoundError, Words
from events.limits import check_name
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

LINK_ROLES = ("player", "observer")
"""The roles a link gives: a game master is made by name (``campaign invite NAME --role gm``), never by a link
that may be forwarded."""
DEFAULT_LIFETIME_S = 72 * 3600
"""A link's life when the server sets none (``campaign serve --invite-hours``)."""
MAX_LIFETIME_S = 366 * 24 * 3600
SHOWN = 50
"""The links the game master's list shows (newest first)."""
GRANT_RACES = 5
"""Attempts at the membership event when other commands of the campaign keep being appended first."""


class LinkGoneError(InvalidInputError):
    """A link that was real but opens nothing any more: used, revoked or expired (HTTP 410)."""


@dataclass(frozen=True, slots=True)
class Invitation:
    public_id: str
    campaign_id: str
    role: str
    sides: tuple[str, ...]
    made_by: str
    made_at: int
    expires_at: int
    used_by: str | None = None
    used_at: int | None = None
    revoked_at: int | None = None

    def state(self, now: int) -> str:
        """'open', 'used', 'revoked' or 'expired'."""
        if self.used_by is not None:
            return "used"
        if self.revoked_at is not None:
            return "revoked"
        return "expired" if self.expires_at <= now else "open"

    def role_words(self) -> str:
        """The role the link gives, in the reader's language: "player for Robots", "observer"."""
        if self.role == "player":
            return _("player for {sides}").format(sides=", ".join(self.sides))
        return _("observer") if self.role == "observer" else self.role

    def for_words(self) -> str:
        """Whom the link is for, in the reader's language: "a player for Robots", "an observer"."""
        if self.role == "player":
            return _("a player for {sides}").format(sides=", ".join(self.sides))
        return _("an observer") if self.role == "observer" else self.role

    def as_dict(self, now: int) -> dict[str, object]:
        return {
            "id": self.public_id,
            "role": self.role,
            "sides": list(self.sides),
            "state": self.state(now),
            "made_by": self.made_by,
            "made_at": iso(self.made_at),
            "expires_at": iso(self.expires_at),
            "used_by": self.used_by,
        }


class Invitations:
    def __init__(self, engine: Engine, now: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.now = now

    def make(
        self,
        members: Memberships,
        info: CampaignInfo,
        role: str,
        sides: Sequence[str],
        made_by: str,
        lifetime_s: int,
    ) -> tuple[str, Invitation]:
        """A new link's secret (returned once) and the invitation it opens; refused in words for a role a link
        does not give, a player without sides, or a side the campaign does not know."""
        if role not in LINK_ROLES:
            raise InvalidInputError.saying(
                "a link invites a player or an observer, not {role!r} (a game master is invited by account name)",
                role=role,
            )
        if not 0 < lifetime_s <= MAX_LIFETIME_S:
            raise InvalidInputError.saying("a link lasts from an hour to {days} days", days=MAX_LIFETIME_S // 86400)
        if len(sides) > MAX_SIDES:
            raise InvalidInputError.saying(
                "a player plays at most {most} sides, not {count}", most=MAX_SIDES, count=len(sides)
            )
        chosen = sorted({check_name(s, Words("a side")).strip() for s in sides if s.strip()})
        if role == "player" and not chosen:
            raise InvalidInputError.saying("a player's link names the side it plays")
        if role != "player" and chosen:
            raise InvalidInputError.saying("only a player is bound to sides, not an {role}", role=role)
        known = known_sides(members, info)
        folded = {k.casefold(): k for k in known}
        unknown = [s for s in chosen if s.casefold() not in folded]
        if unknown:
            has = (
                Words("its sides are {sides}", sides=", ".join(sorted(known, key=str.casefold)))
                if known
                else Words("it has no side yet")
            )
            raise InvalidInputError.saying(
                "{campaign} has no side {side!r} ({has}): muster a unit of the side first, or invite the player by "
                "account name",
                campaign=info.name,
                side=unknown[0],
                has=has,
            )
        spelled = tuple(sorted({folded[s.casefold()] for s in chosen}))
        secret = secrets.token_urlsafe(24)
        now = int(self.now())
        invitation = Invitation(secrets.token_hex(8), info.campaign_id, role, spelled, made_by, now, now + lifetime_s)
        with self.engine.begin() as conn:
            conn.execute(
                insert(invitations_t).values(
                    token_hash=digest(secret),
                    public_id=invitation.public_id,
                    campaign_id=info.campaign_id,
                    role=role,
                    sides=orjson.dumps(list(spelled)).decode(),
                    made_by=made_by,
                    made_at=now,
                    expires_at=invitation.expires_at,
                )
            )
        return secret, invitation

    def find(self, secret: str) -> Invitation | None:
        """The invitation ``secret`` is the link of, in whatever state (None: no link of this server)."""
        if not secret or len(secret) > 100:
            return None
        return self._one(invitations_t.c.token_hash == digest(secret))

    def opened(self, secret: str) -> Invitation:
        """The invitation ``secret`` opens now; refused in words if it is no link, or is used, revoked or expired."""
        found = self.find(secret)
        if found is None:
            raise NotFoundError.saying(NOT_OURS)
        state = found.state(int(self.now()))
        if state != "open":
            raise gone(state, found)
        return found

    def of(self, campaign_id: str) -> list[Invitation]:
        """The campaign's links, newest first (at most :data:`SHOWN`)."""
        c = invitations_t.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(*_columns())
                .where(c.campaign_id == campaign_id)
                .order_by(c.made_at.desc(), c.public_id)
                .limit(SHOWN)
            ).all()
        return [_invitation(r) for r in rows]

    def revoke(self, campaign_id: str, public_id: str) -> Invitation:
        """End one of the campaign's links; refused if it has none by that id, or it is used already."""
        c = invitations_t.c
        found = self._one(and_(c.campaign_id == campaign_id, c.public_id == public_id))
        if found is None:
            raise NotFoundError.saying("the campaign has no invitation link {id!r}", id=public_id)
        if found.used_by is not None:
            raise InvalidInputError.saying(
                "that link was used already ({account} joined by it): nothing to revoke", account=found.used_by
            )
        if found.revoked_at is None:
            with self.engine.begin() as conn:
                # unused in the same statement that revokes: a join landing between the read above and this
                # write has used the link, and the game master must be told so, not that it is dead
                revoked = conn.execute(
                    update(invitations_t)
                    .where(c.public_id == public_id, c.revoked_at.is_(None), c.used_by.is_(None))
                    .values(revoked_at=int(self.now()))
                ).rowcount
            if revoked != 1:
                now = self._one(and_(c.campaign_id == campaign_id, c.public_id == public_id))
                if now is not None and now.used_by is not None:
                    raise InvalidInputError.saying(
                        "that link was used a moment ago ({account} joined by it): nothing to revoke",
                        account=now.used_by,
                    )
        return found

    def join(
        self,
        secret: str,
        account: str,
        ledger: Ledger,
        members: Memberships,
        campaign: Callable[[str], CampaignInfo],
    ) -> tuple[Invitation, CampaignInfo, AppendResult]:
        """``account`` joins by the link ``secret``: the link is used up and the membership granted (the event
        entered by ``ledger``'s actor, the account joining). Refused in words, the link left as it was, if the
        account is a member already."""
        invitation = self.opened(secret)
        info = campaign(invitation.campaign_id)
        already = members.member(info.campaign_id, account)
        if already is not None:
            raise InvalidInputError.saying(
                "{account} is a member of {campaign} already ({role}): the link is left for someone else",
                account=account,
                campaign=info.name,
                role=_role_words(already),
            )
        self._use(secret, account)
        try:
            for attempt in range(GRANT_RACES):
                try:
                    result = grant(
                        ledger,
                        members,
                        info,
                        account,
                        invitation.role,
                        invitation.sides,
                        account_exists=True,
                        command_id=f"invitation-{invitation.public_id}",
                    )
                    break
                except ConcurrencyError:  # another command came first: the grant on the campaign's new head
                    if attempt == GRANT_RACES - 1:
                        raise
                    info = campaign(invitation.campaign_id)
        except CampaignError:
            self._unuse(secret, account)
            raise
        return invitation, info, result

    def _use(self, secret: str, account: str) -> None:
        c = invitations_t.c
        now = int(self.now())
        with self.engine.begin() as conn:
            marked = conn.execute(
                update(invitations_t)
                .where(c.token_hash == digest(secret), c.used_by.is_(None), c.revoked_at.is_(None), c.expires_at > now)
                .values(used_by=account, used_at=now)
            ).rowcount
        if marked != 1:  # another opening of the link won the race (or it was revoked meanwhile)
            self.opened(secret)
            raise LinkGoneError.saying("this invitation link was used a moment ago: ask the game master for a new one")

    def _unuse(self, secret: str, account: str) -> None:
        c = invitations_t.c
        with self.engine.begin() as conn:
            conn.execute(
                update(invitations_t)
                .where(c.token_hash == digest(secret), c.used_by == account)
                .values(used_by=None, used_at=None)
            )

    def _one(self, condition: ColumnElement[bool]) -> Invitation | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(*_columns()).where(condition)).first()
        return None if row is None else _invitation(row)


def known_sides(members: Memberships, info: CampaignInfo) -> list[str]:
    """The sides the campaign knows: its units' and its players'."""
    from projections.summaries import stored_summary

    summary = stored_summary(members.engine, info.campaign_id, info.last_seq)
    return sides_known(summary.units if summary is not None else (), members.of(info.campaign_id).values())


def sides_known(units: Iterable[Mapping[str, object]], members: Iterable[Member]) -> list[str]:
    """The sides of ``units`` and of the players among ``members``, in the order a picker lists them."""
    known = {str(u["side"]) for u in units if u.get("side")}
    known |= {side for m in members for side in m.sides}
    return sorted(known, key=str.casefold)


def when(seconds: int) -> str:
    """A moment as a person reads it, in the reader's language: "5 Dec 2026, 02:58 UTC"."""
    from campaign.i18n.formats import moment

    return moment(seconds)


NOT_OURS = N_("this invitation link is not one of this server's: ask the game master for a new one")


def gone(state: str, invitation: Invitation) -> LinkGoneError:
    """Why a link used, revoked or expired opens nothing (said in the reader's language where it is shown)."""
    if state == "used":
        return LinkGoneError.saying(
            "this invitation link was used already ({account} joined by it): ask for a new one",
            account=invitation.used_by,
        )
    if state == "revoked":
        return LinkGoneError.saying("this invitation link was revoked by the game master: ask for a new one")
    return LinkGoneError.saying(
        "this invitation link expired on {moment}: ask the game master for a new one",
        moment=when(invitation.expires_at),
    )


def gone_words(state: str, invitation: Invitation) -> str:
    return refusal(gone(state, invitation))


def _role_words(member: Member) -> str:
    if member.role == "player":
        return _("player for {sides}").format(sides=", ".join(member.sides))
    return {"gm": _("game master"), "observer": _("observer")}.get(member.role, member.role)


def _columns() -> list[Column[Any]]:
    c = invitations_t.c
    return [
        *(c.public_id, c.campaign_id, c.role, c.sides, c.made_by),
        *(c.made_at, c.expires_at, c.used_by, c.used_at, c.revoked_at),
    ]


def _invitation(r: Row[Any]) -> Invitation:
    return Invitation(
        r.public_id,
        r.campaign_id,
        r.role,
        tuple(orjson.loads(r.sides)),
        r.made_by,
        int(r.made_at),
        int(r.expires_at),
        r.used_by,
        r.used_at,
        r.revoked_at,
    )

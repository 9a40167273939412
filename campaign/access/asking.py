"""Who is asking, in which campaign, with which role: what every request to a campaign reads first, in one
statement.

A member's request read its session (or token), the campaign's directory entry and the member's role: three
statements, a round trip each, a large part of a command's cost on the group's server besides the command's own
work (``bench/server_load.py``). Here they are one: the session's row, joined to the campaign's entry and to the
membership of the session's account (either missing when there is none). The session is then judged as
:meth:`Accounts.session` judges it (expired, sliding), and the entry handed to the directory's inline writer as
:meth:`SqlCampaignDirectory.get` hands it.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from campaign.access.accounts import SESSION_COLUMNS, Accounts, Session, SessionRow, digest
from campaign.access.memberships import Member
from projections.campaign_directory import COLUMNS, SqlCampaignDirectory
from projections.driver import execute
from projections.state.campaigns import CampaignInfo

_READ = (
    f"SELECT {', '.join(f's.{c}' for c in SESSION_COLUMNS)}, m.role, m.sides, {', '.join(f'c.{c}' for c in COLUMNS)}"  # noqa: S608 (names only)
    " FROM account_sessions s"
    " LEFT JOIN campaigns c ON c.campaign_id = ?"
    " LEFT JOIN memberships m ON m.campaign_id = c.campaign_id AND m.account = s.account"
    " WHERE s.token_hash = ? AND s.kind = ?"
)
_MEMBER = len(SESSION_COLUMNS)
_ENTRY = _MEMBER + 2


@dataclass(frozen=True, slots=True)
class Asking:
    session: Session | None
    """None: the secret opens no session of that kind (none, expired or revoked)."""
    info: CampaignInfo | None
    """None: no campaign of that id (or no session to ask with)."""
    member: Member | None
    """None: the session's account is not a member of the campaign."""


NOBODY = Asking(None, None, None)


def asking(accounts: Accounts, directory: SqlCampaignDirectory, secret: str, kind: str, campaign_id: str) -> Asking:
    """The session ``secret`` opens (a ``kind`` of session), the campaign ``campaign_id`` and its account's
    membership in it: one statement."""
    hashed = digest(secret)
    with accounts.engine.connect() as conn:
        rows = execute(conn, _READ, (campaign_id, hashed, kind))
    if not rows:
        return NOBODY
    row = rows[0]
    session = accounts.judged(hashed, SessionRow(*row[:_MEMBER]))
    if session is None:
        return NOBODY
    info = None if row[_ENTRY] is None else directory.entry(row[_ENTRY:])
    role, sides = row[_MEMBER], row[_MEMBER + 1]
    member = None if info is None or role is None else Member(session.account, role, tuple(orjson.loads(sides)))
    return Asking(session, info, member)

"""The JSON API: accounts and sessions, the read views, and every command by name, for scripts and the page.

Refusals carry the CLI's own message (``{"detail": …}``): 400 bad input, 401 not signed in, 403 not allowed,
404 not found, 409 another command was appended first (re-read and try again; nothing was appended).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import replace
from functools import partial
from typing import Annotated, Literal, TypeVar

import anyio.to_thread
from fastapi import APIRouter, Body, HTTPException, Query, Request, Response
from fastapi import Path as InPath
from fastapi.exceptions import RequestValidationError
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field, PlainValidator, ValidationError
from starlette.concurrency import run_in_threadpool

from campaign.access import memberships
from campaign.access.accounts import iso as _iso
from campaign.access.invitations import Invitation, gone
from campaign.commands import BaseCommand
from campaign.executor import MAX_SHARE, TableEntry
from campaign.read import verify as verify_views
from campaign.read import views
from campaign.rulesets.inputs import Faces
from campaign.server import runner
from campaign.server.context import (
    GM,
    SESSION_COOKIE,
    Account,
    InCampaign,
    Member,
    Player,
    access,
    caller_or_none,
    credentials,
    in_campaign,
    ledger_of,
    server,
)
from campaign.server.fragments import role_kind
from campaign.server.guard import guard
from campaign.server.refusals import REFUSALS
from campaign.server.timeline_ops import AmendAnswer, amend, rewind, undo
from campaign.server.turns import on_the_fresh_state
from events.dice import parse_table_dice
from events.limits import MAX_NUMBER, check_text
from events.pg_engine import give_back_scope_connection, release_scope
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

PageLanguage = Literal["en", "ru", "pl"]
"""A language the page is read in (``campaign.i18n.LANGUAGES``): the live fragments are rendered in it."""

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
router = APIRouter(prefix="/api", responses=REFUSALS)
# Numbers a person types: the same bound as everywhere else (events/limits.py), so a fuzzer's 10**20 gets a 422.
Seq = Annotated[int, Query(ge=0, le=MAX_NUMBER)]
OptionalSeq = Annotated[int | None, Query(ge=0, le=MAX_NUMBER)]
At = Annotated[int | None, Query(ge=0, le=MAX_NUMBER, description="Show the campaign as it was at this seq.")]


class Credentials(BaseModel):
    name: str = Field(max_length=100)
    password: str = Field(max_length=1000)


class NewCampaign(BaseModel):
    name: str = Field(max_length=200)
    ruleset: str = Field(max_length=40)


class CommandRequest(BaseModel):
    command: str = Field(description="A command's name, e.g. fs.attack (GET …/commands lists them).", max_length=80)
    args: dict[str, object] = Field(default_factory=dict, description="The command's inputs by name.")
    dice: Faces | None = Field(default=None, description="Table dice rolled at the table, e.g. 4,2.", max_length=200)
    command_id: str | None = Field(default=None, description="Idempotency key.", max_length=100)


class Grant(BaseModel):
    account: str = Field(max_length=100)
    role: str = Field(max_length=20)
    sides: list[str] = Field(default_factory=list)


class Rewind(BaseModel):
    to: int = Field(ge=0, le=MAX_NUMBER)
    reason: str = Field(default="", max_length=500)


class ShareRequest(BaseModel):
    share: str | None = Field(
        default=None,
        description="Your share of entropy: a line of text (1–200 characters). Left out, one is drawn and returned "
        "once.",
        max_length=MAX_SHARE,  # the executor's own limit: one limit, and one refusal for every share too long
    )


class Amend(BaseModel):
    seq: int = Field(ge=1, le=MAX_NUMBER)
    set: dict[str, object] = Field(default_factory=dict)
    dice: Faces | None = Field(
        default=None,
        description='With reason: the faces the table agrees its dice showed (e.g. "4,2"), its table dice corrected. '
        "Without: the faces of the dice the amendment rolls anew, in the order its preview lists them.",
    )
    reason: str = Field(default="", description="Why the table dice are corrected (needed with dice; recorded).")
    preview: bool = Field(default=False, description="Show each later command's fate; append nothing.")
    head: int | None = Field(
        default=None,
        ge=0,
        le=MAX_NUMBER,
        description="The head the preview was worked out on (its answer's head): refused (400) if the campaign "
        "moved on since.",
    )


def appended(srv_request: Request, info_id: str, result: AppendResult) -> dict[str, object]:
    server(srv_request).live.appended(info_id)
    return {
        "duplicate": result.duplicate,
        "head_seq": result.head.seq,
        "events": [{"seq": e.seq, "type": e.type, "what": e.payload.get("explanation")} for e in result.events],
    }


@router.post("/accounts", status_code=201, openapi_extra=access("public"))
async def sign_up(body: Credentials, request: Request) -> dict[str, str]:
    """Make an account (a password too easy to guess, such as a common one, is refused)."""
    return {"account": await guard(request).sign_up(request, body.name, body.password)}


def set_session_cookie(request: Request, response: Response, secret: str) -> None:
    srv = server(request)
    response.set_cookie(
        SESSION_COOKIE,
        secret,
        max_age=srv.accounts.lifetimes.session_s,
        httponly=True,
        samesite="lax",
        secure=srv.secure_cookies,
    )


@router.post("/session", openapi_extra=access("public"))
async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, str]:
    """Sign in: a session cookie, and the CSRF token to send with each change. Failed attempts slow the next
    ones on the account and on the address, and many lock them for a while (429, ``Retry-After``)."""
    account = await guard(request).sign_in(request, body.name, body.password)
    secret, session = await anyio.to_thread.run_sync(server(request).accounts.open_session, account)
    set_session_cookie(request, response, secret)
    return {"account": account, "csrf": session.csrf, "expires_at": _iso(session.expires_at)}


@router.delete("/session", openapi_extra=access("account"))
def sign_out(who: Account, request: Request, response: Response) -> dict[str, str]:
    """Sign out: this session (or token) ends, and so do the tokens made in it."""
    server(request).accounts.revoke(who.account, who.session.public_id)
    response.delete_cookie(SESSION_COOKIE)
    return {"account": who.account}


class NewToken(BaseModel):
    label: str = Field(
        default="api", description="What the token is for (shown in the list of sessions).", max_length=200
    )


@router.post("/tokens", status_code=201, openapi_extra=access("account"))
def new_token(who: Account, request: Request, body: NewToken | None = None) -> dict[str, str]:
    """A bearer token for scripts (shown once), made in a signed-in session. It lives the server's token lifetime
    from now, whatever becomes of that session's own expiry (a script runs while nobody uses the page), and ends
    sooner when the session signs out or is revoked, or the password changes. A token makes no other token: each
    would live a lifetime past its maker's, and a stolen one would never end (403)."""
    if who.session.kind == "token":
        raise HTTPException(
            403, "a token cannot make another token (it would outlive this one): sign in with the password to make one"
        )
    label = check_text((body or NewToken()).label, "a token's label")
    secret, token = server(request).accounts.open_session(who.account, kind="token", label=label, parent=who.session)
    return {"token": secret, "id": token.public_id, "expires_at": _iso(token.expires_at)}


@router.get("/sessions", openapi_extra=access("account"))
def sessions(who: Account, request: Request) -> list[dict[str, object]]:
    """Your sessions and tokens that have not expired (the one asking is ``current``)."""
    return [
        {**s, "current": s["id"] == who.session.public_id} for s in server(request).accounts.sessions_of(who.account)
    ]


@router.delete("/sessions/{session_id}", openapi_extra=access("account"))
def revoke(session_id: Annotated[str, InPath(max_length=16)], who: Account, request: Request) -> dict[str, str]:
    """End one of your sessions or tokens (a session: with the tokens made in it)."""
    if not server(request).accounts.revoke(who.account, session_id):
        raise HTTPException(404, f"{who.account} has no session or token {session_id!r}: GET /api/sessions lists them")
    return {"revoked": session_id}


class PasswordChange(BaseModel):
    current: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


@router.post("/account/password", openapi_extra=access("account"))
async def change_password(body: PasswordChange, who: Account, request: Request) -> dict[str, object]:
    """A new password (the current one checked, and throttled as a sign-in is); every other session and token of
    the account ends."""
    ended = await guard(request).change_password(request, who.account, body.current, body.new, who.session)
    return {"account": who.account, "sessions_ended": ended}


@router.get("/campaigns", openapi_extra=access("account"))
def campaigns(who: Account, request: Request) -> list[dict[str, object]]:
    srv = server(request)
    mine = srv.members.campaigns_of(who.account)
    return [
        {
            "campaign_id": c.campaign_id,
            "name": c.name,
            "ruleset": c.ruleset,
            "events": c.last_seq,
            "role": mine[c.campaign_id].role,
        }
        for c in srv.app.ledger.directory.all()
        if c.campaign_id in mine
    ]


@router.post("/campaigns", status_code=201, openapi_extra=access("account"))
def new_campaign(body: NewCampaign, who: Account, request: Request) -> dict[str, object]:
    """Start a campaign: its creator is its game master."""
    srv = server(request)
    ledger = srv.ledger_for(who.account)
    result = ledger.create_campaign(body.name, body.ruleset)
    info = srv.campaign(result.events[0].campaign_id)
    memberships.grant(ledger, srv.members, info, who.account, "gm", account_exists=True)
    return {"campaign_id": info.campaign_id, "name": info.name}


@router.get("/campaigns/{campaign_id}", openapi_extra=access("member"))
def status(m: Member, request: Request, at: At = None) -> dict[str, object]:
    return {"campaign_id": m.info.campaign_id, **views.status(server(request).app.ledger, m.info, at)}


@router.get("/campaigns/{campaign_id}/units/{name}", openapi_extra=access("member"))
def unit(name: str, m: Member, request: Request, at: At = None) -> dict[str, object]:
    return views.unit(server(request).app.ledger, m.info, name, at)


@router.get("/campaigns/{campaign_id}/battles", openapi_extra=access("member"))
def battles(m: Member, request: Request, at: At = None) -> list[dict[str, object]]:
    return [dict[str, object](b) for b in views.summary(server(request).app.ledger, m.info, at).battles]


@router.get("/campaigns/{campaign_id}/treasury", openapi_extra=access("member"))
def treasury(m: Member, request: Request, at: At = None) -> dict[str, object]:
    return views.treasury(server(request).app.ledger, m.info, at)


@router.get("/campaigns/{campaign_id}/careers/{pc}", openapi_extra=access("member"))
def career(pc: str, m: Member, request: Request, at: At = None) -> dict[str, object]:
    return dict[str, object](views.career(server(request).app.ledger, m.info, pc, at))


@router.get("/campaigns/{campaign_id}/log", openapi_extra=access("member"))
def log(  # noqa: PLR0913 (the command's options, by keyword)
    m: Member,
    request: Request,
    type: str | None = None,
    unit: str | None = None,
    battle: str | None = None,
    after: Seq = 0,
    at: At = None,
    limit: OptionalSeq = None,
    last: Annotated[
        int | None, Query(ge=0, le=MAX_NUMBER, description="Only the last N events (of those chosen).")
    ] = None,
    all: bool = False,
) -> dict[str, object]:
    """The log in words: each event with who entered it, what happened, and its rule's clause."""
    ledger = server(request).app.ledger
    every, entries = views.log_entries(
        ledger, m.info, type_=type, unit=unit, battle=battle, after=after, upto=at, last=last, limit=limit,
        show_all=all,
    )  # fmt: skip
    if not entries:
        views.known_type(type, "type")
    return {
        "campaign": m.info.name,
        "head_seq": m.info.last_seq,
        "events": views.log_in_words(every, entries, m.info.ruleset),
    }


@router.get("/campaigns/{campaign_id}/audit", openapi_extra=access("member"))
def audit(m: Member, request: Request, seq: OptionalSeq = None, roll: OptionalSeq = None) -> dict[str, object]:
    """One event or roll: who entered it and when, its inputs, its dice re-derived, its rule re-run."""
    found = views.audit(server(request).app.ledger, m.info, seq, roll)
    found.pop("said")  # the rulings in the reader's words: the API keeps the recorded explanations
    return dict(found)  # its shape as the API declares it (an open object), not the TypedDict's


@router.get("/campaigns/{campaign_id}/verify", openapi_extra=access("member"))
def verify(m: Member, request: Request, rules: bool = True) -> dict[str, object]:
    return verify_views.verify_dict(*verify_views.verify(server(request).app.ledger, m.info, rules=rules))


@router.get("/campaigns/{campaign_id}/members", openapi_extra=access("member"))
def members(m: Member, request: Request) -> list[dict[str, object]]:
    found = server(request).members.of(m.info.campaign_id)
    return [{"account": x.account, "role": x.role, "sides": list(x.sides)} for x in found.values()]


@router.get("/campaigns/{campaign_id}/commands", openapi_extra=access("member"))
def commands(m: Member) -> list[dict[str, object]]:
    """The commands this campaign's ruleset takes, with their inputs."""
    return [
        {
            "command": s.name,
            "summary": s.summary,
            "table_dice": s.takes_table_dice,
            "entered_by": s.model.entered_by.value,
            "schema": s.model.model_json_schema(by_alias=True),
            "inputs": {
                f.name: {"kind": f.kind, "means": f.means, "whose": f.whose}
                | {"required": f.required, "default": f.default}
                for f in s.fields
            },
        }
        for s in runner.commands_for(m.info.ruleset)
    ]


def may_run(srv_request: Request, m: InCampaign, command: BaseCommand, info: CampaignInfo) -> None:
    """Refuse (403, in words) a command ``m`` may not run: another side's unit, an observer, the GM's command."""
    if m.member.role != "gm":
        refused = runner.refusal(m.member, command, lambda: views.summary(server(srv_request).app.ledger, info).units)
        if refused is not None:
            raise HTTPException(403, refused)


def run_command(srv_request: Request, m: InCampaign, body: CommandRequest) -> AppendResult:
    """Build the command model, check that the member may run it, and run it through the executor: again on the
    fresh state if another process appended first (``m`` is read in the campaign's turn, :func:`in_turn`)."""
    srv = server(srv_request)
    command = runner.build(body.command, body.args, m.info.ruleset)
    table = TableEntry(tuple(parse_table_dice(body.dice))) if body.dice else None
    ledger = ledger_of(srv_request, m)

    def attempt(info: CampaignInfo) -> AppendResult:
        may_run(srv_request, m, command, info)
        entrant = runner.entrant(m.member)
        command_id = runner.own_command_id(m.caller.account, body.command_id)
        return runner.run(ledger, info, command, table=table, command_id=command_id, entrant=entrant)

    def reread() -> CampaignInfo:
        return srv.campaign(m.info.campaign_id)

    return on_the_fresh_state(m.info, reread, attempt, m.info.name)


async def run_in_turn(srv_request: Request, m: InCampaign, body: CommandRequest) -> AppendResult:
    """:func:`run_command` once the campaign's turn comes, for whoever asks as they are then (:func:`in_turn`)."""
    return await in_turn(srv_request, m.info.campaign_id, lambda now: run_command(srv_request, now, body))


async def in_turn(srv_request: Request, campaign_id: str, work: Callable[[InCampaign], T], level: str = "play") -> T:
    """``work(who)`` (which appends to the campaign) in a worker thread once the campaign's turn comes: every
    writing route takes its turn, so none races another command of this process. ``who`` is who asks, read
    again in the turn (:func:`in_campaign` with ``level``, a player's or the GM's: session, campaign and membership
    in one statement), never the member a route's dependency read before it queued: a GM may have removed them,
    or made them an observer or another side's player, while they waited. The head it leaves is noted here when
    it returns an append's result (else by the caller, :meth:`Turns.appended`)."""
    return await in_its_turn(
        srv_request,
        campaign_id,
        lambda: work(in_campaign(srv_request, campaign_id, level)),
        lambda result: result if isinstance(result, AppendResult) else None,
    )


async def in_its_turn(
    srv_request: Request, campaign_id: str, work: Callable[[], T], made: Callable[[T], AppendResult | None]
) -> T:
    """``work()`` in a worker thread once the campaign's turn comes, and the head of the append ``made`` finds in
    what it returns noted before the turn passes on: what every writing route of a campaign shares."""
    turns = server(srv_request).turns
    if turns.taken(campaign_id):
        give_back_scope_connection()  # queued: the connection goes back to the pool while the request waits
    async with turns.turn(campaign_id):
        result = await run_in_threadpool(work)
        appended = made(result)
        if appended is not None:
            turns.appended(campaign_id, appended.head.seq)
        return result


async def retried_in_turn(
    srv_request: Request, campaign_id: str, work: Callable[[InCampaign], T], level: str = "gm"
) -> T:
    """``work(who)`` in the campaign's turn (:func:`in_turn`), and again on the fresh state each time another
    process appended first (:func:`on_the_fresh_state`), who asks read again with it: the game master's
    corrections and membership changes, as commands are, are never a bare lost race to the person who sent them.
    ``work`` that must not be run again on another head (a confirmed amendment carrying its preview's head)
    refuses itself there, in words."""

    def in_its_turn(now: InCampaign) -> T:
        asking = [now]

        def reread() -> CampaignInfo:
            asking[0] = in_campaign(srv_request, campaign_id, level)
            return asking[0].info

        return on_the_fresh_state(now.info, reread, lambda info: work(replace(asking[0], info=info)), now.info.name)

    return await in_turn(srv_request, campaign_id, in_its_turn, level)


def _as_sent(raw: object) -> object:
    return raw


SentCommand = Annotated[CommandRequest, Body(), PlainValidator(_as_sent, json_schema_input_type=CommandRequest)]
"""A command's body as sent (any JSON), documented as :class:`CommandRequest`: it is validated after the access
check, in the same worker thread (:func:`command`)."""


def validated(model: type[M], raw: object) -> M:
    """``raw`` (a body as FastAPI read it: JSON, the bytes of another content type, None for none) as ``model``,
    or the 422 FastAPI would have answered for it."""
    if raw is None:
        raise RequestValidationError([{"type": "missing", "loc": ("body",), "msg": "Field required", "input": None}])
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]) from None


@router.post("/campaigns/{campaign_id}/commands", openapi_extra={**access("play"), "requestBody": {"required": True}})
async def command(campaign_id: str, request: Request, body: SentCommand = None) -> dict[str, object]:  # type: ignore[assignment]
    """Run any command of the campaign's ruleset (a player: only for its own sides' units)."""
    # One worker thread for the access check and the command, in the campaign's turn: each hand-off to a thread
    # and back cost as much as a statement (bench/server_load.py). So the body is validated there too, after
    # the access check (401, 403 and 404 before a 422, as a dependency's would come); a request without any
    # credentials is refused at once, before it waits for a turn.
    if credentials(request) is None:
        raise HTTPException(401, "sign in first")
    result = await in_turn(request, campaign_id, lambda m: run_command(request, m, validated(CommandRequest, body)))
    return appended(request, campaign_id, result)


@router.post("/campaigns/{campaign_id}/members", openapi_extra=access("gm"))
async def invite(body: Grant, m: GM, request: Request) -> dict[str, object]:
    """Invite an account (or change its role): a ``membership.granted`` event."""
    result = await retried_in_turn(
        request, m.info.campaign_id, lambda now: granted(request, now, body.account, body.role, body.sides)
    )
    return appended(request, m.info.campaign_id, result)


def granted(request: Request, m: InCampaign, account: str, role: str, sides: list[str]) -> AppendResult:
    """The game master (``m``, as they are in the campaign's turn) gives ``account`` a role."""
    srv = server(request)
    name = account.strip().lower()
    exists = srv.accounts.exists(name)
    return memberships.grant(ledger_of(request, m), srv.members, m.info, name, role, sides, account_exists=exists)


class NewInvitation(BaseModel):
    role: str = Field(description="player or observer.", max_length=20)
    sides: list[str] = Field(default_factory=list, description="The sides a player plays (known to the campaign).")
    hours: int | None = Field(
        default=None, ge=1, le=366 * 24, description="How long the link opens (default: the server's invite hours)."
    )


def link_of(request: Request, secret: str) -> str:
    """The address to send: the server's own, as the request reached it (behind a proxy, as forwarded)."""
    return f"{str(request.base_url).rstrip('/')}/join/{secret}"


def make_invitation(
    request: Request, m: InCampaign, role: str, sides: list[str], hours: int | None
) -> tuple[str, Invitation]:
    srv = server(request)
    lifetime = hours * 3600 if hours else guard(request).settings.invite_s
    secret, made = srv.invitations.make(srv.members, m.info, role, sides, m.caller.account, lifetime)
    return link_of(request, secret), made


async def invitation_in_turn(
    request: Request, m: InCampaign, role: str, sides: list[str], hours: int | None
) -> tuple[str, Invitation]:
    """:func:`make_invitation` in the campaign's turn, by the game master as they are then (a link appends
    nothing: no race to run again; the sides it may name are those the campaign knows at its turn)."""
    return await in_turn(
        request, m.info.campaign_id, lambda now: make_invitation(request, now, role, sides, hours), "gm"
    )


async def revoked_in_turn(request: Request, m: InCampaign, invitation_id: str) -> Invitation:
    """A link revoked in the campaign's turn, by the game master as they are then."""
    revoke = server(request).invitations.revoke
    return await in_turn(request, m.info.campaign_id, lambda now: revoke(now.info.campaign_id, invitation_id), "gm")


@router.post("/campaigns/{campaign_id}/invitations", status_code=201, openapi_extra=access("gm"))
async def new_invitation(body: NewInvitation, m: GM, request: Request) -> dict[str, object]:
    """A link for a role (a player of sides the campaign knows, or an observer), shown once: whoever opens it signs
    up or signs in and joins with that role. It opens once, until it expires or is revoked."""
    link, made = await invitation_in_turn(request, m, body.role, body.sides, body.hours)
    return {"link": link, **made.as_dict(int(server(request).invitations.now()))}


@router.get("/campaigns/{campaign_id}/invitations", openapi_extra=access("gm"))
def invitations(m: GM, request: Request) -> list[dict[str, object]]:
    """The campaign's invitation links, newest first, each with its state: open, used, revoked or expired."""
    found = server(request).invitations
    now = int(found.now())
    return [i.as_dict(now) for i in found.of(m.info.campaign_id)]


@router.delete("/campaigns/{campaign_id}/invitations/{invitation_id}", openapi_extra=access("gm"))
async def revoke_invitation(
    invitation_id: Annotated[str, InPath(max_length=16)], m: GM, request: Request
) -> dict[str, str]:
    """Revoke a link not used yet: it opens nothing any more."""
    await revoked_in_turn(request, m, invitation_id)
    return {"revoked": invitation_id}


Secret = Annotated[str, InPath(max_length=100, description="The secret at the end of the invitation link.")]


@router.get("/invitations/{token}", openapi_extra=access("public"))
async def invitation(token: Secret, request: Request) -> dict[str, object]:
    """What an invitation link opens (the campaign and the role), before joining by it: 404 no link of this
    server's (guesses are throttled per address, 429), 410 used, revoked or expired."""
    srv = server(request)
    found = await guard(request).link_opened(request, srv.invitations, token)
    now = int(srv.invitations.now())
    if found.state(now) != "open":
        raise gone(found.state(now), found)
    info = srv.campaign(found.campaign_id)
    return {"campaign": info.name, "ruleset": info.ruleset, **found.as_dict(now)}


@router.post("/invitations/{token}", openapi_extra=access("account"))
async def join(token: Secret, who: Account, request: Request) -> dict[str, object]:
    """Join the campaign by an invitation link, with its role: a ``membership.granted`` event entered by the
    account joining. The link is used up."""
    info, result = await join_by_link(request, who.account, token)
    return {"campaign_id": info.campaign_id, "campaign": info.name, **appended(request, info.campaign_id, result)}


async def join_by_link(request: Request, account: str, token: str) -> tuple[CampaignInfo, AppendResult]:
    """``account`` joins by the link ``token`` (looked up as :meth:`Guard.link_opened` counts guesses)."""
    srv = server(request)
    campaign_id = (await guard(request).link_opened(request, srv.invitations, token)).campaign_id
    joined = partial(srv.invitations.join, token, account, srv.ledger_for(account), srv.members, srv.campaign)
    # in the campaign's turn, as every write of it is (the join runs its grant again after a lost race itself)
    _, info, result = await in_its_turn(request, campaign_id, joined, lambda done: done[2])
    return info, result


@router.post("/campaigns/{campaign_id}/members/{account}/remove", openapi_extra=access("gm"))
async def remove_member(account: str, m: GM, request: Request) -> dict[str, object]:
    result = await retried_in_turn(request, m.info.campaign_id, lambda now: removed(request, now, account))
    return appended(request, m.info.campaign_id, result)


def removed(request: Request, m: InCampaign, account: str, reason: str = "") -> AppendResult:
    """The game master (``m``, as they are in the campaign's turn) takes ``account`` out of the campaign."""
    return memberships.remove(ledger_of(request, m), server(request).members, m.info, account, reason)


@router.post("/campaigns/{campaign_id}/rewind", openapi_extra=access("gm"))
async def rewind_(body: Rewind, m: GM, request: Request) -> dict[str, object]:
    result = await rewound_in_turn(request, m, body.to, body.reason)
    return appended(request, m.info.campaign_id, result)


async def rewound_in_turn(
    request: Request, m: InCampaign, to: int, reason: str, seen: int | None = None
) -> AppendResult:
    """Rewind in the campaign's turn, again on the fresh state after a lost race; refused in words where it would
    take back more than the game master saw: a command appended since ``seen`` (the head the page that asked
    showed), else since the request came (``m.info``, read as it came in), by this process while it waited for
    its turn or by another (:func:`timeline_ops.still_meant`)."""
    seen = m.info.last_seq if seen is None else seen
    return await retried_in_turn(
        request, m.info.campaign_id, lambda now: rewind(ledger_of(request, now), now.info, to, reason, seen)
    )


@router.post("/campaigns/{campaign_id}/undo", openapi_extra=access("gm"))
async def undo_(m: GM, request: Request) -> dict[str, object]:
    """Take back the last command, rewind, amendment or undo (nothing is deleted; an undo can be undone)."""
    result, said = await undone_in_turn(request, m)
    return {**appended(request, m.info.campaign_id, result), "undone": said}


async def undone_in_turn(request: Request, m: InCampaign, seen: int | None = None) -> tuple[AppendResult, str]:
    """Undo in the campaign's turn, again on the fresh state after a lost race; refused in words where what it
    takes back would be a command appended since ``seen`` (the head the page that asked showed), else since the
    request came (``m.info``, read as it came in), by this process while it waited for its turn or by another:
    the game master has not seen it. A page's undo sent twice is so refused the second time, not run again on
    the command before."""
    seen = m.info.last_seq if seen is None else seen
    result, said = await retried_in_turn(
        request, m.info.campaign_id, lambda now: undo(ledger_of(request, now), now.info, seen)
    )
    server(request).turns.appended(m.info.campaign_id, result.head.seq)
    return result, said


@router.post("/campaigns/{campaign_id}/amend", openapi_extra=access("gm"))
async def amend_(body: Amend, m: GM, request: Request) -> dict[str, object]:
    """Correct a past command's inputs; with ``preview``, only show what would change."""
    dice = parse_table_dice(body.dice) if body.dice is not None else None
    report = await amended_in_turn(
        request, m, body.seq, body.set, preview=body.preview, dice=dice, reason=body.reason, head=body.head
    )
    return dict(report)  # as declared: FastAPI takes the answer's schema from this return type, and it stays


async def amended_in_turn(  # noqa: PLR0913 (an amendment's own inputs, and the names a page says it with)
    request: Request,
    m: InCampaign,
    seq: int,
    changes: dict[str, object],
    *,
    preview: bool,
    dice: list[int] | None,
    reason: str,
    head: int | None,
    names: Mapping[str, str] | None = None,
) -> AmendAnswer:
    """An amendment's preview (it appends nothing: no turn to wait for), or the amendment in the campaign's turn,
    again on the fresh state after a lost race: one confirmed with its preview's ``head`` is then refused in words
    (the campaign moved on; preview it again), never made on a head its preview did not see."""

    def work(now: InCampaign) -> AmendAnswer:
        return amend(
            ledger_of(request, now),
            now.info,
            seq,
            changes,
            preview=preview,
            dice=dice,
            reason=reason,
            head=head,
            names=names,
        )

    if preview:
        return await run_in_threadpool(work, m)
    report = await retried_in_turn(request, m.info.campaign_id, work)
    srv = server(request)
    made = report.get("appended")
    if isinstance(made, list) and made:
        srv.turns.appended(m.info.campaign_id, max(made))
    srv.live.appended(m.info.campaign_id)
    return report


@router.post("/campaigns/{campaign_id}/reveal", openapi_extra=access("gm"))
async def reveal(m: GM, request: Request) -> dict[str, object]:
    """Publish the dice seed: every roll made with it becomes checkable."""
    result = await retried_in_turn(request, m.info.campaign_id, lambda now: ledger_of(request, now).reveal(now.info))
    return appended(request, m.info.campaign_id, result)


@router.get("/campaigns/{campaign_id}/entropy", openapi_extra=access("member"))
def entropy(m: Member, request: Request, epoch: OptionalSeq = None) -> dict[str, object]:
    """The shares of entropy committed for the current seed epoch (or ``epoch``) and by whom; each share itself
    only once its seed is revealed; whether the epoch still takes shares (until its first seeded roll)."""
    return dict(views.entropy(server(request).app.ledger, m.info, epoch))  # the same answer, as a plain dict


@router.post("/campaigns/{campaign_id}/entropy", openapi_extra=access("play"))
async def commit_share(body: ShareRequest, m: Player, request: Request) -> dict[str, object]:
    """Commit your share of entropy for the current seed epoch (a player or the GM, one each per epoch, before the
    epoch's first seeded roll): the log records its SHA-256 until ``reveal`` publishes it with the seed."""
    share = ledger_of(request, m).draw_share() if body.share is None else body.share
    epoch, result = await share_in_turn(request, m, share)
    return {
        **appended(request, m.info.campaign_id, result),
        "epoch": epoch,
        "commitment": result.events[0].payload["commitment"],
        **({"share": share} if body.share is None else {}),
    }


async def share_in_turn(request: Request, m: InCampaign, share: str) -> tuple[int, AppendResult]:
    """``share`` committed in the campaign's turn, by the member as they are then, again on the fresh state after
    a lost race (drawn before, once: the share shown is the one committed); and the seed epoch it is for."""

    def commit(now: InCampaign) -> tuple[int, AppendResult]:
        return now.info.seed_epoch, ledger_of(request, now).commit_share(now.info, share)

    epoch, result = await retried_in_turn(request, m.info.campaign_id, commit, "play")
    server(request).turns.appended(m.info.campaign_id, result.head.seq)
    return epoch, result


STREAM_CHECK_SECONDS = 1.0
"""How long a live stream trusts its last check of its session and membership: a signed-out, revoked or removed
reader is sent nothing more from this long after (README, the server's section)."""


@router.get("/campaigns/{campaign_id}/events", openapi_extra=access("member"), response_class=StreamingResponse)
async def events(
    m: Member, request: Request, after: Seq = 0, fragments: bool = False, lang: PageLanguage = "en"
) -> StreamingResponse:
    """Server-sent events: ``appended`` with the new head seq each time the campaign's log grows; with
    ``fragments``, also ``fragments``: the page's parts that changed, as HTML by element id (JSON), in the page's
    language ``lang``, rendered once for every open page that reads it in that language. The stream ends when its
    session or membership does."""
    srv = server(request)
    release_scope()  # the stream stays open for minutes: it holds no connection of the request's
    campaign_id, account = m.info.campaign_id, m.caller.account

    def still_member() -> bool:
        caller = caller_or_none(request)
        return caller is not None and caller.account == account and srv.members.member(campaign_id, account) is not None

    checked_at: float | None = None  # when still_member() last said yes (the loop's clock)

    async def still_asking() -> bool:
        """Whether the session and membership still open the stream, read again before anything is sent (a
        campaign that changes every few seconds never lets the stream fall quiet for a keep-alive), at most once
        every :data:`STREAM_CHECK_SECONDS`: the read costs a statement, the updates come as fast as appends."""
        nonlocal checked_at
        now = asyncio.get_running_loop().time()
        if checked_at is not None and now - checked_at < STREAM_CHECK_SECONDS:
            return True
        if not await asyncio.to_thread(still_member):
            return False
        checked_at = now
        return True

    async def stream() -> AsyncIterator[bytes]:
        yield b"retry: 1000\n\n"
        shown = after  # the head the page shows
        async for update in srv.live.updates(campaign_id, after, lang, role_kind(m.member.role)):
            if await request.is_disconnected():
                return
            if not await still_asking():
                return
            if update is None:
                yield b": keep-alive\n\n"
                continue
            if account not in update.members:
                return
            sent = update.appended
            if fragments:
                sent += update.changed if update.previous == shown else update.every
            shown = update.head
            yield sent

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

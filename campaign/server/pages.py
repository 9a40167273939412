"""The web page: server-rendered (Jinja2), made live by htmx and server-sent events; no build step.

Every form posts through htmx with the session's CSRF token in a header (``base.html``), and runs the same
functions as the JSON API (:mod:`campaign.server.api`), so a page can do nothing the API would refuse.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import Annotated, TypedDict, cast
from urllib.parse import quote

import anyio.to_thread
from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi import Path as InPath
from fastapi.responses import RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import escape
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from campaign.access.accounts import SignInError
from campaign.access.invitations import Invitation, gone_words, known_sides, when
from campaign.commands import BaseCommand, command_type
from campaign.i18n import N_, NATIVE_NAMES, _, help_said, language, ngettext, refusal, words_said
from campaign.i18n.dice import die_said, notation_said
from campaign.i18n.purposes import purpose_said
from campaign.interchange.army_lists import imports_lists
from campaign.read import views
from campaign.read.describe import ROLE_WORDS, label, readable, standing_changes, value, words
from campaign.replay import RuleOutcome
from campaign.rulesets import RULESETS
from campaign.rulesets.command import Phase, for_players
from campaign.rulesets.tables import parse_value
from campaign.server import api, forms, nojs, runner
from campaign.server.context import (
    GM,
    SESSION_COOKIE,
    Account,
    InCampaign,
    Member,
    Player,
    access,
    caller_or_none,
    ledger_of,
    server,
    status_for,
)
from campaign.server.fragments import role_kind
from campaign.server.guard import guard
from campaign.server.live_parts import battle_being_fought
from campaign.server.refusals import lost_race, out_of_reach
from campaign.server.timeline_ops import AmendAnswer, recorded
from campaign.timeline.reports import FateData, new_dice_words, paired
from campaign.typed_as import as_the_page_names, typed
from events.dice import parse_table_dice
from events.errors import CampaignError, ConcurrencyError, InvalidInputError
from events.limits import MAX_NUMBER
from events.store import AppendResult
from projections.campaign_state import entity_names
from projections.fold import Summary
from projections.state.campaigns import CampaignInfo
from projections.summaries import stored_summary

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
# The page speaks the reader's language (campaign/server/language.py sets it per request): the templates say
# their words through _ and ngettext, and know the language (the switch, <html lang>).
templates.env.globals.update(
    _=_,
    ngettext=ngettext,
    help_said=help_said,
    reader_language=language,
    languages=NATIVE_NAMES,
    heading=views.heading,
)
PRE_COOKIE = "campaign_pre"


def back_to(request: Request) -> str:
    """The page a plain form post goes back to: its campaign's, or the list of campaigns."""
    campaign_id = request.path_params.get("campaign_id")
    return f"/c/{campaign_id}" if campaign_id else "/"


def message(
    request: Request,
    text: str,
    *,
    error: bool = False,
    lines: list[str] | None = None,
    code: int = 200,
    tool: str = "",
) -> Response:
    """A form's answer: in place (htmx), or a redirect back to the page that shows it (a plain post): under the
    game master's ``tool`` that was used (``invite``: under its button, the tool open), else at the page's top."""
    if nojs.plain(request):
        what = {"message": text, "error": error, "lines": lines or []}
        if tool:
            return nojs.said(request, f"{back_to(request)}#{tool}-result", what | {"tool": tool})
        return nojs.said(request, back_to(request) + "#said", what)
    return templates.TemplateResponse(
        request, "message.html", {"message": text, "error": error, "lines": lines or []}, status_code=code
    )


def refused_page(request: Request, text: str, code: int, headers: Mapping[str, str] | None = None) -> Response | None:
    """A refusal of a page route (bad input, no CSRF token, not allowed) as a browser should see it: a page with
    the product's message (htmx: the message in place), with the refusal's status; None for the API and for a
    client that asks for no HTML (a script keeps ``{"detail": …}``)."""
    if request.url.path.startswith(("/api/", "/static/")):
        return None
    account, csrf = _reader_of(request, code)
    context = {"message": text, "error": True, "lines": [], "account": account, "csrf": csrf}
    if request.headers.get("HX-Request") == "true":
        return templates.TemplateResponse(request, "message.html", context, status_code=code, headers=headers)
    if "text/html" not in request.headers.get("accept", ""):
        return None
    return templates.TemplateResponse(request, "message_page.html", context, status_code=code, headers=headers)


def _reader_of(request: Request, code: int) -> tuple[str | None, str | None]:
    """Who reads a refusal page, for its header ("signed in as …", sign out): read only for a page asked for
    (a GET) and refused for what was asked (a 4xx other than 401), and never where reading the session fails in
    turn — the refusal is then shown without the header, as a 503 or a 500 always is."""
    if request.method not in ("GET", "HEAD") or not 400 <= code < 500 or code == 401:
        return None, None
    try:
        who = caller_or_none(request)
    except (HTTPException, CampaignError):
        return None, None
    except Exception as exc:
        if out_of_reach(exc):
            return None, None
        raise
    return (who.account, who.session.csrf) if who is not None else (None, None)


def shown(request: Request, name: str, context: dict[str, object]) -> Response:
    """A page, with what the last plain form post left to show (``said``), which is then cleared."""
    found = nojs.take_said(request)
    response = templates.TemplateResponse(request, name, {**context, "said": found})
    return nojs.cleared(response) if found is not None else response


def refused(request: Request, exc: CampaignError, tool: str = "") -> Response:
    """The page's answer to a refused command: the program's message, with the API's status (a lost race in the
    API's words too, naming the campaign), under the GM's ``tool`` that was used."""
    said = words_said(lost_race(request, exc)) if isinstance(exc, ConcurrencyError) else refusal(exc)
    return message(request, said, error=True, code=status_for(exc), tool=tool)


def _signin_page(request: Request, signup: bool, text: str = "", code: int = 200, invite: str = "") -> Response:
    """The sign-in or sign-up form (``invite``: the invitation link it joins by once the account is in)."""
    pre = secrets.token_urlsafe(16)
    response = templates.TemplateResponse(
        request, "signin.html", {"signup": signup, "pre": pre, "message": text, "invite": invite}, status_code=code
    )
    _set_pre(response, pre)
    return response


def _set_pre(response: Response, pre: str) -> None:
    response.set_cookie(PRE_COOKIE, pre, httponly=True, samesite="strict")


@router.get("/signin", openapi_extra=access("public"))
def signin_form(request: Request) -> Response:
    return _signin_page(request, signup=False)


@router.get("/signup", openapi_extra=access("public"))
def signup_form(request: Request) -> Response:
    return _signin_page(request, signup=True)


async def _start_session(request: Request, account: str, to: str = "/") -> Response:
    """A brand-new session for ``account`` (whatever session cookie came with the request is not reused), and a
    redirect to ``to``."""
    srv = server(request)
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        await anyio.to_thread.run_sync(srv.accounts.close_session, old)
    secret, _ = await anyio.to_thread.run_sync(srv.accounts.open_session, account)
    response = RedirectResponse(to, status_code=303)
    api.set_session_cookie(request, response, secret)
    response.delete_cookie(PRE_COOKIE)
    return response


def _pre_checked(request: Request, pre: str) -> bool:
    """Sign-in CSRF: the form's token must match the cookie set with the form (a double submit)."""
    cookie = request.cookies.get(PRE_COOKIE, "")
    return bool(cookie) and secrets.compare_digest(cookie, pre)


async def _account_form(
    request: Request, pre: str, signup: bool, attempt: Coroutine[object, None, str], invite: str = ""
) -> Response:
    """The sign-in or sign-up form sent: its CSRF token checked, then ``attempt`` (the account it opens a
    session for), or the form again saying why not (a wrong password; a name taken or not allowed; too many
    attempts, with the API's status). With ``invite``, the account then joins by that invitation link and goes to
    its campaign (or, refused, to the link's page, which says why)."""
    if not _pre_checked(request, pre):
        attempt.close()  # never run: nothing is checked or counted
        said = _("the form expired: try again") if signup else _("the form expired: sign in again")
        return _signin_page(request, signup=signup, text=said, code=403, invite=invite)
    refused = InvalidInputError if signup else SignInError  # a sign-in's other errors are not the form's
    try:
        account = await attempt
    except refused as exc:
        return _signin_page(request, signup=signup, text=refusal(exc), code=400, invite=invite)
    except HTTPException as exc:  # throttled (429) or busy (503)
        page = _signin_page(request, signup=signup, text=words_said(exc.detail), code=exc.status_code, invite=invite)
        page.headers.update(exc.headers or {})
        return page
    if not invite:
        return await _start_session(request, account)
    try:
        info, _joined = await api.join_by_link(request, account, invite)
    except (CampaignError, HTTPException):  # the link's page says why, to the account now signed in
        return await _start_session(request, account, to=f"/join/{quote(invite, safe='')}")
    server(request).live.appended(info.campaign_id)
    return await _start_session(request, account, to=f"/c/{info.campaign_id}")


Invite = Annotated[str, Form(max_length=100)]
"""The invitation link's secret a sign-in or sign-up form carries (empty: none)."""


@router.post("/signin", openapi_extra=access("public"))
async def signin(
    request: Request,
    name: Annotated[str, Form()],
    password: Annotated[str, Form()],
    pre: Annotated[str, Form()] = "",
    invite: Invite = "",
) -> Response:
    return await _account_form(request, pre, False, guard(request).sign_in(request, name, password), invite)


@router.post("/signup", openapi_extra=access("public"))
async def signup(
    request: Request,
    name: Annotated[str, Form()],
    password: Annotated[str, Form()],
    pre: Annotated[str, Form()] = "",
    invite: Invite = "",
) -> Response:
    return await _account_form(request, pre, True, guard(request).sign_up(request, name, password), invite)


Secret = Annotated[str, InPath(max_length=100)]


def _join_page(
    request: Request,
    token: str,
    *,
    invitation: Invitation | None = None,
    info: CampaignInfo | None = None,
    text: str = "",
    code: int = 200,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """The invitation link's page: what it opens and a way in (sign up, sign in, or join), or why it opens
    nothing (``text``, with the status)."""
    caller = caller_or_none(request)
    already = (
        server(request).members.member(info.campaign_id, caller.account)
        if caller is not None and info is not None
        else None
    )
    pre = secrets.token_urlsafe(16)
    # a link made with the CLI is recorded as made by its actor (the OS user, "root" on a server): the page names
    # the inviter only when it is one of the campaign's game masters, and says "the game master" otherwise
    maker = server(request).members.member(info.campaign_id, invitation.made_by) if invitation and info else None
    context = {
        "token": token,
        "invitation": invitation,
        "inviter": maker.account if maker is not None and maker.role == "gm" else None,
        "info": info,
        "message": text,
        "error": code >= 400,
        "account": caller.account if caller else None,
        "csrf": caller.session.csrf if caller else None,
        "already": already,
        "already_words": _(ROLE_WORDS.get(already.role, already.role)) if already else "",
        "pre": pre,
        "expires": when(invitation.expires_at) if invitation else "",
    }
    response = templates.TemplateResponse(request, "join.html", context, status_code=code, headers=dict(headers or {}))
    if caller is None:
        _set_pre(response, pre)
    return response


@router.get("/join/{token}", openapi_extra=access("public"))
async def join_page(request: Request, token: Secret) -> Response:
    """An invitation link opened: the campaign and role it invites to; signed out, a sign-up and a sign-in form
    that join by it; signed in, a button that joins. Opening it joins nobody (a link's preview fetched by a chat
    program must not use it up)."""
    srv = server(request)
    try:
        found = await guard(request).link_opened(request, srv.invitations, token)
    except HTTPException as exc:
        return _join_page(request, token, text=words_said(exc.detail), code=exc.status_code, headers=exc.headers)
    state = found.state(int(srv.invitations.now()))
    info = srv.campaign(found.campaign_id)
    if state != "open":
        return _join_page(request, token, info=info, text=gone_words(state, found), code=410)
    return _join_page(request, token, invitation=found, info=info)


@router.post("/join/{token}", openapi_extra=access("account"))
async def join_form(request: Request, token: Secret, who: Account) -> Response:
    """Join by the invitation link (signed in): to the campaign's page, or the link's page saying why not."""
    try:
        info, _ = await api.join_by_link(request, who.account, token)
    except HTTPException as exc:
        return _join_page(request, token, text=words_said(exc.detail), code=exc.status_code, headers=exc.headers)
    except CampaignError as exc:
        return _join_page(request, token, text=refusal(exc), code=status_for(exc))
    server(request).live.appended(info.campaign_id)
    return RedirectResponse(f"/c/{info.campaign_id}", status_code=303)


@router.post("/signout", openapi_extra=access("account"))
def signout(request: Request, who: Account) -> Response:
    server(request).accounts.revoke(who.account, who.session.public_id)
    response: Response = (
        Response(status_code=204, headers={"HX-Redirect": "/signin"})
        if not nojs.plain(request)
        else RedirectResponse("/signin", status_code=303)
    )
    response.delete_cookie(SESSION_COOKIE)
    return response


def ruleset_said(name: str) -> tuple[str, str]:
    """A ruleset as a person reads it, in the reader's language: its game's name (its title's, before a colon;
    else its name in words: "fighting-spirit" is Fighting Spirit), and what more its title says of it (the title
    is declared once with the ruleset, marked for the catalogs; a ruleset the catalogs do not know reads as
    declared)."""
    info = RULESETS.get(name)
    title = _(info.title) if info is not None and info.title else ""
    game, colon, about = title.partition(":")
    if colon:
        return game.strip(), about.strip()
    return name.replace("-", " ").title(), title


templates.env.globals["ruleset_said"] = ruleset_said


def role_said(role: str) -> str:
    """A member's role in words ("game master", not "gm")."""
    return _(ROLE_WORDS.get(role) or role)


templates.env.globals["role_said"] = role_said


@router.get("/", openapi_extra=access("account"))
def home(request: Request, who: Account) -> Response:
    mine = api.campaigns(who, request)
    return shown(
        request,
        "campaigns.html",
        {"account": who.account, "csrf": who.session.csrf, "campaigns": mine, "rulesets": list(RULESETS.values())},
    )


@router.post("/campaigns", openapi_extra=access("account"))
def new_campaign(
    request: Request, who: Account, name: Annotated[str, Form()], ruleset: Annotated[str, Form()]
) -> Response:
    try:
        made = api.new_campaign(api.NewCampaign(name=name, ruleset=ruleset), who, request)
    except CampaignError as exc:
        return message(request, refusal(exc), error=True, code=400)
    where = f"/c/{made['campaign_id']}"
    if nojs.plain(request):
        return RedirectResponse(where, status_code=303)
    return Response(status_code=204, headers={"HX-Redirect": where})


def _live_context(request: Request, m: InCampaign) -> dict[str, object]:
    """The page's live parts at the campaign's head, as every open page of it shares them."""
    srv = server(request)
    info = srv.campaign(m.info.campaign_id)
    return {"info": info, "parts": srv.fragments.at(info, kind=role_kind(m.member.role)).parts}


def _choices(request: Request, m: InCampaign, s: Summary | None = None) -> forms.Choices:
    """What the campaign offers a form's pickers: its units and sides (a player's own, where its own are
    meant), its battles and officers (``s``: the campaign's summary, if read already)."""
    srv = server(request)
    s = s if s is not None else views.summary(srv.app.ledger, m.info)
    units = tuple((str(u["name"]), str(u.get("side", ""))) for u in s.units if u.get("name"))
    sides = {side for _, side in units if side}
    for member in srv.members.of(m.info.campaign_id).values():
        sides.update(member.sides)
    battles = tuple(str(b["name"]) for b in s.battles if b.get("name"))
    officers = tuple(str(c["pc"]) for c in s.careers if c.get("pc"))
    plays = None if m.member.role == "gm" else frozenset(m.member.sides)
    return forms.Choices(units, tuple(sorted(sides, key=str.casefold)), battles, officers, plays)


def _allowed(m: InCampaign) -> list[runner.CommandSpec]:
    """The commands the member's role lets it enter: the game master every one, a player those that act for a
    side (its own, checked again when it is sent), an observer none."""
    return [
        c
        for c in runner.commands_for(m.info.ruleset)
        if m.member.role == "gm" or (m.member.role == "player" and for_players(c.model))
    ]


def _offered(m: InCampaign, fought: bool) -> list[runner.CommandSpec]:
    """The commands the page lists: those the member's role allows, and of those the ones the battle's state
    allows (``fought``: a battle is being fought), as each command declares (``Command.phase``); never one its
    rules refuse whatever it is given (``Command.listed``, as the command line hides it). A form sent
    from a page drawn before the battle began or ended is still read, and its decision refuses it in words."""
    now = Phase.BATTLE if fought else Phase.BETWEEN
    return [c for c in _allowed(m) if c.model.listed and c.model.phase in (Phase.ANY, now)]


GROUPS = {
    Phase.BATTLE: ("battle", N_("In the battle")),
    Phase.BETWEEN: ("between", N_("Between battles")),
    Phase.ANY: ("army", N_("The army and the campaign")),
}
"""The groups of a ruleset's commands (``gf …`` on the command line), by when its rules allow them."""
LEDGER_GROUP = ("ledger", N_("Any campaign"))
"""The ledger's own commands (``campaign roll``: outside the ruleset's group on the command line too)."""


def command_groups(commands: list[FormContext], fought: bool) -> list[dict[str, object]]:
    """The page's command forms grouped as the command line groups them (the ruleset's, by when its rules allow
    them; then the ledger's own), the group the battle's state calls for first (a battle's commands during one,
    a battle's start between them) and open, as is a group holding a form just sent."""
    from campaign.rulesets.common import COMMON

    now = Phase.BATTLE if fought else Phase.BETWEEN
    order = [now, Phase.ANY, Phase.BETWEEN if fought else Phase.BATTLE]
    found: dict[tuple[str, str], list[FormContext]] = {}
    for phase in order:
        found[GROUPS[phase]] = []
    found[LEDGER_GROUP] = []
    for f in commands:
        model = f["c"].model
        found[LEDGER_GROUP if model in COMMON else GROUPS[model.phase]].append(f)
    groups = [(key, title, forms_of) for (key, title), forms_of in found.items() if forms_of]
    return [
        {"key": key, "title": title, "forms": forms_of, "open": i == 0 or any(f["open"] for f in forms_of)}
        for i, (key, title, forms_of) in enumerate(groups)
    ]


templates.env.globals["command_groups"] = command_groups


class FormState(TypedDict, total=False):
    """A command's form as it comes back to the page: what was sent (``values``), what was refused (``errors`` by
    field, or one ``error``), the dice it asks for, or its answer."""

    command: str
    values: forms.Raw
    errors: dict[str, str]
    error: str
    dice: list[dict[str, object]] | None
    answer: dict[str, object]


class FormContext(TypedDict):
    """One command's form as the page draws it (:func:`_form_context`)."""

    c: runner.CommandSpec
    typed_name: str
    slug: str
    widgets: list[forms.Widget]
    form_error: str
    dice: list[dict[str, object]] | None
    waiting: list[dict[str, object]]
    answer: dict[str, object] | None
    rolls_with: str
    info: CampaignInfo
    csrf: str
    open: bool
    command_id: str


class CommandsContext(TypedDict):
    """The page's command list (:func:`_commands_context`)."""

    info: CampaignInfo
    csrf: str
    commands: list[FormContext]
    fought: bool
    choices: forms.Choices


def _form_context(
    request: Request,
    m: InCampaign,
    c: runner.CommandSpec,
    choices: forms.Choices,
    state: FormState | None = None,
) -> FormContext:
    """One command's form: its controls, filled from what was sent (``state``: values, errors, dice, answer)."""
    state = state or {}
    raw: forms.Raw = state.get("values") or {}
    widgets = forms.fields_of(c.model, choices, raw)
    left = forms.place(widgets, state.get("errors") or {})
    return {
        "c": c,
        "typed_name": command_word(c.name),
        "slug": c.name.replace(".", "-"),
        "widgets": widgets,
        "form_error": "; ".join([*([state["error"]] if state.get("error") else []), *left]),
        "dice": state.get("dice"),
        "waiting": [d for d in state.get("dice") or () if d.get("waiting")],
        "answer": state.get("answer"),
        "rolls_with": forms.called(c.model, c.model.rolls_with) if c.model.rolls_with else "",
        "info": m.info,
        "csrf": m.caller.session.csrf,
        "open": bool(state),
        # a new id each time the form is drawn: the next command it sends is a new one (not a wall clock: the
        # rules never see it, and the store keeps it only as the command's idempotency key)
        "command_id": secrets.token_urlsafe(12),
    }


def _commands_context(request: Request, m: InCampaign, found: dict[str, object] | None = None) -> CommandsContext:
    """The page's command list: the member's commands the battle's state allows now, each with its form (the one
    just sent, ``found``, filled with its answer)."""
    summary = views.summary(server(request).app.ledger, m.info)
    choices = _choices(request, m, summary)
    fought = battle_being_fought(summary) is not None
    sent = found.get("command") if found else None
    offered = {c.name for c in _offered(m, fought)}
    # what a plain form post left in its cookie (nojs.said): the state of the form it sent, when it names one
    state = cast("FormState", found) if sent is not None else None
    forms_of = [
        _form_context(request, m, c, choices, state if sent == c.name else None)
        for c in _allowed(m)
        # the form just sent stays once to show its answer, if what it did took it off the list (a battle's start)
        if c.name in offered or c.name == sent
    ]
    return {"info": m.info, "csrf": m.caller.session.csrf, "commands": forms_of, "fought": fought, "choices": choices}


@router.get("/c/{campaign_id}", openapi_extra=access("member"))
def campaign_page(
    request: Request,
    m: Member,
    amend_seq: Annotated[int | None, Query(alias="amend", ge=1, le=MAX_NUMBER)] = None,
    rewind_to: Annotated[int | None, Query(alias="rewind", ge=0, le=MAX_NUMBER)] = None,
) -> Response:
    """The campaign page; ``amend`` / ``rewind``: a log row's link to the game master's amend (it previews
    first) or rewind form, filled in with the row's seq."""
    found = nojs.take_said(request)
    commands = _commands_context(request, m, found)
    is_gm = m.member.role == "gm"
    response = templates.TemplateResponse(
        request,
        "campaign.html",
        {
            **commands,
            **_live_context(request, m),
            "account": m.caller.account,
            "member": m.member,
            "role_words": _(ROLE_WORDS[m.member.role]),
            "is_gm": is_gm,
            "imports_lists": imports_lists(m.info.ruleset),  # its ruleset's plug-in reads army lists
            "said": found if found and not {"command", "invitation", "tool"} & found.keys() else None,
            # a plain post of a GM's tool: its answer under the tool's own button, the tool open
            "tool_said": found if found and found.get("tool") else None,
            "made": found.get("invitation") if found else None,
            "sides": commands["choices"].sides,
            "amend_seq": amend_seq,
            "amending": _amending(request, m, amend_seq, commands["choices"]) if amend_seq and is_gm else None,
            "rewind_to": rewind_to,
            **(_invitations_context(request, m) if m.member.role == "gm" else {}),
        },
    )
    return nojs.cleared(response) if found is not None else response


_TOKEN = "csrf-" + secrets.token_hex(16)
"""Stands for the reader's form token in a shared drawing of a command list (:func:`commands_part`)."""
KEPT_LISTS = 256


class _Lists:
    """The command lists drawn at the campaigns' heads, shared by the pages of the same role and sides."""

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[str, int, str, str, str, tuple[str, ...]], str] = OrderedDict()
        """By campaign id, head seq and hash, language, role and sides."""
        self.lock = threading.Lock()
        self.drawn = 0
        """How many lists were drawn (each once for a head, language, role and sides)."""


LISTS = _Lists()


@router.get("/c/{campaign_id}/commands", openapi_extra=access("member"))
def commands_part(request: Request, m: Member) -> Response:
    """The page's command list alone, as the page draws it now (``#commands``; empty for an observer): fetched by
    the page's script when the battle's state it was drawn in changes (a battle begins or ends), so the commands
    offered follow it without a reload. Every open page asks at once then, so a list is drawn once for a head, a
    language, a role and its sides, and shared by the pages that read it so (measured: drawing it is about four
    fifths of drawing the whole page); the reader's own form token is put in where the drawing holds a stand-in."""
    info = m.info
    sides = tuple(sorted(s.strip().casefold() for s in m.member.sides))
    key = (info.campaign_id, info.last_seq, info.head_hash, language(), m.member.role, sides)
    html = LISTS.kept.get(key)
    if html is None:
        template = templates.get_template("campaign.html")
        context = _commands_context(request, m) | {"csrf": _TOKEN}
        html = "".join(template.blocks["commands"](template.new_context({"request": request, **context})))
        with LISTS.lock:
            LISTS.drawn += 1
            LISTS.kept[key] = html
            while len(LISTS.kept) > KEPT_LISTS:
                LISTS.kept.popitem(last=False)
    return Response(html.replace(_TOKEN, str(escape(m.caller.session.csrf))), media_type="text/html")


@router.get("/c/{campaign_id}/live", openapi_extra=access("member"))
def live_part(request: Request, m: Member, part: Annotated[str, Query(max_length=10)] = "") -> Response:
    """The page's live parts, drawn again on each append: ``top`` the battle and roster (above the commands),
    ``log`` the charts and log (below them, or beside them on a wide screen); neither: both."""
    return templates.TemplateResponse(request, "live.html", {**_live_context(request, m), "part": part})


@router.get("/c/{campaign_id}/audit/{seq}", openapi_extra=access("member"))
def audit_page(request: Request, seq: Annotated[int, InPath(ge=0, le=MAX_NUMBER)], m: Member) -> Response:
    srv = server(request)
    found = views.audit(srv.app.ledger, m.info, seq)
    return templates.TemplateResponse(
        request,
        "audit.html",
        {
            "info": m.info,
            "a": found,
            **_audit_words(found),
            "entered_by": views.author_said(
                found.get("actor"), views.accounts_of(srv.app.ledger.store, m.info.campaign_id)
            ),
            "account": m.caller.account,
            "csrf": m.caller.session.csrf,
        },
    )


def _audit_words(found: views.Audit) -> dict[str, object]:
    """What the audit page says of the entry in words: its command as typed, its inputs as label and value (no
    JSON), the time it was recorded in the reader's locale (no ISO string)."""
    from datetime import datetime

    from campaign.i18n.formats import moment

    recorded = found["inputs"]
    inputs = recorded if isinstance(recorded, dict) else {}  # None: no command issued the event
    at = found.get("recorded_at")
    try:
        when = moment(int(datetime.fromisoformat(str(at)).timestamp())) if at else ""
    except ValueError:  # a clock reading the log holds in some other shape is shown as recorded
        when = str(at)
    return {
        "command_typed": typed(str(found["command"]), inputs) if found.get("command") else "",
        "input_rows": [(label(str(k)), value(v)) for k, v in inputs.items() if v not in (None, "", [], {})],
        "when": when,
    }


def _raw(form: FormData) -> dict[str, list[str]]:
    """A sent form as each field's values (the page's own fields, ``_…``, left out)."""
    return {k: [str(v) for v in form.getlist(k)] for k in form if not k.startswith("_")}


def _dice_needed(request: Request, m: InCampaign, command: BaseCommand) -> list[dict[str, object]]:
    """The dice ``command`` asks for, as ``--dice count`` says them: its decision run on stand-in dice, nothing
    appended. A roll for a side the player does not play is marked ``waiting``: that side's to enter."""
    from events.dice.ask import CountingDice

    ledger = server(request).app.ledger
    runs = []
    for face in ("low", "high"):
        counting = CountingDice(face, m.info.next_roll_index, ledger.on_table(m.info))
        ledger.dry_run(m.info, command, counting)
        runs.append(counting.needed)
    low, high = runs
    plays = {s.strip().casefold() for s in m.member.sides}
    varies = [(n.count, n.sides) for n in low] != [(n.count, n.sides) for n in high]
    return [
        {
            "notation": notation_said(n.notation),
            "purpose": (said := purpose_said(n.purpose))[:1].upper() + said[1:],
            "sides": n.sides,
            # each die as the reader writes it ("к6" on a Russian page), as the rules' explanations say it
            "dice": [
                _("{die} ({i} of {count})").format(die=die_said(n.sides), i=i, count=n.count)
                if n.count > 1
                else die_said(n.sides)
                for i in range(1, n.count + 1)
            ],
            "side": n.side,
            "on_table": ", ".join(map(str, n.faces_on_table)) if n.on_table else "",
            "waiting": m.member.role != "gm" and n.side is not None and n.side.strip().casefold() not in plays,
            "varies": varies,
        }
        for n in low
    ]


def _faces(form: FormData) -> str | None:
    """The table dice sent die by die (``_die``, in the order asked), and any further ones typed (``_more``)."""
    faces = [str(v).strip() for v in form.getlist("_die")]
    if any(not f for f in faces):
        raise InvalidInputError.saying("enter every die rolled at the table (or roll the campaign's dice instead)")
    more = str(form.get("_more") or "").strip()
    joined = ",".join([*faces, *([more] if more else [])])
    return joined or None


@router.post("/c/{campaign_id}/command", openapi_extra=access("play"))
async def command_form(request: Request, m: Player) -> Response:
    """A generated command form sent: ``_step`` is ``count`` (which dice to roll: nothing appended), ``table``
    (the dice entered die by die), ``nodice`` (inputs counted to roll none: run, or asked for their dice should
    they roll after all) or ``seeded`` / absent (the campaign's dice, or none). Refused inputs come back
    beside their fields; the answer (or refusal) in place with htmx, or by a redirect back without it."""
    form = await request.form()
    name = str(form.get("_command", ""))
    spec = next((c for c in _allowed(m) if c.name == name), None)
    if spec is None:
        known = next((c for c in runner.commands_for(m.info.ruleset) if c.name == name), None)
        by_role = runner.role_refusal(m.member, known.model) if known is not None else None
        if by_role is not None:  # a command of the campaign, not the member's: refused as the API refuses it
            return message(request, words_said(by_role), error=True, code=403)
        said = _("{command} is not a command you may enter here").format(command=command_word(name) if name else "?")
        return message(request, said, error=True, code=400)
    step = str(form.get("_step") or "seeded")
    raw = _raw(form)
    state: FormState = {"command": name, "values": raw}
    code = 200
    engine = server(request).app.engine
    before = stored_summary(engine, m.info.campaign_id, m.info.last_seq)
    try:
        inputs = forms.read(spec.model, raw)
        errors = forms.field_errors(spec.model, inputs)
        if errors:
            raise forms.FormError(errors)
        if step in ("count", "nodice") and spec.takes_table_dice:
            command = runner.build(name, inputs, m.info.ruleset)
            # refused first, as the API refuses it: no dice are asked for a command the member may not run
            api.may_run(request, m, command, m.info)
            needed = _dice_needed(request, m, command)
            # "nodice": sent from a form told these inputs roll none; counted again, for they may have changed
            # since: should they roll now, their dice are asked for, never rolled unasked
            if step == "count" or needed:
                state["dice"] = needed
                return _command_answer(request, m, spec, state)
        dice = _faces(form) if step == "table" else None
        if step == "table" and dice is None:
            raise InvalidInputError.saying("no dice were entered: ask which dice to roll first")
        # the form's own id, drawn when it was shown: a second post of the same form (a double tap, a resubmit
        # after the back button) is the same command, answered as recorded and never appended twice
        sent_id = str(form.get("_command_id") or "") or None
        body = api.CommandRequest(command=name, args=inputs, dice=dice, command_id=sent_id)
        result = await api.run_in_turn(request, m, body)
    except forms.FormError as exc:
        state["errors"], code = exc.errors, 400
    except HTTPException as exc:
        state["error"], code = words_said(exc.detail), exc.status_code
    except CampaignError as exc:  # a lost race in the API's words too, naming the campaign
        said = words_said(lost_race(request, exc)) if isinstance(exc, ConcurrencyError) else refusal(exc)
        state["error"], code = said, status_for(exc)
    else:
        srv = server(request)
        srv.live.appended(m.info.campaign_id)
        # in the CLI's words: each fact once, names for ids, the command as it is typed
        state = {"command": name, "answer": _answer(request, m, name, result, before)}
    if state.get("dice") is None and "_die" in form and "answer" not in state:
        state["dice"] = _dice_needed_or_none(request, m, name, state)
    return _command_answer(request, m, spec, state, code)


def _answer(
    request: Request, m: InCampaign, name: str, result: AppendResult, before: Summary | None
) -> dict[str, object]:
    """A command's answer in the command line's words (what happened, each fact once, names for ids), led by the
    command as the page names it: not the events counted at a seq, nor the command restated as it was recorded
    (its form is right there)."""
    engine = server(request).app.engine
    said = readable(result.events, entity_names(engine, m.info.campaign_id))
    lines = [text for event, text in said if event.type != "timeline.command_issued"]
    # led by what the command did, not by the die it rolled for it (said after, in the order rolled)
    lead = next((text for event, text in said if event.type not in ("timeline.command_issued", "dice.rolled")), None)
    if lead is not None:
        lines.remove(lead)
        lines.insert(0, lead)
    # and what the command did to a unit's standing (promoted, exhausted…), said as it happens
    after = stored_summary(engine, m.info.campaign_id, result.head.seq)
    lines += [_("standing: {change}").format(change=line) for line in standing_changes(before, after)]
    word = command_word(name)
    if result.duplicate:
        head = _("{command}: already recorded, nothing new was appended").format(command=word)
    elif lines:
        head, lines = _("{command}: {what}").format(command=word, what=lines[0]), lines[1:]
    else:
        head = _("{command}: recorded").format(command=word)
    return {"message": head, "lines": lines[:30]}


def command_word(name: str) -> str:
    """A command as the page names it: as its ruleset's command line types it after the ruleset's word, which
    the campaign's page needs not say (``campaign gf muster`` is "muster"; the ledger's own ``roll``, "roll")."""
    with as_the_page_names():
        return typed(name)


def _dice_needed_or_none(
    request: Request, m: InCampaign, name: str, state: FormState
) -> list[dict[str, object]] | None:
    """The dice asked for again, after faces entered were refused (None if the inputs no longer build)."""
    try:
        return _dice_needed(
            request, m, runner.build(name, forms.read(command_type(name), state["values"]), m.info.ruleset)
        )
    except CampaignError:
        return None


def _command_answer(
    request: Request, m: InCampaign, spec: runner.CommandSpec, state: FormState, code: int = 200
) -> Response:
    if nojs.plain(request):
        return nojs.said(request, f"/c/{m.info.campaign_id}#cmd-{spec.name.replace('.', '-')}", state)
    context = _form_context(request, m, spec, _choices(request, m), state)
    return templates.TemplateResponse(request, "command_form.html", dict(context), status_code=code)


def refused_in_turn(request: Request, exc: HTTPException, tool: str = "") -> Response:
    """A form refused as who sent it is in the campaign's turn (removed, or no longer the game master, while it
    waited): the API's words, with its status."""
    return message(request, words_said(exc.detail), error=True, code=exc.status_code, tool=tool)


@router.post("/c/{campaign_id}/entropy", openapi_extra=access("play"))
async def entropy_form(request: Request, m: Player, share: Annotated[str, Form(max_length=1000)] = "") -> Response:
    """Commit the caller's share of entropy (an empty field: one is drawn and shown once)."""
    given = share or ledger_of(request, m).draw_share()
    try:
        epoch, _appended = await api.share_in_turn(request, m, given)
    except HTTPException as exc:
        return refused_in_turn(request, exc)
    except CampaignError as exc:
        return refused(request, exc)
    server(request).live.appended(m.info.campaign_id)
    lines = [] if share else [_("your share, drawn for you (shown once): {share}").format(share=given)]
    said = _("share of entropy committed for seed epoch {epoch}").format(epoch=epoch)
    return message(request, said, lines=lines)


@router.post("/c/{campaign_id}/invite", openapi_extra=access("gm"))
async def invite_form(
    request: Request,
    m: GM,
    account: Annotated[str, Form()],
    role: Annotated[str, Form()],
    sides: Annotated[str, Form()] = "",
) -> Response:
    srv = server(request)
    name = account.strip().lower()
    try:
        await api.retried_in_turn(
            request, m.info.campaign_id, lambda now: api.granted(request, now, name, role, sides.split(","))
        )
    except HTTPException as exc:
        return refused_in_turn(request, exc, "invite")
    except CampaignError as exc:
        return refused(request, exc, "invite")
    srv.live.appended(m.info.campaign_id)
    said = _("{account} joins as {role}").format(account=name, role=_(ROLE_WORDS.get(role, role)))
    return message(request, said, tool="invite")


def _invitations_context(request: Request, m: InCampaign) -> dict[str, object]:
    """The game master's invitation links and what a new one may be for (the sides the campaign knows)."""
    srv = server(request)
    now = int(srv.invitations.now())
    found = srv.invitations.of(m.info.campaign_id)
    return {
        "invitations": [(i, i.state(now), when(i.expires_at)) for i in found],
        "known_sides": known_sides(srv.members, m.info),
        "invite_hours": guard(request).settings.invite_s // 3600,
    }


def _invitations_answer(
    request: Request, m: InCampaign, text: str, *, link: str = "", error: bool = False, code: int = 200
) -> Response:
    """The invitation links' section drawn again with what was done (in place), or a redirect back to it."""
    made = {"message": text, "error": error, "link": link}
    if nojs.plain(request):
        return nojs.said(request, back_to(request) + "#invitations", {"invitation": made})
    context = {**_invitations_context(request, m), "info": m.info, "csrf": m.caller.session.csrf, "made": made}
    return templates.TemplateResponse(request, "invitations.html", context, status_code=code)


@router.post("/c/{campaign_id}/invitations", openapi_extra=access("gm"))
async def invitation_form(
    request: Request,
    m: GM,
    role: Annotated[str, Form(max_length=20)] = "",
    side: Annotated[str, Form(max_length=200)] = "",
    whom: Annotated[str, Form(max_length=220)] = "",
    hours: Annotated[int | None, Form(ge=1, le=366 * 24)] = None,
) -> Response:
    """The game master makes an invitation link (shown once, to copy and send): ``whom`` is the page's one choice,
    ``player:SIDE`` or ``observer`` (``role`` and ``side`` apart, as a script may send them)."""
    if whom:
        role, _colon, side = whom.partition(":")
    try:
        link, made = await api.invitation_in_turn(request, m, role, [side] if side.strip() else [], hours)
    except HTTPException as exc:
        return refused_in_turn(request, exc)
    except CampaignError as exc:
        return _invitations_answer(request, m, refusal(exc), error=True, code=status_for(exc))
    text = _("A link for {whom}, open until {moment} (shown once: copy it now):").format(
        whom=made.for_words(), moment=when(made.expires_at)
    )
    return _invitations_answer(request, m, text, link=link)


@router.post("/c/{campaign_id}/invitations/{invitation_id}/revoke", openapi_extra=access("gm"))
async def revoke_invitation_form(
    request: Request, m: GM, invitation_id: Annotated[str, InPath(max_length=16)]
) -> Response:
    try:
        gone = await api.revoked_in_turn(request, m, invitation_id)
    except HTTPException as exc:
        return refused_in_turn(request, exc)
    except CampaignError as exc:
        return _invitations_answer(request, m, refusal(exc), error=True, code=status_for(exc))
    said = _("the link for {whom} is revoked: it opens nothing now").format(whom=gone.for_words())
    return _invitations_answer(request, m, said)


@router.post("/c/{campaign_id}/remove", openapi_extra=access("gm"))
async def remove_form(
    request: Request,
    m: GM,
    account: Annotated[str, Form(max_length=100)],
    reason: Annotated[str, Form(max_length=500)] = "",
) -> Response:
    """The GM takes a member out of the campaign: a ``membership.removed`` event (its role changes by inviting
    it again with another)."""
    srv = server(request)
    name = account.strip().lower()
    try:
        await api.retried_in_turn(request, m.info.campaign_id, lambda now: api.removed(request, now, name, reason))
    except HTTPException as exc:
        return refused_in_turn(request, exc, "remove")
    except CampaignError as exc:
        return refused(request, exc, "remove")
    srv.live.appended(m.info.campaign_id)
    said = _("{account} is no longer a member of {campaign}").format(account=name, campaign=m.info.name)
    return message(request, said, tool="remove")


AMEND_INPUTS = "in."
"""Where the amend form's fields of the command's own inputs are named (``in.wounds``), apart from the amend's own
(``seq``, ``dice``, ``reason``): a command may have an input called ``reason``."""


def _amending(request: Request, m: InCampaign, seq: int, choices: forms.Choices) -> dict[str, object]:
    """The amend tool opened from a log row: the command at ``seq`` in its own generated form, filled with the
    inputs the log recorded (those its controls cannot show listed apart, amended as ``INPUT=VALUE``); or, where
    no command was recorded at ``seq``, only that."""
    command = recorded(ledger_of(request, m), m.info, seq)
    if command is None:
        return {"seq": seq, "missing": True}
    model, inputs = type(command), command.inputs()
    kept = forms.unshown(model, inputs, AMEND_INPUTS)
    return {
        "seq": seq,
        "missing": False,
        "name": command.name,
        "typed_name": typed(command.name, inputs),
        "widgets": forms.filled(model, choices, inputs, AMEND_INPUTS),
        "unshown": ", ".join(f"{k}={value(inputs[k])}" for k in kept),
    }


def _amend_changes(request: Request, m: InCampaign, seq: int, sent: FormData, text: str) -> dict[str, object]:
    """The inputs an amend form changes: those its generated controls now read otherwise than the log recorded
    them (when it was sent from a command's own form), and what its ``INPUT=VALUE`` field sets."""
    changes: Mapping[str, object] = {}
    name = sent.get(forms.FILLED)
    if isinstance(name, str) and name:
        command = recorded(ledger_of(request, m), m.info, seq)
        if command is None or command.name != name:
            raise InvalidInputError.saying(
                "no {command} was recorded at #{seq}: open the amend link on its log row again",
                command=typed(name),
                seq=seq,
            )
        raw = {k: [str(v) for v in sent.getlist(k)] for k in sent if k.startswith(AMEND_INPUTS)}
        changes = forms.changed(type(command), command.inputs(), raw, AMEND_INPUTS)
    return {**changes, **_changes(text)}


def _changes(text: str) -> dict[str, object]:
    changes: dict[str, object] = {}
    for item in (x for x in text.split(",") if x.strip()):
        key, sep, raw = item.partition("=")
        if not sep:
            raise InvalidInputError.saying("set takes INPUT=VALUE, not {item!r}", item=item.strip())
        changes[key.strip()] = parse_value(raw.strip())
    return changes


def _amend_answer(request: Request, seq: int, text: str, *, error: bool = False, code: int = 200) -> Response:
    """An amendment's refusal or "nothing to change": in place, or (a plain post) back to the same command's
    amend form."""
    if nojs.plain(request):
        to = f"{back_to(request)}?amend={seq}#said"
        return nojs.said(request, to, {"message": text, "error": error, "lines": []})
    return templates.TemplateResponse(
        request, "message.html", {"message": text, "error": error, "lines": []}, status_code=code
    )


async def _sent_form(request: Request) -> FormData:
    """The whole form sent (parsed once: the route's own ``Form`` fields read the same), for the fields of a
    command's own inputs, which no signature can name."""
    return await request.form()


@router.post("/c/{campaign_id}/amend", openapi_extra=access("gm"))
async def amend_form(  # noqa: PLR0913 (the form's own fields, each held to its bounds where it is declared)
    request: Request,
    m: GM,
    sent: Annotated[FormData, Depends(_sent_form)],
    seq: Annotated[int, Form(ge=1, le=MAX_NUMBER)],
    set: Annotated[str, Form(max_length=10_000)] = "",
    dice: Annotated[str, Form(max_length=1000)] = "",
    reason: Annotated[str, Form(max_length=500)] = "",
    preview: Annotated[str, Form()] = "1",
    head: Annotated[int | None, Form(ge=0, le=MAX_NUMBER)] = None,
) -> Response:
    """The amend form previews; the preview's confirm button (carrying the head it was worked out on, and what the
    form held) amends. Sent from a command's own form (a log row's amend link), its changed fields are the
    amendment; one that changes nothing is told so, and nothing is worked out."""
    try:
        faces = parse_table_dice(dice) if dice.strip() else None
        changes = await run_in_threadpool(_amend_changes, request, m, seq, sent, set)
        if not changes and faces is None:
            return _amend_answer(
                request,
                seq,
                _(
                    "Nothing to change: the form still holds the inputs #{seq} was recorded with. Change what was "
                    "wrong, or give its dice, then preview again."
                ).format(seq=seq),
            )
        # the page says each outcome's sentence in the reader's language, rendered from its record
        names = entity_names(server(request).app.engine, m.info.campaign_id)
        report = await api.amended_in_turn(
            request, m, seq, changes, preview=preview != "0", dice=faces, reason=reason, head=head, names=names
        )
    except HTTPException as exc:
        return _amend_answer(request, seq, words_said(exc.detail), error=True, code=exc.status_code)
    except CampaignError as exc:
        said = words_said(lost_race(request, exc)) if isinstance(exc, ConcurrencyError) else refusal(exc)
        return _amend_answer(request, seq, said, error=True, code=status_for(exc))
    lines = amend_lines(report)
    what = typed(report["command"], report["args"])
    if report["preview"]:
        confirm = [
            ("seq", seq),
            ("set", set),
            ("dice", dice),
            ("reason", reason),
            ("head", report["head"]),
            *((k, v) for k, v in sent.multi_items() if k == forms.FILLED or k.startswith(AMEND_INPUTS)),
        ]
        context = {
            "message": _("Preview of amending {command} at #{seq} (nothing appended yet):").format(
                command=what, seq=seq
            ),
            "error": False,
            "lines": lines,
            "confirm": confirm,
            "campaign_id": m.info.campaign_id,
            "csrf": m.caller.session.csrf,
        }
        if nojs.plain(request):  # without JavaScript: the preview is a page of its own, its confirm a plain form
            context |= {"info": m.info, "account": m.caller.account}
            return templates.TemplateResponse(request, "amend_preview_page.html", context)
        return templates.TemplateResponse(request, "amend_preview.html", context)
    rerun = ngettext("{n} later command re-run", "{n} later commands re-run", report["rerun"]).format(n=report["rerun"])
    return message(
        request, _("Amended {command} at #{seq}; {rerun}").format(command=what, seq=seq, rerun=rerun), lines=lines
    )


def _outcome_change(before: RuleOutcome | None, after: RuleOutcome | None, said: Callable[[RuleOutcome], str]) -> str:
    """One rule outcome of a re-run command beside the one recorded, as the CLI's preview says it (in the reader's
    language: ``said`` gives each outcome's sentence)."""
    if before is None:
        return _("now also {outcome}").format(outcome=said(after)) if after is not None else ""
    if after is None:
        return _("no longer {outcome}").format(outcome=said(before))
    return _("was {before} — now {after}").format(before=said(before), after=said(after))


def _sentences(fate: FateData) -> Callable[[RuleOutcome], str]:
    """Each of the fate's outcomes by the sentence the report gave it in the reader's language (the recorded
    English for one it gave none)."""
    given = {
        id(o): text
        for outcomes, said in ((fate["before"], fate.get("before_said")), (fate["after"], fate.get("after_said")))
        for o, text in zip(outcomes, said or [], strict=False)
    }
    return lambda o: given.get(id(o)) or words(str(o["explanation"]))


def amend_lines(report: AmendAnswer) -> list[str]:
    """An amendment's report in lines for the page: the inputs and dice corrected, then each re-run command's fate
    (as the CLI's preview says them, in the reader's language)."""
    lines = [f"{label(i['input'])}: {value(i['was'])} → {value(i['now'])}" for i in report["inputs"]]
    lines += [
        _("table dice of roll #{roll} ({dice}) corrected: {before} → {now}: {reason}").format(
            roll=c["roll"],
            dice=notation_said(c["notation"]),
            before=", ".join(map(str, c["faces_before"])),
            now=", ".join(map(str, c["faces"])) or _("no die"),
            reason=c["reason"],
        )
        for c in report["corrected"]
        if c["faces"] != c["faces_before"]
    ]
    for fate in [f for f in [report["amended"]] if f is not None] + report["fates"]:
        said = f"#{fate['seq']} {typed(fate['command'], fate['args'])}"
        sentence = _sentences(fate)
        changed = [_outcome_change(b, a, sentence) for b, a in paired(fate["before"], fate["after"]) if b != a]
        if fate["back_on_table"]:
            back = fate["back_on_table"]
            changed.append(
                ngettext(
                    "{n} roll of its own no longer asked for: back on the table",
                    "{n} rolls of its own no longer asked for: back on the table",
                    back,
                ).format(n=back)
            )
        dice = new_dice_words(fate["new_dice"])
        if fate["fate"] == "no longer applies":
            lines.append(
                _("{command} no longer applies ({why}): skipped, its dice back on the table").format(
                    command=said, why=fate.get("why_said", fate["why"])
                )
            )
        elif fate["fate"] == "depends on the new dice":
            lines.append(_("{command}: depends on the new dice (decided when they are rolled)").format(command=said))
        elif fate["fate"] == "new dice":
            shown = "" if not report["exact"] else "".join(f"; {c}" for c in changed)
            lines.append(_("{command}: needs new dice: {dice}").format(command=said, dice=dice) + shown)
        elif fate["fate"] == "changed" or changed:
            lines.append(f"{said}: " + ("; ".join(changed) or _("changed")))
        elif fate is not report["amended"]:
            lines.append(_("{command}: unchanged").format(command=said))
    if not report["exact"]:
        lines.append(_("the new dice are not rolled yet: the campaign's dice roll them when you confirm"))
    return lines


def page_head(m: InCampaign, sent: str) -> int | None:
    """The head the GM's page showed when its undo or rewind was sent (None: a form that names none); refused in
    words when it is no entry's number of this campaign, for a check of what the GM saw that a stray value
    turned off would take back what the GM never saw."""
    if not sent:
        return None
    if not (sent.isascii() and sent.isdigit()) or int(sent) > m.info.last_seq:
        raise InvalidInputError.saying(
            "this page does not show campaign {campaign!r} as it is (it is at #{now}): reload the page and try again",
            campaign=m.info.name,
            now=m.info.last_seq,
        )
    return int(sent)


@router.post("/c/{campaign_id}/rewind", openapi_extra=access("gm"))
async def rewind_form(
    request: Request,
    m: GM,
    to: Annotated[int, Form(ge=0, le=MAX_NUMBER)],
    reason: Annotated[str, Form()] = "",
    head: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    try:
        await api.rewound_in_turn(request, m, to, reason, page_head(m, head))
    except HTTPException as exc:
        return refused_in_turn(request, exc, "rewind")
    except CampaignError as exc:
        return refused(request, exc, "rewind")
    server(request).live.appended(m.info.campaign_id)
    said = _("Rewound to #{seq}: the events after it are retracted (nothing is deleted).").format(seq=to)
    return message(request, said, tool="rewind")


@router.post("/c/{campaign_id}/undo", openapi_extra=access("gm"))
async def undo_form(request: Request, m: GM, head: Annotated[str, Form(max_length=20)] = "") -> Response:
    try:
        _, said = await api.undone_in_turn(request, m, page_head(m, head))
    except HTTPException as exc:
        return refused_in_turn(request, exc, "undo")
    except CampaignError as exc:
        return refused(request, exc, "undo")
    server(request).live.appended(m.info.campaign_id)
    return message(request, said, tool="undo")


@router.get("/lang/{lang}", openapi_extra=access("public"))
def switch_language(
    request: Request,
    lang: Annotated[str, InPath(max_length=8)],
    next_page: Annotated[str | None, Query(alias="next", max_length=2000)] = None,
) -> Response:
    """The language switch: keep the reader's choice (a cookie, a year; and with the account, if signed in, so
    it follows its holder to another browser) and go back to the page it was made on."""
    from campaign.i18n import LANGUAGES
    from campaign.server.language import COOKIE, YEAR, back_to

    if lang not in LANGUAGES:
        raise HTTPException(404)
    who = caller_or_none(request)
    if who is not None and who.session.kind == "session":
        server(request).accounts.set_language(who.account, lang)
    response = RedirectResponse(back_to(next_page), status_code=303)
    response.set_cookie(COOKIE, lang, max_age=YEAR, httponly=True, samesite="lax")
    return response

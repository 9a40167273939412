"""The web page: server-rendered (Jinja2), made live by htmx and server-sent events; no build step.

Every form posts through htmx with the session's CSRF token in a header (``base.html``), and runs the same
functions as the JSON API (:mod:`campaign.server.api`), so a page can do nothing the API would refuse.
"""

from __future__ import annotations

import secrets
from collections.abc import Coroutine
from pathlib import Path
from typing import Annotated, Any

import anyio.to_thread
import orjson
from fastapi import APIRouter, Form, HTTPException, Request
from fastapi import Path as InPath
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.datastructures import FormData

from campaign import views
from campaign.access import memberships
from campaign.access.accounts import SignInError
from campaign.commands import command_type
from campaign.describe import ROLE_WORDS, count, label, readable, standing_changes, value, words
from campaign.rulesets import RULESETS
from campaign.rulesets.tables import parse_value
from campaign.server import api, runner
from campaign.server.charts import chart_series
from campaign.server.context import (
    GM,
    SESSION_COOKIE,
    Account,
    InCampaign,
    Member,
    Player,
    access,
    ledger_of,
    server,
    status_for,
)
from campaign.server.guard import guard
from campaign.server.refusals import lost_race
from campaign.server.timeline_ops import amend, rewind, undo
from campaign.timeline.reports import new_dice_words
from campaign.typed_as import typed
from events.dice import parse_table_dice
from events.errors import CampaignError, ConcurrencyError, InvalidInputError
from events.limits import MAX_NUMBER
from projections.campaign_state import entity_names
from projections.summaries import stored_summary

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
PRE_COOKIE = "campaign_pre"
PLAYER_FIELDS = {*runner.OWN_UNITS, *runner.EITHER_UNIT}


def message(
    request: Request, text: str, *, error: bool = False, lines: list[str] | None = None, code: int = 200
) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "message.html", {"message": text, "error": error, "lines": lines or []}, status_code=code
    )


def refused(request: Request, exc: CampaignError) -> HTMLResponse:
    """The page's answer to a refused command: the program's message, with the API's status (a lost race in the
    API's words too, naming the campaign)."""
    said = lost_race(request, exc) if isinstance(exc, ConcurrencyError) else str(exc)
    return message(request, said, error=True, code=status_for(exc))


def _signin_page(request: Request, signup: bool, text: str = "", code: int = 200) -> HTMLResponse:
    pre = secrets.token_urlsafe(16)
    response = templates.TemplateResponse(
        request, "signin.html", {"signup": signup, "pre": pre, "message": text}, status_code=code
    )
    response.set_cookie(PRE_COOKIE, pre, httponly=True, samesite="strict")
    return response


@router.get("/signin", openapi_extra=access("public"))
def signin_form(request: Request) -> HTMLResponse:
    return _signin_page(request, signup=False)


@router.get("/signup", openapi_extra=access("public"))
def signup_form(request: Request) -> HTMLResponse:
    return _signin_page(request, signup=True)


async def _start_session(request: Request, account: str) -> Response:
    """A brand-new session for ``account`` (whatever session cookie came with the request is not reused)."""
    srv = server(request)
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        await anyio.to_thread.run_sync(srv.accounts.close_session, old)
    secret, _ = await anyio.to_thread.run_sync(srv.accounts.open_session, account)
    response = RedirectResponse("/", status_code=303)
    api.set_session_cookie(request, response, secret)
    response.delete_cookie(PRE_COOKIE)
    return response


def _pre_checked(request: Request, pre: str) -> bool:
    """Sign-in CSRF: the form's token must match the cookie set with the form (a double submit)."""
    cookie = request.cookies.get(PRE_COOKIE, "")
    return bool(cookie) and secrets.compare_digest(cookie, pre)


async def _account_form(request: Request, pre: str, signup: bool, attempt: Coroutine[Any, Any, str]) -> Response:
    """The sign-in or sign-up form sent: its CSRF token checked, then ``attempt`` (the account it opens a
    session for), or the form again saying why not (a wrong password; a name taken or not allowed; too many
    attempts, with the API's status)."""
    if not _pre_checked(request, pre):
        attempt.close()  # never run: nothing is checked or counted
        again = "try again" if signup else "sign in again"
        return _signin_page(request, signup=signup, text=f"the form expired: {again}", code=403)
    refused = InvalidInputError if signup else SignInError  # a sign-in's other errors are not the form's
    try:
        account = await attempt
    except refused as exc:
        return _signin_page(request, signup=signup, text=str(exc), code=400)
    except HTTPException as exc:  # throttled (429) or busy (503)
        page = _signin_page(request, signup=signup, text=str(exc.detail), code=exc.status_code)
        page.headers.update(exc.headers or {})
        return page
    return await _start_session(request, account)


@router.post("/signin", openapi_extra=access("public"))
async def signin(
    request: Request, name: Annotated[str, Form()], password: Annotated[str, Form()], pre: Annotated[str, Form()] = ""
) -> Response:
    return await _account_form(request, pre, False, guard(request).sign_in(request, name, password))


@router.post("/signup", openapi_extra=access("public"))
async def signup(
    request: Request, name: Annotated[str, Form()], password: Annotated[str, Form()], pre: Annotated[str, Form()] = ""
) -> Response:
    return await _account_form(request, pre, True, guard(request).sign_up(request, name, password))


@router.post("/signout", openapi_extra=access("account"))
def signout(request: Request, who: Account) -> Response:
    server(request).accounts.revoke(who.account, who.session.public_id)
    response = Response(status_code=204, headers={"HX-Redirect": "/signin"})
    response.delete_cookie(SESSION_COOKIE)
    return response


@router.get("/", openapi_extra=access("account"))
def home(request: Request, who: Account) -> Response:
    mine = api.campaigns(who, request)
    return templates.TemplateResponse(
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
        return message(request, str(exc), error=True, code=400)
    return Response(status_code=204, headers={"HX-Redirect": f"/c/{made['campaign_id']}"})


def _live_context(request: Request, m: InCampaign) -> dict[str, Any]:
    srv = server(request)
    ledger = srv.app.ledger
    info = srv.campaign(m.info.campaign_id)
    s = views.summary(ledger, info)
    every, entries = views.log_entries(ledger, info, show_all=True)
    log = views.log_in_words(every, entries)
    battle = next((b for b in reversed(s.battles) if not b.get("ended") and not b.get("result")), None)
    battle_log = []
    if battle is not None:
        _, in_battle = views.log_entries(ledger, info, battle=battle["battle_id"])
        battle_log = views.log_in_words(every, in_battle)[-12:]
    return {
        "info": info,
        "head": info.last_seq,
        "units": s.units,
        "columns": [c for c in views.STATUS_COLUMNS if any(c in u for u in s.units)],
        "headings": views.HEADINGS,
        "careers": s.careers,
        "treasury": s.treasury,
        "battle": battle,
        "battle_log": battle_log,
        "log": list(reversed(log))[:200],
        "members": sorted(srv.members.of(info.campaign_id).values(), key=lambda x: (x.role, x.account)),
        "charts": chart_series(ledger, info, every),
    }


@router.get("/c/{campaign_id}", openapi_extra=access("member"))
def campaign_page(request: Request, m: Member) -> HTMLResponse:
    allowed = [
        c
        for c in runner.commands_for(m.info.ruleset)
        if m.member.role == "gm"
        or (
            m.member.role == "player"
            and (c.name.endswith(runner.NEW_UNIT) or any(k in PLAYER_FIELDS for k in c.model.model_fields))
        )
    ]
    return templates.TemplateResponse(
        request,
        "campaign.html",
        {
            **_live_context(request, m),
            "account": m.caller.account,
            "csrf": m.caller.session.csrf,
            "member": m.member,
            "role_words": ROLE_WORDS[m.member.role],
            "is_gm": m.member.role == "gm",
            "commands": allowed,
        },
    )


@router.get("/c/{campaign_id}/live", openapi_extra=access("member"))
def live_part(request: Request, m: Member) -> HTMLResponse:
    return templates.TemplateResponse(request, "live.html", _live_context(request, m))


@router.get("/c/{campaign_id}/audit/{seq}", openapi_extra=access("member"))
def audit_page(request: Request, seq: Annotated[int, InPath(ge=0, le=MAX_NUMBER)], m: Member) -> HTMLResponse:
    found = views.audit(server(request).app.ledger, m.info, seq)
    return templates.TemplateResponse(
        request, "audit.html", {"info": m.info, "a": found, "account": m.caller.account, "csrf": m.caller.session.csrf}
    )


def form_inputs(command: str, form: FormData) -> dict[str, Any]:
    """A command form's fields as the command's inputs (numbers, ticks, JSON), empty optional ones left out."""
    spec = runner.spec(command_type(command))
    inputs: dict[str, Any] = {}
    for f in spec.fields:
        raw = str(form.get(f.name, "")).strip()
        if f.kind == "checkbox":
            inputs[f.name] = f.name in form
        elif not raw:
            continue
        elif f.kind == "number":
            try:
                inputs[f.name] = int(raw)
            except ValueError:
                raise InvalidInputError(f"{f.name.replace('_', ' ')} must be a whole number, not {raw!r}") from None
        elif f.kind == "json":
            try:
                inputs[f.name] = orjson.loads(raw)
            except orjson.JSONDecodeError:
                inputs[f.name] = raw
        else:
            inputs[f.name] = raw
    return inputs


@router.post("/c/{campaign_id}/command", openapi_extra=access("play"))
async def command_form(request: Request, m: Player) -> HTMLResponse:
    form = await request.form()
    name = str(form.get("_command", ""))
    engine = server(request).app.engine
    before = stored_summary(engine, m.info.campaign_id, m.info.last_seq)
    try:
        body = api.CommandRequest(command=name, args=form_inputs(name, form), dice=str(form.get("_dice") or "") or None)
        result = api.run_command(request, m, body)
    except HTTPException as exc:
        return message(request, str(exc.detail), error=True, code=exc.status_code)
    except CampaignError as exc:
        return refused(request, exc)
    srv = server(request)
    srv.live.appended(m.info.campaign_id)
    # in the CLI's words: each fact once, names for ids, the command as it is typed
    said = [text for _, text in readable(result.events, entity_names(srv.app.engine, m.info.campaign_id))]
    # and what the command did to a unit's standing (promoted, exhausted…), said as it happens
    said += [
        f"standing: {line}"
        for line in standing_changes(before, stored_summary(engine, m.info.campaign_id, result.head.seq))
    ]
    return message(
        request, f"{typed(name)}: {count(len(result.events), 'events')} appended (head #{result.head.seq})", lines=said
    )


@router.post("/c/{campaign_id}/entropy", openapi_extra=access("play"))
def entropy_form(request: Request, m: Player, share: Annotated[str, Form(max_length=1000)] = "") -> HTMLResponse:
    """Commit the caller's share of entropy (an empty field: one is drawn and shown once)."""
    ledger = ledger_of(request, m)
    given = share or ledger.draw_share()
    try:
        ledger.commit_share(m.info, given)
    except CampaignError as exc:
        return refused(request, exc)
    server(request).live.appended(m.info.campaign_id)
    lines = [] if share else [f"your share, drawn for you (shown once): {given}"]
    return message(request, f"share of entropy committed for seed epoch {m.info.seed_epoch}", lines=lines)


@router.post("/c/{campaign_id}/invite", openapi_extra=access("gm"))
def invite_form(
    request: Request,
    m: GM,
    account: Annotated[str, Form()],
    role: Annotated[str, Form()],
    sides: Annotated[str, Form()] = "",
) -> HTMLResponse:
    srv = server(request)
    name = account.strip().lower()
    try:
        memberships.grant(
            ledger_of(request, m),
            srv.members,
            m.info,
            name,
            role,
            sides.split(","),
            account_exists=srv.accounts.exists(name),
        )
    except CampaignError as exc:
        return refused(request, exc)
    srv.live.appended(m.info.campaign_id)
    return message(request, f"{name} joins as {ROLE_WORDS.get(role, role)}")


@router.post("/c/{campaign_id}/remove", openapi_extra=access("gm"))
def remove_form(
    request: Request,
    m: GM,
    account: Annotated[str, Form(max_length=100)],
    reason: Annotated[str, Form(max_length=500)] = "",
) -> HTMLResponse:
    """The GM takes a member out of the campaign: a ``membership.removed`` event (its role changes by inviting
    it again with another)."""
    srv = server(request)
    name = account.strip().lower()
    try:
        memberships.remove(ledger_of(request, m), srv.members, m.info, name, reason)
    except CampaignError as exc:
        return refused(request, exc)
    srv.live.appended(m.info.campaign_id)
    return message(request, f"{name} is no longer a member of {m.info.name}")


def _changes(text: str) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    for item in (x for x in text.split(",") if x.strip()):
        key, sep, raw = item.partition("=")
        if not sep:
            raise InvalidInputError(f"set takes INPUT=VALUE, not {item.strip()!r}")
        changes[key.strip()] = parse_value(raw.strip())
    return changes


@router.post("/c/{campaign_id}/amend", openapi_extra=access("gm"))
def amend_form(
    request: Request,
    m: GM,
    seq: Annotated[int, Form(ge=1, le=MAX_NUMBER)],
    set: Annotated[str, Form(max_length=10_000)] = "",
    dice: Annotated[str, Form(max_length=1000)] = "",
    reason: Annotated[str, Form(max_length=500)] = "",
    preview: Annotated[str, Form()] = "1",
    head: Annotated[int | None, Form(ge=0, le=MAX_NUMBER)] = None,
) -> HTMLResponse:
    """The amend form previews; the preview's confirm button (carrying the head it was worked out on) amends."""
    ledger = ledger_of(request, m)
    try:
        faces = parse_table_dice(dice) if dice.strip() else None
        report = amend(ledger, m.info, seq, _changes(set), preview=preview != "0", dice=faces, reason=reason, head=head)
    except CampaignError as exc:
        return refused(request, exc)
    lines = amend_lines(report)
    what = typed(report["command"], report["args"])
    if report["preview"]:
        confirm = {"seq": seq, "set": set, "dice": dice, "reason": reason, "head": report["head"]}
        return templates.TemplateResponse(
            request,
            "amend_preview.html",
            {
                "message": f"Preview of amending {what} at #{seq} (nothing appended yet):",
                "error": False,
                "lines": lines,
                "confirm": confirm,
                "campaign_id": m.info.campaign_id,
            },
        )
    server(request).live.appended(m.info.campaign_id)
    return message(request, f"Amended {what} at #{seq}; {count(report['rerun'], 'later commands')} re-run", lines=lines)


def amend_lines(report: dict[str, Any]) -> list[str]:
    """An amendment's report in lines for the page: the inputs and dice corrected, then each re-run command's fate
    (as the CLI's preview says them)."""
    lines = [f"{label(i['input'])}: {value(i['was'])} → {value(i['now'])}" for i in report["inputs"]]
    lines += [
        f"table dice of roll #{c['roll']} ({c['notation']}) corrected: {', '.join(map(str, c['faces_before']))} → "
        f"{', '.join(map(str, c['faces'])) or 'no die'}: {c['reason']}"
        for c in report["corrected"]
        if c["faces"] != c["faces_before"]
    ]
    for fate in [f for f in [report["amended"]] if f is not None] + report["fates"]:
        said = f"#{fate['seq']} {typed(fate['command'], fate['args'])}"
        changed = [
            f"was {words(b['explanation'])} — now {words(a['explanation'])}"
            for b, a in zip(fate["before"], fate["after"], strict=False)
            if b != a
        ]
        dice = new_dice_words(fate["new_dice"])
        if fate["fate"] == "no longer applies":
            lines.append(f"{said} no longer applies ({fate['why']}): skipped, its dice back on the table")
        elif fate["fate"] == "depends on the new dice":
            lines.append(f"{said}: depends on the new dice (decided when they are rolled)")
        elif fate["fate"] == "new dice":
            shown = "" if not report["exact"] else "".join(f"; {c}" for c in changed)
            lines.append(f"{said}: needs new dice: {dice}{shown}")
        elif fate["fate"] == "changed" or changed:
            lines.append(f"{said}: " + ("; ".join(changed) or "changed"))
        elif fate is not report["amended"]:
            lines.append(f"{said}: unchanged")
    if not report["exact"]:
        lines.append("the new dice are not rolled yet: the campaign's dice roll them when you confirm")
    return lines


@router.post("/c/{campaign_id}/rewind", openapi_extra=access("gm"))
def rewind_form(
    request: Request, m: GM, to: Annotated[int, Form(ge=0, le=MAX_NUMBER)], reason: Annotated[str, Form()] = ""
) -> HTMLResponse:
    try:
        result = rewind(ledger_of(request, m), m.info, to, reason)
    except CampaignError as exc:
        return refused(request, exc)
    server(request).live.appended(m.info.campaign_id)
    return message(request, f"rewound to #{to} (head #{result.head.seq})")


@router.post("/c/{campaign_id}/undo", openapi_extra=access("gm"))
def undo_form(request: Request, m: GM) -> HTMLResponse:
    try:
        _, said = undo(ledger_of(request, m), m.info)
    except CampaignError as exc:
        return refused(request, exc)
    server(request).live.appended(m.info.campaign_id)
    return message(request, said)

"""The page's report tab (the campaign's story, printable, downloadable as Markdown or HTML) and its Army Forge
upload (a list imported for a side: the GM's for any side, a player's for its own). Kept apart from the main page
so that either is re-hosted whole; both run what the CLI runs (``campaign.report``, ``campaign.interchange``)."""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, File, Form, HTTPException, Request, UploadFile
from fastapi.responses import Response

from campaign.i18n import _, ngettext, words_said
from campaign.report.render import PRINT_CSS, html, html_body, markdown
from campaign.report.story import campaign_report
from campaign.server.api import in_turn, may_run
from campaign.server.context import InCampaign, Member, Player, access, ledger_of, server
from campaign.server.pages import message, refused, templates
from campaign.server.turns import on_the_fresh_state
from events.errors import CampaignError
from events.store import AppendResult
from projections.state.campaigns import CampaignInfo

router = APIRouter(include_in_schema=False)
MAX_LIST_BYTES = 2_000_000
"""An army list (Army Forge's) is tens of kilobytes; a larger upload is refused before it is read as JSON."""


@router.get("/report.css", openapi_extra=access("public"))
def report_style() -> Response:
    """The report's print layout as a style sheet of its own: the page's CSP takes no inline style."""
    return Response(PRINT_CSS, media_type="text/css; charset=utf-8")


def attachment(filename: str) -> str:
    """A download's Content-Disposition for any name (RFC 6266): an ASCII fallback, and the name itself
    percent-encoded as UTF-8 (RFC 8187) — a header is Latin-1, and a campaign named "Front Otłoku" or "Сталь"
    made the download fail."""
    from urllib.parse import quote

    fallback = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-._") else "-" for ch in filename)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"


@router.get("/c/{campaign_id}/report", openapi_extra=access("member"))
def report_page(request: Request, m: Member, format: str = "") -> Response:
    """The campaign's story on the page (``?format=md`` or ``html``: the file ``campaign report`` writes)."""
    info = server(request).campaign(m.info.campaign_id)
    told = campaign_report(server(request).app.ledger.store, info)
    slug = "".join(ch if ch.isalnum() else "-" for ch in info.name).strip("-").lower() or "campaign"
    if format == "md":
        return Response(
            markdown(told),
            media_type="text/markdown; charset=utf-8",
            headers={"Content-Disposition": attachment(f"{slug}-report.md")},
        )
    if format == "html":
        return Response(
            html(told),
            media_type="text/html; charset=utf-8",
            headers={"Content-Disposition": attachment(f"{slug}-report.html")},
        )
    return templates.TemplateResponse(
        request,
        "report.html",
        {
            "info": info,
            "body": html_body(told),
            "account": m.caller.account,
            "csrf": m.caller.session.csrf,
        },
    )


@router.post("/c/{campaign_id}/army-list", openapi_extra=access("play"))
async def army_list_form(
    request: Request,
    m: Player,
    side: Annotated[str, Form(max_length=100)],
    army_list: Annotated[UploadFile, File()],
    update: Annotated[bool, Form()] = False,
) -> Response:
    """An army list uploaded for ``side``, read by the campaign's ruleset's reader (its plug-in's ``army_list``:
    Army Forge's for Grimdark Future): shown first when it updates units already listed (``update`` ticked to
    go ahead), then run by the executor as its ``import-list`` runs it."""
    from campaign.interchange.army_lists import campaign_lists, preview

    data = await army_list.read(MAX_LIST_BYTES + 1)
    srv, ledger = server(request), ledger_of(request, m)
    try:
        owner, lists = campaign_lists(m.info)
        if len(data) > MAX_LIST_BYTES:
            too_large = _("a list from {source} is at most 2 MB: this file is larger").format(source=lists.source)
            return message(request, too_large, error=True, code=413)
        read = lists.read(data, side, what=army_list.filename or None)  # None: the reader's words for "the file"
    except CampaignError as exc:
        return refused(request, exc)

    def attempt(now: InCampaign, info: CampaignInfo) -> tuple[list[str], int, AppendResult | None]:
        may_run(request, now, read.command, info)
        plan = preview(ledger, info, owner, read.command)
        said = lists.in_words(plan, read.notes)
        if plan.changes_units and not update:
            return said, len(plan.updated), None
        return said, len(plan.updated), ledger.execute(info, read.command)

    def in_its_turn(now: InCampaign) -> tuple[list[str], int, AppendResult | None]:
        """The import as any command runs: in the campaign's turn, for whoever asks as they are then, again on
        the fresh state after a lost race."""
        reread = partial(srv.campaign, now.info.campaign_id)
        return on_the_fresh_state(now.info, reread, partial(attempt, now), now.info.name)

    try:
        said, updated, result = await in_turn(request, m.info.campaign_id, in_its_turn)
    except HTTPException as exc:
        return message(request, words_said(exc.detail), error=True, code=exc.status_code)
    except CampaignError as exc:
        return refused(request, exc)
    if result is None:
        return message(
            request,
            ngettext(
                "this list updates {n} unit already on the roster: nothing was changed; tick "
                "“update the units already listed” to go ahead",
                "this list updates {n} units already on the roster: nothing was changed; tick "
                "“update the units already listed” to go ahead",
                updated,
            ).format(n=updated),
            lines=said,
            code=409,
        )
    srv.turns.appended(m.info.campaign_id, result.head.seq)
    srv.live.appended(m.info.campaign_id)
    return message(
        request, _("{what} imported (head #{seq})").format(what=said[0], seq=result.head.seq), lines=said[1:]
    )

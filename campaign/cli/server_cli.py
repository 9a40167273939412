"""``serve``, ``user add`` and ``invite``: run the shared server, and make its first game master."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Annotated

import typer

from campaign.cli.options import CampaignOpt, CommandIdOpt, JsonOpt
from campaign.cli.output import Output, escape, handles_errors, strong
from campaign.cli.session import open_app, state
from campaign.i18n import _
from campaign.rulesets.kinds import NAME
from events.errors import ConfigurationError, InvalidInputError

users = typer.Typer(help="Accounts of the shared server (`campaign serve`).", no_args_is_help=True)


@users.command("add")
@handles_errors
def user_add(
    name: Annotated[str, NAME],
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the password from standard input (for scripts).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Create an account (its password is asked for, and stored only as an argon2 hash)."""
    from campaign.access.accounts import Accounts
    from campaign.bootstrap import wall_clock

    if password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = typer.prompt(_("Password"), hide_input=True, confirmation_prompt=True)
    Accounts(open_app(create=True).engine, wall_clock).add(name, password)
    out = Output(as_json)
    if as_json:
        out.json({"account": name.strip().lower()})
    else:
        out.console.print(_("account {name} created").format(name=f"[bold]{escape(name.strip().lower())}[/]"))


InviteHours = Annotated[
    int | None,
    typer.Option(
        "--invite-hours",
        envvar="CAMPAIGN_INVITE_HOURS",
        help="An invitation link opens for this many hours after it is made (default: 72).",
        min=1,
        max=366 * 24,
        show_default=False,
    ),
]
"""Left out: :data:`campaign.access.invitations.DEFAULT_LIFETIME_S` (a test checks the help says it)."""


def invite(  # noqa: PLR0913 (the command's options, as Typer reads them)
    account: Annotated[str | None, typer.Argument(help="The account (left out with --link).")] = None,
    role: Annotated[str, typer.Option("--role", help="gm, player or observer (a link: player or observer).")] = "",
    side: Annotated[list[str] | None, typer.Option("--side", help="A side the player plays (repeat).")] = None,
    link: Annotated[
        bool,
        typer.Option("--link", help="Print a link instead: whoever opens it signs up or signs in and joins."),
    ] = False,
    invite_hours: InviteHours = None,
    url: Annotated[
        str, typer.Option("--url", envvar="CAMPAIGN_URL", help="The server's address, as the group reaches it.")
    ] = "http://127.0.0.1:8000",
    campaign: CampaignOpt = None,
    command_id: CommandIdOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Give an account a role in a campaign (the first game master is made here): a membership event.

    With --link, no account is named: a link for the role is printed (shown once), to send to whoever should join;
    it opens once, for --invite-hours, and the game master's page lists and revokes it."""
    from campaign.access.accounts import Accounts
    from campaign.access.memberships import Memberships, grant
    from campaign.bootstrap import wall_clock

    if not role:
        raise InvalidInputError.saying("say the role: --role gm, player or observer")
    if link:
        if account is not None:
            raise InvalidInputError.saying("a link invites whoever opens it: leave out the account name (or --link)")
        _invite_link(role, side or [], invite_hours, url, campaign, as_json)
        return
    if account is None:
        raise InvalidInputError.saying("name the account to invite (or make a link with --link)")
    app = open_app()
    info = app.ledger.resolve(campaign)
    name = account.strip().lower()
    exists = Accounts(app.engine, wall_clock).exists(name)
    result = grant(
        app.ledger, Memberships(app.engine), info, name, role, side or [], account_exists=exists, command_id=command_id
    )
    Output(as_json).appended(result, f"{strong(info.name)}:")


def _invite_link(role: str, sides: list[str], hours: int | None, url: str, campaign: str | None, as_json: bool) -> None:
    from campaign.access.invitations import DEFAULT_LIFETIME_S, Invitations, when
    from campaign.access.memberships import Memberships

    app = open_app()
    info = app.ledger.resolve(campaign)
    invitations = Invitations(app.engine)
    life = hours * 3600 if hours else DEFAULT_LIFETIME_S
    secret, made = invitations.make(Memberships(app.engine), info, role, sides, app.ledger.actor, life)
    address = f"{url.rstrip('/')}/join/{secret}"
    out = Output(as_json)
    if as_json:
        out.json({"link": address, **made.as_dict(int(invitations.now()))})
    else:
        until = when(made.expires_at)
        out.console.print(_link_said(made.role, made.sides, info.name, until))
        out.console.print(address, soft_wrap=True, highlight=False)


def _link_said(role: str, sides: Sequence[str], campaign: str, until: str) -> str:
    """The line above a new link, worded whole for each role: the role's words decline with the sentence around
    them in Russian and Polish ("для игрока", "dla gracza"), so no piece of it is glued in."""
    where = f"[bold]{escape(campaign)}[/]"
    if role == "player":
        said = _("{campaign}: a link for a player for {sides}, open until {until} (shown once):")
        return said.format(campaign=where, sides=escape(", ".join(sides)), until=until)
    if role == "observer":
        return _("{campaign}: a link for an observer, open until {until} (shown once):").format(
            campaign=where, until=until
        )
    said = _("{campaign}: a link for {role}, open until {until} (shown once):")
    return said.format(campaign=where, role=escape(role), until=until)


def serve(
    host: Annotated[
        str, typer.Option("--host", envvar="CAMPAIGN_HOST", help="Address to listen on (loopback by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", envvar="CAMPAIGN_PORT", help="Port to listen on.")] = 8000,
    secure_cookies: Annotated[
        bool,
        typer.Option(
            "--secure-cookies",
            envvar="CAMPAIGN_SECURE_COOKIES",
            help="Behind HTTPS (a TLS proxy): the session cookie over HTTPS only, and HSTS.",
        ),
    ] = False,
    session_hours: Annotated[
        int,
        typer.Option(
            "--session-hours",
            envvar="CAMPAIGN_SESSION_HOURS",
            help="A browser's session ends after this many hours unused.",
            min=1,
            max=24 * 366,
        ),
    ] = 14 * 24,
    session_max_days: Annotated[
        int,
        typer.Option(
            "--session-max-days",
            envvar="CAMPAIGN_SESSION_MAX_DAYS",
            help="A browser's session ends this many days after signing in, however often it is used.",
            min=1,
            max=366,
        ),
    ] = 30,
    token_days: Annotated[
        int,
        typer.Option(
            "--token-days",
            envvar="CAMPAIGN_TOKEN_DAYS",
            help="A script's bearer token ends this many days after it is made.",
            min=1,
            max=3660,
        ),
    ] = 90,
    invite_hours: InviteHours = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            "--forwarded-allow-ips",
            envvar="CAMPAIGN_TRUSTED_PROXIES",
            help="Reverse proxies whose X-Forwarded-For names the client (comma-separated addresses).",
        ),
    ] = "127.0.0.1",
) -> None:
    """Serve the database to a group: the web page and the JSON API (OpenAPI at /openapi.json)."""
    try:
        import uvicorn

        from campaign.access.accounts import Lifetimes
        from campaign.server.app import create_app
        from campaign.server.guard import Settings
        from campaign.server.serving import config
    except ImportError as exc:
        raise ConfigurationError.saying(
            "the server needs its extra: pip install 'campaign-ledger[server]' ({module})", module=exc.name
        ) from None
    if not 0 < port < 65536:
        raise InvalidInputError.saying("--port must be between 1 and 65535")
    from campaign.logging import configure_logging, verbosity

    configure_logging(max(verbosity(), 1), json_lines=True)  # a line per request, for machines to read
    lifetimes = Lifetimes(
        session_s=session_hours * 3600, session_max_s=session_max_days * 24 * 3600, token_s=token_days * 24 * 3600
    )
    settings = Settings(lifetimes=lifetimes)
    if invite_hours:
        settings = replace(settings, invite_s=invite_hours * 3600)
    app = create_app(open_app(create=True), secure_cookies=secure_cookies, settings=settings)
    said = _("serving {where} on {address} (Ctrl-C stops)")
    typer.echo(said.format(where=where(state.db), address=f"http://{host}:{port}/"), err=True)
    uvicorn.Server(config(app, host, port, forwarded_allow_ips=forwarded_allow_ips)).run()


def where(db: str) -> str:
    """The database as it may be shown: a URL without its password."""
    if "://" not in db:
        return db
    from sqlalchemy.engine import make_url

    return make_url(db).render_as_string(hide_password=True)


def register(app: typer.Typer) -> None:
    """``invite`` and ``serve`` (``user`` is the group :data:`users`, listed apart in the command table)."""
    app.command("invite")(handles_errors(invite))
    app.command("serve")(handles_errors(serve))

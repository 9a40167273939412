"""``serve``, ``user add`` and ``invite``: run the shared server, and make its first game master."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from campaign.cli.options import CampaignOpt, CommandIdOpt, JsonOpt
from campaign.cli.output import Output, handles_errors
from campaign.cli.session import open_app, state
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
        password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    Accounts(open_app(create=True).engine, wall_clock).add(name, password)
    out = Output(as_json)
    if as_json:
        out.json({"account": name.strip().lower()})
    else:
        out.console.print(f"account [bold]{name.strip().lower()}[/] created")


def invite(
    account: str,
    role: Annotated[str, typer.Option("--role", help="gm, player or observer.")],
    side: Annotated[list[str] | None, typer.Option("--side", help="A side the player plays (repeat).")] = None,
    campaign: CampaignOpt = None,
    command_id: CommandIdOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Give an account a role in a campaign (the first game master is made here): a membership event."""
    from campaign.access.accounts import Accounts
    from campaign.access.memberships import Memberships, grant
    from campaign.bootstrap import wall_clock

    app = open_app()
    info = app.ledger.resolve(campaign)
    name = account.strip().lower()
    exists = Accounts(app.engine, wall_clock).exists(name)
    result = grant(
        app.ledger, Memberships(app.engine), info, name, role, side or [], account_exists=exists, command_id=command_id
    )
    Output(as_json).appended(result, f"[bold]{info.name}[/]:")


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
        raise ConfigurationError(
            f"the server needs its extra: pip install 'campaign-ledger[server]' ({exc.name})"
        ) from None
    if not 0 < port < 65536:
        raise InvalidInputError("--port must be between 1 and 65535")
    from campaign.logging import configure_logging, verbosity

    configure_logging(max(verbosity(), 1), json_lines=True)  # a line per request, for machines to read
    lifetimes = Lifetimes(
        session_s=session_hours * 3600, session_max_s=session_max_days * 24 * 3600, token_s=token_days * 24 * 3600
    )
    app = create_app(open_app(create=True), secure_cookies=secure_cookies, settings=Settings(lifetimes=lifetimes))
    typer.echo(f"serving {where(state.db)} on http://{host}:{port}/ (Ctrl-C stops)", err=True)
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

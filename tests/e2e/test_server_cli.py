"""``campaign user add`` and ``campaign invite``: the first game master of a server, made on its machine."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI
from typer.testing import CliRunner

from campaign.cli.main import app
from tests.e2e.test_cli import Cli


def test_a_user_added_and_invited_as_game_master_by_the_cli(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "group.db"))
    cli("new", "Kessel", "--ruleset", "grimdark")
    added = CliRunner().invoke(
        app, ["--db", cli.db, "user", "add", "Gina", "--password-stdin"], input="a long password\n"
    )
    assert added.exit_code == 0 and "account gina created" in added.output
    before = cli.events()
    out = cli("invite", "gina", "--role", "gm").output
    assert "gina joins as game master" in out and cli.events() == before + 1
    log = cli.json("log")["events"]
    assert log[-1]["type"] == "membership.granted" and log[-1]["meta"]["actor"] == "tester"


def test_refusals_append_nothing(tmp_path: Path) -> None:
    cli = Cli(str(tmp_path / "group.db"))
    cli("new", "Kessel", "--ruleset", "grimdark")
    short = CliRunner().invoke(app, ["--db", cli.db, "user", "add", "pat", "--password-stdin"], input="short\n")
    assert short.exit_code == 2 and "at least 10 characters" in short.output
    before = cli.events()
    assert "no account named 'ghost'" in cli("invite", "ghost", "--role", "gm", code=2).output
    CliRunner().invoke(app, ["--db", cli.db, "user", "add", "pat", "--password-stdin"], input="a long password\n")
    assert "a player plays one or more sides" in cli("invite", "pat", "--role", "player", code=2).output
    assert "role must be one of gm, player, observer" in cli("invite", "pat", "--role", "king", code=2).output
    taken = CliRunner().invoke(
        app, ["--db", cli.db, "user", "add", "PAT", "--password-stdin"], input="another password\n"
    )
    assert taken.exit_code == 2 and "taken" in taken.output
    assert cli.events() == before
    assert "--port must be between 1 and 65535" in cli("serve", "--port", "0", code=2).output
    # a side a letter away from the Robots' (their unit mustered) binds pat to nobody's units: said, not granted
    cli("gf", "muster", "Robot Squad", "--side", "Robots", "--models", "5", "--quality", "4", "--points", "150")
    before = cli.events()
    mistyped = cli("invite", "pat", "--role", "player", "--side", "Robts", code=2).output
    assert "Kessel has no side 'Robts': did you mean 'Robots'?" in " ".join(mistyped.split())
    assert cli.events() == before
    assert "pat joins as player for Robots" in cli("invite", "pat", "--role", "player", "--side", "robots").output


def test_serve_takes_its_database_address_port_and_lifetimes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    ran: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: ran.append(self.config))
    env = {
        "CAMPAIGN_DB": str(tmp_path / "served.db"),
        "CAMPAIGN_HOST": "0.0.0.0",
        "CAMPAIGN_PORT": "8123",
        "CAMPAIGN_SESSION_HOURS": "2",
        "CAMPAIGN_TOKEN_DAYS": "7",
        "CAMPAIGN_TRUSTED_PROXIES": "127.0.0.1,::1",
        "CAMPAIGN_INVITE_HOURS": "5",
    }
    done = CliRunner().invoke(app, ["serve"], env=env)
    assert done.exit_code == 0, done.output
    assert f"serving {tmp_path / 'served.db'} on http://0.0.0.0:8123/" in done.output
    (config,) = ran
    assert (config.host, config.port, config.forwarded_allow_ips) == ("0.0.0.0", 8123, "127.0.0.1,::1")
    served = config.app
    assert isinstance(served, FastAPI), served  # serve hands uvicorn the application itself, not an import string
    lifetimes = served.state.guard.accounts.lifetimes
    assert (lifetimes.session_s, lifetimes.token_s) == (2 * 3600, 7 * 24 * 3600)
    assert served.state.guard.settings.invite_s == 5 * 3600
    assert (tmp_path / "served.db").is_file()


def test_serve_never_shows_the_database_password(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import campaign.cli.server_cli as server_cli

    assert server_cli.where("postgresql://ledger:s3cret@db.example:5432/league") == (
        "postgresql://ledger:***@db.example:5432/league"
    )


def test_invite_link_prints_a_link_that_opens_on_the_server_once(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from campaign.access.invitations import DEFAULT_LIFETIME_S
    from campaign.bootstrap import bootstrap
    from campaign.server.app import create_app
    from tests.server.conftest import FAST_HASHER, PASSWORD

    cli = Cli(str(tmp_path / "group.db"))
    cli("new", "Kessel", "--ruleset", "grimdark")
    before = cli.events()
    assert "Kessel has no side 'Robots' (it has no side yet)" in " ".join(
        cli("invite", "--link", "--role", "player", "--side", "Robots", code=2).output.split()
    )
    assert "leave out the account name" in cli("invite", "pat", "--link", "--role", "observer", code=2).output
    assert "name the account to invite" in cli("invite", "--role", "observer", code=2).output
    cli("gf", "muster", "Robot Squad", "--side", "Robots", "--models", "5", "--quality", "4", "--points", "150")
    said = cli("invite", "--link", "--role", "player", "--side", "robots", "--url", "https://ledger.example.org/")
    assert "Kessel: a link for a player for Robots, open until" in said.output
    link = said.output.split()[-1]
    assert link.startswith("https://ledger.example.org/join/")
    made = cli.json("invite", "--link", "--role", "observer", "--invite-hours", "2")
    assert made["role"] == "observer" and made["made_by"] == "tester" and made["state"] == "open"
    assert "(default: 72)" in cli("invite", "--help").output and DEFAULT_LIFETIME_S == 72 * 3600
    assert cli.events() == before + 2  # the muster's command and its unit; a link is no event

    opened = bootstrap(cli.db, actor="server")
    try:
        client = TestClient(create_app(opened, hasher=FAST_HASHER), follow_redirects=False)
        page = client.get("/join/" + link.rsplit("/", 1)[1])
        # made from the command line by the OS user "tester", no game master of the campaign: the page says the
        # game master invites, not an account name nobody knows
        assert page.status_code == 200 and "The game master invites you to <b>Kessel</b>" in page.text
        assert "tester" not in page.text
        pre = page.cookies.get("campaign_pre") or client.cookies.get("campaign_pre")
        sent = client.post(
            "/signup", data={"name": "pat", "password": PASSWORD, "pre": pre, "invite": link.rsplit("/", 1)[1]}
        )
        assert sent.status_code == 303 and sent.headers["location"].startswith("/c/")
    finally:
        opened.close()
    assert "pat joins as player for Robots" in cli("log").output

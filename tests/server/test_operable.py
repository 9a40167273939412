"""Operating the server: password hashing bounded (never more at once than its slots, a bounded wait then 503),
``/healthz``, one JSON log line per request, and refusals in the API's words for a database gone away and a lost
race (naming the campaign by name)."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from structlog.testing import capture_logs
from structlog.typing import EventDict

from campaign.bootstrap import bootstrap
from campaign.logging import configure_logging
from campaign.server.app import create_app
from campaign.server.guard import Settings
from events.errors import ConcurrencyError
from tests.server.conftest import FAST_HASHER, PASSWORD, World


class SlowHasher(PasswordHasher):
    """Counts the hashes running at once (each takes ``seconds``)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.seconds = seconds
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            time.sleep(self.seconds)
            return super().verify(hash, password)
        finally:
            with self.lock:
                self.running -= 1


@pytest.fixture
def database(tmp_path: Path, migrated: Path) -> Iterator[Any]:
    shutil.copy(migrated, tmp_path / "server.db")
    opened = bootstrap(str(tmp_path / "server.db"), actor="test")
    yield opened
    opened.close()


def sign_ins_at_once(app: Any, count: int) -> list[Any]:
    """``count`` sign-ins sent at the same moment, each to its own account."""
    with TestClient(app) as client:
        for i in range(count):
            made = client.post("/api/accounts", json={"name": f"member{i}", "password": PASSWORD})
            assert made.status_code == 201, made.text
        answers: list[Any] = [None] * count

        def one(i: int) -> None:
            answers[i] = client.post("/api/session", json={"name": f"member{i}", "password": PASSWORD})

        threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return answers


def test_passwords_are_hashed_one_at_a_time_whatever_the_number_of_sign_ins(database: Any) -> None:
    hasher = SlowHasher(0.05)
    answers = sign_ins_at_once(create_app(database, hasher=hasher), 6)
    assert [a.status_code for a in answers] == [200] * 6, [a.text for a in answers]
    assert hasher.most == 1


def test_a_sign_in_waits_a_bounded_time_for_hashing_then_is_refused_in_words(database: Any) -> None:
    hasher = SlowHasher(1.0)
    started = time.monotonic()
    answers = sign_ins_at_once(create_app(database, hasher=hasher, settings=Settings(hash_wait_s=0.3)), 3)
    assert time.monotonic() - started < 10  # bounded: one hash answered, the others refused after 0.3 s
    codes = sorted(a.status_code for a in answers)
    assert codes[0] == 200 and codes[-1] == 503
    busy = next(a for a in answers if a.status_code == 503)
    assert busy.headers["retry-after"] == "2"
    assert busy.json() == {
        "detail": "the server is busy checking other passwords: nothing was done; try again in a few seconds"
    }


def test_healthz_says_the_database_answers_at_the_current_schema(world: World) -> None:
    from campaign.bootstrap import SCHEMA_HEAD

    answer = TestClient(world.app).get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "database": "answers", "schema_revision": SCHEMA_HEAD}
    with world.opened.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    behind = TestClient(world.app).get("/healthz")
    assert behind.status_code == 503 and "schema is at 0001" in behind.json()["detail"]


def test_healthz_says_when_the_database_does_not_answer(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    import campaign.server.health as health

    def gone(engine: Any) -> str:
        raise OperationalError("SELECT version_num FROM alembic_version", None, Exception("connection refused"))

    monkeypatch.setattr(health, "current_revision", gone)
    answer = TestClient(world.app).get("/healthz")
    assert answer.status_code == 503 and answer.json()["detail"].startswith("the database does not answer")


def test_a_lost_connection_is_not_read_as_a_schema_never_made() -> None:
    """PostgreSQL's operational error on the schema's read is a connection lost: /healthz said "the schema is at
    no revision … run `campaign serve`" to an operator whose database had stopped; it now says it does not
    answer. SQLite's "no such table" is still a new database."""
    from campaign.bootstrap import current_revision

    class Connection:
        def __init__(self, why: str) -> None:
            self.why = why

        def __enter__(self) -> Connection:
            return self

        def __exit__(self, *_: object) -> None:
            return None

        def execute(self, *_: object) -> Any:
            raise OperationalError("SELECT version_num FROM alembic_version", None, Exception(self.why))

    class Engine:
        def __init__(self, why: str) -> None:
            self.why = why

        def connect(self) -> Connection:
            return Connection(self.why)

    with pytest.raises(OperationalError):
        current_revision(Engine("server closed the connection unexpectedly"))  # type: ignore[arg-type]
    assert current_revision(Engine("no such table: alembic_version")) is None  # type: ignore[arg-type]


@pytest.fixture
def logged() -> Iterator[list[EventDict]]:
    configure_logging(1)
    with capture_logs() as lines:
        yield lines
    configure_logging(0)


def test_one_log_line_per_request_with_route_status_account_campaign_and_time(
    world: World, logged: list[dict[str, Any]]
) -> None:
    olive = world.client("olive")
    olive.get(f"/api/campaigns/{world.campaign_id}/log")
    TestClient(world.app).post("/api/session", json={"name": "gina", "password": "not the password at all"})
    olive.get("/api/campaigns/no-such-campaign")
    requests = [line for line in logged if line["event"] == "request"]
    assert len(requests) == 3
    read, failed, missing = requests
    assert read["route"] == "/api/campaigns/{campaign_id}/log" and read["status"] == 200
    assert read["account"] == "olive" and read["campaign"] == "Kessel" and read["campaign_id"] == world.campaign_id
    assert isinstance(read["ms"], float) and read["method"] == "GET" and read["log_level"] == "info"
    assert failed["route"] == "/api/session" and failed["status"] == 400
    assert failed["signin"] == "wrong password" and failed["tried"] == "gina" and "account" not in failed
    assert missing["status"] == 404 and missing["account"] == "olive"


def test_the_server_s_log_lines_are_json(capsys: pytest.CaptureFixture[str]) -> None:
    import orjson

    from campaign.logging import get_logger

    configure_logging(1, json_lines=True)
    try:
        get_logger("campaign.server").info("request", route="/healthz", status=200)
    finally:
        configure_logging(0)
    line = orjson.loads(capsys.readouterr().err.strip().splitlines()[-1])
    assert line["event"] == "request" and line["route"] == "/healthz" and line["status"] == 200


def cut(*_: Any, **__: Any) -> Any:
    """What a pooled connection does when PostgreSQL restarted under it."""
    raise OperationalError(
        "SELECT …", None, Exception("terminating connection due to administrator command"), connection_invalidated=True
    )


def test_a_database_gone_away_is_a_503_in_words_and_the_next_request_is_served(
    world: World, monkeypatch: pytest.MonkeyPatch, logged: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    olive = world.client("olive")
    directory = world.opened.ledger.directory
    monkeypatch.setattr(directory, "get", cut)
    monkeypatch.setattr(directory, "entry", cut)  # the one-statement access read builds its campaign here
    answer = olive.get(f"/api/campaigns/{world.campaign_id}/log")
    assert answer.status_code == 503 and answer.headers["retry-after"] == "2"
    assert answer.json() == {
        "detail": "the database is not answering (it may be restarting): nothing was appended; try again in a moment"
    }
    page = olive.get(f"/c/{world.campaign_id}")
    assert page.status_code == 503 and page.headers["content-type"] == "application/json"
    monkeypatch.undo()
    assert olive.get(f"/api/campaigns/{world.campaign_id}/log").status_code == 200
    assert [line["status"] for line in logged if line["event"] == "request"] == [503, 503, 200]
    assert "Traceback" not in capsys.readouterr().err


def test_a_database_gone_away_while_a_middleware_reads_it_is_a_503_too(
    world: World, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The page's language is read from the account before any route runs: with PostgreSQL stopped, the campaign
    page was a defect's 500 (an operator found it); it is the same 503 in words as a route's."""
    olive = world.client("olive")
    accounts = world.app.state.server.accounts

    def refused(*_: Any) -> Any:
        raise OperationalError("SELECT …", None, Exception("connection refused"))

    monkeypatch.setattr(accounts, "language_of_session", refused)
    page = olive.get(f"/c/{world.campaign_id}")
    assert page.status_code == 503, page.text
    assert "the database is not answering" in page.text and page.headers["retry-after"] == "2"
    monkeypatch.undo()
    assert olive.get(f"/c/{world.campaign_id}").status_code == 200
    assert "Traceback" not in capsys.readouterr().err


def test_a_defect_is_a_500_in_words_with_its_traceback_in_the_log_line_only(
    world: World, monkeypatch: pytest.MonkeyPatch, logged: list[dict[str, Any]]
) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("a defect")

    monkeypatch.setattr(world.opened.ledger.directory, "get", broken)
    monkeypatch.setattr(world.opened.ledger.directory, "entry", broken)
    answer = TestClient(world.app, raise_server_exceptions=False, headers=dict(world.client("olive").headers))
    answer.cookies = world.client("olive").cookies
    got = answer.get(f"/api/campaigns/{world.campaign_id}/log")
    assert got.status_code == 500, got.text
    assert got.json()["detail"].startswith("the server failed on this request")
    (line,) = [x for x in logged if x["event"] == "request"]
    assert line["status"] == 500 and line["log_level"] == "error" and isinstance(line["exc_info"], RuntimeError)


def test_a_lost_race_is_a_409_naming_the_campaign_by_its_name(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = world.opened.ledger

    def lose(*_: Any, **__: Any) -> Any:
        exc = ConcurrencyError(f"campaign {world.campaign_id} changed while appending: re-read and retry")
        exc.campaign_id = world.campaign_id
        raise exc

    monkeypatch.setattr(type(ledger), "execute", lose)
    gina = world.client("gina")
    answer = gina.post(f"/api/campaigns/{world.campaign_id}/commands", json={"command": "gf.round", "args": {}})
    assert answer.status_code == 409
    detail = answer.json()["detail"]
    assert "'Kessel'" in detail and world.campaign_id not in detail and "nothing was recorded" in detail


def test_the_app_made_with_the_test_hasher_still_signs_in(database: Any) -> None:
    with TestClient(create_app(database, hasher=FAST_HASHER)) as client:
        assert client.post("/api/accounts", json={"name": "gina", "password": PASSWORD}).status_code == 201
        assert client.post("/api/session", json={"name": "gina", "password": PASSWORD}).status_code == 200


def test_a_lost_race_on_the_page_names_the_campaign_by_its_name(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    def lose(*_: Any, **__: Any) -> Any:
        exc = ConcurrencyError(f"campaign {world.campaign_id} changed while appending: re-read and retry")
        exc.campaign_id = world.campaign_id
        raise exc

    monkeypatch.setattr(type(world.opened.ledger), "execute", lose)
    answer = world.client("gina").post(f"/c/{world.campaign_id}/command", data={"_command": "gf.round"})
    assert answer.status_code == 409 and "campaign &#39;Kessel&#39; was changed" in answer.text
    said = answer.text.split('class="command-result"', 1)[1].split("</div>", 1)[0]  # the answer, not the form
    assert "Kessel" in said and world.campaign_id not in said

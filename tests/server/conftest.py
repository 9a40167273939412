"""A server over a fresh database, and signed-in clients for each role of one campaign (and a stranger).

The campaign: a Grimdark one, GM ``gina``; ``pat`` plays Robots; ``olive`` observes; ``sam`` is the
GM of another campaign only. Each client holds its own session cookie and sends its CSRF token.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient

from campaign.bootstrap import App, bootstrap
from campaign.server.app import create_app

PASSWORD = "correct horse battery"
SQUAD = {"models": 10, "quality": 4, "points": 150, "tough": 1}
"""A Grimdark unit of ten models, Quality 4+ (RULES.md §4)."""


@dataclass
class World:
    app: FastAPI
    opened: App
    campaign_id: str
    other_campaign_id: str
    clients: dict[str, TestClient]

    def client(self, who: str) -> TestClient:
        return self.clients[who]


def sign_in(app: FastAPI, name: str, *, sign_up: bool = True) -> TestClient:
    client = TestClient(app)
    if sign_up:
        assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    answer = client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return client


def post(client: TestClient, url: str, body: Any = None, code: int = 200) -> Any:
    answer = client.post(url, json=body)
    assert answer.status_code == code, answer.text
    return answer.json()


FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""argon2id at a cost tests can pay hundreds of times (the server's default costs are the library's)."""


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty database at the newest schema, copied for each test (migrating costs a second)."""
    path = tmp_path_factory.mktemp("template") / "server.db"
    bootstrap(str(path), actor="test").close()
    return path


@pytest.fixture
def world(tmp_path: Path, migrated: Path) -> Iterator[World]:
    shutil.copy(migrated, tmp_path / "server.db")
    opened = bootstrap(str(tmp_path / "server.db"), actor="test")
    app = create_app(opened, hasher=FAST_HASHER)
    with TestClient(app):  # runs the lifespan (live updates)
        clients = {name: sign_in(app, name) for name in ("gina", "pat", "olive", "sam")}
        gina = clients["gina"]
        cid = post(gina, "/api/campaigns", {"name": "Kessel", "ruleset": "grimdark"}, 201)["campaign_id"]
        other = post(clients["sam"], "/api/campaigns", {"name": "Elsewhere", "ruleset": "disorder"}, 201)["campaign_id"]
        post(gina, f"/api/campaigns/{cid}/members", {"account": "pat", "role": "player", "sides": ["Robots"]})
        post(gina, f"/api/campaigns/{cid}/members", {"account": "olive", "role": "observer"})
        yield World(app, opened, cid, other, clients)
    opened.close()

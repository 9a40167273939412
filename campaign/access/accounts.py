"""Accounts with argon2id password hashes, cookie sessions (with a CSRF token each) and bearer tokens.

A session or token is a random secret handed to the client once; the database keeps only its SHA-256, so a
stolen copy of the database opens nothing. Signing in always starts a new session (no session fixation: a
session id known before sign-in is never promoted).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from campaign.access.tables import account_sessions, accounts
from events.errors import InvalidInputError

ACCOUNT_NAME = re.compile(r"^[a-z0-9][a-z0-9_.\-]{1,39}$")
MIN_PASSWORD = 10
ARGON2 = PasswordHasher()
"""argon2id with the library's recommended costs (RFC 9106's second recommendation)."""


class SignInError(InvalidInputError):
    """A wrong account name or password (which of the two is not said)."""


@dataclass(frozen=True, slots=True)
class Session:
    account: str
    csrf: str
    kind: str
    """'session' (a browser's cookie) or 'token' (a script's bearer token)."""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Accounts:
    def __init__(self, engine: Engine, clock: Callable[[], str], hasher: PasswordHasher = ARGON2) -> None:
        self.engine = engine
        self._clock = clock
        self._hasher = hasher
        self._dummy = hasher.hash("not a password anyone has")

    def add(self, name: str, password: str) -> None:
        name = name.strip().lower()
        if not ACCOUNT_NAME.match(name):
            raise InvalidInputError(
                f"account name {name!r} is not usable: 2–40 lower-case letters, digits, dots, dashes or underscores"
            )
        if len(password) < MIN_PASSWORD:
            raise InvalidInputError(f"a password needs at least {MIN_PASSWORD} characters")
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(accounts).values(
                        name=name, password_hash=self._hasher.hash(password), created_at=self._clock()
                    )
                )
        except IntegrityError:
            raise InvalidInputError(f"the account name {name!r} is taken") from None

    def exists(self, name: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(accounts.c.name).where(accounts.c.name == name)).first() is not None

    def check_password(self, name: str, password: str) -> str:
        """The account's name if the password is its own; otherwise :class:`SignInError`."""
        name = name.strip().lower()
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts.c.password_hash).where(accounts.c.name == name)).first()
        stored = row[0] if row is not None else self._dummy  # as slow for an unknown name as for a wrong password
        try:
            self._hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise SignInError("wrong account name or password") from None
        if row is None:
            raise SignInError("wrong account name or password")
        if self._hasher.check_needs_rehash(stored):
            with self.engine.begin() as conn:
                conn.execute(
                    update(accounts).where(accounts.c.name == name).values(password_hash=self._hasher.hash(password))
                )
        return name

    def open_session(self, account: str, kind: str = "session", label: str = "") -> tuple[str, Session]:
        """A new secret for ``account`` (returned once) and the session it opens."""
        secret = secrets.token_urlsafe(32)
        session = Session(account, secrets.token_urlsafe(24), kind)
        with self.engine.begin() as conn:
            conn.execute(
                insert(account_sessions).values(
                    token_hash=digest(secret),
                    account=account,
                    csrf=session.csrf,
                    kind=kind,
                    created_at=self._clock(),
                    label=label,
                )
            )
        return secret, session

    def session(self, secret: str | None, kind: str = "session") -> Session | None:
        if not secret:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(account_sessions.c.account, account_sessions.c.csrf, account_sessions.c.kind).where(
                    account_sessions.c.token_hash == digest(secret), account_sessions.c.kind == kind
                )
            ).first()
        return None if row is None else Session(row[0], row[1], row[2])

    def close_session(self, secret: str) -> None:
        """Sign out: the secret opens nothing any more (a session row is not part of any log)."""
        with self.engine.begin() as conn:
            conn.execute(delete(account_sessions).where(account_sessions.c.token_hash == digest(secret)))

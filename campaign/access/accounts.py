"""Accounts with argon2id password hashes, cookie sessions (with a CSRF token each) and bearer tokens.

A session or token is a random secret handed to the client once; the database keeps only its SHA-256, so a
stolen copy of the database opens nothing. Signing in always starts a new session (no session fixation: a
session id known before sign-in is never promoted). Both expire: a session after :attr:`Lifetimes.session_s`
unused (each use slides its end forward), a token :attr:`Lifetimes.token_s` after it was made. Signing out
ends the session and the tokens made in it; a password change ends every other session and token.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NamedTuple

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Engine, bindparam, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from campaign.access.tables import account_sessions, accounts
from campaign.i18n import N_
from events.confusables import confusable_with
from events.errors import InvalidInputError, Words

ACCOUNT_NAME = re.compile(r"^[a-z0-9][a-z0-9_.\-]{1,39}$")
MIN_PASSWORD = 10
ARGON2 = PasswordHasher()
"""argon2id with the library's recommended costs (RFC 9106's second recommendation)."""
STRONG_ENOUGH = 3
"""zxcvbn's score a new password needs (0–4; 3: "safely unguessable" to an online guesser and a slow hash)."""
ZXCVBN_CHARS = 72
"""zxcvbn judges at most this many characters (its own limit; a longer password is long enough)."""
SLIDE_EVERY_S = 300
"""A session's expiry (and a token's last use) is written at most this often: not a write per request."""


@dataclass(frozen=True, slots=True)
class Lifetimes:
    """How long a sign-in lasts (seconds): ``campaign serve --session-hours`` and ``--token-days``."""

    session_s: int = 14 * 24 * 3600
    """A browser's session, from its last use (sliding)."""
    session_max_s: int = 30 * 24 * 3600
    """A browser's session, from signing in, however it is used (absolute: ``--session-max-days``)."""
    token_s: int = 90 * 24 * 3600
    """A script's bearer token, from when it was made (fixed)."""


class SignInError(InvalidInputError):
    """A wrong account name or password (which of the two is not said)."""


class SessionRow(NamedTuple):
    """A session's row as :meth:`Accounts.judged` reads it (:data:`SESSION_COLUMNS`, in this order)."""

    account: str
    csrf: str
    kind: str
    public_id: str
    expires_at: int
    last_used_at: int
    created_at: str


SESSION_COLUMNS = SessionRow._fields
_SESSION_BY_HASH = select(*(account_sessions.c[name] for name in SESSION_COLUMNS)).where(
    account_sessions.c.token_hash == bindparam("token_hash"), account_sessions.c.kind == bindparam("kind")
)
"""Built once, its values bound (as :mod:`campaign.access.memberships` reads a member)."""


@dataclass(frozen=True, slots=True)
class Session:
    account: str
    csrf: str
    kind: str
    """'session' (a browser's cookie) or 'token' (a script's bearer token)."""
    public_id: str = ""
    """What names it in the account's list of sessions (never the secret, nor its hash)."""
    expires_at: int = 0
    """Unix seconds."""


def weakness(password: str, name: str = "") -> Words | None:
    """Why ``password`` is too easy to guess (a common password, a word and a year, a keyboard row), or None."""
    from zxcvbn import zxcvbn  # loads its frequency lists (a twentieth of a second): only when an account is made

    judged = zxcvbn(password[:ZXCVBN_CHARS], user_inputs=[name] if name else [])
    if judged["score"] >= STRONG_ENOUGH:
        return None
    feedback = judged["feedback"]
    warning = str(feedback.get("warning") or "").rstrip(".")
    why = _zxcvbn_said(warning) if warning else Words("it is easy to guess")
    hint: str | Words = Words("Add another word or two.")
    for i, suggestion in enumerate(feedback.get("suggestions") or ()):
        said = _zxcvbn_said(str(suggestion))
        hint = said if i == 0 else Words("{some} {more}", some=hint, more=said)
    return Words("this password is too easy to guess ({why}): {hint}", why=why, hint=hint)


_ZXCVBN = frozenset(
    (
        N_("Straight rows of keys are easy to guess"),
        N_("Short keyboard patterns are easy to guess"),
        N_('Repeats like "aaa" are easy to guess'),
        N_('Repeats like "abcabcabc" are only slightly harder to guess than "abc"'),
        N_('Sequences like "abc" or "6543" are easy to guess'),
        N_("Recent years are easy to guess"),
        N_("Dates are often easy to guess"),
        N_("This is a top-10 common password"),
        N_("This is a top-100 common password"),
        N_("This is a very common password"),
        N_("This is similar to a commonly used password"),
        N_("A word by itself is easy to guess"),
        N_("Names and surnames by themselves are easy to guess"),
        N_("Common names and surnames are easy to guess"),
        N_("Use a few words, avoid common phrases."),
        N_("No need for symbols, digits, or uppercase letters."),
        N_("Add another word or two. Uncommon words are better."),
        N_("Use a longer keyboard pattern with more turns."),
        N_("Avoid repeated words and characters."),
        N_("Avoid sequences."),
        N_("Avoid recent years."),
        N_("Avoid years that are associated with you."),
        N_("Avoid dates and years that are associated with you."),
        N_("Capitalization doesn't help very much."),
        N_("All-uppercase is almost as easy to guess as all-lowercase."),
        N_("Reversed words aren't much harder to guess."),
        N_("Predictable substitutions like '@' instead of 'a' don't help very much."),
    )
)
"""What zxcvbn (4.5) says of a weak password, its warnings without their full stop: in the catalogs, so that a
refusal says them in the reader's language; a sentence a later zxcvbn adds is shown as it says it."""


def _zxcvbn_said(text: str) -> str | Words:
    return Words(text) if text in _ZXCVBN else text


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Accounts:
    def __init__(
        self,
        engine: Engine,
        clock: Callable[[], str],
        hasher: PasswordHasher = ARGON2,
        *,
        lifetimes: Lifetimes = Lifetimes(),
        now: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self._clock = clock
        self._hasher = hasher
        self._dummy = hasher.hash("not a password anyone has")
        self.lifetimes = lifetimes
        self.now = now

    @staticmethod
    def check_new_password(password: str, name: str = "") -> None:
        if len(password) < MIN_PASSWORD:
            raise InvalidInputError.saying("a password needs at least {least} characters", least=MIN_PASSWORD)
        weak = weakness(password, name)
        if weak is not None:
            refused = InvalidInputError(str(weak))
            refused.words = weak  # the sentence itself, said in the reader's language where it is shown
            raise refused

    def add(self, name: str, password: str) -> None:
        name = name.strip().lower()
        if not ACCOUNT_NAME.match(name):
            raise InvalidInputError.saying(
                "account name {name!r} is not usable: 2–40 lower-case letters, digits, dots, dashes or underscores",
                name=name,
            )
        self.check_new_password(password, name)
        with self.engine.connect() as conn:
            # every name, for a group's few hundred accounts: a skeleton column would serve a league of thousands
            like = confusable_with(name, conn.execute(select(accounts.c.name)).scalars())
        if like is not None:
            raise InvalidInputError.saying(
                "the account name {name!r} reads like {like!r}, an account already there (0 and o, 1 and l, rn and "
                "m look alike): choose one that reads differently",
                name=name,
                like=like,
            )
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(accounts).values(
                        name=name, password_hash=self._hasher.hash(password), created_at=self._clock()
                    )
                )
        except IntegrityError:
            raise InvalidInputError.saying("the account name {name!r} is taken", name=name) from None

    def exists(self, name: str) -> bool:
        if not ACCOUNT_NAME.match(name):
            return False
        with self.engine.connect() as conn:
            return conn.execute(select(accounts.c.name).where(accounts.c.name == name)).first() is not None

    def check_password(self, name: str, password: str) -> str:
        """The account's name if the password is its own; otherwise :class:`SignInError`."""
        name = name.strip().lower()
        row = None
        if ACCOUNT_NAME.match(name):  # no account has another name: nor is one looked up (PostgreSQL refuses NUL)
            with self.engine.connect() as conn:
                row = conn.execute(select(accounts.c.password_hash).where(accounts.c.name == name)).first()
        stored = row[0] if row is not None else self._dummy  # as slow for an unknown name as for a wrong password
        try:
            self._hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            raise SignInError.saying("wrong account name or password") from None
        if row is None:
            raise SignInError.saying("wrong account name or password")
        if self._hasher.check_needs_rehash(stored):
            with self.engine.begin() as conn:
                conn.execute(
                    update(accounts).where(accounts.c.name == name).values(password_hash=self._hasher.hash(password))
                )
        return name

    def change_password(self, name: str, current: str, new: str, keep: Session | None) -> int:
        """Set a new password (the current one checked first); every session and token of the account but
        ``keep`` (the browser session asking) ends. The number ended. A token asking is not kept: a token ends
        when the password changes, whoever changed it (one who stole a token cannot keep it so)."""
        account = self.check_password(name, current)
        self.check_new_password(new, account)
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts).where(accounts.c.name == account).values(password_hash=self._hasher.hash(new))
            )
            others = account_sessions.c.account == account
            if keep is not None and keep.kind == "session":
                others &= account_sessions.c.public_id != keep.public_id
            return conn.execute(delete(account_sessions).where(others)).rowcount

    def open_session(
        self, account: str, kind: str = "session", label: str = "", parent: Session | None = None
    ) -> tuple[str, Session]:
        """A new secret for ``account`` (returned once) and the session it opens; a token made in ``parent``
        ends when it does. Expired sessions of the account are cleared away here."""
        secret = secrets.token_urlsafe(32)
        now = int(self.now())
        life = self.lifetimes.session_s if kind == "session" else self.lifetimes.token_s
        if kind == "session":
            life = min(life, self.lifetimes.session_max_s)
        session = Session(account, secrets.token_urlsafe(24), kind, secrets.token_hex(8), now + life)
        c = account_sessions.c
        with self.engine.begin() as conn:
            conn.execute(delete(account_sessions).where(c.account == account, c.expires_at <= now))
            conn.execute(
                insert(account_sessions).values(
                    token_hash=digest(secret),
                    account=account,
                    csrf=session.csrf,
                    kind=kind,
                    created_at=iso(now),  # on the sessions' own clock: a session's absolute end is read from it
                    label=label,
                    public_id=session.public_id,
                    parent=None if parent is None else self._hash_of(parent),
                    expires_at=session.expires_at,
                    last_used_at=now,
                )
            )
        return secret, session

    def _hash_of(self, session: Session) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(
                select(account_sessions.c.token_hash).where(account_sessions.c.public_id == session.public_id)
            ).scalar()

    def session(self, secret: str | None, kind: str = "session") -> Session | None:
        """The session ``secret`` opens, if it has not expired; a session's use slides its expiry forward."""
        if not secret:
            return None
        hashed = digest(secret)
        with self.engine.connect() as conn:
            row = conn.execute(_SESSION_BY_HASH, {"token_hash": hashed, "kind": kind}).first()
        return None if row is None else self.judged(hashed, SessionRow(*row))

    def judged(self, hashed: str, row: SessionRow) -> Session | None:
        """The session read as ``row`` (its secret's hash ``hashed``), if it has not expired: a browser's session
        neither unused for its sliding lifetime nor past its absolute one, a token not past its own lifetime. Its
        use slides a session's expiry forward (written at most every :data:`SLIDE_EVERY_S`)."""
        now = int(self.now())
        if row.expires_at <= now:
            return None
        expires = row.expires_at
        if row.kind == "session":
            ends = unix(row.created_at) + self.lifetimes.session_max_s
            if ends <= now:
                return None
        if now - row.last_used_at >= SLIDE_EVERY_S:
            if row.kind == "session":
                expires = min(now + self.lifetimes.session_s, ends)
            c = account_sessions.c
            with self.engine.begin() as conn:
                conn.execute(
                    update(account_sessions).where(c.token_hash == hashed).values(expires_at=expires, last_used_at=now)
                )
        return Session(row.account, row.csrf, row.kind, row.public_id, expires)

    def sessions_of(self, account: str) -> list[dict[str, object]]:
        """The account's sessions and tokens that have not expired, oldest first."""
        c = account_sessions.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(c.public_id, c.kind, c.label, c.created_at, c.last_used_at, c.expires_at)
                .where(c.account == account, c.expires_at > int(self.now()))
                .order_by(c.created_at, c.public_id)
            ).all()
        return [
            {
                "id": r.public_id,
                "kind": r.kind,
                "label": r.label,
                "created_at": r.created_at,
                "last_used_at": iso(r.last_used_at),
                "expires_at": iso(r.expires_at),
            }
            for r in rows
        ]

    def revoke(self, account: str, public_id: str) -> bool:
        """End one of ``account``'s sessions or tokens (and the tokens made in it); whether there was one."""
        c = account_sessions.c
        with self.engine.begin() as conn:
            hashed = conn.execute(select(c.token_hash).where(c.account == account, c.public_id == public_id)).scalar()
            if hashed is None:
                return False
            conn.execute(delete(account_sessions).where(or_(c.token_hash == hashed, c.parent == hashed)))
        return True

    def close_session(self, secret: str) -> None:
        """Sign out: the secret opens nothing any more, nor do the tokens made in its session (a session row is
        not part of any log)."""
        hashed = digest(secret)
        c = account_sessions.c
        with self.engine.begin() as conn:
            conn.execute(delete(account_sessions).where(or_(c.token_hash == hashed, c.parent == hashed)))

    def set_language(self, name: str, language: str | None) -> None:
        """The page's language ``name`` chose (None: the browser's again)."""
        with self.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.name == name).values(language=language))

    def language(self, name: str) -> str | None:
        """The page's language the account chose, if it chose one."""
        with self.engine.connect() as conn:
            found: str | None = conn.execute(select(accounts.c.language).where(accounts.c.name == name)).scalar()
        return found

    def language_of_session(self, secret: str | None) -> str | None:
        """The page's language chosen by the account a browser's session ``secret`` is signed in as, if the
        session is open and the account chose one. One read, and it slides no expiry: it runs before the page's
        own look at the session, which does."""
        if not secret:
            return None
        c = account_sessions.c
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts.c.language, c.expires_at, c.created_at)
                .join(accounts, accounts.c.name == c.account)
                .where(c.token_hash == digest(secret), c.kind == "session")
            ).first()
        now = int(self.now())
        if row is None or row.expires_at <= now or unix(row.created_at) + self.lifetimes.session_max_s <= now:
            return None
        found: str | None = row.language
        return found


def unix(stamp: str) -> int:
    """An ISO 8601 time (as :func:`iso` writes it, or with an offset) as Unix seconds; 0 for one unreadable."""
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return 0
    return int((when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp())


def iso(seconds: int) -> str:
    """Unix seconds as an ISO 8601 UTC time (what the API shows)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))

"""Failed sign-ins, counted per account and per client address in the database (so every server process on it
counts the same): past a few, each attempt waits twice as long as the last, and past many the account or the
address is locked for a while, the right password included.

An attempt is counted as a failure before its password is checked, by a compare-and-set on its row, and
forgiven if it succeeds: ten guesses sent at once cannot all pass a check that only one of them should pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from campaign.access.tables import sign_in_failures as failures_t
from events.sql_write import write_connection

RACES = 8
"""Compare-and-set attempts before an attempt racing others on one row is asked to wait."""


@dataclass(frozen=True, slots=True)
class Policy:
    """How failures on one key slow its next attempts (seconds)."""

    free: int
    """Failures allowed with no wait (a mistyped password or two)."""
    first_wait_s: float
    """The wait after the first failure past ``free``, doubling with each further one …"""
    max_wait_s: float
    """… up to this."""
    lock_after: int
    """Failures after which the key is locked …"""
    lock_s: float
    """… for this long."""
    forget_s: float
    """Failures with none newer for this long are forgotten."""

    def wait_after(self, failures: int) -> float:
        """Seconds before the next attempt, after ``failures`` failures in a row."""
        if failures >= self.lock_after:
            return self.lock_s
        if failures <= self.free:
            return 0.0
        return min(self.max_wait_s, self.first_wait_s * 2.0 ** (failures - self.free - 1))


ACCOUNT = Policy(free=3, first_wait_s=1, max_wait_s=60, lock_after=10, lock_s=900, forget_s=3600)
"""One account's: 1, 2, 4 … 32 s after its 4th … 9th failure, then locked for 15 minutes."""
ADDRESS = Policy(free=10, first_wait_s=1, max_wait_s=60, lock_after=50, lock_s=900, forget_s=3600)
"""One client address's (a household or a club behind one address shares it): more failures before waits."""
SIGN_UP = Policy(free=5, first_wait_s=5, max_wait_s=300, lock_after=30, lock_s=3600, forget_s=3600)
"""New accounts from one address (every sign-up counts): a few at once, then slower."""
LINK_GUESS = Policy(free=10, first_wait_s=1, max_wait_s=60, lock_after=50, lock_s=900, forget_s=3600)
"""Invitation links opened from one address that are no link of the server (a guess; a link used, revoked or
expired is a real one and does not count): a link's secret is 192 random bits, so this brakes a flood, not luck."""


@dataclass(frozen=True, slots=True)
class Refused:
    """An attempt refused before its password was checked."""

    key: str
    wait_s: float
    locked: bool


class Throttle:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def attempt(self, keys: list[tuple[str, Policy]], now_ms: int) -> Refused | None:
        """Count an attempt on each key as a failure, unless one of them must wait: then nothing is counted and
        the longest wait is returned."""
        waits = [w for w in (self._waiting(key, policy, now_ms) for key, policy in keys) if w is not None]
        if waits:  # looked at first, so that a refused attempt leaves no mark on the other keys
            return max(waits, key=lambda w: w.wait_s)
        counted: list[tuple[str, Policy]] = []
        for key, policy in keys:
            waited = self._count(key, policy, now_ms)
            if waited is not None:
                for done, done_policy in counted:
                    self._forgive(done, done_policy, now_ms)
                return waited
            counted.append((key, policy))
        return None

    def succeeded(self, keys: list[tuple[str, Policy]], forget: list[str], now_ms: int) -> None:
        """The attempt counted on ``keys`` succeeded: each is forgiven it, and those in ``forget`` (the account
        signed in to) are cleared."""
        for key, policy in keys:
            if key in forget:
                with self.engine.begin() as conn:
                    conn.execute(delete(failures_t).where(failures_t.c.key == key))
            else:  # no wait after a success (the wait its attempt set could only be reached by waiting it out)
                self._forgive(key, policy, now_ms, lift=True)

    def failures(self, key: str) -> int:
        with self.engine.connect() as conn:
            found = conn.execute(select(failures_t.c.failures).where(failures_t.c.key == key)).scalar()
        return int(found or 0)

    def _waiting(self, key: str, policy: Policy, now_ms: int) -> Refused | None:
        c = failures_t.c
        with self.engine.connect() as conn:
            row = conn.execute(select(c.failures, c.last_failure_ms, c.blocked_until_ms).where(c.key == key)).first()
        if row is None or now_ms - row.last_failure_ms > policy.forget_s * 1000 or row.blocked_until_ms <= now_ms:
            return None
        return Refused(key, (row.blocked_until_ms - now_ms) / 1000, row.failures >= policy.lock_after)

    def _count(self, key: str, policy: Policy, now_ms: int) -> Refused | None:
        c = failures_t.c
        for _ in range(RACES):
            try:  # SQLite: the write lock at BEGIN, not on the UPDATE after the read (else "database is locked")
                with write_connection(self.engine) as conn, conn.begin():
                    row = conn.execute(
                        select(c.failures, c.last_failure_ms, c.blocked_until_ms).where(c.key == key)
                    ).first()
                    if row is None:
                        conn.execute(
                            insert(failures_t).values(
                                key=key,
                                failures=1,
                                last_failure_ms=now_ms,
                                blocked_until_ms=_until(now_ms, policy.wait_after(1)),
                            )
                        )
                        return None
                    failures, last, blocked = row
                    if now_ms - last > policy.forget_s * 1000:
                        failures = 0
                    elif blocked > now_ms:
                        return Refused(key, (blocked - now_ms) / 1000, failures >= policy.lock_after)
                    counted = conn.execute(
                        update(failures_t)
                        .where(c.key == key, c.failures == row[0], c.last_failure_ms == last)
                        .values(
                            failures=failures + 1,
                            last_failure_ms=now_ms,
                            blocked_until_ms=_until(now_ms, policy.wait_after(failures + 1)),
                        )
                    )
                    if counted.rowcount == 1:
                        return None
            except IntegrityError:  # another attempt made the row first: read it again
                continue
        return Refused(key, policy.first_wait_s, False)

    def _forgive(self, key: str, policy: Policy, now_ms: int, *, lift: bool = False) -> None:
        """Take back one counted failure (the attempt succeeded, or was refused unchecked). The wait it set
        stands unless ``lift``: an attempt refused unchecked never shortens the wait for the next one."""
        c = failures_t.c
        values = {"failures": c.failures - 1, **({"blocked_until_ms": 0} if lift else {})}
        with self.engine.begin() as conn:
            conn.execute(update(failures_t).where(c.key == key, c.failures > 0).values(values))


def _until(now_ms: int, wait_s: float) -> int:
    """When the wait ends; 0 for no wait (not ``now``: an attempt that read the clock a moment earlier, racing
    this one, must not see a wait that is not there)."""
    return now_ms + int(wait_s * 1000) if wait_s > 0 else 0

"""Sign-in that resists guessing, and password hashing that cannot starve the members.

Each attempt (sign-in, password change, sign-up) is first counted by :class:`~campaign.access.throttle.Throttle`
on its account and its client address (refused with 429 and ``Retry-After`` while either must wait or is
locked), and only then is its password hashed. argon2id costs 64 MiB and tens of milliseconds by design, so the
hashing runs in its own few threads (:attr:`Settings.hash_slots`), not the request threads the members' reads
use, and an attempt waits at most :attr:`Settings.hash_wait_s` for one of them (then 503): a flood of guesses
queues behind itself, holds no request thread while it waits, and cannot take more memory than the slots.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import anyio
import anyio.to_thread
from fastapi import HTTPException, Request

from campaign.access.accounts import ACCOUNT_NAME, Accounts, Lifetimes, Session, SignInError
from campaign.access.invitations import DEFAULT_LIFETIME_S, NOT_OURS, Invitation, Invitations
from campaign.access.throttle import ACCOUNT, ADDRESS, LINK_GUESS, SIGN_UP, Policy, Refused, Throttle
from campaign.server.request_log import note
from events.errors import InvalidInputError, Words
from events.pg_engine import give_back_scope_connection

T = TypeVar("T")


@dataclass(frozen=True)
class Settings:
    """The server's limits on signing in (``campaign serve``'s options set the lifetimes)."""

    lifetimes: Lifetimes = field(default_factory=Lifetimes)
    account: Policy = ACCOUNT
    address: Policy = ADDRESS
    sign_up: Policy = SIGN_UP
    link_guess: Policy = LINK_GUESS
    invite_s: int = DEFAULT_LIFETIME_S
    """An invitation link's life, from when it is made (``campaign serve --invite-hours``)."""
    hash_slots: int = 1
    """Passwords hashed at once: one hash already keeps argon2's four lanes busy on as many cores (64 MiB)."""
    hash_wait_s: float = 5.0
    """The longest an attempt waits for a slot before it is refused as busy (503)."""


class HashingBusyError(Exception):
    """No hashing slot came free in time."""


class Guard:
    def __init__(self, accounts: Accounts, throttle: Throttle, settings: Settings) -> None:
        self.accounts = accounts
        self.throttle = throttle
        self.settings = settings
        self._slots: anyio.CapacityLimiter | None = None
        self._threads: anyio.CapacityLimiter | None = None

    def _now_ms(self) -> int:
        return int(self.accounts.now() * 1000)

    async def hashing(self, work: Callable[[], T]) -> T:
        """``work`` (which hashes a password) in one of the hashing threads, once a slot is free."""
        if self._slots is None or self._threads is None:  # made in the event loop, on first use
            self._slots = anyio.CapacityLimiter(self.settings.hash_slots)
            self._threads = anyio.CapacityLimiter(self.settings.hash_slots)
        # Waiting for a slot and hashing take long: the request's connection goes back to the pool meanwhile, so
        # guessers queued here hold none a member's read needs.
        give_back_scope_connection()
        acquired = False
        with anyio.move_on_after(self.settings.hash_wait_s):
            await self._slots.acquire()
            acquired = True
        if not acquired:
            raise HashingBusyError
        try:
            return await anyio.to_thread.run_sync(work, limiter=self._threads)
        finally:
            self._slots.release()

    def _keys(self, request: Request, name: str) -> list[tuple[str, Policy]]:
        keys = [(f"address:{client_address(request)}", self.settings.address)]
        if ACCOUNT_NAME.match(name):  # a name no account can have counts on its address alone
            keys.append((f"account:{name}", self.settings.account))
        return keys

    async def _counted(self, request: Request, name: str, keys: list[tuple[str, Policy]]) -> None:
        refused = await anyio.to_thread.run_sync(self.throttle.attempt, keys, self._now_ms())
        if refused is not None:
            note(request, signin="throttled", tried=name[:40])
            raise HTTPException(429, throttled_words(refused, name), {"Retry-After": str(wait_s(refused))})

    async def _checked(self, request: Request, keys: list[tuple[str, Policy]], work: Callable[[], T]) -> T:
        try:
            return await self.hashing(work)
        except HashingBusyError:  # still counted: a flood must not clear its own waits by overloading the server
            note(request, signin="busy")
            raise HTTPException(
                503,
                Words("the server is busy checking other passwords: nothing was done; try again in a few seconds"),
                {"Retry-After": "2"},
            ) from None

    def _forgive(self, keys: list[tuple[str, Policy]]) -> None:
        self.throttle.succeeded(keys, [], self._now_ms())

    async def sign_in(self, request: Request, name: str, password: str) -> str:
        """The account ``name`` and ``password`` open, or a refusal: 400 wrong, 429 wait, 503 busy."""
        name = name.strip().lower()
        keys = self._keys(request, name)
        await self._counted(request, name, keys)
        try:
            account = await self._checked(request, keys, lambda: self.accounts.check_password(name, password))
        except SignInError:
            note(request, signin="wrong password", tried=name[:40])
            raise
        await anyio.to_thread.run_sync(self.throttle.succeeded, keys, [f"account:{account}"], self._now_ms())
        note(request, signin="ok", account=account)
        return account

    async def change_password(self, request: Request, name: str, current: str, new: str, keep: Session | None) -> int:
        """A new password for ``name`` (its current one checked, throttled as a sign-in): the sessions ended."""
        keys = self._keys(request, name)
        await self._counted(request, name, keys)
        try:
            ended = await self._checked(request, keys, lambda: self.accounts.change_password(name, current, new, keep))
        except SignInError:
            note(request, signin="wrong password", tried=name[:40])
            raise
        except InvalidInputError:
            # the new password refused (too weak, too short) after the current one was found right: no guess
            # failed, so the attempt counts as a sign-in that succeeded (a user trying passwords the rules refuse
            # was locked out of its own account by the tenth)
            await anyio.to_thread.run_sync(self.throttle.succeeded, keys, [f"account:{name}"], self._now_ms())
            raise
        await anyio.to_thread.run_sync(self.throttle.succeeded, keys, [f"account:{name}"], self._now_ms())
        return ended

    async def sign_up(self, request: Request, name: str, password: str) -> str:
        """A new account (every attempt counts on the client's address: accounts are not made by the thousand)."""
        keys = [(f"sign-up:{client_address(request)}", self.settings.sign_up)]
        await self._counted(request, name, keys)
        try:
            await self._checked(request, keys, lambda: self.accounts.add(name, password))
        except InvalidInputError:  # refused before any hashing (a name taken, a weak password): not counted
            await anyio.to_thread.run_sync(self._forgive, keys)
            raise
        return name.strip().lower()

    async def link_opened(self, request: Request, invitations: Invitations, secret: str) -> Invitation:
        """The invitation the link ``secret`` opens, or a refusal in words: 404 no link of this server's (counted
        on the client's address as a guess: many, and the address waits, 429), 410 used, revoked or expired."""
        keys = [(f"link:{client_address(request)}", self.settings.link_guess)]
        refused = await anyio.to_thread.run_sync(self.throttle.attempt, keys, self._now_ms())
        if refused is not None:
            note(request, invitation="throttled")
            raise HTTPException(
                429,
                Words("too many invitation links tried from your address: wait {seconds} s", seconds=wait_s(refused)),
                {"Retry-After": str(wait_s(refused))},
            )
        found = await anyio.to_thread.run_sync(invitations.find, secret)
        if found is None:
            note(request, invitation="unknown")
            raise HTTPException(404, Words(NOT_OURS))
        await anyio.to_thread.run_sync(self._forgive, keys)  # a real link, in whatever state: not a guess
        return found


def client_address(request: Request) -> str:
    """The client's address (behind a trusted reverse proxy, the one it forwarded: ``--forwarded-allow-ips``)."""
    return request.client.host if request.client is not None else "unknown"


def wait_s(refused: Refused) -> int:
    return math.ceil(refused.wait_s)


def throttled_words(refused: Refused, name: str) -> Words:
    """A throttled attempt in words (said in the reader's language on the page), one whole sentence for each of
    who waits and how: the account's name, or the address."""
    if refused.key.startswith("sign-up:"):
        return Words(
            "too many new accounts from your address: wait {seconds} s before making another", seconds=wait_s(refused)
        )
    on_account = refused.key.startswith("account:")
    if refused.locked:
        minutes = math.ceil(refused.wait_s / 60)
        if on_account:
            return Words.counted(
                "too many failed sign-ins for account {name}: it is locked for {n} more minute, the right password "
                "too; nothing was checked",
                "too many failed sign-ins for account {name}: it is locked for {n} more minutes, the right password "
                "too; nothing was checked",
                n=minutes,
                name=name,
            )
        return Words.counted(
            "too many failed sign-ins for your address: it is locked for {n} more minute, the right password too; "
            "nothing was checked",
            "too many failed sign-ins for your address: it is locked for {n} more minutes, the right password too; "
            "nothing was checked",
            n=minutes,
        )
    if on_account:
        return Words(
            "too many failed sign-ins for account {name}: wait {seconds} s before trying again",
            name=name,
            seconds=wait_s(refused),
        )
    return Words(
        "too many failed sign-ins for your address: wait {seconds} s before trying again", seconds=wait_s(refused)
    )


def guard(request: Request) -> Guard:
    found: Guard = request.app.state.guard
    return found

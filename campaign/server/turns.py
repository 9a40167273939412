"""Commands of one campaign take turns in a server process; a lost race is run again on the fresh state.

Two commands of one campaign cannot both be appended at its head: the second would be refused as stale and run
again, its work done twice (on the group server, 1.25–2.3 lost races per command). So in one process they take
turns, in the order they came, waiting in the event loop (no thread, no database connection held while they
wait); commands of other campaigns do not wait for them. A command that another process's append beat to the
head is run again on the new head, as the CLI does, and refused in words after :data:`ATTEMPTS`.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TypeVar

from events.errors import ConcurrencyError
from projections.state.campaigns import CampaignInfo

T = TypeVar("T")
ATTEMPTS = 5
"""How many times a command that met another process's append is run, each time on the new head."""


KEPT_HEADS = 4096
"""Campaigns whose last head appended here is remembered (the least recent are let go)."""


class Turns:
    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._waiting: dict[str, int] = {}
        self._heads: OrderedDict[str, int] = OrderedDict()

    def appended(self, campaign_id: str, head: int) -> None:
        """A command of this process left the campaign at ``head``."""
        self._heads[campaign_id] = max(head, self._heads.get(campaign_id, 0))
        self._heads.move_to_end(campaign_id)
        while len(self._heads) > KEPT_HEADS:
            self._heads.popitem(last=False)

    def behind(self, campaign_id: str, head: int) -> bool:
        """Whether a command of this process has appended past ``head`` (what a request read is then stale)."""
        return self._heads.get(campaign_id, 0) > head

    def taken(self, campaign_id: str) -> bool:
        """Whether a command of the campaign holds its turn now (one that asks for it will wait)."""
        lock = self._locks.get(campaign_id)
        return lock is not None and lock.locked()

    @asynccontextmanager
    async def turn(self, campaign_id: str) -> AsyncIterator[bool]:
        """Hold the campaign's turn for the block; says whether another command of it ran while this one waited
        (then what the request read of the campaign before is stale)."""
        lock = self._locks.setdefault(campaign_id, asyncio.Lock())
        waited = lock.locked()
        self._waiting[campaign_id] = self._waiting.get(campaign_id, 0) + 1
        try:
            async with lock:
                yield waited
        finally:
            self._waiting[campaign_id] -= 1
            if not self._waiting[campaign_id]:  # nobody holds or awaits it: a campaign left alone keeps nothing
                del self._waiting[campaign_id], self._locks[campaign_id]


def on_the_fresh_state(
    info: CampaignInfo, reread: Callable[[], CampaignInfo], run: Callable[[CampaignInfo], T], name: str
) -> T:
    """``run(info)``, and again on the campaign as it is now each time another writer's append came first."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return run(info)
        except ConcurrencyError as exc:
            if attempt == ATTEMPTS:
                gave_up = ConcurrencyError(
                    f"campaign {name!r} was being written by someone else at the same time; tried {attempt} times on "
                    f"the new state and gave up ({exc}). Nothing was recorded: send the command again"
                )
                gave_up.campaign_id = exc.campaign_id or info.campaign_id  # the refusal names it by its name
                raise gave_up from None
            info = reread()
    raise AssertionError("unreachable")

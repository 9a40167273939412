"""Commands of one campaign take turns in a server process, in the order they came, while another campaign's do
not wait; a race lost to another process's append is run again on the fresh state instead of refused."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from campaign.bootstrap import bootstrap
from campaign.commands import command_type
from campaign.server import runner
from campaign.server.turns import Turns
from tests.server.conftest import SQUAD, World, post


def test_commands_of_one_campaign_take_turns_in_order_and_others_do_not_wait() -> None:
    order: list[str] = []

    async def scenario() -> None:
        turns = Turns()
        kessel_busy = asyncio.Event()

        async def command(campaign: str, name: str, hold: asyncio.Event | None = None) -> None:
            async with turns.turn(campaign) as waited:
                order.append(f"{name}{' (waited)' if waited else ''}")
                if hold is not None:
                    kessel_busy.set()
                    await hold.wait()

        release = asyncio.Event()
        first = asyncio.create_task(command("kessel", "k1", release))
        await kessel_busy.wait()
        second, third = asyncio.create_task(command("kessel", "k2")), asyncio.create_task(command("kessel", "k3"))
        await asyncio.sleep(0)
        assert turns.taken("kessel")
        await command("ridge", "r1")  # another campaign: it runs while kessel's first command holds its turn
        release.set()
        await asyncio.gather(first, second, third)
        assert not turns.taken("kessel") and not turns._locks, "a campaign left alone keeps nothing"

    asyncio.run(scenario())
    assert order == ["k1", "r1", "k2 (waited)", "k3 (waited)"]


def test_a_race_lost_to_another_process_is_run_again_on_the_new_head(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = bootstrap(str(world.opened.engine.url.database), actor="elsewhere")  # another process's wiring
    run = runner.run
    beaten: list[int] = []

    def another_process_first(ledger: Any, info: Any, command: Any, **kwargs: Any) -> Any:
        if not beaten:  # once: the other process appends between this one's read of the head and its append
            theirs = other.ledger.directory.get(info.campaign_id)
            assert theirs is not None
            muster = command_type("gf.muster").build(name="Their Squad", side="Saurians", profile=SQUAD)
            beaten.append(other.ledger.execute(theirs, muster).head.seq)
        return run(ledger, info, command, **kwargs)

    monkeypatch.setattr(runner, "run", another_process_first)
    body = {"command": "gf.muster", "args": {"name": "Robot Squad", "side": "Robots", "profile": SQUAD}}
    answer = post(world.client("pat"), f"/api/campaigns/{world.campaign_id}/commands", body)
    assert answer["head_seq"] == beaten[0] + 2  # after the other process's command, not refused with 409
    roster = world.client("gina").get(f"/api/campaigns/{world.campaign_id}").json()["units"]
    assert sorted(u["name"] for u in roster) == ["Robot Squad", "Their Squad"]
    other.close()

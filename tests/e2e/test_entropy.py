"""A group's own entropy in the dice: "a group may also mix in entropy of its own at each seed rotation
(every player commits a share, revealed with the seed), so that no single party chose the next seed".

Through the command line: ``entropy commit`` records only a share's SHA-256 (the share kept apart from the log,
like the seed), ``entropy show`` never shows a share before the reveal, ``reveal`` publishes the shares with the
seed, and ``verify``/``audit`` re-derive the dice with them. The dice of an epoch with shares are checked here
against a derivation written from README's words (HMAC-SHA256 of the seed over the compact JSON of the label,
the campaign id, the epoch and the shares in commit order), as anyone holding the log would compute them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
from pathlib import Path
from typing import Any

import orjson
import pytest

from campaign.cli.main import app
from events.families.dice import SeedRevealed
from events.registry import registry
from tests.e2e.test_cli import SEED, Cli

OLD_LOG = Path(__file__).resolve().parents[1] / "fixtures" / "logs_2026_12_01" / "mass-combat.jsonl"


class Table(Cli):
    """The command line as each person at the table types it (``--actor``)."""

    def by(self, actor: str, *args: str, code: int = 0) -> Any:
        result = self.runner.invoke(app, ["--db", self.db, "--actor", actor, *args])
        assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.output}\n{result.exception!r}"
        return result

    def by_json(self, actor: str, *args: str, code: int = 0) -> Any:
        return orjson.loads(self.by(actor, *args, "--json", code=code).stdout)

    def shares_held(self) -> int:
        with sqlite3.connect(self.db) as conn:
            return int(conn.execute("SELECT count(*) FROM dice_shares").fetchone()[0])


def face(key: bytes, campaign_id: str, roll: int, die: int, sides: int) -> int:
    """One die as the module docstring of events/dice/derive.py describes it (64-bit candidates, rejection of the
    incomplete last block), written again here so that the test does not trust the code it checks."""
    space = 1 << 64
    limit = space - space % sides
    attempt = 0
    while True:
        digest = hmac.new(key, f"campaign-ledger/dice/v1|{campaign_id}|{roll}|{die}|{attempt}".encode(), "sha256")
        for offset in range(0, 32, 8):
            candidate = int.from_bytes(digest.digest()[offset : offset + 8], "big")
            if candidate < limit:
                return candidate % sides + 1
        attempt += 1


def key_with_shares(seed: bytes, campaign_id: str, epoch: int, shares: list[str]) -> bytes:
    """README: HMAC-SHA256 of the seed over ["campaign-ledger/dice-key/v1", campaign id, epoch, [shares…]]."""
    message = json.dumps(["campaign-ledger/dice-key/v1", campaign_id, epoch, shares], separators=(",", ":"))
    return hmac.new(seed, message.encode(), hashlib.sha256).digest()


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(str(tmp_path / "t.db"))


def test_commit_show_reveal_verify_round_trip(table: Table) -> None:
    table("new", "Kessel", "--ruleset", "grimdark")
    events = table.events()
    gina = table.by_json("gina", "entropy", "commit", "the moon over Kessel")
    assert gina["epoch"] == 0 and gina["by"] == "gina" and "share" not in gina  # given, not drawn: not echoed
    assert gina["commitment"] == hashlib.sha256(b"the moon over Kessel").hexdigest()
    pat = table.by_json("pat", "entropy", "commit")  # drawn from the OS, shown once
    drawn = pat["share"]
    assert len(drawn) == 64 and int(drawn, 16) >= 0 and pat["commitment"] == hashlib.sha256(drawn.encode()).hexdigest()
    assert table.events() == events + 2 and table.shares_held() == 2
    logged = table.json("log", "--type", "dice.share_committed")["events"]
    assert [(e["payload"]["by"], e["payload"]["commitment"], e["meta"]["actor"]) for e in logged] == [
        ("gina", gina["commitment"], "gina"),
        ("pat", pat["commitment"], "pat"),
    ]
    shown = table.json("entropy", "show")
    assert shown["epoch"] == 0 and shown["open"] is True and shown["revealed"] is False
    assert [(s["by"], s["commitment"]) for s in shown["shares"]] == [
        ("gina", gina["commitment"]),
        ("pat", pat["commitment"]),
    ]
    everything = (
        table("entropy", "show").stdout
        + table("log", "--all").stdout
        + table("log", "--all", "--json").stdout
        + table("export").stdout
    )
    assert "the moon over Kessel" not in everything and drawn not in everything  # never shown before the reveal
    rolled = table.json("roll", "3d6", "-p", "weather")
    closed = table.json("entropy", "show")
    assert closed["open"] is False and closed["closed_by_roll"]["roll"] == 0
    [before] = table.json("verify", "--no-rules")
    assert before["ok"] and before["rolls_pending_reveal"] == 1
    revealed = table.json("reveal")["events"][0]
    assert revealed["type"] == "dice.seed_revealed"
    assert revealed["payload"]["shares"] == ["the moon over Kessel", drawn]  # in commit order
    after = table.json("entropy", "show", "--epoch", "0")
    assert [s["share"] for s in after["shares"]] == ["the moon over Kessel", drawn]
    shown = table("entropy", "show", "--epoch", "0").stdout
    assert "= “the moon over Kessel”" in shown and "'the moon over Kessel'" not in shown  # not Python's quotes
    [report] = table.json("verify")
    assert report["ok"] and report["rolls_rederived"] == 1 and report["rolls_pending_reveal"] == 0
    audit = table.json("audit", "--roll", "0")
    assert audit["checks"]["dice"][0]["check"].startswith(
        "re-derived from the revealed seed: matches (mixed with its 2 shares of entropy)"
    )
    # The next epoch opens with no shares: its dice come from its own seed.
    assert table.json("entropy", "show")["epoch"] == 1 and table.json("entropy", "show")["shares"] == []
    assert rolled["events"][1]["payload"]["seed_epoch"] == 0


def test_the_dice_change_with_a_share_and_anyone_holding_the_log_recomputes_them(table: Table, tmp_path: Path) -> None:
    table("new", "Kessel", "--ruleset", "grimdark", "--seed", SEED)
    start = tmp_path / "start.jsonl"
    table("export", "--with-secrets", "-o", str(start))
    plain = Table(str(tmp_path / "plain.db"))
    plain("import", str(start))  # the same campaign (id, seed), rolled without a share
    table.by("gina", "entropy", "commit", "gina's share")
    table.by("pat", "entropy", "commit", "pat's share")
    mixed = table.json("roll", "8d20", "-p", "eight dice")["events"][1]["payload"]["faces"]
    unmixed = plain.json("roll", "8d20", "-p", "eight dice")["events"][1]["payload"]["faces"]
    assert mixed != unmixed
    campaign_id = table.json("list")[0]["campaign_id"]
    seed = bytes.fromhex(SEED)
    assert unmixed == [face(seed, campaign_id, 0, j, 20) for j in range(8)]  # no share: the seed itself, as before
    table("reveal")
    published = tmp_path / "published.jsonl"
    table("export", "-o", str(published))  # the log alone, no secrets
    lines = [orjson.loads(line) for line in published.read_bytes().splitlines()[1:]]
    reveal = next(e for e in lines if e["type"] == "dice.seed_revealed")
    key = key_with_shares(bytes.fromhex(reveal["payload"]["seed"]), campaign_id, 0, reveal["payload"]["shares"])
    assert mixed == [face(key, campaign_id, 0, j, 20) for j in range(8)]
    assert key_with_shares(seed, campaign_id, 0, ["pat's share", "gina's share"]) != key  # commit order counts
    # And whoever imports the published log verifies the dice with the shares.
    anyone = Table(str(tmp_path / "anyone.db"))
    anyone("import", str(published))
    [report] = anyone.json("verify")
    assert report["ok"] and report["rolls_rederived"] == 1


def test_one_share_per_person_per_epoch_and_none_after_the_first_seeded_roll(table: Table) -> None:
    table("new", "Kessel", "--ruleset", "grimdark")
    table.by("pat", "entropy", "commit", "mine")
    events = table.events()
    again = table.by("pat", "entropy", "commit", "another", code=2)
    assert "pat already committed a share of entropy for epoch 0" in again.output
    table("roll", "d6", "-p", "table dice", "--dice", "4")  # a table roll does not use the seed: still open
    table.by("gina", "entropy", "commit", "gina's")
    events = table.events()
    table("roll", "d6", "-p", "the first seeded roll")
    events = table.events()
    late = table.by("olive", "entropy", "commit", "too late", code=2)
    assert "already used the seed of epoch 0" in late.output and "after `campaign reveal`" in late.output
    assert table.events() == events and table.shares_held() == 2
    table("reveal")
    table.by("olive", "entropy", "commit", "on time now")  # the next epoch takes shares again
    table.by("pat", "entropy", "commit", "pat in epoch 1")
    assert [s["by"] for s in table.json("entropy", "show")["shares"]] == ["olive", "pat"]


@pytest.mark.parametrize(
    ("share", "words"),
    [
        ("", "must not be empty"),
        ("   ", "must not be empty"),
        ("x" * 201, "at most 200"),
        ("a\x00b", "control character"),
        ("bad\udcffutf8", "not valid UTF-8"),
        ("two\nlines", "one line"),
    ],
)
def test_bad_shares_are_refused_in_words_and_nothing_is_appended(table: Table, share: str, words: str) -> None:
    table("new", "Kessel", "--ruleset", "grimdark")
    events = table.events()
    refused = table.by("pat", "entropy", "commit", share, code=2)
    assert words in refused.output and "Traceback" not in refused.output
    assert table.events() == events and table.shares_held() == 0
    table.by("pat", "entropy", "commit", "x" * 200)  # the longest share is taken


def test_show_of_an_epoch_that_does_not_exist_is_refused(table: Table) -> None:
    table("new", "Kessel", "--ruleset", "grimdark")
    assert "its epochs are 0–0" in table("entropy", "show", "--epoch", "3", code=2).output


def test_an_old_log_without_shares_replays_and_verifies_unchanged(table: Table, tmp_path: Path) -> None:
    """Logs from before shares existed: every epoch without shares derives from its seed alone, byte for byte."""
    table("import", str(OLD_LOG))
    [report] = table.json("verify")
    assert report["ok"] and report["rolls_rederived"] > 20
    again = tmp_path / "again.jsonl"
    table("export", "--with-secrets", "-o", str(again))
    assert again.read_bytes() == OLD_LOG.read_bytes()  # no share lines, nothing re-encoded
    rows = [orjson.loads(line) for line in OLD_LOG.read_bytes().splitlines()[1:]]
    reveal = next(r for r in rows if r.get("type") == "dice.seed_revealed")
    assert "shares" not in reveal["payload"]
    encoded = registry.encode(SeedRevealed(epoch=reveal["payload"]["epoch"], seed=reveal["payload"]["seed"]))
    assert encoded.payload == reveal["payload"]  # a reveal without shares keeps the bytes it always had
    # The next roll of the old campaign (epoch 1, no shares) still comes from the seed alone.
    secret = next(r["secret"] for r in rows if "secret" in r and r["secret"]["epoch"] == 1)
    campaign_id = table.json("list")[0]["campaign_id"]
    info = table.json("list")[0]
    rolled = table.json("roll", "2d6", "-p", "after the upgrade")["events"][1]["payload"]
    index = info["next_roll_index"]
    assert rolled["faces"] == [face(bytes.fromhex(secret["seed"]), campaign_id, index, j, 6) for j in range(2)]


def test_a_share_travels_with_an_export_with_secrets_and_into_a_branch(table: Table, tmp_path: Path) -> None:
    table("new", "Kessel", "--ruleset", "grimdark")
    table.by("gina", "entropy", "commit", "gina's")
    moved = tmp_path / "moved.jsonl"
    table("export", "--with-secrets", "-o", str(moved))
    other = Table(str(tmp_path / "other.db"))
    other("import", str(moved))
    assert other.shares_held() == 1
    for where in (table, other):
        where("roll", "d20", "-p", "the same die")
    assert (
        table.json("log", "--last", "1")["events"][0]["payload"]["faces"]
        == other.json("log", "--last", "1")["events"][0]["payload"]["faces"]
    )
    head = table.json("list")[0]["events"]
    table("branch", "What if", "--at", str(head))
    assert table.shares_held() == 1  # the parent still rolls with that seed: its share stays the parent's too
    table("reveal", "-c", "Kessel")
    [report] = table.json("verify", "-c", "Kessel")
    assert report["ok"] and report["rolls_rederived"] == 1, report
    [branch] = table.json("verify", "-c", "What if")
    assert branch["ok"] and branch["rolls_pending_reveal"] == 1, branch
    head = table.json("list")[0]["events"]
    table("branch", "After the reveal", "--at", str(head), "-c", "Kessel")  # a revealed seed's shares go along
    assert table.shares_held() == 2
    [after] = table.json("verify", "-c", "After the reveal")
    assert after["ok"] and after["rolls_rederived"] == 1, after

"""The tamper suite: attacks on a played campaign's SQLite database, each caught and named by ``verify``.

A played campaign (the demo's Mass Combat campaign: 53 rolls, a revealed seed, a house rule and two rolls
still awaiting their seed's reveal) is built once; each attack edits a copy of its file the way someone
holding the file could: by hand (``sqlite3``), or thoroughly, recomputing the hash chain after the edit and
rebuilding the projections so that everything links up again.

A recomputed chain is consistent with itself: some attacks can only be caught against a hash kept outside
the database. For those, the test shows both sides: ``verify`` alone passes, ``verify --checkpoint`` (or
``--expect-head``) names the attack. ``ANCHOR_ONLY`` lists them (README states the list).

The group's shares of entropy (``entropy commit``) are attacked on a campaign of their own (two shares mixed into
a revealed seed, one into the current seed): ``SHARES`` lists those attacks, and ``SHARES_ANCHOR_ONLY`` the one
that needs an anchor (or the next reveal). ``KINDS`` counts every kind (README states the count).
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from campaign.cli.main import app
from events.canonical import canonical_json
from events.envelope import GENESIS_HASH, chain_hash, envelope_bytes
from tests.e2e.test_cli import Cli

NAME = "Demo mass-combat"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("played")
    demo = Cli(str(root / "demo.db"))
    demo("demo")
    export = root / "mc.jsonl"
    demo("export", "-c", NAME, "--with-secrets", "-o", str(export))
    base = Cli(str(root / "base.db"))
    base("import", str(export))
    base("mc", "house-rule", "casualties.armour_light", "2", "--note", "we like it")
    base("roll", "d20", "-p", "weather")
    base("roll", "2d6", "-p", "ambush")
    with sqlite3.connect(root / "base.db") as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # one file to copy
    return root / "base.db"


@dataclass
class Row:
    type: str
    version: int
    payload: bytes
    meta: bytes
    group: int

    @property
    def data(self) -> dict[str, Any]:
        loaded: dict[str, Any] = orjson.loads(self.payload)
        return loaded

    def with_payload(self, **changes: Any) -> Row:
        return Row(self.type, self.version, canonical_json({**self.data, **changes}), self.meta, self.group)


class Target:
    """A copy of the played database, and the means to attack it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.cli = Cli(str(path))
        self.campaign_id = self.sql("SELECT campaign_id FROM campaigns")[0][0]

    def sql(self, statement: str, *params: Any) -> list[Any]:
        with sqlite3.connect(self.path) as conn:
            return list(conn.execute(statement, params).fetchall())

    def rows(self) -> list[Row]:
        found = self.sql(
            "SELECT e.type, e.schema_version, e.payload, c.meta, e.command_seq FROM events e JOIN commands c"
            " ON c.campaign_id = e.campaign_id AND c.first_seq = e.command_seq ORDER BY e.seq"
        )
        return [Row(t, v, bytes(p), bytes(m), g) for t, v, p, m, g in found]

    def seq_of(self, type_: str, nth: int = 0, **where: Any) -> int:
        """The seq (1-based) of the ``nth`` event of ``type_`` whose payload holds ``where``."""
        hits = [
            i + 1
            for i, r in enumerate(self.rows())
            if r.type == type_ and all(r.data.get(k) == v for k, v in where.items())
        ]
        return hits[nth]

    def rewrite(self, change: Callable[[list[Row]], list[Row]]) -> None:
        """A thorough forger: change the stream, renumber it, recompute every hash, rebuild the projections."""
        rows = change(self.rows())
        with sqlite3.connect(self.path) as conn:
            conn.execute("DELETE FROM events")
            conn.execute("DELETE FROM commands")
            prev, first_of_group = GENESIS_HASH, 0
            for i, row in enumerate(rows, start=1):
                if i == 1 or row.group != rows[i - 2].group:
                    first_of_group = i
                    last = i
                    while last < len(rows) and rows[last].group == row.group:
                        last += 1
                    command_id = orjson.loads(row.meta).get("command_id")
                    conn.execute(
                        "INSERT INTO commands VALUES (?, ?, ?, ?, ?)",
                        (self.campaign_id, i, last, command_id, row.meta),
                    )
                hash_ = chain_hash(
                    prev,
                    envelope_bytes(
                        campaign_id=self.campaign_id,
                        seq=i,
                        type=row.type,
                        schema_version=row.version,
                        payload_json=row.payload,
                        meta_json=row.meta,
                        prev_hash=prev,
                    ),
                )
                conn.execute(
                    "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (i, self.campaign_id, i, first_of_group, row.type, row.version, row.payload, hash_),
                )
                prev = hash_
        # The forger's own rebuild, which a payload not of its schema makes fail (exit 3, named).
        assert self.cli.runner.invoke(app, ["--db", str(self.path), "rebuild"]).exit_code in (0, 3)

    def verify(self, *args: str, code: int = 3) -> dict[str, Any]:
        report: dict[str, Any] = self.cli.json("verify", *args, code=code)[0]
        return report


@pytest.fixture
def target(played: Path, tmp_path: Path) -> Target:
    copy = tmp_path / "attacked.db"
    shutil.copy(played, copy)
    return Target(copy)


def forged_meta(rows: list[Row]) -> bytes:
    """The meta of a command the forger adds: like the last one, under a command id of its own."""
    return canonical_json({**orjson.loads(rows[-1].meta), "command_id": "forged"})


def named(report: dict[str, Any], check: str, seq: int | None = None, words: str = "") -> None:
    """The attack was caught: ``verify`` failed, naming this check (at this seq) in these words."""
    assert not report["ok"]
    hits = [
        f
        for f in report["failures"]
        if f["check"] == check and (seq is None or f["seq"] == seq) and words in f["message"]
    ]
    assert hits, report["failures"]


def test_the_untouched_campaign_verifies_with_projections_and_anchors(target: Target, tmp_path: Path) -> None:
    checkpoint = tmp_path / "cp.json"
    target.cli("checkpoint", "-o", str(checkpoint))
    head = orjson.loads(checkpoint.read_bytes())["head_hash"]
    report = target.verify("--projections", "--checkpoint", str(checkpoint), "--expect-head", head, code=0)
    rolled = target.cli.json("log", "--all", "--type", "dice.rolled")["events"]
    seeded = [e for e in rolled if e["payload"]["source"] == "seeded"]
    assert report["ok"] and report["rolls_pending_reveal"] == 2
    assert report["rolls_rederived"] + report["rolls_pending_reveal"] == len(seeded) > 2
    assert report["seeds_held_unrevealed"] == [1]
    flags = [(f["check"], f["seq"]) for f in report["flags"]]  # the demo chose its seed; two free rolls
    free = [e["seq"] for e in rolled if e["payload"]["purpose"] in ("weather", "ambush")]  # the two free rolls
    assert flags == [("chosen seed", 1), *(("throwaway roll", seq) for seq in free)]


# -- caught by the log alone -----------------------------------------------------------------------------


def edit_payload(t: Target) -> tuple[str, int]:
    seq = t.seq_of("dice.rolled", 3)
    t.sql("UPDATE events SET payload = replace(payload, '\"faces\":[', '\"faces\":[6,') WHERE seq = ?", seq)
    return "chain", seq


def edit_meta(t: Target) -> tuple[str, int]:
    seq = t.seq_of("dice.rolled", 5)
    (group,) = t.sql("SELECT command_seq FROM events WHERE seq = ?", seq)[0]
    t.sql("UPDATE commands SET meta = replace(meta, 'tester', 'someone else') WHERE first_seq = ?", group)
    return "chain", group


def edit_hash_column(t: Target) -> tuple[str, int]:
    t.sql("UPDATE events SET hash = ? WHERE seq = 40", "f" * 64)
    return "chain", 40


def edit_type(t: Target) -> tuple[str, int]:
    seq = t.seq_of("economy.funds_changed")
    t.sql("UPDATE events SET type = 'economy.pay_settled' WHERE seq = ?", seq)
    return "chain", seq


def edit_schema_version(t: Target) -> tuple[str, int]:
    t.sql("UPDATE events SET schema_version = 2 WHERE seq = 30")
    return "chain", 30


def delete_event(t: Target) -> tuple[str, int]:
    t.sql("DELETE FROM events WHERE seq = 50")
    return "sequence", 51


def reorder_events(t: Target) -> tuple[str, int]:
    t.sql("UPDATE events SET seq = -1 WHERE seq = 60")
    t.sql("UPDATE events SET seq = 60 WHERE seq = 61")
    t.sql("UPDATE events SET seq = 61 WHERE seq = -1")
    return "chain", 60


def payload_not_json(t: Target) -> tuple[str, int]:
    seq = t.seq_of("rules.applied", 2)
    t.sql("UPDATE events SET payload = X'7b6e6f74206a736f6e' WHERE seq = ?", seq)
    return "stored bytes", seq


def meta_not_json(t: Target) -> tuple[str, int]:
    t.sql("UPDATE commands SET meta = 'garbage' WHERE first_seq = 1")
    return "stored bytes", 1


def delete_revealed_roll_rechained(t: Target) -> tuple[str, int]:
    seq = t.seq_of("dice.rolled", 10)
    t.rewrite(lambda rows: rows[: seq - 1] + rows[seq:])
    return "dice", 0  # the next roll's index leaves a gap


def delete_pending_roll_rechained(t: Target) -> tuple[str, int]:
    seq = t.seq_of("dice.rolled", purpose="weather")
    t.rewrite(lambda rows: rows[: seq - 1] + rows[seq:])
    return "dice", seq + 1  # the ambush command moved up one: its roll's index leaves a gap


def duplicate_roll_rechained(t: Target) -> tuple[str, int]:
    seq = t.seq_of("dice.rolled", purpose="ambush")
    t.rewrite(lambda rows: [*rows, Row(rows[seq - 1].type, 1, rows[seq - 1].payload, forged_meta(rows), -7)])
    return "dice", len(t.rows())


def swap_rolls_rechained(t: Target) -> tuple[str, int]:
    a, b = t.seq_of("dice.rolled", 20), t.seq_of("dice.rolled", 21)

    def swap(rows: list[Row]) -> list[Row]:
        rows = list(rows)
        rows[a - 1], rows[b - 1] = rows[b - 1], rows[a - 1]
        return rows

    t.rewrite(swap)
    return "dice", a


def revealed_roll_rewritten(t: Target) -> tuple[str, int]:
    seq = t.seq_of("dice.rolled", 7)

    def change(rows: list[Row]) -> list[Row]:
        old = rows[seq - 1].data
        faces = [(f % old["sides"]) + 1 for f in old["faces"]]
        rows[seq - 1] = rows[seq - 1].with_payload(faces=faces, total=sum(faces) + old["modifier"])
        return rows

    t.rewrite(change)
    return "dice", seq


def impossible_face_rechained(t: Target) -> tuple[str, int]:
    seq = t.seq_of("dice.rolled", purpose="weather")
    t.rewrite(lambda rows: [*rows[: seq - 1], rows[seq - 1].with_payload(faces=[21], total=21), *rows[seq:]])
    return "dice", seq


def payload_of_wrong_type_rechained(t: Target) -> tuple[str, int]:
    seq = t.seq_of("economy.funds_changed")
    t.rewrite(
        lambda rows: [
            *rows[: seq - 1],
            Row(rows[seq - 1].type, 1, b"[1,2]", rows[seq - 1].meta, rows[seq - 1].group),
            *rows[seq:],
        ]
    )
    return "schema", seq


def field_of_wrong_type_rechained(t: Target) -> tuple[str, int]:
    seq = t.seq_of("dice.rolled", 1)
    t.rewrite(lambda rows: [*rows[: seq - 1], rows[seq - 1].with_payload(faces="six"), *rows[seq:]])
    return "schema", seq


def forged_reveal_rechained(t: Target) -> tuple[str, int]:
    seq = t.seq_of("dice.seed_revealed")
    t.rewrite(lambda rows: [*rows[: seq - 1], rows[seq - 1].with_payload(seed="ab" * 32), *rows[seq:]])
    return "dice", seq


def swap_stored_seed(t: Target) -> tuple[str, int]:
    t.sql("UPDATE campaign_secrets SET seed = ? WHERE epoch = 1", "cd" * 32)
    return "stored seed", t.seq_of("dice.seed_committed")


def stored_seed_not_hex(t: Target) -> tuple[str, int]:
    t.sql("UPDATE campaign_secrets SET seed = 'not a seed' WHERE epoch = 1")
    return "stored seed", t.seq_of("dice.seed_committed")


def rule_outcome_rewritten(t: Target) -> tuple[str, int]:
    """An outcome the recorded dice do not give: the rule re-evaluated names the command (drift)."""
    seq = t.seq_of("rules.applied", 4)

    def change(rows: list[Row]) -> list[Row]:
        outcome = rows[seq - 1].data["outcome"]
        rows[seq - 1] = rows[seq - 1].with_payload(outcome={**outcome, "forged": 1})
        return rows

    t.rewrite(change)
    return "drift", 0


LOG_ALONE = [
    edit_payload,
    edit_meta,
    edit_hash_column,
    edit_type,
    edit_schema_version,
    delete_event,
    reorder_events,
    payload_not_json,
    meta_not_json,
    delete_revealed_roll_rechained,
    delete_pending_roll_rechained,
    duplicate_roll_rechained,
    swap_rolls_rechained,
    revealed_roll_rewritten,
    impossible_face_rechained,
    payload_of_wrong_type_rechained,
    field_of_wrong_type_rechained,
    forged_reveal_rechained,
    swap_stored_seed,
    stored_seed_not_hex,
    rule_outcome_rewritten,
]


@pytest.mark.parametrize("attack", LOG_ALONE, ids=lambda a: a.__name__)
def test_an_attack_is_caught_and_named_by_verify_alone(target: Target, attack: Callable[[Target], Any]) -> None:
    check, seq = attack(target)
    named(target.verify(*([] if check == "drift" else ["--no-rules"])), check, seq or None)
    for command in (["log"], ["log", "--all"], ["status"], ["rebuild"]):  # never a traceback, whatever it is
        result = target.cli.runner.invoke(app, ["--db", str(target.path), *command])
        assert result.exit_code in (0, 3), (command, result.output, result.exception)


def test_a_payload_no_longer_json_is_named_by_log_and_rebuild_with_exit_3(target: Target) -> None:
    _, seq = payload_not_json(target)
    for command in ("log", "rebuild"):
        result = target.cli(command, code=3)
        assert f"event #{seq}" in result.stderr and "not JSON" in result.stderr


# -- caught by the projections check ---------------------------------------------------------------------


def edit_treasury(t: Target) -> str:
    t.sql("UPDATE treasuries SET balance = balance + 100000 WHERE side = 'Al-Wazif'")
    return "treasuries"


def edit_roll_counter(t: Target) -> str:
    t.sql("UPDATE campaigns SET next_roll_index = next_roll_index + 3")
    return "campaigns"


def delete_unit_record(t: Target) -> str:
    t.sql("DELETE FROM unit_records WHERE rowid = (SELECT min(rowid) FROM unit_records)")
    return "unit_records"


def edit_folded_state(t: Target) -> str:
    t.sql("UPDATE campaign_state SET state = replace(state, '\"day\":', '\"day\":9')")
    return "campaign_state"


def edit_summary_day(t: Target) -> str:
    t.sql("UPDATE campaign_summary SET day = day + 30")  # what `status` shows, from the read models
    return "campaign_summary"


PROJECTION_EDITS = [edit_treasury, edit_roll_counter, delete_unit_record, edit_folded_state, edit_summary_day]


@pytest.mark.parametrize("attack", PROJECTION_EDITS)
def test_an_edited_projection_is_named_by_verify_projections(target: Target, attack: Callable[[Target], str]) -> None:
    table = attack(target)
    assert target.verify(code=0)["ok"]  # the log itself is intact
    report = target.verify("--projections")
    named(report, "projection", words=table)


# -- caught only against an anchor kept outside the database ----------------------------------------------


def truncate_tail(t: Target) -> None:
    t.rewrite(lambda rows: rows[:-2])  # the ambush roll and its command gone


def forge_command_at_the_end(t: Target) -> None:
    t.rewrite(
        lambda rows: [
            *rows,
            Row(
                "economy.funds_changed",
                1,
                canonical_json({"side": "Al-Wazif", "amount": 5000, "reason": "loot"}),
                forged_meta(rows),
                -1,
            ),
        ]
    )


def rewrite_house_rule_value(t: Target) -> None:
    seq = t.seq_of("rules.table_overridden")
    t.rewrite(lambda rows: [*rows[: seq - 1], rows[seq - 1].with_payload(value=4), *rows[seq:]])


def rewrite_pending_roll(t: Target) -> None:
    seq = t.seq_of("dice.rolled", purpose="weather")
    # Another face than the one rolled (the seed of epoch 1 is drawn: a fixed 20 was the roll itself one time in 20).
    face = t.rows()[seq - 1].data["faces"][0] % 20 + 1
    t.rewrite(lambda rows: [*rows[: seq - 1], rows[seq - 1].with_payload(faces=[face], total=face), *rows[seq:]])


def delete_last_roll(t: Target) -> None:
    seq = t.seq_of("dice.rolled", purpose="ambush")
    t.rewrite(lambda rows: rows[: seq - 2])


def new_seed_and_commitment(t: Target) -> None:
    """Before the reveal: a new seed of epoch 1, its commitment, and the pending rolls re-derived from it."""
    seed = bytes(range(32))
    seq = t.seq_of("dice.seed_committed")
    t.sql("UPDATE campaign_secrets SET seed = ? WHERE epoch = 1", seed.hex())
    t.rewrite(
        lambda rows: [
            *rows[: seq - 1],
            rows[seq - 1].with_payload(commitment=hashlib.sha256(seed).hexdigest()),
            *rows[seq:],
        ]
    )


ANCHOR_ONLY = [
    truncate_tail,
    forge_command_at_the_end,
    rewrite_house_rule_value,
    rewrite_pending_roll,
    delete_last_roll,
    new_seed_and_commitment,
]


@pytest.mark.parametrize("attack", ANCHOR_ONLY, ids=lambda a: a.__name__)
def test_an_attack_that_recomputes_the_chain_is_caught_only_against_an_anchor(
    target: Target, tmp_path: Path, attack: Callable[[Target], None]
) -> None:
    checkpoint = tmp_path / "published.json"
    target.cli("checkpoint", "-o", str(checkpoint))
    head = orjson.loads(checkpoint.read_bytes())["head_hash"]
    attack(target)
    alone = target.verify("--projections", "--no-rules", code=0)
    assert alone["ok"], alone["failures"]  # consistent with itself: this is why the anchor exists
    named(target.verify("--expect-head", head, "--no-rules"), "anchor")
    if attack is forge_command_at_the_end:
        # A checkpoint lets the log grow: a command added after it looks like any later command; only the
        # head the group knows (--expect-head) tells it from one really entered.
        assert target.verify("--checkpoint", str(checkpoint), "--no-rules", code=0)["ok"]
    else:
        named(target.verify("--checkpoint", str(checkpoint), "--no-rules"), "anchor")


def test_a_checkpoint_names_truncation_and_rewritten_history_in_words(target: Target, tmp_path: Path) -> None:
    checkpoint = tmp_path / "published.json"
    target.cli("checkpoint", "-o", str(checkpoint))
    target.cli("roll", "d6", "-p", "after the checkpoint")
    assert target.verify("--checkpoint", str(checkpoint), code=0)["ok"]  # a log that grew still holds it
    rewrite_pending_roll(target)
    named(target.verify("--checkpoint", str(checkpoint)), "anchor", words="rewritten")
    target.rewrite(lambda rows: rows[:-4])  # the roll after the checkpoint, and the ambush roll before it
    named(target.verify("--checkpoint", str(checkpoint)), "anchor", words="truncated")


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="OpenSSH's ssh-keygen is not installed")
def test_a_signed_checkpoint_names_truncation_and_a_forger_cannot_replace_it(target: Target, tmp_path: Path) -> None:
    """The anchor kept where the forger can reach it too: signed by the GM's key (``checkpoint --sign``), a
    checkpoint the forger writes over it, of the log as they left it, is refused before the log is read."""
    from tests.e2e.test_signed_checkpoint_cli import fingerprint, make_key

    gm, mallory = make_key(tmp_path, "gm"), make_key(tmp_path, "mallory")
    checkpoint, signer = tmp_path / "published.json", f"{gm}.pub"
    target.cli("checkpoint", "-o", str(checkpoint), "--sign", str(gm))
    assert target.verify("--checkpoint", str(checkpoint), "--signer", signer, code=0)["ok"]
    truncate_tail(target)
    assert target.verify("--no-rules", code=0)["ok"]  # consistent with itself
    report = target.verify("--checkpoint", str(checkpoint), "--signer", signer, "--no-rules")
    named(report, "anchor", words="truncated")
    assert report["checkpoint_signed_by"] == fingerprint(Path(signer)), "the anchor itself is the GM's"
    target.cli("checkpoint", "-o", str(checkpoint))  # the forger's checkpoint of the truncated log, unsigned
    refused = target.cli.json("verify", "--checkpoint", str(checkpoint), "--signer", signer, code=3)
    assert "the checkpoint was changed after it was signed" in refused["error"]
    target.cli("checkpoint", "-o", str(checkpoint), "--sign", str(mallory))  # signed, with a key of their own
    refused = target.cli.json("verify", "--checkpoint", str(checkpoint), "--signer", signer, code=3)
    assert f"but by another key ({fingerprint(Path(f'{mallory}.pub'))})" in refused["error"]


# -- the group's shares of entropy ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def with_shares(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Epoch 0: gina's and pat's shares, two rolls, revealed. Epoch 1: gina's share, one roll of ten dice (pending)."""
    path = tmp_path_factory.mktemp("shares") / "shares.db"
    cli = Cli(str(path))

    def by(actor: str, *args: str) -> None:
        result = cli.runner.invoke(app, ["--db", str(path), "--actor", actor, *args])
        assert result.exit_code == 0, result.output

    cli("new", "Shares", "--ruleset", "mass-combat")
    by("gina", "entropy", "commit", "gina's share")
    by("pat", "entropy", "commit", "pat's share")
    cli("roll", "d20", "-p", "one")
    cli("roll", "d20", "-p", "two")
    cli("reveal")
    by("gina", "entropy", "commit", "gina again")
    cli("roll", "10d6", "-p", "three")  # ten dice: the same faces with and without a share once in 6**10
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture
def shared(with_shares: Path, tmp_path: Path) -> Target:
    copy = tmp_path / "attacked.db"
    shutil.copy(with_shares, copy)
    return Target(copy)


def share_commitment(share: str) -> str:
    return hashlib.sha256(share.encode()).hexdigest()


def forged_share_rechained(t: Target) -> tuple[str, int, str]:
    seq = t.seq_of("dice.seed_revealed")
    t.rewrite(
        lambda rows: [*rows[: seq - 1], rows[seq - 1].with_payload(shares=["forged", "pat's share"]), *rows[seq:]]
    )
    return "share", seq, "forged"


def shares_reordered_in_reveal_rechained(t: Target) -> tuple[str, int, str]:
    seq = t.seq_of("dice.seed_revealed")
    t.rewrite(
        lambda rows: [*rows[: seq - 1], rows[seq - 1].with_payload(shares=["pat's share", "gina's share"]), *rows[seq:]]
    )
    return "share", seq, "forged"


def missing_share_rechained(t: Target) -> tuple[str, int, str]:
    seq = t.seq_of("dice.seed_revealed")
    t.rewrite(lambda rows: [*rows[: seq - 1], rows[seq - 1].with_payload(shares=["gina's share"]), *rows[seq:]])
    return "share", seq, "missing"


def late_share_rechained(t: Target) -> tuple[str, int, str]:
    """Pat's share moved after the epoch's first roll: it would have been chosen knowing that die."""
    share = t.seq_of("dice.share_committed", 1)
    roll = t.seq_of("dice.rolled", 0)

    def move(rows: list[Row]) -> list[Row]:
        moved = rows[share - 1]
        rest = rows[: share - 1] + rows[share:]
        return [*rest[: roll - 1], moved, *rest[roll - 1 :]]  # just after the roll (which moved up one)

    t.rewrite(move)
    return "share", roll, "late"


def early_share_rechained(t: Target) -> tuple[str, int, str]:
    """A share for epoch 2, whose seed is not committed yet."""
    t.rewrite(
        lambda rows: [
            *rows,
            Row(
                "dice.share_committed",
                1,
                canonical_json({"epoch": 2, "commitment": share_commitment("early"), "by": "pat"}),
                canonical_json({**orjson.loads(rows[-1].meta), "command_id": "forged", "actor": "pat"}),
                -1,
            ),
        ]
    )
    return "share", len(t.rows()), "early"


def second_share_rechained(t: Target) -> tuple[str, int, str]:
    """A second share from gina for epoch 1, right after her first."""
    seq = t.seq_of("dice.share_committed", 2)

    def double(rows: list[Row]) -> list[Row]:
        first = rows[seq - 1]
        meta = canonical_json({**orjson.loads(first.meta), "command_id": "forged"})
        again = Row(first.type, 1, canonical_json({**first.data, "commitment": share_commitment("x")}), meta, -2)
        return [*rows[:seq], again, *rows[seq:]]

    t.rewrite(double)
    return "share", seq + 1, "second"


def share_in_another_name_rechained(t: Target) -> tuple[str, int, str]:
    seq = t.seq_of("dice.share_committed", 1)
    t.rewrite(lambda rows: [*rows[: seq - 1], rows[seq - 1].with_payload(by="olive"), *rows[seq:]])
    return "share", seq, "in the name of olive"


def swap_stored_share(t: Target) -> tuple[str, int, str]:
    seq = t.seq_of("dice.share_committed", 2)
    t.sql("UPDATE dice_shares SET share = 'chosen by the holder' WHERE seq = ?", seq)
    return "stored share", seq, "replaced"


def delete_stored_share(t: Target) -> tuple[str, int, str]:
    seq = t.seq_of("dice.share_committed", 2)
    t.sql("DELETE FROM dice_shares WHERE seq = ?", seq)
    return "stored share", seq, "not held"


SHARES = [
    forged_share_rechained,
    shares_reordered_in_reveal_rechained,
    missing_share_rechained,
    late_share_rechained,
    early_share_rechained,
    second_share_rechained,
    share_in_another_name_rechained,
    swap_stored_share,
    delete_stored_share,
]


def test_the_untouched_campaign_with_shares_verifies(shared: Target) -> None:
    report = shared.verify("--projections", code=0)
    assert report["ok"] and report["rolls_rederived"] == 2 and report["rolls_pending_reveal"] == 1


@pytest.mark.parametrize("attack", SHARES, ids=lambda a: a.__name__)
def test_an_attack_on_the_shares_is_caught_and_named_by_verify(shared: Target, attack: Callable[[Target], Any]) -> None:
    check, seq, words = attack(shared)
    named(shared.verify("--no-rules"), check, seq, words)
    for command in (["log"], ["log", "--all"], ["status"], ["entropy", "show"], ["rebuild"]):
        result = shared.cli.runner.invoke(app, ["--db", str(shared.path), *command])
        assert result.exit_code in (0, 3), (command, result.output, result.exception)


def delete_share_and_its_commitment_before_reveal(t: Target) -> None:
    """Gina's share of the current epoch gone from the log (chain recomputed) and from the database."""
    seq = t.seq_of("dice.share_committed", 2)
    t.sql("DELETE FROM dice_shares WHERE seq = ?", seq)
    t.rewrite(lambda rows: rows[: seq - 1] + rows[seq:])


SHARES_ANCHOR_ONLY = [delete_share_and_its_commitment_before_reveal]


@pytest.mark.parametrize("attack", SHARES_ANCHOR_ONLY, ids=lambda a: a.__name__)
def test_a_share_removed_whole_before_reveal_is_caught_by_an_anchor_or_by_the_reveal(
    shared: Target, tmp_path: Path, attack: Callable[[Target], None]
) -> None:
    checkpoint = tmp_path / "published.json"
    shared.cli("checkpoint", "-o", str(checkpoint))
    attack(shared)
    assert shared.verify("--projections", "--no-rules", code=0)["ok"]  # consistent with itself
    named(shared.verify("--checkpoint", str(checkpoint), "--no-rules"), "anchor")
    shared.cli("reveal")  # the pending roll was derived with the share: without it, it no longer re-derives
    named(shared.verify("--no-rules"), "dice", words="the seed gives")


KINDS = len(LOG_ALONE) + len(PROJECTION_EDITS) + len(ANCHOR_ONLY) + len(SHARES) + len(SHARES_ANCHOR_ONLY)


def test_the_suite_holds_the_kinds_readme_counts() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert f"tamper suite of {KINDS} attack kinds" in readme

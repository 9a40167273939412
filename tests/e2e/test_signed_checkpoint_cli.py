"""Signed checkpoints ("a signed or exported checkpoint file"): ``campaign checkpoint --sign KEY`` writes
the checkpoint and its OpenSSH signature (``ssh-keygen -Y sign -n campaign-ledger``) as FILE and FILE.sig;
``campaign verify --checkpoint FILE --signer KEY.pub`` accepts only that key's signature over the file as it is.
A bad or missing signature, another key's, a missing ssh-keygen: refused in words, non-zero exit, no traceback."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import orjson
import pytest

from tests.e2e.test_cli import Cli

SSH_KEYGEN = shutil.which("ssh-keygen")
pytestmark = pytest.mark.skipif(SSH_KEYGEN is None, reason="OpenSSH's ssh-keygen is not installed")


def make_key(folder: Path, name: str, passphrase: str = "") -> Path:
    """A throwaway ed25519 key pair: ``folder/name`` and ``folder/name.pub``."""
    assert SSH_KEYGEN is not None
    key = folder / name
    subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", passphrase, "-C", name, "-f", str(key)], check=True)
    return key


def flat(text: str) -> str:
    """Words as said, whatever the terminal's width wrapped."""
    return " ".join(text.split())


def fingerprint(public: Path) -> str:
    """The key's fingerprint as ssh-keygen itself prints it (``256 SHA256:… name (ED25519)``)."""
    assert SSH_KEYGEN is not None
    listed = subprocess.run([SSH_KEYGEN, "-l", "-f", str(public)], check=True, capture_output=True, text=True)
    return listed.stdout.split()[1]


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    c = Cli(str(tmp_path / "signed.db"))
    c("new", "Signed", "--ruleset", "grimdark")
    c("roll", "d20", "-p", "weather")
    return c


def test_a_good_signature_passes_and_names_its_key(cli: Cli, tmp_path: Path) -> None:
    alice = make_key(tmp_path, "alice")
    path = tmp_path / "cp.json"
    made = cli.json("checkpoint", "-o", str(path), "--sign", str(alice))
    signature = tmp_path / "cp.json.sig"
    assert made["signature"] == str(signature) and made["signed_by"] == fingerprint(Path(f"{alice}.pub"))
    assert signature.read_text().startswith("-----BEGIN SSH SIGNATURE-----")
    assert orjson.loads(path.read_bytes())["seq"] == 3  # the checkpoint itself is unchanged: one line
    [report] = cli.json("verify", "--checkpoint", str(path), "--signer", f"{alice}.pub")
    assert report["ok"] and report["checkpoint_signed_by"] == fingerprint(Path(f"{alice}.pub"))
    words = flat(cli("verify", "--checkpoint", str(path), "--signer", f"{alice}.pub").stdout)
    assert f"signed: {path} is signed by {alice}.pub ({fingerprint(Path(f'{alice}.pub'))})" in words
    # Made by OpenSSH's own format: ssh-keygen checks it the same way, with no help from us.
    allowed = tmp_path / "allowed"
    allowed.write_text("gm " + Path(f"{alice}.pub").read_text())
    assert SSH_KEYGEN is not None
    checked = subprocess.run(
        [SSH_KEYGEN, "-Y", "verify", "-f", str(allowed), "-I", "gm", "-n", "campaign-ledger", "-s", str(signature)],
        input=path.read_bytes(),
        capture_output=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr


def test_an_edited_checkpoint_fails_its_signature(cli: Cli, tmp_path: Path) -> None:
    alice = make_key(tmp_path, "alice")
    path = tmp_path / "cp.json"
    cli("checkpoint", "-o", str(path), "--sign", str(alice))
    cli("roll", "d6", "-p", "later")
    item = orjson.loads(path.read_bytes())
    later = cli.json("log")["events"][-1]
    path.write_bytes(orjson.dumps({**item, "seq": later["seq"], "head_hash": later["hash"]}) + b"\n")
    assert cli.json("verify", "--checkpoint", str(path))[0]["ok"], "unsigned, the edit is a checkpoint like any"
    refused = flat(cli("verify", "--checkpoint", str(path), "--signer", f"{alice}.pub", code=3).output)
    assert f"the signature {path}.sig does not match {path}: the checkpoint was changed after it was signed" in refused
    assert "Traceback" not in refused
    error = cli.json("verify", "--checkpoint", str(path), "--signer", f"{alice}.pub", code=3)
    assert error["exit_code"] == 3 and "does not match" in error["error"]


def test_another_keys_signature_is_refused_and_named(cli: Cli, tmp_path: Path) -> None:
    alice, mallory = make_key(tmp_path, "alice"), make_key(tmp_path, "mallory")
    path = tmp_path / "cp.json"
    cli("checkpoint", "-o", str(path), "--sign", str(mallory))
    refused = cli("verify", "--checkpoint", str(path), "--signer", f"{alice}.pub", code=3).output
    assert (
        f"is a good signature of {path}, but by another key ({fingerprint(Path(f'{mallory}.pub'))}), "
        f"not by {alice}.pub ({fingerprint(Path(f'{alice}.pub'))})"
    ) in flat(refused)
    assert cli.json("verify", "--checkpoint", str(path), "--signer", f"{mallory}.pub")[0]["ok"]


def test_a_missing_or_broken_signature_is_refused(cli: Cli, tmp_path: Path) -> None:
    alice = make_key(tmp_path, "alice")
    path = tmp_path / "cp.json"
    cli("checkpoint", "-o", str(path))  # not signed
    refused = cli("verify", "--checkpoint", str(path), "--signer", f"{alice}.pub", code=3).output
    assert f"{path} is not signed: there is no signature {path}.sig beside it" in flat(refused)
    Path(f"{path}.sig").write_text("not a signature\n")
    assert (
        "is not an SSH signature" in cli("verify", "--checkpoint", str(path), "--signer", f"{alice}.pub", code=3).output
    )
    cli("checkpoint", "-o", str(path), "--sign", str(alice))
    signature = Path(f"{path}.sig")
    lines = signature.read_text().splitlines()
    lines[2] = lines[2][:10] + ("A" if lines[2][10] != "A" else "B") + lines[2][11:]  # one character of it
    signature.write_text("\n".join(lines) + "\n")
    assert "does not match" in cli("verify", "--checkpoint", str(path), "--signer", f"{alice}.pub", code=3).output


def test_wrong_use_is_refused_in_words_and_nothing_is_written(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = make_key(tmp_path, "alice")
    locked = make_key(tmp_path, "locked", passphrase="a long passphrase")
    path = tmp_path / "cp.json"
    assert "--sign needs --output FILE" in cli("checkpoint", "--sign", str(alice), code=2).output
    assert "give the checkpoint too" in cli("verify", "--signer", f"{alice}.pub", code=2).output
    said = cli("checkpoint", "-o", str(path), "--sign", str(tmp_path / "nokey"), code=2).output
    assert "cannot read the signing key" in said
    # No terminal to ask the passphrase on: ssh-keygen's own reason, and neither file written.
    said = cli("checkpoint", "-o", str(path), "--sign", str(locked), code=2).output
    assert "ssh-keygen could not sign with" in said and "incorrect passphrase" in said
    assert not path.exists() and not Path(f"{path}.sig").exists()
    cli("checkpoint", "-o", str(path), "--sign", str(alice))
    assert "is a private key" in cli("verify", "--checkpoint", str(path), "--signer", str(alice), code=2).output
    (tmp_path / "junk.pub").write_text("ssh-ed25519 not-base64 x\n")
    said = cli("verify", "--checkpoint", str(path), "--signer", str(tmp_path / "junk.pub"), code=2).output
    assert "is not an OpenSSH public key" in said
    monkeypatch.setenv("PATH", str(tmp_path))  # no ssh-keygen on it
    for args in (["checkpoint", "-o", str(path), "--sign", str(alice)], ["verify", "--checkpoint", str(path),
                                                                         "--signer", f"{alice}.pub"]):  # fmt: skip
        said = cli(*args, code=2).output
        assert "needs OpenSSH's ssh-keygen, which is not on PATH" in said and "Traceback" not in said

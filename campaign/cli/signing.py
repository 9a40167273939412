"""Signed checkpoints: a checkpoint file signed with an OpenSSH key, and checked against the signer's
public key, by OpenSSH's own ``ssh-keygen -Y sign`` and ``ssh-keygen -Y verify`` under the namespace
``campaign-ledger`` (a signature made for anything else, a Git commit or an e-mail, is not a checkpoint's).

The signature is armoured text (``-----BEGIN SSH SIGNATURE-----``) kept beside the checkpoint as ``FILE.sig``;
it covers the file's bytes exactly. Checking writes the signer's key into an allowed-signers file of its own in a
temporary folder, so nothing of the user's OpenSSH set-up is read or changed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from events.errors import InvalidInputError, VerificationError

NAMESPACE = "campaign-ledger"
PRINCIPAL = "campaign-ledger"
SIGNATURE_LIMIT = 64 * 1024
KEY_LIMIT = 64 * 1024
TIMEOUT = 600
"""Seconds ssh-keygen may take: long enough to type a key's passphrase at its prompt."""
ARMOUR = b"-----BEGIN SSH SIGNATURE-----"


def signature_path(checkpoint: Path) -> Path:
    """Where a checkpoint's signature is kept: beside it, as ``FILE.sig`` (what ``ssh-keygen -Y sign`` writes)."""
    return checkpoint.with_name(checkpoint.name + ".sig")


def _ssh_keygen() -> str:
    found = shutil.which("ssh-keygen")
    if found is None:
        raise InvalidInputError.saying(
            "signing or checking a signed checkpoint needs OpenSSH's ssh-keygen, which is not on PATH here "
            "(Debian: apt-get install openssh-client)"
        )
    return found


def _run(args: list[str], data: bytes | None = None, *, terminal: bool = False) -> subprocess.CompletedProcess[bytes]:
    """ssh-keygen run with ``data`` on its standard input; with ``terminal``, on the user's terminal (where it asks
    a key's passphrase and says what went wrong), otherwise with nothing to read and its messages kept."""
    quiet = subprocess.PIPE if not terminal else None
    try:
        return subprocess.run(  # noqa: S603  (ssh-keygen, found on PATH, with arguments of our own)
            args,
            input=data,
            stdin=None if data is not None or terminal else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=quiet,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise InvalidInputError.saying(
            "ssh-keygen did not finish within {seconds} seconds: nothing was signed", seconds=TIMEOUT
        ) from None
    except OSError as exc:
        raise InvalidInputError.saying("cannot run ssh-keygen: {why}", why=exc.strerror) from None


def _said(result: subprocess.CompletedProcess[bytes]) -> str:
    """What ssh-keygen said went wrong, without its progress lines."""
    if result.stderr is None:
        return "see its message above"
    lines = result.stderr.decode("utf-8", "replace").splitlines()
    chatter = ("Signing file", "Write signature to", "Signing data on standard input")
    kept = [line.strip() for line in lines if line.strip() and not line.startswith(chatter)]
    return "; ".join(kept)[:300] or f"exit status {result.returncode}"


def sign(data: bytes, key: Path) -> bytes:
    """The armoured signature of ``data`` by the OpenSSH private key ``key`` (a passphrase is asked on the
    terminal, as ssh-keygen does). Nothing is written anywhere but a temporary folder."""
    exe = _ssh_keygen()
    if not key.is_file():
        raise InvalidInputError.saying("cannot read the signing key {key}: there is no such file", key=str(key))
    with tempfile.TemporaryDirectory(prefix="campaign-sign-") as folder:
        signed = Path(folder) / "checkpoint"
        signed.write_bytes(data)
        terminal = sys.stdin.isatty() and sys.stderr.isatty()
        result = _run([exe, "-Y", "sign", "-f", str(key), "-n", NAMESPACE, str(signed)], terminal=terminal)
        signature = signature_path(signed)
        if result.returncode != 0 or not signature.is_file():
            raise InvalidInputError.saying(
                "ssh-keygen could not sign with {key}: {why}; nothing was written", key=str(key), why=_said(result)
            )
        return signature.read_bytes()


def public_key(path: Path) -> tuple[str, bytes]:
    """The key type and blob of an OpenSSH public key file (``ssh-ed25519 AAAA… comment``), checked for shape."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(KEY_LIMIT + 1)
    except OSError as exc:
        raise InvalidInputError.saying(
            "cannot read the signer's public key {path}: {why}", path=str(path), why=exc.strerror
        ) from None
    if b"PRIVATE KEY" in raw:
        raise InvalidInputError.saying(
            "{path} is a private key: --signer takes the signer's public key ({path}.pub)", path=str(path)
        )
    words = raw.decode("utf-8", "replace").split()
    try:
        kind, blob = words[0], base64.b64decode(words[1], validate=True)
    except (IndexError, binascii.Error):
        kind, blob = "", b""
    if len(raw) > KEY_LIMIT or not kind.isascii() or not blob or _string(blob, 0)[0] != kind.encode():
        raise InvalidInputError.saying(
            "{path} is not an OpenSSH public key: --signer takes one line like `ssh-ed25519 AAAA… name`, "
            "as in the KEY.pub file ssh-keygen wrote beside the private key",
            path=str(path),
        )
    return kind, blob


def fingerprint(blob: bytes) -> str:
    """A key's SHA256 fingerprint, as ``ssh-keygen -l`` prints it."""
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def _string(data: bytes, at: int) -> tuple[bytes, int]:
    """An SSH wire-format string at ``at``: its bytes and where the next field starts (empty if cut short)."""
    size = int.from_bytes(data[at : at + 4], "big")
    end = at + 4 + size
    return (data[at + 4 : end], end) if len(data) >= end else (b"", len(data))


def signer_of(signature: bytes) -> str | None:
    """The fingerprint of the key an armoured SSH signature names (whether or not it is valid)."""
    body = b"".join(line.strip() for line in signature.splitlines() if line and not line.startswith(b"-----"))
    try:
        raw = base64.b64decode(body, validate=True)
    except binascii.Error:
        return None
    if not raw.startswith(b"SSHSIG"):
        return None
    key, _ = _string(raw, 10)  # after the magic and the version
    return fingerprint(key) if key else None


def check(data: bytes, signature_file: Path, signer: Path, shown: str) -> str:
    """Check that ``signature_file`` is a good signature of ``data`` (the checkpoint ``shown``) by ``signer``'s
    key; return that key's fingerprint. Refused, in words, with exit status 3: a missing or damaged signature,
    a checkpoint changed since it was signed, a signature by another key."""
    kind, blob = public_key(signer)
    exe = _ssh_keygen()
    try:
        with signature_file.open("rb") as handle:
            signature = handle.read(SIGNATURE_LIMIT + 1)
    except FileNotFoundError:
        raise VerificationError.saying(
            "{checkpoint} is not signed: there is no signature {signature} beside it "
            "(`campaign checkpoint --sign KEY -o FILE` writes both)",
            checkpoint=shown,
            signature=str(signature_file),
        ) from None
    except OSError as exc:
        raise InvalidInputError.saying(
            "cannot read the signature {signature}: {why}", signature=str(signature_file), why=exc.strerror
        ) from None
    if len(signature) > SIGNATURE_LIMIT or not signature.lstrip().startswith(ARMOUR):
        raise VerificationError.saying(
            "{signature} is not an SSH signature (-----BEGIN SSH SIGNATURE-----)", signature=str(signature_file)
        )
    expected = fingerprint(blob)
    with tempfile.TemporaryDirectory(prefix="campaign-check-") as folder:
        allowed, sig = Path(folder) / "allowed_signers", Path(folder) / "checkpoint.sig"
        allowed.write_text(f'{PRINCIPAL} namespaces="{NAMESPACE}" {kind} {base64.b64encode(blob).decode()}\n')
        sig.write_bytes(signature)
        args = ["-n", NAMESPACE, "-s", str(sig)]
        if _run([exe, "-Y", "verify", "-f", str(allowed), "-I", PRINCIPAL, *args], data).returncode == 0:
            return expected
        valid_by_someone = _run([exe, "-Y", "check-novalidate", *args], data).returncode == 0
    if valid_by_someone:
        raise VerificationError.saying(
            "{signature} is a good signature of {checkpoint}, but by another key ({other}), not by {signer} "
            "({expected}): the checkpoint was not signed by that signer",
            signature=str(signature_file),
            checkpoint=shown,
            other=signer_of(signature),
            signer=str(signer),
            expected=expected,
        )
    raise VerificationError.saying(
        "the signature {signature} does not match {checkpoint}: the checkpoint was changed after it was signed, "
        "or the signature is damaged or was made for something else",
        signature=str(signature_file),
        checkpoint=shown,
    )

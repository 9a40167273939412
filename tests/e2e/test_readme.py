"""README is executed so it stays true: every ```sh/```shell/```bash block of README.md, and of any guide it links,
runs in order in a fresh temporary folder with the installed `campaign` command, and must succeed as written.

A block that must not run here (the setup and test scripts themselves, long benchmarks) is preceded by an
``<!-- readme-test: skip, REASON -->`` line; every other shell block runs. The blocks of one file run as one
shell script (so ``export CAMPAIGN=…`` in one holds in the next), with ``set -euo pipefail``: the first command
that fails stops the run, and the test names its README line."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```(\w*)\s*$")
SKIP = re.compile(r"^<!-- readme-test: skip, (.+) -->$")
LINK = re.compile(r"\]\((?!https?:)([^)#\s]+\.md)\)")
SHELLS = {"sh", "shell", "bash"}


@dataclass
class Block:
    path: Path
    line: int  # of its first command
    lines: list[str]
    skipped: str | None


def blocks(path: Path) -> list[Block]:
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if match and match.group(1):
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            if match.group(1) in SHELLS:
                before = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
                skip = SKIP.match(before.strip())
                found.append(Block(path, i + 2, lines[i + 1 : end], skip.group(1) if skip else None))
            i = end
        i += 1
    return found


def guides(readme: Path) -> list[Path]:
    """README and the guides it links (local .md files inside the project), each once, in order."""
    found = [readme]
    for target in LINK.findall(readme.read_text(encoding="utf-8")):
        guide = (readme.parent / target).resolve()
        if guide.is_file() and guide.is_relative_to(readme.parent) and guide not in found:
            found.append(guide)
    return found


def script(file_blocks: list[Block]) -> str:
    """One bash script of the blocks to run; before each command, the README line it comes from."""
    out = ["set -euo pipefail", "trap 'echo \"README command failed: $README_AT\" >&2' ERR"]
    for block in file_blocks:
        if block.skipped:
            continue
        continued = False
        for offset, line in enumerate(block.lines):
            if not continued and line.strip() and not line.lstrip().startswith("#"):
                out.append("README_AT=" + shlex.quote(f"{block.path.name}:{block.line + offset}: {line.strip()}"))
            out.append(line)
            continued = line.rstrip().endswith("\\")
    return "\n".join(out) + "\n"


def run_readme(readme: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    """Every guide's blocks, run in ``folder`` (the project's example files copied in, as beside a clone)."""
    shutil.copytree(ROOT / "examples", folder / "examples")
    bin_dir = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAMPAIGN")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", CAMPAIGN_ACTOR="readme", COLUMNS="120")
    text = "".join(script(blocks(path)) for path in guides(readme))
    return subprocess.run(
        ["bash", "-c", text], cwd=folder, env=env, capture_output=True, text=True, timeout=1200, check=False
    )


def test_readme_blocks_are_found_and_only_named_ones_skipped() -> None:
    found = [b for path in guides(ROOT / "README.md") for b in blocks(path)]
    run = [b for b in found if not b.skipped]
    assert len(run) >= 6, "README's walkthroughs are shell blocks"
    assert all(b.skipped and len(b.skipped) > 10 for b in found if b not in run)  # each skip says why
    assert {"campaign new", "campaign fs", "campaign mc", "campaign dis", "campaign gf", "campaign audit"} <= {
        " ".join(word for word in line.split()[:2]) for b in run for line in b.lines
    }


@pytest.mark.slow
def test_every_readme_command_works_as_written(tmp_path: Path) -> None:
    done = run_readme(ROOT / "README.md", tmp_path)
    assert done.returncode == 0, f"{done.stderr[-3000:]}\n--- stdout (end) ---\n{done.stdout[-2000:]}"


def test_a_broken_readme_command_fails_the_test_and_is_named(tmp_path: Path) -> None:
    """A deliberately broken copy: one walkthrough command misspelt. The run stops there and says where."""
    copy = tmp_path / "README.md"
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = next(b for b in blocks(ROOT / "README.md") if not b.skipped)
    command = next(line for line in first.lines if line.startswith("campaign "))
    broken = command.replace("campaign ", "campaign --no-such-option ", 1)
    copy.write_text(text.replace(command, broken, 1), encoding="utf-8")
    folder = tmp_path / "run"
    folder.mkdir()
    done = run_readme(copy, folder)
    assert done.returncode != 0
    line = first.line + first.lines.index(command)
    assert f"README command failed: README.md:{line}: {broken.strip()}" in done.stderr


@pytest.mark.parametrize(
    ("ruleset", "prefix"),
    [("fighting-spirit", "fs"), ("mass-combat", "mc"), ("disorder", "dis"), ("grimdark", "gf")],
)
def test_each_ruleset_walkthrough_plays_a_whole_small_campaign(ruleset: str, prefix: str) -> None:
    """Muster, a battle, steps between, a second battle, a disputed roll audited, an undo."""
    codes = ["\n".join(b.lines) for b in blocks(ROOT / "README.md") if not b.skipped]
    (walkthrough,) = [  # the ruleset's own walkthrough: the one that audits a roll (not an import's)
        code
        for code in codes
        if f"--ruleset {ruleset}" in code and f"campaign {prefix} " in code and "campaign audit" in code
    ]
    assert re.search(rf"campaign {prefix} (muster|raise|buy) ", walkthrough)
    battles = re.findall(rf"^campaign {prefix} (?:battle-start|battle) ", walkthrough, re.MULTILINE)
    assert len(battles) >= 2, battles
    first_end = walkthrough.index(f"campaign {prefix} battle-end" if prefix != "mc" else "campaign mc battle ")
    second = walkthrough.index(f"campaign {prefix} battle", first_end + 1)
    between = walkthrough[first_end:second].splitlines()[1:]
    assert any(line.startswith("campaign ") for line in between), "no step between the battles"
    assert re.search(r"^campaign audit --roll \d+", walkthrough, re.MULTILINE)
    assert re.search(r"^campaign undo\b", walkthrough, re.MULTILINE)


def test_every_benchmark_and_server_block_is_skipped_with_a_reason() -> None:
    """What cannot run in a test (a benchmark, a server, the scripts themselves) is marked, never run."""
    for block in blocks(ROOT / "README.md"):
        code = "\n".join(block.lines)
        if "bench/" in code or "campaign serve" in code or code.strip() in {"scripts/demo", "scripts/test"}:
            assert block.skipped, f"README.md:{block.line} would run: {block.lines[0]}"


def test_the_first_walkthrough_says_which_of_its_rolls_verify_flags_and_why(tmp_path: Path) -> None:
    """README's first walkthrough rolled a confidence test by hand (`campaign roll d8 --purpose "3rd
    Squad confidence test"`), a test the rules make (§0.4), and `verify` rightly flagged it as a roll no rule
    consumed (whoever holds the seed could burn such a roll to steer the next). A test the rules make is the
    ruleset command's: README's free rolls are for what no rule covers, and README says verify flags them."""
    first = next(b for b in blocks(ROOT / "README.md") if not b.skipped)
    upto = next(i for i, line in enumerate(first.lines) if line.startswith("campaign verify"))
    commands = first.lines[: upto + 1]
    bin_dir = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAMPAIGN")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", CAMPAIGN_ACTOR="readme")
    text = "set -euo pipefail\n" + "\n".join(commands[:-1]) + "\ncampaign verify --json > verify.json\n"
    done = subprocess.run(["bash", "-c", text], cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    flagged = {f["seq"] for f in orjson.loads((tmp_path / "verify.json").read_bytes())[0]["flags"]}
    rolls = [line for line in commands if line.startswith("campaign roll ")]
    assert len(flagged) == len(rolls) > 0  # each free roll is flagged (a notice: verify exits 0)
    for line in rolls:
        purpose = line.split("--purpose", 1)[1].split("#", 1)[0].lower()
        assert not any(test in purpose for test in ("confidence", "morale", "rally", "reaction", "panic")), line
        assert "no rule" in line.split("#", 1)[1], f"README does not say no rule makes this roll: {line}"
    said = " ".join(line.split("#", 1)[1] for line in first.lines[upto : upto + 2] if "#" in line)
    assert "flags" in said and "no rule consumed" in said

"""Run a Markdown file's shell blocks as a script (issue 13: README's walkthroughs are executed as tests).

The rule, also stated in README.md:
* every block fenced as ```sh, ```bash or ```shell runs, in the order it appears;
* a block right after an HTML comment `<!-- not run: REASON -->` (blank lines between allowed) is skipped —
  kept for what cannot run in a test: `scripts/demo` and `scripts/test` themselves, `campaign serve`,
  benchmarks, activating a virtualenv the test does not have;
* blocks fenced without a language (the layout) or with another language are text, never run.

All the runnable blocks become one bash script (`set -eo pipefail`) whose line N is the Markdown file's line N
(prose and skipped blocks become blank lines), so a failing command is named by its line in the file. A
command meant to fail must say so in the file itself (`! campaign …`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

RUN_LANGUAGES = frozenset({"sh", "bash", "shell"})
NOT_RUN = re.compile(r"^\s*<!--\s*not run:\s*(?P<reason>.+?)\s*-->\s*$")
FENCE = re.compile(r"^(?P<fence>```+)\s*(?P<lang>[A-Za-z0-9_+-]*)\s*$")
LOCAL_GUIDE = re.compile(r"\]\((?P<target>[^)\s#]+\.md)(?:#[^)]*)?\)")


@dataclass(frozen=True)
class Block:
    """A fenced block: its language, the line of its first code line (1-based), its lines, why it is skipped."""

    language: str
    first_line: int
    lines: tuple[str, ...]
    skipped: str | None

    @property
    def runs(self) -> bool:
        return self.language in RUN_LANGUAGES and self.skipped is None


def blocks(text: str) -> list[Block]:
    """Every fenced block of a Markdown text, in order."""
    found: list[Block] = []
    lines = text.splitlines()
    i = 0
    pending_skip: str | None = None
    while i < len(lines):
        line = lines[i]
        marker = NOT_RUN.match(line)
        if marker:
            pending_skip = marker.group("reason")
            i += 1
            continue
        fence = FENCE.match(line)
        if fence is None:
            if line.strip():
                pending_skip = None  # a marker covers only the block right after it
            i += 1
            continue
        close = fence.group("fence")
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != close:
            body.append(lines[j])
            j += 1
        if j == len(lines):
            raise ValueError(f"line {i + 1}: a code block is never closed")
        found.append(Block(fence.group("lang").lower(), i + 2, tuple(body), pending_skip))
        pending_skip = None
        i = j + 1
    return found


def script(text: str) -> str:
    """The runnable blocks as one bash script whose line numbers are the Markdown file's."""
    out = [""] * len(text.splitlines())
    for block in blocks(text):
        if block.runs:
            for offset, code in enumerate(block.lines):
                out[block.first_line - 1 + offset] = code
    out[0] = "set -eo pipefail; trap 'echo \"failed at line $LINENO\" >&2' ERR; " + out[0]
    return "\n".join(out) + "\n"


def guides(readme: Path) -> list[Path]:
    """The Markdown files inside the repository that README links to (their blocks run after README's)."""
    root = readme.parent.resolve()
    linked: list[Path] = []
    for match in LOCAL_GUIDE.finditer(readme.read_text(encoding="utf-8")):
        target = (readme.parent / match.group("target")).resolve()
        if target.is_file() and root in target.parents and target not in linked:
            linked.append(target)
    return linked


def environment(actor: str = "readme-test") -> dict[str, str]:
    """The test's environment: the installed `campaign` first on PATH, no CAMPAIGN_DB or CAMPAIGN, a fixed
    actor."""
    env = {k: v for k, v in os.environ.items() if k not in {"CAMPAIGN_DB", "CAMPAIGN", "CAMPAIGN_ACTOR"}}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["CAMPAIGN_ACTOR"] = actor
    env["COLUMNS"] = "100"
    return env


def run_markdown(path: Path, workdir: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run a Markdown file's runnable blocks in `workdir` with bash; the result (not checked)."""
    return subprocess.run(
        ["bash", "-c", script(path.read_text(encoding="utf-8")), path.name],
        cwd=workdir,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )

"""README's walkthroughs are executed as tests (issue 13): every ```sh block of README.md (and of any guide
inside the repository it links to) runs, in order, in one fresh temporary folder, and must succeed as written.

The folder holds a copy of `examples/` (a clone has it; Mass Combat's walkthrough fights its battle file), and
nothing else: no database, `CAMPAIGN_DB` and `CAMPAIGN` unset, a fixed `CAMPAIGN_ACTOR`, and the installed
`campaign` (the one beside this interpreter) first on PATH. The rule for which blocks run is in
tests/e2e/readme_runner.py and in README.md itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.e2e.readme_runner import blocks, guides, run_markdown, script

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
RULESETS = ("fighting-spirit", "mass-combat", "disorder", "grimdark")


def fresh_folder(tmp_path: Path) -> Path:
    work = tmp_path / "fresh"
    work.mkdir()
    shutil.copytree(ROOT / "examples", work / "examples")
    return work


def failure(result: object) -> str:
    return f"exit {getattr(result, 'returncode', '?')}\n--- stderr\n{getattr(result, 'stderr', '')[-4000:]}"


@pytest.mark.slow
def test_every_readme_walkthrough_runs_as_written(tmp_path: Path) -> None:
    work = fresh_folder(tmp_path)
    for document in [README, *guides(README)]:
        result = run_markdown(document, work)
        assert result.returncode == 0, f"{document.name}: {failure(result)}"
    # the walkthroughs really played: one campaign per ruleset, in the database they made
    listing = run_markdown_command(work, "campaign list --json")
    for ruleset in RULESETS:
        assert f'"{ruleset}"' in listing, listing


def run_markdown_command(work: Path, command: str) -> str:
    doc = work / "one.md"
    doc.write_text(f"```sh\n{command}\n```\n", encoding="utf-8")
    result = run_markdown(doc, work)
    assert result.returncode == 0, failure(result)
    return result.stdout


def test_each_ruleset_walkthrough_plays_a_whole_campaign() -> None:
    """Muster, a battle, steps between, a second battle, an audited roll and an undo, for every ruleset."""
    text = README.read_text(encoding="utf-8")
    runnable = [block for block in blocks(text) if block.runs]
    prefixes = {"fighting-spirit": "fs", "mass-combat": "mc", "disorder": "dis", "grimdark": "gf"}
    for ruleset, prefix in prefixes.items():
        (code,) = [
            "\n".join(b.lines)
            for b in runnable
            if f"--ruleset {ruleset}" in b.lines[0] and any(f"campaign {prefix} " in line for line in b.lines)
        ]
        assert f"campaign {prefix} muster" in code, ruleset
        battles = code.count(f"campaign {prefix} battle-start") + code.count(f"campaign {prefix} battle ")
        assert battles >= 2, ruleset
        assert "campaign audit --roll" in code and "campaign undo" in code, ruleset


def test_a_broken_command_fails_the_run_and_names_its_line(tmp_path: Path) -> None:
    """The same extraction and execution on a copy of README with one command broken: the run fails, naming the
    README line of the broken command, and what comes after it never runs."""
    lines = README.read_text(encoding="utf-8").splitlines()
    target = next(i for i, line in enumerate(lines) if line.startswith("campaign reveal"))
    lines[target] = "campaign reveal --no-such-option"
    broken = tmp_path / "README.md"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # only the blocks up to the broken one matter: keep the run short by cutting the copy after that block
    end = next(i for i in range(target, len(lines)) if lines[i].startswith("```"))
    broken.write_text("\n".join(lines[: end + 1]) + "\n", encoding="utf-8")
    result = run_markdown(broken, fresh_folder(tmp_path))
    assert result.returncode != 0
    assert f"failed at line {target + 1}" in result.stderr, result.stderr
    assert "Campaigns" not in result.stdout  # `campaign list`, after the broken line, never ran


def test_the_blocks_that_run_and_the_ones_that_do_not() -> None:
    text = "\n".join(
        [
            "# Guide",
            "```sh",
            "echo one",
            "```",
            "<!-- not run: starts a server -->",
            "",
            "```sh",
            "serve forever",
            "```",
            "```",
            "layout, not a command",
            "```",
            "```python",
            "print('not shell')",
            "```",
            "<!-- not run: covers only the block right after it -->",
            "prose in between",
            "```bash",
            "echo two",
            "```",
        ]
    )
    found = blocks(text)
    assert [(b.first_line, b.runs) for b in found] == [(3, True), (8, False), (11, False), (14, False), (19, True)]
    assert found[1].skipped == "starts a server"
    lines = script(text).splitlines()
    assert lines[2] == "echo one" and lines[18] == "echo two"
    assert "serve forever" not in script(text) and "layout" not in script(text)


def test_an_unclosed_block_is_refused() -> None:
    with pytest.raises(ValueError, match="line 2"):
        blocks("text\n```sh\necho never closed\n")


def test_guides_are_the_linked_markdown_files_inside_the_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "guide.md").write_text("```sh\necho guide\n```\n", encoding="utf-8")
    (tmp_path / "outside.md").write_text("# not ours\n", encoding="utf-8")
    readme = repo / "README.md"
    readme.write_text(
        "See [the guide](docs/guide.md#start), [design](../outside.md), [gone](docs/missing.md), "
        "[again](docs/guide.md) and [a site](https://example.org/x.md).\n",
        encoding="utf-8",
    )
    assert guides(readme) == [(repo / "docs" / "guide.md").resolve()]

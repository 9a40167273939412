"""No file of the project cites a tracker issue by its number: the tracker is not in the repository, so a
comment, docstring or page whose reason is a tracker number gives a reader no reason at all. Say the why
instead ("start-up time", "a read must not decode the whole log"). The rules' own text (campaign/RULES*.md)
is quoted as written and is not checked."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITATION = re.compile(r"\b[Ii]ssues? #?[0-9]+")
QUOTED = re.compile(r"campaign/RULES[^/]*\.md")


def cited(text: str) -> list[int]:
    """The numbers (1-based) of the lines of ``text`` that cite a tracker issue by its number."""
    return [n for n, line in enumerate(text.splitlines(), 1) if CITATION.search(line)]


def test_the_pattern_finds_each_way_of_citing_and_nothing_else() -> None:
    word = "iss" + "ue"  # spelt apart, so that this file does not cite one itself
    lines = [
        f"# loads none of it ({word} 13).",
        f'"""{word.title()} 14: what is read is the log',
        f"The targets ({word}s 2 and 14): append",
        f"see {word} #7",
        "rolls #0–#16 re-derived; note: #11 mc pay",
        "an issue with the dice on turn 3 is no citation",
    ]
    assert cited("\n".join(lines)) == [1, 2, 3, 4]


def test_no_tracked_text_file_cites_a_tracker_number() -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    names = [name for name in listed.split("\0") if name and not QUOTED.fullmatch(name)]
    assert len(names) > 100, "git listed too few files: is this the project's own checkout?"
    found = []
    for name in names:
        path = ROOT / name
        if path.is_symlink() or not path.is_file():
            continue  # a link (alembic/) is read where it points; a file deleted but not yet committed is gone
        data = path.read_bytes()
        if b"\0" in data:
            continue  # binary (a compiled catalogue, an image)
        text = data.decode("utf-8", errors="replace")
        found += [f"{name}:{n}" for n in cited(text)]
    assert not found, "say why instead of citing a tracker number: " + ", ".join(found)

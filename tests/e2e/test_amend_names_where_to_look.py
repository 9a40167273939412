"""`amend SEQ` of a command no longer in effect says where to look (a new user amended #98 twice and was told only
"no command in effect at seq 98", though the command was in effect again at #104)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e import walkthroughs
from tests.e2e.test_cli import Cli


def test_amending_an_amended_command_again_names_its_re_run_and_a_seq_past_the_end_is_said(tmp_path: Path) -> None:
    cli = walkthroughs.five_grade(Cli(str(tmp_path / "fs.db")))
    attack = cli.json("fs", "attack", "Company HQ", "--killed", "1", "--dice", "2")["events"][0]["seq"]
    cli("amend", str(attack), "--set", "killed=2", "--yes")
    issued = [e for e in cli.json("log")["events"] if e["type"] == "timeline.command_issued"]
    [rerun] = [e["seq"] for e in issued if e["payload"].get("amends") == attack]
    before = cli.events()
    again = cli("amend", str(attack), "--set", "killed=1", code=2)
    assert f"the command at #{attack} was amended since: it is #{rerun} now (amend that seq)" in again.stderr
    past = cli("amend", "999", "--set", "killed=1", code=2)
    assert f"no event at seq 999: the log runs from #1 to #{before}" in past.stderr
    assert cli.events() == before
    cli("amend", str(rerun), "--set", "killed=1", "--yes")  # the seq it named is the one to amend
    cli("undo")  # that second amendment taken back: the first one's re-run is in effect again
    assert f"it is #{rerun} now" in cli("amend", str(attack), "--set", "killed=1", code=2).stderr
    wounded = cli.json("fs", "attack", "Keno 3rd Squad", "--killed", "1", "--dice", "5")["events"][0]["seq"]
    cli("undo")
    taken_back = cli("amend", str(wounded), "--set", "killed=2", code=2)
    assert f"no command in effect at seq {wounded}: what was there was taken back (`log --all` shows it)" in (
        taken_back.stderr
    )

"""Army lists from other programs' files, imported into a campaign by the reader its ruleset's plug-in declares
(``army_list``: Grimdark Future's reads Army Forge's lists). The command line's ``import-list`` and the page's
upload both ask here whether a campaign's ruleset imports lists, and preview what a list would do."""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign.commands import plugin
from campaign.plugins import RULESETS, load
from events.errors import InvalidInputError

if TYPE_CHECKING:
    from campaign.executor import Ledger
    from campaign.rulesets.command import Plugin
    from campaign.rulesets.hooks import ArmyLists, ListPlan
    from projections.state.campaigns import CampaignInfo


def army_lists(ruleset: str) -> ArmyLists | None:
    """The ruleset's reader of army lists (its plug-in's ``army_list``), or None where it imports none."""
    info = RULESETS.get(ruleset)
    if info is None or info.army_list is None:
        return None
    declared: ArmyLists = load(info.army_list)
    return declared


def imports_lists(ruleset: str) -> bool:
    """Whether a campaign of the ruleset imports army lists (the page shows the upload only then)."""
    info = RULESETS.get(ruleset)
    return info is not None and info.army_list is not None


def lists_of(owner: Plugin) -> ArmyLists:
    """The reader of ``owner``'s army lists; refused in words for a ruleset that imports none."""
    found = army_lists(owner.info.name)
    if found is None:
        raise InvalidInputError.saying("a campaign under {ruleset} imports no army lists", ruleset=owner.info.name)
    return found


def preview(ledger: Ledger, info: CampaignInfo, owner: Plugin, command: object) -> ListPlan:
    """What the list's import ``command`` would do to the campaign as it stands, appending nothing; refused in
    words when the campaign is not of ``owner``'s ruleset."""
    state, tables = ledger.in_force(info, owner)
    return lists_of(owner).plan(state, tables, command)


def campaign_lists(info: CampaignInfo) -> tuple[Plugin, ArmyLists]:
    """The campaign's ruleset and its reader of army lists; refused in words where it imports none."""
    if not imports_lists(info.ruleset):
        raise InvalidInputError.saying(
            "campaign {campaign!r} runs {ruleset}: it imports no army lists", campaign=info.name, ruleset=info.ruleset
        )
    owner = plugin(info.ruleset)
    return owner, lists_of(owner)

"""A campaign found by the name a person typed (or the only one in the database): what every command does
first, with nothing of the executor or the rulesets loaded unless the name is not found as typed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from events.errors import InvalidInputError, NotFoundError

if TYPE_CHECKING:
    from projections.campaigns import CampaignDirectory
    from projections.state.campaigns import CampaignInfo


def find_campaign(directory: CampaignDirectory, campaign: str | None) -> CampaignInfo:
    """A campaign by name or id; with none given, the only campaign in the database."""
    if campaign is None:
        every = directory.all()
        if len(every) == 1:
            return every[0]
        if not every:
            raise NotFoundError.saying(
                "this database has no campaign yet: create one with `campaign new NAME --ruleset …`"
            )
        names = ", ".join(c.name for c in every)
        raise InvalidInputError.saying(
            "this database holds several campaigns ({names}): name one with --campaign", names=names
        )
    found = directory.find(campaign) or directory.get(campaign)
    if found is None:
        from campaign.rulesets.common import did_you_mean, named

        every = directory.all()
        found = named(every, campaign, lambda c: c.name)
        if found is None:
            hint = did_you_mean(campaign, [c.name for c in every])
            raise NotFoundError.saying(
                "no campaign named {name!r} in this database{hint}", name=campaign.strip(), hint=hint
            )
    return found

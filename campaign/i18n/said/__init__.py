"""Each ruleset's explanations rendered when read: one module a ruleset (see :mod:`campaign.i18n.explain`)."""

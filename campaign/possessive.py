"""A name's possessive in English, as the product's sentences say it: "Red 1's", "Saurian Warriors'".

A module of its own, in the lowest layer with :mod:`campaign.typed_as`, importing nothing of the project's, so
that the rules (whose explanations are recorded in English) and the views may both say it."""

from __future__ import annotations


def possessive(name: object) -> str:
    """``name`` owning something: "'s" after it, a lone apostrophe after a name that ends in s ("Robots'")."""
    text = str(name)
    return f"{text}'" if text.endswith(("s", "S")) else f"{text}'s"

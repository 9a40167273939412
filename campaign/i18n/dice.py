"""Dice notation in the reader's words: ``d8`` in English, ``к8`` as seed 000 writes it in Russian, ``k8`` in Polish.

One function says a die (:func:`die_said`) and one a roll's notation (:func:`notation_said`, ``2d6+1`` → ``2к6+1``),
so that the rules' explanations, the log, the page's dice forms and its amend previews say a die one way. The log
and ``--json`` keep the notation as recorded (``d6``); English reads it as recorded.
"""

from __future__ import annotations

import re

from campaign.i18n import DEFAULT, _, language, ngettext

_NOTATION = re.compile(r"^\s*(\d*)\s*d\s*(\d*)\s*(?:([+-]\s*\d+)\s*steps?)?\s*([+-]\s*\d+)?\s*$", re.IGNORECASE)


def die_said(sides: int | str) -> str:
    """One die by its sides, as the reader writes it (``sides`` empty: GURPS's ``3d``, whose die is said alone)."""
    # TRANSLATORS: a die by its sides: d8 in English, к8 as seed 000 writes it, k8 in Polish.
    return _("d{sides}").format(sides=sides)


def notation_said(notation: str) -> str:
    """A roll's dice notation as the reader writes it: the count, the die (:func:`die_said`), a die-step shift
    and a modifier (``d10-1step`` → "к10 −1 шаг"); a notation it cannot read is shown as it is."""
    found = _NOTATION.match(notation)
    if found is None or language() == DEFAULT:
        return notation
    count, sides, step, modifier = found.groups()
    said = count + die_said(sides)
    if step:
        shift = int(step.replace(" ", ""))
        said += " " + ngettext("{shift} step", "{shift} steps", abs(shift)).format(shift=f"{shift:+d}")
    if modifier:
        said += modifier.replace(" ", "")
    return said

"""The reader's language: English (the default and the reference), Russian and Polish.

Three of the four rule texts this ledger plays are Russian and one is Polish; the program speaks to each reader
in the language they chose, while the log stays one language-neutral record (the hashed English text of each
explanation, and canonical values: ``green``, never ``Новобранцы``).

Using it (the API the rest of the code calls)
---------------------------------------------
::

    from campaign.i18n import _, lazy, ngettext

    _("no campaign named {name!r}").format(name=name)            # a message, in the reader's language
    ngettext("{n} man", "{n} men", n).format(n=n)                 # plural forms: Russian and Polish have three
    pgettext("grade", "Shaken")                                   # the same English word in two meanings
    HELP = lazy("SQLite file or postgresql:// URL.")              # a module-level string: translated when shown

* Wrap the whole sentence, with named ``{placeholders}`` (``str.format``), never pieces glued together: word
  order differs between the languages. Format after translating (``_("…{n}…").format(n=n)``).
* ``lazy`` is for strings made at import (help texts, tables of messages): ``str(HELP)`` translates it in the
  language of the moment; it also marks the string for extraction. ``N_`` marks without translating (for strings
  a later call passes through ``_``, as the command line's help texts are: ``campaign.cli.argv.tidy_help``).
* The rules read no catalog: a refusal is ``InvalidInputError.saying(template, **params)`` (``events.errors``),
  said in the reader's language where it is shown (:func:`refusal`); one that says a count is
  ``InvalidInputError.counting("{n} man left", "{n} men left", n=n)`` (``Words.counted`` inside a sentence),
  held by the catalogs as ngettext's message with plural forms and said in the reader's form for the count.
* Numbers, money and dates for people go through :mod:`campaign.i18n.formats` (Babel's CLDR data: ``1 234,5`` in
  Russian, ``1234,5`` in Polish, ``1,234.5`` in English); ``--json`` keeps the numbers.
* The seeds' own words (grade names and letters, troop qualities, markers…) are data, one ``terms.toml`` per
  ruleset beside its ``tables.toml``: :mod:`campaign.i18n.terms` shows a term in the reader's language and reads
  a word typed in any of the three (``--quality Новобранцы`` is ``green``).
* ``campaign rules`` prints the clause in the reader's language: ``campaign/RULES.ru.md`` and ``RULES.pl.md``
  beside the English reference (:mod:`campaign.rules_text`).

Whose language: :func:`language` is the reader's language of the moment, a context variable (``contextvars``)
so that each request of the server (``Accept-Language``, or the account's choice: :func:`negotiate`) and each
thread reads its own. The command line sets it once from ``--lang``, ``CAMPAIGN_LANG`` or the locale
(:func:`campaign.i18n.choice.chosen`); ``with reading_in("pl"): …`` sets it for a block. Rules, folds and
events never read it (nothing under ``campaign/rulesets`` imports this module but the word reading, which accepts
every language alike): what is recorded, and so the hash chain, is the same whatever language its writer reads.
``--json`` is language-neutral: a command run with it speaks English (recorded names, fields, and messages).

Catalogs
--------
``campaign/locale/campaign.pot`` is extracted from the sources (every ``_``, ``ngettext``, ``pgettext``, ``lazy``
and ``N_``), ``campaign/locale/{ru,pl}/LC_MESSAGES/campaign.po`` are the translations (reviewed for the games'
usage: the seeds' terms, not word for word), and ``campaign.mo`` beside each is the compiled catalog the program
reads::

    .venv/bin/python scripts/catalogs.py update    # extract, then merge the new messages into both .po
    .venv/bin/python scripts/catalogs.py compile   # .po → .mo (run after editing a .po, and after a merge)

The ``.mo`` files are compiled by Babel and committed, so a checkout, an editable install, an sdist and a wheel
all carry them with no build step of their own (``tests/unit/test_i18n_catalogs.py`` fails when one is stale).
Measured (2 cores; CPU time, best of 7, a catalog of 1,500 messages): the stdlib's ``gettext`` reads a ``.mo`` in
7 ms, with its import; Babel's ``read_po`` parses the ``.po`` in 117 ms, so reading the sources lazily at run time
would cost each command more than its whole start-up target leaves. An English reader loads no catalog at all.
Babel itself is imported only to format numbers and dates for a Russian or Polish reader (its import and a
locale's CLDR data cost 47–64 ms), never at start-up. The tests (``tests/unit/test_i18n_catalogs.py``) fail when a
message has no Russian or Polish entry, when a translation drops or adds a ``{placeholder}``, and when a plural
message lacks one of its language's forms.

Explanations rendered when read (the plan, and the pattern: :mod:`campaign.i18n.explain`)
-----------------------------------------------------------------------------------------
Every rule application is one ``rules.applied`` event (``events/families/rules.py``): ``ruleset``,
``ruleset_version``, ``rule``, ``clause``, ``battle_id``, ``unit_id``, ``inputs`` (a JSON object), ``dice`` (the
roll indexes it used), ``outcome`` (a JSON object) and ``explanation`` (the English sentence, part of what is
hashed). The rulesets build it from a ``Decision`` (``campaign/rulesets/decision.py``): rule, clause, unit, inputs,
outcome, explanation, the facts it caused and the rolls. ``verify`` compares a re-run by ``(rule, outcome)``,
never by wording, and never by ``inputs`` — so a rule may record more in ``inputs`` without old logs drifting.

The log keeps its recorded English text; a view renders the same decision in the reader's language from the
structure: :func:`campaign.i18n.explain.render` looks up a renderer by ``(ruleset, rule)``; a renderer is a pure
function of the payload, the names of the units (the view's roster), and the rolls the decision used (their
totals, from the ``dice.rolled`` events of the same command, by roll index), returning a sentence through
``_``/``ngettext`` and the seed's terms — or ``None`` when the record holds too little, and the view prints the
recorded English sentence instead (never a half-translated one). In English the recorded sentence is shown as it
is: the renderers are for the other languages, and the tests hold each renderer's English rendering equal to
the recorded explanation, so the two never say different things.

What a renderer needs, and where today's events record too little:

* the unit's name (``unit_id`` → the roster: every view has the names), the roll's faces (``dice`` → the
  ``dice.rolled`` events; the log, ``audit`` and the report read them beside the decision);
* the terms, as recorded values (``from``/``to`` grades, qualities, markers) shown through ``terms.toml``;
* the arithmetic: each rule's inputs must hold every number its sentence states. The five-grade confidence test
  (§0.4, the prototype) recorded ``target``, ``threat``, ``die`` and the rows, but not the threat's parts (which
  row was the highest base row, what each "+" row added) nor the leader's LV: it now records ``lv`` and
  ``threat_parts`` too (``[row, value, count]``); a test recorded before renders from what it has (LV is target −
  threat; the parts are left out), and outcomes are unchanged, so old logs verify as before.
* Rules whose explanations are built from several sub-decisions (Mass Combat's battle, with its contest,
  catastrophes, casualties and PCs; disorder's check with its causes) record their totals in ``outcome`` but many
  of the terms of their sums only in the English text: each needs its terms in ``inputs`` the same way, rule by
  rule, before its renderer can be written. Refusals (``InvalidInputError``) are not recorded and are simply
  wrapped in ``_`` where they are raised.

Each ruleset's renderers are a module in its folder, ``campaign/rulesets/<package>/said.py`` (imported when a view first
renders one of its decisions): every rule of disorder and Grimdark, every rule of five-grade morale (its rally
and psi too), and Mass Combat's battle days, results, battle ends (with the units' experience), Morale rolls,
year records, catastrophes, PC battle skill, Survival and Glory rolls, strategy contests, casualties, paydays and
unpaid days.
Where a rule's English sentence stated a term its record lacked, the rule now records it in ``inputs`` (a check's
terms, a reward's reasons, a wound's starting size, a rally's communication step, what a psi success did, a
payday's sentence and sums, a catastrophe's effects…); a record made before says what it has or renders as
recorded. The strategy contest's modifiers the rules name are said in the reader's words; a circumstance or a
position is shown as the set-up or the tables name it.
``tests/e2e/test_lang_explained.py`` holds every renderer's English to the recorded sentence over the demo's
logs and every fixture log.

Command help (a command's docstring and its fields' descriptions, which no call marks) is extracted from the
built command tree (``campaign.cli.help_texts``) for the groups in :data:`campaign.i18n.catalogs.HELP_GROUPS`
(every group and command, and the program's own options). The page's generated forms say the same descriptions
through the same messages (:func:`help_said`), and their labels, choices and summaries are extracted from the
command models (``campaign.server.forms.form_texts``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from campaign.plugins import installed

if TYPE_CHECKING:
    import gettext as _gettext

LANGUAGES = ("en", "ru", "pl")
"""The languages the program speaks, English first (the default, and the language of the log)."""
DEFAULT = "en"
NATIVE_NAMES = {"en": "English", "ru": "Русский", "pl": "Polski"}
"""Each language by its own name, as a language switch offers it."""
DOMAIN = "campaign"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_reader: ContextVar[str] = ContextVar("campaign_reader_language", default=DEFAULT)


def language() -> str:
    """The reader's language of the moment: ``en``, ``ru`` or ``pl``."""
    return _reader.get()


def use(lang: str) -> Token[str]:
    """Make ``lang`` the reader's language from here on (the command line, once); returns the token that
    :func:`restore` takes back."""
    if lang not in LANGUAGES:
        raise ValueError(f"not a language of the program: {lang!r}")
    return _reader.set(lang)


def restore(token: Token[str]) -> None:
    _reader.reset(token)


@contextmanager
def reading_in(lang: str) -> Iterator[str]:
    """``with reading_in("ru"): …``: the block reads in ``lang`` (a server request, a test), then as before."""
    token = use(lang)
    try:
        yield lang
    finally:
        _reader.reset(token)


def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang``, and behind it each installed plug-in ruleset's own (its messages the
    program's catalog has no entry for: gettext's fallback), read once per process on first use; English needs
    none."""
    return _translations(lang, installed().catalogs)


@cache
def _translations(lang: str, plug_ins: tuple[Path, ...]) -> _gettext.NullTranslations:
    import gettext as _gettext  # not at start-up: an English reader never loads it

    if lang == DEFAULT:
        return _gettext.NullTranslations()
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with path.open("rb") as handle:
        found = _gettext.GNUTranslations(handle)
    for folder in plug_ins:
        own = folder / lang / "LC_MESSAGES" / "messages.mo"
        if own.is_file():
            with own.open("rb") as handle:
                found.add_fallback(_gettext.GNUTranslations(handle))
    return found


def _(message: str) -> str:
    """``message`` in the reader's language (itself when it has no translation, or in English)."""
    lang = _reader.get()
    if lang == DEFAULT:
        return message
    return translations(lang).gettext(message)


gettext = _


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` of a message with plural forms: two in English, three in Russian and Polish (the
    catalogs' own ``Plural-Forms`` say which)."""
    lang = _reader.get()
    if lang == DEFAULT:
        return singular if n == 1 else plural
    return translations(lang).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in its ``context`` (the same English word with two meanings, translated apart)."""
    lang = _reader.get()
    if lang == DEFAULT:
        return message
    return translations(lang).pgettext(context, message)


def help_said(text: str) -> str:
    """A help text in the reader's language, looked up as the catalogs hold it: on one line (a docstring's
    paragraph, wrapped over lines, is one message). The command line's help and the page's forms, which say the
    same fields' descriptions, read them through here: one translation of each text. English: the one line."""
    one_line = " ".join(text.split())
    return _(one_line) if one_line else one_line


def N_(message: str) -> str:  # noqa: N802 (gettext's own name for a marker)
    """Marks ``message`` for the catalogs without translating it: a later ``_(text)`` does."""
    return message


class lazy:  # noqa: N801 (reads as the call it stands for)
    """A message made at import and translated each time it is shown (``str(x)``, ``f"{x}"``, ``x.format``)."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message

    def __str__(self) -> str:
        return _(self.message)

    def __repr__(self) -> str:
        return f"lazy({self.message!r})"

    def format(self, *args: object, **kwargs: object) -> str:
        return str(self).format(*args, **kwargs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, lazy) and other.message == self.message

    def __hash__(self) -> int:
        return hash(self.message)


def negotiate(accept_language: str | None, default: str = DEFAULT) -> str:
    """The reader's language from an HTTP ``Accept-Language`` header: the first of its tags, by quality, that
    the program speaks (``ru-RU,ru;q=0.9,en;q=0.8`` → ``ru``; ``de, pl;q=0.5`` → ``pl``), else ``default``."""
    if not accept_language:
        return default
    ranked: list[tuple[float, int, str]] = []
    for order, item in enumerate(accept_language.split(",")[:32]):  # a hostile header is cut, not parsed whole
        tag, _sep, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, val = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(val)
                except ValueError:
                    quality = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and quality > 0:
            ranked.append((-quality, order, primary))
    return min(ranked)[2] if ranked else default


def refusal(error: BaseException) -> str:
    """An error's message in the reader's language: its template translated and filled when it was raised with
    ``CampaignError.saying`` (the rules read no catalog: the words come where they are shown), else its text."""
    words = getattr(error, "words", None)
    if words is None or _reader.get() == DEFAULT:
        return str(error)
    return words_said(words)


def words_said(words: object) -> str:
    """A sentence kept as :class:`events.errors.Words` in the reader's language (its terms in the seed's
    words); any other value as its text."""
    from events.errors import Words

    if not isinstance(words, Words) or _reader.get() == DEFAULT:
        return str(words)
    from campaign.i18n.formats import number
    from campaign.i18n.terms import shown  # the vocabulary is read only when a sentence names a term

    said: str = words.said(_, lambda t: shown(t.ruleset, t.set, t.value), number, ngettext)
    return said

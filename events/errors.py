"""The project's own errors. Driver errors are translated into these once, at the store boundary.

Every error a user can cause derives from :class:`CampaignError`; the CLI prints its message and exits
with :attr:`CampaignError.exit_code`, and nothing has been appended.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Self


class Term:
    """A closed set's recorded value inside a sentence (a grade, ``"shaken"``), said where the sentence is shown
    in the reader's words for it, the seed's own (``Потрясенный``); ``str()`` is the value as recorded.

    The rules name what the value is (its ruleset and set) and read no vocabulary: whoever shows the sentence
    passes :meth:`Words.said` the function that words a term."""

    __slots__ = ("ruleset", "set", "value")

    def __init__(self, ruleset: str, set_name: str, value: str) -> None:
        self.ruleset, self.set, self.value = ruleset, set_name, value

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


class _Grouped(int):
    """A number whose ``{n:,}`` is grouped by the reader's locale; every other format spec is int's own."""

    _group: Callable[[int], str]

    def __new__(cls, value: int, group: Callable[[int], str]) -> _Grouped:
        number = super().__new__(cls, value)
        number._group = group
        return number

    def __format__(self, spec: str) -> str:
        return self._group(int(self)) if spec == "," else int(self).__format__(spec)


Plural = Callable[[str, str, int], str]
"""How a reader's language picks a counted phrase's form: ``ngettext(singular, plural, n)``."""


def english_plural(singular: str, plural: str, n: int) -> str:
    """English's two forms: the singular for one, the plural for any other count."""
    return singular if n == 1 else plural


class Words:
    """A sentence kept as its English template and its fields, so that whoever shows it can say it in the reader's
    language (``campaign.i18n.refusal``) while the rules that made it read no catalog: ``str()`` is the English.

    A field may be :class:`Words` itself (a "did you mean …?" inside a refusal), said in the same language, or a
    :class:`Term`, said by ``term`` (as recorded without it). A sentence that says a count is made by
    :meth:`counted`: its forms are chosen by the reader's plural rule (Russian and Polish have three)."""

    __slots__ = ("params", "plural", "template")

    def __init__(self, template: str = "", /, **params: object) -> None:
        self.template = template
        self.params = params
        self.plural: str | None = None
        """The English plural of a counted sentence (:meth:`counted`); None for a sentence with one form."""

    @classmethod
    def counted(cls, singular: str, plural: str, /, n: int, **params: object) -> Self:
        """A sentence that says the count ``n`` (its ``{n}``, or a verb or noun that agrees with it) in the form
        the reader's language takes for that count: ``Words.counted("{n} die was entered", "{n} dice were
        entered", n=1)``. The catalogs hold it as a message with plural forms (``msgid_plural``), as ngettext's;
        a form may leave the number out ("один человек")."""
        words = cls(singular, n=n, **params)
        words.plural = plural
        return words

    def said(
        self,
        translate: Callable[[str], str],
        term: Callable[[Term], str] | None = None,
        grouped: Callable[[int], str] | None = None,
        plural: Plural | None = None,
    ) -> str:
        """The sentence by ``translate``; its terms by ``term``; a number the template groups (``{n:,}``) by
        ``grouped``, as the reader's locale groups thousands (``100 000`` in Russian); a counted sentence's form
        by ``plural`` (English's two forms without it)."""
        if not self.template:  # nothing to say (gettext's empty message is the catalog's header)
            return ""
        fields = {k: self._field(v, translate, term, grouped, plural) for k, v in self.params.items()}
        if self.plural is None:
            return translate(self.template).format(**fields)
        count = self.params["n"]
        assert isinstance(count, int)  # counted() takes an int
        return (plural or english_plural)(self.template, self.plural, int(count)).format(**fields)

    @staticmethod
    def _field(
        value: object,
        translate: Callable[[str], str],
        term: Callable[[Term], str] | None,
        grouped: Callable[[int], str] | None,
        plural: Plural | None,
    ) -> object:
        if isinstance(value, Words):
            return value.said(translate, term, grouped, plural)
        if isinstance(value, Term):
            return term(value) if term is not None else value.value
        if grouped is not None and isinstance(value, int) and not isinstance(value, bool):
            return _Grouped(value, grouped)
        return value

    def __str__(self) -> str:
        return self.said(lambda text: text)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __bool__(self) -> bool:
        return bool(self.template)


class Label(Words):
    """An input's name in words ("enemy within"), said as the command models name it (the catalogs hold each
    field's words in context "field"); a positional argument, which has none, as the page's form labels it (the
    same words, without a context: "unit name"); itself where no other words are held."""

    __slots__ = ()

    def said(
        self,
        translate: Callable[[str], str],
        term: Callable[[Term], str] | None = None,
        grouped: Callable[[int], str] | None = None,
        plural: Plural | None = None,
    ) -> str:
        key = f"field\x04{self.template}"
        found = translate(key)
        return translate(self.template) if found == key else found


class CampaignError(Exception):
    """Root of every error the project raises on purpose."""

    exit_code = 2
    words: Words | None = None
    """The message as a template and its fields, when it was raised by :meth:`saying`: shown in the reader's
    language where it is shown (the English is the exception's own text)."""

    @classmethod
    def saying(cls, template: str | Words, /, **params: object) -> Self:
        """The error with the message ``template.format(**params)``, kept so that it can be translated where it
        is shown: ``raise InvalidInputError.saying("unknown unit {name!r}", name=name)``; or the sentence
        ``template`` already is (:class:`Words`, made elsewhere: ``params`` are then none)."""
        words = template if isinstance(template, Words) else Words(template, **params)
        error = cls(str(words))
        error.words = words
        return error

    @classmethod
    def counting(cls, singular: str, plural: str, /, n: int, **params: object) -> Self:
        """The error whose message says the count ``n`` in the form the reader's language takes for it
        (:meth:`Words.counted`): ``raise DiceError.counting("{n} die was entered", "{n} dice were entered",
        n=entered)``."""
        return cls.saying(Words.counted(singular, plural, n=n, **params))


class InvalidInputError(CampaignError):
    """A command's input is malformed or impossible (a 7 on a d6, a negative count, an unknown unit)."""


class NotFoundError(CampaignError):
    """A campaign, unit, event or roll that was named does not exist."""


class ConcurrencyError(CampaignError):
    """Another writer appended to the campaign first: re-read and retry."""

    exit_code = 4
    campaign_id: str | None = None
    """The campaign being written, when known (the store sets it)."""


class EventSchemaError(CampaignError):
    """An event does not match its registered schema, or its type is unknown."""


class DiceError(InvalidInputError):
    """A dice notation is malformed, or table dice do not fit it."""


class VerificationError(CampaignError):
    """The log fails a check: a broken hash chain, a forged roll, a gap in the sequence."""

    exit_code = 3


class ConfigurationError(CampaignError):
    """The database or the environment is not usable as configured."""


class DamagedDatabaseError(ConfigurationError):
    """The database file itself is damaged: SQLite calls it malformed (a page overwritten, a file cut short)."""


class CorruptEventError(VerificationError):
    """A stored event can no longer be read: its payload or meta is not JSON, or not of its schema's shape.

    Only a hand edit of the database does this; the message names the campaign and the event."""

    def __init__(self, campaign_id: str, seq: int, type_: str, what: str) -> None:
        super().__init__(
            f"event #{seq} ({type_}) of campaign {campaign_id} is damaged: {what}. The database was edited "
            "outside Campaign Ledger; `campaign verify` names every damaged event"
        )
        self.campaign_id, self.seq, self.type, self.what = campaign_id, seq, type_, what


def json_object(data: bytes | str, not_json: Callable[[str], str], not_object: str) -> dict[str, object]:
    """``data`` as the JSON object it holds; refused in words where it is not JSON (``not_json`` of the parser's
    reason) or holds something other than an object (``not_object``)."""
    import orjson

    try:
        parsed = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise InvalidInputError(not_json(str(exc))) from None
    if not isinstance(parsed, dict):
        raise InvalidInputError(not_object)
    return parsed

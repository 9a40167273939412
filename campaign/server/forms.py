"""A command's form on the page, generated from what its inputs *are* (``campaign/rulesets/inputs.py``).

Nothing here is written per command: each input's meaning gives its control. A unit is a picker of the
campaign's units (a player's own sides' only where the unit must be of the side that acts; none for another side's
unit named for what it did to the player's, the shooter: that is its side's or the game master's to name), a
side a picker of the sides, a closed set a picker of its choices, a flag a tick box, a number a number field
with the model's bounds, a profile or a record a fieldset of its own fields, a list a set of ticks (of units,
sides, choices) or repeatable rows, a mapping rows of a key and its value. Labels and help come from the
fields' descriptions. The same tree reads the form back into the command's inputs (:func:`read`), and a
refusal of the model is put back beside the field it is about (:func:`field_errors`).

Form fields are named by their path: ``profile.quality``, ``deployments.0.unit``, ``motivation.1.key``.

The form speaks the reader's language: a field's help is its description as the command line's help says it,
through the same catalog message (:func:`campaign.i18n.help_said`); its label is the catalogs' message of its
title or name; a choice is the seed's own word where the ruleset's terms name it (``Новобранцы``), else the
catalogs' word for it (context ``choice``). :func:`texts` lists what a model's form says, for the catalogs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from pydantic import BaseModel, ValidationError

from campaign.i18n import _, help_said, pgettext
from campaign.i18n.terms import ruleset_of, vocabulary
from campaign.plugins import RULESETS
from campaign.rulesets.inputs import Kind, Meaning, Whose, meaning_of, meanings
from campaign.rulesets.tables import parse_value
from events.errors import InvalidInputError
from events.recorded import JsonValue

Raw = Mapping[str, Sequence[str]]
"""A sent form: each field's path and the values sent under it (a tick list sends several)."""

ROWS_AT_LEAST = 2
"""Empty rows a list of records or a mapping shows beyond those filled (a row left empty is not an input)."""
ROWS_AT_MOST = 24


@dataclass(frozen=True)
class Choices:
    """What the campaign offers for names: its units with their sides, its sides, its battles and officers;
    ``plays``: the sides a player plays (None: the game master, who may name any)."""

    units: tuple[tuple[str, str], ...] = ()
    sides: tuple[str, ...] = ()
    battles: tuple[str, ...] = ()
    officers: tuple[str, ...] = ()
    plays: frozenset[str] | None = None
    ruleset: str | None = None
    """Whose terms name the choices (the command's ruleset; None: the ledger's own commands)."""

    def own(self, side: str) -> bool:
        return self.plays is None or side.strip().casefold() in {s.strip().casefold() for s in self.plays}


@dataclass
class Widget:
    """One control (or group of them) of a generated form."""

    path: str
    label: str
    control: str
    """text, number, select, checkbox, checks (a list of tick boxes), fieldset, rows."""
    help: str = ""
    required: bool = False
    options: list[tuple[str, str]] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    """Names offered by a text field (a datalist): a new side may still be typed."""
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    value: str = ""
    checked: bool = False
    chosen: set[str] = field(default_factory=set)
    children: list[Widget] = field(default_factory=list)
    rows: list[list[Widget]] = field(default_factory=list)
    error: str = ""
    empty_note: str = ""

    @property
    def id(self) -> str:
        return "f-" + "".join(c if c.isalnum() else "-" for c in self.path)


def _label(name: str, meaning: Meaning) -> str:
    """The field's title where the model gives one ("unit A" for ``a``), else its recorded name in words (in
    English: the catalogs' message)."""
    if meaning.title:
        return meaning.title
    return meaning.key.replace("_", " ") if meaning.key else name.replace("_", " ")


def _choice_set(meaning: Meaning, ruleset: str | None) -> str | None:
    """The set of the ruleset's terms that names every choice of ``meaning`` (the one named after the field
    first), or None."""
    if ruleset is None:
        return None
    words = vocabulary(ruleset)
    wanted = {str(c) for c in meaning.choices}
    sets = [meaning.key, *words.sets()]
    return next((s for s in sets if wanted <= set(words.values(s))), None)


def _choice_words(meaning: Meaning, ruleset: str | None) -> list[tuple[str, str]]:
    """A closed set's choices as (value, what the reader reads): the seed's word, else the catalogs'."""
    named = _choice_set(meaning, ruleset)
    if named is not None and ruleset is not None:
        words = vocabulary(ruleset)
        return [(str(c), words.shown(named, str(c))) for c in meaning.choices]
    return [(str(c), pgettext("choice", _worded(c)) if isinstance(c, str) else str(c)) for c in meaning.choices]


def _worded(choice: object) -> str:
    return str(choice).replace("_", " ")


def called(model: type[BaseModel], name: str) -> str:
    """What a form labels ``model``'s input ``name`` (its field's or recorded name)."""
    return _label(name, meaning_of(model, name))


def _unit_options(meaning: Meaning, choices: Choices) -> list[tuple[str, str]]:
    # a player names only its own sides' units where the unit acts and where it is acted on (what happens to
    # another side's unit is that side's or the GM's: the server refuses it before any die), so a player's picker
    # offers no unit it would be refused; the GM's offers every unit
    mine_only = meaning.whose in (Whose.OWN, Whose.TARGET)
    return [(name, f"{name} ({side})") for name, side in choices.units if not mine_only or choices.own(side)]


def _side_options(meaning: Meaning, choices: Choices) -> list[str]:
    if meaning.whose is Whose.OWN and choices.plays is not None:
        return sorted(choices.plays)
    return list(choices.sides)


def _first(raw: Raw, path: str) -> str:
    got = raw.get(path) or ()
    return str(got[0]).strip() if got else ""


def widget(name: str, meaning: Meaning, path: str, choices: Choices, raw: Raw) -> Widget:
    """The control for one input (``name`` its field, ``path`` its form name), filled from ``raw``."""
    english = _label(name, meaning)
    label = _(english) if english else english  # (a row's label is made by its list)
    base = Widget(
        path,
        label,
        "text",
        help=help_said(meaning.description),
        required=meaning.required and not meaning.optional,
        minimum=meaning.minimum,
        maximum=meaning.maximum,
        max_length=meaning.max_length,
    )
    if meaning.keys is not None:
        return _mapping(meaning, base, choices, raw)
    if meaning.many:
        return _many(meaning, base, choices, raw)
    return _one(meaning, base, choices, raw)


def _one(meaning: Meaning, w: Widget, choices: Choices, raw: Raw) -> Widget:  # noqa: C901, PLR0912 (one case per kind of input)
    kind = meaning.kind
    w.value = _first(raw, w.path)
    if kind is Kind.FLAG:
        w.control, w.required = "checkbox", False
        w.checked = (w.path in raw) if raw else bool(meaning.default)
    elif kind is Kind.NUMBER:
        w.control = "number"
        if not w.value and meaning.default is not None:
            w.value = str(meaning.default)
    elif kind is Kind.CHOICE:
        w.control = "select"
        w.options = _choice_words(meaning, choices.ruleset)
        if not w.value and meaning.default is not None:
            w.value = str(meaning.default)
    elif kind is Kind.UNIT and not meaning.new:
        w.control = "select"
        w.options = _unit_options(meaning, choices)
        if not w.options:
            w.empty_note = _("no unit to choose yet")
    elif kind is Kind.SIDE and not meaning.new:
        offered = _side_options(meaning, choices)
        if meaning.whose is Whose.OWN and choices.plays is not None:
            w.control, w.options = "select", [(s, s) for s in offered]
        elif meaning.whose is Whose.OWN or not offered:  # the game master may name a side not fighting yet
            w.suggestions = offered
        else:
            w.control, w.options = "select", [(s, s) for s in offered]
    elif kind in (Kind.PROFILE, Kind.RECORD) and meaning.model is not None:
        w.control = "fieldset"
        w.children = fields_of(meaning.model, choices, raw, prefix=w.path + ".")
    elif kind is Kind.BATTLE and not meaning.new:
        w.suggestions = list(choices.battles)
    elif kind is Kind.OFFICER:
        w.suggestions = list(choices.officers)
    elif kind is Kind.TEXT and not w.value and isinstance(meaning.default, str):
        w.value = meaning.default
    if w.control == "select" and w.required and not w.value and len(w.options) == 1:
        w.value = w.options[0][0]  # the only choice there is: chosen, a tap saved
    return w


def _rows_sent(raw: Raw, path: str) -> int:
    """How many rows of ``path`` the form sent (``path.N…``)."""
    found = -1
    for key in raw:
        if key.startswith(path + "."):
            head = key[len(path) + 1 :].split(".", 1)[0]
            if head.isdigit():
                found = max(found, int(head))
    return found + 1


def _many(meaning: Meaning, w: Widget, choices: Choices, raw: Raw) -> Widget:
    kind = meaning.kind
    one = replace(meaning, many=False, required=True, optional=False, description="")
    if kind is Kind.UNIT and not meaning.new:
        w.control, w.options = "checks", _unit_options(meaning, choices)
    elif kind is Kind.SIDE:
        w.control, w.options = "checks", [(s, s) for s in _side_options(meaning, choices)]
    elif kind is Kind.CHOICE:
        w.control, w.options = "checks", _choice_words(meaning, choices.ruleset)
    if w.control == "checks":
        w.chosen = {str(v) for v in raw.get(w.path, ())}
        w.required = False
        if not w.options:
            w.empty_note = _("none to choose yet")
        return w
    w.control = "rows"
    many = _rows_sent(raw, w.path)
    wanted = len(choices.units) if kind is Kind.RECORD and _holds_unit(meaning) else 0
    count = min(ROWS_AT_MOST, max(many + 1 if many else 0, wanted, ROWS_AT_LEAST))
    w.rows = [[widget("", replace(one, key=""), f"{w.path}.{i}", choices, raw)] for i in range(count)]
    for i, row in enumerate(w.rows):
        row[0].label = _("{label} {n}").format(label=_(meaning.each) if meaning.each else w.label, n=i + 1)
        row[0].required = False
        for child in row[0].children:
            child.required = False
    return w


def _holds_unit(meaning: Meaning) -> bool:
    return meaning.model is not None and any(m.kind is Kind.UNIT for m in meanings(meaning.model).values())


def _mapping(meaning: Meaning, w: Widget, choices: Choices, raw: Raw) -> Widget:
    assert meaning.keys is not None
    keys = replace(meaning.keys, required=False, optional=False)
    values = replace(meaning, keys=None, many=False, required=False, optional=False, description="")
    w.control = "rows"
    sides = _side_options(keys, choices) if keys.kind is Kind.SIDE else []
    count = min(ROWS_AT_MOST, max(_rows_sent(raw, w.path), len(sides), ROWS_AT_LEAST))
    for i in range(count):
        path = f"{w.path}.{i}"
        k = widget("", keys, f"{path}.key", choices, raw)
        v = widget("", values, f"{path}.value", choices, raw)
        # each labelled by what the model calls it ("joining unit", "joins unit"), else by what it is ("side")
        k.label = _(keys.title or (keys.kind.value if keys.kind.names else "name"))
        v.label = _(meaning.each) if meaning.each else w.label
        if not raw and i < len(sides):
            k.value = sides[i]
        k.required = v.required = False
        w.rows.append([k, v])
    return w


def fields_of(model: type[BaseModel], choices: Choices, raw: Raw, prefix: str = "") -> list[Widget]:
    """The controls for every input of ``model`` (a command, a record or a profile) people type."""
    if choices.ruleset is None:
        choices = replace(choices, ruleset=ruleset_of(model))
    out = []
    for name, meaning in meanings(model).items():
        if not meaning.typed.typed or meaning.kind is Kind.FACES:
            continue  # an input nobody types keeps its default; dice are entered die by die
        if meaning.whose is Whose.ENEMY and choices.plays is not None:
            # another side's unit named for what it did (the shooter): never the acting player's to name, so a
            # player's form has no picker for it (its own units would all be refused; the API refuses the others)
            continue
        out.append(widget(name, meaning, prefix + meaning.key, choices, raw))
    return out


def texts(model: type[BaseModel], where: str) -> Iterator[tuple[str, str | None, str]]:
    """What the form of ``model`` says that is the model's (not a message of the sources): each label, help text
    and choice word, as (message, context, where it is), for the catalogs (``campaign.i18n.catalogs``)."""
    ruleset = ruleset_of(model)
    for name, meaning in meanings(model).items():
        if not meaning.typed.typed or meaning.kind is Kind.FACES:
            continue
        here = f"{where} {meaning.key or name}"
        yield _label(name, meaning), None, here
        if meaning.keys is not None:
            yield meaning.keys.title or (meaning.keys.kind.value if meaning.keys.kind.names else "name"), None, here
        if meaning.each:
            yield meaning.each, None, here
        if meaning.description:
            yield " ".join(meaning.description.split()), None, here
        if meaning.choices and _choice_set(meaning, ruleset) is None:
            for choice in meaning.choices:
                if isinstance(choice, str):
                    yield _worded(choice), "choice", here
        if meaning.kind in (Kind.PROFILE, Kind.RECORD) and meaning.model is not None:
            yield from texts(meaning.model, here)


def form_texts() -> Iterator[tuple[str, str | None, str]]:
    """What the page's generated forms say from the command models (labels, help, choices, each command's
    summary) of every ruleset's commands and the ledger's own: (message, context, where), for the catalogs."""
    from campaign.server.runner import commands_for  # the developer's catalogs command only, never a page

    for ruleset in RULESETS.values():
        for spec in commands_for(ruleset.name):
            yield spec.summary, None, spec.name
            yield from texts(spec.model, spec.name)


class FormError(InvalidInputError):
    """The form's inputs refused before the model is built: each field's problem by its path."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{k.replace('.', ' ').replace('_', ' ')}: {v}" for k, v in errors.items()))


def read(model: type[BaseModel], raw: Raw, prefix: str = "") -> dict[str, JsonValue]:
    """The inputs of ``model`` a sent form holds (by their recorded names), empty optional ones left out;
    :class:`FormError` for what cannot be read as its type (a number that is not one)."""
    errors: dict[str, str] = {}
    out: dict[str, JsonValue] = {}
    for meaning in meanings(model).values():
        if not meaning.typed.typed or meaning.kind is Kind.FACES:
            continue
        path = prefix + meaning.key
        try:
            got = _read(meaning, path, raw, errors)
        except _EmptyError:
            continue
        out[meaning.key] = got
    if errors:
        raise FormError(errors)
    return out


class _EmptyError(Exception):
    """Nothing was given for an input: it is left out (its default applies)."""


def _read(meaning: Meaning, path: str, raw: Raw, errors: dict[str, str]) -> JsonValue:  # noqa: C901, PLR0912 (one case per kind of input)
    kind = meaning.kind
    if meaning.keys is not None:
        found: dict[str, JsonValue] = {}
        values = replace(meaning, keys=None, many=False)
        for i in range(_rows_sent(raw, path)):
            key = _first(raw, f"{path}.{i}.key")
            try:
                value = _read(values, f"{path}.{i}.value", raw, errors)
            except _EmptyError:
                if key:
                    errors[f"{path}.{i}.value"] = _("give a value for {key}").format(key=key)
                continue
            if not key:
                errors[f"{path}.{i}.key"] = _("say which {kind} this value is for").format(
                    kind=_(meaning.keys.kind.value)
                )
                continue
            found[key] = value
        if not found:
            raise _EmptyError
        return found
    if meaning.many:
        if kind in (Kind.UNIT, Kind.SIDE, Kind.CHOICE) and not meaning.new:
            ticked: list[JsonValue] = [str(v) for v in raw.get(path, ()) if str(v).strip()]
            if not ticked and not meaning.required:
                raise _EmptyError
            return ticked
        one = replace(meaning, many=False)
        items: list[JsonValue] = []
        for i in range(_rows_sent(raw, path)):
            try:
                items.append(_read(one, f"{path}.{i}", raw, errors))
            except _EmptyError:
                continue
        if not items and not meaning.required:
            raise _EmptyError
        return items
    if kind in (Kind.PROFILE, Kind.RECORD) and meaning.model is not None:
        inner: dict[str, JsonValue] = {}
        for m in meanings(meaning.model).values():
            if not m.typed.typed:
                continue
            try:
                inner[m.key] = _read(m, f"{path}.{m.key}", raw, errors)
            except _EmptyError:
                continue
        if not inner or (kind is Kind.RECORD and all(v is False for v in inner.values())):
            raise _EmptyError
        return inner
    if kind is Kind.FLAG:
        if path not in raw and not meaning.default:
            raise _EmptyError
        return path in raw
    text = _first(raw, path)
    if not text:
        raise _EmptyError
    if kind is Kind.NUMBER:
        try:
            return int(text)
        except ValueError:
            errors[path] = _("a whole number, not {text!r}").format(text=text)
            raise _EmptyError from None
    if kind is Kind.VALUE:
        return parse_value(text)
    return text


def field_errors(model: type[BaseModel], inputs: Mapping[str, JsonValue]) -> dict[str, str]:
    """Each field the model refuses in these inputs, by its form path, in words (empty: none it can place)."""
    from campaign.i18n import words_said
    from campaign.rulesets.decision import _words

    found: dict[str, str] = {}
    for name, meaning in meanings(model).items():
        if meaning.kind is Kind.PROFILE and meaning.model is not None and isinstance(inputs.get(meaning.key), dict):
            try:
                meaning.model.model_validate(inputs[meaning.key])
            except ValidationError as exc:
                for e in exc.errors():
                    found[".".join([meaning.key, *map(str, e["loc"])])] = words_said(_words(e))
        del name
    try:
        model.model_validate(dict(inputs))
    except ValidationError as exc:
        keys = {m.key: m.key for m in meanings(model).values()} | {n: m.key for n, m in meanings(model).items()}
        for e in exc.errors():
            loc = [str(p) for p in e["loc"] if p != "[key]"]
            if loc and loc[0] in keys:
                loc[0] = keys[loc[0]]
            found.setdefault(".".join(loc), words_said(_words(e)))
    except (InvalidInputError, ValueError):
        pass
    return found


def place(widgets: Sequence[Widget], errors: Mapping[str, str]) -> list[str]:
    """Put each error beside its field (the nearest one whose path leads to it); those with no field left over."""
    by_path: dict[str, Widget] = {}

    def walk(ws: Sequence[Widget]) -> None:
        for w in ws:
            by_path[w.path] = w
            walk(w.children)
            for row in w.rows:
                walk(row)

    walk(widgets)
    left = []
    for path, text in errors.items():
        parts = path.split(".")
        while parts and ".".join(parts) not in by_path:
            parts.pop()
        if parts:
            target = by_path[".".join(parts)]
            target.error = f"{target.error}; {text}" if target.error else text
        else:
            left.append(text)
    return left


# A command amended from its log row: its own form, filled with what the log recorded; what the game master then
# changes in it is the amendment.

FILLED = "_amending"
"""A field every amend form sends (the command's name): a form filled from the log is one that was sent, so a box
left unticked there reads as unticked, never as the input's default."""


def raw_of(model: type[BaseModel], inputs: Mapping[str, JsonValue], prefix: str = "") -> dict[str, list[str]]:
    """The sent form that :func:`read` reads back as ``inputs`` of ``model`` (as the log records them): each field
    by its path, as :func:`fields_of` names it under ``prefix``."""
    out: dict[str, list[str]] = {}
    for meaning in meanings(model).values():
        if meaning.typed.typed and meaning.kind is not Kind.FACES and meaning.key in inputs:
            _fill(meaning, prefix + meaning.key, inputs[meaning.key], out)
    return out


def _fill(meaning: Meaning, path: str, value: JsonValue, out: dict[str, list[str]]) -> None:
    kind = meaning.kind
    if value is None:
        return
    if meaning.keys is not None:
        values = replace(meaning, keys=None, many=False)
        for i, (key, each) in enumerate(value.items() if isinstance(value, Mapping) else ()):
            out[f"{path}.{i}.key"] = [str(key)]
            _fill(values, f"{path}.{i}.value", each, out)
    elif meaning.many:
        items = value if isinstance(value, list | tuple) else ()
        if kind in (Kind.UNIT, Kind.SIDE, Kind.CHOICE) and not meaning.new:
            out[path] = [str(v) for v in items]
            return
        one = replace(meaning, many=False)
        for i, item in enumerate(items):
            _fill(one, f"{path}.{i}", item, out)
    elif kind in (Kind.PROFILE, Kind.RECORD) and meaning.model is not None:
        for m in meanings(meaning.model).values():
            if m.typed.typed and isinstance(value, Mapping) and m.key in value:
                _fill(m, f"{path}.{m.key}", value[m.key], out)
    elif kind is Kind.FLAG:
        if value is True:
            out[path] = ["true"]
    elif isinstance(value, bool):
        out[path] = ["true" if value else "false"]
    else:
        out[path] = [str(value)]


def _recorded(model: type[BaseModel], inputs: Mapping[str, JsonValue]) -> dict[str, JsonValue] | None:
    """``inputs`` as the log records them (the model's JSON by recorded names, defaults included), or None if the
    model refuses them."""
    try:
        dumped: dict[str, JsonValue] = model.model_validate(dict(inputs)).model_dump(mode="json", by_alias=True)
    except (ValidationError, InvalidInputError, ValueError):
        return None
    return dumped


def _shown(model: type[BaseModel]) -> list[Meaning]:
    return [m for m in meanings(model).values() if m.typed.typed and m.kind is not Kind.FACES]


def unshown(model: type[BaseModel], inputs: Mapping[str, JsonValue], prefix: str = "") -> list[str]:
    """The recorded names of the inputs ``model``'s form cannot show as the log recorded them (an input nobody
    types set otherwise than its default, a value its controls would read back as another): those are amended
    as ``INPUT=VALUE``. Each is found by reading the filled form back, so no kind of input is guessed at."""
    try:
        back = read(model, raw_of(model, inputs, prefix), prefix)
    except FormError as exc:
        back = {}
        failed = {path.removeprefix(prefix).split(".", 1)[0] for path in exc.errors}
    else:
        failed = set()
    shown = {m.key for m in _shown(model)}
    out = []
    for key, value in inputs.items():
        if key not in shown:
            rest = {k: v for k, v in inputs.items() if k != key}
            if _recorded(model, rest) != dict(inputs):  # not its default: the form would lose it
                out.append(key)
            continue
        others = {k: v for k, v in inputs.items() if k != key}
        again = _recorded(model, {**others, key: back[key]} if key in back else others)
        if key in failed or again is None or again.get(key) != value:
            out.append(key)
    return out


def filled(model: type[BaseModel], choices: Choices, inputs: Mapping[str, JsonValue], prefix: str = "") -> list[Widget]:
    """``model``'s form filled with ``inputs`` as the log recorded them (a name no longer offered, such as a unit
    since destroyed, is kept as a choice: the form must show what was recorded)."""
    raw: dict[str, Sequence[str]] = {**raw_of(model, inputs, prefix), FILLED: [model.__name__]}
    widgets = fields_of(model, choices, raw, prefix)

    def keep(ws: Sequence[Widget]) -> None:
        for w in ws:
            offered = {value for value, _text in w.options}
            if w.control == "select" and w.value and w.value not in offered:
                w.options.append((w.value, w.value))
            if w.control == "checks":
                w.options += [(v, v) for v in sorted(w.chosen - offered)]
            keep(w.children)
            for row in w.rows:
                keep(row)

    keep(widgets)
    return widgets


def changed(
    model: type[BaseModel], inputs: Mapping[str, JsonValue], raw: Raw, prefix: str = ""
) -> dict[str, JsonValue]:
    """What a sent amend form changes in the recorded ``inputs``: each input it shows whose value now differs,
    as the log would record it (an input emptied takes its default). :class:`FormError` for a field the form or
    the model refuses."""
    try:
        sent = read(model, raw, prefix)
    except FormError as exc:  # said by the inputs' own names, as the model's refusals are
        raise FormError({k.removeprefix(prefix): v for k, v in exc.errors.items()}) from None
    kept = set(unshown(model, inputs, prefix))
    shown = [m.key for m in _shown(model) if m.key in inputs and m.key not in kept]
    candidate = {k: v for k, v in inputs.items() if k not in shown} | {k: sent[k] for k in shown if k in sent}
    try:
        now = model.model_validate(candidate).model_dump(mode="json", by_alias=True)
    except ValidationError:
        raise FormError(field_errors(model, candidate)) from None
    return {k: now[k] for k in shown if now.get(k) != inputs[k]}

"""Rosters as CSV: any ruleset's muster read from a spreadsheet (one row per unit), and the roster views written
as CSV, so that a roster written out and mustered back in gives the same units.

The columns are a muster command's inputs, read off the command model (generic: no list of field names here):
each field under the name it is recorded by (``name``, ``side``, ``xp``…), and each field of a nested model (a
unit's profile: ``models``, ``quality``…) under its own name; a model nested deeper (``non_human``) as
``non_human.st_mod``. A cell is read as its field's type says: a whole number, yes/no for a flag, a list as
items separated by ``;``, a mapping as JSON; an empty cell leaves the field to its default. Every problem names
its row (as a spreadsheet numbers it: the header is row 1) and its column.
"""

from __future__ import annotations

import csv
import io
import types
import typing
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from campaign.i18n import _
from campaign.rulesets.decision import problems_in
from campaign.rulesets.hooks import CsvColumn
from events.errors import CampaignError, InvalidInputError, Words

if TYPE_CHECKING:
    from campaign.rulesets.common import Profiled

TRUE = frozenset({"yes", "y", "true", "1", "x", "✓"})
FALSE = frozenset({"no", "n", "false", "0", ""})
LIST_SEPARATOR = ";"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula in a cell (OWASP's "CSV injection"): a name a player typed,
such as ``=HYPERLINK(…)``, would run when the GM opens the roster. A text cell starting so is written after a
``'`` (shown, never run), and read back without it."""


def _as_text(cell: str) -> str:
    """A text cell written so that no spreadsheet runs it (:data:`FORMULA_STARTS`)."""
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


def _from_text(cell: str) -> str:
    """A text cell as it was before :func:`_as_text` (a name of its own may begin with ``'``: "'Ard Boyz")."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell


THE_FILE = Words("the file")
"""What a refusal calls a file that came with no name of its own."""


class UnreadCellError(ValueError):
    """A cell its field's type cannot read, with why in words (said in the reader's language where shown)."""

    def __init__(self, words: Words) -> None:
        super().__init__(str(words))
        self.words = words


def said_of(error: CampaignError) -> Words | str:
    """An error's message to be said inside another refusal: its words where it was raised with them (so the
    whole refusal is said in the reader's language), else its text."""
    return error.words if error.words is not None else str(error)


@dataclass(frozen=True)
class Column:
    """One input of a muster as a CSV column: its header, where it goes in the command's inputs, its type."""

    header: str
    path: tuple[str, ...]
    annotation: object
    """The field's type as pydantic keeps it (``FieldInfo.annotation``)."""
    required: bool
    new_unit: bool = False
    """The input naming the unit the muster adds (its type, ``NewUnit``, says so): a roster unit's own name."""


def muster_columns(command: type[BaseModel], nested: Mapping[str, type[BaseModel]] | None = None) -> list[Column]:
    """The CSV columns of a muster command: its fields, each field of a model it nests flattened in place of it.

    ``nested`` names the model of a field the command types as plain data (a profile kept as a mapping)."""
    from campaign.rulesets.inputs import Kind, meanings

    columns: list[Column] = []
    read = meanings(command)
    for name, info in command.model_fields.items():
        model = (nested or {}).get(name) or _model_of(info.annotation)
        header = info.alias or name
        if model is not None:
            columns += _flattened(model, (header,), prefix="", required=info.is_required())
        else:
            new_unit = read[name].kind is Kind.UNIT and read[name].new and not read[name].many
            columns.append(Column(header, (header,), info.annotation, info.is_required(), new_unit))
    return columns


def _flattened(model: type[BaseModel], path: tuple[str, ...], *, prefix: str, required: bool) -> list[Column]:
    out: list[Column] = []
    for name, info in model.model_fields.items():
        inner = _model_of(info.annotation)
        key = info.alias or name
        if inner is not None:
            out += _flattened(inner, (*path, key), prefix=f"{prefix}{key}.", required=False)
        else:
            out.append(Column(f"{prefix}{key}", (*path, key), info.annotation, required and info.is_required()))
    return out


def _model_of(annotation: object) -> type[BaseModel] | None:
    """The model a field holds (alone or as optional), if it holds one."""
    for option in (annotation, *typing.get_args(annotation)):
        if isinstance(option, type) and issubclass(option, BaseModel):
            return option
    return None


def _key(header: str) -> str:
    return "_".join(header.strip().casefold().replace("-", " ").split())


@dataclass(frozen=True)
class Musters:
    """A CSV file's rows as a muster's inputs (each with its row number), and the rows left out, with why."""

    rows: list[tuple[int, dict[str, object]]]
    left_out: list[tuple[int, str]]

    def left_out_in_words(self) -> list[str]:
        """Each row left out, a line each in the reader's language (why as its cell has it)."""
        return [
            _("row {number} left out: the unit is no longer serving ({why})").format(number=number, why=why)
            for number, why in self.left_out
        ]


def read_musters(
    data: bytes,
    command: type[BaseModel],
    *,
    nested: Mapping[str, type[BaseModel]] | None = None,
    ignore: Collection[str] = (),
    out_of_service: Collection[str] = (),
    what: str | Words = THE_FILE,
) -> Musters:
    """Each row of a CSV file as the inputs of ``command`` (a muster), with its row number: checked cell by cell
    and, for a nested model, as the model checks it (every problem named by row and column). Columns ``ignore``
    names (a roster view's own, such as ``battles``) are read past; any other column the command does not take
    is refused. A row with a cell under one of ``out_of_service`` (a roster view's "disbanded") is a unit no
    longer serving: left out, and said."""
    text = _text(data, what)
    rows = list(csv.reader(io.StringIO(text), _dialect(text)))
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise InvalidInputError.saying("{what} has no header row: its first row names the columns", what=what)
    columns = {c.header.casefold(): c for c in muster_columns(command, nested)}
    by_key = {_key(c.header): c for c in columns.values()}
    skipped = {_key(i) for i in ignore}
    header: list[Column | None] = []
    for number, cell in enumerate(rows[0], 1):
        found = by_key.get(_key(cell))
        if found is None and _key(cell) not in skipped:
            raise InvalidInputError.saying(
                "{what}, column {number} ({cell!r}) is not a muster input: the columns are {columns}",
                what=what,
                number=number,
                cell=cell.strip(),
                columns=", ".join(c.header for c in columns.values()),
            )
        if found is not None and found in header:
            raise InvalidInputError.saying("{what}: the column {column} is given twice", what=what, column=found.header)
        header.append(found)
    missing = [c.header for c in columns.values() if c.required and c not in header]
    if missing:
        raise InvalidInputError.saying(
            "{what} has no column {columns}: every unit needs it", what=what, columns=", ".join(missing)
        )
    gone = [i for i, cell in enumerate(rows[0]) if _key(cell) in {_key(o) for o in out_of_service}]
    out: list[tuple[int, dict[str, object]]] = []
    left_out: list[tuple[int, str]] = []
    for number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        why = next((row[i].strip() for i in gone if i < len(row) and row[i].strip()), None)
        if why is not None:
            left_out.append((number, why))
            continue
        if len(row) > len(header):
            raise InvalidInputError.saying(
                "{what}, row {number}: {cells} cells under a header of {columns} columns",
                what=what,
                number=number,
                cells=len(row),
                columns=len(header),
            )
        inputs: dict[str, object] = {}
        for column, cell in zip(header, row, strict=False):
            if column is None or not cell.strip():
                if column is not None and column.required:
                    raise InvalidInputError.saying(
                        "{what}, row {number}, column {column}: empty, and every unit needs it",
                        what=what,
                        number=number,
                        column=column.header,
                    )
                continue
            try:
                value = _cell(_from_text(cell.strip()), column.annotation)
            except UnreadCellError as exc:
                raise InvalidInputError.saying(
                    "{what}, row {number}, column {column}: {problem}",
                    what=what,
                    number=number,
                    column=column.header,
                    problem=exc.words,
                ) from None
            _put(inputs, column.path, value)
        _check_nested(command, nested, inputs, number, what)
        out.append((number, inputs))
    if not out:
        raise InvalidInputError.saying("{what} has no unit in service to muster", what=what)
    return Musters(out, left_out)


def _check_nested(
    command: type[BaseModel],
    nested: Mapping[str, type[BaseModel]] | None,
    inputs: dict[str, object],
    number: int,
    what: str | Words,
) -> None:
    """A row's nested model (a unit's profile) checked as the model checks it, each problem by its column."""
    for name, info in command.model_fields.items():
        model = (nested or {}).get(name) or _model_of(info.annotation)
        key = info.alias or name
        if model is None or key not in inputs:
            continue
        try:
            model.model_validate(inputs[key])
        except ValidationError as exc:
            said: list[ErrorDetails] = [{**e, "loc": tuple(str(p) for p in e["loc"])} for e in exc.errors()]
            where = ", ".join(sorted({".".join(str(p) for p in e["loc"]) for e in exc.errors() if e["loc"]})) or key
            raise InvalidInputError.saying(
                "{what}, row {number}, column {column}: {problem}",
                what=what,
                number=number,
                column=where,
                problem=problems_in(said, key),
            ) from None


def _put(inputs: dict[str, object], path: tuple[str, ...], value: object) -> None:
    here = inputs
    for part in path[:-1]:
        nested = here.setdefault(part, {})
        if not isinstance(nested, dict):  # no column's path runs through another's value (muster_columns)
            raise TypeError(f"{'.'.join(path)}: {part} holds {nested!r}, not its fields")
        here = nested
    here[path[-1]] = value


def _cell(cell: str, annotation: object) -> object:
    """A cell as its field's type reads it; :class:`UnreadCellError` in words when it cannot."""
    given = typing.get_args(annotation) if _is_union(annotation) else (annotation,)
    options = [a for a in given if a is not type(None)]
    kinds = [typing.get_origin(a) or a for a in options]
    if bool in kinds:
        folded = cell.casefold()
        if folded in TRUE or folded in FALSE:
            return folded in TRUE
        raise UnreadCellError(Words("{cell!r} is not yes or no", cell=cell))
    if int in kinds:
        # "4+" is how a Quality or a Defense is written (4 or more): read as 4, as "+4" and "1,000" are read
        text = cell.replace(",", "").replace("_", "").removesuffix("+")
        if text.lstrip("+-").isdigit():
            return int(text)
        raise UnreadCellError(Words("{cell!r} is not a whole number", cell=cell))
    if tuple in kinds or list in kinds:
        return [item.strip() for item in cell.split(LIST_SEPARATOR) if item.strip()]
    if dict in kinds:
        try:
            return orjson.loads(cell)
        except orjson.JSONDecodeError:
            raise UnreadCellError(
                Words('{cell!r} is not a mapping written as JSON ({{"name": 1}})', cell=cell)
            ) from None
    return cell  # text, or one of a closed set of words: the model judges it


def _is_union(annotation: object) -> bool:
    return typing.get_origin(annotation) in (typing.Union, types.UnionType)


def _text(data: bytes, what: str | Words) -> str:
    try:
        return data.decode("utf-8-sig")  # a spreadsheet's byte order mark, if it wrote one
    except UnicodeDecodeError:
        raise InvalidInputError.saying(
            "{what} is not UTF-8 text: save it from the spreadsheet as CSV UTF-8", what=what
        ) from None


def _dialect(text: str) -> type[csv.Dialect]:
    """Commas, or the semicolons (or tabs) a spreadsheet in another locale writes."""
    first = text.splitlines()[0] if text else ""
    try:
        delimiter = csv.Sniffer().sniff(first, delimiters=",;\t").delimiter
    except csv.Error:
        return csv.excel
    # Only the delimiter is taken from the header: a header holds no quotes, from which the sniffer concludes
    # that a doubled quote is no quote (so a cell holding one, such as a name with "…" in it, fell apart).

    class Spreadsheet(csv.excel):
        pass

    Spreadsheet.delimiter = delimiter
    return Spreadsheet


# -- writing -------------------------------------------------------------------------------------------------


def written(value: object) -> str:
    """A value as a cell: a flag yes or no, a list its items separated by ``;``, a mapping JSON, nothing for None;
    text (a name, a list of names) so that no spreadsheet runs it as a formula (:func:`_as_text`)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return _as_text(f"{LIST_SEPARATOR} ".join(str(v) for v in value))
    if isinstance(value, dict):
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    return _as_text(value) if isinstance(value, str) else str(value)


def roster_csv(
    columns: Sequence[CsvColumn],
    rows: Sequence[Mapping[str, object]],
    muster: Sequence[Mapping[str, object]] | None = None,
) -> str:
    """The view as CSV: its columns, then the muster inputs it does not show (``muster``: each row's, by header),
    so that mustering from the file gives the same units."""
    headers = [c.header for c in columns]
    shown = {_key(h) for h in headers}
    extra = [h for h in dict.fromkeys(h for m in muster or () for h in m) if _key(h) not in shown]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*headers, *extra])
    for index, row in enumerate(rows):
        given = muster[index] if muster is not None else {}
        writer.writerow([written(c.value(row)) for c in columns] + [written(given.get(h)) for h in extra])
    return out.getvalue()


def muster_values(
    unit: Profiled, columns: Iterable[Column], names: Mapping[str, str] | None = None
) -> dict[str, object]:
    """What a muster of ``unit`` (a roster unit of any ruleset: a name, a side, a profile and what else it keeps)
    would take, by column header: its profile's fields, its name and side, and each other input the unit keeps
    under that name (a unit id as the unit's name, from ``names``)."""
    profile = unit.profile.model_dump(mode="json")
    out: dict[str, object] = {}
    for column in columns:
        head, *rest = column.path
        if rest:
            value: object = profile
            for part in rest:
                value = value.get(part) if isinstance(value, dict) else None
        elif column.new_unit:
            value = unit.name
        else:
            value = getattr(unit, head, None)
            value = (names or {}).get(value, value) if isinstance(value, str) else value
        out[column.header] = value
    return out

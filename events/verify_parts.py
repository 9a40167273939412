"""The per-event parts of :mod:`events.verify`, made for long logs: each payload's schema checked without
building its model, and a roll's own dice checked.

``verify`` has to run at 100k events a second. Building a pydantic model per event, re-encoding the
envelope per event and parsing the notation per roll were most of its time; none of them is needed to verify.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any, Protocol

from pydantic import ValidationError
from pydantic_core import SchemaValidator, core_schema

from events.dice.derive import share_commitment
from events.dice.notation import parse
from events.envelope import RecordedEvent
from events.errors import CampaignError, EventSchemaError
from events.registry import Event, EventRegistry

Fields = Mapping[str, Any]
"""An event's fields as its model holds them (tuples, not lists), by pydantic's validator of the model's fields: of
a hundred types, each check reading the fields its own type declares (a narrowing read per field would be most of
verify's time)."""


class FieldsValidator(Protocol):
    """``SchemaValidator.validate_python`` of a model's fields: ``(fields, extra, fields set)``."""

    def __call__(self, input: object, *, strict: bool | None = None) -> tuple[Fields, object, object]: ...


class Schemas:
    """Each event's payload checked against its type's schema, giving its fields (as the model would hold them).

    For a payload of its type's current version, pydantic's validator of the model's fields alone (its
    ``model-fields`` core schema under the model's own config): the same checks as the model, without building
    the model, a third of the cost. Anything else — an older version (upcast first), an unknown type, a payload
    the fields refuse, a model with its own validators or init — goes through the model itself, which gives the
    verdict and the words of its error. A property test holds the fields' verdicts and values equal to the model's.
    """

    def __init__(self, registry: EventRegistry) -> None:
        self._registry = registry
        self._fields: dict[tuple[str, int], FieldsValidator | None] = {}

    def fields(self, event: RecordedEvent) -> Fields:
        """The event's fields; :class:`CampaignError` when its payload does not match its schema."""
        key = (event.type, event.schema_version)
        try:
            validate = self._fields[key]
        except KeyError:
            validate = self._fields[key] = self.validator(*key)
        if validate is not None and type(event.payload) is dict:
            try:
                return validate(event.payload, strict=False)[0]
            except ValidationError:
                pass  # the model says why, in its own words
        return self.decoded(event)

    def validator(self, name: str, version: int) -> FieldsValidator | None:
        """The fields' validator of a type's current version (None for an older version or an unknown type)."""
        try:
            cls = self._registry.cls_for(name)
        except CampaignError:
            return None
        return fields_validator(cls) if cls.schema_version == version else None

    def decoded(self, event: RecordedEvent) -> Fields:
        """The fields of the event's model, upcast and validated: :class:`CampaignError` when it does not match."""
        return dict(self._decode(event))

    def _decode(self, event: RecordedEvent) -> Event:
        """``registry.decode``, with the model's validator called straight for a payload of the current version."""
        cls = self._registry.cls_for(event.type)  # an unknown type raises here, as decode does
        if cls.schema_version != event.schema_version or type(event.payload) is not dict:
            return self._registry.decode(event)
        try:
            model: Event = cls.__pydantic_validator__.validate_python(event.payload, strict=False)  # a cls, as decoded
        except ValidationError as exc:
            raise EventSchemaError(
                f"{event.type} v{event.schema_version} payload does not match its schema: {exc}"
            ) from None
        return model


def fields_validator(cls: type) -> FieldsValidator | None:
    """``validate_python`` of a model's fields without the model (it returns ``(fields, extra, fields set)``), or
    None when the model is more than its fields: a validator, an init or a root of its own."""
    if not cls.__pydantic_complete__:  # type: ignore[attr-defined]
        cls.model_rebuild()  # type: ignore[attr-defined]
    schema: Any = cls.__pydantic_core_schema__  # type: ignore[attr-defined]
    definitions = None
    if schema.get("type") == "definitions":
        definitions, schema = schema["definitions"], schema["schema"]
    if (
        schema.get("type") != "model"
        or schema.get("custom_init")
        or schema.get("root_model")
        or schema.get("post_init")
        or schema["schema"].get("type") != "model-fields"
    ):
        return None
    fields = schema["schema"]
    if definitions is not None:
        fields = core_schema.definitions_schema(fields, definitions)
    return SchemaValidator(fields, schema.get("config")).validate_python


@lru_cache(maxsize=1024)
def notation_problem(notation: str, count: int, sides: int, modifier: int) -> str | None:
    """What is wrong with a roll's dice against its notation, or None: a campaign rolls a handful of them."""
    try:
        spec = parse(notation)
    except CampaignError as exc:
        return f"notation {notation!r} does not parse: {exc}"
    if (spec.count, spec.sides, spec.modifier) != (count, sides, modifier):
        return f"{count}d{sides}{modifier:+d} does not match its notation {notation}"
    return None


def roll_problem(roll: Fields) -> str | None:
    """What is wrong with a recorded roll (its fields) on its own, or None."""
    count, sides, modifier, faces = roll["count"], roll["sides"], roll["modifier"], roll["faces"]
    problem = notation_problem(roll["notation"], count, sides, modifier)
    if problem is not None:
        return problem
    if len(faces) != count:
        return f"{len(faces)} faces recorded for {count} dice"
    if faces and not (min(faces) >= 1 and max(faces) <= sides):
        bad = next(f for f in faces if not 1 <= f <= sides)
        return f"face {bad} is impossible on a d{sides}"
    if sum(faces) + modifier != roll["total"]:
        return f"total {roll['total']} is not the faces {list(faces)} plus {modifier}"
    if roll["source"] == "seeded" and roll["seed_epoch"] is None:
        return "a seeded roll without a seed epoch"
    return None


def changed_roll(kind: str, fields: Fields, actor: object, entered: bytearray) -> tuple[str, str]:
    """A roll changed on the record since it was rolled: what is wrong with it (a failure), or what to flag.

    ``dice.set_aside``: a die left on the table by a retracted command, rerolled. ``dice.corrected``: table dice
    read wrong, corrected by an amendment; only dice entered at the table (``entered[index]``) can be, never a
    seeded roll."""
    index = fields["roll_index"]
    if kind == "dice.set_aside":
        if not 0 <= index < len(entered):
            return f"sets aside roll {index}, which was never rolled before it", ""
        return "", (
            f"roll {index}, left on the table by a command taken back, was set aside by {actor} (`campaign reroll`): "
            f"{fields['reason']}; the next command to roll those dice rolled new ones"
        )
    if not 0 <= index < len(entered) or not entered[index]:
        return (
            f"corrects roll {index}, which is not dice entered at the table before it: only a table entry can be "
            "corrected, never a seeded roll"
        ), ""
    if list(fields["faces_before"]) == list(fields["faces"]):
        return "", ""  # re-entered as it was, with the dice that were corrected: nothing to flag
    was, now = "+".join(map(str, fields["faces_before"])), "+".join(map(str, fields["faces"]))
    replaced = f"(roll {fields['replaced_by']}) " if fields["replaced_by"] is not None else ""
    return "", (
        f"roll {index} ({fields['notation']}), entered as {was}, corrected to {now or 'no die'} {replaced}by "
        f"{fields['by']} amending seq {fields['amends']}: {fields['reason']}"
    )


def digest(roll: Fields) -> int:
    """A roll's dice as one signed 64-bit number (deterministic: ints hash to themselves, tuples of ints alike)."""
    return hash((roll["count"], roll["sides"], roll["modifier"], tuple(roll["faces"])))


def span(indexes: range) -> str:
    return str(indexes.start) if len(indexes) == 1 else f"{indexes.start}–{indexes.stop - 1}"


class PendingRolls:
    """Seeded rolls awaiting their seed's reveal, by epoch, in a few bytes each (four 64-bit integers and a byte a
    face, rather than a tuple of tuples): on a long campaign whose seed stays secret they are most of its rolls."""

    def __init__(self) -> None:
        self._epochs: dict[int, tuple[array[int], bytearray, list[tuple[int, int, int, int, tuple[int, ...]]]]] = {}
        self.count = 0

    def add(self, epoch: int, seq: int, index: int, sides: int, faces: tuple[int, ...]) -> None:
        held = self._epochs.get(epoch)
        if held is None:  # not setdefault: that built three empty containers a roll to throw them away
            held = self._epochs[epoch] = (array("q"), bytearray(), [])
        ints, face_bytes, odd = held
        self.count += 1
        if faces and max(faces) > 255:  # not a die this program rolls; kept as it is
            odd.append((seq, index, len(faces), sides, tuple(faces)))
            return
        ints.extend((seq, index, len(faces), sides))
        face_bytes.extend(faces)

    def pop(self, epoch: int) -> Iterator[tuple[int, int, int, int, tuple[int, ...]]]:
        """The epoch's rolls, each as (seq, index, count, sides, faces), no longer held."""
        ints, face_bytes, odd = self._epochs.pop(epoch, (array("q"), bytearray(), []))
        self.count -= len(ints) // 4 + len(odd)
        at = 0
        for k in range(0, len(ints), 4):
            count = ints[k + 2]
            yield ints[k], ints[k + 1], count, ints[k + 3], tuple(face_bytes[at : at + count])
            at += count
        yield from odd


def share_problem(
    share: Fields,
    actor: object,
    commitments: Mapping[int, tuple[int, str, str]],
    shares: Mapping[int, list[tuple[int, str, str]]],
    revealed: Mapping[int, bytes],
    first_seeded: Mapping[int, tuple[int, int]],
) -> str | None:
    """What is wrong with a share's commitment (its fields) where it stands in the log, or None."""
    epoch, by = share["epoch"], share["by"]
    if epoch not in commitments:
        return f"a share of entropy for epoch {epoch} committed before its seed's commitment (early)"
    if epoch in revealed:
        return f"a share of entropy for epoch {epoch} committed after its seed was revealed"
    earlier = next((seq for seq, giver, _ in shares.get(epoch, []) if giver == by), None)
    if earlier is not None:
        return f"a second share of entropy from {by} for epoch {epoch} (the first is #{earlier}): one per person"
    if epoch in first_seeded:
        index, seq = first_seeded[epoch]
        return (
            f"a share of entropy for epoch {epoch} committed after roll {index} (#{seq}) had used its seed (late): "
            "the shares make the key of every roll of the epoch"
        )
    if actor != by:
        return f"a share of entropy in the name of {by} entered by {actor}"
    return None


def revealed_shares(epoch: int, shares: tuple[str, ...], committed: list[tuple[int, str, str]]) -> list[str]:
    """What is wrong with the shares a reveal publishes, against those committed for its epoch (in order)."""
    problems = []
    for i, (seq, by, commitment) in enumerate(committed):
        if i >= len(shares):
            problems.append(f"the share of entropy {by} committed at #{seq} (epoch {epoch}) was not revealed (missing)")
        elif share_commitment(shares[i]) != commitment:
            problems.append(
                f"the share of entropy revealed as {by}'s (committed at #{seq}, epoch {epoch}) does not match its "
                "commitment (forged)"
            )
    for extra in shares[len(committed) :]:
        problems.append(f"a share of entropy revealed for epoch {epoch} that was never committed ({extra[:20]!r})")
    return problems

"""The event registry: stable names, duplicate refusal, and upcasting old schema versions."""

from __future__ import annotations

from typing import ClassVar

import pytest

from events.canonical import model_holds_event_json
from events.envelope import RecordedEvent
from events.errors import EventSchemaError
from events.recorded import JsonValue, whole
from events.registry import Event, EventRegistry, registry


def test_every_family_registers_with_a_dotted_stable_name() -> None:
    names = registry.names()
    assert {"campaign.created", "dice.rolled", "dice.seed_revealed", "dice.seed_committed"} <= set(names)
    assert all("." in n for n in names)


def test_a_duplicate_name_is_refused() -> None:
    local = EventRegistry()

    @local.register
    class Marched(Event):
        event_name = "calendar.marched"
        days: int

    with pytest.raises(TypeError, match="already registered"):

        @local.register
        class MarchedAgain(Event):
            event_name = "calendar.marched"
            days: int


def test_old_versions_are_upcast_step_by_step_by_pure_functions() -> None:
    local = EventRegistry()

    @local.register
    class Paid(Event):
        event_name = "economy.paid"
        schema_version: ClassVar[int] = 3
        amount_minor: int
        currency: str

    @local.upcaster("economy.paid", 1)
    def v1_to_v2(data: dict[str, JsonValue]) -> dict[str, JsonValue]:
        return {"amount_minor": whole(data["amount"]) * 100}

    @local.upcaster("economy.paid", 2)
    def v2_to_v3(data: dict[str, JsonValue]) -> dict[str, JsonValue]:
        return {**data, "currency": "$"}

    old = RecordedEvent(1, "c", 1, "economy.paid", 1, {"amount": 7}, {}, "0" * 64, "x")
    assert local.decode(old) == Paid(amount_minor=700, currency="$")
    newer = RecordedEvent(1, "c", 1, "economy.paid", 4, {}, {}, "0" * 64, "x")
    with pytest.raises(EventSchemaError, match="newer than this program"):
        local.decode(newer)


def test_floats_cannot_enter_an_event() -> None:
    local = EventRegistry()

    @local.register
    class Moved(Event):
        event_name = "battle.moved"
        inches: int

    with pytest.raises(ValueError, match="integer"):
        Moved(inches=1.5)  # type: ignore[arg-type]
    with pytest.raises(EventSchemaError, match="unknown event type"):
        local.cls_for("battle.unknown")


def test_an_event_type_is_built_when_first_decoded_and_safely_so_from_many_threads() -> None:
    """Event models are built on first use (start-up builds none it does not need); the server's
    threads may all meet a type for the first time at once, and each still gets the event, checked."""
    from concurrent.futures import ThreadPoolExecutor

    local = EventRegistry()

    @local.register
    class Rested(Event):
        event_name = "calendar.rested"
        days: int
        sides: tuple[str, ...]

    assert not Rested.__pydantic_complete__  # declared, not built
    with ThreadPoolExecutor(8) as pool:
        decoded = list(
            pool.map(lambda d: local.decode_payload("calendar.rested", 1, {"days": d, "sides": ["Keno"]}), range(64))
        )
    assert Rested.__pydantic_complete__
    assert decoded == [Rested(days=d, sides=("Keno",)) for d in range(64)]
    with pytest.raises(EventSchemaError, match="does not match its schema"):
        local.decode_payload("calendar.rested", 1, {"days": 1, "sides": ["Keno"], "extra": 1})


class Counted(Event):
    event_name = "test.counted"
    n: int
    faces: tuple[int, ...] = ()


def test_encode_makes_the_canonical_bytes_once_and_refuses_what_no_event_may_hold() -> None:
    counting = EventRegistry()
    counting.register(Counted)
    encoded = counting.encode(Counted(n=7, faces=(3, 1)))
    assert encoded.payload == {"n": 7, "faces": [3, 1]}
    assert encoded.payload_json == b'{"faces":[3,1],"n":7}'
    with pytest.raises(EventSchemaError, match="64 bits"):
        counting.encode(Counted(n=2**64))


def test_only_the_event_types_that_could_hold_other_values_take_the_full_check() -> None:
    """campaign.created holds free house-rule values; every other family holds integers and strings only. A seed's
    reveal leaves out its empty list of shares of entropy (a serializer, so that reveals without shares keep their
    bytes): it takes the full check too, once per reveal."""
    untrusted = [n for n in registry.names() if not model_holds_event_json(registry.cls_for(n))]
    assert untrusted == ["campaign.created", "dice.seed_revealed"]


FAMILY_SCRIPT = """
import sys
from events.registry import registry
before = sorted(m for m in sys.modules if m.startswith("events.families."))
cls = registry.cls_for("calendar.days_passed")
after = sorted(m for m in sys.modules if m.startswith("events.families."))
print(before, cls.__module__, after)
"""


def test_a_family_is_imported_when_one_of_its_types_is_first_asked_for() -> None:
    """Start-up time: a command meets a few of the event types; the registry imports a family when it needs it."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", FAMILY_SCRIPT], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["[]", "events.families.calendar", "['events.families.calendar']"]


def test_every_event_type_is_found_by_the_prefix_of_its_name() -> None:
    """FAMILIES names, for each prefix, the family modules that declare such types: a type declared elsewhere
    would be unknown to a registry that had not imported its module yet."""
    from events.registry import FAMILIES

    names = registry.names()  # imports every family
    assert len(names) >= 60
    for name in names:
        module = registry.cls_for(name).__module__
        assert module.rpartition(".")[2] in FAMILIES[name.partition(".")[0]], (name, module)
    for unknown in ("battle.nothing", "nofamily.nothing"):
        with pytest.raises(EventSchemaError, match=f"unknown event type '{unknown}'"):
            registry.cls_for(unknown)


THREADS_SCRIPT = """
import threading
from events.registry import registry
barrier = threading.Barrier(8)
found, errors = [], []
def ask():
    barrier.wait()
    try:
        found.append(registry.cls_for("battle.started").__name__)
    except Exception as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=ask) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(sorted(set(found)), len(found), errors)
"""


def test_threads_meeting_a_family_first_at_once_all_find_its_types() -> None:
    """The server's threads may ask for a type of a family not imported yet at the same moment: none is told the
    type is unknown while another is still importing its family."""
    import subprocess
    import sys

    for _ in range(5):
        run = subprocess.run([sys.executable, "-c", THREADS_SCRIPT], capture_output=True, text=True, check=True)
        assert run.stdout.split() == ["['BattleStarted']", "8", "[]"]

"""Every command by its stable name, and the rulesets' plug-ins, loaded only when a campaign needs one.

A command's name starts with its ruleset's prefix (``gf.shoot``: Grimdark Future) or ``ledger.`` for the
commands of no ruleset; so a recorded name finds its model without loading the other rulesets. Recorded
inputs of an older ``schema_version`` are read through the ruleset's upcasters; version 0 is what the program
recorded before commands were models (the service methods' parameter names).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from pydantic import ValidationError

from campaign.rulesets import RULESETS, by_prefix, installed, load, ruleset
from campaign.rulesets.command import BaseCommand, Command, Overridden, Plugin, Ruleset
from campaign.rulesets.tables import Override, RuleTables
from campaign.tables import base_values, house_rule_refusals
from campaign.typed_as import typed
from events.errors import InvalidInputError, Words
from events.registry import registry
from projections.fold import RulesetFold

__all__ = ["BaseCommand", "Command", "command_type", "fold_for", "plugin", "recorded_command", "tables_in_force"]


def _read_plugins() -> None:
    installed()  # registers each ruleset's own event families


S = TypeVar("S", bound=Overridden)
T = TypeVar("T", bound=RuleTables)

registry.discover = _read_plugins  # a ruleset's own event types are found through its plug-in


@functools.cache
def plugin(name: str) -> Plugin:
    """The rules of the ruleset called ``name`` on the command line (its plug-in's ``rules``, imported now)."""
    info = ruleset(name)
    declared = load(info.rules_ref)
    if not isinstance(declared, Ruleset) or declared.info != info:
        raise InvalidInputError.saying(
            "the ruleset {name!r} is installed but its rules ({rules}) are not its own", name=name, rules=info.rules_ref
        )
    return declared


@functools.cache
def fold_for(name: str) -> RulesetFold[Any] | None:
    """The ruleset's campaign fold, or None for a name that is not a ruleset (what projections are handed)."""
    # Untyped: the fold of a ruleset named at run time, of that ruleset's own state type. "A fold of some state" has
    # no type in Python (no existential types), and RulesetFold is invariant in its state (``apply`` takes and
    # gives one), so a RulesetFold[object] would hold no ruleset's fold.
    if name not in RULESETS:
        return None
    # The fold's own module, not the plug-in: reading a campaign needs no command models (a test checks it is
    # the plug-in's make_fold), and loading them costs a read command a tenth of its start-up.
    info = ruleset(name)
    make_fold = load(f"{info.fold_module}:make_fold")
    folded: RulesetFold[Any] = make_fold(base_values(info.package))
    return folded


def tables_in_force(declared: Ruleset[S, T], overrides: Iterable[Override]) -> T:
    """The ruleset's tables as shipped, with the campaign's house rules applied (checked against its model)."""
    package = declared.info.package
    found = _IN_FORCE.get(package)
    if found is None:
        from campaign.rulesets.tables import tables_in_force_cache

        model = declared.tables_type
        refused = house_rule_refusals(package)
        found = _IN_FORCE.setdefault(
            package, tables_in_force_cache(base_values(package), lambda v: model.of(v, refused))
        )
    tables = found(overrides)
    assert isinstance(tables, declared.tables_type)  # built by that very model (and cached under its package)
    return tables


_IN_FORCE: dict[str, Callable[[Iterable[Override]], RuleTables]] = {}
"""Each ruleset's tables under a set of house rules, built and checked against its model once per set."""


@functools.cache
def _by_name(prefix: str) -> dict[str, type[BaseCommand]]:
    if prefix == "ledger":
        from campaign.rulesets.common import COMMON  # the ruleset-less commands: not what reading a campaign needs

        return {c.name: c for c in COMMON}
    info = by_prefix(prefix)
    if info is None:
        return {}
    return {c.name: c for c in plugin(info.name).commands}


def command_type(name: str) -> type[BaseCommand]:
    found = _by_name(name.partition(".")[0]).get(name)
    if found is None:
        raise InvalidInputError.saying("{command} cannot be run by this version of the program", command=name)
    return found


def entered_command_type(name: str) -> type[BaseCommand]:
    """The command a person named, as the log records it or as the CLI spells it (``gf.battle-start`` for
    ``gf.battle_start``: no two recorded names differ only there), or refused in words with the names close to it
    (a recorded name this program does not know is :func:`command_type`'s refusal, not this one)."""
    prefix = name.partition(".")[0]
    known = _by_name(prefix)
    found = known.get(name) or known.get(name.replace("-", "_"))
    if found is not None:
        return found
    from campaign.rulesets.common import did_you_mean  # the ruleset-less commands: only when refusing

    raise InvalidInputError.saying(
        "there is no command called {name!r}{hint}", name=name, hint=did_you_mean(name, known)
    )


def ledger_command(command: BaseCommand) -> Command[None, None]:
    """``command`` as a command of no ruleset (``ledger.``: it decides on no state and no tables), or refused."""
    from campaign.rulesets.common import COMMON

    if not isinstance(command, COMMON):
        raise InvalidInputError.saying("{command} is a command of a ruleset, not of the ledger", command=command.name)
    return command


def ruleset_of(command: type[BaseCommand]) -> Plugin | None:
    """The plug-in a command belongs to (None for a ``ledger.`` command)."""
    info = by_prefix(command.name.partition(".")[0])
    return plugin(info.name) if info is not None else None


def recorded_command(name: str, version: int | None, args: dict[str, object]) -> BaseCommand:
    """A command as the log recorded it, upcast to the model of today."""
    model = command_type(name)
    owner = ruleset_of(model)
    upcasters = owner.upcasters if owner is not None else {}
    inputs, at = dict(args), version or 0
    while at < model.schema_version:
        step = upcasters.get((name, at))
        if step is not None:
            inputs = step(inputs)
        at += 1
    if at > model.schema_version:
        raise InvalidInputError.saying(
            "{command} was recorded by a newer program (version {version}): upgrade Campaign Ledger",
            command=typed(name, args),
            version=at,
        )
    try:
        return model.model_validate(inputs)
    except ValidationError as exc:
        from campaign.rulesets.decision import problems

        raise InvalidInputError.saying(
            "the recorded inputs of {command} no longer read: {problems}",
            command=typed(name, args),
            problems=problems(exc, Words("inputs")),
        ) from None

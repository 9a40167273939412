"""The message catalogs, made and checked with Babel: extract, update, compile, check.

The developer's command (``scripts/catalogs.py``: it hands this module the help the command line shows)::

    .venv/bin/python scripts/catalogs.py update    # sources → campaign.pot → new messages in each .po
    .venv/bin/python scripts/catalogs.py compile   # each .po → its .mo (committed: see campaign.i18n)
    .venv/bin/python scripts/catalogs.py check     # what the tests check: complete, placeholders kept

The messages are every string passed to ``_``, ``gettext``, ``ngettext``, ``pgettext``, ``lazy``, ``N_``,
``CampaignError.saying`` and ``Words`` (``Words.counted`` and ``CampaignError.counting`` with plural forms) in
``campaign/`` (the server's templates too, by Jinja's extractor), ``events/`` and ``projections/``, and the
command help the command line generates from the command models (no call marks those: the CLI layer reads them
off its command tree, ``campaign.cli.help_texts``, and the caller passes them in, so this layer never looks at
the CLI). A translation is complete when it has every message of the template, none fuzzy, every plural form
its language has (Russian and Polish three), and the same ``{placeholders}`` as its English (Babel's own
checkers look at ``%`` formats only: ours are ``str.format``'s). Not imported by the program: only by the
developer's command and the tests.
"""

from __future__ import annotations

import io
import re
import sys
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from campaign.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = LOCALE_DIR.parent.parent
SOURCES = ("campaign", "events", "projections")
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "lazy": None,
    "N_": None,
    "saying": None,
    "Words": None,
    "counted": (1, 2),  # Words.counted: a sentence that says a count, with plural forms
    "counting": (1, 2),  # CampaignError.counting: a refusal made of one
}
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
PLACEHOLDER = re.compile(r"(?<!\{)\{([^{}!:]*)(?:![rsa])?(?::[^{}]*)?\}(?!\})")


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


FormText = tuple[str, str | None, str]
"""What a page's generated form says from a command model: (message, context, the command and field it is on)."""


def extracted(help_texts: Mapping[str, str], form_texts: Iterable[FormText]) -> Catalog:
    """Every message of the sources, with where it is (file:line, relative to the repository), each of
    ``help_texts`` (a help text → the command it is shown for, ``dis muster --troops``) and each of ``form_texts``
    (what the page's forms say from the models: ``campaign.server.forms.form_texts``)."""
    catalog = Catalog(project="Campaign Ledger", domain=DOMAIN, fuzzy=False)
    for source in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / source,
            method_map=[("**.py", "python"), ("**/templates/**.html", "jinja2.ext:babel_extract")],
            keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",),
        ):
            catalog.add(message, None, [(f"{source}/{filename}", lineno)], auto_comments=comments, context=context)
    for message, where in help_texts.items():
        context, _sep, text = message.rpartition(CONTEXT)  # a field's label: "field" + EOT + its words
        if context:
            catalog.add(text, None, [(where, 0)], auto_comments=("a field of " + where,), context=context)
        elif message not in catalog:
            catalog.add(message, None, [(where, 0)], auto_comments=("help of `campaign " + where + "`",))
    for message, context, where in form_texts:
        if message and catalog.get(message, context) is None:
            catalog.add(message, None, [(where, 0)], auto_comments=(f"on the page's form of {where}",), context=context)
    for note, where in table_notes().items():
        catalog.add(note, None, [(where, 0)], auto_comments=(NOTE_COMMENT,), context=NOTE_CONTEXT)
    return catalog


NOTE_CONTEXT = "provenance"
"""The context of a rule table value's source note (``tables``: "SEED (psi-strike: +3 threat)"): a note may read
like another message of the program, and is translated as a note."""
NOTE_COMMENT = (
    "a rule table value's provenance: keep the tag (SEED, PUB, INF, PLACEHOLDER), erratum ids (R2-17), sections "
    "(§2.11), numbers and quoted seed words as they are"
)
BARE_TAGS = frozenset({"SEED", "SEED-DERIVED", "PUB", "INF", "PLACEHOLDER"})
"""Notes that are a provenance tag alone: said alike in every language, so not messages."""


def _leaf_notes(node: object) -> Iterator[str]:
    if isinstance(node, dict):
        if {"value", "source"} <= set(node) <= {"value", "source", "erratum"}:
            yield str(node["source"])
            return
        for child in node.values():
            yield from _leaf_notes(child)


def table_notes() -> dict[str, str]:
    """Every source note of the built-in rulesets' ``tables.toml`` (but a bare tag) → the file it is first in.
    Read as files, not through the rulesets (this layer is under them): the same leaves ``flatten`` reads."""
    notes: dict[str, str] = {}
    for path in sorted((ROOT / "campaign" / "rulesets").glob("*/tables.toml")):
        where = path.relative_to(ROOT).as_posix()
        for note in _leaf_notes(tomllib.loads(path.read_text("utf-8"))):
            if note not in BARE_TAGS:
                notes.setdefault(note, where)
    return notes


CONTEXT = "\x04"
"""gettext's own separator of a message's context from its text (``msgctxt`` EOT ``msgid``)."""


CORE_COMMANDS = (
    "new", "list", "status", "unit", "battles", "treasury", "career", "log", "roll", "reveal", "entropy", "verify",
    "checkpoint", "audit", "rewind", "amend", "undo", "reroll", "branch", "export", "import", "backup", "rebuild",
    "chart", "report", "rules", "demo", "serve", "invite", "user",
)  # fmt: skip
"""The ledger's own commands (and groups of commands), beside the rulesets' groups."""
HELP_GROUPS = ("", "dis", "gf", "fs", "mc", *CORE_COMMANDS)
"""The commands whose help (each command's docstring, each field's description: generated from the models,
so no call marks them) is in the catalogs: ``""`` the program's own (its help and global options), then each
group or command by its name."""


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def _write_po(catalog: Catalog, path: Path) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=116, omit_header=False, sort_output=False, include_previous=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def update(help_texts: Mapping[str, str], form_texts: Iterable[FormText]) -> None:
    """Write the template from the sources (and ``help_texts``: :func:`extracted`), and merge its new and changed
    messages into each language's .po."""
    template = extracted(help_texts, form_texts)
    _write_po(template, TEMPLATE)
    for lang in TRANSLATED:
        if po_path(lang).exists():
            catalog = read(lang)
            catalog.update(template, no_fuzzy_matching=True)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="Campaign Ledger", fuzzy=False)
            catalog.update(template, no_fuzzy_matching=True)
        _write_po(catalog, po_path(lang))


def compiled(lang: str) -> bytes:
    """The .mo bytes of a language's .po (fuzzy entries are left out, as msgfmt leaves them)."""
    buffer = io.BytesIO()
    write_mo(buffer, read(lang), use_fuzzy=False)
    return buffer.getvalue()


def compile_all() -> None:
    for lang in TRANSLATED:
        mo_path(lang).write_bytes(compiled(lang))


def placeholders(text: str) -> list[str]:
    """The ``str.format`` fields of a message, in order: ``"{unit} lost {n}"`` → ``["unit", "n"]``."""
    return sorted(PLACEHOLDER.findall(text))


def _ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, list | tuple) else (message.id,)


def _strings(message: Message) -> tuple[str, ...]:
    if isinstance(message.string, list | tuple):
        return tuple(message.string)
    return (message.string or "",)


def problems(lang: str, wanted: Catalog) -> Iterator[str]:
    """What keeps ``lang``'s catalog from complete against the template ``wanted``: each missing, empty, fuzzy or
    obsolete entry, each translation that drops or adds a placeholder, each plural message short of its
    language's forms."""
    catalog = read(lang)
    forms = catalog.num_plurals
    for message in wanted:
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        name = repr(_ids(message)[0])
        if found is None:
            yield f"{lang}: no entry for {name}"
            continue
        if found.fuzzy:
            yield f"{lang}: the entry for {name} is fuzzy"
        strings = _strings(found)
        if not all(strings):
            yield f"{lang}: no translation of {name}"
            continue
        if message.pluralizable and len(strings) != forms:
            yield f"{lang}: {name} has {len(strings)} plural forms, {lang} has {forms}"
        english = {p for text in _ids(message) for p in placeholders(text)}
        for text in strings:
            said = set(placeholders(text))
            if said - english:
                yield f"{lang}: {name} adds {', '.join(sorted(said - english))}"
            # A plural form may leave out the count ("one man": "один человек"), never another field.
            missing = english - said - ({"n", "count"} if message.pluralizable else set())
            if missing:
                yield f"{lang}: {name} drops {', '.join(sorted(missing))}"
    ids = {(m.id if not isinstance(m.id, list | tuple) else m.id[0], m.context) for m in wanted if m.id}
    for message in catalog:
        key = (_ids(message)[0], message.context)
        if message.id and key not in ids:
            yield f"{lang}: {key[0]!r} is no longer in the sources (run `update`)"


def main(
    argv: list[str], help_texts: Callable[[], Mapping[str, str]], form_texts: Callable[[], Iterable[FormText]]
) -> int:
    """The developer's command (``scripts/catalogs.py``): ``update``, ``compile`` or ``check`` (the default);
    ``help_texts`` and ``form_texts``: the command line's help for :data:`HELP_GROUPS` and what the page's forms
    say from the models, read only by the commands that need them."""
    command = argv[0] if argv else "check"
    if command == "update":
        update(help_texts(), form_texts())
    elif command == "compile":
        compile_all()
    elif command == "check":
        template = extracted(help_texts(), form_texts())
        found = [p for lang in TRANSLATED for p in problems(lang, template)]
        for problem in found:
            print(problem)
        stale = [lang for lang in TRANSLATED if mo_path(lang).read_bytes() != compiled(lang)]
        for lang in stale:
            print(f"{lang}: {mo_path(lang).name} is older than its .po (run `compile`)")
        return 1 if found or stale else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    # Run as it was before the command moved to scripts/ (it needs the command line's help, which this layer
    # does not import): say where it is rather than do nothing.
    print("the catalogs' command is `.venv/bin/python scripts/catalogs.py update|compile|check`", file=sys.stderr)
    sys.exit(2)

"""Catalogs complete: every message of the sources has a Russian and a Polish entry, each keeps its English's
placeholders and its language's plural forms, and the compiled .mo files are those of the .po sources."""

from __future__ import annotations

import gettext
import io

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from campaign.cli.help_texts import command_help
from campaign.i18n import LOCALE_DIR, catalogs


@pytest.fixture(scope="module")
def template() -> Catalog:
    return catalogs.extracted(command_help(catalogs.HELP_GROUPS))


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_every_message_has_a_complete_translation(lang: str, template: Catalog) -> None:
    assert list(catalogs.problems(lang, template)) == []


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_the_compiled_catalogs_are_those_of_the_sources(lang: str) -> None:
    """A .po edited without `scripts/catalogs.py compile` (or a merge that kept one side's .mo)."""
    assert catalogs.mo_path(lang).read_bytes() == catalogs.compiled(lang)


def test_the_template_holds_every_message_of_the_sources(template: Catalog) -> None:
    with catalogs.TEMPLATE.open("rb") as handle:
        shipped = read_po(handle)
    assert {m.id if isinstance(m.id, str) else tuple(m.id) for m in shipped if m.id} == {
        m.id if isinstance(m.id, str) else tuple(m.id) for m in template if m.id
    }


def test_the_plural_forms_are_cldrs() -> None:
    for lang in catalogs.TRANSLATED:
        assert catalogs.read(lang).num_plurals == 3
        with (LOCALE_DIR / lang / "LC_MESSAGES" / "campaign.mo").open("rb") as handle:
            compiled = gettext.GNUTranslations(handle)
        assert [compiled.ngettext("−{n} grade", "−{n} grades", n) != compiled.ngettext("x", "y", n) for n in (1, 2, 5)]


def _catalog(lang: str, entries: list[tuple[object, object]]) -> Catalog:
    catalog = Catalog(locale=lang)
    for msgid, msgstr in entries:
        catalog.add(msgid, msgstr)  # type: ignore[arg-type]
    buffer = io.BytesIO()
    write_po(buffer, catalog)
    buffer.seek(0)
    return read_po(buffer, locale=lang)


def test_the_check_finds_a_dropped_an_added_and_a_missing_placeholder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The checker itself can fail: each fault is named (a test of the test machinery, on a catalog made here)."""
    wanted = _catalog(
        "ru",
        [
            ("{unit} lost {n}", None),
            ("{unit} rolled {roll}", None),
            (("{n} man of {side}", "{n} men of {side}"), None),
            (("{n} horse of {side}", "{n} horses of {side}"), None),
            ("missing here", None),
            ("left empty", None),
        ],
    )
    shipped = _catalog(
        "ru",
        [
            ("{unit} lost {n}", "{unit} потерял"),  # drops {n}
            ("{unit} rolled {roll}", "{unit} выбросил {roll} {die}"),  # adds {die}
            (("{n} man of {side}", "{n} men of {side}"), ("{n} человек из {side}", "{n} человека из {side}")),  # 2 of 3
            (
                ("{n} horse of {side}", "{n} horses of {side}"),
                ("одна лошадь", "{n} лошади {side}", "{n} лошадей {side}"),
            ),
            ("left empty", ""),
        ],
    )
    monkeypatch.setattr(catalogs, "read", lambda lang: shipped)
    found = list(catalogs.problems("ru", wanted))
    assert "ru: '{unit} lost {n}' drops n" in found
    assert "ru: '{unit} rolled {roll}' adds die" in found
    assert "ru: no translation of '{n} man of {side}'" in found  # its third form is empty
    assert "ru: '{n} horse of {side}' drops side" in found  # "одна лошадь" may leave out the count, not the side
    assert "ru: no entry for 'missing here'" in found
    assert "ru: no translation of 'left empty'" in found


@pytest.mark.parametrize(
    ("text", "fields"),
    [("{unit} lost {n}", ["n", "unit"]), ("{name!r}: {x:>4}", ["name", "x"]), ("{{literal}} {a}", ["a"]), ("", [])],
)
def test_placeholders_are_read_as_str_format_reads_them(text: str, fields: list[str]) -> None:
    assert catalogs.placeholders(text) == fields

"""Names a reader cannot tell apart are refused in words; names of one alphabet, Cyrillic or Polish, are not.

"Kеno" below holds a Cyrillic е (U+0435): it reads as "Keno" and is not it.
"""

from __future__ import annotations

import pytest

from campaign.executor import Ledger
from campaign.rulesets.disorder.commands import Appoint
from campaign.rulesets.fighting_spirit.commands import Muster
from campaign.rulesets.fighting_spirit.plugin import PLUGIN as FIGHTING_SPIRIT
from campaign.rulesets.fighting_spirit.state import CampaignState
from campaign.rulesets.fighting_spirit.tables import Tables
from events.confusables import skeleton
from events.errors import InvalidInputError, Words
from events.limits import check_name
from tests.conftest import Backend, make_ledger

CYRILLIC_KENO = "K\u0435no"
SQUAD = {"quality": "regular", "leadership": 2, "size": 7}


class Fs:
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def muster(self, info: object, name: str, side: str, profile: dict[str, object]) -> None:
        self.ledger.execute(self.ledger.resolve(None), Muster.build(name=name, side=side, profile=profile))

    def state(self, info: object) -> tuple[CampaignState, Tables]:
        return self.ledger.in_force(self.ledger.resolve(None), FIGHTING_SPIRIT, None)


def fighting_spirit(ledger: Ledger) -> Fs:
    return Fs(ledger)


@pytest.fixture
def ledger() -> Ledger:
    made = make_ledger(Backend("memory"))
    made.create_campaign("Otlok Front", "fighting-spirit")
    return made


def test_a_name_mixing_latin_and_cyrillic_in_one_word_is_refused_in_words() -> None:
    with pytest.raises(InvalidInputError, match="mixes alphabets in the word 'K\u0435no'"):
        check_name(CYRILLIC_KENO, "a side")
    assert check_name("Сталь Guard", "a side") == "Сталь Guard"  # two words, each in one alphabet


def test_names_are_kept_nfkc_normalised() -> None:
    assert check_name("\uff2b\uff45\uff4e\uff4f", "a side") == "Keno"  # fullwidth letters are the plain ones
    assert check_name("\U0001d40a\U0001d41e\U0001d427\U0001d428", "a side") == "Keno"  # mathematical bold


def test_look_alikes_share_a_skeleton_and_other_names_do_not() -> None:
    assert skeleton("СОКЕ") == skeleton("Coke")  # all four Cyrillic capitals
    assert skeleton("КЕНО") == skeleton("KEHO") != skeleton("Keno")  # a Cyrillic Н reads as H, not N
    assert skeleton("rnike") == skeleton("mike") and skeleton("bob1") == skeleton("bobl")
    assert skeleton("Żółw") == skeleton("Zolw")  # typed without its accents, as on a keyboard without them
    assert skeleton("Ёжики") == skeleton("Ежики") and skeleton("Пётр") == skeleton("Петр")  # ё typed as е
    assert skeleton("Бой") != skeleton("Бои")  # й is a letter of its own, not и with a mark
    assert skeleton("Кено") != skeleton("Keno")  # the Cyrillic н does not read as n


def test_a_unit_looking_like_one_on_the_roster_is_refused_and_nothing_is_appended(ledger: Ledger) -> None:
    fs = fighting_spirit(ledger)
    fs.muster(ledger.resolve(None), "Coke Guard", "Keno", SQUAD)
    head = ledger.resolve(None).last_seq
    with pytest.raises(InvalidInputError, match="looks like the unit 'Coke Guard'"):
        fs.muster(ledger.resolve(None), "СОКЕ Guard", "Keno", SQUAD)  # Cyrillic capitals, one alphabet a word
    with pytest.raises(InvalidInputError, match="mixes alphabets in the word 'Guаrd'"):
        fs.muster(ledger.resolve(None), "Keno Guаrd", "Keno", SQUAD)  # a Cyrillic а in a Latin word
    assert ledger.resolve(None).last_seq == head


def test_a_side_looking_like_one_of_the_campaign_is_refused(ledger: Ledger) -> None:
    fs = fighting_spirit(ledger)
    fs.muster(ledger.resolve(None), "Keno Guard", "Cape", SQUAD)
    with pytest.raises(InvalidInputError, match="looks like the side 'Cape'"):
        fs.muster(ledger.resolve(None), "Other Squad", "Саре", SQUAD)  # four Cyrillic letters


def test_cyrillic_and_polish_names_of_one_alphabet_are_accepted(ledger: Ledger) -> None:
    fs = fighting_spirit(ledger)
    fs.muster(ledger.resolve(None), "Keno Guard", "Keno", SQUAD)
    fs.muster(ledger.resolve(None), "Сталь", "Кено", SQUAD)
    fs.muster(ledger.resolve(None), "Żółw", "Keno", SQUAD)
    fs.muster(ledger.resolve(None), "Бой", "Кено", SQUAD)
    fs.muster(ledger.resolve(None), "Бои", "Кено", SQUAD)  # й and и are letters of their own
    state, _ = fs.state(ledger.resolve(None))
    assert {u.name for u in state.roster.values()} == {"Keno Guard", "Сталь", "Żółw", "Бой", "Бои"}


@pytest.mark.parametrize(("first", "second"), [("Żółw", "Zolw"), ("Ёжики", "Ежики"), ("Пётр", "петр")])
def test_a_unit_named_as_another_without_its_accents_or_its_yo_is_refused(
    ledger: Ledger, first: str, second: str
) -> None:
    """A group types "Zolw" for "Żółw" and "Ежики" for "Ёжики": a second unit so named would be one the group
    cannot tell from the first when it names it; refused, nothing appended."""
    fs = fighting_spirit(ledger)
    fs.muster(ledger.resolve(None), first, "Keno", SQUAD)
    head = ledger.resolve(None).last_seq
    with pytest.raises(InvalidInputError, match=f"looks like the unit '{first}'"):
        fs.muster(ledger.resolve(None), second, "Keno", SQUAD)
    assert ledger.resolve(None).last_seq == head


def test_an_officer_looking_like_one_with_a_career_is_refused() -> None:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Skirmish", "disorder")
    ledger.execute(ledger.resolve(None), Appoint.build(side="British", officer="Coke"))
    with pytest.raises(InvalidInputError, match="looks like the officer 'Coke'"):
        ledger.execute(ledger.resolve(None), Appoint.build(side="French", officer="СОКЕ"))  # four Cyrillic capitals
    ledger.execute(ledger.resolve(None), Appoint.build(side="French", officer="Dubreton"))


def test_digits_that_read_as_letters_are_look_alikes_and_the_others_are_not(ledger: Ledger) -> None:
    """UTS #39's skeleton: 1 reads as l and as I, 0 as O; a 1 beside an i does not (the dot tells them apart), so
    "Rav1" and "Ravi" are two names a reader tells apart, and "Squad 10" is not "Squad 1"."""
    fs = fighting_spirit(ledger)
    fs.muster(ledger.resolve(None), "Rav1", "Keno", SQUAD)
    for like in ("Ravl", "RavI", "RAVL"):
        with pytest.raises(InvalidInputError, match="looks like the unit 'Rav1'"):
            fs.muster(ledger.resolve(None), like, "Keno", SQUAD)
    fs.muster(ledger.resolve(None), "Ravi", "Keno", SQUAD)
    fs.muster(ledger.resolve(None), "Squad 0", "Keno", SQUAD)
    with pytest.raises(InvalidInputError, match="looks like the unit 'Squad 0'"):
        fs.muster(ledger.resolve(None), "Squad O", "Keno", SQUAD)
    fs.muster(ledger.resolve(None), "Squad 10", "Keno", SQUAD)
    with pytest.raises(InvalidInputError, match="looks like the side 'Keno'"):
        fs.muster(ledger.resolve(None), "Other Squad", "Ken0", SQUAD)
    fs.muster(ledger.resolve(None), "Second Squad", "Keno 2", SQUAD)
    state, _ = fs.state(ledger.resolve(None))
    assert {u.name for u in state.roster.values()} == {"Rav1", "Ravi", "Squad 0", "Squad 10", "Second Squad"}


def test_an_officer_with_a_digit_for_a_letter_is_a_look_alike() -> None:
    ledger = make_ledger(Backend("memory"))
    ledger.create_campaign("Skirmish", "disorder")
    ledger.execute(ledger.resolve(None), Appoint.build(side="British", officer="Nelson"))
    with pytest.raises(InvalidInputError, match="looks like the officer 'Nelson'"):
        ledger.execute(ledger.resolve(None), Appoint.build(side="French", officer="Ne1son"))
    ledger.execute(ledger.resolve(None), Appoint.build(side="French", officer="Neison"))  # an i: another name


def _pc(name: str, side: str) -> dict[str, object]:
    return {"name": name, "side": side, "weapon": 12, "risk": 1}


def test_a_mass_combat_officer_looking_like_another_or_a_career_is_refused() -> None:
    """A battle's player characters and commanders are officers (typed ``OfficerName``): one that reads like a
    career already there, or like another officer of the same battle, is refused, and nothing is appended."""
    from tests.acceptance.mass_combat_table import BLUE, RED, battle, side, two_armies

    war = two_armies()

    def field(name: str, *pcs: dict[str, object], commander: str = "commander") -> dict[str, object]:
        blue = side("Azure", BLUE)
        blue["commander"] = {"strategy": 12, "name": commander}
        return battle(name, side("Crimson", RED), blue, pcs=list(pcs))

    head = war.info.last_seq
    with pytest.raises(InvalidInputError, match="looks like the officer 'Coke'"):
        war.fight(field("Ford", _pc("Coke", "Crimson"), _pc("СОКЕ", "Azure")), [])  # Cyrillic capitals
    with pytest.raises(InvalidInputError, match="'Coke' looks like the officer 'C0ke'"):  # the commanders come first
        war.fight(field("Ford", _pc("Coke", "Crimson"), commander="C0ke"), [])  # a zero for the O
    assert war.info.last_seq == head
    war.fight(field("Ford", _pc("Coke", "Crimson")), [])  # his career begins
    with pytest.raises(InvalidInputError, match="looks like the officer 'Coke'"):
        war.fight(field("Hill", _pc("СОКЕ", "Azure")), [])
    war.fight(field("Hill", _pc("Coke", "Crimson"), _pc("Сталь", "Azure")), [])  # his career goes on; another


def test_a_run_of_spaces_inside_a_name_reads_as_one_space() -> None:
    assert skeleton("Company  HQ") == skeleton("Company HQ") == skeleton("Company \u3000 HQ")
    assert skeleton("CompanyHQ") != skeleton("Company HQ")  # a space a reader sees is no run of them


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("Company HQ\u2800", "2800"),  # the blank Braille pattern prints as a space
        ("\u3164", "3164"),  # a Hangul filler: the whole name looks empty
        ("Keno\u1160", "1160"),
        ("\u115fKeno", "115F"),
        ("Keno \uffa0", "FFA0"),
        ("Keno\u200bGuard", "200B"),  # a zero-width space
        ("Ke\u00adno", "00AD"),  # a soft hyphen, not shown mid-line
        ("Keno\ufe00", "FE00"),  # a variation selector of no emoji
        ("\u200d", "200D"),  # a joiner that joins nothing: nothing shows
        ("Keno \u200dGuard", "200D"),
        ("Keno\u034f", "034F"),  # the combining grapheme joiner
    ],
)
def test_a_name_holding_what_shows_as_nothing_or_a_blank_is_refused_in_words(typed: str, code: str) -> None:
    with pytest.raises(InvalidInputError, match=rf"invisible character \(U\+{code}\): not in a name"):
        check_name(typed, "a unit's name")


def test_an_emoji_name_keeps_its_joiners_and_selectors() -> None:
    flag = "\U0001f3f3\ufe0f\u200d\U0001f308"  # the rainbow flag: a white flag, an emoji selector, a joiner
    assert check_name(f"{flag} Guard", "a unit's name") == f"{flag} Guard"
    assert check_name("Red \u2764\ufe0f", "a unit's name") == "Red \u2764\ufe0f"
    assert skeleton("Red \u2764\ufe0f") == skeleton("Red \u2764")  # the selector alone does not tell them apart


def test_a_unit_named_as_another_with_a_doubled_space_or_a_blank_is_refused(ledger: Ledger) -> None:
    fs = fighting_spirit(ledger)
    fs.muster(ledger.resolve(None), "Company HQ", "Keno", SQUAD)
    head = ledger.resolve(None).last_seq
    with pytest.raises(InvalidInputError, match="looks like the unit 'Company HQ'"):
        fs.muster(ledger.resolve(None), "Company  HQ", "Keno", SQUAD)
    for typed in ("Company HQ\u2800", "\u3164"):
        with pytest.raises(InvalidInputError, match="invisible character"):
            fs.muster(ledger.resolve(None), typed, "Keno", SQUAD)
    assert ledger.resolve(None).last_seq == head


def test_the_blank_refused_in_a_name_is_said_in_russian_and_polish() -> None:
    from campaign.i18n import reading_in, refusal

    with pytest.raises(InvalidInputError) as refused:
        check_name("\u3164", Words("a unit's name"))
    assert (
        str(refused.value) == "a unit's name '\\u3164' holds a control or invisible character (U+3164): not in a name"
    )
    with reading_in("ru"):
        assert refusal(refused.value).endswith(
            "в '\\u3164' есть управляющий или невидимый символ (U+3164): в имени он недопустим"
        )
    with reading_in("pl"):
        assert refusal(refused.value).endswith(
            "'\\u3164' zawiera znak sterujący lub niewidoczny (U+3164): w nazwie jest niedozwolony"
        )


def test_a_look_alike_by_its_spaces_is_said_in_russian_and_polish(ledger: Ledger) -> None:
    from campaign.i18n import reading_in, refusal

    fs = fighting_spirit(ledger)
    fs.muster(ledger.resolve(None), "Company HQ", "Keno", SQUAD)
    with pytest.raises(InvalidInputError) as refused:
        fs.muster(ledger.resolve(None), "Company  HQ", "Keno", SQUAD)
    with reading_in("ru"):
        assert refusal(refused.value).startswith("'Company  HQ' похоже на отряд 'Company HQ', который уже в списке")
    with reading_in("pl"):
        assert refusal(refused.value).startswith(
            "'Company  HQ' wygląda jak oddział 'Company HQ', który już jest w spisie"
        )

"""Text from outside (names in map and quest files, typed options) is cleaned before anyone sees it."""

from __future__ import annotations

import json

import pytest

import i18n
from cogs.lobby import parse_options
from rules.base import BadOptions, RuleError
from rules.heroquest.upload import import_quest
from rules.kings_armory import maps as kmaps
from rules.safe_text import clean_name, clean_text, only_invisible
from tests.heroquest.hs_fixture import xml
from tests.reference import ROOT

RLO, LRI, PDI, ZWSP, ZWJ, LRM, ALM, BOM = "\u202e", "\u2066", "\u2069", "\u200b", "\u200d", "\u200e", "\u061c", "\ufeff"
INVISIBLE = [RLO, "\u202a", "\u202b", "\u202c", "\u202d", LRI, "\u2067", "\u2068", PDI, LRM, "\u200f", ALM,
             ZWSP, "\u200c", ZWJ, "\u2060", BOM, "\x00", "\x07", "\x1b", "\x7f", "\u0085", "\u2028", "\u2029"]


@pytest.mark.parametrize("ch", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_each_control_bidi_and_zero_width_character_is_removed(ch: str) -> None:
    assert clean_name(f"Ca{ch}stle", 60) == "Castle"
    assert only_invisible(ch * 3)
    assert clean_text(f"line{ch} one\nline two", 100) == "line one\nline two"


def test_names_are_one_line_single_spaced_and_bounded() -> None:
    assert clean_name("  The\t\tlong \n road  ", 60) == "The long road"
    assert clean_name("x" * 500, 60) == "x" * 60
    assert clean_name("Río ñandú — ☠️ 塔", 60) == "Río ñandú — ☠️ 塔"  # letters, accents and emoji stay
    assert not only_invisible("   ") and not only_invisible("") and not only_invisible("a" + RLO)


def test_a_mention_in_a_name_reads_as_written_but_is_no_mention() -> None:
    cleaned = clean_name("<@1234> @everyone @here <@&55>", 60)
    assert "@" not in cleaned
    assert cleaned == "<＠1234> ＠everyone ＠here <＠&55>"


def _map(**names: str) -> bytes:
    spec = json.loads((kmaps.CUSTOM_DIR / "river-bend.json").read_text(encoding="utf-8"))
    spec.update(names)
    return json.dumps(spec).encode()


def test_a_map_name_is_cleaned_before_the_lobby_shows_it() -> None:
    spec = kmaps.from_upload(_map(es=f"{RLO}<@1234> mapa{ZWSP}", en="@everyone  river"), "x.json")
    assert spec["es"] == "<＠1234> mapa" and spec["en"] == "＠everyone river"


def test_a_map_name_made_only_of_invisible_characters_is_refused_in_both_languages() -> None:
    with pytest.raises(BadOptions) as refused:
        kmaps.from_upload(_map(es=RLO + ZWSP + LRM, en="Fine"), "x.json")
    for lang, words in (("en", "invisible or control characters"), ("es", "invisibles o de control")):
        assert words in i18n.t(refused.value.reason, lang)


def test_a_map_name_too_long_after_cleaning_is_refused_and_a_file_name_is_cleaned() -> None:
    with pytest.raises(BadOptions):
        kmaps.from_upload(_map(es="x" * 61), "x.json")
    spec = kmaps.from_upload(_map(), "x.json")
    spec.pop("es"), spec.pop("en")
    unnamed = kmaps.from_upload(json.dumps(spec).encode(), f"{RLO}@everyone{ZWJ}.json")
    assert unnamed["es"] == unnamed["en"] == "＠everyone"


def test_a_quest_title_is_cleaned_and_one_made_only_of_invisible_characters_is_refused() -> None:
    imported = import_quest(xml(name=f"{RLO}&lt;@1234&gt; The{ZWSP} Trial"), "q.xml")
    assert imported.setup()["title"] in ({"es": "<＠1234> The Trial", "en": "<＠1234> The Trial"},
                                         "<＠1234> The Trial")
    with pytest.raises(RuleError) as refused:
        import_quest(xml(name=RLO + ZWSP + BOM), "q.xml")
    for lang, words in (("en", "invisible or control characters"), ("es", "invisibles o de control")):
        assert words in i18n.t(refused.value.reason, lang)


def test_an_own_format_quest_name_made_only_of_invisible_characters_is_refused() -> None:
    quest = json.loads((ROOT / "data" / "heroquest" / "quests" / "01_crypt_of_ulfgar.json").read_text(encoding="utf-8"))
    quest["name"] = {"es": RLO + ZWSP, "en": "Fine"}
    with pytest.raises(RuleError) as refused:
        import_quest(json.dumps(quest), "q.json")
    assert "invisible" in i18n.t(refused.value.reason, "en")


def test_typed_options_lose_invisible_characters_and_mention_signs() -> None:
    assert parse_options(f"variant=hy{ZWSP}dra{RLO} waves=5") == {"variant": "hydra", "waves": "5"}
    with pytest.raises(BadOptions) as refused:
        parse_options("@everyone")
    assert "@" not in i18n.t(refused.value.reason, "en")

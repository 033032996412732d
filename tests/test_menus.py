"""Menus and typed moves: pages past 25, counts of what a panel shows, steps in words, typed labels."""

from __future__ import annotations

import discord
import pytest

import i18n
from cogs.plumbing import Wording, bare, named, step_labels, step_title, suggestion
from cogs.ui import (
    PAGE,
    GameButton,
    GameSelect,
    actions_menu,
    build_view,
    button_id,
    choices_line,
    offered,
    options_view,
    paged,
)
from rules.base import Action, Choice, IllegalAction, LegalAction
from rules.text import Lit, Msg, msg

WORDS = Wording()
WORDS.prefix = "ka"


def words(es: str, en: str) -> Msg:
    """A label that is only these words: a message, as every label is (the engine wraps a value the same way,
    `rules.base._value_named`)."""
    return msg("core.step.value", value=Lit(es, en))


def _entries(n: int) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=f"Square {i}", value=f"build/at=S{i}") for i in range(n)]


def _values(options: list[discord.SelectOption]) -> list[str]:
    return [o.value for o in options if not o.value.split("/")[-1].startswith(PAGE)]


def test_a_long_menu_pages_and_every_entry_is_on_some_page() -> None:
    entries = _entries(72)
    seen: list[str] = []
    page, pages = 0, None
    while True:
        shown, page, pages = paged(entries, page, "en", lambda n: f"build/{PAGE}{n}")
        assert len(shown) <= 25
        seen += _values(shown)
        more = [o for o in shown if o.value == f"build/{PAGE}{page + 1}"]
        if not more:
            break
        assert more[0].label == "49 more…" if page == 0 else True
        page += 1
    assert pages == 4 and seen == [e.value for e in entries], "no entry hidden, none twice"
    first, _, _ = paged(entries, 1, "es", lambda n: f"{PAGE}{n}")
    assert first[0].value == f"{PAGE}0" and first[0].label == "Anteriores (1–23)"
    short, _, pages = paged(_entries(25), 0, "en", str)
    assert len(short) == 25 and pages == 1, "25 fit in one menu: no paging entries"


def test_a_step_menu_pages_and_names_its_step() -> None:
    choices = [Choice(f"at=S{i}", words(f"Construir en S{i}", f"Build at S{i}")) for i in range(60)]
    view = build_view(1, 2, ["build"], choices, "en", {}, page=2, title="Where?")
    assert view is not None
    (menu,) = view.children
    assert isinstance(menu, GameSelect)
    options = menu.item.options
    assert menu.item.placeholder == "Where? (page 3 of 3)"
    assert options[0].value == f"build/{PAGE}1" and _values(options)[-1] == "build/at=S59"
    assert offered(view) == 60, "the count is every entry of the menu, over all its pages"


def test_menus_show_descriptions_and_never_hide_an_entry() -> None:
    legal = [LegalAction(Action.of("trade", give="g", get=f"r{i}"), words(f"Cambio {i}", f"Trade {i}"),
                         description=words("Da oro", "Gives gold")) for i in range(30)]
    view = options_view(1, 2, [(msg("bot.menu.actions"), legal)], "en", {})
    assert view is not None
    menus = [c for c in view.children if not isinstance(c, GameButton)]
    assert len(menus) == 1
    menu = menus[0]
    assert isinstance(menu, GameSelect) and len(menu.item.options) == 24
    assert menu.item.options[0].description == "Gives gold"
    assert menu.item.options[-1].value == f"{PAGE}0.1"
    page2 = actions_menu(1, 2, 0, msg("bot.menu.actions"), legal, "en", {}, page=1)
    assert page2 is not None and _values(page2.item.options)[-1] == legal[-1].action.token()


def test_the_count_counts_what_the_panel_shows_once() -> None:
    legal = [LegalAction(Action.of("play", card=f"c{i}"), words(f"Jugar {i}", f"Play {i}")) for i in range(3)]
    view = options_view(1, 2, [(msg("bot.menu.actions"), legal)], "en", {})
    assert view is not None
    custom_id = button_id("a", 1, 2, legal[0].action.token())
    assert custom_id is not None
    view.add_item(GameButton(custom_id, "Play 0"))
    assert offered(view) == 3, "a move on a button and in the menu is one choice"
    assert i18n.t(choices_line(1), "en").startswith("You have one choice below")
    assert i18n.t(choices_line(3), "es").startswith("Tienes 3 opciones abajo") and "/partida jugar" in i18n.t(
        choices_line(3), "es")


def test_typed_labels_with_counts_beginnings_and_words() -> None:
    legal = [LegalAction(Action.of("play_all"), words("Jugar toda la mano (3)", "Play whole hand (3)")),
             LegalAction(Action.of("move", to="D6"), words("Moverse a D6", "Move to D6")),
             LegalAction(Action.of("explore", to="D6"), words("Explorar D6", "Explore D6"))]
    assert bare("Play all (4)") == "Play all" and bare("Gold ×3") == "Gold"
    assert WORDS.pick(legal, "Play whole hand (4)", "en", {}) == legal[0].action, "another count still names it"
    assert WORDS.pick(legal, "play whole hand", "es", {}) == legal[0].action, "an English label for a Spanish user"
    assert WORDS.pick(legal, "Play all (4)", "en", {}, None,
                      lambda la: ["Play all"] if la is legal[0] else []) == legal[0].action
    assert WORDS.pick(legal, "move d6", "en", {}) == legal[1].action, "the words of a label, in order"
    golds = [LegalAction(Action.of("buy", n=n), words(f"Oro ×{n}", f"Gold ×{n}")) for n in (2, 3)]
    assert WORDS.pick(golds, "gold ×3", "en", {}) == golds[1].action, "a whole label is never ambiguous"
    assert WORDS.pick(legal, "explo", "es", {}) == legal[2].action, "a unique beginning"
    with pytest.raises(IllegalAction) as refused:
        WORDS.pick(legal, "D6", "en", {}, None, lambda la: ["d6"] if la.action.get("to") else [])
    text = i18n.t(refused.value.reason, "en")
    assert "Move to D6; Explore D6" in text and "suggestion" not in text


def test_a_first_step_named_by_part_of_a_name() -> None:
    legal = [LegalAction(Action.of("place", ally=a, at=sq), msg("ka.act.place", ally=Lit(es, en), square=sq))
             for a, es, en in (("a0", "Asphar el Explorador", "Asphar the Ranger"),
                               ("a1", "Valcor el Guerrero", "Valcor the Warrior")) for sq in ("E6", "J7")]
    keep = named("ally", "ally", "Asphar", legal)
    assert [la.action for la in legal if keep(la)] == [legal[0].action, legal[1].action]
    assert not any(named("ally", "ally", "a", legal)(la) for la in legal), "an ambiguous part names nobody"
    assert all(named("ally", "ally", "a1", legal)(la) == (la.action["ally"] == "a1") for la in legal)


def test_steps_are_named_in_words() -> None:
    moves = [LegalAction(Action.of("throw", card="s035", target="p1"),
                         msg("gg.act.throw", card=msg("gg.card.axe"), target="Bob"))]
    first = [Choice("throw", msg("core.step.part", part="throw"))]
    assert step_labels("br", first, moves, "es", {}) == {"throw": "Lanzar una carta"}
    second = [Choice("card=s035", msg("core.step.part", part="card=s035"))]
    assert step_labels("br", second, moves, "en", {}) == {"card=s035": "Axe"}
    assert step_title("br", ["throw"], second, "en") == "Choose a card to throw"
    placed = [LegalAction(Action.of("place", ally="a0", at="PW", house="h1"),
                          msg("ka.act.place", ally=Lit("Valcor", "Valcor"), square="PW"))]
    at = [Choice("at=PW", msg("core.step.part", part="at=PW"))]
    assert step_labels("ka", at, placed, "en", {}) == {"at=PW": "PW"}, "the square the label shows"
    assert step_title("ka", ["build"], [Choice("at=H1", words("H1", "H1"))], "en") == "Where?"
    assert step_title("ka", [], first, "es") == "¿Qué quieres hacer?"


def test_suggestions_carry_a_description_only_when_it_fits() -> None:
    assert suggestion("Move to D6", "Costs 1 step") == "Move to D6 — Costs 1 step"
    assert suggestion("x" * 90, "a rather long description") == "x" * 90
    assert len(suggestion("y" * 150)) == 100

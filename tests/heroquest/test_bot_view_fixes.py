"""Fixes made for the Discord glue: the view names its seat and whose turn it is; the panel draws names."""

from __future__ import annotations

import io

from PIL import Image

from renderers.heroquest import _item, _player, render
from rules.heroquest import GAME
from tests.heroquest.hq_helpers import board_view, new


def test_view_says_which_seat_and_whose_turn() -> None:
    s = new(heroes="barbarian,dwarf", seats=3)
    hero = s.current_hero()
    assert hero is not None
    for seat in (None, 0, 1, 2):
        v = board_view(s, seat)
        assert v["seat"] == seat
        assert v["turn"]["who"] == "hero" and v["turn"]["hero"] == hero["uid"]


def test_panel_names_the_player_and_localizes_equipment() -> None:
    s = new(heroes="barbarian,dwarf", seats=3)
    v = {**GAME.view(s, None), "names": ["gm", "Ana", "Ben"]}
    heroes = v["heroes"]
    assert isinstance(heroes, list)
    barbarian = next(h for h in heroes if h["hero"] == "barbarian")
    assert _player(v, barbarian) == "Ana"
    assert _player({**v, "names": []}, barbarian) == ""
    assert _item("broadsword", "es") == "Espada Ancha" and _item("no_such_thing", "en") == "no such thing"
    png = render(v, "es")
    assert Image.open(io.BytesIO(png)).size[0] > 500


def test_the_seat_on_turn_gets_a_private_board_with_its_reach_and_the_others_none() -> None:
    from cogs.heroquest import UI

    s = new(heroes="barbarian,dwarf", seats=3)
    on_turn = GAME.to_act(s)
    assert on_turn == {1}
    mine = GAME.view(s, 1)
    reach = mine["reach"]
    assert reach and isinstance(reach, list) and all(isinstance(q, list) and len(q) == 2 for q in reach)
    png = UI.private_image(mine, "en")
    assert png is not None and png != render(GAME.view(s, None), "en")
    assert UI.private_image(GAME.view(s, 2), "en") is None, "not on turn: the public board says it all"
    assert UI.private_image(GAME.view(s, 0), "en") is not None, "the game master's map"
    assert "reach" not in GAME.view(s, None) and "reach" not in GAME.view(s, 0)


def test_squares_in_commands_and_texts_are_board_names() -> None:
    from cogs.heroquest import WORDS, describe
    from cogs.heroquest_names import square_text

    s = new(heroes="barbarian,dwarf", seats=3)
    legal = GAME.legal_actions(s, 1)
    move = next(la for la in legal if la.action.kind == "move")
    to = str(move.action["to"])
    assert square_text([int(to[1:]) - 1, ord(to[0]) - ord("A")]) == to
    assert describe(move, GAME.view(s, 1), "en", {}).endswith(f"move to {to}")
    for typed in (to, to.lower(), f"{to[0]}-{to[1:]}", f"({to[0]} {to[1:]})"):
        assert WORDS.pick(legal, typed, "en", {}) == move.action, typed

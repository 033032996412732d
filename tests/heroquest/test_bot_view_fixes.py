"""Fixes made for the Discord glue: the view names its seat and whose turn it is; the panel draws names."""

from __future__ import annotations

import io

from PIL import Image

from renderers.heroquest import _item, _player, render
from rules.heroquest import GAME
from tests.heroquest.hq_helpers import new


def test_view_says_which_seat_and_whose_turn() -> None:
    s = new(heroes="barbarian,dwarf", seats=3)
    hero = s.current_hero()
    assert hero is not None
    for seat in (None, 0, 1, 2):
        v = GAME.view(s, seat)
        assert v["seat"] == seat
        assert v["turn"]["who"] == "hero" and v["turn"]["hero"] == hero["uid"]


def test_panel_names_the_player_and_localizes_equipment() -> None:
    s = new(heroes="barbarian,dwarf", seats=3)
    v = {**GAME.view(s, None), "names": ["gm", "Ana", "Ben"]}
    barbarian = next(h for h in v["heroes"] if h["hero"] == "barbarian")
    assert _player(v, barbarian) == "Ana"
    assert _player({**v, "names": []}, barbarian) == ""
    assert _item("broadsword", "es") == "Espada Ancha" and _item("no_such_thing", "en") == "no such thing"
    png = render(v, "es")
    assert Image.open(io.BytesIO(png)).size[0] > 500

"""Hero Realms table and hand images, drawn from real engine states through its views."""

from __future__ import annotations

import io
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

import i18n
from renderers import hero_realms as hr
from renderers import render_for
from rules import registry
from rules.hero_realms.state import State
from rules.text import Msg, SeatRef

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 400_000


@pytest.fixture(scope="module")
def game():
    g = registry.get("hero-realms")
    if g is None:
        pytest.skip("the Hero Realms engine is not registered")
    return g


def play(game, seats: int, steps: int, seed: int = 7, variant: str = "free-for-all"):
    """A state reached by random legal moves that favour playing and buying over ending the turn."""
    state = game.new({"variant": variant}, seats, seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        busy = [la for la in legal if la.action.kind != "end_turn"]
        choice = rnd.choice(busy) if busy and rnd.random() < 0.85 else rnd.choice(legal)
        state = game.apply(state, seat, choice.action).state
    return state


def check_png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) < MAX_BYTES
    Image.open(io.BytesIO(data)).verify()
    img = Image.open(io.BytesIO(data))
    assert 1200 <= img.width <= 1600
    return img


@pytest.mark.parametrize(
    ("seats", "variant"),
    [(2, "free-for-all"), (3, "hunter-first-blood"), (4, "free-for-all"), (4, "hydra"), (5, "free-for-all"),
     (6, "free-for-all"), (6, "emperor"), (6, "teams-of-three")],
)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_public_render_is_a_valid_png(game, seats: int, variant: str, lang: str) -> None:
    for steps in (0, 120):
        view = game.view(play(game, seats, steps, variant=variant), None)
        assert view.get("hand") in (None, [])
        check_png(hr.render(view, lang))


@pytest.mark.parametrize("lang", ["es", "en"])
def test_render_for_dispatches_to_hero_realms(game, lang: str) -> None:
    view = game.view(play(game, 2, 30), None)
    assert render_for("hero-realms", view, lang) == hr.render(view, lang)


def _with_hand_changed(game, state, seat: int):
    """The same state except that one card in `seat`'s hand is a different card."""
    data = game.to_json(state)
    hand = data["players"][seat]["hand"]
    assert hand, "the test needs a non-empty hand"
    current = data["cards"][hand[0]]
    data["cards"][hand[0]] = "arkus" if current != "arkus" else "rake"
    return game.from_json(data)


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_public_render_ignores_hand_contents(game, seats: int) -> None:
    state = play(game, seats, 40, seed=3)
    seat = next(s for s in range(seats) if game.to_json(state)["players"][s]["hand"])
    other = _with_hand_changed(game, state, seat)
    assert game.to_json(other) != game.to_json(state)
    for lang in ("es", "en"):
        assert hr.render(game.view(state, None), lang) == hr.render(game.view(other, None), lang)
    # while the owner's private hand image does show the change
    assert hr.render_hand(game.view(state, seat), "es") != hr.render_hand(game.view(other, seat), "es")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_hand_render(game, lang: str) -> None:
    state = play(game, 3, 25, seed=5)
    seat = min(game.to_act(state))
    view = game.view(state, seat)
    check_png(hr.render_hand(view, lang))
    table = hr.read_view(view, lang)
    me = next(s for s in table.seats if s.seat == seat)
    assert len(me.hand_cards) == len(view["hand"])


def test_empty_hand_render() -> None:
    view = {"viewer": 0, "players": [{"seat": 0, "health": 50, "deck": 3, "hand": 0, "discard_count": 0}],
            "hand": [], "active": [1]}
    check_png(hr.render_hand(view, "es"))


def test_every_card_draws(game) -> None:
    keys = [k for k in json.loads(Path(hr.__file__).resolve().parents[1].joinpath(
        "data/hero_realms/cards.json").read_text(encoding="utf-8"))["cards"]]
    hand = [c["key"] for c in keys]
    view = {"viewer": 0, "players": [{"seat": 0, "health": 50, "deck": 0, "hand": len(hand)}], "hand": hand,
            "active": [0]}
    check_png(hr.render_hand(view, "es"))


def test_player_names_from_view_or_default(game) -> None:
    view = game.view(play(game, 2, 10), None)
    assert [s.name for s in hr.read_view(view, "es").seats] == ["J1", "J2"]
    assert [s.name for s in hr.read_view(view, "en").seats] == ["P1", "P2"]
    named = {**view, "players": [{**p, "name": n} for p, n in zip(view["players"], ["Ana", "Íñigo"], strict=True)]}
    assert [s.name for s in hr.read_view(named, "es").seats] == ["Ana", "Íñigo"]


def test_log_lines_are_resolved_with_seat_names(game) -> None:
    view = game.view(play(game, 2, 10), None)
    view["log"] = [Msg("render.hr.to_play", {"name": SeatRef(1)}).to_json()]
    assert hr._log_lines(hr.read_view(view, "es"), "es") == ["Juega J2"]
    assert hr._log_lines(hr.read_view(view, "en"), "en") == ["P2 to play"]


def test_team_variants_share_health(game) -> None:
    table = hr.read_view(game.view(play(game, 4, 0, variant="hydra"), None), "es")
    assert table.team_health == {0: 75, 1: 75}
    ffa = hr.read_view(game.view(play(game, 4, 0), None), "es")
    assert ffa.team_health == {}


def test_render_catalog_matches_in_both_languages() -> None:
    es = {k: v for k, v in i18n.catalog("es").items() if k.startswith("render.")}
    en = {k: v for k, v in i18n.catalog("en").items() if k.startswith("render.")}
    assert es.keys() == en.keys()
    for key in es:
        assert i18n.placeholders(es[key]) == i18n.placeholders(en[key]), key


def test_hand_image_shows_the_viewers_pending_prompt() -> None:
    view = {"viewer": 1, "players": [{"seat": 0, "hand": 5}, {"seat": 1, "hand": 1}], "hand": ["gold"],
            "active": [1], "pending": [{"seat": 1, "kind": "x", "source": {"key": "rake"},
                                        "prompt": Msg("render.hr.log").to_json()}]}
    table = hr.read_view(view, "es")
    assert hr._pending_prompt(view, table, "es") == "Últimos sucesos · Rake, maestro asesino"
    other = {**view, "viewer": 0}
    assert hr._pending_prompt(other, hr.read_view(other, "es"), "es") is None
    check_png(hr.render_hand(view, "es"))


def test_same_view_gives_identical_bytes_with_cold_and_warm_caches(game) -> None:
    views = [game.view(play(game, seats, steps, seed=9), None) for seats, steps in ((2, 60), (4, 150))]
    seat_view = game.view(play(game, 3, 40, seed=4), 0)
    hr.clear_caches()
    cold = [hr.render(v, lang) for v in views for lang in ("es", "en")] + [hr.render_hand(seat_view, "es")]
    warm = [hr.render(v, lang) for v in views for lang in ("es", "en")] + [hr.render_hand(seat_view, "es")]
    assert warm == cold
    hr.clear_caches()
    # and a cache warmed by other views first changes nothing either
    hr.render(game.view(play(game, 6, 90, seed=2), None), "es")
    again = [hr.render(v, lang) for v in views for lang in ("es", "en")] + [hr.render_hand(seat_view, "es")]
    assert again == cold


def test_cached_card_faces_match_cards_drawn_in_place() -> None:
    from renderers.kit import Box, Canvas

    def canvas() -> Canvas:
        c = Canvas(700, 340)
        # something other than plain background behind the corners
        c.draw.rectangle((0, 0, 350, 170), fill=(200, 30, 90))
        return c

    sample = [k for k in ("arkus", "rake", "fire_gem", "gold", "dagger", "tithe_priest") if k in hr.cards()]
    for key in sample:
        card = hr.cards()[key]
        for lang in ("es", "en"):
            direct, cached = canvas(), canvas()
            for box in (Box(10, 20, hr.CARD_W, hr.CARD_H), Box(300, 8, hr.CARD_W, hr.CARD_H)):
                hr._paint_card(direct, box, card, lang)
                hr.draw_card(cached, box, card, lang)
            assert cached.image.tobytes() == direct.image.tobytes(), (key, lang)
    for key in ("arkus", "orc_grunt"):
        cached, direct = Canvas(160, hr.TILE_MAX), Canvas(160, hr.TILE_MAX)
        tile = Box(0, 0, 160, hr.TILE_MAX)
        hr.draw_champion(cached, tile, hr.Champion(hr.cards()[key], damage=2), "es")
        stranger = replace(hr.cards()[key])  # not the shipped object: drawn without the cache
        hr.draw_champion(direct, tile, hr.Champion(stranger, damage=2), "es")
        assert cached.image.tobytes() == direct.image.tobytes(), key


# ---------------------------------------------------------------- every champion and played card, every layout

LAYOUTS = [("free-for-all", n) for n in range(2, 7)] + [("hunter-first-blood", n) for n in range(3, 7)] + [
    ("hunter-last-standing", 5), ("hydra", 4), ("teams-of-three", 6), ("emperor", 6)]
CHAMPIONS = ["orc_grunt", "rake", "krythos", "cron", "darian", "kraka", "torgen", "varrick", "man_at_arms", "borg"]
PLAYED = ["spark", "profit", "command", "gold", "fire_gem", "dagger", "ruby", "life_drain", "the_rot", "bribe",
          "word_of_power", "shortsword"]


def _crowded(variant: str, seats: int, seed: int) -> State:
    """A state with many champions (some expended, some hurt, guards anywhere) and many played cards."""
    from tests.hero_realms.hr_helpers import clean, put

    rnd = random.Random(seed)
    s = clean(variant, seats, seed)
    for seat in range(seats):
        for key in rnd.sample(CHAMPIONS, rnd.randint(0, 9)):
            cid = put(s, seat, key, "champions")
            if rnd.random() < 0.3:
                s.players[seat].expended.add(cid)
            if rnd.random() < 0.2:
                s.damage[cid] = 1
        if seat in s.active or rnd.random() < 0.3:
            for key in rnd.choices(PLAYED, k=rnd.randint(0, 12)):
                put(s, seat, key, "played")
        s.players[seat].gold, s.players[seat].combat = rnd.randint(0, 30), rnd.randint(0, 40)
    s.health[rnd.randrange(len(s.health))] = -13
    return s


def _inside(inner: hr.Box, outer: hr.Box) -> bool:
    return outer.x <= inner.x and outer.y <= inner.y and inner.x2 <= outer.x2 and inner.y2 <= outer.y2


def _overlap(a: hr.Box, b: hr.Box) -> bool:
    return a.x < b.x2 and b.x < a.x2 and a.y < b.y2 and b.y < a.y2


@pytest.mark.parametrize(("variant", "seats"), LAYOUTS)
def test_every_champion_and_played_card_is_drawn_in_its_panel(game, variant: str, seats: int) -> None:
    for seed in (1, 2):
        s = _crowded(variant, seats, seed)
        view = game.view(s, None)
        trace: list = []
        img = check_png(hr.render(view, "es", trace))
        image = hr.Box(0, 0, img.width, img.height)
        panels = {which: box for kind, which, box, _ in trace if kind == "panel"}
        assert sorted(panels) == list(range(seats))
        assert not any(_overlap(a, b) for a in panels.values() for b in panels.values() if a is not b)
        for seat in range(seats):
            p = s.players[seat]
            drawn = [(kind, key) for kind, which, _box, key in trace
                     if kind in ("champion", "played") and which[0] == seat]
            assert drawn == [("champion", s.cards[c]) for c in p.champions] + [
                ("played", s.cards[c]) for c in p.played], (variant, seats, seat)
            boxes = [box for kind, which, box, _ in trace if kind != "panel" and (
                which == seat or (isinstance(which, tuple) and which[0] == seat))]
            assert all(_inside(b, panels[seat]) and _inside(b, image) for b in boxes)
            assert not any(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
            piles = {which[1]: words for kind, which, _box, words in trace if kind == "pile" and which[0] == seat}
            assert "descarte" in piles["discard"] and "mazo" in piles["deck"] and "mano" in piles["hand"]
            health = next(words for kind, which, _box, words in trace if kind == "health" and which == seat)
            assert health == ("ok" if s.health[s.pool_of[seat]] > 0 else "out")


def test_a_champion_shows_its_abilities(game) -> None:
    cron = hr.cards()["cron"]
    other = replace(cron, abilities={"expend": ({"combat": 9},)})
    images = []
    for card in (cron, other):
        c = hr.Canvas(150, hr.TILE_MAX)
        hr.draw_champion(c, hr.Box(0, 0, 150, hr.TILE_MAX), hr.Champion(card), "en")
        images.append(c.image.tobytes())
    assert images[0] != images[1], "the tile depends on what the champion does, not only its name"


def test_a_pending_decision_with_an_empty_hand_shows_its_answers(game) -> None:
    from rules.base import Action
    from tests.hero_realms.hr_helpers import clean, put

    s = clean()
    darian = put(s, 0, "darian", "champions")
    s = game.apply(s, 0, Action.of("expend", card=darian)).state
    assert s.players[0].hand == []
    trace: list = []
    check_png(hr.render_hand(game.view(s, 0), "en", trace))
    assert [words for kind, _, _, words in trace if kind == "option"] == ["Choose: +3 combat", "Choose: +4 health"]
    other: list = []
    hr.render_hand(game.view(s, 1), "en", other)
    assert not [t for t in other if t[0] == "option"], "only the one deciding sees the answers"


def test_several_names_in_the_header_read_as_a_list() -> None:
    assert hr._names_list(["Ana", "Bo", "Cy"], "es") == "Ana, Bo y Cy"
    assert hr._names_list(["Ana", "Bo"], "en") == "Ana and Bo"
    assert i18n.tk("render.hr.winner_many", "es", name="Ana y Bo") == "¡Ganan Ana y Bo!"


def test_played_cards_and_titles_stay_readable_at_phone_width(game) -> None:
    """Discord often shows the table about 400 px wide: the played-card chips and the smallest words must
    still be about 9 px tall there."""
    s = _crowded("free-for-all", 2, 1)
    trace: list = []
    img = check_png(hr.render(game.view(s, None), "es", trace))
    chips = [box for kind, _which, box, _ in trace if kind == "played"]
    assert chips, "the crowded table has cards played this turn"
    assert all(box.h * 400 / img.width >= 9 for box in chips)
    assert hr.LABEL * 400 / img.width >= 5.5 and hr.TILE_HEAD * 400 / img.width >= 13

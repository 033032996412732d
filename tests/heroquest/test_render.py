"""The HeroQuest renderer: valid PNGs for GM and player views, with hidden things kept dark for players."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from renderers import heroquest as hq
from renderers import kit
from rules.heroquest import board
from rules.heroquest.quest import Quest, builtin_quests
from rules.heroquest.upload import load_quest
from tests.reference import HQ_QUESTS

QUESTS = HQ_QUESTS


def all_quests() -> list[Quest]:
    imported = [load_quest(p.read_text(encoding="utf-8")) for p in sorted(QUESTS.glob("*.xml"))]
    return imported + list(builtin_quests().values())


def image(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def close(a: float | tuple[int, ...] | None, b: tuple[int, ...], tol: int = 12) -> bool:
    assert isinstance(a, tuple), a  # a pixel of an RGB image
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def pixels(img: Image.Image) -> list[tuple[int, int, int]]:
    raw = img.convert("RGB").tobytes()
    return [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]


def colours(img: Image.Image, sq: tuple[int, int], inset: int = 7,
            where: hq.Layout = hq.FULL) -> set[tuple[int, int, int]]:
    """The colours inside a square, away from its edges (walls and doors straddle the edges)."""
    box = where.sq_box(sq).inset(round(inset * where.sq / hq.SQ))
    return set(pixels(img.crop((box.x, box.y, box.x2, box.y2))))


def all_unseen(img: Image.Image, sq: tuple[int, int], where: hq.Layout = hq.FULL) -> bool:
    """The square is the plain dark, or left out of the (cropped) image altogether."""
    return not where.grid.contains(sq) or all(close(c, hq.UNSEEN) for c in colours(img, sq, where=where))


@pytest.mark.parametrize("quest", all_quests(), ids=lambda q: q.id)
def test_gm_and_player_views(quest: Quest) -> None:
    gm_view = hq.quest_view(quest, "gm")
    hero_view = hq.quest_view(quest, "hero")
    gm = image(hq.render(gm_view, "es"))
    hero = image(hq.render(hero_view, "en"))
    where = hq.layout(hero_view, "en")
    assert gm.size == (hq.WIDTH, hq.HEIGHT)
    assert hero.size == (hq.PHONE_W, where.height)
    hidden = [m for m in gm_view["monsters"] if m["hidden"]]
    assert hidden, "every quest hides some monsters at the start"
    for m in hidden:
        sq = tuple(m["square"])
        # the players see only the dark; the GM sees the monster there
        assert all_unseen(hero, sq, where), (quest.id, sq)
        assert any(close(c, kit.mix(hq.MONSTER, hq.ROOM, 0.5), 24) for c in colours(gm, sq)), (quest.id, sq)
    # the heroes' own squares are drawn for the players
    for sq in quest.start:
        assert where.grid.contains(sq) and not all_unseen(hero, sq, where)


def test_view_contents_follow_visibility() -> None:
    quest = builtin_quests()["crypt_of_ulfgar"]
    gm = hq.quest_view(quest, "gm")
    hero = hq.quest_view(quest, "hero")
    assert len(gm["monsters"]) == sum(quest.summary()["monsters"].values())
    assert not any(m["hidden"] for m in hero["monsters"])
    assert all(not d["secret"] for d in hero["doors"])
    assert any(d["secret"] and d["hidden"] for d in gm["doors"])
    assert set(map(tuple, hero["revealed"])) < set(map(tuple, gm["revealed"]))


def test_a_mid_game_view() -> None:
    """A view as the engine sends it mid-quest: open doors, a found trap, a rock, a dead hero, a log."""
    view = {
        "viewer": "hero",
        "quest": {"name": {"es": "Prueba", "en": "Test"}},
        "revealed": [[r, c] for r in range(0, 4) for c in range(0, 9)],
        "doors": [
            {"uid": "d1", "between": [[0, 3], [1, 3]], "open": True, "secret": False},
            {"uid": "d2", "between": [[2, 4], [2, 5]], "open": False, "secret": True},
        ],
        "objects": [
            {
                "uid": "t1",
                "kind": "trap",
                "ref": "pit_trap",
                "squares": [[0, 6]],
                "rotation": "downward",
                "hidden": False,
            },
            {
                "uid": "r1",
                "kind": "blocked",
                "ref": "rock",
                "squares": [[0, 7]],
                "rotation": "downward",
                "hidden": False,
            },
            {
                "uid": "c1",
                "kind": "furniture",
                "ref": "chest",
                "squares": [[1, 1]],
                "rotation": "downward",
                "hidden": False,
            },
        ],
        "heroes": [
            {
                "uid": "h1",
                "hero": "barbarian",
                "name": "Ana",
                "square": [2, 2],
                "body": 5,
                "max_body": 8,
                "mind": 2,
                "max_mind": 2,
                "equipment": ["Espada ancha", "Casco"],
                "dead": False,
                "seat": 1,
            },
            {
                "uid": "h2",
                "hero": "wizard",
                "name": "Bo",
                "square": None,
                "body": 0,
                "max_body": 4,
                "mind": 6,
                "max_mind": 6,
                "equipment": [],
                "dead": True,
                "seat": 2,
            },
        ],
        "monsters": [{"uid": "m1", "ref": "orc", "square": [0, 1], "body": 1, "max_body": 1, "hidden": False}],
        "turn": {"label": {"es": "Turno de Ana", "en": "Ana's turn"}},
        "log": [{"es": "Ana abre la puerta.", "en": "Ana opens the door."}] * 12,
    }
    img = image(hq.render(view, "es"))
    where = hq.layout(view, "es")
    assert img.size == (hq.PHONE_W, where.height)
    assert all_unseen(img, (5, 5), where) and where.grid.contains((5, 5))
    assert any(close(c, hq.MONSTER, 8) for c in colours(img, (0, 1), where=where))


def test_empty_view_does_not_crash() -> None:
    assert image(hq.render({}, "en")).size == (hq.PHONE_W, hq.layout({}).height)
    assert image(hq.render({"viewer": "gm"}, "en")).size == (hq.WIDTH, hq.HEIGHT)


# ---------------------------------------------------------------- coordinates, the acting hero, reach, doors


def small_view(**extra: object) -> dict:
    """A hero's view of the top-left room: the barbarian on B2, a closed door on the wall D2|E2."""
    view: dict = {
        "viewer": "hero",
        "quest": {"name": {"es": "Prueba", "en": "Test"}},
        "revealed": [[r, c] for r in range(0, 4) for c in range(0, 9)],
        "doors": [{"uid": "d1", "between": [[1, 3], [1, 4]], "open": False, "secret": False}],
        "objects": [],
        "heroes": [{"uid": "h1", "hero": "barbarian", "name": "Ana", "square": [1, 1], "body": 8, "max_body": 8,
                    "mind": 2, "max_mind": 2, "equipment": [], "dead": False, "seat": 1}],
        "monsters": [],
        "turn": {"label": {"es": "Turno", "en": "Turn"}, "hero": None},
        "log": [],
    }
    view.update(extra)
    return view


def test_the_edges_print_the_names_commands_use() -> None:
    from renderers import board as kit_board
    from rules import coords

    assert kit_board.SquareGrid(board.COLS, board.ROWS, cell=hq.SQ, x=hq.MARGIN, y=hq.HEADER) == hq.GRID
    assert hq.GRID.name((10, 7)) == coords.name(10, 7) == "H11"
    # the game master's map is the whole board (the players' crop: tests/renderers/test_heroquest_phone.py)
    img = image(hq.render(small_view(viewer="gm"), "en"))
    f = hq.GRID.field
    for c in range(board.COLS):  # a letter in the band above and below every column
        for y0 in (hq.GRID.y, f.y2 + 1):
            band = img.crop((f.x + c * hq.SQ, y0, f.x + (c + 1) * hq.SQ, y0 + hq.GRID.band - 1))
            assert any(close(p, kit.PALETTE.ink, 40) for p in pixels(band)), coords.column_name(c)
    for r in range(board.ROWS):  # a number left and right of every row
        for x0 in (hq.GRID.x, f.x2 + 1):
            band = img.crop((x0, f.y + r * hq.SQ, x0 + hq.GRID.band - 1, f.y + (r + 1) * hq.SQ))
            assert any(close(p, kit.PALETTE.ink, 40) for p in pixels(band)), r + 1


def test_the_acting_hero_is_framed_and_the_seat_on_turn_sees_its_reach() -> None:
    from renderers import board as kit_board

    where = hq.layout(small_view(), "en")
    plain = image(hq.render(small_view(), "en"))
    acting = image(hq.render(small_view(turn={"label": "T", "hero": "h1"}), "en"))
    assert not any(close(c, kit_board.ACTIVE, 10) for c in colours(plain, (1, 1), 0, where))
    assert any(close(c, kit_board.ACTIVE, 10) for c in colours(acting, (1, 1), 0, where))
    reach_view = small_view(reach=[[2, 2], [3, 5]])
    reach = image(hq.render(reach_view, "en"))
    there = hq.layout(reach_view, "en")  # the legend grows a line for the reach dot; the board stays put
    assert there.grid == where.grid
    for sq in ((2, 2), (3, 5)):
        assert colours(reach, sq, 3, where) != colours(plain, sq, 3, where), sq
        assert any(close(c, kit.PALETTE.ink, 24) for c in colours(reach, sq, where=where)), "the reach dot"
    assert colours(reach, (2, 3), 3, where) == colours(plain, (2, 3), 3, where)


def test_an_open_door_is_a_gap_with_a_swung_leaf_not_a_bar() -> None:
    closed = image(hq.render(small_view(), "en"))
    opened = image(hq.render(small_view(doors=[{"uid": "d1", "between": [[1, 3], [1, 4]], "open": True,
                                                "secret": False}]), "en"))
    where = hq.layout(small_view(), "en")
    assert hq.layout(small_view(doors=[{"uid": "d1", "between": [[1, 3], [1, 4]], "open": True, "secret": False}]),
                     "en").grid == where.grid
    x, y = where.sq_box((1, 4)).x, where.sq_box((1, 4)).center[1]
    assert close(closed.getpixel((x, y)), hq.DOOR, 8)  # the leaf across the wall
    assert close(opened.getpixel((x, y)), hq.ROOM, 8)  # the doorway is clear
    # the leaf stands open in one of the two squares, a good part of a square long
    leaf = sum(1 for sq in ((1, 3), (1, 4)) for c in hq_pixels(opened, sq, where) if close(c, hq.DOOR, 8))
    assert leaf >= where.sq * 4


def hq_pixels(img: Image.Image, sq: tuple[int, int], where: hq.Layout = hq.FULL) -> list[tuple[int, int, int]]:
    box = where.sq_box(sq).inset(3)
    return pixels(img.crop((box.x, box.y, box.x2, box.y2)))


def test_every_kind_of_tile_drawn_is_in_the_legend() -> None:
    import i18n

    for lang in ("es", "en"):
        for gm in (False, True):
            labels = {label for label, _ in hq._legend_items(lang, gm, reach=False)}
            for what in ("hero", "monster", "door", "open_door", "secret", "furniture", "stairs", "blocked", "trap",
                         "pit", "rock", "corridor", "room"):
                assert i18n.tk(f"hq.q.render.legend.{what}", lang) in labels, (what, lang)
            gm_only = {i18n.tk(f"hq.q.render.legend.{w}", lang) for w in ("hidden", "not_seen_yet", "unused", "marker")}
            assert (gm_only <= labels) if gm else not (gm_only & labels)
    # and the legend is drawn: every label fits in the strip under the board
    img = image(hq.render(hq.quest_view(builtin_quests()["crypt_of_ulfgar"], "gm"), "en"))
    strip = img.crop((hq.MARGIN, hq.HEADER + hq.BOARD_H, hq.MARGIN + hq.BOARD_W, hq.HEIGHT))
    assert len(set(pixels(strip))) > 20


def test_the_gm_map_shades_what_the_heroes_have_not_seen_and_players_never_get_it() -> None:
    quest = builtin_quests()["crypt_of_ulfgar"]
    gm_view = hq.quest_view(quest, "gm")
    seen = hq.quest_view(quest, "hero")["revealed"]
    assert gm_view["player_revealed"] == seen
    plain = image(hq.render({k: v for k, v in gm_view.items() if k != "player_revealed"}, "en"))
    shaded = image(hq.render({**gm_view, "player_revealed": seen}, "en"))
    seen_set = {tuple(s) for s in seen}
    unused = {tuple(s) for s in gm_view["unused"]}
    taken = {tuple(q) for o in gm_view["objects"] for q in o["squares"]}
    taken |= {tuple(f["square"]) for f in gm_view["monsters"] + gm_view["heroes"]}
    bare = [sq for sq in board.all_squares() if sq not in unused and sq not in taken]
    picked = [sq for sq in bare if sq in seen_set][:5] + [sq for sq in bare if sq not in seen_set][::25]
    assert len(picked) > 8
    for sq in picked:
        changed = sum(not close(a, b, 16) for a, b in zip(hq_pixels(plain, sq), hq_pixels(shaded, sq), strict=True))
        assert (changed == 0) if sq in seen_set else (changed > hq.SQ * 4), (sq, changed)
    # a player's view that (wrongly) carried the GM's fields still shows nothing of them
    hero = hq.quest_view(quest, "hero")
    assert hq.render(hero, "en") == hq.render({**hero, "player_revealed": seen, "unused": gm_view["unused"]}, "en")

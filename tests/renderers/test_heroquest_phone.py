"""The HeroQuest players' image on a phone: cropped to what the heroes have seen, edges still naming the real
squares, and nothing of the unexplored board told by the crop or the image."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from renderers import heroquest as hq
from renderers import kit
from rules import coords
from rules.heroquest import GAME, board
from rules.heroquest.quest import PlacedJson, builtin_quests
from tests.heroquest.hq_helpers import door, monster, new
from tests.renderers.pixels import colours


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def label_patch(img: Image.Image, where: hq.Layout, text: str, center: tuple[float, float],
                side: bool = False) -> tuple[bytes, bytes]:
    """The image around one edge label, and the same patch drawn from scratch with `text` there, both cut to
    black and white (the PNG's palette moves colours by a step or two)."""
    g = where.grid
    half_w, half_h = g.cell // 2 - 1, g.band // 2 - 2  # in the band, the width of a square
    if side:
        half_w, half_h = half_h, half_w
    x0, y0 = round(center[0]) - half_w, round(center[1]) - half_h
    box = (x0, y0, x0 + 2 * half_w, y0 + 2 * half_h)
    ref = kit.Canvas(box[2] - box[0], box[3] - box[1], bg=kit.PALETTE.background)
    kit.text(ref.draw, (center[0] - x0, center[1] - y0), text, g.label_px, kit.PALETTE.ink, anchor="mm", bold=True)
    def ink(patch: Image.Image) -> bytes:
        return patch.convert("L").point(lambda v: 255 if v > 128 else 0).tobytes()

    return ink(img.crop(box)), ink(ref.image)


def same(got: bytes, want: bytes) -> bool:
    """The same text: a few pixels on the letters' rims may fall either side of the cut; another letter
    differs by dozens."""
    return sum(a != b for a, b in zip(got, want, strict=True)) <= 12


@pytest.mark.parametrize("quest_id", sorted(builtin_quests()))
def test_a_fresh_quest_shows_the_players_the_start_area_not_the_whole_board(quest_id: str) -> None:
    quest = builtin_quests()[quest_id]
    view = hq.quest_view(quest, "hero")
    where = hq.layout(view, "en")
    g = where.grid
    seen = {tuple(s) for s in view["revealed"]}
    # much smaller than the board: at most half its squares, and every seen square inside with a margin
    assert g.cols * g.rows <= board.COLS * board.ROWS // 2, (quest_id, g.cols, g.rows)
    assert all(g.contains(sq) for sq in seen)
    assert g.cols < board.COLS and g.rows < board.ROWS
    assert g.cell >= 2 * hq.SQ * 0.75, "the squares are larger than on the whole board's image"
    img = image(hq.render(view, "en"))
    assert img.size == (hq.PHONE_W, where.height)
    f = g.field
    mid = (g.band - 1) / 2
    for i in range(g.cols):  # the real column letter above and below every column shown
        name = coords.column_name(g.col0 + i)
        cx = f.x + i * g.cell + g.cell / 2
        for cy in (g.y + mid, f.y2 + 1 + mid):
            got, want = label_patch(img, where, name, (cx, cy))
            assert same(got, want), (quest_id, name)
    for i in range(g.rows):  # the real row number left and right of every row shown
        name = str(g.row0 + i + 1)
        cy = f.y + i * g.cell + g.cell / 2
        for cx in (g.x + mid, f.x2 + 1 + mid):
            got, want = label_patch(img, where, name, (cx, cy), side=True)
            assert same(got, want), (quest_id, name)


def test_the_edge_labels_are_the_board_names_not_the_crop_numbers() -> None:
    """The check above can tell them apart: a crop that starts past A1 printed from A and 1 fails it."""
    crops = [hq.layout(hq.quest_view(q, "hero"), "en").grid for q in builtin_quests().values()]
    g = next(g for g in crops if g.col0 > 0)
    view = next(hq.quest_view(q, "hero") for q in builtin_quests().values()
                if hq.layout(hq.quest_view(q, "hero"), "en").grid == g)
    img = image(hq.render(view, "en"))
    where = hq.layout(view, "en")
    f = g.field
    got, wrong = label_patch(img, where, coords.column_name(0), (f.x + g.cell / 2, g.y + (g.band - 1) / 2))
    assert not same(got, wrong)


def test_a_figure_on_the_players_map_is_where_its_square_is() -> None:
    quest = builtin_quests()["crypt_of_ulfgar"]
    view = hq.quest_view(quest, "hero")
    where = hq.layout(view, "en")
    img = image(hq.render(view, "en"))
    sq = tuple(view["heroes"][0]["square"])
    box = where.sq_box(sq)
    assert any(sum(abs(a - b) for a, b in zip(c, hq.HERO, strict=True)) < 20 for c in colours(img.crop(box.rect)))


# ---------------------------------------------------------------- no leaks

FAR_A: list[PlacedJson] = [
    door("door_1", (2, 4), (2, 5)), monster("f_1", "fimir", (2, 7)), monster("o_1", "orc", (12, 20)),
    {"uid": "table_1", "kind": "furniture", "ref": "table", "squares": [[14, 10], [14, 11]]}]
FAR_B: list[PlacedJson] = [
    door("door_1", (2, 4), (2, 5)), monster("g_1", "gargoyle", (3, 8)), monster("m_1", "mummy", (16, 2)),
    monster("m_2", "mummy", (5, 22)),
    {"uid": "rack_1", "kind": "furniture", "ref": "weapons_rack", "squares": [[8, 20], [9, 20]]},
    {"uid": "pit_1", "kind": "trap", "ref": "pit_trap", "squares": [[10, 5]]}]


def test_two_games_differing_only_in_unexplored_parts_draw_the_same_images() -> None:
    a, b = new(FAR_A), new(FAR_B)
    for seat in (None, 1, 2):
        va, vb = GAME.view(a, seat), GAME.view(b, seat)
        assert va["revealed"] == vb["revealed"]
        for lang in ("en", "es"):
            assert hq.render(va, lang) == hq.render(vb, lang), (seat, lang)
        grid = hq.layout(va, "en").grid
        assert grid.cols * grid.rows < board.COLS * board.ROWS // 3
    # and the game master's maps do differ, so the two games are not the same game
    assert hq.render(GAME.view(a, 0), "en") != hq.render(GAME.view(b, 0), "en")


def test_the_crop_follows_only_what_the_players_know() -> None:
    view = hq.quest_view(builtin_quests()["crypt_of_ulfgar"], "hero")
    before = hq.crop(view)
    # monsters, doors and objects the view does not carry cannot move it; a square seen far away does
    assert hq.crop({**view, "monsters": [], "doors": [], "objects": []}) == before
    wider = hq.crop({**view, "revealed": [*view["revealed"], [18, 25]]})
    assert wider != before and wider[0] + wider[2] == board.ROWS and wider[1] + wider[3] == board.COLS


def test_no_two_kinds_of_figure_share_or_mirror_a_code() -> None:
    from rules.heroquest import catalog

    for lang in ("en", "es"):
        codes = [hq.figure_code(ref, lang) for ref in [*catalog.heroes(), *catalog.monsters()]]
        keys = ["".join(sorted(c.upper())) for c in codes]
        assert len(set(keys)) == len(keys), (lang, codes)
        assert all(1 <= len(c) <= 3 for c in codes)


def test_a_monster_token_carries_the_number_commands_name_it_by() -> None:
    view = hq.quest_view(builtin_quests()["crypt_of_ulfgar"], "hero")
    sq = next(sq for sq in view["revealed"] if sq not in [h["square"] for h in view["heroes"]])
    orc = {"uid": "orc_2", "ref": "orc", "square": sq, "body": 1, "max_body": 1, "hidden": False}
    two = {**view, "monsters": [{**orc, "name": {"es": "Orco 2", "en": "Orc 2"}}]}
    three = {**view, "monsters": [{**orc, "name": {"es": "Orco 3", "en": "Orc 3"}}]}
    assert hq.render(two, "en") != hq.render(three, "en")
    assert hq._number(two["monsters"][0]["name"]) == "2" and hq._number({"en": "Orc"}) == ""

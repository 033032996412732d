"""The HeroQuest renderer: valid PNGs for GM and player views, with hidden things kept dark for players."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from renderers import heroquest as hq
from rules.heroquest.quest import Quest, builtin_quests
from rules.heroquest.upload import load_quest

QUESTS = Path(__file__).resolve().parents[3] / "shared" / "reference" / "heroquest" / "heroscribe" / "quests-eu-base"


def all_quests() -> list[Quest]:
    imported = [load_quest(p.read_text(encoding="utf-8")) for p in sorted(QUESTS.glob("*.xml"))]
    return imported + list(builtin_quests().values())


def image(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def centre(sq: tuple[int, int]) -> tuple[int, int]:
    box = hq._sq_box(sq)
    return box.x + box.w // 2, box.y + 4  # near the top edge: away from the token's letters


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("quest", all_quests(), ids=lambda q: q.id)
def test_gm_and_player_views(quest: Quest) -> None:
    gm_view = hq.quest_view(quest, "gm")
    hero_view = hq.quest_view(quest, "hero")
    gm = image(hq.render(gm_view, "es"))
    hero = image(hq.render(hero_view, "en"))
    assert gm.size == hero.size == (hq.WIDTH, hq.HEIGHT)
    assert gm.tobytes() != hero.tobytes()
    hidden = [m for m in gm_view["monsters"] if m["hidden"]]
    assert hidden, "every quest hides some monsters at the start"
    for m in hidden:
        sq = tuple(m["square"])
        # the players see only the dark; the GM sees something else there
        assert close(hero.getpixel(centre(sq)), hq.UNSEEN), (quest.id, sq)
        assert not close(gm.getpixel(centre(sq)), hq.UNSEEN)
    # the heroes' own squares are drawn for the players
    for sq in quest.start:
        assert not close(hero.getpixel(hq._sq_box(sq).center), hq.UNSEEN)


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
    assert img.size == (hq.WIDTH, hq.HEIGHT)
    assert close(img.getpixel(hq._sq_box((10, 10)).center), hq.UNSEEN)
    assert close(img.getpixel(centre((0, 1))), hq.MONSTER, 40)


def test_empty_view_does_not_crash() -> None:
    assert image(hq.render({}, "en")).size == (hq.WIDTH, hq.HEIGHT)

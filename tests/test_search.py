"""The board toolkit's one breadth-first search: steps, the way back, limits, and the games' searches built on it."""

from __future__ import annotations

from pathlib import Path

from rules.search import breadth_first

ROOT = Path(__file__).resolve().parents[1]
Sq = tuple[int, int]


def grid(width: int, height: int, walls: set[Sq] = frozenset()) -> tuple:  # type: ignore[assignment]
    def neighbours(sq: Sq) -> list[Sq]:
        r, c = sq
        return [(r + dr, c + dc) for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
                if 0 <= r + dr < height and 0 <= c + dc < width]

    def enter(_here: Sq, there: Sq) -> bool:
        return there not in walls

    return neighbours, enter


def test_steps_and_the_way_back_around_a_wall() -> None:
    neighbours, enter = grid(3, 3, {(0, 1), (1, 1)})
    found = breadth_first([(0, 0)], neighbours, enter=enter)
    assert found.dist == {(0, 0): 0, (1, 0): 1, (2, 0): 2, (2, 1): 3, (2, 2): 4, (1, 2): 5, (0, 2): 6}
    assert found.path_to((0, 2)) == [(1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)]
    assert found.path_to((0, 0)) == [] and (1, 1) not in found


def test_within_reaches_the_last_ring_but_goes_no_further() -> None:
    neighbours, _ = grid(5, 1)
    assert breadth_first([(0, 0)], neighbours, within=2).dist == {(0, 0): 0, (0, 1): 1, (0, 2): 2}
    assert breadth_first([(0, 0)], neighbours, within=0).dist == {(0, 0): 0}


def test_expand_stops_a_walker_on_a_place_it_may_still_reach() -> None:
    neighbours, _ = grid(5, 1)
    found = breadth_first([(0, 0)], neighbours, expand=lambda sq: sq != (0, 2))
    assert found.dist == {(0, 0): 0, (0, 1): 1, (0, 2): 2}


def test_a_step_refused_from_one_side_may_be_taken_from_another() -> None:
    # (1, 1) may only be entered from below: the walker goes round
    neighbours, _ = grid(3, 3)
    found = breadth_first([(0, 1)], neighbours, enter=lambda here, there: there != (1, 1) or here == (2, 1))
    assert found.dist[(1, 1)] == 5 and found.path_to((1, 1))[-2] == (2, 1)


def test_several_starts_each_at_zero_in_order_repeats_ignored() -> None:
    neighbours, _ = grid(5, 1)
    found = breadth_first([(0, 4), (0, 0), (0, 4)], neighbours)
    assert list(found.dist)[:2] == [(0, 4), (0, 0)]
    assert found.dist == {(0, 4): 0, (0, 0): 0, (0, 3): 1, (0, 1): 1, (0, 2): 2}
    assert found.parent[(0, 2)] == (0, 3)  # the first start's side finds it first


def test_the_games_searches_use_the_helper() -> None:
    """HeroQuest's hero and monster paths and its autoplay's distances, Guerra's monster routes."""
    for path in ("rules/heroquest/moves.py", "rules/heroquest/autoplay.py", "rules/guerra_de_indagar/monsters.py"):
        text = (ROOT / path).read_text(encoding="utf-8")
        assert "breadth_first(" in text and "deque" not in text, path

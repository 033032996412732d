"""The shared evaluation loop shows every move to a watcher, and the Gorgasali endings tool plays through it."""

from __future__ import annotations

import itertools
import json
from typing import Any

from rules.base import Action
from tests.tinygame import TINY
from tools import gg_endings
from tools.playout import play


def test_the_evaluation_loop_shows_every_move_to_its_watcher_and_plays_the_same_game() -> None:
    seen: list[tuple[Any, int, Action, Any]] = []
    watched = play(TINY, seats=3, seed=4, levels={0: "hard"}, watch=lambda *move: seen.append(move))
    plain = play(TINY, seats=3, seed=4, levels={0: "hard"})
    assert (watched.winners, watched.actions, watched.end) == (plain.winners, plain.actions, plain.end)
    assert len(seen) == watched.actions > 0
    for (_, _, _, after), (before, _, _, _) in itertools.pairwise(seen):
        assert after is before  # each move starts from the state the one before it left
    assert seen[-1][3] is watched.state


def test_the_endings_tool_reports_like_every_evaluation_tool(capsys) -> None:
    assert gg_endings.main(["--games", "2", "--seed", "3", "--level", "easy", "--against", "random",
                            "--summary"]) == 0
    summary = json.loads(capsys.readouterr().out.strip())
    assert {"game", "games", "seed", "wins", "rates", "ends"} <= set(summary)
    assert summary["game"] == "gorgasali" and summary["games"] == 2 and summary["seed"] == 3
    assert sum(summary["wins"].values()) == 2 and sum(summary["ends"].values()) == 2
    assert summary["wins"]["bot"] == sum(1 for seed in (3, 4) if gg_endings.one_game(seed, seed - 3, "easy",
                                                                                       "random")["won"])


def test_the_gorgasali_eval_writes_each_game_as_it_ends_and_plays_only_the_pair_asked(tmp_path, capsys) -> None:
    from tools import gg_ai_eval

    each = tmp_path / "each.json"
    assert gg_ai_eval.main(["--games", "2", "--seed", "5", "--players", "2", "--against", "levels",
                            "--pair", "normal>easy", "--each", str(each)]) == 0
    cells = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [c["mixed"] for c in cells] == [["easy", "normal"]]
    games = [json.loads(line) for line in each.read_text().splitlines()]
    assert [g["seed"] for g in games] == [5, 6]
    assert {side: sum(g["side"] == side for g in games) for side in cells[0]["wins"]} == cells[0]["wins"]
    assert sorted(g["end"] for g in games) == sorted(e for e, n in cells[0]["ends"].items() for _ in range(n))

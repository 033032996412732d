"""tools/ai_ladder.py end to end: every game's cells played and printed, with tiny counts."""

from __future__ import annotations

import json

import pytest

from tools import ai_ladder

REPORT_KEYS = {"game", "games", "seed", "wins", "rates", "ends", "cell"}


def test_the_ladder_runs_every_game_and_prints_the_whole_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert ai_ladder.main(["--games", "1", "--seed", "7", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    cells = [json.loads(line) for line in out if line.startswith("{")]
    assert {c["game"] for c in cells} == set(ai_ladder.LADDER)
    for cell in cells:
        assert set(cell) >= REPORT_KEYS, cell
        assert cell["games"] == 1 and cell["seed"] == 7
        assert sum(cell["wins"].values()) == 1, cell  # each game counted once, on one side
        assert sum(cell["ends"].values()) in (1, 2), cell  # level against level plays each seed twice
        if cell["game"] == "kings-armory":  # co-operative: the team's wins, and its losses
            assert set(cell["wins"]) == {cell["players"][0], "lost"}, cell
    table = [line for line in out if not line.startswith("{")]
    assert table[0].split() == ["game", "cell", "games", "seeds", "wins", "ends"]
    assert len(table) == 1 + len(cells)
    for game in ai_ladder.LADDER:
        assert sum(1 for line in table if line.startswith(game + " ")) >= 3, game  # vs random, vs simple/levels


def test_heroquest_cells_compare_the_monsters_with_random_and_scripted_heroes_and_level_with_level(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert ai_ladder.main(["--games", "1", "--only", "heroquest", "--level", "normal", "--json"]) == 0
    cells = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [c["cell"] for c in cells] == ["normal vs random heroes", "normal vs scripted heroes",
                                          "monsters normal vs easy", "monsters hard vs normal"]
    assert all("body_taken" in c and "heroes_killed" in c for c in cells)

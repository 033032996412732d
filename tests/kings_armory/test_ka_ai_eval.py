"""tools/ka_ai_eval.py on the shared playout loop: the shared JSON (games, seed, wins, rates, ends) with its extras,
and the same figures as the ladder's King's Armory cells for the same seeds."""

from __future__ import annotations

import json

import pytest

from tools import ai_ladder, ka_ai_eval

SHARED = {"game", "games", "seed", "wins", "rates", "ends"}
EXTRAS = {"players", "seats", "side", "options", "mean_wave", "decisions", "decision_ms_p99", "decision_cpu_ms_p99"}


def test_each_side_prints_the_shared_report_and_the_ladder_gives_the_same_figures(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "2", "--seed", "1000", "--side", "random", "--side", "hard"]
    assert ka_ai_eval.main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    cells, versus = lines[:2], lines[2:]
    for cell, side in zip(cells, ("random", "hard"), strict=True):
        assert set(cell) >= SHARED | EXTRAS, cell
        assert cell["game"] == "kings-armory" and cell["games"] == 2 and cell["seed"] == 1000
        assert cell["side"] == side and cell["players"] == [side] and cell["seats"] == 3
        assert set(cell["wins"]) == {side, "lost"} and sum(cell["wins"].values()) == 2
        assert cell["rates"] == {k: v / 2 for k, v in cell["wins"].items()}
        assert sum(cell["ends"].values()) == 2
        ladder = ai_ladder.team("kings-armory", None if side == "random" else side, seats=3, games=2, seed=1000)
        assert (cell["wins"], cell["ends"]) == (ladder["wins"], ladder["ends"])
    assert len(versus) == 1
    (line,) = versus
    assert set(line) >= SHARED and line["versus"] == "hard>random" and sum(line["wins"].values()) == 2
    assert line["share"] == (line["wins"]["hard"] + line["wins"]["even"] / 2) / 2


def test_a_seat_with_no_legal_move_ends_the_game_as_stuck(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ka_ai_eval.GAME, "legal_actions", lambda state, seat: [])
    got = ka_ai_eval.run(1, 5, "hard", {"map": "short-road"})
    assert got["end"] == "stuck" and not got["won"] and got["took"] == []


def test_boss_res_changes_the_bosses_ranged_and_supernatural_resistance_in_memory_only(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from rules.kings_armory import data

    monkeypatch.setattr(data, "bosses", data.bosses)  # put back whatever the option changes
    before = {key: dict(card["res"]) for key, card in data.bosses().items()}
    assert ka_ai_eval.main(["--games", "1", "--seed", "1000", "--side", "random", "--boss-res", "-1"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["boss_res"] == -1
    after = {key: dict(card["res"]) for key, card in data.bosses().items()}
    assert after["vyrax"] == {"M": before["vyrax"]["M"], "R": int(before["vyrax"]["R"]) - 1,
                              "SN": int(before["vyrax"]["SN"]) - 1}
    assert after["nyx"]["M"] == "Im"  # an immunity stays one
    assert all(int(r) >= 0 for card in after.values() for r in card.values() if r != "Im")

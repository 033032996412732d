"""The command-line tools run and report in the documented shape (no timings are asserted)."""

from __future__ import annotations

import json

from tools import bench, simulate


def test_simulate_prints_one_json_line_and_exits_zero(capsys) -> None:
    assert simulate.main(["--game", "tiny", "--games", "5", "--seed", "3", "--players", "3"]) == 0
    line = json.loads(capsys.readouterr().out.strip())
    assert line["games"] == 5 and line["errors"] == 0 and line["invariant_failures"] == 0
    assert line["actions"] > 0 and "seconds" in line


def test_simulate_in_worker_processes_gives_the_same_totals(capsys) -> None:
    lines = []
    for jobs in ("1", "2"):
        assert simulate.main(["--game", "tiny", "--games", "6", "--seed", "5", "--players", "2", "--jobs", jobs]) == 0
        lines.append(json.loads(capsys.readouterr().out.strip()))
    same = ("games", "finished", "actions", "errors", "invariant_failures")
    assert [line["jobs"] for line in lines] == [1, 2]
    assert {k: lines[0][k] for k in same} == {k: lines[1][k] for k in same}


def test_simulate_plays_on_an_attached_file(capsys) -> None:
    from rules.kings_armory import maps as kmaps

    sample = str(kmaps.CUSTOM_DIR / "river-bend.json")
    assert simulate.main(["--game", "kings-armory", "--games", "1", "--seed", "2", "--file", sample]) == 0
    line = json.loads(capsys.readouterr().out.strip())
    assert line["finished"] == 1 and line["errors"] == 0 and line["invariant_failures"] == 0


def test_simulate_unknown_game_fails(capsys) -> None:
    assert simulate.main(["--game", "chess"]) == 2
    assert "unknown game" in capsys.readouterr().out


def test_bench_prints_every_figure(capsys) -> None:
    assert bench.main(["--game", "tiny", "--steps", "60", "--commands", "4", "--commits", "10"]) == 0
    figures = json.loads(capsys.readouterr().out)["tiny"]
    for key in ("apply_legal_us_p50", "apply_legal_us_p99", "committed_actions_per_s", "command_ms_p50",
                "command_ms_p99"):
        assert figures[key] > 0, key


def test_simulate_counts_the_answers_to_out_of_turn_questions(capsys) -> None:
    args = ["--game", "kings-armory", "--games", "2", "--seed", "1", "--players", "2", "--fast", "--decisions"]
    assert simulate.main(args) == 0
    line = json.loads(capsys.readouterr().out.strip())
    assert sum(line["decisions"].values()) > 0  # the block windows of two random games were answered
    assert set(line["decisions"]) <= {"block", "wait", "pass", "play", "buy_card", "go_on", "hold", "reroll",
                                      "keep_roll", "accept_trade", "decline_trade", "order"}


def test_the_shared_evaluation_loop_plays_levels_and_policies_and_reports_one_json(capsys) -> None:
    import io

    from rules.base import Action, Game
    from rules.rng import Rng
    from tests.tinygame import TinyGame, TinyState
    from tools.playout import play, report

    asked: list[tuple[int, str]] = []

    class Spy(TinyGame):
        def ai_action(self, state: TinyState, seat: int, rng: Rng, level: str = "normal") -> Action:
            asked.append((seat, level))
            return super().ai_action(state, seat, rng, level)

    def ends_turns(game: Game[TinyState], state: TinyState, seat: int, rng: Rng) -> Action:
        legal = [la.action for la in game.legal_actions(state, seat)]
        return Action.of("end") if Action.of("end") in legal else legal[0]

    played = play(Spy(), seats=3, seed=4, levels={0: "hard"}, policies={1: ends_turns})
    assert played.end != "limit" and played.actions > 0 and played.winners
    assert asked and {seat for seat, _ in asked} == {0} and {level for _, level in asked} == {"hard"}
    again = play(Spy(), seats=3, seed=4, levels={0: "hard"}, policies={1: ends_turns})
    assert (again.winners, again.actions) == (played.winners, played.actions)  # a game depends on its seed only
    out = io.StringIO()
    data = report("tiny", 4, 9, {"ai": 3, "random": 1}, {"won": 4}, out=out, players=3)
    assert json.loads(out.getvalue()) == data
    assert data == {"game": "tiny", "games": 4, "seed": 9, "wins": {"ai": 3, "random": 1},
                    "rates": {"ai": 0.75, "random": 0.25}, "ends": {"won": 4}, "players": 3}


def test_bench_times_the_ai_per_level(capsys) -> None:
    assert bench.main(["--game", "tiny", "--ai", "--decisions", "30"]) == 0
    figures = json.loads(capsys.readouterr().out)["tiny"]
    for level in ("easy", "normal", "hard"):
        assert figures[level]["decisions"] == 30 and figures[level]["ai_ms_p99"] >= figures[level]["ai_ms_p50"] >= 0


def test_the_ai_ladder_prints_every_cell_of_a_game(capsys) -> None:
    from tools import ai_ladder

    assert ai_ladder.main(["--games", "2", "--only", "hero-realms", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    cells = [json.loads(line) for line in out if line.startswith("{")]
    # by default both normal (a table's level unless it asks) and hard (the strongest) meet random and simple
    assert [c["cell"] for c in cells] == ["normal vs random", "normal vs simple", "hard vs random", "hard vs simple",
                                          "normal vs easy", "hard vs normal"]
    assert all(c["game"] == "hero-realms" and sum(c["wins"].values()) == 2 for c in cells)
    assert all(len(c["load_average"]) == 3 for c in cells)
    table = [line for line in out if line.startswith("hero-realms")]
    assert len(table) == 6
    for cell, line in zip(cells, table, strict=True):  # each row: the seeds played and each side's wins
        assert " 1000-1001 " in line
        for side, won in cell["wins"].items():
            assert f"{side} {won} (" in line, line


def test_the_ai_ladder_plays_the_levels_asked_against_random_and_simple(capsys) -> None:
    from tools import ai_ladder

    assert ai_ladder.main(["--games", "1", "--only", "hero-realms", "--level", "easy", "--json"]) == 0
    cells = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert [c["cell"] for c in cells] == ["easy vs random", "easy vs simple", "normal vs easy", "hard vs normal"]

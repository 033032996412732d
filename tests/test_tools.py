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

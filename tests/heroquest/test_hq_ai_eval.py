"""The monster-level evaluation (tools/hq_ai_eval.py): `--versus` plays each level once per seed and reports the
same head-to-head as playing every pair separately."""

from __future__ import annotations

from tools.hq_ai_eval import levels_against, versus


def test_versus_reports_each_level_against_the_one_below_as_the_pairwise_runs_do() -> None:
    reports = versus(games=2, seed=5, rounds=3)
    assert [r["players"] for r in reports] == [["normal", "easy"], ["hard", "normal"]]
    for r in reports:
        high, low = r["players"]
        alone = levels_against(low, high, games=2, seed=5, rounds=3)
        assert r["wins"] == alone["wins"] and r["beats"] == alone["beats"]
        assert r["heroes_killed"] == alone["heroes_killed"] and r["body_taken"] == alone["body_taken"]
        assert sum(r["wins"].values()) == 2

"""Issue 23: the AI's levels (easy, normal, hard) and the greedy yardstick of tools/gi_greedy.py."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rules.base import SYSTEM, Action, LegalAction
from rules.guerra_de_indagar import GAME, ai
from rules.guerra_de_indagar.data import monsters
from rules.guerra_de_indagar.state import State
from rules.rng import Rng
from tests.guerra_de_indagar.helpers import build_under_helgoth, clear_board, lab, my_turn, put, started
from tools import gi_ai_eval
from tools.gi_greedy import greedy_action


def _first_turn(seed: int = 1) -> tuple[State, int]:
    s = started(2, seed)
    while SYSTEM in GAME.to_act(s) or s["pending"]:
        seat = min(GAME.to_act(s))
        action = GAME.system_action(s) if seat == SYSTEM else GAME.ai_action(s, seat, Rng.from_seed(1))
        s = GAME.apply(s, seat, action).state
    return s, min(GAME.to_act(s))


def _moves(level: str, seed: int = 1, n: int = 200) -> list[str]:
    """The tokens of `n` own-turn choices of `level`, each from a fresh generator on the same position."""
    s, seat = _first_turn(seed)
    return [GAME.ai_action(s, seat, Rng.from_seed(i), level=level).token() for i in range(n)]


def test_every_level_answers_legally_and_normal_is_the_default() -> None:
    s, seat = _first_turn()
    for level in ("easy", "normal", "hard", "unknown"):
        assert GAME.is_legal(s, seat, GAME.ai_action(s, seat, Rng.from_seed(3), level=level))
    assert GAME.ai_action(s, seat, Rng.from_seed(3)) == GAME.ai_action(s, seat, Rng.from_seed(3), level="normal")
    assert GAME.ai_action(s, seat, Rng.from_seed(3), level="unknown") == GAME.ai_action(s, seat, Rng.from_seed(3))


def test_easy_blunders_now_and_then_where_normal_and_hard_never_do() -> None:
    hard, normal, easy = _moves("hard"), _moves("normal"), _moves("easy")
    assert len(set(hard)) == 1 and len(set(normal)) == 1  # the same position: the same move
    share = sum(1 for move in easy if move != normal[0]) / len(easy)
    assert 0.3 < share < 0.9, share  # 75 % of its moves a random legal one, which may be the same
    assert not any(move.startswith(("trade", "spirit")) for move in easy)  # never a thrown-away resource


def test_the_level_does_not_outlive_its_call() -> None:
    s, seat = _first_turn()
    GAME.ai_action(s, seat, Rng.from_seed(3), level="hard")
    assert ai._level() == ai.LEVELS["normal"]


def test_hard_walks_up_to_a_lone_enemy_outpost_and_raids_it() -> None:
    s = clear_board(started(2, 1))
    s["round"] = 3
    for mon in s["monsters"].values():
        mon.update({"at": None, "gone": True})
    s["players"][0]["commander"], s["players"][1]["commander"] = "paladin", "abomination"
    put(s, "ariane", "0,1")
    s["tiles"]["2,0"]["t"] = "gold"
    s["outposts"]["2,0"] = {"owner": 1, "level": 1, "dmg": 0, "dropped": False}  # 2 steps away
    s = my_turn(s, 0, "ariane")
    assert GAME.ai_action(s, 0, Rng.from_seed(1), level="normal") == Action.of("end")  # not worth a walk
    step = GAME.ai_action(s, 0, Rng.from_seed(1), level="hard")
    assert step.kind == "move"
    s = GAME.apply(s, 0, step).state
    assert GAME.ai_action(s, 0, Rng.from_seed(1), level="hard") == Action.of("attack", to=lab(s, "2,0"))


def test_the_greedy_player_builds_upgrades_gathers_or_attacks_first() -> None:
    s, seat = _first_turn()
    legal = [la.action.kind for la in GAME.legal_actions(s, seat)]
    assert "activate" in legal
    assert GAME.is_legal(s, seat, greedy_action(s, seat, Rng.from_seed(1)))
    hid = next(h for h, hero in sorted(s["heroes"].items()) if hero["owner"] == seat)
    spot = next(key for key, t in sorted(s["tiles"].items()) if t["t"] == "gold" and t["area"] == seat)
    s["tiles"][spot]["up"] = True
    s["heroes"][hid]["at"] = spot
    s["players"][seat]["res"]["gold"] = 5
    s = GAME.apply(s, seat, Action.of("activate", hero=hid)).state
    assert all(greedy_action(s, seat, Rng.from_seed(i)) == Action.of("build") for i in range(20))


def test_the_eval_cells_report_the_shared_json_and_the_ladders_figures() -> None:
    """gi_ai_eval plays through the shared loop and reports its JSON (issue 23 item 5): the same wins and ends as
    the ladder's Guerra cell on the same seeds, its own figures as extra fields."""
    from tools import ai_ladder

    out = gi_ai_eval.cell("hard_greedy", 2, 5)
    assert {"game", "games", "seed", "wins", "rates", "ends"} <= set(out)
    assert out["game"] == "guerra-de-indagar" and out["games"] == 2 and out["seed"] == 5
    assert set(out["wins"]) >= {"hard", "greedy"} and sum(out["wins"].values()) == 2
    assert out["rates"] == {side: round(won / 2, 4) for side, won in out["wins"].items()}
    assert sum(out["ends"].values()) == 2 and all(end.startswith("gi.end.") for end in out["ends"])
    assert out["cell"] == "hard_greedy" and out["level"] == "hard" and out["rival"] == "greedy"
    assert 0 <= out["reached_10"] <= out["wins"]["hard"] and out["decisions"] > 0
    assert out["monster_wins"] == out["wins"].get("nobody", 0) == sum(out["monster_wins_by"].values())
    assert out["decision_wall_ms_p99"] >= 0 and len(out["load_average"]) == 3  # wall time and the load it met
    greedy = ai_ladder._policy_from("tools.gi_greedy", "greedy_action")
    assert greedy is not None
    ladder = ai_ladder.duel("guerra-de-indagar", ("hard", "hard"), ("greedy", greedy), seats=2, games=2, seed=5)
    assert (out["wins"], out["ends"]) == (ladder["wins"], ladder["ends"])


def test_two_games_deciding_at_once_in_two_threads_each_play_their_own_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table runs bots' decisions in worker threads: one game's hard AI never reads another's normal level."""
    import threading

    seen: dict[str, str] = {}
    hard_inside, normal_done = threading.Event(), threading.Event()
    names = {id(profile): name for name, profile in ai.LEVELS.items()}

    def decide(legal: Sequence[LegalAction], s: State, seat: int, rng: Rng) -> Action:
        if threading.current_thread().name == "hard":
            hard_inside.set()
            normal_done.wait(5)  # the normal game decides in full while the hard one is thinking
        seen[threading.current_thread().name] = names[id(ai._level())]
        return legal[0].action

    monkeypatch.setattr(ai, "_choose", decide)
    s, seat = _first_turn()
    legal = GAME.legal_actions(s, seat)

    def play(level: str) -> None:
        if level == "normal":
            hard_inside.wait(5)
        ai.choose(legal, s, seat, Rng.from_seed(1), level)
        if level == "normal":
            normal_done.set()

    threads = [threading.Thread(target=play, args=(level,), name=level) for level in ("hard", "normal")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == {"hard": "hard", "normal": "normal"}


def test_the_eval_tool_changes_the_hard_level_in_memory_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--hard FIELD=VALUE` weighs a change to hard on tuning seeds; an unknown field or a non-number is refused."""
    monkeypatch.setitem(ai.LEVELS, "hard", ai.LEVELS["hard"])
    for bad in ("bogus=1", "margin=two", "cage=1"):
        with pytest.raises(SystemExit):
            gi_ai_eval.main(["--hard", bad, "--games", "0"])
    gi_ai_eval.set_hard({"margin": 3, "raid": False})
    assert ai.LEVELS["hard"].margin == 3 and not ai.LEVELS["hard"].raid


def test_the_eval_tool_weighs_a_victory_value_in_memory() -> None:
    """`--victory tijian=9` (a proposed provisional value) reaches the engine and the AI, past the read-only data."""
    s = started(4, 1)
    base = int(monsters()["primary"]["tijian"]["victory"]["base"])
    try:
        gi_ai_eval.set_victory({"tijian": base + 5})
        assert ai._need(s, "tijian") == base + 5 + 4
    finally:
        gi_ai_eval.set_victory({"tijian": base})
    assert ai._need(s, "tijian") == base + 4


def test_hard_takes_the_forest_tribe_when_arkland_is_taken_where_normal_takes_the_sect() -> None:
    """Against Arkland the Sect (whose heroes may not build) loses most games; the Tribe does better."""
    s = GAME.new(GAME.resolve_options({}), 2, 1)
    first, second = s["order"]
    assert GAME.ai_action(s, first, Rng.from_seed(1), level="hard") == Action.of("faction", faction="arkland")
    s = GAME.apply(s, first, Action.of("faction", faction="arkland")).state
    assert GAME.ai_action(s, second, Rng.from_seed(1), level="normal") == Action.of("faction", faction="sect")
    assert GAME.ai_action(s, second, Rng.from_seed(1), level="hard") == Action.of("faction", faction="tribes")


def test_easy_never_builds_by_accident() -> None:
    """Easy's random outposts fed Helgoth: it builds only when normal would (here it would not, Helgoth is near)."""
    s, seat = build_under_helgoth()
    s = my_turn(s, seat, "ariane")
    assert any(la.action == Action.of("build") for la in GAME.legal_actions(s, seat))
    assert GAME.ai_action(s, seat, Rng.from_seed(1), level="normal") != Action.of("build")
    easy = [GAME.ai_action(s, seat, Rng.from_seed(i), level="easy") for i in range(200)]
    assert Action.of("build") not in easy
    assert len(set(easy)) > 3  # it still blunders

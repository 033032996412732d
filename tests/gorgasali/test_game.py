"""Set-up, options, data, the zone, moves built in steps, decisions, texts and bots of the Gorgasali engine."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

import i18n
from rules.base import SYSTEM, Action, BadOptions, Game
from rules.gorgasali import GAME
from rules.gorgasali.board import board_of
from rules.gorgasali.data import CHARACTERS, MAP, SUPPORT, WEAPONS
from rules.gorgasali.engine import square
from rules.gorgasali.state import State
from rules.rng import Rng
from rules.text import Msg, iter_strings
from tests.gorgasali.helpers import at, force, pass_turn, plain, play, setup, why
from tools import gg_ai_eval
from tools.playout import playout

NOTES = Path(__file__).resolve().parents[2] / "data" / "gorgasali" / "NOTES.md"


def test_the_standard_island_matches_the_digest() -> None:
    board = board_of(MAP)
    counts = Counter(board.terrain)
    assert (board.w, board.h) == (30, 30)
    assert counts == {".": 572, "S": 20, "C": 72, "H": 4, "F": 84, "M": 48, "W": 84, "T": 16}
    chests = Counter(board.zone[i] for i, ch in enumerate(board.terrain) if ch == "C")
    assert chests == {1: 32, 2: 24, 3: 12, 4: 4}
    assert [board.name(a) for a, _ in board.sectors][:3] == ["C1", "I1", "O1"]
    assert all(board.terrain[a] == "S" and board.dist(a, b) == 1 for a, b in board.sectors)
    assert sorted(board.name(i) for i, ch in enumerate(board.terrain) if ch == "H") == ["I11", "K22", "T9", "V20"]


def test_decks_and_cards_add_up_and_all_have_names() -> None:
    assert sum(w.count for w in WEAPONS.values()) == 101
    assert sum(c.count for c in SUPPORT.values()) == 214
    s = GAME.new(GAME.resolve_options({}), 2, 1)
    assert len(s["wdeck"]) == 101 and len(s["sdeck"]) == 214
    for lang in i18n.LANGS:
        for key in [*WEAPONS, *SUPPORT]:
            assert i18n.has(f"gg.card.{key}", lang), key
        for c in CHARACTERS.values():
            assert i18n.has(f"gg.char.{c.id}", lang) and i18n.has(f"gg.ability.{c.ability}", lang)


def test_notes_list_every_provisional_tag_used_in_the_data() -> None:
    notes = NOTES.read_text(encoding="utf-8")
    tags: set[str] = set()
    for name in ("map.json", "characters.json", "weapons.json", "support.json", "rules.json"):
        text = (NOTES.parent / name).read_text(encoding="utf-8")
        tags |= set(re.findall(r"P-\d\d", text))
    assert tags and all(tag in notes for tag in tags), sorted(t for t in tags if t not in notes)
    for n in range(1, 36):
        assert f"P-{n:02d}" in notes
    for n in range(1, 61):
        assert f"A-{n:02d}" in notes


def test_new_game_rolls_first_player_and_distinct_sectors() -> None:
    s = GAME.new(GAME.resolve_options({"characters": "random"}), 10, 5)
    again = GAME.new(GAME.resolve_options({"characters": "random"}), 10, 5)
    assert json.dumps(GAME.to_json(s), sort_keys=True) == json.dumps(GAME.to_json(again), sort_keys=True)
    squares = [p["pos"] for p in s["players"]]
    sectors = {a for a, _ in board_of(s["board"]).sectors}
    assert len(set(squares)) == 10 and set(squares) <= sectors
    assert len({p["char"] for p in s["players"]}) == 10 and sorted(s["order"]) == list(range(10))
    octor = next(p["seat"] for p in s["players"] if p["char"] == "octor")
    assert s["phase"] == "octor" and GAME.to_act(s) == {octor}  # he chooses a neighbour's ability first
    target = next(a.action for a in GAME.legal_actions(s, octor))
    s = GAME.apply(s, octor, target).state
    assert s["phase"] == "play" and s["turn"] == s["order"][0]
    firsts = {GAME.new(GAME.resolve_options({"characters": "random"}), 4, seed)["order"][0] for seed in range(30)}
    assert firsts == {0, 1, 2, 3}  # drawn with the dice, never the join order


def _teams(s: State) -> list[set[int]]:
    by_team: dict[int, set[int]] = {}
    for p in s["players"]:
        by_team.setdefault(p["team"], set()).add(p["seat"])
    return sorted(by_team.values(), key=min)


def test_duo_teammates_sit_opposite_and_share_a_sector() -> None:
    s = GAME.new(GAME.resolve_options({"mode": "duo", "characters": "random"}), 6, 3)
    assert _teams(s) == [{0, 1}, {2, 3}, {4, 5}]  # who joined one after the other plays together
    board = board_of(s["board"])
    order, team = s["order"], {p["seat"]: p["team"] for p in s["players"]}
    for k, seat in enumerate(order):  # teams alternate: a teammate comes back after the others
        assert team[order[(k + 3) % 6]] == team[seat] and len({team[order[(k + j) % 6]] for j in range(3)}) == 3
        mate = s["players"][next(o for o in range(6) if o != seat and team[o] == team[seat])]
        assert board.dist(square(s["players"][seat]), square(mate)) == 1
    drawn = [_teams(GAME.new(GAME.resolve_options({"mode": "duo", "teams": "random"}), 6, seed))
             for seed in range(8)]
    assert all(sorted(map(len, t)) == [2, 2, 2] for t in drawn) and len({str(t) for t in drawn}) > 1
    with pytest.raises(BadOptions):
        GAME.check_seats({"mode": "duo"}, 5)
    assert GAME.seat_range({"mode": "duo"}) == (4, 10)


def test_the_zone_closes_as_a_system_step_after_round_five() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (5, 8)], plain(zone="1"))
    s["round"] = 5
    s = pass_turn(s, 0)
    force(s, 1, 2)
    s = play(s, 1, "roll")
    s = play(s, 1, "skip")
    s = play(s, 1, "end")
    assert GAME.to_act(s) == {SYSTEM} and s["round"] == 6 and s["zone"] == 0
    assert GAME.system_action(s) == Action.of("close_zone")
    step = GAME.apply(s, SYSTEM, GAME.system_action(s))
    assert step.state["zone"] == 1 and GAME.to_act(step.state) == {0}
    assert any(e.msg.key == "gg.ev.zone_closed" for e in step.events)


def test_moves_are_built_step_by_step() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)])
    force(s, 1, 2)
    s = play(s, 0, "roll")
    first = GAME.choices(s, 0, [])
    assert isinstance(first, list) and "move" in [c.token for c in first]
    steps = GAME.choices(s, 0, ["move"])
    assert isinstance(steps, list) and {c.token for c in steps} == {"N", "E", "S", "W"}
    more = GAME.choices(s, 0, ["move", "E"])
    assert isinstance(more, list) and {c.token for c in more} == {"N", "E", "S", "go"}
    done = GAME.choices(s, 0, ["move", "E", "E", "E"])
    assert done == Action.of("move", path=["E", "E", "E"])
    assert GAME.is_legal(s, 0, done)
    s = GAME.apply(s, 0, done).state
    assert at(s, 0) == (5, 4) and s["t"]["stage"] == "after"


def _skip(s: State, seat: int) -> Action:
    action = GAME.skip_action(s, seat)
    assert action is not None, "nothing to skip"
    return action


def test_skip_action_and_quick_buttons() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)])
    assert GAME.skip_action(s, 0) == Action.of("roll")
    assert [a.kind for _, a in GAME.quick_actions(s)] == ["roll", "chest"]
    s = GAME.apply(s, 0, _skip(s, 0)).state
    while s["turn"] == 0:
        s = GAME.apply(s, 0, _skip(s, 0)).state
    assert s["turn"] == 1


def test_every_label_and_event_resolves_in_both_languages() -> None:
    keys: set[str] = set()

    def collect(value: object) -> None:
        if isinstance(value, Msg):
            keys.add(value.key)
            for p in value.params.values():
                collect(p)

    def chooser(game: Game, state: State, seat: int, rng: Rng) -> Action:
        legal = game.legal_actions(state, seat)
        for la in legal:
            collect(la.label)
        for d in game.decisions(state):
            collect(d.prompt)
        action = rng.choice(legal).action
        for e in game.apply(state, seat, action).events:
            collect(e.msg)
        return action

    for seats, options in ((3, {}), (4, {"mode": "duo"})):
        for seed in (1, 2):
            playout(GAME, seats=seats, seed=seed, options=options, chooser=chooser, deep=False, max_actions=3000)
    missing = sorted(k for k in keys for lang in i18n.LANGS if not i18n.has(k, lang))
    assert missing == [] and len(keys) > 60


def test_views_are_public_and_never_show_the_decks() -> None:
    s = GAME.new(GAME.resolve_options({"characters": "random"}), 3, 2)
    for seat in (None, 0, 1, 2):
        text = set(iter_strings(GAME.view(s, seat)))
        assert not text & (set(s["wdeck"]) | set(s["sdeck"]))
    assert GAME.view(s, None)["decks"] == {"weapons": 101, "support": 214, "weapon_discards": 0,
                                           "support_discards": 0}


@pytest.mark.parametrize("seats", [2, 4, 10])
def test_bots_play_whole_games(seats: int) -> None:
    def bot(game: Game, state: State, seat: int, rng: Rng) -> Action:
        action = game.ai_action(state, seat, rng)
        assert game.is_legal(state, seat, action), action
        return action

    result = playout(GAME, seats=seats, seed=11, chooser=bot, deep=False, max_actions=20000)
    assert result.finished and result.errors == [] and result.invariant_failures == []


def test_bots_beat_random_players() -> None:
    wins = 0
    for i in range(8):
        s = GAME.new(GAME.resolve_options({}), 4, 100 + i)
        rng = Rng.from_seed(i)
        while GAME.outcome(s) is None:
            seat = min(GAME.to_act(s))
            if seat == SYSTEM:
                action = GAME.system_action(s)
            elif seat == 0:
                action = GAME.ai_action(s, seat, rng)
            else:
                action = rng.choice(GAME.legal_actions(s, seat)).action
            s = GAME.apply(s, seat, action).state
        outcome = GAME.outcome(s)
        assert outcome is not None
        wins += 0 in outcome.winners
    assert wins >= 6


def test_refusals_name_the_reason() -> None:
    s = setup(["armazi", "ebue"], [(5, 1), (9, 9)])
    assert why(s, 1, "roll") == "gg.err.not_your_turn"
    assert why(s, 0, "end") == "gg.err.move_first"
    assert why(s, 0, "step", dir="E") == "gg.err.not_now"
    assert why(s, 0, "fly") == "gg.err.unknown"


def test_the_bot_evaluation_tool_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert gg_ai_eval.main(["--games", "2", "--players", "2"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["game"] == "gorgasali" and line["games"] == 2 and line["seed"] == 1
    assert sum(line["wins"].values()) == 2 and 0 <= line["rates"]["bot"] <= 1 and sum(line["ends"].values()) == 2

"""AI heroes wait for their human teammates: the starting towers and the team's gold are left to the team until
every other seat has had its chance, and what the AI would do is told to everyone as a suggestion."""

from __future__ import annotations

import pytest

import i18n
from rules.base import SYSTEM, Action, Event
from rules.kings_armory import GAME, ai, coop
from rules.kings_armory.board import board
from rules.kings_armory.shapes import State
from rules.rng import Rng
from table import Table, Who

from .coop_watch import SHOPPING, Watcher, human_move, play, tally

ALICE, BOB = Who(1, "Alice"), Who(2, "Bob")
NAMES = {0: "Alice", 1: "Ada (bot)", 2: "Bob"}


def _picked(seats: int = 3, seed: int = 5) -> State:
    """A game whose heroes are picked: the set-up (starting towers, heroes' places) is open."""
    s = GAME.new(GAME.resolve_options({"map": "short-road"}), seats, seed)
    for seat, hero in zip(range(seats), ("valcor", "ember", "felicity", "midnight"), strict=False):
        s = GAME.apply(s, seat, Action.of("pick", hero=hero)).state
    assert s["phase"] == "setup"
    return s


def _ai(s: State, seat: int) -> Action:
    return GAME.ai_action(s, seat, Rng.from_seed(1))


def _said(step_events: list[Event], lang: str = "en") -> list[str]:
    return [i18n.t(e.msg, lang, lambda x: NAMES.get(x, "?")) for e in step_events if e.to is None]


def test_the_ai_leaves_the_starting_towers_to_the_team_and_says_where_it_would_build() -> None:
    s = _picked()
    action = _ai(s, 1)
    assert action.kind == "defer" and [x.split(":")[0] for x in coop.plan_of(action)] == ["build"] * 3
    step = GAME.apply(s, 1, action)
    after = step.state
    assert after["towers"] == [] and after["free_towers"] == 3 and GAME.to_act(after) == {0, 2}
    squares = [x.split(":")[1] for x in coop.plan_of(action)]
    en, es = _said(step.events, "en"), _said(step.events, "es")
    assert en == [f"Ada (bot) leaves the starting towers to the team, and suggests: a tower at {squares[0]}, "
                  f"a tower at {squares[1]} and a tower at {squares[2]}."]
    assert es == [f"Ada (bot) deja las torres iniciales al equipo, y propone: una torre en {squares[0]}, "
                  f"una torre en {squares[1]} y una torre en {squares[2]}."]
    assert not GAME.legal_actions(after, 1) and not GAME.is_legal(after, 1, Action.of("build", at=squares[0]))
    why = GAME.why_illegal(after, 1, Action.of("build", at=squares[0]))
    assert why is not None and why.key == "ka.coop.why.held"


def test_the_ai_comes_back_when_every_other_seat_is_ready_and_then_does_its_share() -> None:
    s = GAME.apply(_picked(), 1, Action.of("defer")).state
    for square in ("build", "build", "build"):
        build = next(la.action for la in GAME.legal_actions(s, 0) if la.action.kind == square)
        s = GAME.apply(s, 0, build).state
    for seat in (0, 2):
        s = GAME.apply(s, seat, next(la.action for la in GAME.legal_actions(s, seat)
                                     if la.action.kind == "place")).state
    s = GAME.apply(s, 0, Action.of("ready")).state
    assert GAME.to_act(s) == {2}
    step = GAME.apply(s, 2, Action.of("ready"))
    assert _said(step.events) == ["Bob is ready.", "Everyone has had their say: Ada (bot) goes on now."]
    s = step.state
    assert GAME.to_act(s) == {1} and _ai(s, 1).kind == "place"  # no second step back: its turn has come
    assert not any(la.action.kind == "defer" for la in GAME.legal_actions(s, 1))


def test_between_waves_the_ai_proposes_its_purchases_with_their_price_and_spends_nothing() -> None:
    s = _picked()
    s.update({"phase": "between", "free_towers": 0, "gold": 450, "wave": 2})
    action = _ai(s, 1)
    assert action.kind == "defer" and action["plan"]
    step = GAME.apply(s, 1, action)
    assert step.state["gold"] == 450
    line = _said(step.events)[0]
    planned = coop.try_plan(s, 1, coop.plan_of(action))
    assert planned is not None
    spent = 450 - planned["gold"]
    assert spent > 0 and line.startswith("Ada (bot) waits for the team before spending the shared gold, and "
                                         f"suggests spending {spent} gold on ")
    assert _said(step.events, "es")[0].startswith("Ada (bot) espera al equipo antes de gastar el oro común, y "
                                                  f"propone gastar {spent} de oro en ")


def test_champions_of_one_kind_proposed_together_are_counted() -> None:
    s = _picked()
    s.update({"phase": "between", "free_towers": 0, "gold": 900, "wave": 2})
    step = GAME.apply(s, 1, Action.of("defer", plan=("hire:archer", "hire:archer", "hire:cleric")))
    assert _said(step.events) == ["Ada (bot) waits for the team before spending the shared gold, and suggests "
                                  "spending 450 gold on 2 new Archers and a new Cleric."]
    assert _said(step.events, "es") == ["Ada (bot) espera al equipo antes de gastar el oro común, y propone gastar "
                                        "450 de oro en 2 nuevos campeones (Arquero) y un nuevo campeón (Clérigo)."]


def test_a_second_ai_builds_its_proposal_on_the_first_ones() -> None:
    s = _picked(4)
    s = GAME.apply(s, 1, _ai(s, 1)).state
    second = _ai(s, 2)
    first = [text for _, text in s["proposed"]]
    assert first and second.kind == "defer"
    assert not set(first) & set(coop.plan_of(second)), "the same tower twice"


def test_stepping_back_is_once_per_round_and_never_alone_and_a_proposal_must_be_doable() -> None:
    s = _picked()
    path = board(s["map"]).label(sorted(board(s["map"]).path)[0])
    assert not GAME.is_legal(s, 1, Action.of("defer", plan=[f"build:{path}"]))
    assert not GAME.is_legal(s, 1, Action.of("defer", plan=["hire:archer"]))  # no hiring during the set-up
    assert not GAME.is_legal(s, 1, Action.of("defer", plan=["steal:gold"]))
    assert not GAME.is_legal(s, 1, Action.of("defer", note="x"))
    s = GAME.apply(s, 1, Action.of("defer")).state
    assert not GAME.is_legal(s, 1, Action.of("defer"))
    solo = _picked(1)
    assert not any(la.action.kind == "defer" for la in GAME.legal_actions(solo, 0))
    assert _ai(solo, 0).kind == "build"  # alone, there is nobody to wait for


def test_a_player_who_runs_out_of_time_with_towers_left_leaves_them_to_the_team() -> None:
    s = _picked()
    assert GAME.timeout_action(s, 0) == Action.of("defer")


def test_an_all_ai_team_plays_the_same_moves_as_without_stepping_back(monkeypatch: pytest.MonkeyPatch) -> None:
    def moves(seats: int) -> list[tuple[int, Action]]:
        s = GAME.new(GAME.resolve_options({"map": "short-road"}), seats, 4)
        rng, out = Rng.from_seed(4), []
        while GAME.outcome(s) is None and s["wave"] <= 2:
            seat = min(GAME.to_act(s))
            action = GAME.system_action(s) if seat == SYSTEM else GAME.ai_action(s, seat, rng)
            s = GAME.apply(s, seat, action).state
            out.append((seat, action))
        return [(seat, a) for seat, a in out if a.kind != "defer"]

    stepping = moves(3)
    monkeypatch.setattr(coop, "can_defer", lambda s, seat: False)
    assert moves(3) == stepping


def test_humans_shop_before_the_ai_in_every_round_and_the_log_replays() -> None:
    games = [play(seed, last_wave=2) for seed in (1, 2)]
    figures = tally(games)
    assert figures["windows"] >= 5
    assert figures["humans_first"] == figures["windows"], figures
    assert figures["ai_proposed"] == figures["windows"] and figures["ai_spent_after_humans"] >= 1
    for game in games:
        s = GAME.new(GAME.resolve_options({"map": "short-road"}), 3, game.seed)
        for seat, action in game.log:
            s = GAME.apply(s, seat, action).state
        assert GAME.to_json(s) == GAME.to_json(game.final)


async def test_through_the_table_the_ai_seat_waits_for_both_people(table: Table) -> None:
    await table.new(guild_id=9, channel_id=80, who=ALICE, game_type="kings-armory", options={"map": "short-road"},
                    ai_seats=1)
    await table.join(80, BOB)
    await table.start(80, ALICE)
    row = await table.game_for(80)
    assert row is not None
    rng = Rng.from_seed(3)
    for _ in range(3000):
        s = (await table.inspect(row.id)).state
        assert s is not None
        if (s["wave"] >= 2 and s["phase"] not in SHOPPING) or GAME.outcome(s) is not None:
            break
        seat = rng.choice(sorted(GAME.to_act(s) & {0, 2}))
        await table.act(80, ALICE if seat == 0 else BOB, human_move(s, seat, rng))
    watcher = Watcher({0, 2}, {1})
    s = GAME.new(row.options, 3, row.seed)
    for entry in await table.store.actions(row.id):
        if entry.kind != "start":
            assert entry.action is not None and entry.seat is not None
            after = GAME.apply(s, entry.seat, Action.from_json(entry.action)).state
            watcher.see(s, entry.seat, Action.from_json(entry.action), after)
            s = after
    assert [w.phase for w in watcher.windows] == ["setup", "between"]
    assert all(not w.ai_first for w in watcher.windows) and all(w.proposals for w in watcher.windows)


def test_the_ai_never_proposes_what_it_could_not_do() -> None:
    s = _picked()
    s.update({"phase": "between", "free_towers": 0, "gold": 2000, "wave": 2})
    plan = ai._plan(s, 1)
    assert plan and coop.try_plan(s, 1, plan) is not None

"""The table layer: lobby, permissions, turns, undo, concurrency, logs, reminders, AI seats, replay."""

from __future__ import annotations

import asyncio
import itertools
from typing import ClassVar

import pytest

from rules.base import Action, GameOver, IllegalAction, NotYourTurn, RuleError
from rules.rng import Rng
from rules.text import Lit, Msg, msg
from storage import Store
from storage.rows import GameRow
from table import NoGame, NotSeated, Report, StaleAction, Table, TableError
from tests.conftest import ALICE, BOB, CAROL, MOD
from tests.table_reads import channel_row, tiny_state
from tests.tinygame import TINY, TinyGame, TinyState

CH = 100


@pytest.fixture
async def store(any_store):
    """Every table test runs on SQLite and on PostgreSQL."""
    return any_store


async def started(table: Table, players=(ALICE, BOB), ai: int = 0):
    await table.new(guild_id=1, channel_id=CH, who=players[0], game_type="tiny", ai_seats=ai)
    for p in players[1:]:
        await table.join(CH, p)
    return await table.start(CH, players[0])


async def current(table: Table) -> tuple[GameRow, TinyState]:
    row = await table.game_for(CH)
    if row is None:
        row = (await table.store.games_in_guild(1, include_closed=True))[0]
    loaded = await table.inspect(row.id)
    return row, tiny_state(loaded)


def who_for(seat: int, players=(ALICE, BOB)):
    return players[seat]


async def test_lobby_flow_and_refusals(table: Table) -> None:
    report = await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", options={"target": "20"})
    assert report.status == "lobby" and next(m.key for m in report.public) == "core.lobby.created"
    with pytest.raises(TableError) as busy:
        await table.new(guild_id=1, channel_id=CH, who=BOB, game_type="tiny")
    assert busy.value.reason.key == "core.error.channel_busy"
    with pytest.raises(TableError):
        await table.join(CH, ALICE)
    await table.join(CH, BOB)
    await table.join(CH, CAROL)
    await table.leave(CH, CAROL)
    with pytest.raises(NotSeated):
        await table.start(CH, CAROL)
    report = await table.start(CH, BOB)
    assert report.status == "active" and report.board is not None
    assert report.mention and set(report.private_views) == {ALICE.user_id, BOB.user_id}
    with pytest.raises(TableError):
        await table.join(CH, CAROL)


async def test_unknown_game_and_bad_options_change_nothing(table: Table) -> None:
    with pytest.raises(TableError) as exc:
        await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="chess")
    assert exc.value.reason.key == "core.error.unknown_game"
    with pytest.raises(Exception) as bad:
        await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", options={"target": "999"})
    assert isinstance(bad.value, RuleError) and bad.value.reason.key == "core.error.option_int"
    with pytest.raises(NoGame):
        await table.status(CH, ALICE)


async def test_turns_permissions_and_illegal_moves(table: Table) -> None:
    await started(table)
    row, state = await current(table)
    mover = who_for(state.turn)
    other = who_for(1 - state.turn)
    with pytest.raises(NotYourTurn):
        await table.act(CH, other, Action.of("end"))
    with pytest.raises(NotSeated):
        await table.act(CH, CAROL, Action.of("end"))
    with pytest.raises(IllegalAction) as illegal:
        await table.act(CH, mover, Action.of("play", card="nope"))
    valid = illegal.value.reason.params["valid"]  # the legal moves by their labels, never internal ids
    labels = {la.label for la in TINY.legal_actions(state, state.turn)}
    assert isinstance(valid, Msg) and valid.key == "core.list.2" and set(valid.params.values()) == labels
    after, _ = await current(table)
    assert after.version == row.version
    card = state.hands[state.turn][0]
    report = await table.act(CH, mover, Action.of("play", card=card))
    assert report.version == row.version + 1


async def test_two_simultaneous_clicks_apply_once(table: Table) -> None:
    await started(table)
    row, state = await current(table)
    mover = who_for(state.turn)
    card = state.hands[state.turn][0]
    results = await asyncio.gather(
        table.act(CH, mover, Action.of("play", card=card), expected_version=row.version),
        table.act(CH, mover, Action.of("play", card=card), expected_version=row.version),
        return_exceptions=True,
    )
    assert sum(isinstance(r, StaleAction) for r in results) == 1
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert await table.store.count_actions(row.id) == 2  # start + one play


async def test_undo_only_own_action_within_turn_and_never_past_a_draw(table: Table) -> None:
    await started(table)
    _row, state = await current(table)
    mover, other = who_for(state.turn), who_for(1 - state.turn)
    card = state.hands[state.turn][0]
    await table.act(CH, mover, Action.of("play", card=card))
    with pytest.raises(NotYourTurn):
        await table.undo(CH, other)
    report = await table.undo(CH, mover)
    assert report.public[0].key == "core.undo.done"
    _, restored = await current(table)
    assert TINY.to_json(restored) == TINY.to_json(state)
    with pytest.raises(TableError) as nothing:
        await table.undo(CH, mover)  # the head is now the start row
    assert nothing.value.reason.key == "core.error.undo_not_yours"
    await table.act(CH, mover, Action.of("play", card=card))
    await table.act(CH, mover, Action.of("end"))  # draws: never undoable
    _row2, state2 = await current(table)
    nxt = who_for(state2.turn)
    with pytest.raises(TableError) as hidden:
        await table.undo(CH, nxt)
    assert hidden.value.reason.key == "core.error.undo_not_yours"


async def test_replay_of_the_log_reproduces_the_state_with_undo(table: Table) -> None:
    await started(table)
    for _ in range(12):
        row, state = await current(table)
        if row.status != "active":
            break
        mover = who_for(state.turn)
        if state.played:
            await table.act(CH, mover, Action.of("end"))
        else:
            await table.act(CH, mover, Action.of("play", card=state.hands[state.turn][-1]))
            await table.undo(CH, mover)
            await table.act(CH, mover, Action.of("play", card=state.hands[state.turn][0]))
    row = (await table.store.games_in_guild(1, include_closed=True))[0]
    replayed = await table.replay(row.id)
    rebuilt = await Table(table.store).inspect(row.id)  # a cold table: the nearest snapshot plus the log
    assert TINY.to_json(replayed) == TINY.to_json(tiny_state(rebuilt))


async def test_log_is_redacted_per_viewer(table: Table) -> None:
    await started(table)
    _, state = await current(table)
    mover = who_for(state.turn)
    await table.act(CH, mover, Action.of("play", card=state.hands[state.turn][0]))
    await table.act(CH, mover, Action.of("end"))
    _, after = await current(table)
    drawn = after.hands[1 - after.turn][-1]
    mine = await table.log(CH, mover)
    theirs = await table.log(CH, who_for(1 - state.turn))
    spectator = await table.log(CH, CAROL)
    assert any(m.params.get("card") == drawn for _, m in mine.lines)
    assert not any(m.params.get("card") == drawn for _, m in theirs.lines)
    assert not any(m.params.get("card") == drawn for _, m in spectator.lines)
    with pytest.raises(TableError):
        await table.log(CH, mover, page=99)


async def test_abandon_permissions_and_list(table: Table) -> None:
    await started(table)
    listed = await table.list_games(1)
    assert len(listed) == 1 and listed[0].status == "active" and listed[0].waiting_for
    with pytest.raises(TableError) as forbidden:
        await table.abandon(CH, BOB)
    assert forbidden.value.reason.key == "core.error.abandon_forbidden"
    await table.abandon(CH, MOD)
    assert await table.list_games(1) == []
    await table.new(guild_id=1, channel_id=CH, who=BOB, game_type="tiny")  # the channel is free again


async def test_ai_seats_play_their_turns(table: Table) -> None:
    report = await started(table, players=(ALICE,), ai=2)
    row, state = await current(table)
    assert state.turn == 0 or report.finished
    for _ in range(60):
        row, state = await current(table)
        if row.status != "active":
            break
        assert state.turn == 0  # the AIs always played until the human's turn
        if state.played:
            await table.act(CH, ALICE, Action.of("end"))
        else:
            await table.act(CH, ALICE, Action.of("play", card=state.hands[0][0]))
    row = (await table.store.games_in_guild(1, include_closed=True))[0]
    assert row.status == "finished"
    with pytest.raises(NoGame):
        await table.act(CH, ALICE, Action.of("end"))


async def test_finished_game_refuses_moves(table: Table, store: Store) -> None:
    await started(table, players=(ALICE,), ai=1)
    for _ in range(60):
        row, state = await current(table)
        if row.status != "active":
            break
        await table.act(CH, ALICE, Action.of("end") if state.played else Action.of("play", card=state.hands[0][0]))
    assert await table.game_for(CH) is None
    assert GameOver.code == "game_over"


async def test_reminders_then_idle_skip(table: Table, clock) -> None:
    await started(table)
    _, state = await current(table)
    absent, present = who_for(state.turn), who_for(1 - state.turn)
    assert await table.due_reminders() == []
    clock.now += 13 * 3600
    due = await table.due_reminders()
    assert [(d.kind, d.user_ids) for d in due] == [("reminder", (absent.user_id,))]
    assert await table.due_reminders() == []  # once per turn
    with pytest.raises(TableError) as soon:
        await table.skip(CH, present)
    assert soon.value.reason.key == "core.wait.skip_soon"  # with how long is left: 35 of the 48 hours
    assert soon.value.reason.params["left"] == msg("core.time.hours", h=35)
    clock.now += 48 * 3600
    due = await table.due_reminders()
    assert [d.kind for d in due] == ["idle"]
    report = await table.skip(CH, present)
    assert any(m.key == "core.skip.done" for m in report.public)
    _, after = await current(table)
    assert after.turn != state.turn or after.played


async def test_guild_settings_need_manage_permission(table: Table) -> None:
    with pytest.raises(TableError):
        await table.configure(1, ALICE, reminder_minutes=30)
    line = await table.configure(1, MOD, reminder_minutes=30, idle_hours=5)
    assert line.params == {"minutes": 30, "hours": 5, "timer": msg("core.settings.no_timer"),
                           "language": msg("core.language.auto")}
    with pytest.raises(TableError):
        await table.configure(1, MOD, language="fr")
    line = await table.configure(1, MOD, language="es")
    assert line.params["language"] == msg("core.language.es") and line.params["minutes"] == 30
    assert await table.settings_line(1) == line  # anyone may read them


async def test_notify_choices_are_per_server_and_default_on(table: Table) -> None:
    assert await table.notify_prefs(1, [ALICE.user_id]) == {}
    assert await table.set_notify(1, ALICE, dms=False) == (False, True)
    assert await table.set_notify(1, ALICE, pings=False) == (False, False)
    assert await table.notify_prefs(1, [ALICE.user_id]) == {ALICE.user_id: (False, False)}
    assert await table.notify_prefs(2, [ALICE.user_id]) == {}


async def test_restart_continues_the_game(tmp_path) -> None:
    path = str(tmp_path / "r.sqlite3")
    seeds = itertools.count(5)
    store = await Store(path).open()
    table = Table(store, seed_source=lambda: next(seeds))
    await started(table)
    _, state = await current(table)
    await table.act(CH, who_for(state.turn), Action.of("play", card=state.hands[state.turn][0]))
    await store.close()
    store2 = await Store(path).open()
    table2 = Table(store2)
    _, again = await current(table2)
    assert again.played and TINY.to_json(again)["hands"] != TINY.to_json(state)["hands"]
    await table2.act(CH, who_for(again.turn), Action.of("end"))
    await store2.close()


async def test_log_and_status_of_a_finished_game_stay_readable(table: Table) -> None:
    await started(table, players=(ALICE,), ai=1)
    for _ in range(80):
        row, state = await current(table)
        if row.status != "active":
            break
        await table.act(CH, ALICE, Action.of("end") if state.played else Action.of("play", card=state.hands[0][0]))
    assert (await current(table))[0].status == "finished"
    page = await table.log(CH, ALICE)
    assert page.lines
    report = await table.status(CH, ALICE)
    assert report.board is not None and report.status == "finished"


class BrokenAi(TinyGame):
    """The tiny game with an AI that always fails to choose."""

    id = "tiny-broken-ai"

    def ai_action(self, state: TinyState, seat: int, rng: Rng, level: str = "normal") -> Action:
        raise RuntimeError("no idea")


class HopelessAi(BrokenAi):
    """...and no way to skip its turn either."""

    id = "tiny-hopeless-ai"

    def skip_action(self, state: TinyState, seat: int) -> Action | None:
        return None


@pytest.fixture
def broken_games():
    from rules import registry

    for game in (BrokenAi(), HopelessAi()):
        registry.register(game)
    yield
    registry.unregister("tiny-broken-ai")
    registry.unregister("tiny-hopeless-ai")


async def play_round(table: Table) -> Report:
    _, state = await current(table)
    if state.played:
        return await table.act(CH, ALICE, Action.of("end"))
    return await table.act(CH, ALICE, Action.of("play", card=state.hands[0][0]))


async def test_an_ai_that_cannot_choose_is_skipped_and_never_blocks(table: Table, broken_games) -> None:
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-broken-ai", ai_seats=1)
    await table.start(CH, ALICE)
    await play_round(table)
    report = await play_round(table)  # Alice ends her turn; the AI cannot choose and is skipped
    _, state = await current(table)
    assert state.turn == 0 and ALICE.user_id in report.mention
    assert "core.log.skipped" in [m.key for _, m in (await table.log(CH, ALICE)).lines]


async def test_a_hopeless_ai_is_reported_and_the_game_can_be_abandoned(table: Table, broken_games) -> None:
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-hopeless-ai", ai_seats=1)
    await table.start(CH, ALICE)
    await play_round(table)
    report = await play_round(table)
    assert "core.ai.stuck" in [m.key for m in report.public]
    with pytest.raises(TableError) as exc:
        await table.skip(CH, ALICE)
    assert exc.value.reason.key == "core.error.skip_unsupported"
    await table.abandon(CH, ALICE)


async def test_wrong_turn_names_who_is_awaited(table: Table) -> None:
    await started(table)
    _, state = await current(table)
    waiting, other = (ALICE, BOB) if state.turn == 0 else (BOB, ALICE)
    with pytest.raises(NotYourTurn) as exc:
        await table.act(CH, other, Action.of("end"))
    seats = exc.value.reason.params["seats"]
    assert isinstance(seats, Msg) and seats.key == "core.list.1" and seats.params["s0"] == Lit(waiting.name,
                                                                                               waiting.name)


async def test_a_game_left_waiting_on_its_ai_resumes_after_a_restart(table: Table) -> None:
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", ai_seats=1)
    await table.start(CH, ALICE)
    await play_round(table)

    async def crash(*args, **kwargs):  # the process dies right after Alice's move is committed
        return False

    table._run_auto = crash  # type: ignore[method-assign]
    await play_round(table)
    _, state = await current(table)
    assert state.turn == 1, "the AI is on turn and nothing runs it"
    restarted = Table(table.store, clock=table.clock)
    stalled = await restarted.stalled_games()
    assert stalled == [(await channel_row(restarted, CH)).id]
    report = await restarted.resume(stalled[0])
    assert report is not None and report.board is not None and ALICE.user_id in report.mention
    _, state = await current(restarted)
    assert state.turn == 0 and await restarted.stalled_games() == []


async def test_a_move_after_a_restart_first_lets_the_ai_catch_up(table: Table) -> None:
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", ai_seats=1)
    await table.start(CH, ALICE)
    await play_round(table)

    async def crash(*args, **kwargs):
        return False

    table._run_auto = crash  # type: ignore[method-assign]
    await play_round(table)
    restarted = Table(table.store, clock=table.clock)
    row, state = await current(restarted)
    assert state.turn == 1
    report = await restarted.act(CH, ALICE, Action.of("end"))
    assert [m.key for m in report.private[ALICE.user_id]] == ["core.caught_up"]
    after, state = await current(restarted)
    assert state.turn == 0 and not state.played, "the AI played its turn and Alice's stale move was not applied"
    assert report.board is not None and after.version > row.version


async def test_check_turn_says_why_a_person_cannot_act_now(table: Table) -> None:
    with pytest.raises(NoGame):
        await table.check_turn(CH, ALICE)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny")
    await table.join(CH, BOB)
    with pytest.raises(TableError) as lobby:
        await table.check_turn(CH, ALICE)
    assert lobby.value.reason.key == "core.error.not_started"
    await table.start(CH, ALICE)
    with pytest.raises(NotSeated):
        await table.check_turn(CH, CAROL)
    _, state = await current(table)
    waiting, other = (ALICE, BOB) if state.turn == 0 else (BOB, ALICE)
    await table.check_turn(CH, waiting)
    with pytest.raises(NotYourTurn) as exc:
        await table.check_turn(CH, other)
    seats = exc.value.reason.params["seats"]
    assert isinstance(seats, Msg) and seats.key == "core.list.1" and seats.params["s0"] == Lit(waiting.name,
                                                                                               waiting.name)


class UnfinishedGame(TinyGame):
    id = "tiny-unfinished"
    in_progress = True


async def test_a_game_still_being_built_is_offered_only_with_previews(table: Table) -> None:
    from rules import registry

    registry.register(UnfinishedGame())
    try:
        hidden = Table(table.store, clock=table.clock, previews=False)
        assert "tiny-unfinished" not in hidden.offered_games() and "tiny" in hidden.offered_games()
        with pytest.raises(TableError) as exc:
            await hidden.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-unfinished")
        assert exc.value.reason.key == "core.error.unknown_game"
        valid = exc.value.reason.params["valid"]
        assert isinstance(valid, str) and "tiny-unfinished" not in valid
        assert await table.game_for(CH) is None
        await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-unfinished")  # previews on
        await table.join(CH, BOB)
        await table.start(CH, ALICE)
        assert (await hidden.inspect((await channel_row(hidden, CH)).id)).state is not None  # still loads
    finally:
        registry.unregister("tiny-unfinished")


class LevelSpy(TinyGame):
    """The tiny game whose AI notes the level the table asks it to play at."""

    id = "tiny-level-spy"
    asked: ClassVar[list[str]] = []

    def ai_action(self, state: TinyState, seat: int, rng: Rng, level: str = "normal") -> Action:
        LevelSpy.asked.append(level)
        return super().ai_action(state, seat, rng, level)

    def at_ai_level(self, action: Action, level: str) -> Action:
        LevelSpy.asked.append(f"person:{level}")
        return action


@pytest.fixture
def level_spy():
    from rules import registry

    LevelSpy.asked = []
    registry.register(LevelSpy())
    yield LevelSpy
    registry.unregister("tiny-level-spy")


async def test_the_ai_level_is_kept_with_the_game_said_in_the_lobby_and_played(table: Table, level_spy) -> None:
    report = await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-level-spy", ai_seats=2,
                             ai_level="Difícil")  # a level's Spanish name is understood too
    line = next(m for m in report.public if m.key == "core.lobby.ai_level")
    assert line.params["level"] == msg("core.ai_level.hard") and line.params["n"] == 2
    assert (await channel_row(table, CH)).extra["ai_level"] == "hard"
    await table.start(CH, ALICE)
    before = len(level_spy.asked)
    restarted = Table(table.store, clock=table.clock, seed_source=lambda: 99)  # a restart keeps the level
    for _ in range(60):
        if (await current(restarted))[0].status != "active":
            break
        await play_round(restarted)
    assert len(level_spy.asked) > before and set(level_spy.asked) == {"hard", "person:hard"}


async def test_the_ai_level_defaults_to_normal(table: Table, level_spy) -> None:
    report = await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny-level-spy", ai_seats=1)
    assert next(m for m in report.public if m.key == "core.lobby.ai_level").params["level"] == \
        msg("core.ai_level.normal")
    await table.start(CH, ALICE)
    await play_round(table)
    await play_round(table)
    assert level_spy.asked and set(level_spy.asked) == {"normal", "person:normal"}


async def test_a_bad_ai_level_is_refused_listing_the_levels_and_changes_nothing(table: Table) -> None:
    for bad in ("impossible", "", "HARDER", 3):
        with pytest.raises(TableError) as exc:
            # a level that is not a word at all (3) is refused at run time too
            await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", ai_seats=1,
                            ai_level=bad)  # type: ignore[arg-type]
        assert exc.value.reason.key == "core.error.ai_level"
        assert exc.value.reason.params["valid"] == msg("core.list.3", s0=msg("core.ai_level.easy"),
                                                       s1=msg("core.ai_level.normal"), s2=msg("core.ai_level.hard"))
        assert await table.game_for(CH) is None

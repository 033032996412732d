"""Ways out and on at the table and in the engines: resign, replace, abandon's summary, rematch, the end summary,
the waiting texts, and each game's `resign` and `final_figures` hooks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

import i18n
from rules import registry
from rules.base import RESIGN, Action, IllegalAction, apply_logged
from rules.gorgasali import GAME as GG
from rules.hero_realms import GAME as HR
from rules.text import Msg, iter_strings, msg
from storage import Commit, SeatRow, Store, VersionConflict
from table import NoGame, NotSeated, StaleAction, Table, TableError, Who
from table.exits import Exits, find_seat
from table.results import Inspection
from tests.conftest import ALICE, BOB, CAROL, MOD, FakeClock
from tests.gorgasali.helpers import setup as gg_setup
from tests.hero_realms.hr_helpers import clean

CH = 300


@pytest.fixture
async def store(any_store: Store) -> Store:
    """Every test here that touches the table runs on SQLite and on PostgreSQL."""
    return any_store


async def start(table: Table, game: str, players: tuple[Who, ...] = (ALICE, BOB), ai: int = 0,
                options: dict[str, str] | None = None) -> None:
    await table.new(guild_id=1, channel_id=CH, who=players[0], game_type=game, ai_seats=ai, options=options)
    for p in players[1:]:
        await table.join(CH, p)
    await table.start(CH, players[0])


async def loaded(table: Table) -> Inspection:
    row = await table.game_for(CH) or await table.store.last_game(CH)
    assert row is not None
    return await table.inspect(row.id)


def _phase(inspection: Inspection) -> object:
    assert inspection.state is not None
    return inspection.state["phase"]


def text(lines: Iterable[Msg], names: Mapping[int, str]) -> str:
    return "\n".join(i18n.t(m, "en", names.get) for m in lines)


# ---------------------------------------------------------------- resigning


async def test_resigning_two_player_hero_realms_ends_it_and_the_log_replays_it(table: Table, clock: FakeClock) -> None:
    await start(table, "hero-realms")
    exits = Exits(table)
    question = await exits.resign_question(CH, BOB)
    assert question.key == "core.resign.ask.wins" and question.params["n"] == 1
    clock.now += 3 * 3600 + 5 * 60
    report = await exits.resign(CH, BOB)
    said = text(report.public, report.seat_names)
    assert report.finished and report.status == "finished"
    assert "🏳️ Bob resigns and is out of the game." in said
    assert "🏁 Game over." in said and "The game lasted 3 hours 5 minutes." in said
    assert "Alice: 50 health left" in said and "Bob: out (number 1 to fall)" in said
    state = (await loaded(table)).state
    assert state is not None
    outcome = HR.outcome(state)
    assert outcome is not None and outcome.winners == frozenset({0})
    row = await table.store.last_game(CH)
    assert row is not None
    actions = await table.store.actions(row.id)
    assert actions[-1].kind == "resign" and actions[-1].action == Action.of(RESIGN).to_json()
    assert HR.to_json(await table.replay(row.id)) == HR.to_json(state)
    table._cache.drop(row.id)  # rebuilt from its snapshot and log, the same
    rebuilt = (await table.inspect(row.id)).state
    assert rebuilt is not None and HR.to_json(rebuilt) == HR.to_json(state)
    with pytest.raises(NoGame):  # the channel is free again
        await exits.resign(CH, ALICE)


async def test_a_resign_handed_to_the_ai_keeps_the_game_going(table: Table) -> None:
    await start(table, "tiny", players=(ALICE, BOB, CAROL))
    exits = Exits(table)
    assert (await exits.resign_question(CH, BOB)).key == "core.resign.ask.ai"
    report = await exits.resign(CH, BOB)
    assert any(m.key == "core.resign.to_ai" for m in report.public) and not report.finished
    after = await loaded(table)
    assert after.ai_seats() == {1} and after.seats[1].name == "Bob (bot)" and after.seats[1].user_id is None
    assert after.row.status == "active"
    with pytest.raises(NotSeated):
        await exits.resign(CH, BOB)
    # The bot plays seat 2 when its turn comes.
    for _ in range(6):
        state = (await loaded(table)).state
        assert state is not None
        if 1 in table._engine("tiny").to_act(state) or state.turn == 1:
            break
        mover = (ALICE, BOB, CAROL)[state.turn]
        legal = await table.legal(CH, mover)
        await table.act(CH, mover, legal[0].action)
    log = await table.store.actions(after.row.id)
    assert any(a.kind == "seat" and a.action is None for a in log)
    assert any(a.kind == "act" and a.seat == 1 and a.user_id is None for a in log), "the bot moved for seat 2"
    await table.replay(after.row.id)  # a seat changing hands is skipped by the replay


@pytest.mark.parametrize("game", ["guerra-de-indagar", "kings-armory"])
async def test_games_without_elimination_hand_the_seat_to_the_ai(table: Table, game: str) -> None:
    await start(table, game)
    report = await Exits(table).resign(CH, BOB)
    assert not any(m.key == "core.ai.stuck" for m in report.public)
    after = await loaded(table)
    assert after.ai_seats() == {1} and after.row.status == "active" and after.game.outcome(after.state) is None
    assert 1 not in after.game.to_act(after.state), "the bot moved at once"


async def test_gorgasali_hands_a_seat_to_the_ai_while_picking_and_eliminates_in_the_fight(table: Table) -> None:
    await start(table, "gorgasali")
    exits = Exits(table)
    picking = await loaded(table)
    assert picking.state is not None and picking.state["phase"] == "pick"
    assert (await exits.resign_question(CH, BOB)).key == "core.resign.ask.ai"
    await exits.resign(CH, BOB)
    while (phase := _phase(await loaded(table))) != "play":
        legal = await table.choices(CH, ALICE, [])
        assert isinstance(legal, list) and legal, phase
        move = await table.choices(CH, ALICE, [legal[0].token])
        while not isinstance(move, Action):
            path = [legal[0].token, move[0].token]
            move = await table.choices(CH, ALICE, path)
        await table.act(CH, ALICE, move)
    question = await exits.resign_question(CH, ALICE)
    assert question.key == "core.resign.ask.wins"
    report = await exits.resign(CH, ALICE)
    assert report.finished
    state = (await loaded(table)).state
    assert state is not None
    outcome = GG.outcome(state)
    assert outcome is not None and outcome.winners == frozenset({1})


async def test_resign_refusals(table: Table) -> None:
    exits = Exits(table)
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type="tiny", ai_seats=1)
    with pytest.raises(TableError) as lobby:
        await exits.resign_question(CH, ALICE)
    assert lobby.value.reason.key == "core.resign.error.lobby"
    await table.start(CH, ALICE)
    with pytest.raises(TableError) as last:
        await exits.resign(CH, ALICE)
    assert last.value.reason.key == "core.resign.error.last", "a bot-only game is abandoned, not resigned"
    with pytest.raises(NotSeated):
        await exits.resign_question(CH, CAROL)


async def test_heroquest_game_master_and_heroes_cannot_resign_but_can_be_replaced(table: Table) -> None:
    await start(table, "heroquest")
    exits = Exits(table)
    with pytest.raises(TableError) as gm:
        await exits.resign_question(CH, ALICE)
    assert gm.value.reason.key == "core.resign.error.gm"
    with pytest.raises(TableError) as hero:
        await exits.resign(CH, BOB)
    assert hero.value.reason.key == "core.resign.error.no_ai"
    assert "/game replace" in i18n.t(hero.value.reason, "en")
    report = await exits.replace(CH, ALICE, "2", CAROL)
    assert any(m.key == "core.replace.done" for m in report.public)
    assert (await loaded(table)).seats[1].user_id == CAROL.user_id


async def test_a_stale_confirmation_is_refused(table: Table) -> None:
    await start(table, "tiny", players=(ALICE, BOB, CAROL))
    with pytest.raises(StaleAction):
        await Exits(table).resign(CH, BOB, game_id=9999)


# ---------------------------------------------------------------- replacing


async def test_replace_hands_a_seat_and_only_the_creator_or_a_manager_may(table: Table) -> None:
    await start(table, "tiny", ai=1)
    exits = Exits(table)
    with pytest.raises(TableError) as forbidden:
        await exits.replace(CH, BOB, "2", CAROL)
    assert forbidden.value.reason.key == "core.replace.error.forbidden"
    with pytest.raises(TableError) as seated:
        await exits.replace(CH, ALICE, "Bob", ALICE)
    assert seated.value.reason.key == "core.replace.error.seated"
    with pytest.raises(TableError) as nowhere:
        await exits.replace(CH, ALICE, "Zed", CAROL)
    assert "1. Alice, 2. Ada (bot), 3. Bob" in i18n.t(nowhere.value.reason, "en")
    report = await exits.replace(CH, MOD, "ada", CAROL)  # the bot's seat, by a unique beginning of its name
    after = await loaded(table)
    assert [(s.kind, s.user_id) for s in after.seats] == [("human", 1), ("human", 3), ("human", 2)]
    assert CAROL.user_id in report.private_views, "the newcomer is sent their view"
    # The creator hands over their own seat: the newcomer runs the table.
    await exits.replace(CH, ALICE, "1", MOD)
    assert (await loaded(table)).row.creator_id == MOD.user_id


def test_find_seat_reads_numbers_mentions_and_names() -> None:
    class Fake:
        def __init__(self) -> None:
            self.seats = [SeatRow(0, 10, "human", "Ana"), SeatRow(1, None, "ai", "Ada (bot)"),
                          SeatRow(2, 12, "human", "Bob")]

        def seats_of(self, user_id: int) -> list[int]:
            return [s.seat for s in self.seats if s.user_id == user_id]

    fake = Fake()
    assert find_seat(fake, "3") == 2 and find_seat(fake, "#1") == 0  # type: ignore[arg-type]
    assert find_seat(fake, "<@12>") == 2 and find_seat(fake, "bob") == 2  # type: ignore[arg-type]
    with pytest.raises(TableError):
        find_seat(fake, "a")  # type: ignore[arg-type]  # Ana or Ada: ambiguous


# ---------------------------------------------------------------- abandoning, rematch, settings


async def test_abandon_asks_the_right_people_and_sums_up(table: Table, clock: FakeClock) -> None:
    await start(table, "hero-realms")
    exits = Exits(table)
    with pytest.raises(TableError):
        await exits.abandon_question(CH, BOB)
    assert (await exits.abandon_question(CH, ALICE)).key == "core.abandon.ask"
    clock.now += 90 * 60
    report = await exits.abandon(CH, ALICE)
    said = text(report.public, report.seat_names)
    assert report.status == "abandoned" and "Alice abandoned the game" in said
    assert "It had been going on for 1 hour 30 minutes." in said and "Bob: 50 health left" in said
    assert report.board is not None


async def test_rematch_opens_a_lobby_with_the_same_seats_and_options(table: Table) -> None:
    await start(table, "hero-realms", ai=1, options={"variant": "hunter-first-blood"})
    exits = Exits(table)
    first = await loaded(table)
    with pytest.raises(TableError) as early:
        await exits.rematch(CH, BOB, first.row.id)
    assert early.value.reason.key == "core.rematch.error.not_finished"
    await exits.resign(CH, BOB)  # the first elimination ends a first-blood hunt
    finished = await loaded(table)
    assert finished.row.status == "finished"
    with pytest.raises(NotSeated):
        await exits.rematch(CH, CAROL, first.row.id)
    report = await exits.rematch(CH, BOB, first.row.id)
    row = await table.game_for(CH)
    assert row is not None and row.status == "lobby" and row.id == report.game_id != first.row.id
    assert row.options == first.row.options and row.seed != first.row.seed and row.creator_id == ALICE.user_id
    seats = await table.store.seats(row.id)
    assert [(s.kind, s.user_id, s.name) for s in seats] == [(s.kind, s.user_id, s.name) for s in first.seats]
    with pytest.raises(TableError) as busy:
        await exits.rematch(CH, ALICE, first.row.id)
    assert busy.value.reason.key == "core.error.channel_busy"
    await table.start(CH, BOB)  # anyone seated starts it
    assert (await loaded(table)).row.status == "active"


# ---------------------------------------------------------------- waiting


async def test_status_says_whom_the_table_waits_for_and_since_when(table: Table, clock: FakeClock) -> None:
    await start(table, "tiny")
    started = clock.now
    clock.now += 26 * 3600
    report = await table.status(CH, BOB)
    line = report.public[0]
    assert line.key == "core.wait.since"
    assert line.params["since"] == f"<t:{int(started)}:R>" and line.params["waited"] == msg("core.time.hours", h=26)


# ---------------------------------------------------------------- storage


async def test_seats_change_hands_only_at_the_version_seen(table: Table) -> None:
    await start(table, "tiny")
    row = await table.game_for(CH)
    assert row is not None
    entry = Commit(kind="seat", seat=1, user_id=1)
    with pytest.raises(VersionConflict):
        await table.store.commit_seats(row.id, row.version - 1, entry, [SeatRow(1, None, "ai", "X")], 1.0)
    assert (await table.store.seats(row.id))[1].kind == "human"
    version = await table.store.commit_seats(row.id, row.version, entry, [SeatRow(1, 9, "human", "Neo")], 1.0,
                                             creator_id=9)
    assert version == row.version + 1
    assert (await table.store.seats(row.id))[1] == SeatRow(1, 9, "human", "Neo")
    stored = await table.store.game(row.id)
    assert stored is not None and stored.creator_id == 9
    assert await table.store.started_at(row.id) is not None


# ---------------------------------------------------------------- the engines' hooks


def test_hero_realms_resign_in_a_three_player_game_passes_the_turn_on() -> None:
    s = clean(seats=3)
    assert s.active == [0]
    step = HR.resign(s, 0)
    assert step is not None and HR.outcome(step.state) is None
    assert step.state.players[0].eliminated and step.state.active == [1]
    assert not s.players[0].eliminated, "the input is never changed"
    with pytest.raises(IllegalAction) as twice:
        HR.resign(step.state, 0)
    assert twice.value.reason.key == "core.resign.error.out", "nobody resigns twice"
    assert apply_logged(HR, s, 0, Action.of(RESIGN)).state.players[0].eliminated


def test_hero_realms_emperor_variant_a_captain_passes_no_card_and_an_emperor_loses_the_team() -> None:
    s = clean("emperor", 6)
    captain = next(seat for seat in range(6) if s.roles[seat] == "captain" and seat not in s.active)
    step = HR.resign(s, captain)
    assert step is not None and HR.outcome(step.state) is None
    assert not [d for d in step.state.pending if d["seat"] == captain], "nobody is asked to pass a card"
    emperor = next(seat for seat in range(6) if s.roles[seat] == "emperor")
    ended = HR.resign(s, emperor)
    assert ended is not None
    outcome = HR.outcome(ended.state)
    assert outcome is not None
    assert outcome.winners == frozenset(o for o in range(6) if s.team_of[o] != s.team_of[emperor])


def test_gorgasali_resign_eliminates_once_the_fight_is_on_and_not_while_picking() -> None:
    s = gg_setup(["tharsis", "emoon"], [(2, 2), (6, 6)])
    step = GG.resign(s, 0)
    assert step is not None
    outcome = GG.outcome(step.state)
    assert outcome is not None and outcome.winners == frozenset({1})
    three = gg_setup(["tharsis", "emoon", "tsiva"], [(2, 2), (6, 6), (8, 1)])
    goes_on = GG.resign(three, 0)
    assert goes_on is not None and GG.outcome(goes_on.state) is None
    assert GG.to_act(goes_on.state) == frozenset({1}), "the resigning fighter's turn passes on"
    picking = GG.new(GG.resolve_options({}), 2, 1)
    assert GG.resign(picking, 0) is None


@pytest.mark.parametrize("game_id", ["hero-realms", "gorgasali", "kings-armory", "heroquest", "guerra-de-indagar"])
def test_every_game_has_final_figures_in_both_languages(game_id: str) -> None:
    game = registry.get(game_id)
    assert game is not None
    state = game.new(game.resolve_options({}), 2, 3)
    figures = game.final_figures(state)
    assert figures
    for line in figures:
        for lang in ("en", "es"):
            shown = i18n.t(line, lang, {0: "Ana", 1: "Bob"}.get)
            assert i18n.has(line.key, lang) and "{" not in shown and "None" not in shown, shown
            assert not any(s.endswith("_") for s in iter_strings(line) if isinstance(s, str))


def test_king_s_armory_end_screen_says_how_it_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    from renderers import kings_armory as renderer

    game = registry.get("kings-armory")
    assert game is not None
    view = game.view(game.new(game.resolve_options({}), 1, 3), None)
    said: list[str] = []
    words = renderer._t

    def noted(key: str, lang: str, **params: object) -> str:  # the texts drawn, noted as they pass
        said.append(words(key, lang, **params))
        return said[-1]

    monkeypatch.setattr(renderer, "_t", noted)
    renderer.render({**view, "phase": "over", "result": "gate", "wave": 4, "names": ["Ana"]}, "en")
    assert any("Defeat: the Gate fell in wave 4" in s for s in said), said[:3]
    said.clear()
    renderer.render({**view, "phase": "over", "result": "won", "wave": 5, "names": ["Ana"]}, "es")
    assert any("Victoria tras 5 oleadas" in s for s in said), said[:3]


def test_heroquest_end_is_said_once() -> None:
    game = registry.get("heroquest")
    assert game is not None
    state = game.new(game.resolve_options({}), 2, 3)
    state.d["over"] = {"result": "lose", "reason": "all_dead"}
    outcome = game.outcome(state)
    assert outcome is not None
    summary = outcome.summary
    assert i18n.t(summary, "en") == "Winner: Morcar, the game master."
    assert not any(isinstance(p, Msg) and p.key.startswith("hq.reason") for p in summary.params.values())

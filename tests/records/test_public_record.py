"""History and export show only what everyone saw: two worlds that differ only in hidden information (the private
lines each player was dealt, the moves' hidden details) give a non-player identical export files and history text,
for every game; and the history, statistics and leaderboard say what the records hold."""

from __future__ import annotations

import itertools
import json

import pytest

import i18n
from cogs.records import export_files, history_text
from rules import registry
from rules.base import Action
from rules.rng import Rng
from storage import LogLine, Store
from storage.lines import pack_lines, unpack_lines
from storage.store import pack
from table import Table, Who
from table import history as H
from tests.conftest import ALICE, BOB, FakeClock

CH = 400
GAMES = ("hero-realms", "gorgasali", "guerra-de-indagar", "kings-armory", "heroquest")
MOVES = 12


async def world(path: str, game_type: str) -> tuple[Store, Table, int]:
    """One seeded game of `game_type` with two people, a few legal moves picked by a seeded generator, then
    abandoned (or finished, if it ended on its own)."""
    store = await Store(path).open()
    seeds = itertools.count(5)
    table = Table(store, clock=FakeClock(), seed_source=lambda: next(seeds))
    await table.new(guild_id=1, channel_id=CH, who=ALICE, game_type=game_type)
    await table.join(CH, BOB)
    await table.start(CH, ALICE)
    row = await table.game_for(CH)
    assert row is not None
    rng = Rng.from_seed(7)
    people: dict[int, Who] = {1: ALICE, 2: BOB}
    for _ in range(MOVES):
        loaded = await table.inspect(row.id)
        game, state = loaded.game, loaded.state
        if loaded.row.status != "active" or game.outcome(state) is not None:
            break
        seats = sorted(s for s in game.to_act(state) if loaded.user_of(s) is not None)
        if not seats:
            break
        seat = seats[0]
        legal = game.legal_actions(state, seat)
        if not legal:
            break
        action: Action = legal[rng.below(len(legal))].action
        user = loaded.user_of(seat)
        assert user is not None  # (the seats listed are people's)
        await table.act(CH, people[user], action)
        table.clock.now += 61  # type: ignore[attr-defined]
    if await table.game_for(CH) is not None:
        await table.abandon(CH, ALICE)
    return store, table, row.id


async def hide_differently(store: Store, game_id: int) -> int:
    """World B: every private line, every move's hidden detail and every stored state rewritten (other hands, other
    secret choices, decks in another order: the state of the same game dealt from another seed); returns how many
    private lines changed."""
    other = json.dumps({"key": "core.nobody", "params": {}})
    row = await store.game(game_id)
    assert row is not None
    game = registry.get(row.game_type)
    assert game is not None
    dealt = game.to_json(game.new(row.options, len(await store.seats(game_id)), row.seed + 1))
    async with store.backend.write() as q:
        await q.execute("UPDATE snapshots SET state = ? WHERE game_id = ?", (pack(dict(dealt)), game_id))
        await q.execute("DELETE FROM game_heads WHERE game_id = ?", (game_id,))  # the snapshots then say it all
        changed = 0
        for r in await q.fetchall("SELECT version, lines FROM actions WHERE game_id = ? AND lines IS NOT NULL",
                                  (game_id,)):
            lines = [LogLine(message) if mask is None else
                     LogLine(json.loads(other), frozenset(i for i in range(64) if mask >> i & 1))
                     for mask, message in unpack_lines(r["lines"])]
            changed += sum(line.to is not None for line in lines)
            await q.execute("UPDATE actions SET lines = ? WHERE game_id = ? AND version = ?",
                            (pack_lines(lines), game_id, r["version"]))
        await q.execute("UPDATE actions SET action = ? WHERE game_id = ? AND action IS NOT NULL",
                        (json.dumps({"kind": "secret", "args": {"hidden": "b"}}), game_id))
    return changed


async def public_record(store: Store, game_id: int, lang: str) -> tuple[bytes, bytes, str]:
    data = await H.export(store, 1, CH, game_id)
    as_json, as_text = export_files(data, lang)
    page = await H.history(store, 1)
    return as_json, as_text, history_text(page, lang)


@pytest.mark.parametrize("game_type", GAMES)
async def test_twin_worlds_give_a_non_player_the_same_export_and_history(tmp_path, game_type: str) -> None:
    store_a, _, game_a = await world(str(tmp_path / "a.sqlite3"), game_type)
    store_b, _, game_b = await world(str(tmp_path / "b.sqlite3"), game_type)
    try:
        assert game_a == game_b
        private = await hide_differently(store_b, game_b)
        snapshots = [(await s.stored_state(g)) for s, g in ((store_a, game_a), (store_b, game_b))]
        assert snapshots[0] is not None and snapshots[1] is not None and snapshots[0].snapshot != snapshots[1].snapshot
        # The worlds do differ for the players who were dealt the hidden lines...
        seen_a = [await store_a.log_page(game_a, seat, 1, 500) for seat in (0, 1)]
        seen_b = [await store_b.log_page(game_b, seat, 1, 500) for seat in (0, 1)]
        assert (seen_a != seen_b) == (private > 0)
        # ...and not for anyone else: the export files and the history are the same bytes.
        for lang in ("en", "es"):
            a, b = await public_record(store_a, game_a, lang), await public_record(store_b, game_b, lang)
            assert a == b
            as_json, _as_text, text = a
            log = json.loads(as_json)["log"]
            assert log and all(line["time"] and line["text"] for line in log)
            assert await store_a.records.record(game_a) is not None
            assert (f"#{game_a}" if lang == "en" else f"n.º {game_a}") in text
    finally:
        await store_a.close()
        await store_b.close()


async def test_export_leaves_out_private_lines_and_says_it_in_the_readers_language(tmp_path) -> None:
    store, _, game_id = await world(str(tmp_path / "a.sqlite3"), "hero-realms")
    try:
        everything = await store.lines(game_id)
        hidden = [m for _, to, m in everything if to is not None]
        assert hidden
        data = await H.export(store, 1, CH, game_id)
        public_keys = [m.key for _, m in data.lines]
        assert len(public_keys) == sum(1 for _, to, _m in everything if to is None)
        en_json, en_text = export_files(data, "en")
        es_json, es_text = export_files(data, "es")
        assert "Public log" in en_text.decode() and "Historial público" in es_text.decode()
        for blob in (en_json, en_text, es_json, es_text):
            assert b"core." not in blob and b"hr." not in blob and b"None" not in blob
        # Another server cannot read this game's record.
        with pytest.raises(H.NoGame):
            await H.export(store, 2, CH, game_id)
    finally:
        await store.close()


async def test_history_filters_pages_and_refusals(tmp_path) -> None:
    store = await Store(str(tmp_path / "h.sqlite3")).open()
    seeds = itertools.count(3)
    table = Table(store, clock=FakeClock(), seed_source=lambda: next(seeds))
    try:
        for n in range(7):
            players = (ALICE, BOB) if n % 2 else (BOB, ALICE)
            await table.new(guild_id=1, channel_id=CH + n, who=players[0], game_type="tiny", ai_seats=0)
            if n < 6:
                await table.join(CH + n, players[1])
            else:
                await table.join(CH + n, Who(9, "Zoe"))
            await table.start(CH + n, players[0])
            await table.abandon(CH + n, players[0])
        page = await H.history(store, 1)
        assert (page.page, page.pages, page.total, len(page.entries)) == (1, 2, 7, H.HISTORY_PAGE)
        assert [e.game_id for e in page.entries] == [7, 6, 5, 4, 3]
        assert [e.game_id for e in (await H.history(store, 1, page=2)).entries] == [2, 1]
        assert (await H.history(store, 1, user_id=9)).total == 1
        assert (await H.history(store, 1, user_id=1)).total == 6 and (await H.history(store, 1, user_id=2)).total == 7
        assert (await H.history(store, 2)).total == 0
        with pytest.raises(H.TableError) as refused:
            await H.history(store, 1, page=3)
        assert refused.value.reason.params["pages"] == 2
        with pytest.raises(H.TableError):
            await H.history(store, 1, game_type="chess")
        text = history_text(page, "es")
        assert "Abandonada antes del final" in text and "=" not in text.replace("==", "")
    finally:
        await store.close()


def test_every_game_has_its_figures_named_in_both_languages() -> None:
    for game_type in GAMES:
        assert registry.get(game_type) is not None
        for _figure, how, key in H.FIGURES[game_type]:
            assert how in ("avg", "won_avg", "sum", "max")
            assert key in i18n.catalog("en") and key in i18n.catalog("es")

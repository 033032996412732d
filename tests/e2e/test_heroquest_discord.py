"""HeroQuest through the real bot and the in-process stand-in: uploads, /hq commands, the GM's map, secrecy."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import i18n
from bot import make_bot
from cogs.delivery import with_names
from renderers.heroquest import render
from rules import coords
from rules.base import Action
from rules.text import msg
from standin.inprocess import InProcessDiscord
from standin.world import Output, is_error_output
from table import Who
from tests.e2e.crafted import crafted
from tests.e2e.pictures import arrived, newest_board, now
from tests.reference import TRIAL
from tests.standin_reads import home_channel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")



@pytest.fixture
async def d(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_SEED", "3")
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "hq.sqlite3"))) as world:
        yield world


async def _loaded(d: InProcessDiscord):
    table = d.bot.table
    row = await table.game_for(home_channel(d).id)
    assert row is not None
    return await table.inspect(row.id)


def _errors(outputs: list[Output]) -> list[str]:
    return [o.text() for o in outputs if is_error_output(o)]


async def _open(d: InProcessDiscord, upload: Path | None = TRIAL, players: tuple[str, ...] = ("bob", "carol")) -> None:
    line = f"/game new game:heroquest file:{upload}" if upload else "/game new game:heroquest"
    out = await d.command("alice", line)
    for p in players:
        out += await d.command(p, "/game join")
    out += await d.command("alice", "/game start")
    assert not _errors(out), _errors(out)


async def _choose_spells(d: InProcessDiscord) -> None:
    """Answer the wizard's and the elf's spell picks through /hq decide and its autocomplete."""
    for _ in range(4):
        loaded = await _loaded(d)
        if not loaded.state.d["picks"]:
            return
        seat = min(loaded.game.to_act(loaded.state))
        user = loaded.user_of(seat)
        name = d.world.users[user].name
        options = await d.autocomplete(name, "/hq decide", "choice", "")
        assert options, "the spell groups are offered"
        out = await d.command(name, f'/hq decide choice:"{options[0]["value"]}"')
        assert not _errors(out), _errors(out)


async def assert_no_leak(d: InProcessDiscord, outputs: list[Output]) -> None:
    """Nothing seen by a player or the channel names an unrevealed thing, every public image is exactly the
    spectator view drawn and every private one the player's own view drawn (so none depends on anything hidden)."""
    loaded = await _loaded_any(d)
    game, state = loaded.game, loaded.state
    secrets = [tok for tok, seats in game.secret_tokens(state).items() if seats == frozenset({0})]
    gm_user = loaded.user_of(0)
    names = loaded.names()
    public = with_names(game.view(state, None), names)
    images = None
    for out in outputs:
        if out.kind == "edit" or (out.kind in ("ephemeral", "dm") and out.recipient_id == gm_user):
            continue
        text = out.text() + " " + " ".join(cid for cid, _ in out.components)
        for tok in secrets:
            assert not re.search(rf"(?<![\w-]){re.escape(tok)}(?![\w-])", text), (tok, out.kind, text)
    for out, attachments in arrived(d, outputs):  # with their message, or added by an edit once drawn
        if out.recipient_id in (gm_user, None):  # the GM sees everything; the channel's board is checked below
            continue
        for filename, data in attachments:
            # a player's own board (where their hero can move): exactly their own view drawn
            seats = [seat for seat in range(1, state.seats) if loaded.user_of(seat) == out.recipient_id]
            own = {render(with_names(game.view(state, seat), names), lang) for seat in seats for lang in ("en", "es")}
            assert data in own, f"{filename} sent privately is not the player's own view drawn"
    for filename, data in newest_board(d, outputs):
        if images is None:
            images = {render(public, "en"), render(public, "es")}
        assert data in images, f"{filename} is not the public view drawn"


async def _loaded_any(d: InProcessDiscord):
    table = d.bot.table
    rows = await table.store.games_in_guild(home_channel(d).guild_id, include_closed=True)
    row = max(rows, key=lambda r: r.id)
    return await table.inspect(row.id)


async def test_gm_uploads_players_move_and_open_doors_gm_map_only_by_dm(d: InProcessDiscord) -> None:
    out = await d.command("alice", f"/game new game:heroquest file:{TRIAL}")
    out += await d.command("bob", "/game join")
    out += await d.command("carol", "/game join")
    out += await d.command("alice", "/game start")
    assert not _errors(out)
    start = [o for o in out if o.kind == "ephemeral" and o.recipient_id == d.user("alice").id][-1]
    assert "The Trial" in start.content and now(d, start), "the GM gets the full map privately at the start"
    await assert_no_leak(d, out)
    await _choose_spells(d)

    out = await d.command("alice", "/hq gm map")
    mine = [o for o in out if o.kind == "ephemeral"]
    assert mine and mine[0].attachments and "Notes" in mine[0].content
    gm_map = mine[0].attachments[0][1]
    assert not any(o.kind == "channel" for o in out), "the map is never posted in the channel"

    # Heroes take turns: move by autocomplete, open doors when one is next to them, end the turn.
    gm_dms = 0
    channel_images: list[bytes] = []
    for _ in range(12):
        loaded = await _loaded(d)
        seat = min(loaded.game.to_act(loaded.state))
        name = d.world.users[loaded.user_of(seat)].name
        out = []

        async def run(line: str, name: str = name, out: list[Output] = out) -> None:
            step = await d.command(name, line)
            assert not _errors(step), _errors(step)
            await assert_no_leak(d, step)
            out.extend(step)

        if seat == 0:
            if any(la.action.kind == "gm_autoplay" for la in loaded.game.legal_actions(loaded.state, 0)):
                await run("/hq gm autoplay")
            if 0 in (await _loaded(d)).game.to_act((await _loaded(d)).state):
                await run("/hq gm end")
        else:
            doors = await d.autocomplete(name, "/hq door", "door", "")
            if doors:
                await run(f'/hq door door:"{doors[0]["value"]}"')
            else:
                moves = await d.autocomplete(name, "/hq move", "to", "")
                legal = {la.action.token() for la in loaded.game.legal_actions(loaded.state, seat)}
                assert all(c["value"] in legal for c in moves)
                if moves:
                    await run(f'/hq move to:"{moves[-1]["value"]}"')
                if seat in (await _loaded(d)).game.to_act((await _loaded(d)).state):
                    await run("/hq end")
        gm_dms += sum(1 for o in out if o.kind == "dm" and o.recipient_id == d.user("alice").id and now(d, o))
        channel_images += [data for o, shown in arrived(d, out) if o.recipient_id is None for _, data in shown]
    assert gm_dms >= 1, "the GM got an updated map by DM when something was revealed"
    assert channel_images and gm_map not in channel_images


async def test_broken_quest_file_is_refused_in_the_users_language(d: InProcessDiscord, tmp_path: Path) -> None:
    broken = tmp_path / "broken.xml"
    broken.write_text("<quest name='x'><board>", encoding="utf-8")
    d.user("alice", locale="es-ES")
    out = await d.command("alice", f"/game new game:heroquest file:{broken}")
    errors = _errors(out)
    assert errors and not any(o.kind == "channel" for o in out)
    assert await d.bot.table.game_for(home_channel(d).id) is None, "nothing was created"
    from rules.heroquest.quest import QuestError
    from rules.heroquest.upload import load_quest

    with pytest.raises(QuestError) as exc:
        load_quest(broken.read_bytes(), "broken.xml")
    assert i18n.t(exc.value.reason, "es") in errors[0]


async def test_gm_tools_refused_politely_for_players_and_spanish_gets_spanish(d: InProcessDiscord) -> None:
    await _open(d, upload=None)
    loaded = await _loaded(d)
    version = loaded.row.version
    out = await d.command("bob", "/hq gm place monster:goblin at:B2")
    assert _errors(out) and "Only the game master (alice)" in _errors(out)[0]
    d.user("carol", locale="es-ES")
    out = await d.command("carol", "/hq dj nota nota:A")
    assert _errors(out) and "Sólo el Malvado Brujo (alice)" in _errors(out)[0]
    out = await d.command("carol", "/hq dj mapa")
    assert _errors(out) and not any(o.attachments for o in out)
    assert (await _loaded(d)).row.version == version, "nothing changed"
    assert await d.autocomplete("bob", "/hq gm note", "note", "") == [], "players get no note keys"
    # A Spanish player's refusal for an out-of-turn move is in Spanish.
    out = await d.command("carol", "/hq fin")
    loaded = await _loaded(d)
    if 2 not in loaded.game.to_act(loaded.state):
        spanish = i18n.catalog("es")["core.error.not_your_turn"].split("{")[0]
        assert _errors(out) and spanish in _errors(out)[0]


async def test_gm_places_a_hidden_monster_out_of_turn_and_only_they_see_it(d: InProcessDiscord) -> None:
    await _open(d, upload=None)
    await _choose_spells(d)
    loaded = await _loaded(d)
    state = loaded.state
    hidden = next((r, c) for r in range(19) for c in range(26)
                  if not state.is_revealed((r, c)) and (r, c) not in state.dark
                  and (r, c) not in state.blocked_squares() and (r, c) not in state.figure_at())
    out = await d.command("alice", f"/hq gm place monster:orc at:{coords.name(*hidden)}")
    assert not _errors(out), _errors(out)
    await assert_no_leak(d, out)
    gm = [o for o in out if o.recipient_id == d.user("alice").id and o.kind in ("ephemeral", "dm")]
    assert any(now(d, o) for o in gm), "the GM sees the new monster on their map"
    channel = " ".join(o.text() for o in out if o.kind == "channel")
    assert "Orc" not in channel and "orc" not in channel.lower().split()


@pytest.mark.parametrize("seed", [5, 9])
async def test_random_legal_play_never_shows_hidden_things(tmp_path, monkeypatch, seed: int) -> None:
    """Random legal moves by every seat, by /game act and the public buttons: channel text, buttons,
    players' DMs and ephemerals never name an unrevealed thing; public images are the spectator view."""
    monkeypatch.setenv("TABLETOP_SEED", str(seed))
    rng = random.Random(seed)
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / f"p{seed}.sqlite3"))) as d:
        d.user("carol", locale="es-ES")
        out = await d.command("alice", f"/game new game:heroquest file:{TRIAL}")
        out += await d.command("bob", "/game join")
        out += await d.command("carol", "/game join")
        out += await d.command("alice", "/game start")
        await assert_no_leak(d, out)
        for _ in range(22):
            loaded = await _loaded_any(d)
            if loaded.row.status != "active":
                break
            game, state = loaded.game, loaded.state
            seat = min(game.to_act(state))
            name = d.world.users[loaded.user_of(seat)].name
            legal = game.legal_actions(state, seat)
            # Favour moves that reveal things, so the hidden map is exercised.
            weighted = [la for la in legal if la.action.kind in ("open_door", "move", "search_secret",
                                                                 "search_treasure", "gm_autoplay")]
            la = rng.choice(weighted if weighted and rng.random() < 0.8 else legal)
            out = await d.command(name, f'/game act action:"{la.action.token()}"')
            assert not _errors(out), _errors(out)
            await assert_no_leak(d, out)
        loaded = await _loaded_any(d)
        who = Who(d.user("bob").id, "bob")
        log = await d.bot.table.log(home_channel(d).id, who, game_id=loaded.row.id)
        secrets = [t for t, s in loaded.game.secret_tokens(loaded.state).items() if s == frozenset({0})]
        text = " ".join(i18n.t(m, "en") for _, m in log.lines)
        leaks = [t for t in secrets if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", text)]
        assert not leaks, (leaks, text)


async def test_sheets_and_shop_between_quests(d: InProcessDiscord) -> None:
    out = await d.command("bob", "/hq sheet hero:barbarian")
    assert "Barbarian" in out[0].content and "level 1" in out[0].content
    out = await d.command("bob", "/hq shop buy hero:wizard item:broadsword")
    assert _errors(out), "the wizard may not use a broadsword (or cannot afford it)"
    out = await d.command("bob", "/hq skill buy hero:barbarian skill:dodge")
    assert _errors(out)
    await _open(d, upload=None)
    out = await d.command("bob", "/hq shop sell hero:barbarian item:broadsword")
    assert _errors(out) and "between quests" in _errors(out)[0]


async def test_public_buttons_and_autocomplete_follow_the_turn(d: InProcessDiscord) -> None:
    await _open(d, upload=None)
    await _choose_spells(d)
    loaded = await _loaded(d)
    seat = min(loaded.game.to_act(loaded.state))
    name = d.world.users[loaded.user_of(seat)].name
    out = await d.command(name, "/game status")
    board = next(o for o in out if o.kind == "ephemeral" and o.components)
    labels = {label for _, label in board.components}
    assert {"Search treasure", "Search traps", "End turn"} <= labels
    out = await d.click(name, board, "End turn")
    assert not _errors(out)
    assert await d.autocomplete("dave", "/hq move", "to", "") == [], "spectators get nothing"
    assert Action.of("end_turn").token() == "end_turn"
    assert i18n.t(msg("hq.bot.button.end"), "es") == "Terminar turno"


@pytest.mark.parametrize(("who", "line", "raw", "words"), [
    ("alice", "/hq gm adjust who:x stat:body delta:1", {"delta": "ten"}, ("-20", "20")),
    ("alice", "/hq gm adjust who:x stat:body delta:1", {"delta": 500}, ("-20", "20")),
    ("alice", "/hq gm adjust who:x stat:body delta:1", {"stat": "gold"}, ("body", "mind")),
    ("alice", "/hq gm award hero:x gold:5", {"gold": -5}, ("0", "10000")),
    ("alice", "/hq gm finish result:win", {"result": "draw"}, ("win", "lose")),
    ("alice", "/hq gm remove thing:x", {"thing": "monster-that-is-not-there"}, ("monster-that-is-not-there",)),
    ("bob", "/hq search kind:treasure", {"kind": "gold"}, ("treasure", "traps", "secret")),
    ("bob", "/hq sheet hero:barbarian", {"hero": "paladin"}, ("barbarian", "wizard")),
    ("bob", "/hq move to:B2", {"to": 22}, ("text",)),
])
async def test_crafted_option_values_are_refused_by_name(d: InProcessDiscord, who: str, line: str, raw: dict,
                                                          words: tuple[str, ...]) -> None:
    await _open(d, upload=None)
    version = (await _loaded(d)).row.version
    out = await crafted(d, who, line, **raw)
    errors = _errors(out)
    assert errors and all(w in errors[0] for w in words), [o.text() for o in out]
    assert "wrong on our side" not in errors[0]
    assert (await _loaded(d)).row.version == version, "nothing changed"


async def test_crafted_numbers_are_refused_in_spanish(d: InProcessDiscord) -> None:
    await _open(d, upload=None)
    d.user("alice", locale="es-ES")
    errors = _errors(await crafted(d, "alice", "/hq gm adjust who:x stat:body delta:1", delta="diez"))
    assert errors and "número entero" in errors[0] and "-20" in errors[0]

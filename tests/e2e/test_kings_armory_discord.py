"""The King's Armory through the real bot and the in-process Discord stand-in: /ka commands, buttons, blocks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import i18n
from rules.base import SYSTEM, Action
from rules.rng import Rng
from rules.text import msg
from standin.inprocess import InProcessDiscord
from standin.world import Output
from tests.e2e.games import bot_world
from tests.e2e.games import errors as _errors
from tests.e2e.games import loaded as _loaded
from tests.e2e.pictures import now
from tests.standin_reads import home_channel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
async def d(tmp_path, monkeypatch):
    async for world in bot_world(tmp_path, monkeypatch, 7, previews=True):
        yield world




async def _play_until(d: InProcessDiscord, names: dict[int, str], done: Callable[[dict[str, Any]], bool],
                      limit: int = 400) -> dict[str, Any]:
    """The humans play the AI heroes' moves by `/game act` until `done(state)`; returns that state."""
    for _ in range(limit):
        loaded = await _loaded(d)
        state = loaded.state
        if done(state):
            return state
        assert loaded.game.outcome(state) is None, "the game ended first"
        seat = min(s for s in loaded.game.to_act(state) if s != SYSTEM)
        action = loaded.game.ai_action(state, seat, Rng(loaded.row.version))
        out = await d.command(names[seat], f'/game act action:"{action.token()}"')
        assert not _errors(out), _errors(out)
    raise AssertionError("the condition never came")


def _latest_with(d: InProcessDiscord, user: str, label: str) -> Output:
    """The newest output `user` can see with a button labelled `label`."""
    uid = d.user(user).id
    for o in reversed(d.world.outputs):
        if (o.kind in ("channel", "edit") or o.recipient_id == uid) and any(lab == label for _, lab in o.components):
            return o
    raise AssertionError(f"no button {label!r}")


async def test_a_wave_prepared_and_fought_with_commands_and_buttons(d: InProcessDiscord) -> None:
    out = await d.command("alice", "/game new game:kings-armory ai:1")
    out += await d.command("alice", "/game start")
    assert not _errors(out), _errors(out)
    heroes = await d.autocomplete("alice", "/ka pick", "hero", "")
    assert heroes and all(c["value"].startswith("pick hero=") for c in heroes)
    out = await d.command("alice", "/ka pick hero:Valcor")
    assert not _errors(out), _errors(out)
    loaded = await _loaded(d)
    assert loaded.state["phase"] == "setup" and loaded.state["allies"][0]["key"] == "valcor"

    # placing is built in two steps: whom, then where (only that ally's squares)
    allies = await d.autocomplete("alice", "/ka place", "ally", "")
    assert [c["value"] for c in allies] == ["a0"]
    squares = await d.autocomplete("alice", "/ka place ally:a0", "at", "")
    assert 0 < len(squares) <= 25 and all(c["value"].startswith("place ally=a0 ") for c in squares)
    out = await d.command("alice", f'/ka place ally:"Valcor the Warrior" at:"{squares[0]["value"]}"')
    assert not _errors(out), _errors(out)
    assert (await _loaded(d)).state["towers"] == [], "the AI hero left the starting towers to alice"
    out = await d.click("alice", _latest_with(d, "alice", "Leave it to the team"), "Leave it to the team")
    assert not _errors(out), _errors(out)
    assert len((await _loaded(d)).state["towers"]) == 2, "alice left them to the AI hero in turn"
    out = await d.click("alice", _latest_with(d, "alice", "Ready"), "Ready")  # the public turn button
    assert not _errors(out), _errors(out)
    state = (await _loaded(d)).state
    assert state["phase"] == "allies" and state["turn"] == 0, "the wave came and alice is on turn"
    assert any(o.kind in ("channel", "edit") and o.attachments for o in out), "the enemy turn shows the board"

    out = await d.command("alice", "/ka panel")
    mine = [o for o in out if o.kind == "ephemeral"]
    assert mine and mine[0].attachments and mine[0].recipient_id == d.user("alice").id
    activate = [cid for cid, _ in mine[0].components if cid.endswith(":activate ally=a0")]
    assert activate, mine[0].components
    out = await d.click("alice", mine[0], activate[0])
    assert not _errors(out), _errors(out)
    assert (await _loaded(d)).state["active"] == "a0"
    moves = await d.autocomplete("alice", "/ka move", "to", "")
    assert 0 < len(moves) <= 25
    out = await d.command("alice", f'/ka move to:"{moves[0]["value"]}"')
    assert not _errors(out), _errors(out)
    out = await d.command("alice", "/ka end")
    assert not _errors(out), _errors(out)
    state = (await _loaded(d)).state
    assert state["turn"] != 0 or state["phase"] != "allies" or state["active"] is None
    assert d.world.problems == [], d.world.problems


async def test_the_block_window_offers_its_buttons_only_to_the_blocker(d: InProcessDiscord) -> None:
    await d.command("alice", "/game new game:kings-armory")
    await d.command("bob", "/game join")
    await d.command("alice", "/game start")
    names = {0: "alice", 1: "bob"}
    state = await _play_until(d, names, lambda s: s["ask"] is not None)
    loaded = await _loaded(d)
    blocker = names[min(loaded.game.to_act(state))]
    other = names[1] if blocker == names[0] else names[0]
    legal = {la.action.token() for la in loaded.game.legal_actions(state, min(loaded.game.to_act(state)))
             if la.action.kind in ("block", "wait", "pass")}
    out = await d.command(blocker, "/ka panel")
    panel = next(o for o in out if o.kind == "ephemeral")
    buttons = {cid.split(":", 4)[4] for cid, _ in panel.components if cid.startswith("tgb:a:")}
    assert buttons == legal and {Action.from_token(t).kind for t in buttons} == {"block", "wait", "pass"}
    out = await d.command(other, "/ka panel")
    assert not [cid for o in out for cid, _ in o.components if cid.startswith("tgb:a:")], "nothing to press"
    assert await d.autocomplete(other, "/ka react", "choice", "") == []
    choices = await d.autocomplete(blocker, "/ka react", "choice", "")
    assert {c["value"] for c in choices} == legal
    block = next(cid for cid, _ in panel.components if ":block " in cid)
    mid = state["ask"]["mid"]
    out = await d.click(blocker, panel, block)
    assert not _errors(out), _errors(out)
    state = (await _loaded(d)).state
    mon = next((m for m in state["monsters"] if m["id"] == mid), None)
    assert mon is None or mon["blocked_by"] is not None or state["ask"] is None


async def test_off_turn_a_player_gives_standing_orders_and_sees_them(d: InProcessDiscord) -> None:
    await d.command("alice", "/game new game:kings-armory")
    await d.command("bob", "/game join")
    await d.command("alice", "/game start")
    names = {0: "alice", 1: "bob"}
    state = await _play_until(d, names, lambda s: s["phase"] == "allies" and s["ask"] is None and s["turn"] == 0
                              and s["active"] is None)
    bob = next(a for a in state["allies"] if a["seat"] == 1)
    offered = await d.autocomplete("bob", "/ka orders", "choice", "")
    wanted = f"order ally={bob['id']} mode=block"
    assert wanted in {c["value"] for c in offered}, offered
    out = await d.command("bob", f'/ka orders choice:"{wanted}"')
    assert not _errors(out), _errors(out)
    state = (await _loaded(d)).state
    assert next(a for a in state["allies"] if a["id"] == bob["id"])["order"] == "block"
    assert state["turn"] == 0, "an order is not a turn"
    out = await d.command("bob", "/ka panel")
    text = next(o for o in out if o.kind == "ephemeral").content
    assert "block whenever it can" in text
    out = await d.command("bob", "/ka end")
    assert "alice" in _errors(out)[0], "off turn, a move of the turn says whose turn it is"
    out = await d.command("bob", '/ka orders choice:"sometimes"')
    assert _errors(out), "an order that names nothing is refused"
    assert d.world.problems == [], d.world.problems


async def test_refusals_in_spanish_and_autocomplete_of_at_most_25_legal_moves(d: InProcessDiscord) -> None:
    d.user("carla", locale="es-ES")
    out = await d.command("carla", "/ka panel")
    assert _errors(out)[0] == "⚠️ " + i18n.t(msg("core.error.no_game"), "es")
    await d.command("alice", "/game new game:kings-armory")
    await d.command("carla", "/game join")
    await d.command("alice", "/game start")
    out = await d.command("carla", "/ka elegir heroe:Valcor")
    assert "No es tu turno" in _errors(out)[0], _errors(out)
    await d.command("alice", "/ka pick hero:Ember")
    out = await d.command("carla", "/ka construir en:A1")
    text = _errors(out)[0]
    assert "Ahora no tienes ninguna jugada de ese tipo" in text and "Elegir a" in text, text
    out = await d.command("carla", "/ka elegir heroe:Ember")
    assert "no es ninguna de tus opciones" in _errors(out)[0], _errors(out)
    out = await d.command("carla", "/ka elegir heroe:Valcor")
    assert not _errors(out), _errors(out)
    loaded = await _loaded(d)
    builds = loaded.game.choices(loaded.state, 0, ("build",))
    assert isinstance(builds, list) and len(builds) > 25, "more towers may be built than Discord can list"
    for user, seat in (("alice", 0), ("carla", 1)):
        for typed in ("", "L1", "1"):
            choices = await d.autocomplete(user, "/ka build", "at", typed)
            assert 0 < len(choices) <= 25
            for c in choices:
                assert loaded.game.is_legal(loaded.state, seat, Action.from_token(c["value"])), c
                assert typed.casefold() in c["name"].casefold() or typed.casefold() in c["value"].casefold()
    assert await d.autocomplete("bob", "/ka build", "at", "") == [], "spectators get nothing"


async def test_a_map_file_attached_to_game_new_is_the_board_and_a_broken_one_is_refused(
        d: InProcessDiscord, tmp_path) -> None:
    from rules.kings_armory import maps as kmaps

    broken = tmp_path / "roto.json"
    broken.write_text('{"tiles_w": 3, "tiles_h": 3, "route": [[0, 1, "N", "S"], [1, 1, "N", "E"]]}', encoding="utf-8")
    d.user("alice", locale="es-ES")
    await d.command("owner", "/game settings language:es")  # a Spanish table: its lobby speaks Spanish
    out = await d.command("alice", f"/game new game:kings-armory file:{broken}")
    errors = _errors(out)
    assert errors and "no se puede jugar" in errors[0] and "llegar al castillo" in errors[0]
    assert not any(o.kind == "channel" for o in out)
    assert await d.bot.table.game_for(home_channel(d).id) is None, "nothing was created"

    out = await d.command("alice", f"/game new game:kings-armory ai:1 file:{kmaps.CUSTOM_DIR / 'river-bend.json'}")
    assert not _errors(out), _errors(out)
    assert any("Recodo del río" in o.text() for o in out if o.kind == "channel")
    out = await d.command("alice", "/game start")
    out += await d.command("alice", "/ka pick hero:Valcor")
    assert not _errors(out), _errors(out)
    state = await _play_until(d, {0: "alice"}, lambda s: s["phase"] == "allies")
    assert state["map_spec"]["tiles_w"] == 5 and state["monsters"], "the wave walks the uploaded road"
    assert any(o.kind == "channel" and now(d, o) for o in d.world.outputs), "the board is drawn"


async def test_not_enough_players_pick_champions_by_name_and_endurance_shows_its_score(d: InProcessDiscord) -> None:
    d.user("carla", locale="es-ES")
    out = await d.command("alice", "/game new game:kings-armory options:not_enough=true")
    assert any("General-ly Not Enough (no heroes: each player picks a champion): yes" in o.text()
               for o in out if o.kind == "channel"), "the lobby names the variant that is on"
    await d.command("carla", "/game join")
    await d.command("alice", "/game start")
    choices = await d.autocomplete("alice", "/ka pick", "hero", "")
    assert {c["value"] for c in choices} == {f"pick type={k}" for k in ("foot", "archer", "sorcerer", "psionicist",
                                                                         "cleric")}
    out = await d.command("alice", "/ka pick hero:archer")
    assert not _errors(out), _errors(out)
    out = await d.command("carla", "/ka elegir heroe:Valcor")
    assert "no es ninguna de tus opciones" in _errors(out)[0], "no heroes in this variant"
    out = await d.command("carla", "/ka elegir heroe:Hechicero")
    assert not _errors(out), _errors(out)
    state = (await _loaded(d)).state
    assert [(a["kind"], a["key"], a["seat"]) for a in state["allies"]] == [("champion", "archer", 0),
                                                                            ("champion", "sorcerer", 1)]
    out = await d.command("alice", "/game abandon")
    assert not _errors(out), _errors(out)
    asked = next(o for o in out if any(label == "Abandon" for _, label in o.components))  # it asks first
    out = await d.click("alice", asked, next(cid for cid, label in asked.components if label == "Abandon"))
    assert not _errors(out), _errors(out)

    out = await d.command("alice", "/game new game:kings-armory ai:1 options:endurance=true")
    assert not _errors(out), _errors(out)
    await d.command("alice", "/game start")
    await d.command("alice", "/ka pick hero:Valcor")
    loaded = await _loaded(d)
    assert loaded.game.view(loaded.state, None)["score"] == 0 and loaded.game.view(loaded.state, None)["waves"] == 20


async def test_an_equipment_trade_offered_with_a_command_and_accepted_with_a_button(d: InProcessDiscord) -> None:
    await d.command("alice", "/game new game:kings-armory options:generals=true")
    await d.command("bob", "/game join")
    await d.command("alice", "/game start")
    names = {0: "alice", 1: "bob"}
    state = await _play_until(d, names, lambda s: s["phase"] == "between" and not s["ready"], limit=600)
    gives = await d.autocomplete("alice", "/ka trade", "give", "")
    assert gives and all(c["value"] in {g["id"] for g in state["gear"] if g["seat"] == 0} for c in gives)
    wants = await d.autocomplete("alice", f"/ka trade give:{gives[0]['value']}", "want", "")
    assert wants and all(c["value"].startswith(f"trade gear={gives[0]['value']} ") for c in wants)
    out = await d.command("alice", f'/ka trade give:{gives[0]["value"]} want:"{wants[0]["value"]}"')
    assert not _errors(out), _errors(out)
    offer = Action.from_token(wants[0]["value"])
    out = await d.command("bob", "/ka panel")
    panel = next(o for o in out if o.kind == "ephemeral")
    answers = {Action.from_token(cid.split(":", 4)[4]).kind for cid, _ in panel.components if cid.startswith("tgb:a:")}
    assert answers == {"accept_trade", "decline_trade"}
    accept = next(cid for cid, _ in panel.components if cid.endswith(":accept_trade"))
    out = await d.click("bob", panel, accept)
    assert not _errors(out), _errors(out)
    gear = {g["id"]: g["seat"] for g in (await _loaded(d)).state["gear"]}
    assert (gear[offer["gear"]], gear[offer["want"]]) == (1, 0)
    out = await d.command("bob", "/ka hold")
    assert not _errors(out), _errors(out)
    assert (await _loaded(d)).state["holds"] == [1]
    assert d.world.problems == [], d.world.problems

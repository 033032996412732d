"""La Guerra de Indagar through the real bot and the in-process Discord stand-in: /gi steps, buttons, peeks."""

from __future__ import annotations

import pytest

import i18n
from cogs.delivery import with_names
from cogs.guerra_de_indagar import panel
from cogs.ui import GameButton, GameSelect
from renderers.guerra_de_indagar import render
from rules.base import SYSTEM, Action
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.data import tile_name
from rules.rng import Rng
from rules.text import msg
from standin.inprocess import InProcessDiscord
from standin.world import Output
from tests.e2e.games import bot_world
from tests.e2e.games import errors as _errors
from tests.e2e.games import loaded as _loaded
from tests.guerra_de_indagar.test_damage_windows import arrow_at_zhuan
from tests.guerra_de_indagar.test_windows import defence_window
from tests.standin_reads import home_channel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
COMMANDS = [("/gi setup", "choice"), ("/gi hero", "hero"), ("/gi path", "step"), ("/gi trade", "trade"),
            ("/gi answer", "choice"), ("/gi action", "action")]


@pytest.fixture
async def d(tmp_path, monkeypatch):
    async for world in bot_world(tmp_path, monkeypatch, 7):
        yield world




async def _seat_to_act(d: InProcessDiscord) -> int | None:
    if await d.bot.table.game_for(home_channel(d).id) is None:
        return None
    loaded = await _loaded(d)
    humans = [s for s in loaded.game.to_act(loaded.state) if s != SYSTEM]
    return None if loaded.game.outcome(loaded.state) is not None or not humans else min(humans)


async def _ai_move(d: InProcessDiscord, names: list[str]) -> list[Output]:
    """The seat to act plays what the AI would, sent as `/game act`."""
    loaded = await _loaded(d)
    seat = min(s for s in loaded.game.to_act(loaded.state) if s != SYSTEM)
    action = loaded.game.ai_action(loaded.state, seat, Rng(loaded.row.version))
    out = await d.command(names[seat], f'/game act action:"{action.token()}"')
    assert not _errors(out), _errors(out)
    return out


async def _setup(d: InProcessDiscord, names: list[str]) -> None:
    """Everyone picks faction, commander and monster through `/gi setup` and its suggestions."""
    for _ in range(3 * len(names)):
        loaded = await _loaded(d)
        if loaded.state["phase"] not in ("faction", "commander", "monster"):
            break
        seat = min(loaded.game.to_act(loaded.state))
        choices = await d.autocomplete(names[seat], "/gi setup", "choice", "")
        assert 0 < len(choices) <= 25
        out = await d.command(names[seat], f'/gi setup choice:"{choices[0]["value"]}"')
        assert not _errors(out), _errors(out)
    assert (await _loaded(d)).state["phase"] not in ("faction", "commander", "monster")


async def _until_turn_of(d: InProcessDiscord, names: list[str], seat: int, free: bool = True) -> None:
    """Other seats (and this one's questions) played by the AI until `seat` starts an activation."""
    for _ in range(200):
        now = await _seat_to_act(d)
        loaded = await _loaded(d)
        if now == seat and not loaded.state["pending"] and (loaded.state["act"] is None or not free):
            return
        await _ai_move(d, names)
    raise AssertionError("the seat never got its turn")


async def test_an_activation_step_by_step_with_buttons(d: InProcessDiscord) -> None:
    out = await d.command("alice", "/game new game:guerra-de-indagar ai:1")
    out += await d.command("alice", "/game start")
    assert not _errors(out), _errors(out)
    await _setup(d, ["alice"])
    await _until_turn_of(d, ["alice", "-"], 0)
    heroes = await d.autocomplete("alice", "/gi hero", "hero", "")
    assert heroes and all(c["value"].startswith("activate hero=") for c in heroes)
    out = await d.command("alice", f'/gi hero hero:"{heroes[0]["name"]}"')
    assert not _errors(out), _errors(out)
    loaded = await _loaded(d)
    assert loaded.state["act"]["hero"] == heroes[0]["value"].split("=")[1]

    steps = await d.autocomplete("alice", "/gi path", "step", "")
    moves = [c for c in steps if c["value"].startswith("move ")]
    assert moves, steps
    before = loaded.state["heroes"][heroes[0]["value"].split("=")[1]]["at"]
    out = await d.command("alice", f"/gi path step:{moves[0]['value'].split(' ')[0]}")  # "move" alone: ambiguous
    assert _errors(out)
    out = await d.command("alice", f'/gi path step:"{moves[0]["value"]}"')
    assert not _errors(out), _errors(out)
    loaded = await _loaded(d)
    assert loaded.state["heroes"][heroes[0]["value"].split("=")[1]]["at"] != before or loaded.state["pending"]

    await _until_turn_of(d, ["alice", "-"], 0, free=False)
    kinds = await d.autocomplete("alice", "/gi action", "action", "")
    assert all(c["value"] in ("attack", "build", "upgrade", "gather", "clearing") for c in kinds)
    if any(c["value"] == "attack" for c in kinds):
        targets = await d.autocomplete("alice", "/gi action action:attack", "target", "")
        loaded = await _loaded(d)
        assert {c["value"] for c in targets} == {la.action["to"] for la in loaded.game.legal_actions(loaded.state, 0)
                                                 if la.action.kind == "attack"}

    out = await d.command("alice", "/gi panel")
    mine = [o for o in out if o.kind == "ephemeral"]
    assert mine and mine[0].recipient_id == d.user("alice").id and mine[0].attachments
    buttons = [(cid, label) for cid, label in mine[0].components if cid.startswith("tgb:a:")]
    end = [cid for cid, label in buttons if label == i18n.t(msg("gi.act.end"), "en")]
    if end:
        version = (await _loaded(d)).row.version
        out = await d.click("alice", mine[0], end[0])
        assert not _errors(out), _errors(out)
        assert (await _loaded(d)).row.version > version, "the panel's End button ended the activation"
    assert d.world.problems == [], d.world.problems


async def test_a_build_through_the_action_step(d: InProcessDiscord) -> None:
    await d.command("alice", "/game new game:guerra-de-indagar ai:1")
    await d.command("alice", "/game start")
    await _setup(d, ["alice"])
    for _ in range(400):  # the AI's own moves for alice until it would build, then the build typed by hand
        seat = await _seat_to_act(d)
        if seat is None:
            break
        loaded = await _loaded(d)
        action = loaded.game.ai_action(loaded.state, seat, Rng(loaded.row.version))
        if seat == 0 and action.kind == "build":
            before = len(loaded.state["outposts"])
            out = await d.command("alice", "/gi action action:build")
            assert not _errors(out), _errors(out)
            assert len((await _loaded(d)).state["outposts"]) == before + 1
            return
        await _ai_move(d, ["alice", "-"])
    raise AssertionError("alice's AI never built")


async def test_refusals_in_spanish(d: InProcessDiscord) -> None:
    d.user("carla", locale="es-ES")
    out = await d.command("carla", "/gi panel")
    assert _errors(out)[0] == "⚠️ " + i18n.t(msg("core.error.no_game"), "es")
    await d.command("alice", "/game new game:guerra-de-indagar")
    await d.command("carla", "/game join")
    await d.command("alice", "/game start")
    out = await d.command("carla", "/gi fin")
    assert "No es tu turno" in _errors(out)[0], _errors(out)
    await _setup(d, ["alice", "carla"])
    await _until_turn_of(d, ["alice", "carla"], 1)
    out = await d.command("carla", "/gi accion accion:atacar")
    text = _errors(out)[0]
    assert "Ahora no tienes ninguna jugada de ese tipo" in text and "Activar" in text, text
    out = await d.command("carla", "/gi heroe heroe:nadie")
    assert "no es ninguna de tus opciones" in _errors(out)[0], _errors(out)


async def test_autocomplete_offers_at_most_25_legal_moves_and_nothing_to_others(d: InProcessDiscord) -> None:
    await d.command("alice", "/game new game:guerra-de-indagar ai:1")
    await d.command("alice", "/game start")
    await _setup(d, ["alice"])
    seen = 0
    for _ in range(120):
        seat = await _seat_to_act(d)
        if seat is None:
            break
        loaded = await _loaded(d)
        for line, option in COMMANDS:
            choices = await d.autocomplete("alice", line, option, "")
            assert len(choices) <= 25
            for c in choices:
                if line != "/gi action":
                    assert loaded.game.is_legal(loaded.state, 0, Action.from_token(c["value"])), (line, c)
            seen += len(choices)
        assert await d.autocomplete("bob", "/gi hero", "hero", "") == [], "spectators get nothing"
        await _ai_move(d, ["alice", "-"])
    assert seen > 0


async def test_a_peek_reaches_only_the_peeker(d: InProcessDiscord) -> None:
    names = ["alice", "bob"]
    d.user("bob", locale="es-ES")
    await d.command("alice", "/game new game:guerra-de-indagar")
    await d.command("bob", "/game join")
    await d.command("alice", "/game start")
    await _setup(d, names)
    for _ in range(300):
        seat = await _seat_to_act(d)
        assert seat is not None, "nobody explored"
        loaded = await _loaded(d)
        explores = [la.action for la in loaded.game.legal_actions(loaded.state, seat) if la.action.kind == "explore"]
        if explores and not loaded.state["pending"]:
            break
        await _ai_move(d, names)
    assert seat is not None  # (for the checker: the loop above stops only on a seat)
    peeker, other = d.user(names[seat]).id, d.user(names[1 - seat]).id
    to = explores[0]["to"]
    out = await d.command(names[seat], f'/gi path step:"{explores[0].token()}"')
    assert not _errors(out), _errors(out)
    out += await d.command(names[seat], '/gi answer choice:"keep_hidden"')
    assert not _errors(out), _errors(out)
    loaded = await _loaded(d)
    kind = tile_name(loaded.state["tiles"][loaded.state["players"][seat]["known"][-1]]["t"])
    told = {i18n.t(msg("gi.ev.peek", tile=to, kind=kind), lang) for lang in i18n.LANGS}
    secret = [o for o in out if any(x in o.content for x in told)]
    # ("edit", peeker): the peeker's own reply again, once its private picture is drawn (a channel edit has none)
    assert secret and {(o.kind, o.recipient_id) for o in secret} <= {("ephemeral", peeker), ("dm", peeker),
                                                                     ("edit", peeker)}
    panel = [o for o in await d.command(names[1 - seat], "/gi panel") if o.recipient_id == other]
    assert panel and not any(to in o.content or kind.es in o.content for o in panel)
    mine = [o for o in await d.command(names[seat], "/gi panel") if o.recipient_id == peeker]
    assert any(to in o.content for o in mine), "the peeker's panel lists the tile it alone has seen"
    assert await d.autocomplete(names[1 - seat], "/gi path", "step", "") == []
    assert d.world.problems == [], d.world.problems


def test_the_panel_puts_a_windows_answers_on_buttons() -> None:
    s = defence_window()
    legal = GAME.legal_actions(s, 1)
    ui = panel(5, 9, legal, "es", {0: "ana", 1: "bea"})
    assert ui is not None
    buttons = {item.item.label: item.item.custom_id for item in ui.children if isinstance(item, GameButton)}
    assert buttons[i18n.t(msg("gi.act.done"), "es")] == "tgb:a:5:9:done"
    # every answer is a button; trades and spirits spent for resources (open in a window too, RULING-07) are built
    # in steps in the panel's trade menu
    answers = [la for la in legal if la.action.kind not in ("trade", "spirit_res", "spirit_heal")]
    assert {f"tgb:a:5:9:{la.action.token()}" for la in answers} == set(buttons.values())


async def test_the_private_panel_image_marks_whose_view_it_is(d: InProcessDiscord) -> None:
    await d.command("alice", "/game new game:guerra-de-indagar ai:1")
    await d.command("alice", "/game start")
    await _setup(d, ["alice"])
    loaded = await _loaded(d)
    names = await d.bot.table.seat_names(loaded.row.id)
    out = await d.command("alice", "/gi panel")
    [mine] = [o for o in out if o.kind == "ephemeral" and o.recipient_id == d.user("alice").id]
    [(_, png)] = mine.attachments
    view = with_names(loaded.game.view(loaded.state, 0), names)
    assert view["you"] == 0 and png == render(view, "en")
    assert png != render({k: v for k, v in view.items() if k != "you"}, "en")
    assert d.world.problems == [], d.world.problems


def test_the_panel_offers_the_ignore_window_on_buttons_and_its_abilities_in_a_menu() -> None:
    s = arrow_at_zhuan(spirits=1)
    [arrow] = [la.action for la in GAME.legal_actions(s, 0) if la.action.kind == "skill" and la.action["id"] == "arrow"]
    s = GAME.apply(s, 0, arrow).state
    assert s["pending"][0]["kind"] == "ignore"
    legal = GAME.legal_actions(s, 1)
    ui = panel(5, 9, legal, "en", {0: "ana", 1: "bea"})
    assert ui is not None
    buttons = {item.item.custom_id for item in ui.children if isinstance(item, GameButton)}
    assert buttons == {"tgb:a:5:9:spirit_ignore", "tgb:a:5:9:done"}
    menus = [o.value for item in ui.children if isinstance(item, GameSelect) for o in item.item.options]
    # the window's ability in a menu, after the trade menu's first steps (trading is open in a window: RULING-07)
    assert menus[-1] == Action.of("ability", id="mutated_flesh").token()
    assert set(menus[:-1]) <= {"trade", "spirit_res", "spirit_heal", "spirit_pp"}, menus

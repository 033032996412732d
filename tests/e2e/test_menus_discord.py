"""Menus and typed moves through the real bot and the in-process stand-in, for an English and a Spanish player."""

from __future__ import annotations

import re
import sys

import pytest

from standin.inprocess import InProcessDiscord
from standin.world import Output, iter_components
from tests.e2e.games import bot_world
from tests.e2e.games import errors as _errors
from tests.e2e.games import loaded as _loaded

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
#: What no player may read in a menu or a reply: a snake_case token, a `key=value`, a lone dash.
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\b\w+=\w+|(^|\s)-(\s|$|\.)")


@pytest.fixture
async def d(tmp_path, monkeypatch):
    async for world in bot_world(tmp_path, monkeypatch, 7, previews=True):
        yield world


def _menus(d: InProcessDiscord, output: Output) -> list[list[dict]]:
    """The menus of one output's message: each a list of its options."""
    message = d.world.messages[output.message_id]
    return [c.get("options", []) for c in iter_components(message.components) if c.get("type") == 3]


def _mine(out: list[Output], d: InProcessDiscord, user: str) -> list[Output]:
    uid = d.user(user).id
    return [o for o in out if o.recipient_id == uid and o.kind == "ephemeral"]


def _said(out: list[Output], d: InProcessDiscord, user: str) -> str:
    return "\n".join(o.text() for o in _mine(out, d, user))


@pytest.mark.parametrize(("user", "locale", "more"), [("alice", "en-US", "more"), ("dave", "es-ES", "más")])
async def test_a_solo_build_menu_reaches_every_square_by_paging(d: InProcessDiscord, user: str, locale: str,
                                                                 more: str) -> None:
    d.user(user, locale=locale)
    out = await d.command(user, "/game new game:kings-armory")
    out += await d.command(user, "/game start")
    out += await d.command(user, "/game act action:valcor")
    assert not _errors(out), _errors(out)
    out = await d.command(user, "/game view")
    panel = _mine(out, d, user)[-1]
    (first,) = _menus(d, panel)
    assert len(first) == 4 and not any(RAW.search(o["label"]) for o in first)
    count = re.search(r"(\d+)", panel.body().splitlines()[-1])
    assert count is not None and int(count.group(1)) == len(first), "the count is what the menu shows"
    out = await d.pick(user, "1")
    text = _said(out, d, user)
    assert "build" not in text.split(":")[1][:20] and not RAW.search(text), text
    labels: list[str] = []
    for _ in range(5):
        (menu,) = _menus(d, _mine(out, d, user)[-1])
        assert len(menu) <= 25
        labels += [o["label"] for o in menu]
        if any("J9" in lab for lab in labels):
            break
        out = await d.pick(user, more)
    assert any("J9" in lab for lab in labels), "J9 is on a later page"
    out = await d.pick(user, "J9")
    assert not _errors(out), _errors(out)
    assert len((await _loaded(d)).state["towers"]) == 1
    assert any("J9" in o.content for o in out if o.kind in ("channel", "edit")), "the tower stands on J9"


async def test_typed_labels_of_menus_and_buttons_work_in_either_language(d: InProcessDiscord) -> None:
    d.user("alice", locale="es-ES")
    out = await d.command("alice", "/game new game:hero-realms ai:1")
    out += await d.command("alice", "/game start")
    assert not _errors(out), _errors(out)
    out = await d.command("alice", "/game act action:'Play all (4)'")  # the public button's label, another count
    assert not _errors(out), _errors(out)
    state = (await _loaded(d)).state
    assert not state.players[0].hand, "the whole hand was played"
    out = await d.command("alice", "/game act action:'fire gem'")  # an English label, typed by a Spanish player
    assert not _errors(out), _errors(out)
    out = await d.command("alice", "/game act action:'xyz'")
    (refusal,) = _errors(out)
    assert "xyz" in refusal and not RAW.search(refusal), refusal


async def test_a_guerra_panel_keeps_each_menu_within_25_and_typed_squares_say_which(d: InProcessDiscord) -> None:
    for line in ("/game new game:guerra-de-indagar", "/game start", '/gi setup choice:"Choose Kingdom of Arkland"',
                 '/gi setup choice:"Steel Knight"',
                 '/gi answer choice:"Merchant Crown, unlocking Taxes with the bolt (+1 power)"',
                 '/gi hero hero:"Paladin of the Light"', '/gi path step:"Explore D7"',
                 '/gi answer choice:"Keep it face down"', "/gi path step:D7"):
        out = await d.command("alice", line)
        assert not _errors(out), (line, _errors(out))
    out = await d.command("alice", "/gi panel")
    menus = _menus(d, _mine(out, d, "alice")[-1])
    assert menus and all(len(m) <= 25 for m in menus), [len(m) for m in menus]
    out = await d.pick("alice", "Trade three")  # a trade is built in steps: what to give, then what to get
    (give,) = _menus(d, _mine(out, d, "alice")[-1])
    labels = [o["label"] for o in give]
    assert labels[0] == "Give Gold, Gold, Gold" and len(labels) <= 25 and all(x.startswith("Give ") for x in labels)
    assert _said(out, d, "alice").startswith("So far: Trade resources. What do you give?"), _said(out, d, "alice")
    out = await d.command("alice", "/gi path step:D6")
    (refusal,) = _errors(out)
    assert "Move to D6; Explore D6" in refusal and "suggestion" not in refusal, refusal
    out = await d.command("alice", "/gi path step:explore d6")
    assert not _errors(out), _errors(out)


async def test_gorgasali_refusals_and_steps_speak_words(d: InProcessDiscord) -> None:
    d.user("carol", locale="es-ES")
    for who, line in (("alice", "/game new game:gorgasali ai:2"), ("carol", "/game join"), ("alice", "/game start"),
                      ("alice", '/br decide choice:"Play Ebue"'), ("carol", "/br decidir opcion:\"Jugar con E'moon\""),
                      ("carol", "/br tirar")):
        out = await d.command(who, line)
        assert not _errors(out), (line, _errors(out))
    out = await d.command("carol", "/br fin")
    assert _errors(out) == ["⚠️ Termina primero tu movimiento."], "the engine's own reason"
    out = await d.command("carol", "/partida jugar acción:'move S'")
    (refusal,) = _errors(out)
    assert "A5" in refusal and not RAW.search(refusal.replace("move S", "")), refusal
    out = await d.command("carol", "/br panel")
    menus = _menus(d, _mine(out, d, "carol")[-1])
    assert menus and not any(RAW.search(o["label"]) for m in menus for o in m), menus
    out = await d.pick("carol", "varias")
    out = await d.pick("carol", "sur")
    text = _said(out, d, "carol")
    assert text.startswith("Hasta ahora: Moverse varias casillas → Paso al sur a A5"), text


async def test_a_two_step_command_takes_part_of_a_name(d: InProcessDiscord) -> None:
    out = await d.command("alice", "/game new game:kings-armory")
    out += await d.command("alice", "/game start")
    out += await d.command("alice", "/ka pick hero:valcor")
    out += await d.command("alice", "/ka place ally:Valc at:L15")
    assert not _errors(out), _errors(out)
    out = await d.command("alice", "/ka place ally:Zed at:L15")
    (refusal,) = _errors(out)
    assert "Zed" in refusal and "Valcor the Warrior" in refusal and "no move of that kind" not in refusal


async def test_a_menu_of_moves_pages_through_its_more_entry(d: InProcessDiscord, monkeypatch) -> None:
    from rules.text import msg

    # every move in one menu: after the set-up, 24 trades and 3 heroes to activate (the module the bot loaded)
    monkeypatch.setattr(sys.modules["cogs.guerra_de_indagar"], "menus",
                        lambda legal: [(msg("bot.menu.actions"), list(legal))])
    for line in ("/game new game:guerra-de-indagar", "/game start", '/gi setup choice:"Choose Kingdom of Arkland"',
                 '/gi setup choice:"Steel Knight"',
                 '/gi answer choice:"Merchant Crown, unlocking Taxes with the bolt (+1 power)"'):
        out = await d.command("alice", line)
        assert not _errors(out), (line, _errors(out))
    out = await d.command("alice", "/gi panel")
    (menu,) = [m for m in _menus(d, _mine(out, d, "alice")[-1]) if len(m) > 1]
    assert len(menu) == 24 and menu[-1]["label"] == "4 more…"
    out = await d.pick("alice", "4 more")
    (page,) = _menus(d, _mine(out, d, "alice")[-1])
    assert page[0]["label"] == "Previous (1–23)" and len(page) == 5
    out = await d.pick("alice", "Trade Wood, Mineral, Mineral for 1 Gold")
    assert not _errors(out), _errors(out)
    assert any("Wood, Mineral, Mineral for 1 Gold" in o.content for o in out if o.kind in ("channel", "edit"))

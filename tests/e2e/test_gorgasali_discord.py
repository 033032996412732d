"""Gorgasali through the real bot and the in-process Discord stand-in: /br commands, step buttons, decisions."""

from __future__ import annotations

import pytest

import i18n
from rules.base import SYSTEM, Action
from rules.rng import Rng
from rules.text import msg
from standin.inprocess import InProcessDiscord
from tests.e2e.games import bot_world
from tests.e2e.games import errors as _errors
from tests.e2e.games import loaded as _loaded
from tests.standin_reads import home_channel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
async def d(tmp_path, monkeypatch):
    async for world in bot_world(tmp_path, monkeypatch, 11):
        yield world




async def _pick_characters(d: InProcessDiscord, names: list[str]) -> None:
    """Everyone picks the first character offered, by `/br decide` and its autocomplete."""
    for _ in range(len(names) + 2):
        loaded = await _loaded(d)
        if loaded.state["phase"] != "pick":
            return
        seat = min(s for s in loaded.game.to_act(loaded.state) if s != SYSTEM)
        user = names[seat] if seat < len(names) else None
        assert user is not None, "only humans pick by hand here"
        choices = await d.autocomplete(user, "/br decide", "choice", "")
        assert choices and all(c["value"].startswith("pick ") for c in choices)
        out = await d.command(user, f'/br decide choice:"{choices[0]["value"]}"')
        assert not _errors(out), _errors(out)
    assert (await _loaded(d)).state["phase"] != "pick"


async def _my_turn(d: InProcessDiscord, seat: int) -> bool:
    if await d.bot.table.game_for(home_channel(d).id) is None:
        return False  # over
    loaded = await _loaded(d)
    return loaded.game.outcome(loaded.state) is None and seat in loaded.game.to_act(loaded.state)


async def test_moves_by_buttons_and_commands_against_a_bot(d: InProcessDiscord) -> None:
    out = await d.command("alice", "/game new game:gorgasali ai:1")
    out += await d.command("alice", "/game start")
    assert not _errors(out), _errors(out)
    await _pick_characters(d, ["alice"])
    assert await _my_turn(d, 0), "after the bot's turn, alice plays"
    turn = next(o for o in (await d.command("alice", "/game status")) if o.kind == "ephemeral" and o.components)
    assert any(label == "Roll the dice" for _, label in turn.components), turn.components
    out = await d.click("alice", turn, "Roll the dice")  # the public turn button
    assert not _errors(out), _errors(out)
    assert (await _loaded(d)).state["t"]["stage"] == "rolled"

    out = await d.command("alice", "/br panel")
    mine = [o for o in out if o.kind == "ephemeral"]
    assert mine and mine[0].recipient_id == d.user("alice").id and mine[0].attachments
    steps = [(cid, label) for cid, label in mine[0].components if cid.startswith("tgb:a:") and "step dir=" in cid]
    assert steps, mine[0].components
    loaded = await _loaded(d)
    legal = {la.action.token() for la in loaded.game.legal_actions(loaded.state, 0) if la.action.kind == "step"}
    assert {cid.split(":", 4)[4] for cid, _ in steps} == legal, "one button per legal step, no other"
    before = loaded.state["players"][0]["pos"]
    turn = next(o for o in (await d.command("alice", "/game status")) if o.kind == "ephemeral" and o.components)
    options = [o for o in await d.click("alice", turn, i18n.t(msg("bot.button.my_view"), "en"))
               if o.kind == "ephemeral"]
    assert options and [c for c in options[0].components if c in steps] == steps, "My options shows the compass"
    out = await d.click("alice", mine[0], steps[0][0])
    assert not _errors(out), _errors(out)
    loaded = await _loaded(d)
    assert loaded.state["players"][0]["pos"] != before, "the button took the step"

    while await _my_turn(d, 0) and (await _loaded(d)).state["t"]["stage"] in ("rolled", "moving"):
        choices = await d.autocomplete("alice", "/br step", "direction", "")
        if not choices:
            out = await d.command("alice", "/br stop")
        else:
            out = await d.command("alice", f'/br step direction:"{choices[0]["value"]}"')
        assert not _errors(out), _errors(out)
    if await _my_turn(d, 0) and (await _loaded(d)).state["t"]["stage"] == "after":
        out = await d.command("alice", "/br end")
        assert not _errors(out), _errors(out)
    loaded = await _loaded(d)
    assert loaded.state["round"] >= 2 or 0 not in loaded.game.to_act(loaded.state), "alice's turn is over"
    assert d.world.problems == [], d.world.problems


async def test_a_step_by_its_direction_name_and_refusals_in_spanish(d: InProcessDiscord) -> None:
    d.user("carla", locale="es-ES")
    out = await d.command("carla", "/br panel")
    assert _errors(out)[0] == "⚠️ " + i18n.t(msg("core.error.no_game"), "es")
    await d.command("alice", "/game new game:gorgasali")
    await d.command("carla", "/game join")
    await d.command("alice", "/game start")
    await _pick_characters(d, ["alice", "carla"])
    loaded = await _loaded(d)
    seat = min(loaded.game.to_act(loaded.state))
    player, other = (("alice", "carla") if seat == 0 else ("carla", "alice"))
    out = await d.command(other, "/br roll")
    assert "No es tu turno" in _errors(out)[0] or "not your turn" in _errors(out)[0]
    d.user(player, locale="es-ES")
    out = await d.command(player, "/br disparar disparo:nadie")
    text = _errors(out)[0]
    assert "Ahora no tienes ninguna jugada de ese tipo" in text and "Tirar los dados" in text, text
    out = await d.command(player, "/br tirar")
    assert not _errors(out), _errors(out)
    loaded = await _loaded(d)
    steps = [la.action for la in loaded.game.legal_actions(loaded.state, seat) if la.action.kind == "step"]
    assert steps
    spoken = i18n.t(msg(f"gg.dir.{steps[0]['dir']}"), "es")
    before = loaded.state["t"]["seen"]
    out = await d.command(player, f"/br paso direccion:{spoken}")
    assert not _errors(out), _errors(out)
    assert (await _loaded(d)).state["t"]["seen"] != before
    out = await d.command(player, "/br paso direccion:arriba-abajo")
    assert "no es ninguna de tus opciones" in _errors(out)[0] or (await _loaded(d)).state["t"]["stage"] == "after"


async def test_autocomplete_offers_at_most_25_legal_moves(d: InProcessDiscord) -> None:
    await d.command("alice", "/game new game:gorgasali ai:1")
    await d.command("alice", "/game start")
    await _pick_characters(d, ["alice"])
    commands = [("/br step", "direction"), ("/br shoot", "shot"), ("/br card", "card"), ("/br defend", "card"),
                ("/br throw", "card"), ("/br ability", "choice"), ("/br decide", "choice"), ("/br duo", "choice")]
    seen_any = 0
    for _ in range(6):  # a few turns of alice, each checked at every stage, played by her bot's choices
        for _ in range(40):
            if not await _my_turn(d, 0):
                break
            loaded = await _loaded(d)
            for line, option in commands:
                choices = await d.autocomplete("alice", line, option, "")
                assert len(choices) <= 25
                for c in choices:
                    assert loaded.game.is_legal(loaded.state, 0, Action.from_token(c["value"])), (line, c)
                seen_any += len(choices)
            assert await d.autocomplete("bob", "/br step", "direction", "") == [], "spectators get nothing"
            action = loaded.game.ai_action(loaded.state, 0, Rng(loaded.row.version))
            out = await d.command("alice", f'/game act action:"{action.token()}"')
            assert not _errors(out), _errors(out)
        if await d.bot.table.game_for(home_channel(d).id) is None:
            break
    assert seen_any > 0


async def test_an_exchange_offer_reaches_only_the_teammate(d: InProcessDiscord) -> None:
    names = ["alice", "bob", "carl", "dave"]
    await d.command("alice", "/game new game:gorgasali options:mode=duo")
    for name in names[1:]:
        await d.command(name, "/game join")
    out = await d.command("alice", "/game start")
    assert not _errors(out), _errors(out)
    await _pick_characters(d, names)
    loaded = await _loaded(d)
    seat = min(loaded.game.to_act(loaded.state))
    mate = next(p["seat"] for p in loaded.state["players"]
                if p["team"] == loaded.state["players"][seat]["team"] and p["seat"] != seat)
    player, partner = names[seat], names[mate]
    for line in ("/br roll", "/br skip", '/br duo choice:"give_chest"', '/br duo choice:"propose"'):
        out = await d.command(player, line)
        assert not _errors(out), (line, _errors(out))
    prompt = i18n.t(msg("gg.dec.trade", seat=player), "en")
    private = [o for o in out if prompt in o.content and o.kind in ("dm", "ephemeral")]
    assert [o.recipient_id for o in private] == [d.user(partner).id], [(o.kind, o.recipient_id) for o in out]
    assert private[0].content.count(prompt) == 1, "the prompt is said once, with how to answer it"
    assert not [o.content for o in out if prompt in o.content and o.kind == "channel"]
    bystander = next(n for n in names if n not in (player, partner))
    assert await d.autocomplete(bystander, "/br decide", "choice", "") == []
    choices = await d.autocomplete(partner, "/br decide", "choice", "")
    assert {c["value"] for c in choices} == {"accept", "decline"}
    out = await d.command(partner, "/br decide choice:accept")
    assert not _errors(out), _errors(out)
    loaded = await _loaded(d)
    assert loaded.state["trade"] is None and loaded.state["players"][mate]["xc"] == 2


def test_breathold_is_also_found_as_breathhold() -> None:
    """The rulebook spells the weapon both ways (A-57); either picks it."""
    from cogs.gorgasali import WORDS
    from rules.base import Action, LegalAction
    from rules.text import Msg, SeatRef, msg

    breathold = LegalAction(Action.of("shoot", target=1, weapon="w001"),
                            msg("gg.act.shoot", target=SeatRef(1), weapon=Msg("gg.card.breathold")), "shoot")
    other = LegalAction(Action.of("shoot", target=1, weapon="w002"),
                        msg("gg.act.shoot", target=SeatRef(1), weapon=Msg("gg.card.ibex")), "shoot")
    for typed in ("Breathhold", "breathold"):
        assert WORDS.pick([breathold, other], typed, "en", {1: "bob"}) == breathold.action

"""Ways out and on through the real bot and the in-process stand-in: resign, abandon (asked first), replace,
the end-of-game summary and its Rematch button, and the waiting texts of status, skip and settings."""

from __future__ import annotations

import re

import pytest

from standin.inprocess import InProcessDiscord
from standin.world import Output
from tests.e2e.games import bot_world, errors, loaded

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
async def d(tmp_path, monkeypatch):
    async for world in bot_world(tmp_path, monkeypatch, seed=11):
        yield world


def channel(out: list[Output]) -> list[Output]:
    """What the channel shows: new messages, and the turn's live message edited in place."""
    return [o for o in out if o.kind in ("channel", "edit")]


def ephemeral(out: list[Output]) -> list[Output]:
    return [o for o in out if o.kind == "ephemeral"]


def button(out: list[Output], label: str) -> tuple[Output, str]:
    """The output holding the button labelled `label`, and its custom id."""
    for o in reversed(out):
        for custom_id, shown in o.components:
            if shown == label:
                return o, custom_id
    raise AssertionError(f"no button {label!r} in {[o.text() for o in out]}")


async def start_two(d: InProcessDiscord, game: str, extra: str = "") -> None:
    out = await d.command("alice", f"/game new game:{game} {extra}".strip())
    assert not errors(out), out
    out = await d.command("bob", "/game join")
    assert not errors(out), out
    out = await d.command("alice", "/game start")
    assert not errors(out), out


async def test_a_resign_in_two_player_hero_realms_ends_it_with_the_other_winning(d) -> None:
    await start_two(d, "hero-realms")
    out = await d.command("bob", "/game resign")
    assert not errors(out), out
    asked = ephemeral(out)[-1]
    assert "Resign? You will be out of the game, and alice wins." in asked.text(), asked.text()
    assert [label for _, label in asked.components] == ["Resign", "Keep playing"]
    game_before = (await loaded(d)).row
    # Keep playing changes nothing.
    out = await d.click("bob", asked, button([asked], "Keep playing")[1])
    assert "Nothing changed" in ephemeral(out)[-1].text()
    assert (await loaded(d)).row.version == game_before.version
    out = await d.click("bob", asked, button([asked], "Resign")[1])
    assert not errors(out), [o.text() for o in out]
    public = channel(out)[-1]
    text = public.text()
    assert "🏳️ bob resigns and is out of the game." in text
    assert "bob is eliminated" in text.lower() or "eliminated" in text.lower(), text
    assert "🏁 Game over." in text and "The game lasted less than a minute." in text, text
    assert re.search(r"\d+ turns? played\.", text), text
    assert re.search(r"alice: 50 health left, 10 cards owned\.", text), text
    assert re.search(r"bob: out \(number 1 to fall\), \d+ cards owned\.", text), text
    assert [label for _, label in public.components] == ["Rematch"]
    row = await d.bot.table.store.last_game(d.channel.id)
    assert row.status == "finished"
    inspection = await d.bot.table.inspect(row.id)
    assert inspection.game.outcome(inspection.state).winners == frozenset({0})
    out = await d.command("alice", "/game status")  # the summary again, for the asker, with its Rematch button
    shown = ephemeral(out)
    assert any("🏁 Game over." in o.text() for o in shown) and button(shown, "Rematch")
    # The log replays the resignation to the same state.
    replayed = await d.bot.table.replay(row.id)
    assert inspection.game.to_json(replayed) == inspection.game.to_json(inspection.state)


async def test_a_kings_armory_resign_hands_the_hero_to_the_ai_and_the_game_goes_on(d) -> None:
    await start_two(d, "kings-armory")
    out = await d.command("bob", "/game resign")
    asked = ephemeral(out)[-1]
    assert "A bot will play bob from now on, and the game goes on without you." in asked.text(), asked.text()
    out = await d.click("bob", asked, button([asked], "Resign")[1])
    assert not errors(out), [o.text() for o in out]
    said = "\n".join(o.text() for o in channel(out))
    assert "🏳️ bob resigns; from now on the bot plays as bob (bot)." in said, said
    game = await loaded(d)
    assert game.row.status == "active" and game.ai_seats() == {1}
    assert game.game.outcome(game.state) is None
    # The bot already played its part: the table waits for alice only.
    assert game.game.to_act(game.state) == frozenset({0}), game.game.to_act(game.state)
    out = await d.command("bob", "/game act action:ready")
    assert any("not playing" in e for e in errors(out)), errors(out)


async def test_abandon_asks_first_then_sums_up_in_public(d) -> None:
    await start_two(d, "hero-realms")
    out = await d.command("bob", "/game abandon")
    assert any("Only the player who created the game" in e for e in errors(out)), errors(out)
    out = await d.command("alice", "/game abandon")
    asked = ephemeral(out)[-1]
    assert not channel(out), "nothing public before the confirmation"
    assert "Abandon this game of Hero Realms? It ends for everyone at once, with no winner." in asked.text()
    assert [label for _, label in asked.components] == ["Abandon", "Keep playing"]
    assert (await loaded(d)).row.status == "active"
    out = await d.click("alice", asked, button([asked], "Abandon")[1])
    said = "\n".join(o.text() for o in channel(out))
    assert "alice abandoned the game." in said and "It had been going on for less than a minute." in said, said
    assert "bob: 50 health left, 10 cards owned." in said
    assert await d.bot.table.game_for(d.channel.id) is None


async def test_rematch_starts_a_new_lobby_with_the_same_seats_and_options(d) -> None:
    await start_two(d, "hero-realms", "options:variant=hunter-first-blood ai:1")
    out = await d.command("alice", "/game resign")
    out = await d.click("alice", ephemeral(out)[-1], button(ephemeral(out), "Resign")[1])
    public, rematch = button(channel(out), "Rematch")
    first = await d.bot.table.store.last_game(d.channel.id)
    out = await d.click("carol", public, rematch)
    assert any("Only the players of that game" in e for e in errors(out)), errors(out)
    out = await d.click("bob", public, rematch)
    said = "\n".join(o.text() for o in channel(out))
    assert "🔁 bob asks for a rematch of Hero Realms" in said, said
    assert "Options: Variant: Hunter: first blood" in said and "Seats (3): 1. alice, 2. Ada (bot), 3. bob" in said, said
    row = await d.bot.table.game_for(d.channel.id)
    assert row.status == "lobby" and row.options == first.options and row.seed != first.seed
    out = await d.click("bob", public, rematch)
    assert any("This channel already has a game" in e for e in errors(out)), errors(out)
    out = await d.command("bob", "/game start")
    assert not errors(out) and (await loaded(d)).row.status == "active"


async def test_status_skip_and_settings_say_how_long(d) -> None:
    await start_two(d, "hero-realms")
    table = d.bot.table
    started = (await loaded(d)).row.turn_started_at
    now = started + 5 * 3600 + 20 * 60
    table.clock = lambda: now
    out = await d.command("bob", "/game status")
    said = "\n".join(o.text() for o in ephemeral(out))  # status answers the asker alone
    assert f"Waiting for alice since <t:{int(started)}:R> (5 hours 20 minutes)." in said, said
    out = await d.command("bob", "/game skip")
    assert errors(out) == [f"⚠️ Too soon to skip: alice has had the turn for 5 hours 20 minutes, and a turn can be "
                           f"skipped only after 48 hours without a move. That is in 42 hours 40 minutes "
                           f"(<t:{int(started) + 48 * 3600}:R>)."], errors(out)
    d.user("carla", locale="es-ES")
    out = await d.command("carla", "/game settings")
    assert not errors(out), errors(out)
    assert "Aviso de turno tras 720 minutos; los ausentes pueden saltarse tras 48 horas" in ephemeral(out)[-1].text()
    out = await d.command("carla", "/game settings idle_hours:5")
    assert errors(out), "changing them stays for managers"


async def test_replace_hands_a_seat_to_a_newcomer_mid_game(d) -> None:
    await start_two(d, "hero-realms")
    out = await d.command("bob", "/game replace seat:1 new_player:carol")
    assert any("Only the player who created the game" in e for e in errors(out)), errors(out)
    choices = await d.autocomplete("alice", "/game replace new_player:carol", "seat", "")
    assert [c["name"] for c in choices] == ["1. alice", "2. bob"], choices
    out = await d.command("alice", "/game replace seat:2 new_player:carol")
    assert not errors(out), errors(out)
    said = "\n".join(o.text() for o in channel(out))
    assert "🔄 alice hands seat 2 (bob) to carol." in said, said
    game = await loaded(d)
    assert game.seats[1].user_id == d.user("carol").id and game.seats[1].name == "carol"
    out = await d.command("bob", "/game view")
    # bob no longer plays: he sees the table as any onlooker does, never his old hand
    assert not errors(out) and "You are watching" in ephemeral(out)[-1].text(), errors(out)
    out = await d.command("carol", "/game view")
    assert not errors(out) and "Your hand" in ephemeral(out)[-1].text()

"""Hero Realms through the real bot and the in-process Discord stand-in: /hr commands, buttons, secrecy."""

from __future__ import annotations

import asyncio
import re

import pytest

import i18n
from bot import make_bot
from cogs.delivery import with_names
from rules.base import Action
from rules.hero_realms.game import HeroRealms
from rules.hero_realms.state import State
from rules.text import Msg, iter_strings, msg
from standin.inprocess import InProcessDiscord
from standin.world import Output, is_error_output
from tests.e2e.crafted import crafted
from tests.e2e.pictures import newest_board
from tests.standin_reads import home_channel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
async def d(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_SEED", "11")
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "x.sqlite3"))) as world:
        yield world


async def _state(d: InProcessDiscord):
    table = d.bot.table
    row = await table.game_for(home_channel(d).id)
    assert row is not None
    loaded = await table.inspect(row.id)
    return loaded.game, loaded.state, row


def _public_words(view: dict) -> set[str]:
    """Every card name some copy of which is public now (market, in play, discard piles, sacrificed)."""
    names: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            if "name" in value and isinstance(value["name"], dict):
                names.update(value["name"].values())
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(view)
    return names


async def assert_no_leak(d: InProcessDiscord, outputs: list[Output]) -> None:
    """Channel outputs never show a hand: no secret token, no hand card name unless a copy is public
    (on the table or in this step's public events), and the board image is exactly the public view drawn."""
    from renderers.hero_realms import render

    game, state, row = await _state(d)
    names = await d.bot.table.seat_names(row.id)
    secrets = {tok for tok, seats in game.secret_tokens(state).items() if len(seats) < state.n}
    public_view = game.view(state, None)
    public_names = _public_words(public_view)
    # Cards shown by this step's public events (played, then shuffled away) were public too.
    since = getattr(d, "hr_checked_version", 0)
    for _version, to, data in await d.bot.table.store.lines(row.id, after=since):
        if to is None:
            public_names.update(iter_strings(Msg.from_json(data)))
    d.hr_checked_version = row.version  # type: ignore[attr-defined]
    hand_names = {name for p in state.players for c in p.hand for name in _card_names(state.cards[c])}
    leaky = hand_names - public_names
    for out in outputs:
        if out.kind != "channel":
            continue
        text = out.text() + " " + " ".join(cid for cid, _ in out.components)
        for tok in secrets:
            assert not re.search(rf"\b{re.escape(tok)}\b", text), (tok, text)
        for name in leaky:
            assert not re.search(rf"\b{re.escape(name)}\b", text), (name, text)
    board = with_names(public_view, names)
    for filename, data in newest_board(d, outputs):  # with its message, or added by an edit once drawn
        assert data in (render(board, "en"), render(board, "es")), filename


def _card_names(key: str) -> tuple[str, str]:
    from rules.hero_realms.engine import CARDS

    card = CARDS[key]
    return card.name_es, card.name_en


def _error_text(outputs: list[Output]) -> str:
    errors = [o for o in outputs if is_error_output(o)]
    assert errors, [o.text() for o in outputs]
    return errors[0].content


async def _legal_tokens(d: InProcessDiscord, user: str) -> set[str]:
    from table import Who

    u = d.user(user)
    return {la.action.token() for la in await d.bot.table.legal(home_channel(d).id, Who(u.id, u.name))}


async def test_a_game_against_the_ai_by_commands_and_buttons(d: InProcessDiscord) -> None:
    out = await d.command("alice", "/game new game:hero-realms ai:1")
    out += await d.command("alice", "/game start")
    assert not any(is_error_output(o) for o in out)
    await assert_no_leak(d, out)
    turn = [o for o in out if o.kind == "channel"][-1]
    labels = {label for _, label in turn.components}
    assert {"Play all", "End turn", "My hand / my options"} <= labels

    out = await d.command("alice", "/hr hand")
    hand = [o for o in out if o.kind == "ephemeral"]
    assert hand and "Your hand" in hand[0].content and hand[0].attachments
    assert any(cid.startswith("tgb:a:") and "play" in cid for cid, _ in hand[0].components), "per-card buttons"

    for _ in range(4):  # four turns of alice, each answered by the AI
        game, state, _row = await _state(d)
        if game.outcome(state) is not None:
            break
        steps: list[tuple[str, str | None]] = [("click", "Play all"), ("attack", None), ("buy", None),
                                               ("command", "/hr end")]
        for kind, arg in steps:
            tokens = await _legal_tokens(d, "alice")
            if kind == "click" and "play_all" in tokens:
                assert arg is not None
                out = await d.click("alice", None, arg)
            elif kind == "attack" and any(t.startswith("attack target=p") for t in tokens):
                out = await d.command("alice", "/hr attack target:Ada")
            elif kind == "buy" and any(t.startswith("buy ") for t in tokens):
                choices = await d.autocomplete("alice", "/hr buy", "card", "")
                out = await d.command("alice", f'/hr buy card:"{choices[0]["value"]}"')
            elif kind == "command":
                while any(t.startswith("choose ") for t in tokens):
                    choice = (await d.autocomplete("alice", "/hr decide", "choice", ""))[0]["value"]
                    out = await d.command("alice", f'/hr decide choice:"{choice}"')
                    assert not any(is_error_output(o) for o in out), out
                    await assert_no_leak(d, out)
                    tokens = await _legal_tokens(d, "alice")
                if "end_turn" not in tokens:
                    break
                assert arg is not None
                out = await d.command("alice", arg)
            else:
                continue
            assert not any(is_error_output(o) for o in out), [o.text() for o in out]
            await assert_no_leak(d, out)
    game, state, _ = await _state(d)
    assert state.turn_no >= 5, "the AI took its turns in between"


async def test_autocomplete_offers_only_legal_moves(d: InProcessDiscord) -> None:
    await d.command("alice", "/game new game:hero-realms ai:1")
    await d.command("alice", "/game start")
    await d.command("alice", "/hr play card:all")
    legal = await _legal_tokens(d, "alice")
    for line, option in [("/hr play", "card"), ("/hr buy", "card"), ("/hr ability", "card"),
                         ("/hr attack", "target"), ("/hr decide", "choice")]:
        choices = await d.autocomplete("alice", line, option, "")
        assert len(choices) <= 25
        assert all(c["value"] in legal for c in choices), (line, choices)
    buys = await d.autocomplete("alice", "/hr buy", "card", "")
    assert buys and all(c["value"].startswith("buy ") for c in buys)
    narrowed = await d.autocomplete("alice", "/hr buy", "card", "fire")
    assert narrowed and all("Fire" in c["name"] for c in narrowed)
    assert await d.autocomplete("bob", "/hr buy", "card", "") == [], "spectators get nothing"
    seats = await d.autocomplete("bob", "/hr discard", "player", "")
    assert [c["value"] for c in seats] == ["1", "2"]


async def test_closed_dms_get_a_channel_notice_and_a_private_button(d: InProcessDiscord) -> None:
    await d.command("alice", "/game new game:hero-realms ai:1")
    await d.command("bob", "/game join")
    d.world.close_dms(d.user("bob"))
    start = await d.command("alice", "/game start")  # bob is dealt a hand: he should get a DM
    out = await d.command("alice", "/hr end")  # the AI plays, then it is bob's turn: a DM again
    notices = [o for o in start + out if o.kind == "channel" and "DMs are closed" in o.content]
    assert len(notices) == 1, "told once per game, not at every turn"
    assert f"<@{d.user('bob').id}>" in notices[0].content
    assert not any(o.kind == "dm" and o.recipient_id == d.user("bob").id for o in out)
    await assert_no_leak(d, out)
    out = await d.click("bob", notices[0], "Show my private view")
    mine = [o for o in out if o.kind == "ephemeral"]
    assert mine and mine[0].recipient_id == d.user("bob").id and "Your hand" in mine[0].content
    assert mine[0].attachments, "the hand image, privately"


async def test_stale_and_simultaneous_clicks(d: InProcessDiscord) -> None:
    await d.command("alice", "/game new game:hero-realms ai:1")
    await d.command("alice", "/game start")
    # The channel's turn message is edited as the turn goes on; an ephemeral copy of it keeps its old buttons.
    first = next(o for o in await d.command("alice", "/game status") if o.kind == "ephemeral" and o.components)
    out = await d.command("alice", "/hr play card:all")
    assert not any(is_error_output(o) for o in out)
    d.user("alice", locale="es-ES")
    out = await d.click("alice", first, "Play all")
    assert _error_text(out) == "⚠️ " + i18n.t(msg("core.error.stale"), "es")

    *_, row = await _state(d)
    latest = next(o for o in await d.command("alice", "/game status") if o.kind == "ephemeral" and o.components)
    end_id = next(cid for cid, label in latest.components if cid.endswith(":" + Action.of("end_turn").token()))
    results = await asyncio.gather(d.click("alice", latest, end_id), d.click("alice", latest, end_id))
    seen = {o.message_id: o for r in results for o in r}  # both calls see everything that happened
    errors = [o for o in seen.values() if is_error_output(o)]
    assert len(errors) == 1, [o.text() for r in results for o in r]
    ends = [a for a in await d.bot.table.store.actions(row.id)
            if a.seat == 0 and a.action and a.action["kind"] == "end_turn"]
    assert len(ends) == 1, "two clicks, one end of turn"


async def test_refusals_are_localized(d: InProcessDiscord) -> None:
    d.user("carla", locale="es-ES")
    out = await d.command("carla", "/hr mano")
    assert _error_text(out) == "⚠️ " + i18n.t(msg("core.error.no_game"), "es")
    await d.command("alice", "/game new game:hero-realms ai:1")
    await d.command("carla", "/game join")
    await d.command("alice", "/game start")
    out = await d.command("carla", "/hr fin")
    assert "No es tu turno" in _error_text(out)
    out = await d.command("alice", "/hr buy card:Nonexistent")
    assert "is not one of your options" in _error_text(out) or "no move of that kind" in _error_text(out)
    d.user("alice", locale="es-ES")
    out = await d.command("alice", "/hr atacar objetivo:Ada")
    assert "Ahora no tienes ninguna jugada de ese tipo" in _error_text(out)
    out = await d.command("alice", "/hr decidir opcion:1")
    assert _error_text(out) == "⚠️ " + i18n.t(msg("hr.bot.error.no_decision"), "es")
    out = await d.command("alice", "/hr descarte jugador:Zoe")
    assert "No hay ningún jugador" in _error_text(out)


# ---------------------------------------------------------------- second pass: what players and a hostile user found


async def _alice_turn(d: InProcessDiscord, extra: str = "") -> None:
    out = await d.command("alice", f"/game new game:hero-realms ai:1 {extra}".strip())
    out += await d.command("alice", "/game start")
    assert not any(is_error_output(o) for o in out), [o.text() for o in out]
    game, state, _ = await _state(d)
    assert game.to_act(state) == frozenset({0}), "after the AI's opening turn, if it drew the first, alice plays"


async def test_play_all_with_one_card_plays_it(d: InProcessDiscord) -> None:
    await _alice_turn(d)
    while True:
        _, state, _ = await _state(d)
        if len(state.players[0].hand) == 1:
            break
        choices = await d.autocomplete("alice", "/hr play", "card", "")
        choice = next(c["value"] for c in choices if c["value"] != "play_all")
        out = await d.command("alice", f'/hr play card:"{choice}"')
        assert not any(is_error_output(o) for o in out), [o.text() for o in out]
    out = await d.command("alice", "/hr play card:all")
    assert not any(is_error_output(o) for o in out), [o.text() for o in out]
    _, state, _ = await _state(d)
    assert state.players[0].hand == []


async def test_undo_never_takes_back_cards_everyone_has_seen(d: InProcessDiscord) -> None:
    await _alice_turn(d)
    await d.command("alice", "/hr play card:all")
    _, before, _ = await _state(d)
    out = await d.command("alice", "/game undo")
    assert _error_text(out) == "⚠️ " + i18n.t(msg("core.error.undo_hidden"), "en")
    _, after, _ = await _state(d)
    assert after.players[0].hand == before.players[0].hand == []


async def test_hostile_arguments_get_clear_refusals_and_change_nothing(d: InProcessDiscord) -> None:
    await _alice_turn(d)
    await d.command("alice", "/hr play card:all")  # gold to buy with
    *_, row = await _state(d)
    out = await d.command("alice", '/game act action:"end_turn extra=!true"')
    assert is_error_output(out[0]) or _error_text(out)
    out = await d.command("alice", "/hr discard player:²")
    text = _error_text(out)
    assert "There is no player" in text and "²" in text and "alice" in text
    out = await d.command("alice", "/hr discard player:7")
    assert "There is no player" in _error_text(out)
    out = await d.command("alice", '/hr buy card:"buy card=c999"')
    text = _error_text(out)
    assert "no longer available" in text and "c999" not in text and "=" not in text
    *_, after = await _state(d)
    assert after.version == row.version, "nothing was applied or stored"
    ends = [a for a in await d.bot.table.store.actions(row.id) if a.action and a.action["kind"] == "end_turn"
            and a.action["args"]]
    assert ends == []


async def test_in_hydra_the_ai_teammate_waits_for_the_human(d: InProcessDiscord) -> None:
    out = await d.command("alice", "/game new game:hero-realms options:variant=hydra ai:3")
    out += await d.command("alice", "/game start")
    assert not any(is_error_output(o) for o in out), [o.text() for o in out]
    game, state, _ = await _state(d)
    assert state.active == [0, 1] and game.to_act(state) == frozenset({0})
    assert state.players[1].waiting and not state.players[1].done
    channel = " ".join(o.text() for o in out if o.kind == "channel")
    assert "Ada (bot) waits for their teammates." in channel
    turn = state.turn_no
    out = await d.command("alice", "/hr end")
    assert not any(is_error_output(o) for o in out), [o.text() for o in out]
    game, state, _ = await _state(d)
    assert state.turn_no >= turn + 2 and 0 in game.to_act(state), "Ada finished, the other team played"


def _attack_case() -> tuple[HeroRealms, State, str]:
    from rules.hero_realms import GAME
    from tests.hero_realms.hr_helpers import clean, put

    s = clean()
    s.players[0].combat = 5
    guard = put(s, 1, "orc_grunt", "champions")
    return GAME, s, guard


def test_attacking_a_guarded_player_is_refused_never_spent_on_the_guard() -> None:
    from cogs.hero_realms import _attack_choice
    from rules.base import IllegalAction

    game, s, guard = _attack_case()
    names = {0: "alice", 1: "Ada (bot)"}
    legal = game.legal_actions(s, 0)
    view = game.view(s, 0)
    with pytest.raises(IllegalAction) as err:
        _attack_choice(legal, view, "Ada", "en", names)
    text = i18n.t(err.value.reason, "en", names.get)
    assert "Ada (bot) cannot be attacked now" in text and "Orc Grunt" in text
    assert _attack_choice(legal, view, "orc grunt", "en", names) == Action.of("attack", target=guard, amount=3)
    assert _attack_choice(legal, view, "Infante", "es", names)["target"] == guard


def test_a_champion_name_shared_by_two_targets_is_ambiguous() -> None:
    from cogs.hero_realms import _attack_choice
    from rules.base import IllegalAction
    from tests.hero_realms.hr_helpers import put

    game, s, _guard = _attack_case()
    s.players[1].champions.clear()
    put(s, 1, "orc_grunt", "champions")
    put(s, 1, "orc_grunt", "champions")
    s.players[1].expended.update(s.players[1].champions)  # expended guards protect nobody
    names = {0: "alice", 1: "Ada"}
    with pytest.raises(IllegalAction) as err:
        _attack_choice(game.legal_actions(s, 0), game.view(s, 0), "Orc Grunt", "en", names)
    assert err.value.reason.key == "bot.menu.ambiguous"  # one wording for every game: it asks to type more


def test_a_waiting_teammate_is_told_why_it_is_not_their_turn() -> None:
    from cogs.hero_realms import UI
    from rules.hero_realms import GAME
    from tests.hero_realms.hr_helpers import act, clean

    s = act(clean("hydra", 4), 1, "wait").state
    text = UI.private_text(GAME.view(s, 1), "en", {0: "alice", 1: "Ada"})
    assert "You are waiting for your teammates" in text


@pytest.mark.parametrize(("line", "raw", "words"), [
    ("/hr attack target:bob amount:2", {"amount": "lots"}, ("amount", "1", "999")),
    ("/hr attack target:bob amount:2", {"amount": 100000}, ("amount", "1", "999")),
    ("/hr attack target:bob amount:2", {"amount": 2.5}, ("amount", "1", "999")),
    ("/hr buy card:gold", {"card": 7}, ("card", "text")),
    ("/hr discard player:bob", {"player": ["bob"]}, ("player", "text")),
    ("/hr play card:gold", {"card": "play card=c404"}, ("no longer available",)),
])
async def test_crafted_option_values_are_refused_by_name(d: InProcessDiscord, line: str, raw: dict,
                                                          words: tuple[str, ...]) -> None:
    await _alice_turn(d)
    *_, row = await _state(d)
    out = await crafted(d, "alice", line, **raw)
    text = _error_text(out)
    assert all(w in text for w in words), text
    assert "internal" not in text.casefold() and "Traceback" not in text
    *_, after = await _state(d)
    assert after.version == row.version, "nothing was applied"


async def test_crafted_values_are_refused_in_spanish_too(d: InProcessDiscord) -> None:
    await _alice_turn(d)
    d.user("alice", locale="es-ES")
    text = _error_text(await crafted(d, "alice", "/hr attack target:bob amount:2", amount="muchos"))
    assert "número entero" in text and "999" in text

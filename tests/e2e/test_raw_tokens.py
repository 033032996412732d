"""No internal word reaches a player: seeded random playouts of every game through the stand-in, in both languages.

An English and a Spanish player play a short stretch of each game the way people do (the public buttons, the
private panel's buttons and menus, `/game act` and its suggestions, the game's own commands and theirs), at a
table that speaks English and at one that speaks Spanish; everything the bot shows them (messages, ephemerals,
DMs, embeds, buttons, menu options and their descriptions, suggestions) is scanned by `tests.talk_scan`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import i18n
from bot import make_bot
from cogs import ui as cog_ui
from cogs.games import GAME_MODULES
from rules import registry
from rules.base import SYSTEM, Action, Game, RuleError
from rules.rng import Rng
from rules.text import Msg
from standin.driver import ATTACHMENT, BOOLEAN, INTEGER, NUMBER, SUB_COMMAND, SUB_COMMAND_GROUP, DriverError
from standin.inprocess import InProcessDiscord
from standin.world import Message, Output, default_world, iter_components
from table.service import _illegal_reason, _options_line
from tests.standin_reads import home_channel, home_guild
from tests.talk_scan import Finding, Said, internal_words, said_in, said_in_choices, scan

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: (game, its command group, the seed); each is played at an English and at a Spanish table.
GAMES = [("hero-realms", "hr", 3), ("heroquest", "hq", 5), ("gorgasali", "br", 7), ("kings-armory", "ka", 11),
         ("guerra-de-indagar", "gi", 13)]
#: Interactions (commands, clicks, picks, suggestions asked for) in one stretch of play.
STEPS = 60
PLAYERS = {"ann": "en-US", "berta": "es-ES"}
#: Moves that would end the stretch at once (a game master closing the quest), never picked.
ENDINGS = ("gm_end_quest", "/hq gm finish")
_PNG = b"\x89PNG\r\n\x1a\n"  # images are not text: drawing them would only slow the walk down


@dataclass
class Walk:
    """One stretch of play: the stand-in, the random source and everything the bot said so far."""

    d: InProcessDiscord
    rng: random.Random
    group: str
    said: list[Said] = field(default_factory=list)
    steps: int = 0

    def heard(self, outputs: list[Output]) -> list[Output]:
        self.steps += 1
        self.said += said_in(outputs, self.d.world)
        return outputs

    async def command(self, who: str, line: str) -> list[Output]:
        return self.heard(await self.d.command(who, line))

    async def suggest(self, who: str, line: str, option: str, value: str = "") -> list[dict[str, Any]]:
        choices = await self.d.autocomplete(who, line, option, value)
        self.steps += 1
        self.said += said_in_choices(choices, self.d.user(who).id)
        return choices


@asynccontextmanager
async def _world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, guild_locale: str
                 ) -> AsyncIterator[InProcessDiscord]:
    monkeypatch.setenv("TABLETOP_SEED", str(seed))
    monkeypatch.setattr(cog_ui.GameUI, "board_image", lambda self, view, lang: _PNG)
    for game_id in GAME_MODULES:
        monkeypatch.setattr(type(cog_ui.ui_for(game_id)), "private_image", lambda self, view, lang: _PNG)
    world, guild, channel = default_world()
    guild.locale = guild_locale
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "x.sqlite3")), world=world, guild=guild,
                                channel=channel, strict=False) as d:
        yield d


async def _on_turn(w: Walk) -> list[str]:
    """The players (by name) one of whose seats may act now; empty when the game is over or stuck."""
    row = await w.d.bot.table.game_for(home_channel(w.d).id)
    if row is None or row.status != "active":
        return []
    loaded = await w.d.bot.table.inspect(row.id)
    if loaded.game.outcome(loaded.state) is not None:
        return []
    seats = loaded.game.to_act(loaded.state) - {SYSTEM}
    users = {loaded.user_of(s) for s in seats}
    return [name for name in PLAYERS if w.d.user(name).id in users]


def _newest(w: Walk, who: str, pick: Any) -> Message | None:
    """The newest message `who` can see that `pick` accepts."""
    user = w.d.user(who)
    for m in sorted(w.d.world.messages.values(), key=lambda m: -m.id):
        if w.d.world.visible_to(m, user.id) and pick(m):
            return m
    return None


def _actions(m: Message) -> list[tuple[str, str | None]]:
    """(custom_id, value) of the buttons and menu options on a message that play or build moves."""
    out: list[tuple[str, str | None]] = []
    for c in iter_components(m.components):
        cid = c.get("custom_id") or ""
        if c.get("disabled") or not cid.startswith(("tgb:", "tgs:")) or cid.startswith(("tgb:skip", "tgb:undo")):
            continue
        if c.get("type") == 2 and not _ends(cid):
            out.append((cid, None))
        elif c.get("type") == 3:
            out.extend((cid, o["value"]) for o in c.get("options", []) if not _ends(o["value"]))
    return out


def _ends(text: str) -> bool:
    return any(word in text for word in ENDINGS)


async def _press(w: Walk, who: str, m: Message, depth: int = 0) -> None:
    """Press one of a message's move buttons or menu options; follow a move built in steps to its end."""
    found = _actions(m)
    if not found:
        return
    cid, value = w.rng.choice(found)
    try:
        out = w.heard(await (w.d.click(who, m, cid) if value is None else w.d.select(who, m, cid, [value])))
    except DriverError:
        return
    mine = [o for o in out if o.kind == "ephemeral" and o.recipient_id == w.d.user(who).id]
    nxt = w.d.world.messages.get(mine[-1].message_id) if mine else None
    if nxt is not None and depth < 8 and any(c.startswith("tgs:b:") for c, _ in _actions(nxt)):
        await _press(w, who, nxt, depth + 1)


async def _public_button(w: Walk, who: str) -> None:
    m = _newest(w, who, lambda m: not m.ephemeral and m.channel_id == home_channel(w.d).id and _actions(m))
    if m is not None:
        await _press(w, who, m)


async def _panel(w: Walk, who: str) -> None:
    """`/game view` (or the game's panel command) and a press on it."""
    out = await w.command(who, "/game view")
    mine = [w.d.world.messages[o.message_id] for o in out if o.kind == "ephemeral" and o.message_id in
            w.d.world.messages]
    if mine:
        await _press(w, who, mine[-1])


async def _game_act(w: Walk, who: str) -> None:
    """`/game act` through its suggestions, word by word for a move built in steps."""
    typed = ""
    for _ in range(10):
        choices = await w.suggest(who, "/game act", "action", typed)
        if not choices:
            return
        choices = [c for c in choices if not _ends(c["value"])]
        if not choices:
            return
        typed = w.rng.choice(choices)["value"]
        if not typed.endswith(" "):
            break
    await w.command(who, f"/game act action:{_quoted(typed.strip())}")


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _subcommands(node: dict[str, Any], prefix: str) -> list[tuple[str, list[dict[str, Any]]]]:
    subs = [o for o in node.get("options") or [] if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if not subs:
        return [(prefix, node.get("options") or [])]
    return [found for s in subs for found in _subcommands(s, f"{prefix} {s['name']}")]


def _playable(w: Walk) -> list[tuple[str, list[dict[str, Any]]]]:
    """The game's own subcommands a player can fill by suggestions and fixed choices alone."""
    group = next(c for c in w.d.world.commands_for(home_guild(w.d).id) if c["name"] == w.group)
    out = []
    for line, options in _subcommands(group, f"/{w.group}"):
        required = [o for o in options if o.get("required")]
        if all(o.get("autocomplete") or o.get("choices") for o in required) and not any(
                o["type"] in (INTEGER, NUMBER, BOOLEAN, ATTACHMENT) for o in required):
            out.append((line, options))
    return [(line, options) for line, options in out if not _ends(line)]


async def _own_command(w: Walk, who: str) -> None:
    """One of the game's own commands, its options filled from what the bot suggests."""
    line, options = w.rng.choice(_playable(w))
    for option in options:
        if option.get("choices"):
            value = str(w.rng.choice(option["choices"])["value"])
        elif option.get("autocomplete"):
            choices = await w.suggest(who, line, option["name"])
            if not choices:
                if option.get("required"):
                    value = "zzz"  # nothing offered: what they type is refused, and the refusal is read too
                else:
                    continue
            else:
                value = str(w.rng.choice(choices)["value"])
                if _ends(value):
                    return
        else:
            continue
        line += f" {option['name']}:{_quoted(value)}"
    with suppress(DriverError):
        await w.command(who, line)


async def _start(w: Walk, game: str, creator: str) -> None:
    other = next(n for n in PLAYERS if n != creator)
    await w.command(creator, f"/game new game:{game}")
    await w.command(other, "/game join")
    await w.command(creator, "/game start")


async def _play(w: Walk, game: str) -> None:
    moves = (_public_button, _panel, _game_act, _own_command)
    while w.steps < STEPS:
        players = await _on_turn(w)
        if not players:
            await w.command(w.rng.choice(list(PLAYERS)), "/game status")
            return
        who = w.rng.choice(players)
        idle = [n for n in PLAYERS if n not in players]
        roll = w.rng.random()
        if idle and roll < 0.08:  # the other player asks for something out of turn, and is refused or shown
            await w.rng.choice((_game_act, _own_command, _panel))(w, idle[0])
        elif roll < 0.12:
            await w.command(who, "/game act action:zzz")  # a typo: the refusal names what is valid
        else:
            await w.rng.choice(moves)(w, who)


def _tally(findings: list[Finding]) -> Counter[tuple[str, str]]:
    return Counter((f.kind, f.word) for f in findings)


@pytest.mark.parametrize("table_locale", ["en-US", "es-ES"])
@pytest.mark.parametrize(("game", "group", "seed"), GAMES, ids=[g for g, _, _ in GAMES])
async def test_no_internal_word_reaches_a_player(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str,
                                                 group: str, seed: int, table_locale: str) -> None:
    async with _world(tmp_path, monkeypatch, seed, table_locale) as d:
        for name, locale in PLAYERS.items():
            d.user(name, locale=locale)
        w = Walk(d, random.Random(seed), group)
        await _start(w, game, "ann" if table_locale == "en-US" else "berta")
        await _play(w, game)
        findings = scan(w.said, internal_words(w.said))
        shown = "\n".join(sorted({str(f) for f in findings})[:40])
        assert not findings, f"{len(findings)} internal words reached players ({_tally(findings)}):\n{shown}"


# ---------------------------------------------------------------- the engines' own words, without Discord

#: Random moves per game and seed in the engine walk; it reads far deeper into each game than the stretch above.
ENGINE_MOVES = 150


def _engine_said(game: Game, state: Any, seat: int) -> list[tuple[str, Msg, str]]:
    """(where, message, what it sends) for every label, description and step a seat is offered now, and the
    refusal of a move nobody has."""
    out: list[tuple[str, Msg, str]] = []
    for la in game.legal_actions(state, seat):
        out.append(("label", la.label, la.action.token()))
        if la.description is not None:
            out.append(("description", la.description, la.action.token()))

    def walk(path: tuple[str, ...], depth: int) -> None:
        found = game.choices(state, seat, path)
        if isinstance(found, Action) or depth == 3:
            return
        for choice in found[:12]:
            out.append(("step", choice.label, " ".join((*path, choice.token))))
            walk((*path, choice.token), depth + 1)

    walk((), 0)
    try:
        game.apply(state, seat, Action.of("zzz"))
    except RuleError as exc:
        out.append(("refusal", exc.reason, ""))
    return out


@pytest.mark.parametrize("game_id", [g for g, _, _ in GAMES])
def test_the_engines_name_every_move_step_and_event_in_words(game_id: str) -> None:
    """Every label, step, event, question and ending of random playouts, in both languages, with seat names."""
    game = registry.get(game_id)
    assert game is not None
    names = {seat: f"Player{seat + 1}" for seat in range(12)}
    findings: list[Finding] = []
    for seed in (1, 2):
        seats = 3 if game_id == "heroquest" else max(2, game.min_seats)
        state = game.new(game.resolve_options({}), seats, seed)
        rng = Rng(seed)
        said: list[tuple[str, Msg, str]] = []
        for _ in range(ENGINE_MOVES):
            outcome = game.outcome(state)
            if outcome is not None:
                said.append(("outcome", outcome.summary, ""))
                break
            said += [("question", d.prompt, "") for d in game.decisions(state)]
            seat = min(game.to_act(state))
            if seat == SYSTEM:
                action = game.system_action(state)
            else:
                said += _engine_said(game, state, seat)
                action = rng.choice(game.legal_actions(state, seat)).action
            step = game.apply(state, seat, action)
            said += [("event", e.msg, "") for e in step.events]
            state = step.state
        findings += scan(Said(where, i18n.t(m, lang, names.get), None, sent)
                         for where, m, sent in said for lang in i18n.LANGS)
    shown = "\n".join(sorted({str(f) for f in findings})[:40])
    assert not findings, f"{len(findings)} internal words in {game_id}'s words ({_tally(findings)}):\n{shown}"


def test_a_refusal_names_the_players_it_mentions() -> None:
    """The engine's own reason (its list of moves, "Attack Ann with 3 combat") reaches the player with names
    written in, though a refusal is rendered without the table's list of names."""
    game = registry.get("hero-realms")
    assert game is not None
    state = game.new(game.resolve_options({}), 2, 1)
    seat = min(game.to_act(state))
    state.players[seat].combat = 3
    reason = _illegal_reason(game, state, seat, Action.of("zzz"), {0: "Ann", 1: "Bea"})
    nobody: dict[int, str] = {}  # rendered without the table's list of names
    for lang in i18n.LANGS:
        text = i18n.t(reason, lang, nobody.get)
        assert ("Ann" if seat == 1 else "Bea") in text and not scan([Said("ephemeral", text)]), text


def test_the_lobby_names_options_and_values_in_the_readers_language() -> None:
    game = registry.get("guerra-de-indagar")
    assert game is not None
    line = _options_line(game, game.resolve_options({"target": "7", "easy": "true"}))
    assert i18n.t(line, "en") == ("Options: Primacy points to win: 7 (your first game) · Easy solo mode (3 monsters): "
                                  "yes · Monster ties: decided by the last player in play order · Monsters start: "
                                  "in round 2")
    assert i18n.t(line, "es").startswith("Opciones: Puntos de supremacía para ganar: 7")

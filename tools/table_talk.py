"""Measure how the bot talks at a table (issues 20 and 21): seeded games of every game through the stand-in.

    python -m tools.table_talk [--games G] [--seed S] [--moves N] [--json] [--only GAME] [--lang es|en]

Each game is played `--games` times in a Spanish server and in an English server (the owner sets
`/game settings language:`; the guild's own locale agrees), by an English player (ann, en-US) and a Spanish
one (berta, es-ES), plus a game master (gm, the language opposite to the server's) for HeroQuest. The tables
are made with `timer:5 reminder:1` and the table's clock is driven by hand, so a reminder and a time-out fire
once in every game. Players act as people do: the public turn buttons, the private panel's menus and buttons
(reached with the "My hand / my options" button) and `/game act` with its autocomplete; the engine's AI (or a
random legal move where a game has none) decides WHICH move, never how it reaches the bot. They also make typed
mistakes (a command out of turn, an unknown card) and ask `/game help`.

Everything the bot shows is then read (tools/talk_checks.py explains the language reader) and reported per game
(counts added over the game's segments, rates at their worst segment), with examples of each:

- turns: human turns. After every interaction the table is inspected (`game.to_act` of `table.inspect`); each
  human seat that was not waited on before and is now starts a turn (a wait).
- ch/turn: new channel messages (not edits, not the lobby's) per human turn.
- img/turn: board images on those new messages per turn; img+edit adds the images edits replaced with different
  bytes (an edit carrying the same picture again does not count).
- dm/turn: DMs to a player per turn of theirs, the worst player.
- untold: waits that began on a person who, since the interaction that began it, had no <@mention> in a channel
  post or edit, no DM and no ephemeral.
- pub-lang / addr-lang: public lines (channel posts and edits, their buttons and the board's alt text) not in the
  table's language; addressed lines (a post's line that mentions one user, DMs, ephemerals with their menus,
  autocomplete choices) not in the reader's.
- raw: internal tokens (key=value, snake_case, catalog keys, ids such as s035 or a0, None, a lone - or …,
  unreplaced {placeholders}); cut: messages of exactly 2,000 characters, words cut short by "…", menu options cut
  at 100; plural: tests/test_plurals.py's reader on every line in its expected language; hiding: menus offering
  fewer moves than are legal with no way to page on, or holding a different number than their "1–25" says.
- remind / t-out: reminders and time-outs that fired; refused: moves the bot refused (it should be none).

`--json` prints one JSON object (per game, and per segment) instead of the table.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import hashlib
import json
import os
import random
import re
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cogs.ui import PAGE
from rules.base import SYSTEM, Action
from rules.rng import Rng
from tools import talk_checks as tc

GAMES = ("hero-realms", "heroquest", "gorgasali", "kings-armory", "guerra-de-indagar")
#: A typed mistake per game: a card or thing that does not exist, through the game's own command.
UNKNOWN = {
    "hero-realms": "/hr play card:Xyzzy",
    "heroquest": "/hq cast spell:Xyzzy",
    "gorgasali": "/br card card:Xyzzy",
    "kings-armory": "/ka play card:Xyzzy",
    "guerra-de-indagar": "/gi trade trade:Xyzzy",
}
PLAYERS = (("ann", "en-US", "en"), ("berta", "es-ES", "es"))
TIMER_MINUTES = 5
REMINDER_MINUTES = 1
MENTION = re.compile(r"<@!?(\d+)>")
#: The figures the CI test holds the bot to (issue 20 and 21's "done when").
BARS = {
    "public_wrong_lang": 0, "addressed_wrong_lang": 0, "raw_tokens": 0, "truncated": 0, "untold_waits": 0,
    "channel_per_turn": 2.0, "images_per_turn": 1.0, "dms_per_player_turn": 1.0,
}


def is_public(kind: str, recipient: int | None) -> bool:
    """A channel post, or an edit of one; an edit of an ephemeral reply or a DM (a private picture added once
    drawn) has a recipient and is as private as the message it edits."""
    return kind == "channel" or (kind == "edit" and recipient is None)


@dataclass
class Shown:
    """One output as it was when shown: who reads it, its lines and its menus."""

    kind: str
    recipient: int | None
    content: str
    labels: list[str]
    options: list[tuple[str, list[dict[str, Any]]]]  # (select custom_id, options)
    buttons: list[str]  # custom ids
    images: list[bytes]
    alts: list[str]
    message_id: int
    step: int
    where: str = ""


@dataclass
class Segment:
    """One game in one server language, and everything measured in it."""

    game: str
    server: str
    seed: int
    shown: list[Shown] = field(default_factory=list)
    turns: dict[int, int] = field(default_factory=lambda: defaultdict(int))  # user id -> waits begun
    untold: list[str] = field(default_factory=list)
    hiding: list[str] = field(default_factory=list)
    autocomplete: list[tuple[int, str]] = field(default_factory=list)  # (user, choice name) shown
    routes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    refused: list[str] = field(default_factory=list)
    reminders: int = 0
    timeouts: int = 0
    finished: bool = False
    seconds: float = 0.0
    langs: dict[int, str] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=12).hexdigest()


class Recorder:
    """Keeps a copy of every output as it is recorded (later edits change the world's messages)."""

    def __init__(self, d: Any, seg: Segment) -> None:
        self.d, self.seg = d, seg
        self.step = 0
        self.where = "lobby"
        d.world.listeners.append(self.on_output)

    def on_output(self, out: Any) -> None:
        msg = self.d.world.messages.get(out.message_id)
        comps = copy.deepcopy(msg.components) if msg is not None else []
        from standin.world import iter_components
        labels, options, buttons = [], [], []
        for c in iter_components(comps):
            if c.get("type") == 2 and c.get("label"):
                labels.append(c["label"])
            if c.get("type") == 2 and c.get("custom_id"):
                buttons.append(c["custom_id"])
            if c.get("type") == 3:
                if c.get("placeholder"):
                    labels.append(c["placeholder"])
                options.append((c.get("custom_id", ""), c.get("options", [])))
                for o in c.get("options", []):
                    labels.append(o.get("label", ""))
                    if o.get("description"):
                        labels.append(o["description"])
        alts = [a.description for a in (msg.attachments if msg else []) if a.description]
        self.seg.shown.append(Shown(out.kind, out.recipient_id, out.body(), labels, options, buttons,
                                    [data for _, data in out.attachments], alts, out.message_id, self.step,
                                    self.where))


class Player:
    """Plays one segment: the people, the table, the moves and the clock."""

    def __init__(self, d: Any, seg: Segment, rec: Recorder, clock: Any, rng: random.Random) -> None:
        self.d, self.seg, self.rec, self.clock, self.rng = d, seg, rec, clock, rng
        self.game_id = 0
        self.waiting: set[int] = set()
        self.mark = 0

    @property
    def table(self) -> Any:
        return self.d.bot.table

    async def loaded(self) -> Any:
        return await self.table.inspect(self.game_id)

    def name_of(self, user_id: int) -> str:
        return self.d.world.users[user_id].name

    # ------------------------------------------------------------ waits and who was told

    async def observe(self) -> Any:
        """Who the game waits on now; every wait that began since the last look must have been told."""
        loaded = await self.loaded()
        state = loaded.state
        now: set[int] = set()
        if state is not None and loaded.row.status == "active" and loaded.game.outcome(state) is None:
            for seat in loaded.game.to_act(state):
                if seat != SYSTEM and loaded.user_of(seat) is not None:
                    now.add(seat)
        fresh = now - self.waiting
        since = self.seg.shown[self.mark:]
        for seat in sorted(fresh):
            user = loaded.user_of(seat)
            self.seg.turns[user] += 1
            told = any(
                (is_public(s.kind, s.recipient) and f"<@{user}>" in s.content)
                or (not is_public(s.kind, s.recipient) and s.recipient == user)
                for s in since
            )
            if not told:
                self.seg.untold.append(f"{self.seg.game}/{self.seg.server}: seat {seat} ({self.name_of(user)}) "
                                       f"waited on at step {self.rec.step} ({self.rec.where}) and never told")
        self.waiting = now
        self.mark = len(self.seg.shown)
        return loaded

    # ------------------------------------------------------------ sending moves

    async def run(self, who: str, line: str) -> list[Any]:
        self.rec.step += 1
        try:
            return await self.d.command(who, line)
        except Exception as exc:  # a line Discord's client would refuse: noted, never sent
            self.seg.problems.append(f"{line!r} by {who}: {exc}")
            return []

    async def complete(self, who: str, value: str) -> list[dict[str, Any]]:
        try:
            found = await self.d.autocomplete(who, "/game act", "action", value)
        except Exception as exc:
            self.seg.problems.append(f"autocomplete {value!r}: {exc}")
            return []
        user = self.d.world.user_named(who).id
        self.seg.autocomplete.extend((user, c.get("name", "")) for c in found)
        return found

    async def by_button(self, who: str, token: str) -> list[Any] | None:
        user = self.d.world.user_named(who)
        wanted = re.compile(rf"^tgb:a:{self.game_id}:\d+:{re.escape(token)}$")
        for msg in sorted(self.d.world.messages.values(), key=lambda m: -m.id):
            if msg.deleted or msg.ephemeral or not self.d.world.visible_to(msg, user.id):
                continue
            for cid, _ in msg.custom_ids():
                if wanted.match(cid):
                    self.rec.step += 1
                    return await self.d.click(who, msg.id, cid)
            if any(cid.startswith("tgb:pv:") for cid, _ in msg.custom_ids()):
                return None  # only the newest turn message's buttons are live
        return None

    async def by_panel(self, who: str, token: str, path: list[str] | None) -> list[Any] | None:
        user = self.d.world.user_named(who)
        live = next((m for m in sorted(self.d.world.messages.values(), key=lambda m: -m.id)
                     if not m.ephemeral and any(c.startswith("tgb:pv:") for c, _ in m.custom_ids())), None)
        if live is None:
            return None
        pv = next(c for c, _ in live.custom_ids() if c.startswith("tgb:pv:"))
        self.rec.step += 1
        out = await self.d.click(who, live.id, pv)
        await self.check_menus(out, who)
        done: list[str] = []
        for _ in range(12):
            panel = next((o for o in reversed(out) if o.kind == "ephemeral" and o.recipient_id == user.id
                          and o.message_id in self.d.world.messages), None)
            if panel is None:
                return None
            msg = self.d.world.messages[panel.message_id]
            from standin.world import iter_components
            comps = list(iter_components(msg.components))
            hit = next((c for c in comps if c.get("type") == 2 and str(c.get("custom_id", "")).startswith("tgb:a:")
                        and c["custom_id"].split(":", 4)[4] == token), None)
            if hit is not None:
                self.rec.step += 1
                return await self.d.click(who, msg.id, hit["custom_id"])
            for c in comps:
                if c.get("type") != 3:
                    continue
                for o in c.get("options", []):
                    if o.get("value") == token:
                        self.rec.step += 1
                        return await self.d.select(who, msg.id, c["custom_id"], [o["value"]])
            if path is None:
                return None
            # a move built in steps: the option that goes one step further along the path
            best = None
            for c in comps:
                if c.get("type") != 3 or not str(c.get("custom_id", "")).startswith("tgs:b:"):
                    continue
                for o in c.get("options", []):
                    parts = o.get("value", "").split("/")
                    if parts == path[:len(parts)] and len(parts) > len(done) and (best is None or len(parts) >
                                                                                   len(best[1])):
                        best = (c, parts, o)
            if best is None:
                return None
            c, parts, o = best
            done = parts
            self.rec.step += 1
            out = await self.d.select(who, msg.id, c["custom_id"], [o["value"]])
            await self.check_menus(out, who, parts)
            if any(is_public(x.kind, x.recipient_id) for x in out):
                return out
        return None

    async def by_act(self, who: str, token: str, path: list[str] | None, label: str) -> list[Any]:
        if path is None:
            typed = ""
            found = await self.complete(who, typed)
            if not any(c.get("value") == token for c in found):
                typed = label[:12] if label else token
                found = await self.complete(who, typed)
            if not any(c.get("value") == token for c in found):
                found = await self.complete(who, token)
            if not any(c.get("value") == token for c in found):
                self.seg.problems.append(f"{self.seg.game}: /game act never offered {token!r}")
            return await self.run(who, f'/game act action:"{token}"')
        current = ""
        for _ in range(len(path) + 2):
            found = await self.complete(who, current)
            whole = next((c for c in found if c.get("value") == token), None)
            if whole is not None:
                return await self.run(who, f'/game act action:"{whole["value"]}"')
            depth = len(current.split())
            nxt = " ".join(path[:depth + 1]) + " "
            if not any(c.get("value") == nxt for c in found):
                break
            current = nxt
        return await self.run(who, f'/game act action:"{" ".join(path)}"')

    async def check_menus(self, out: list[Any], who: str, path: list[str] | None = None) -> None:
        """A menu hides choices when it offers fewer than there are, with no way to page to the rest."""
        from table import Who
        user = self.d.world.user_named(who)
        for o in out:
            if o.kind != "ephemeral" or o.message_id not in self.d.world.messages:
                continue
            from standin.world import iter_components
            comps = list(iter_components(self.d.world.messages[o.message_id].components))
            paging = any(re.search(r"page|more|next", str(c.get("custom_id", ""))) for c in comps) or any(
                str(opt.get("value", "")).split("/")[-1].startswith(PAGE) for c in comps if c.get("type") == 3
                for opt in c.get("options", []))  # a menu's own "more…" entry pages it
            offered = {opt.get("value") for c in comps if c.get("type") == 3
                       and str(c.get("custom_id", "")).startswith("tgs:a:") for opt in c.get("options", [])}
            offered |= {str(c["custom_id"]).split(":", 4)[4] for c in comps if c.get("type") == 2
                        and str(c.get("custom_id", "")).startswith("tgb:a:")}
            # A menu built in steps (a trade: what you give, then what you want) offers every move its first
            # step leads to; the steps after it are checked where they are shown.
            stepped = {str(opt.get("value", "")).split("/")[0] for c in comps if c.get("type") == 3
                       and str(c.get("custom_id", "")).startswith("tgs:b:") for opt in c.get("options", [])}
            for c in comps:  # "Actions 26–50" must hold 25 options
                if c.get("type") != 3:
                    continue
                claimed = re.search(r"(\d+)\s*[–-]\s*(\d+)", str(c.get("placeholder", "")))
                if claimed and int(claimed[2]) - int(claimed[1]) + 1 != len(c.get("options", [])):
                    self.seg.hiding.append(f"{self.seg.game}/{self.seg.server}: the menu {c['placeholder']!r} holds "
                                           f"{len(c.get('options', []))} options")
            who_ = Who(user.id, who, False, None)
            channel = self.d.channel.id
            if any(str(c.get("custom_id", "")).startswith("tgs:a:") for c in comps):
                legal = await self.table.legal(channel, who_)
                tokens = {la.action.token() for la in legal}
                missing = {t for t in tokens - offered if t.split(" ")[0] not in stepped}
                if missing and not paging:
                    self.seg.hiding.append(f"{self.seg.game}/{self.seg.server}: {who}'s panel offers "
                                           f"{len(tokens & offered)} of {len(tokens)} legal moves "
                                           f"(e.g. {sorted(missing)[0]!r} missing)")
            for c in comps:
                cid = str(c.get("custom_id", ""))
                if c.get("type") != 3 or not cid.startswith("tgs:b:"):
                    continue
                values = [str(opt.get("value", "")) for opt in c.get("options", [])]
                prefix = values[0].split("/")[:-1] if values else []
                found = await self.table.choices(channel, who_, prefix)
                if not isinstance(found, list) or paging:
                    continue
                # what the panel offers elsewhere as whole moves (buttons, move menus) counts as offered
                covered = {v.split("/")[-1] for v in values}
                if not prefix:
                    covered |= {Action.from_token(t).kind for t in offered if t}
                unoffered = [ch.token for ch in found if ch.token not in covered]
                if unoffered:
                    self.seg.hiding.append(f"{self.seg.game}/{self.seg.server}: step menu after {prefix} offers "
                                           f"{len(found) - len(unoffered)} of {len(found)} choices "
                                           f"(e.g. {unoffered[0]!r} missing)")

    # ------------------------------------------------------------ deciding moves

    def decide(self, loaded: Any, seat: int) -> tuple[Action, list[str] | None, str]:
        game, state = loaded.game, loaded.state
        rng = Rng(self.rng.randrange(1 << 30))
        if game.step_built:
            target = game.ai_action(state, seat, rng) if game.supports_ai else None
            path = find_path(game, state, seat, target) if target is not None else None
            if target is None or path is None:
                path, target = self.random_path(game, state, seat)
            return target, path, ""
        legal = game.legal_actions(state, seat)
        import i18n
        ending = [la.action for la in legal if la.action.kind in ("end_turn", "end")]
        if game.supports_ai and self.rng.random() < 0.8:
            action = game.ai_action(state, seat, rng)
        elif ending and not game.supports_ai and self.rng.random() < 0.3:
            action = ending[0]  # a person without an AI to copy ends a turn now and then
        else:
            action = self.rng.choice(legal).action
        if all(la.action != action for la in legal):
            # the AI may name a card that the list folds into an identical one (two Fire Gems): a person picks
            # what the menus offer, so one listed move of the same kind stands in for it
            same = [la.action for la in legal if la.action.kind == action.kind]
            action = self.rng.choice(same or [la.action for la in legal])
        label = next((i18n.t(la.label, "en") for la in legal if la.action == action), "")
        return action, None, label

    def random_path(self, game: Any, state: Any, seat: int) -> tuple[list[str], Action]:
        path: list[str] = []
        for _ in range(40):
            found = game.choices(state, seat, path)
            if isinstance(found, Action):
                return path, found
            if not found:
                break
            path.append(self.rng.choice(found).token)
        raise RuntimeError(f"no move could be built for seat {seat}")


def find_path(game: Any, state: Any, seat: int, target: Action, budget: int = 4000) -> list[str] | None:
    """The steps that build `target` in a game whose moves are built in steps (None if not found in budget)."""
    token = target.token()
    words = set(re.split(r"[\s=,:\[\]\"']+", token))
    stack: list[list[str]] = [[]]
    seen = 0
    while stack and seen < budget:
        path = stack.pop()
        seen += 1
        found = game.choices(state, seat, path)
        if isinstance(found, Action):
            if found.token() == token:
                return path
            continue
        ranked = sorted(found, key=lambda c: (c.token in words or c.token == target.kind, c.token == "go"))
        for choice in ranked:
            stack.append([*path, choice.token])
    return None


async def play_segment(game: str, server: str, seed: int, moves: int, tmp: Path) -> Segment:
    """One seeded game of `game` in a server speaking `server`, `moves` human moves long."""
    os.environ["TABLETOP_SEED"] = str(seed)
    os.environ["TABLETOP_PREVIEW_GAMES"] = "1"
    os.environ["TABLETOP_REMINDER_SECONDS"] = "100000"  # the scans run when this tool says, not by the clock
    os.environ["TABLETOP_TIMER_SECONDS"] = "100000"
    from bot import make_bot
    from standin.inprocess import InProcessDiscord
    from standin.world import FakeClock, default_world

    seg = Segment(game, server, seed)
    started = time.perf_counter()
    world, guild, channel = default_world()
    guild.locale = "es-ES" if server == "es" else "en-US"
    world.owner.locale = guild.locale
    db = tmp / f"{game}-{server}-{seed}.sqlite3"
    async with InProcessDiscord(lambda: make_bot(str(db)), world=world, guild=guild, channel=channel,
                                settle_timeout=30.0) as d:
        clock = FakeClock(time.time())
        d.bot.table.clock = clock
        rec = Recorder(d, seg)
        rng = random.Random(seed * 7919 + GAMES.index(game) * 31 + (server == "es"))
        player = Player(d, seg, rec, clock, rng)
        people = [d.user(name, locale=loc) for name, loc, _ in PLAYERS]
        seg.langs = {u.id: lang for u, (_, _, lang) in zip(people, PLAYERS, strict=True)}
        seg.langs[world.owner.id] = server
        seg.names = {"ann", "berta", "owner", "gm", world.bot_user.name}
        await player.run("owner", f"/game settings language:{server}")
        names = [name for name, _, _ in PLAYERS]
        creator = names[0]
        if game == "heroquest":
            gm_lang = "en" if server == "es" else "es"
            gm = d.user("gm", locale="en-US" if gm_lang == "en" else "es-ES")
            seg.langs[gm.id] = gm_lang
            creator = "gm"
        await player.run(creator, f"/game new game:{game} timer:{TIMER_MINUTES} reminder:{REMINDER_MINUTES}")
        for name in names:
            if name != creator:
                await player.run(name, "/game join")
        rec.where = "start"
        await player.run(creator, "/game start")
        row = await d.bot.table.game_for(d.channel.id) if d.channel is not None else None
        if row is None:
            seg.problems.append("the game did not start")
            return seg
        player.game_id = row.id
        seg.names |= set((await d.bot.table.seat_names(row.id)).values())
        lobby = d.bot.get_cog("Lobby")
        await play_moves(player, lobby, moves)
        loaded = await player.loaded()
        seg.finished = loaded.row.status == "finished"
    seg.seconds = time.perf_counter() - started
    return seg


async def play_moves(p: Player, lobby: Any, moves: int) -> None:
    seg, d = p.seg, p.d
    stuck = 0
    for i in range(moves):
        p.rec.where = f"move {i + 1}"
        loaded = await p.observe()
        if loaded.row.status != "active" or loaded.game.outcome(loaded.state) is not None:
            return
        if i == max(1, moves // 3) and seg.reminders == 0:
            p.rec.where = "reminder"
            p.clock.advance(REMINDER_MINUTES * 60 + 1)
            before = len(seg.shown)
            await lobby.reminders()
            await d.settle()
            seg.reminders += sum(1 for s in seg.shown[before:] if s.kind in ("channel", "dm"))
            loaded = await p.observe()
            p.rec.where = f"move {i + 1}"
        if i == max(2, moves // 2) and seg.timeouts == 0:
            p.rec.where = "time-out"
            p.clock.advance(TIMER_MINUTES * 60 + 1)
            before = len(seg.shown)
            await lobby.timers()
            await d.settle()
            seg.timeouts += 1 if len(seg.shown) > before else 0
            loaded = await p.observe()
            p.rec.where = f"move {i + 1}"
            if loaded.row.status != "active" or loaded.game.outcome(loaded.state) is not None:
                return
        humans = sorted(s for s in loaded.game.to_act(loaded.state) if s != SYSTEM and loaded.user_of(s))
        if not humans:
            stuck += 1
            await d.settle()
            if stuck > 3:
                seg.problems.append(f"nobody human to act at move {i + 1}")
                return
            continue
        stuck = 0
        seat = humans[0]
        who = p.name_of(loaded.user_of(seat))
        if i == 1:
            await mistakes(p, loaded, seat, who)
            loaded = await p.loaded()
            p.rec.where = f"move {i + 1}"
        if seg.game == "heroquest" and seat == 0:
            await gm_turn(p, loaded, who)
            continue
        action, path, label = p.decide(loaded, seat)
        token = action.token()
        route = p.rng.choice(("panel", "act", "button"))
        out = await p.by_button(who, token) if route == "button" else None
        if out is None and route != "act":
            route = "panel"
            out = await p.by_panel(who, token, path)
        if out is None:
            route = "act"
            out = await p.by_act(who, token, path, label)
        seg.routes[route] += 1
        await p.check_menus(out, who)
        from standin.world import is_error_output
        refusals = [o.body() for o in out if is_error_output(o)]
        if refusals:
            seg.refused.append(f"{seg.game}/{seg.server} {who} {token!r} by {route}: {refusals[0][:160]}")
    p.rec.where = "end"
    await p.observe()


async def mistakes(p: Player, loaded: Any, seat: int, who: str) -> None:
    """A player types out of turn, someone names a card that does not exist, and both ask for help."""
    others = [p.name_of(s.user_id) for s in loaded.seats if s.kind == "human" and s.seat != seat and s.user_id]
    other = next((n for n in others if n != who), None)
    legal = loaded.game.legal_actions(loaded.state, seat) if not loaded.game.step_built else []
    p.rec.where = "mistakes"
    if other is not None:
        token = legal[0].action.token() if legal else "end"
        await p.run(other, f'/game act action:"{token}"')
    await p.run(who, UNKNOWN[p.seg.game])
    await p.run(who, "/game act action:xyzzy")
    for name in {who, other or who}:
        await p.run(name, "/game help")
    await p.observe()


async def gm_turn(p: Player, loaded: Any, who: str) -> None:
    """The HeroQuest game master lets the monsters play themselves, then ends Zargon's turn."""
    kinds = {la.action.kind for la in loaded.game.legal_actions(loaded.state, 0)}
    if "gm_autoplay" in kinds:
        await p.run(who, "/hq gm autoplay")
        p.seg.routes["gm"] += 1
        loaded = await p.loaded()
    if 0 in loaded.game.to_act(loaded.state) and loaded.game.outcome(loaded.state) is None:
        await p.run(who, "/hq gm end")
        p.seg.routes["gm"] += 1


# ---------------------------------------------------------------- reading what was shown


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def measure(seg: Segment) -> dict[str, Any]:
    """The figures of one segment, with examples."""
    from tests.test_plurals import problems as plural_problems

    public_wrong: list[str] = []
    addressed_wrong: list[str] = []
    raw: list[str] = []
    cut: list[str] = []
    plural: list[str] = []
    ignore = tuple(seg.names)
    channel_new = images_new = images_edited = raw_count = 0
    dms: dict[int, int] = defaultdict(int)
    last_image: dict[int, str] = {}
    tag = f"{seg.game}/{seg.server}"
    for s in seg.shown:
        if s.kind == "channel" and s.where != "lobby":
            channel_new += 1
            images_new += len(s.images)
        if s.images:
            digest = _digest(s.images[0])
            if s.kind == "edit" and s.recipient is None and last_image.get(s.message_id) != digest:
                images_edited += 1  # an edit whose board differs from the one the message showed
            last_image[s.message_id] = digest
        if s.kind == "dm" and s.recipient is not None:
            dms[s.recipient] += 1
        # every line with the language its reader should see
        texts: list[tuple[str, str, str]] = []  # (line, expected language, whose)
        if is_public(s.kind, s.recipient):
            for line in _lines(s.content):
                mentioned = set(MENTION.findall(line))
                if len(mentioned) == 1:
                    uid = int(next(iter(mentioned)))
                    texts.append((line, seg.langs.get(uid, seg.server), f"addressed to {uid}"))
                else:
                    texts.append((line, seg.server, "public"))
            texts += [(label, seg.server, "public button") for label in s.labels]
            texts += [(alt, seg.server, "public alt text") for alt in s.alts]
        else:
            lang = seg.langs.get(s.recipient or 0, seg.server)
            texts += [(line, lang, f"{s.kind} to {s.recipient}") for line in _lines(s.content)]
            texts += [(label, lang, f"{s.kind} menu to {s.recipient}") for label in s.labels]
        for line, lang, whose in texts:
            if tc.wrong_language(line, lang, ignore):
                bucket = public_wrong if whose.startswith("public") else addressed_wrong
                bucket.append(f"{tag} [{whose}, should be {lang}] {line[:200]}")
            tokens = tc.raw_tokens(line)
            raw_count += len(tokens)
            if tokens:
                shown = ", ".join(dict.fromkeys(f"{kind} {token!r}" for kind, token in tokens))
                raw.append(f"{tag} [{whose}] {shown} in: {line[:160]}")
            for problem in plural_problems(line, lang):
                plural.append(f"{tag} [{lang}] {problem!r} in: {line[:160]}")
        why = tc.truncated(s.content)
        if why:
            cut.append(f"{tag} [{s.kind}] {why}")
        for _, opts in s.options:
            for o in opts:
                label = o.get("label", "")
                if len(label) >= 100 and label.endswith("…"):
                    cut.append(f"{tag} [{s.kind} menu] option cut at 100: {label}")
    for uid, name in seg.autocomplete:
        lang = seg.langs.get(uid, seg.server)
        if tc.wrong_language(name, lang, ignore):
            addressed_wrong.append(f"{tag} [autocomplete, should be {lang}] {name}")
        tokens = tc.raw_tokens(name)
        raw_count += len(tokens)
        if tokens:
            shown = ", ".join(dict.fromkeys(f"{kind} {token!r}" for kind, token in tokens))
            raw.append(f"{tag} [autocomplete] {shown} in: {name[:160]}")
    turns = sum(seg.turns.values()) or 1
    per_player = {uid: dms[uid] / max(1, n) for uid, n in seg.turns.items()}
    # the new posts that ping nobody (no wait began with them), and the DMs of the most written-to player
    noisy = [f"{tag} {s.where}: new post pinging nobody, {len(s.images)} image(s): {_first(s.content)!r}"
             for s in seg.shown if s.kind == "channel" and s.where != "lobby" and not MENTION.search(s.content)]
    worst = max(per_player, key=lambda u: per_player[u], default=None)
    dm_lines = [f"{tag} to {seg.langs.get(worst, '?')} player, {seg.turns.get(worst, 0)} turns; {s.where}: "
                f"{_first(s.content)}" for s in seg.shown
                if worst is not None and s.kind == "dm" and s.recipient == worst]
    return {
        "game": seg.game, "server": seg.server, "seed": seg.seed, "seconds": round(seg.seconds, 1),
        "finished": seg.finished, "human_turns": sum(seg.turns.values()),
        "channel_new": channel_new, "channel_per_turn": round(channel_new / turns, 2),
        "images_new": images_new, "images_per_turn": round(images_new / turns, 2),
        "images_with_edits_per_turn": round((images_new + images_edited) / turns, 2),
        "dms_per_player_turn": round(max(per_player.values(), default=0.0), 2),
        "untold_waits": len(seg.untold), "public_wrong_lang": len(public_wrong),
        "addressed_wrong_lang": len(addressed_wrong), "raw_tokens": raw_count, "truncated": len(cut),
        "plural_errors": len(plural), "menus_hiding": len(seg.hiding), "reminders": seg.reminders,
        "timeouts": seg.timeouts, "routes": dict(seg.routes), "refused_moves": len(seg.refused),
        "examples": {
            "untold_waits": seg.untold[:5], "public_wrong_lang": public_wrong[:5],
            "addressed_wrong_lang": addressed_wrong[:5], "raw_tokens": _distinct(raw)[:10], "truncated": cut[:5],
            "plural_errors": _distinct(plural)[:5], "menus_hiding": _distinct(seg.hiding)[:5],
            "refused_moves": seg.refused[:5], "problems": seg.problems[:5],
            "channel_per_turn": noisy[:5], "images_per_turn": noisy[:5], "dms_per_player_turn": dm_lines[:8],
        },
    }


def _first(text: str) -> str:
    """The first line of a post, shortened, with its mentions kept as they are."""
    line = next((x for x in text.splitlines() if x.strip()), "")
    return line[:90]


def _distinct(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def combine(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per game: the segments' counts added up, the rates taken at their worst."""
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_game[r["game"]].append(r)
    out = {}
    for game, rs in by_game.items():
        total = {k: sum(r[k] for r in rs) for k in ("human_turns", "channel_new", "images_new", "untold_waits",
                                                     "public_wrong_lang", "addressed_wrong_lang", "raw_tokens",
                                                     "truncated", "plural_errors", "menus_hiding", "reminders",
                                                     "timeouts", "refused_moves")}
        for k in ("channel_per_turn", "images_per_turn", "images_with_edits_per_turn", "dms_per_player_turn"):
            total[k] = max(r[k] for r in rs)
        total["seconds"] = round(sum(r["seconds"] for r in rs), 1)
        examples: dict[str, list[str]] = defaultdict(list)
        for r in rs:
            for k, v in r["examples"].items():
                examples[k] = _distinct(examples[k] + v)[:10]
        total["examples"] = dict(examples)
        out[game] = total
    return out


def failures(figures: dict[str, Any]) -> list[str]:
    """The bars a game's figures miss."""
    bad = []
    for key, bar in BARS.items():
        if figures[key] > bar:
            bad.append(f"{key} {figures[key]} > {bar}")
    return bad


COLUMNS = (("turns", "human_turns"), ("ch/turn", "channel_per_turn"), ("img/turn", "images_per_turn"),
           ("img+edit", "images_with_edits_per_turn"), ("dm/turn", "dms_per_player_turn"),
           ("untold", "untold_waits"), ("pub-lang", "public_wrong_lang"), ("addr-lang", "addressed_wrong_lang"),
           ("raw", "raw_tokens"), ("cut", "truncated"), ("plural", "plural_errors"), ("hiding", "menus_hiding"),
           ("remind", "reminders"), ("t-out", "timeouts"), ("refused", "refused_moves"), ("s", "seconds"))


def table(per_game: dict[str, Any]) -> str:
    head = f"{'game':<18}" + "".join(f"{title:>10}" for title, _ in COLUMNS)
    rows = [head, "-" * len(head)]
    for game, f in per_game.items():
        rows.append(f"{game:<18}" + "".join(f"{f[key]:>10}" for _, key in COLUMNS))
    rows.append("")
    for game, f in per_game.items():
        for kind, examples in f["examples"].items():
            if examples:
                rows.append(f"{game} — {kind}:")
                rows.extend(f"    {e}" for e in examples)
    return "\n".join(rows)


async def run(games: list[str], langs: list[str], seed: int, count: int, moves: int) -> list[dict[str, Any]]:
    rows = []
    keys = ("TABLETOP_SEED", "TABLETOP_PREVIEW_GAMES", "TABLETOP_REMINDER_SECONDS", "TABLETOP_TIMER_SECONDS")
    saved = {k: os.environ.get(k) for k in keys}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for n in range(count):
                for game in games:
                    for server in langs:
                        seg = await play_segment(game, server, seed + n, moves, Path(tmp))
                        rows.append(measure(seg))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games of each kind per server language")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", type=int, default=30, help="human moves per game")
    parser.add_argument("--only", choices=GAMES, action="append", help="play only this game (repeatable)")
    parser.add_argument("--lang", choices=("es", "en"), action="append", help="only this server language")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    import logging
    import warnings
    warnings.simplefilter("ignore", DeprecationWarning)
    logging.basicConfig(level=logging.CRITICAL)
    rows = asyncio.run(run(args.only or list(GAMES), args.lang or ["es", "en"], args.seed, args.games, args.moves))
    per_game = combine(rows)
    if args.json:
        print(json.dumps({"games": per_game, "segments": rows}, ensure_ascii=False, indent=1))
    else:
        print(table(per_game))
    return 0


if __name__ == "__main__":
    sys.exit(main())

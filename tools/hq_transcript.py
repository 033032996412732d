"""Write a whole HeroQuest game as a bot transcript: a simple policy plays it through the table, each move as typed.

    python -m tools.hq_transcript --seed 1 --spanish --exits --out x.txt \
        --file tests/fixtures/reference/heroquest/heroscribe/quests-eu-base/HQBase-01-TheTrial_EU.xml
    python -m tools.hq_transcript --seed 7 --quest crypt_of_ulfgar --out tests/transcripts/y.txt

The game is played with `Table` (no Discord) from the same seed the bot gets from `TABLETOP_SEED`, so
replaying the file with `TABLETOP_SEED=<seed> python bot.py --local --script <file>` plays the same game.
Heroes walk toward visible monsters and fight them, open doors, explore, search rooms for treasure and
leave by the stairway once nothing is left to explore; the game master lets the monsters play themselves.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import i18n
from rules import coords, registry
from rules.base import Action, LegalAction
from rules.heroquest import board, catalog
from rules.heroquest.board import Square
from rules.heroquest.state import GM, HQState, as_square, door_cells, hero_square, monster_label, parse_sq
from rules.text import Lit
from storage import Store
from table import Table
from tools.common_transcript import CHANNEL, GUILD, people, seeds, spanish_server, ways_out

#: Player name, Discord locale suffix, language. Seat 0 is the game master.
USERS = (("alice", "", "en"), ("bob", "", "en"), ("carol", ":es", "es"))
#: Moves after the rematch, before the ways out.
EXIT_MOVES = 10
MAX_ROUNDS = 60
DECIDE = ("drink", "accept_death", "rock_step", "choose_spells")
SPELL_GROUPS = ["fire", "water", "earth", "air"]


def cmd(lang: str, *keys: str) -> str:
    """A localized command path: cmd("es", "cmd.hq", "cmd.hq.move") -> "/hq mover"."""
    return "/" + " ".join(i18n.catalog(lang)[k] for k in keys)


def opt(lang: str, key: str, value: str) -> str:
    name = i18n.catalog(lang)[f"cmd.hq.opt.{key}"]
    if any(ch.isspace() for ch in value) or '"' in value:
        value = '"' + value.replace('"', '\\"') + '"'
    return f"{name}:{value}"


def lit_text(value: Lit, lang: str) -> str:
    return value.es if lang == "es" else value.en


def square(sq: Any) -> str:
    """A square as typed: its board label, "H11"."""
    return coords.name(int(sq[0]), int(sq[1]))


@dataclass
class Recorder:
    """The lines written so far, and a little memory of the players' habits."""

    lines: list[str] = field(default_factory=list)
    explored_done: bool = False
    extras: set[str] = field(default_factory=set)


# ---------------------------------------------------------------- distances on the revealed map


def distances(s: HQState, targets: Iterable[Square]) -> dict[Square, int]:
    """Steps from each revealed square to the nearest target, through walls only where open (figures ignored)."""
    open_edges = s.open_edges()
    blocked = s.blocked_squares()
    dist: dict[Square, int] = {}
    queue: deque[Square] = deque()
    for t in targets:
        if t not in dist:
            dist[t] = 0
            queue.append(t)
    while queue:
        sq = queue.popleft()
        for n in board.orthogonal(sq):
            if n in dist or n in blocked or n in s.dark or not s.is_revealed(n):
                continue
            if board.passable(sq, n, open_edges):
                dist[n] = dist[sq] + 1
                queue.append(n)
    return dist


def monster_targets(s: HQState) -> list[Square]:
    out = []
    open_edges = s.open_edges()
    for m in s.monsters.values():
        if m["revealed"]:
            msq = as_square(m["sq"])
            out += [n for n in board.orthogonal(msq) if board.passable(msq, n, open_edges)]
    return out


def explore_targets(s: HQState) -> list[Square]:
    """Squares next to a closed door the heroes know, and revealed squares that open onto unseen ones."""
    out = []
    for o in s.objects.values():
        if o["kind"] in ("door", "secret_door") and o.get("found", True) and o["revealed"] and not o.get("open"):
            a, b = (as_square(q) for q in door_cells(o))
            if s.is_revealed(a) != s.is_revealed(b) or not (s.is_revealed(a) and s.is_revealed(b)):
                out += [q for q in (a, b) if s.is_revealed(q)]
    open_edges = s.open_edges()
    for i, ch in enumerate(s.d["rev"]):
        if ch != "1":
            continue
        sq = divmod(i, board.COLS)
        for n in board.orthogonal(sq):
            if not s.is_revealed(n) and n not in s.dark and board.passable(sq, n, open_edges):
                out.append(sq)
                break
    return out


def stairs(s: HQState) -> list[Square]:
    return [as_square(q) for o in s.objects.values() if o["kind"] == "stairs" for q in o["squares"]]


def best_move(moves: list[LegalAction], dist: dict[Square, int], here: Square) -> LegalAction | None:
    """The destination closest to a target, if it gets the hero closer than where it stands."""
    def d(la: LegalAction) -> tuple[int, str]:
        return dist.get(_sq(la), 10_000), _tie(la)
    if not moves:
        return None
    best = min(moves, key=d)
    return best if d(best)[0] < dist.get(here, 10_000) else None


# ---------------------------------------------------------------- the players


def _sq(la: LegalAction) -> Square:
    sq = parse_sq(la.action["to"])
    assert sq is not None
    return sq


def _tie(la: LegalAction) -> str:
    """Ties between equally good squares are broken as the first recordings did (by "row-col" text, 0-based),
    so re-recording after a change of wording plays the same games."""
    r, c = _sq(la)
    return f"{r}-{c}"


def hero_choice(s: HQState, legal: list[LegalAction], rec: Recorder) -> Action:
    by: dict[str, list[LegalAction]] = {}
    for la in legal:
        by.setdefault(la.action.kind, []).append(la)
    if s.d["picks"]:
        return min(legal, key=lambda la: SPELL_GROUPS.index(str(la.action["group"]))).action
    if s.d["pending"]:
        for kind in DECIDE:
            if kind in by and kind != "accept_death":
                return by[kind][0].action
        return legal[0].action
    h = s.current_hero()
    assert h is not None
    if h.get("outside"):  # waiting at the Door In: in as soon as the square inside it is free
        return (by.get("enter") or by["end_turn"])[0].action
    here = hero_square(h)
    t = s.d["turn"]
    casts = by.get("cast", [])
    heals = [(w["body"], la) for la in casts if catalog.spell(str(la.action["spell"]))["effect"] == "heal"
             and (w := s.hero(str(la.action["target"]))) is not None and w["body"] <= w["max_body"] - 3]
    if heals:  # the most hurt hero first (the first listed among equals)
        return min(heals, key=lambda pair: pair[0])[1].action
    harm = [la for la in casts if catalog.spell(str(la.action["spell"]))["effect"] in ("attack", "damage", "sleep")]
    if harm:
        return max(harm, key=lambda la: s.monsters[la.action["target"]]["body"]).action
    attacks = sorted(by.get("attack", []), key=lambda la: (bool(la.action.get("fists")),
                                                         s.monsters[la.action["target"]]["body"]))
    if attacks:
        return attacks[0].action
    if "drink" in by and h["body"] <= h["max_body"] // 2:
        return by["drink"][0].action
    if h["body"] <= 2 and any(m["revealed"] for m in s.monsters.values()) and "move" in by:
        # badly wounded: step as far from the monsters as this turn allows
        near = distances(s, monster_targets(s))
        away = max(by["move"], key=lambda la: (near.get(_sq(la), 0), _tie(la)))
        if near.get(_sq(away), 0) > near.get(here, 0):
            return away.action
        return by["end_turn"][0].action
    if any(m["revealed"] for m in s.monsters.values()):
        step = best_move(by.get("move", []), distances(s, monster_targets(s)), here)
        if step is not None:
            return step.action
    if "open_door" in by:
        return by["open_door"][0].action
    if "search_treasure" in by and board.room_of(here) is not None:
        return by["search_treasure"][0].action
    targets = explore_targets(s)
    if not targets and s.d["round"] > 1:
        rec.explored_done = True
    if rec.explored_done or s.d["round"] > MAX_ROUNDS - 10:
        if "leave" in by:
            return by["leave"][0].action
        targets = stairs(s)
    step = best_move(by.get("move", []), distances(s, targets), here)
    if step is not None:
        return step.action
    if not t["acted"] and "search_secret" in by and not targets:
        return by["search_secret"][0].action
    return by["end_turn"][0].action


def gm_choice(s: HQState, legal: list[LegalAction]) -> Action:
    kinds = {la.action.kind for la in legal}
    if s.d.get("verdict"):
        return Action.of("gm_end_quest", result="win")
    if "gm_autoplay" in kinds:
        return Action.of("gm_autoplay")
    return Action.of("end_turn")


# ---------------------------------------------------------------- lines as typed


def line_for(s: HQState, seat: int, action: Action, legal: list[LegalAction], rec: Recorder,
             public_lang: str) -> str:
    """The line typed for `action`: the seat's commands in its player's language, the turn message's buttons in
    the table's (`public_lang`)."""
    name, suffix, lang = USERS[seat]
    who = f"{name}{suffix}>"
    k = action.kind
    same = [la for la in legal if la.action.kind == k]
    if k in ("move", "enter"):  # a hero waiting at the Door In enters with the same command
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.move')} {opt(lang, 'to', str(action['to']))}"
    if k in ("jump", "jump_in"):
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.jump')} {opt(lang, 'to', str(action['to']))}"
    if k == "open_door":
        extra = "" if len(same) == 1 else " " + opt(lang, "door", str(action["door"]))
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.door')}{extra}"
    if k == "attack":
        # as a person types it: the monster's shown name ("Orc 2", "Orco 2"), "fists" only for bare hands
        m = s.monsters[str(action["target"])]
        value = lit_text(monster_label(m), lang)
        if action.get("fists"):
            value += " " + ("puños" if lang == "es" else "fists")
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.attack')} {opt(lang, 'target', value)}"
    if k in ("search_treasure", "search_traps", "search_secret"):
        if seat != GM and len(rec.lines) % 3 == 0:
            label = i18n.catalog(public_lang)[f"hq.bot.button.{k.split('_')[1]}"]
            return f'{who} click "{label}"'
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.search')} {opt(lang, 'kind', k.split('_')[1])}"
    if k == "end_turn" and seat != GM:
        if len(rec.lines) % 4 == 0:
            return f'{who} click "{i18n.catalog(public_lang)["hq.bot.button.end"]}"'
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.end')}"
    if k == "end_turn":
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.gm', 'cmd.hq.gm.end')}"
    if k == "gm_autoplay":
        if len(rec.lines) % 5 == 0:
            return f'{who} click "{i18n.catalog(public_lang)["hq.bot.button.autoplay"]}"'
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.gm', 'cmd.hq.gm.autoplay')}"
    if k == "gm_end_quest":
        finish = cmd(lang, "cmd.hq", "cmd.hq.gm", "cmd.hq.gm.finish")
        return f"{who} {finish} {opt(lang, 'result', str(action['result']))}"
    if k == "choose_spells":
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.decide')} {opt(lang, 'choice', str(action['group']))}"
    if k in ("drink", "accept_death", "rock_step") and s.d["pending"]:
        value = str(action.get("item") or "") or (str(action["to"]) if k == "rock_step"
                                                  else action.token())
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.decide')} {opt(lang, 'choice', value)}"
    if k == "drink":
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.drink')} {opt(lang, 'item', str(action['item']))}"
    if k == "leave":
        return f"{who} {cmd(lang, 'cmd.hq', 'cmd.hq.leave')}"
    return f'{who} /game act action:"{action.token()}"'


# ---------------------------------------------------------------- the game


async def record(seed: int, header: list[str], new_line: str, setup: dict[str, Any] | None,
                 options: dict[str, str], spanish: bool = False, exits: bool = False
                 ) -> tuple[list[str], dict[str, Any]]:
    """Play one game; returns the transcript lines and how it ended. `spanish`: on a Spanish server (its owner's
    first line); `exits`: then the ways out (a rematch, a resignation refused, an abandoned game)."""
    game = registry.get("heroquest")
    assert game is not None
    folks = people(USERS)
    whos = [p.who for p in folks]
    rec = Recorder(list(header))
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store(str(Path(tmp) / "rec.sqlite3")).open()
        try:
            table = Table(store, seed_source=seeds(seed))
            public_lang = await spanish_server(table, rec.lines) if spanish else "en"
            rec.lines.append(new_line)
            await table.new(guild_id=GUILD, channel_id=CHANNEL, who=whos[0], game_type="heroquest",
                            options=options, extra={"setup": setup} if setup else {})
            for i, who in enumerate(whos[1:], 1):
                rec.lines.append(f"{USERS[i][0]}{USERS[i][1]}> /game join")
                await table.join(CHANNEL, who)
            rec.lines += ["!bob> /hq gm map", "alice> /game start"]
            await table.start(CHANNEL, whos[0])
            rec.lines += ["alice> /hq gm map", "!carol:es> /hq dj mapa", "bob> /hq heroes"]
            started = await table.game_for(CHANNEL)
            if started is None:
                raise SystemExit(f"the quest did not start (seed {seed})")
            game_id = started.id
            counts = {"steps": 0, "game": game_id, "notes": 0}

            async def play(limit: int | None) -> list[str]:
                """Up to `limit` moves (None: to the end) of the channel's game."""
                start_at = len(rec.lines)
                row = await table.game_for(CHANNEL)
                if row is None:
                    raise SystemExit(f"no game in the channel to play (seed {seed})")
                current = row.id
                if current != counts["game"]:  # a rematch: the heroes know nothing of the new dungeon yet
                    counts["game"], rec.explored_done = current, False
                done = 0
                while limit is None or done < limit:
                    loaded = await table.inspect(current)
                    if loaded.state is None or loaded.row.status != "active":
                        break
                    s: HQState = loaded.state
                    if s.d["over"]:
                        break
                    seat = min(game.to_act(s))
                    legal = game.legal_actions(s, seat)
                    if seat == GM:
                        if not counts["notes"] and s.quest_obj.notes:
                            counts["notes"] = 1
                            rec.lines.append("# The game master may read a note of the quest aloud at any time.")
                        action = gm_choice(s, legal)
                    else:
                        if s.d["round"] > MAX_ROUNDS:
                            raise SystemExit(f"no end after {MAX_ROUNDS} rounds (seed {seed})")
                        action = hero_choice(s, legal, rec)
                    rec.lines.append(line_for(s, seat, action, legal, rec, public_lang))
                    await table.act(CHANNEL, whos[seat], action)
                    counts["steps"] += 1
                    done += 1
                typed = rec.lines[start_at:]
                del rec.lines[start_at:]
                return typed

            rec.lines += await play(None)
            s = (await table.inspect(game_id)).state
            if s is None:
                raise SystemExit(f"game {game_id} has no state once over (seed {seed})")
            over = dict(s.d["over"])
            result = {"over": over, "steps": counts["steps"], "round": s.d["round"],
                      "dead": [h["hero"] for h in s.heroes if h["dead"]]}
            rec.lines += ["# The quest is over: no more moves; the heroes' sheets stay in this server.",
                          "!bob> /hq end", "bob> /hq sheet hero:barbarian", "carol:es> /hq ficha heroe:elf",
                          "!bob> /hq shop buy hero:wizard item:broadsword", "alice> /hq quests"]
            if exits:
                rec.lines += await ways_out(table, game_id, folks, public_lang, play, moves=EXIT_MOVES)
            return rec.lines, result
        finally:
            await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--file", help="a quest file to upload (path as written in the transcript)")
    parser.add_argument("--quest", help="a built-in quest id instead of a file")
    parser.add_argument("--spanish", action="store_true", help="on a Spanish server (its owner sets it first)")
    parser.add_argument("--exits", action="store_true", help="then a rematch, a resignation and an abandoned game")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    game = registry.get("heroquest")
    assert game is not None
    setup = None
    options: dict[str, str] = {}
    if args.file:
        setup = game.setup_from_upload(Path(args.file).read_bytes(), Path(args.file).name)
        new_line = f"alice> /game new game:heroquest file:{args.file}"
        what = Path(args.file).name
    else:
        options = {"quest": args.quest}
        new_line = f"alice> /game new game:heroquest options:quest={args.quest}"
        what = args.quest
    server = "a Spanish server" if args.spanish else "an English server"
    flags = " --spanish" * args.spanish + " --exits" * args.exits
    header = [
        f"# HeroQuest on {server}, a whole quest ({what}): alice is the game master, bob and carol (in Spanish)",
        "# share the four heroes." + (" Then the ways out: a rematch, a resignation (refused: no bot plays a hero),"
                                      "\n# an abandoned game." if args.exits else ""),
        "# Written by tools/hq_transcript.py from a game played through the table with a simple",
        f"# policy; its dice are right only for TABLETOP_SEED={args.seed} and the current engine. Re-record with:",
        f"#   python -m tools.hq_transcript --seed {args.seed} "
        + (f"--file {args.file}" if args.file else f"--quest {args.quest}") + f"{flags} --out {args.out}",
        f"# Run: TABLETOP_SEED={args.seed} python bot.py --local --script {args.out}",
    ]
    lines, result = asyncio.run(record(args.seed, header, new_line, setup, options, args.spanish, args.exits))
    lines.insert(len(header), f"# Ends: {result['over']['result']} ({result['over']['reason']}) in round "
                              f"{result['round']} after {result['steps']} moves; fallen: "
                              f"{', '.join(result['dead']) or 'none'}.")
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(result, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Write a whole King's Armory game as a bot transcript: the AI hero policy plays the humans' seats, each move typed.

    python -m tools.ka_transcript --seed 7 --out tests/transcripts/kings_armory_team.txt
    python -m tools.ka_transcript --seed 7 --solo --out tests/transcripts/kings_armory_solo.txt
    python -m tools.ka_transcript --seed 7 --ai 0 --spanish --exits --out tests/transcripts/kings_armory_duel_es.txt

The game is played with `Table` (no Discord) from the seed the bot gets from `TABLETOP_SEED`, so replaying the
file with `TABLETOP_SEED=<seed> python bot.py --local --script <file>` plays the same
game. AI seats (`ai:`) are played by the table; the humans' moves are chosen by `Game.ai_action` and written as a
person sends them: `/ka` commands in the player's language (each checked to name exactly that move, as the cog
matches it), the public turn buttons and the private panel's block buttons now and then.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import i18n
from cogs.kings_armory import MOVE_KINDS, REACT_KINDS, WORDS
from cogs.plumbing import named
from rules import registry
from rules.base import Action, Game, LegalAction, RuleError
from rules.rng import Rng
from rules.text import Lit
from storage import Store
from table import Table
from tools.common_transcript import CHANNEL, GUILD, next_human, people, seating, seeds, spanish_server, ways_out

GAME_ID = "kings-armory"
#: Humans: name, Discord locale suffix, language.
TEAM = (("alice", "", "en"), ("carol", ":es", "es"))
SOLO = (("dave", ":es", "es"),)
#: kind -> (command key, the option naming the move, kinds the command offers)
COMMANDS: dict[str, tuple[str, str | None, tuple[str, ...]]] = {
    "pick": ("cmd.ka.pick", "hero", ("pick",)), "build": ("cmd.ka.build", "at", ("build",)),
    "sell": ("cmd.ka.sell", "tower", ("sell",)), "hire": ("cmd.ka.hire", "champion", ("hire",)),
    "upgrade": ("cmd.ka.upgrade", "ally", ("upgrade",)), "bench": ("cmd.ka.bench", "ally", ("bench",)),
    "activate": ("cmd.ka.activate", "ally", ("activate",)), "ready": ("cmd.ka.ready", None, ("ready",)),
    "end": ("cmd.ka.end", None, ("end",)), "end_turn": ("cmd.ka.endturn", None, ("end_turn",)),
    **{k: ("cmd.ka.move", "to", MOVE_KINDS) for k in MOVE_KINDS},
    "block": ("cmd.ka.block", "choice", ("block",)),
}
#: Two-step commands: kind -> (command key, first option, its action argument and label parameter).
TWO_STEP = {"place": ("cmd.ka.place", "ally", "ally", "ally"), "attack": ("cmd.ka.attack", "using", "opt", "option"),
            "special": ("cmd.ka.special", "using", "opt", "option")}
SECOND = {"place": "at", "attack": "target", "special": "target"}
MAX_MOVES = 5000


def cmd(lang: str, *keys: str) -> str:
    return "/" + " ".join(i18n.catalog(lang)[k] for k in keys)


def value(text: str) -> str:
    return text if text.replace("-", "").isalnum() else '"' + text.replace('"', '\\"') + '"'


def words_for(legal: list[LegalAction], action: Action, lang: str, names: dict[int, str],
              keep: Callable[[LegalAction], bool] | None = None) -> str:
    """What a person types for `action` among these moves: a square or id it names, else its label, checked to
    pick exactly it as the cog does; its token when nothing shorter is unambiguous."""
    found = [la for la in legal if keep is None or keep(la)]
    label = next(la.label for la in found if la.action == action)
    texts = [str(v) for k, v in action.arg_dict.items() if k in ("to", "at", "hero", "type")]
    texts += [i18n.t(v, lang) for k, v in label.params.items() if k in ("ally", "champion") and isinstance(v, Lit)]
    for text in [*texts, i18n.t(label, lang, names.get)]:
        try:
            if WORDS.pick(found, text, lang, names) == action:
                return text
        except RuleError:
            continue
    return action.token()


def line_for(game: Game, state: Any, seat: int, action: Action, user: tuple[str, str, str], names: dict[int, str],
             n: int, public_lang: str) -> list[str]:
    name, suffix, lang = user
    who = f"{name}{suffix}>"
    legal = game.legal_actions(state, seat)
    k = action.kind
    label = i18n.t(next(la.label for la in legal if la.action == action), public_lang, names.get)
    if k in REACT_KINDS and state["ask"] is not None:
        if n % 2 == 0:  # the block window's private buttons
            return [f"{who} {cmd(lang, 'cmd.ka', 'cmd.ka.panel')}",
                    f"{who} click {value(i18n.t(next(la.label for la in legal if la.action == action), lang))}"]
        text = words_for([la for la in legal if la.action.kind in REACT_KINDS], action, lang, names)
        return [f"{who} {cmd(lang, 'cmd.ka', 'cmd.ka.react')} {i18n.catalog(lang)['cmd.ka.opt.choice']}:{value(text)}"]
    if k == "defer" or (k in ("ready", "end_turn") and n % 3 == 0):  # the public turn message's buttons
        return [f"{who} click {value(label)}"]
    if k in TWO_STEP:
        key, first, arg, param = TWO_STEP[k]
        part = next(la.label.params.get(param) for la in legal if la.action == action)
        first_text = i18n.t(part, lang) if isinstance(part, Lit) else str(action[arg])
        keep = named(arg, param, first_text)
        mine = [la for la in legal if la.action.kind == k and keep(la)]
        opts = i18n.catalog(lang)
        line = f"{who} {cmd(lang, 'cmd.ka', key)} {opts[f'cmd.ka.opt.{first}']}:{value(first_text)}"
        if len(mine) > 1:
            line += f" {opts['cmd.ka.opt.' + SECOND[k]]}:{value(words_for(mine, action, lang, names))}"
        return [line]
    key, option, kinds = COMMANDS[k]
    if option is None:
        return [f"{who} {cmd(lang, 'cmd.ka', key)}"]
    text = words_for([la for la in legal if la.action.kind in kinds], action, lang, names)
    return [f"{who} {cmd(lang, 'cmd.ka', key)} {i18n.catalog(lang)['cmd.ka.opt.' + option]}:{value(text)}"]


async def record(seed: int, users: tuple[tuple[str, str, str], ...], ai: int, options: dict[str, str],
                 spanish: bool = False, exits: bool = False) -> tuple[list[str], dict[str, Any]]:
    """One game to its end; `spanish`: on a Spanish server (its owner's first line); `exits`: then the ways out
    (a rematch, a resignation, an abandoned game)."""
    game = registry.get(GAME_ID)
    assert game is not None
    folks = people(users)
    whos = [p.who for p in folks]
    head = f"{users[0][0]}{users[0][1]}>"
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store(str(Path(tmp) / "rec.sqlite3")).open()
        try:
            table = Table(store, seed_source=seeds(seed))
            public_lang = await spanish_server(table, lines) if spanish else "en"
            opts = " ".join(f"{k}={v}" for k, v in options.items())
            lines.append(f"{head} /game new game:{GAME_ID}" + (f" ai:{ai}" if ai else "")
                         + (f" options:{value(opts)}" if opts else ""))
            await table.new(guild_id=GUILD, channel_id=CHANNEL, who=whos[0], game_type=GAME_ID, options=options,
                            ai_seats=ai)
            for i, who in enumerate(whos[1:], 1):
                lines.append(f"{users[i][0]}{users[i][1]}> /game join")
                await table.join(CHANNEL, who)
            last = users[-1]
            lines.append(f"!{last[0]}{last[1]}> {cmd(last[2], 'cmd.ka', 'cmd.ka.ready')}")  # not started yet
            lines.append(f"{head} /game start")
            await table.start(CHANNEL, whos[0])
            started = await table.game_for(CHANNEL)
            if started is None:
                raise SystemExit(f"the game did not start (seed {seed})")
            game_id = started.id
            counts = {"moves": 0, "refused": 0}

            async def play(limit: int | None) -> list[str]:
                """Up to `limit` human moves (None: to the end) of the channel's game."""
                out: list[str] = []
                at = await seating(table, CHANNEL, whos)
                names, user_of = at.names, at.person_of
                done = 0
                while limit is None or done < limit:
                    found = await next_human(table, at, counts["moves"], MAX_MOVES, seed)
                    if found is None:
                        break
                    loaded, state, seat = found
                    user = users[user_of[seat]]
                    if not counts["refused"] and state["phase"] == "allies" and state["active"] is None:
                        # once: a move of a kind the player has none of now, refused in their language
                        out.append(f"!{user[0]}{user[1]}> {cmd(user[2], 'cmd.ka', 'cmd.ka.ready')}")
                        counts["refused"] = 1
                    action = game.ai_action(state, seat, Rng(seed * 100_003 + loaded.row.version))
                    if action.kind == "defer":  # a person steps back with the button; the AI's proposal is its own
                        action = Action.of("defer")
                    out += line_for(game, state, seat, action, user, names, counts["moves"], public_lang)
                    await table.act(CHANNEL, whos[user_of[seat]], action)
                    counts["moves"] += 1
                    done += 1
                return out

            lines += await play(None)
            loaded = await table.inspect(game_id)
            state = loaded.state
            if state is None:
                raise SystemExit(f"game {game_id} has no state once over (seed {seed})")
            lines += ["# The game is over: the final map stays in the channel.", f"{head} /game status"]
            result = {"moves": counts["moves"], "wave": state["wave"], "result": state["result"],
                      "version": loaded.row.version}
            if exits:
                lines += await ways_out(table, game_id, folks, public_lang, play)
            return lines, result
        finally:
            await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--solo", action="store_true", help="one player, delayed arrival, on the short road")
    parser.add_argument("--ai", type=int, default=1, help="AI heroes beside alice and carol (not with --solo)")
    parser.add_argument("--spanish", action="store_true", help="on a Spanish server (its owner sets it first)")
    parser.add_argument("--exits", action="store_true", help="then a rematch, a resignation and an abandoned game")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    users: tuple[tuple[str, str, str], ...]
    if args.solo:
        users, ai, options = SOLO, 0, {"arrival": "delayed", "map": "short-road"}
        who = "dave (in Spanish) alone, monsters arriving in two halves (delayed arrival), on the short road"
    else:
        users, ai, options = TEAM, args.ai, {}
        bots = {0: "", 1: " with one AI hero"}.get(ai, f" with {ai} AI heroes")
        who = f"alice and carol (in Spanish){bots}, on the long road"
    lines, result = asyncio.run(record(args.seed, users, ai, options, args.spanish, args.exits))
    flags = (" --solo" if args.solo else f" --ai {ai}") + " --spanish" * args.spanish + " --exits" * args.exits
    server = "a Spanish server" if args.spanish else "an English server"
    header = [f"# The King's Armory on {server}, a whole 5-wave game to its end: {who}."]
    if args.exits:
        header.append("# Then the ways out: a rematch, a resignation (asked first: a bot takes the seat), an abandoned "
                      "game.")
    header += [
        "# Written by tools/ka_transcript.py: the AI hero policy chose the humans' moves, typed as /ka commands",
        f"# and buttons; its dice are right only for TABLETOP_SEED={args.seed} and the current engine and AI.",
        f"# Re-record: python -m tools.ka_transcript --seed {args.seed}{flags} --out {args.out}",
        f"# Run: TABLETOP_SEED={args.seed} python bot.py --local --script {args.out}",
        f"# Ends in wave {result['wave']} ({result['result']}) after {result['moves']} human moves "
        f"({result['version']} in all).",
    ]
    Path(args.out).write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    print(result, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
from collections.abc import Callable
from typing import Any

import i18n
from cogs.kings_armory import MOVE_KINDS, REACT_KINDS, WORDS
from cogs.plumbing import named
from rules import registry
from rules.base import Action, Game, LegalAction
from rules.rng import Rng
from rules.text import Lit
from table.results import Inspection
from tools.common_transcript import (
    EXITS_LINE,
    Header,
    command,
    final_state,
    first_naming,
    human_player,
    open_game,
    people,
    quoted,
    recording,
    ways_out,
    write_transcript,
)

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


def words_for(legal: list[LegalAction], action: Action, lang: str, names: dict[int, str],
              keep: Callable[[LegalAction], bool] | None = None) -> str:
    """What a person types for `action` among these moves: a square or id it names, else its label, checked to
    pick exactly it as the cog does; its token when nothing shorter is unambiguous."""
    found = [la for la in legal if keep is None or keep(la)]
    label = next(la.label for la in found if la.action == action)
    texts = [str(v) for k, v in action.arg_dict.items() if k in ("to", "at", "hero", "type")]
    texts += [i18n.t(v, lang) for k, v in label.params.items() if k in ("ally", "champion") and isinstance(v, Lit)]
    return first_naming(WORDS, found, action, [*texts, i18n.t(label, lang, names.get)], lang, names)


def line_for(game: Game, state: Any, seat: int, action: Action, user: tuple[str, str, str], names: dict[int, str],
             n: int, public_lang: str) -> list[str]:
    name, suffix, lang = user
    who = f"{name}{suffix}>"
    legal = game.legal_actions(state, seat)
    k = action.kind
    label = i18n.t(next(la.label for la in legal if la.action == action), public_lang, names.get)
    if k in REACT_KINDS and state["ask"] is not None:
        if n % 2 == 0:  # the block window's private buttons
            return [f"{who} {command(lang, 'cmd.ka', 'cmd.ka.panel')}",
                    f"{who} click {quoted(i18n.t(next(la.label for la in legal if la.action == action), lang))}"]
        text = words_for([la for la in legal if la.action.kind in REACT_KINDS], action, lang, names)
        choice = i18n.catalog(lang)['cmd.ka.opt.choice']
        return [f"{who} {command(lang, 'cmd.ka', 'cmd.ka.react')} {choice}:{quoted(text)}"]
    if k == "defer" or (k in ("ready", "end_turn") and n % 3 == 0):  # the public turn message's buttons
        return [f"{who} click {quoted(label)}"]
    if k in TWO_STEP:
        key, first, arg, param = TWO_STEP[k]
        part = next(la.label.params.get(param) for la in legal if la.action == action)
        first_text = i18n.t(part, lang) if isinstance(part, Lit) else str(action[arg])
        keep = named(arg, param, first_text)
        mine = [la for la in legal if la.action.kind == k and keep(la)]
        opts = i18n.catalog(lang)
        line = f"{who} {command(lang, 'cmd.ka', key)} {opts[f'cmd.ka.opt.{first}']}:{quoted(first_text)}"
        if len(mine) > 1:
            line += f" {opts['cmd.ka.opt.' + SECOND[k]]}:{quoted(words_for(mine, action, lang, names))}"
        return [line]
    key, option, kinds = COMMANDS[k]
    if option is None:
        return [f"{who} {command(lang, 'cmd.ka', key)}"]
    text = words_for([la for la in legal if la.action.kind in kinds], action, lang, names)
    return [f"{who} {command(lang, 'cmd.ka', key)} {i18n.catalog(lang)['cmd.ka.opt.' + option]}:{quoted(text)}"]


async def record(seed: int, users: tuple[tuple[str, str, str], ...], ai: int, options: dict[str, str],
                 spanish: bool = False, exits: bool = False) -> tuple[list[str], dict[str, Any]]:
    """One game to its end; `spanish`: on a Spanish server (its owner's first line); `exits`: then the ways out
    (a rematch, a resignation, an abandoned game)."""
    game = registry.get(GAME_ID)
    assert game is not None
    folks = people(users)
    head, last = folks[0], folks[-1]
    async with recording(seed, folks, spanish) as rec:
        opts = " ".join(f"{k}={v}" for k, v in options.items())
        new = (f"{head.prompt} /game new game:{GAME_ID}" + (f" ai:{ai}" if ai else "")
               + (f" options:{quoted(opts)}" if opts else ""))
        game_id = await open_game(rec, GAME_ID, new, options, ai,  # a command refused: the game has not started
                                  before_start=(f"!{last.prompt} {command(last.lang, 'cmd.ka', 'cmd.ka.ready')}",))
        refused = False

        def choose(loaded: Inspection, state: Any, seat: int, person: int, names: dict[int, str]
                   ) -> tuple[list[str], Action]:
            nonlocal refused
            user = users[person]
            out: list[str] = []
            if not refused and state["phase"] == "allies" and state["active"] is None:
                # once: a move of a kind the player has none of now, refused in their language
                out.append(f"!{folks[person].prompt} {command(user[2], 'cmd.ka', 'cmd.ka.ready')}")
                refused = True
            action = game.ai_action(state, seat, Rng(seed * 100_003 + loaded.row.version))
            if action.kind == "defer":  # a person steps back with the button; the AI's proposal is its own
                action = Action.of("defer")
            return out + line_for(game, state, seat, action, user, names, rec.moves, rec.public_lang), action

        play = human_player(rec, choose, MAX_MOVES)
        lines = rec.lines + await play(None)
        loaded, state = await final_state(rec, game_id)
        lines += ["# The game is over: the final map stays in the channel.", f"{head.prompt} /game status"]
        result = {"moves": rec.moves, "wave": state["wave"], "result": state["result"], "version": loaded.row.version}
        if exits:
            lines += await ways_out(rec.table, game_id, folks, rec.public_lang, play)
        return lines, result


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
    header = Header(
        f"# The King's Armory on {server}, a whole 5-wave game to its end: {who}.",
        EXITS_LINE if args.exits else None,
        ("# Written by tools/ka_transcript.py: the AI hero policy chose the humans' moves, typed as /ka commands",
         f"# and buttons; its dice are right only for TABLETOP_SEED={args.seed} and the current engine and AI."),
        f"# Ends in wave {result['wave']} ({result['result']}) after {result['moves']} human moves "
        f"({result['version']} in all).",
    ).lines("ka_transcript", args.seed, flags, args.out)
    return write_transcript(args.out, header, lines, result)


if __name__ == "__main__":
    sys.exit(main())

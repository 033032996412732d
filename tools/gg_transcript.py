"""Write a whole Gorgasali game as a bot transcript: its bot policy plays the humans' seats, each move as typed.

    python -m tools.gg_transcript --seed 7 --out tests/transcripts/gorgasali_ai.txt
    python -m tools.gg_transcript --seed 7 --mode duo --out tests/transcripts/gorgasali_duo.txt
    python -m tools.gg_transcript --seed 7 --ai 0 --spanish --exits --out tests/transcripts/gorgasali_duel_es.txt

The game is played with `Table` (no Discord) from the same seed the bot gets from `TABLETOP_SEED`, so
replaying the file with `TABLETOP_SEED=<seed> python bot.py --local --script <file>`
plays the same game. The bot seats of `ai:` are played by the table itself; the humans' moves are chosen by
`Game.ai_action` and written as a person would send them: `/br` commands with the move's words (checked
to name exactly that move), the panel's compass buttons and the turn buttons now and then, and
`/game act` for the few moves no `/br` command offers.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

import i18n
from cogs.gorgasali import ABILITY_KINDS, CARD_KINDS, DECIDE_KINDS, DUO_KINDS, SHOOT_KINDS, STEP_KINDS, WORDS
from rules import registry
from rules.base import Action, Game, LegalAction
from rules.rng import Rng
from rules.text import msg
from table.results import Inspection
from tools.common_transcript import (
    Header,
    command,
    final_state,
    first_naming,
    human_player,
    open_game,
    people,
    recording,
    ways_out,
    write_transcript,
)

#: Humans: name, Discord locale suffix, language.
FFA_USERS = (("alice", "", "en"), ("carol", ":es", "es"))
DUO_USERS = (("alice", "", "en"), ("bob", "", "en"), ("carol", ":es", "es"), ("dave", ":es", "es"))
COMMANDS: dict[str, tuple[str, str | None, tuple[str, ...]]] = {
    # kind group -> (command key, option, kinds it offers)
    "step": ("cmd.br.step", "direction", STEP_KINDS), "shoot": ("cmd.br.shoot", "shot", SHOOT_KINDS),
    "card": ("cmd.br.card", "card", CARD_KINDS), "defend": ("cmd.br.defend", "card", ("defend",)),
    "throw": ("cmd.br.throw", "card", ("throw",)), "ability": ("cmd.br.ability", "choice", ABILITY_KINDS),
    "decide": ("cmd.br.decide", "choice", DECIDE_KINDS), "duo": ("cmd.br.duo", "choice", DUO_KINDS),
}
SIMPLE = {"roll": "cmd.br.roll", "stop": "cmd.br.stop", "skip": "cmd.br.skip", "reload": "cmd.br.reload",
          "end": "cmd.br.end"}
ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
MAX_MOVES = 4000
#: Human moves after each rematch: past the characters' choice, so that resigning takes a fighter out.
EXIT_MOVES = 8


def quoted(value: str) -> str:
    return '"' + value.replace('"', '\\"') + '"'


def reachable(game: Game, state: Any, seat: int, kinds: tuple[str, ...]) -> list[LegalAction]:
    """The moves of these kinds the `/br` commands find: the step-built moves, as the cog walks them."""
    return game.moves_of_kinds(state, seat, kinds)


def typed(game: Game, state: Any, seat: int, action: Action, kinds: tuple[str, ...], lang: str,
          names: dict[int, str]) -> str | None:
    """What a person types to name `action` among the moves of these kinds: its direction for a step, its words
    otherwise, its token when the words are ambiguous; None when no `/br` command offers it."""
    legal = reachable(game, state, seat, kinds)
    if not any(la.action == action for la in legal):
        return None
    d = action.get("dir")
    candidates = [str(d)] if isinstance(d, str) else []
    label = next(la.label for la in legal if la.action == action)
    candidates.append(i18n.t(label, lang, lambda seat: names.get(seat, '?')))
    return first_naming(WORDS, legal, action, candidates, lang, names)


def line_for(game: Game, state: Any, seat: int, action: Action, user: tuple[str, str, str], names: dict[int, str],
             n: int, public_lang: str) -> list[str]:
    name, suffix, lang = user
    who = f"{name}{suffix}>"
    k = action.kind
    if k in SIMPLE:
        if k in ("roll", "end") and n % 4 == 0:
            return [f"{who} click {quoted(i18n.t(msg('gg.button.' + k), public_lang))}"]
        return [f"{who} {command(lang, 'cmd.br', SIMPLE[k])}"]
    if k == "step" and n % 5 == 0:
        view = game.view(state, seat)
        spot = next((s for s in view.get("steps") or [] if s["dir"] == action["dir"]), None)
        if spot is not None:
            return [f"{who} {command(lang, 'cmd.br', 'cmd.br.panel')}",
                    f"{who} click " + quoted(f"{ARROWS[spot['dir']]} {spot['to']} ({spot['cost']})")]
    for key, option, kinds in COMMANDS.values():
        if k not in kinds:
            continue
        text = typed(game, state, seat, action, kinds, lang, names)
        if text is None:
            break
        opt = i18n.catalog(lang)[f"cmd.br.opt.{option}"]
        value = text if text.replace("-", "").isalnum() else quoted(text)
        return [f"{who} {command(lang, 'cmd.br', key)} {opt}:{value}"]
    return [f"{who} /game act action:{quoted(action.token())}"]


async def record(seed: int, mode: str, ai: int, spanish: bool = False, exits: bool = False
                 ) -> tuple[list[str], dict[str, Any]]:
    """One game to its end; `spanish`: on a Spanish server (its owner's first line); `exits`: then the ways out
    (a rematch, a resignation, an abandoned game)."""
    game = registry.get("gorgasali")
    assert game is not None
    users = DUO_USERS if mode == "duo" else FFA_USERS
    folks = people(users)
    last = folks[-1]
    async with recording(seed, folks, spanish) as rec:
        options = {"mode": mode} if mode != "ffa" else {}
        new = f"alice> /game new game:gorgasali ai:{ai}" if ai else "alice> /game new game:gorgasali"
        game_id = await open_game(rec, "gorgasali", new + (f" options:mode={mode}" if options else ""), options, ai,
                                  before_start=(f"!{last.prompt} {command(last.lang, 'cmd.br', 'cmd.br.roll')}",))
        trades = 0

        def choose(loaded: Inspection, state: Any, seat: int, person: int, names: dict[int, str]
                   ) -> tuple[list[str], Action]:
            nonlocal trades
            action = game.ai_action(state, seat, Rng(seed * 100_003 + loaded.row.version))
            # The bots never trade: in duo, the first chance to hand over an extra chest or a card is taken,
            # so the transcript shows an exchange proposed and answered.
            if mode == "duo" and trades < 2 and not state["pending"]:
                gifts = reachable(game, state, seat, ("give_chest", "give")) if trades == 0 else []
                answer = [Action.of(k) for k in ("propose", "accept") if game.is_legal(state, seat, Action.of(k))]
                if answer and (answer[0].kind == "accept" or trades == 0):
                    action, trades = answer[0], trades + 1
                elif gifts:
                    action = gifts[0].action
            return line_for(game, state, seat, action, users[person], names, rec.moves, rec.public_lang), action

        play = human_player(rec, choose, MAX_MOVES)
        lines = rec.lines + await play(None)
        loaded, state = await final_state(rec, game_id)
        outcome = game.outcome(state)
        assert outcome is not None
        names = await rec.table.seat_names(game_id)
        lines += ["# The game is over: the final island stays in the channel.", "alice> /game status"]
        result = {"moves": rec.moves, "round": state["round"],
                  "winners": [names[s] for s in sorted(outcome.winners)], "version": loaded.row.version}
        if exits:
            lines += await ways_out(rec.table, game_id, folks, rec.public_lang, play, moves=EXIT_MOVES)
        return lines, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--mode", choices=("ffa", "duo"), default="ffa")
    parser.add_argument("--ai", type=int, default=None, help="bot seats (default: 2 in ffa, 0 in duo)")
    parser.add_argument("--spanish", action="store_true", help="on a Spanish server (its owner sets it first)")
    parser.add_argument("--exits", action="store_true", help="then a rematch, a resignation and an abandoned game")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    ai = args.ai if args.ai is not None else (2 if args.mode == "ffa" else 0)
    lines, result = asyncio.run(record(args.seed, args.mode, ai, args.spanish, args.exits))
    bots = {0: "", 1: " against a bot"}.get(ai, f" against {ai} bots")
    who = f"alice against carol (in Spanish){bots}" if args.mode == "ffa" else \
        "alice and bob against carol and dave (both in Spanish), teams by join order"
    server = "a Spanish server" if args.spanish else "an English server"
    flags = f" --ai {ai}" + " --spanish" * args.spanish + " --exits" * args.exits
    header = Header(
        f"# Gorgasali Battle Royale ({args.mode}) on {server}, a whole game to the last side standing: {who}.",
        "# Then the ways out: a rematch, a resignation (asked first), a rematch again, an abandoned game."
        if args.exits else None,
        ("# Written by tools/gg_transcript.py: the game's bot policy chose the humans' moves, typed as /br commands,",
         f"# buttons and menus; its dice are right only for TABLETOP_SEED={args.seed} and the current engine "
         "and bots."),
        f"# Ends in round {result['round']} after {result['moves']} human moves ({result['version']} in all); "
        f"won by {', '.join(result['winners']) or 'nobody'}.",
    ).lines("gg_transcript", args.seed, f" --mode {args.mode}{flags}", args.out)
    return write_transcript(args.out, header, lines, result)


if __name__ == "__main__":
    sys.exit(main())

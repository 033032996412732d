"""Write a whole Guerra de Indagar game as a bot transcript: the AI rival plays every human seat, typed as `/gi`.

    python -m tools.gi_transcript --seed 7 --players 1 --out tests/transcripts/indagar_solo.txt
    python -m tools.gi_transcript --seed 7 --players 2 --spanish --exits --out tests/transcripts/indagar_duel.txt

The game runs on `Table` (no Discord) from the seed the bot takes from `TABLETOP_SEED`, so replaying the file
with `TABLETOP_SEED=<seed> python bot.py --local --script <file>` plays the same game.
Each move is written as a person sends it: a `/gi` command naming it by its words in the player's language
(checked to name exactly that move), the turn message's buttons now and then, `/game act` for none.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

import i18n
from cogs.guerra_de_indagar import ACTION, ANSWER, HERO, PATH, SETUP, TRADE, WORDS
from rules import registry
from rules.base import Action, Game
from rules.guerra_de_indagar.data import hero_name
from rules.rng import Rng
from rules.text import msg
from table.results import Inspection
from tools.common_transcript import (
    EXITS_LINE,
    Header,
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

GAME_ID = "guerra-de-indagar"
#: The people: name, Discord locale suffix, language.
PEOPLE = (("alice", "", "en"), ("carol", ":es", "es"))
#: Kinds of move -> (subcommand key, option key).
COMMANDS = ((SETUP, "cmd.gi.setup", "choice"), (HERO, "cmd.gi.hero", "hero"), (PATH, "cmd.gi.path", "step"),
            (TRADE, "cmd.gi.trade", "trade"), (ANSWER, "cmd.gi.answer", "choice"))
MAX_MOVES = 6000


def _cmd(lang: str, key: str) -> str:
    return f"/{i18n.catalog(lang)['cmd.gi']} {i18n.catalog(lang)[key]}"


def _opt(lang: str, option: str) -> str:
    return i18n.catalog(lang)[f"cmd.gi.opt.{option}"]


def words_for(game: Game, state: Any, seat: int, action: Action, kinds: tuple[str, ...], lang: str,
              names: dict[int, str]) -> str:
    """What a person types for `action` among the moves of these kinds: the tile or hero alone when that is
    enough, else the move's words, else its token."""
    legal = [la for la in game.legal_actions(state, seat) if la.action.kind in kinds]
    label = next(la.label for la in legal if la.action == action)
    tries = [str(action["to"])] if action.get("to") is not None else []
    if isinstance(action.get("hero"), str):
        name = hero_name(action["hero"])
        tries.append(name.es if lang == "es" else name.en)
    tries.append(i18n.t(label, lang, lambda s: names.get(s, "?")))
    return first_naming(WORDS, legal, action, tries, lang, names)


def lines_for(game: Game, state: Any, seat: int, action: Action, person: tuple[str, str, str],
              names: dict[int, str], n: int, public_lang: str) -> list[str]:
    """The line(s) `person` types for `action`; the turn message's End button is in `public_lang`, the table's."""
    name, suffix, lang = person
    who = f"{name}{suffix}>"
    kind = action.kind
    if kind == "end":
        return [f"{who} click {quoted(i18n.t(msg('gi.act.end'), public_lang))}"] if n % 3 == 0 \
            else [f"{who} {_cmd(lang, 'cmd.gi.end')}"]
    if kind in ACTION:
        line = f"{who} {_cmd(lang, 'cmd.gi.action')} {_opt(lang, 'action')}:{kind}"
        return [line + (f" {_opt(lang, 'target')}:{action['to']}" if action.get("to") is not None else "")]
    for kinds, key, option in COMMANDS:
        if kind in kinds:
            text = words_for(game, state, seat, action, kinds, lang, names)
            return [f"{who} {_cmd(lang, key)} {_opt(lang, option)}:{quoted(text)}"]
    return [f"{who} /game act action:{quoted(action.token())}"]


async def record(seed: int, players: int, spanish: bool = False, exits: bool = False
                 ) -> tuple[list[str], dict[str, Any]]:
    """One game to its end; `spanish`: on a Spanish server (its owner's first line); `exits`: then the ways out
    (a rematch, a resignation, an abandoned game)."""
    game = registry.get(GAME_ID)
    assert game is not None
    folks = people(PEOPLE[:players])
    last = folks[-1]
    async with recording(seed, folks, spanish) as rec:
        game_id = await open_game(rec, GAME_ID, f"alice> /game new game:{GAME_ID}", {}, 0,
                                  after_start=(f"!{last.prompt} {_cmd(last.lang, 'cmd.gi.end')}",))  # a refusal

        def choose(loaded: Inspection, state: Any, seat: int, index: int, names: dict[int, str]
                   ) -> tuple[list[str], Action]:
            person = PEOPLE[index]
            action = game.ai_action(state, seat, Rng(seed * 100_003 + loaded.row.version))
            typed = [f"{folks[index].prompt} {_cmd(person[2], 'cmd.gi.panel')}"] if rec.moves % 40 == 7 else []
            return typed + lines_for(game, state, seat, action, person, names, rec.moves, rec.public_lang), action

        play = human_player(rec, choose, MAX_MOVES)
        out = rec.lines + await play(None)
        loaded, state = await final_state(rec, game_id)
        outcome = game.outcome(state)
        assert outcome is not None
        names = await rec.table.seat_names(game_id)
        out += ["# The game is over: the final map stays in the channel.", "alice> /game status"]
        result = {"moves": rec.moves, "round": state["round"], "version": loaded.row.version,
                  "end": i18n.t(outcome.summary, "en"),
                  "ends": {lang: i18n.t(outcome.summary, lang) for lang in i18n.LANGS},
                  "winners": [names[s] for s in sorted(outcome.winners)]}
        if exits:
            out += await ways_out(rec.table, game_id, folks, rec.public_lang, play)
        return out, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, choices=(1, 2), default=2)
    parser.add_argument("--spanish", action="store_true", help="on a Spanish server (its owner sets it first)")
    parser.add_argument("--exits", action="store_true", help="then a rematch, a resignation and an abandoned game")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    lines, result = asyncio.run(record(args.seed, args.players, args.spanish, args.exits))
    who = "alice alone (solo mode)" if args.players == 1 else "alice against carol (in Spanish)"
    server = "a Spanish server" if args.spanish else "an English server"
    flags = " --spanish" * args.spanish + " --exits" * args.exits
    header = Header(
        f"# La Guerra de Indagar on {server}, a whole {args.players}-player game to its end: {who}.",
        EXITS_LINE if args.exits else None,
        ("# Written by tools/gi_transcript.py: the AI rival chose the humans' moves, typed as /gi commands "
         "and buttons;",
         f"# its dice are right only for TABLETOP_SEED={args.seed} and the current engine and AI."),
        f"# Ends in round {result['round']} after {result['moves']} moves ({result['version']} in all): "
        f"{result['end']} Won by {', '.join(result['winners']) or 'nobody'}.",
    ).lines("gi_transcript", args.seed, f" --players {args.players}{flags}", args.out)
    return write_transcript(args.out, header, lines, result)


if __name__ == "__main__":
    sys.exit(main())

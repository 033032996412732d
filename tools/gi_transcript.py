"""Write a whole Guerra de Indagar game as a bot transcript: the AI rival plays every human seat, typed as `/gi`.

    python -m tools.gi_transcript --seed 7 --players 2 --out tests/transcripts/indagar_duel.txt
    python -m tools.gi_transcript --seed 7 --players 1 --out tests/transcripts/indagar_solo.txt

The game runs on `Table` (no Discord) from the seed the bot takes from `TABLETOP_SEED`, so replaying the file
with `TABLETOP_SEED=<seed> python bot.py --local --script <file>` plays the same game.
Each move is written as a person sends it: a `/gi` command naming it by its words in the player's language
(checked to name exactly that move), the turn message's buttons now and then, `/game act` for none.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

import i18n
from cogs.guerra_de_indagar import ACTION, ANSWER, HERO, PATH, SETUP, TRADE, WORDS
from rules import registry
from rules.base import SYSTEM, Action, Game, RuleError
from rules.guerra_de_indagar.data import hero_name
from rules.rng import Rng
from rules.text import msg
from storage import Store
from table import Table, Who

GAME_ID = "guerra-de-indagar"
GUILD, CHANNEL = 1, 2
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


def _q(value: str) -> str:
    return value if value.replace("-", "").isalnum() else '"' + value.replace('"', '\\"') + '"'


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
    for text in tries:
        try:
            if WORDS.pick(legal, text, lang, names) == action:
                return text
        except RuleError:
            continue
    return action.token()


def lines_for(game: Game, state: Any, seat: int, action: Action, person: tuple[str, str, str],
              names: dict[int, str], n: int, public_lang: str) -> list[str]:
    """The line(s) `person` types for `action`; the turn message's End button is in `public_lang`, the language of
    whoever made the bot post it."""
    name, suffix, lang = person
    who = f"{name}{suffix}>"
    kind = action.kind
    if kind == "end":
        return [f"{who} click {_q(i18n.t(msg('gi.act.end'), public_lang))}"] if n % 3 == 0 \
            else [f"{who} {_cmd(lang, 'cmd.gi.end')}"]
    if kind in ACTION:
        line = f"{who} {_cmd(lang, 'cmd.gi.action')} {_opt(lang, 'action')}:{kind}"
        return [line + (f" {_opt(lang, 'target')}:{action['to']}" if action.get("to") is not None else "")]
    for kinds, key, option in COMMANDS:
        if kind in kinds:
            text = words_for(game, state, seat, action, kinds, lang, names)
            return [f"{who} {_cmd(lang, key)} {_opt(lang, option)}:{_q(text)}"]
    return [f"{who} /game act action:{_q(action.token())}"]


async def record(seed: int, players: int) -> tuple[list[str], dict[str, Any]]:
    game = registry.get(GAME_ID)
    assert game is not None
    people = PEOPLE[:players]
    whos = [Who(i + 1, name) for i, (name, _, _) in enumerate(people)]
    out = [f"alice> /game new game:{GAME_ID}"]
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store(str(Path(tmp) / "rec.sqlite3")).open()
        try:
            table = Table(store, seed_source=lambda: seed)
            await table.new(guild_id=GUILD, channel_id=CHANNEL, who=whos[0], game_type=GAME_ID, options={},
                            ai_seats=0)
            for (name, suffix, _), who in zip(people[1:], whos[1:], strict=True):
                out.append(f"{name}{suffix}> /game join")
                await table.join(CHANNEL, who)
            out.append("alice> /game start")
            await table.start(CHANNEL, whos[0])
            game_id = (await table.game_for(CHANNEL)).id  # type: ignore[union-attr]
            names = await table.seat_names(game_id)
            moves, public_lang = 0, "en"
            out.append(f"!{people[-1][0]}{people[-1][1]}> {_cmd(people[-1][2], 'cmd.gi.end')}")  # a refusal
            while True:
                loaded = await table.inspect(game_id)
                state: dict[str, Any] = loaded.state  # type: ignore[assignment]  # a started game has a state
                if game.outcome(state) is not None:
                    break
                if moves >= MAX_MOVES:
                    raise SystemExit(f"no end after {MAX_MOVES} moves (seed {seed})")
                seat = min(s for s in game.to_act(state) if s != SYSTEM)
                action = game.ai_action(state, seat, Rng(seed * 100_003 + loaded.row.version))
                if moves % 40 == 7:
                    out.append(f"{people[seat][0]}{people[seat][1]}> {_cmd(people[seat][2], 'cmd.gi.panel')}")
                out += lines_for(game, state, seat, action, people[seat], names, moves, public_lang)
                await table.act(CHANNEL, whos[seat], action)
                public_lang = people[seat][2]
                moves += 1
            outcome = game.outcome(state)
            assert outcome is not None
            out += ["# The game is over: the final map stays in the channel.", "alice> /game status"]
            return out, {"moves": moves, "round": state["round"], "version": loaded.row.version,
                         "end": i18n.t(outcome.summary, "en"), "winners": [names[s] for s in sorted(outcome.winners)]}
        finally:
            await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, choices=(1, 2), default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    lines, result = asyncio.run(record(args.seed, args.players))
    who = "alice alone (solo mode)" if args.players == 1 else "alice against carol (in Spanish)"
    header = [
        f"# La Guerra de Indagar, a whole {args.players}-player game to its end: {who}.",
        "# Written by tools/gi_transcript.py: the AI rival chose the humans' moves, typed as /gi commands and buttons;",
        f"# its dice are right only for TABLETOP_SEED={args.seed} and the current engine and AI.",
        f"# Re-record: python -m tools.gi_transcript --seed {args.seed} --players {args.players} --out {args.out}",
        f"# Run: TABLETOP_SEED={args.seed} python bot.py --local --script {args.out}",
        f"# Ends in round {result['round']} after {result['moves']} moves ({result['version']} in all): "
        f"{result['end']} Won by {', '.join(result['winners']) or 'nobody'}.",
    ]
    Path(args.out).write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    print(result, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

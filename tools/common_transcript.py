"""What every transcript recorder shares: the Spanish server, the people, the seeds and the ways out of a game.

The recorders (tools/gg_transcript.py, ka_, gi_, hq_ and the Hero Realms one in tests/test_transcripts.py) play a
game through `Table` and write each move as a person would type it. Public buttons (the turn message, the end
message's Rematch) are labelled in the table's language; a private panel's or a confirmation's buttons and the
slash commands in the language of the person typing.
"""

from __future__ import annotations

import itertools
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import i18n
from cogs.plumbing import Wording
from rules.base import SYSTEM, Action, LegalAction, RuleError
from rules.text import msg
from storage import Store
from table import Table, TableError, Who
from table.results import Inspection

GUILD, CHANNEL = 1, 2
#: The server owner of local play (`owner>`), who may change the server's settings.
OWNER = Who(999, "owner", can_manage=True)
SPANISH_SERVER = "owner> /game settings language:es"


@dataclass(frozen=True)
class Person:
    name: str
    suffix: str  # the Discord locale as the transcript writes it: "" (English) or ":es"
    lang: str
    who: Who

    @property
    def prompt(self) -> str:
        return f"{self.name}{self.suffix}>"


def people(users: tuple[tuple[str, str, str], ...]) -> list[Person]:
    return [Person(name, suffix, lang, Who(i + 1, name)) for i, (name, suffix, lang) in enumerate(users)]


def seeds(seed: int) -> Callable[[], int]:
    """The seeds games get, as the bot hands them out under TABLETOP_SEED: seed, seed + 1, ... (a rematch is a new
    game with the next one)."""
    counter = itertools.count(seed)
    return lambda: next(counter)


def quoted(value: str) -> str:
    return value if value.replace("-", "").isalnum() else '"' + value.replace('"', '\\"') + '"'


def command(lang: str, *keys: str) -> str:
    """A localized command path: command("es", "cmd.game", "cmd.game.start") -> "/partida empezar"."""
    return "/" + " ".join(i18n.catalog(lang)[k] for k in keys)


def first_naming(words: Wording, legal: Sequence[LegalAction], action: Action, texts: Iterable[str], lang: str,
                 names: Mapping[int, str]) -> str:
    """The first of `texts` that names exactly `action` among `legal`, as the cog reads what a person types; its
    token when none does."""
    for text in texts:
        try:
            if words.pick(legal, text, lang, names) == action:
                return text
        except RuleError:
            continue
    return action.token()


def label(key: str, lang: str) -> str:
    return quoted(i18n.t(msg(key), lang))


async def spanish_server(table: Table, lines: list[str]) -> str:
    """The server owner makes Spanish the tables' language; returns it (the public buttons' language)."""
    lines.append(SPANISH_SERVER)
    await table.configure(GUILD, OWNER, language="es")
    return "es"


#: Plays up to n human moves (None: to the end) of the channel's game, returning the lines typed.
Play = Callable[[int | None], Awaitable[list[str]]]


async def _status(table: Table, game_id: int) -> str:
    row = await table.store.game(game_id)
    assert row is not None
    return row.status


async def ways_out(table: Table, finished: int, folks: list[Person], public_lang: str, play: Play, *,
                   moves: int = 6) -> list[str]:
    """After a finished game: a rematch (the end message's public button), started, a few moves, a resignation
    asked and confirmed (refused where the game allows none); when that ends the game, a rematch again and a few
    moves; then the creator abandons the game, asked and confirmed. Returns the lines typed."""
    from table.exits import Exits

    exits = Exits(table)
    creator, other = folks[0], folks[-1]
    out: list[str] = []

    async def rematch(by: Person, finished: int) -> int:
        out.append(f"# {by.name} asks for a rematch with the end message's button; the same seats, a new deal.")
        out.append(f"{by.prompt} click {label('bot.button.rematch', public_lang)}")
        await exits.rematch(CHANNEL, by.who, finished)
        out.append(f"{by.prompt} {command(by.lang, 'cmd.game', 'cmd.game.start')}")
        await table.start(CHANNEL, by.who)
        row = await table.game_for(CHANNEL)
        assert row is not None
        out.extend(await play(moves))
        return row.id

    game_id = await rematch(other, finished)
    resigner, refused = other, False
    try:
        await exits.resign_question(CHANNEL, resigner.who)
    except TableError:
        out.append(f"# {resigner.name} tries to resign: refused, with why (nobody can take over the seat).")
        out.append(f"!{resigner.prompt} {command(resigner.lang, 'cmd.game', 'cmd.game.resign')}")
        refused = True
    else:
        out.append(f"# {resigner.name} resigns, and is asked first.")
        out.append(f"{resigner.prompt} {command(resigner.lang, 'cmd.game', 'cmd.game.resign')}")
        out.append(f"{resigner.prompt} click {label('bot.button.resign', resigner.lang)}")
        await exits.resign(CHANNEL, resigner.who, game_id=game_id)
    if await _status(table, game_id) == "finished":
        out.append("# That ended the game: the other side wins, and the end message offers a rematch again.")
        await rematch(creator, game_id)
    elif await table.game_for(CHANNEL) is not None:
        out.append("# The game goes on" + ("." if refused else "; a bot plays the seat that resigned."))
        out.extend(await play(moves))
    out.append(f"# {creator.name}, who opened the table, abandons the game, and is asked first.")
    out.append(f"{creator.prompt} {command(creator.lang, 'cmd.game', 'cmd.game.abandon')}")
    out.append(f"{creator.prompt} click {label('bot.button.abandon', creator.lang)}")
    await exits.abandon(CHANNEL, creator.who)
    out.append(f"{creator.prompt} {command(creator.lang, 'cmd.game', 'cmd.game.list')}")
    return out



@dataclass
class Seating:
    """The channel's current game as a recorder plays it: its id, seat names, and whose person each human seat is."""

    game_id: int
    names: dict[int, str]
    person_of: dict[int, int]


async def seating(table: Table, channel: int, whos: list[Who]) -> Seating:
    row = await table.game_for(channel)
    assert row is not None, "no game in the channel"
    seats = await table.store.seats(row.id)
    person_of = {s.seat: next(i for i, w in enumerate(whos) if w.user_id == s.user_id)
                 for s in seats if s.kind == "human"}
    return Seating(row.id, {s.seat: s.name for s in seats}, person_of)


async def next_human(table: Table, at: Seating, moves: int, most: int, seed: int
                     ) -> tuple[Inspection, Any, int] | None:
    """The game, its state and the human seat that moves next; None once the game is over. A game that has not
    ended after `most` human moves stops the recording."""
    loaded = await table.inspect(at.game_id)
    state = loaded.state
    if loaded.game.outcome(state) is not None or loaded.row.status != "active":
        return None
    if moves >= most:
        raise SystemExit(f"no end after {most} human moves (seed {seed})")
    humans = sorted(s for s in loaded.game.to_act(state) if s in at.person_of and s != SYSTEM)
    assert humans, f"nobody human to act: {sorted(loaded.game.to_act(state))}"
    return loaded, state, humans[0]


@dataclass
class Recording:
    """A recorder's table on a throwaway database: the lines typed so far, the public buttons' language, the
    people and how many human moves were played."""

    table: Table
    lines: list[str]
    public_lang: str
    folks: list[Person]
    seed: int
    moves: int = 0

    @property
    def whos(self) -> list[Who]:
        return [p.who for p in self.folks]


@asynccontextmanager
async def recording(seed: int, folks: list[Person], spanish: bool) -> AsyncIterator[Recording]:
    """A table on a fresh database, the server made Spanish first when `spanish`; the database is closed after."""
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store(str(Path(tmp) / "rec.sqlite3")).open()
        try:
            table = Table(store, seed_source=seeds(seed))
            lines: list[str] = []
            public_lang = await spanish_server(table, lines) if spanish else "en"
            yield Recording(table, lines, public_lang, folks, seed)
        finally:
            await store.close()


async def open_game(rec: Recording, game_type: str, new_line: str, options: dict[str, Any], ai: int, *,
                    before_start: tuple[str, ...] = (), after_start: tuple[str, ...] = ()) -> int:
    """The first person opens the table (typing `new_line`), the others join, the first starts; the lines of
    `before_start` and `after_start` (refusals, usually) are written around the start. Returns the game's id."""
    first, *others = rec.folks
    rec.lines.append(new_line)
    await rec.table.new(guild_id=GUILD, channel_id=CHANNEL, who=first.who, game_type=game_type, options=options,
                        ai_seats=ai)
    for person in others:
        rec.lines.append(f"{person.prompt} /game join")
        await rec.table.join(CHANNEL, person.who)
    rec.lines.extend(before_start)
    rec.lines.append(f"{first.prompt} /game start")
    await rec.table.start(CHANNEL, first.who)
    started = await rec.table.game_for(CHANNEL)
    if started is None:
        raise SystemExit(f"the game did not start (seed {rec.seed})")
    rec.lines.extend(after_start)
    return started.id


#: A recorder's choice for the human seat to move: (inspected game, state, seat, the person's index, seat names)
#: -> the lines they type and the move those lines make.
Choose = Callable[[Inspection, Any, int, int, dict[int, str]], tuple[list[str], Action]]


def human_player(rec: Recording, choose: Choose, most: int) -> Play:
    """The `play` of a recording: up to n human moves (None: to the end) of the channel's game, each chosen and
    typed by `choose`, then made at the table."""

    async def play(limit: int | None) -> list[str]:
        out: list[str] = []
        at = await seating(rec.table, CHANNEL, rec.whos)
        done = 0
        while limit is None or done < limit:
            found = await next_human(rec.table, at, rec.moves, most, rec.seed)
            if found is None:
                break
            loaded, state, seat = found
            person = at.person_of[seat]
            typed, action = choose(loaded, state, seat, person, at.names)
            out += typed
            await rec.table.act(CHANNEL, rec.whos[person], action)
            rec.moves += 1
            done += 1
        return out

    return play


async def final_state(rec: Recording, game_id: int) -> tuple[Inspection, Any]:
    """The finished game and its last state."""
    loaded = await rec.table.inspect(game_id)
    if loaded.state is None:
        raise SystemExit(f"game {game_id} has no state once over (seed {rec.seed})")
    return loaded, loaded.state


def write_transcript(out: str, header: list[str], lines: list[str], result: dict[str, Any]) -> int:
    """Writes the header and the lines to `out` and tells the result on stderr; the recorders' exit code."""
    Path(out).write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    print(result, file=sys.stderr)
    return 0


@dataclass(frozen=True)
class Header:
    """What a recorder says atop its transcript: what is played, the ways out if recorded, who chose the humans'
    moves (`written`), how to record and run it again, and how it ended."""

    title: str
    exits: str | None
    written: tuple[str, ...]
    ends: str

    def lines(self, tool: str, seed: int, flags: str, out: str) -> list[str]:
        return [self.title, *([self.exits] if self.exits else []), *self.written, *how_to(tool, seed, flags, out),
                self.ends]


#: The header lines of a recording that goes on to the ways out.
EXITS_LINE = "# Then the ways out: a rematch, a resignation (asked first: a bot takes the seat), an abandoned game."


def how_to(tool: str, seed: int, flags: str, out: str) -> list[str]:
    """The header lines that say how to record the file again and how to play it through the local bot."""
    return [f"# Re-record: python -m tools.{tool} --seed {seed}{flags} --out {out}",
            f"# Run: TABLETOP_SEED={seed} python bot.py --local --script {out}"]

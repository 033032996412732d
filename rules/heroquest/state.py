"""The HeroQuest game state (a JSON-able dict plus the shared, immutable quest) and the helpers over it."""

from __future__ import annotations

import marshal
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar, cast, overload

from rules import coords
from rules.base import Event, IllegalAction, LegalAction
from rules.heroquest import board, catalog, dice
from rules.heroquest.board import Edge, Square
from rules.heroquest.quest import WALKABLE_FURNITURE, Quest, QuestJson
from rules.heroquest.shapes import BoardObject, Cell, Figure, Hero, Monster, StateData
from rules.rng import Rng
from rules.text import Lit, Param, msg

SQUARES = board.ROWS * board.COLS
GM = 0
#: How many log entries a view shows.
LOG_SIZE = 12
#: Hidden monsters' ids start with this; the heroes only ever see the public id a monster gets when they meet it.
HIDDEN_PREFIX = "hidden-"


J = TypeVar("J")
#: Where a figure stands in `Ctx.figure_at`: which kind it is, and the figure.
Placement = tuple[Literal["hero"], Hero] | tuple[Literal["monster"], Monster]


def square_index(sq: Square) -> int:
    """The square's position in the state's `rev` string (row by row)."""
    return sq[0] * board.COLS + sq[1]


def square_at_index(i: int) -> Square:
    return divmod(i, board.COLS)


@overload
def as_square(value: None) -> None: ...
@overload
def as_square(value: Sequence[int]) -> Square: ...
@overload
def as_square(value: Sequence[int] | None) -> Square | None: ...
def as_square(value: Sequence[int] | None) -> Square | None:
    """A square as stored in JSON ([row, col]) as the board's (row, col) tuple; None stays None."""
    return None if value is None else (int(value[0]), int(value[1]))


def hero_square(h: Hero) -> Square:
    """Where a hero on the board stands (only asked of heroes on the board: the one on turn, a target...)."""
    sq = h["sq"]
    assert sq is not None, f"{h['uid']} is not on the board"
    return (int(sq[0]), int(sq[1]))


def is_outside(h: Hero) -> bool:
    """Whether the hero waits at the Door In, off the board (stored games without the field: nobody does)."""
    return bool(h.get("outside")) and h["sq"] is None and not h["dead"]


def figure_square(f: Figure) -> Square:
    """Where a figure on the board stands."""
    return hero_square(f) if "hero" in f else as_square(f["sq"])


def door_cells(o: BoardObject) -> list[Cell]:
    """The two squares a door or a secret door stands between (as stored)."""
    between = o["between"]
    assert between is not None, f"{o['uid']} is not on an edge"
    return between


def sq_token(sq: Sequence[int]) -> str:
    """A square in action arguments and messages: its board label, "H11" (`rules.coords`)."""
    return coords.name(sq[0], sq[1])


def parse_sq(text: object) -> Square | None:
    """A square of the board from its label ("H11", "h-11"...: `coords.parse`), or from the engine's old
    "row-col" token (0-based, "10-7"), which stored games' logs still hold; None for anything else."""
    if not isinstance(text, str):
        return None
    sq = coords.parse(text, board.COLS, board.ROWS)
    if sq is not None:
        return sq
    parts = text.split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    old = (int(parts[0]), int(parts[1]))
    return old if board.in_board(old) else None


def json_copy(value: J) -> J:
    """A deep copy of JSON-like data (dicts, lists, scalars), much faster than copy.deepcopy."""
    # a copy has the shape of its original (the one cast: the checker cannot follow the recursion)
    return cast(J, _json_copy(value))


def _json_copy(value: object) -> object:
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_copy(v) for v in value]
    return value


def deep_copy(value: StateData) -> StateData:
    """`json_copy` at C speed (every `apply` copies the whole state): marshal's format 2 keeps no shared
    references, so a copy never ties two lists together; anything marshal cannot write goes the slow way."""
    try:
        out: StateData = marshal.loads(marshal.dumps(dict(value), 2))
    except ValueError:
        return json_copy(value)
    return out


@dataclass
class HQState:
    """`quest` is the imported quest as JSON and `quest_obj` the same quest as a value, parsed once when the
    state is built or loaded; both are never mutated and copies share them. `d` is everything else."""

    quest: QuestJson
    d: StateData
    quest_obj: Quest = field(compare=False, repr=False)
    seats: int = field(init=False)
    #: Set by `seal`: only a state nobody edits any more remembers a seat's legal actions (the view, the buttons,
    #: the legality check and the private panel all ask for them after each move).
    sealed: bool = field(default=False, init=False, compare=False, repr=False)
    legal_memo: dict[int, list[LegalAction]] = field(default_factory=dict, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.seats = int(self.d["seats"])

    @staticmethod
    def load(quest: QuestJson, d: StateData) -> HQState:
        """A state over quest JSON (a new game, a stored one): the quest value is parsed here, once."""
        return HQState(quest, d, Quest.from_json(quest))

    @property
    def dark(self) -> frozenset[Square]:
        return self.quest_obj.dark

    def clone(self) -> HQState:
        return HQState(self.quest, deep_copy(self.d), self.quest_obj)

    def seal(self) -> None:
        """Nothing will edit this state from now on (the table keeps it to read: `table.memory.StateCache`), so
        its legal actions may be remembered. A copy (`clone`) starts unsealed."""
        self.sealed = True

    # ---- queries

    @property
    def heroes(self) -> list[Hero]:
        return self.d["heroes"]

    @property
    def monsters(self) -> dict[str, Monster]:
        return self.d["monsters"]

    @property
    def objects(self) -> dict[str, BoardObject]:
        return self.d["objects"]

    def hero(self, uid: str) -> Hero | None:
        for h in self.heroes:
            if h["uid"] == uid:
                return h
        return None

    def current_hero(self) -> Hero | None:
        turn = self.d["turn"]
        return self.heroes[turn["i"]] if turn["who"] == "hero" else None

    def on_board_heroes(self) -> list[Hero]:
        return [h for h in self.heroes if h["sq"] is not None and not h["dead"]]

    def outside_heroes(self) -> list[Hero]:
        """The heroes waiting at the Door In to enter (off the board: never seen, targeted or attacked)."""
        return [h for h in self.heroes if is_outside(h)]

    def entry_squares(self) -> list[Square]:
        """Where a hero waiting at the Door In enters: the quest's start squares that are free now (no figure,
        nothing solid, no trap on them)."""
        taken = set(self.figure_at()) | self.blocked_squares()
        return [q for q in self.quest_obj.start if q not in taken and not self.traps_at(q)]

    def live_monsters(self, revealed_only: bool = False) -> list[Monster]:
        return [m for m in self.monsters.values() if not revealed_only or m["revealed"]]

    def is_revealed(self, sq: Square) -> bool:
        return self.d["rev"][square_index(sq)] == "1"

    def revealed_squares(self) -> list[Square]:
        rev = self.d["rev"]
        return [square_at_index(i) for i in range(SQUARES) if rev[i] == "1"]

    def open_edges(self) -> frozenset[Edge]:
        return frozenset(
            frozenset(as_square(s) for s in door_cells(o))
            for o in self.objects.values()
            if o["kind"] in ("door", "secret_door") and o.get("open")
        )

    def figure_at(self) -> dict[Square, Placement]:
        out: dict[Square, Placement] = {}
        for h in self.on_board_heroes():
            out[hero_square(h)] = ("hero", h)
        for m in self.monsters.values():
            out[as_square(m["sq"])] = ("monster", m)
        return out

    def blocked_squares(self) -> set[Square]:
        """Squares nobody may enter: dark squares, blocked squares and fallen rocks, solid furniture."""
        out = set(self.dark)
        for o in self.objects.values():
            if o["kind"] in ("blocked", "rock") or (o["kind"] == "furniture" and o["ref"] not in WALKABLE_FURNITURE):
                out.update(as_square(s) for s in o["squares"])
        return out

    def sight_blockers(self) -> set[Square]:
        """Squares a line of sight cannot pass through: figures, blocked squares and rocks."""
        out = {hero_square(h) for h in self.on_board_heroes()}
        out.update(as_square(m["sq"]) for m in self.monsters.values())
        for o in self.objects.values():
            if o["kind"] in ("blocked", "rock"):
                out.update(as_square(s) for s in o["squares"])
        return out

    def traps_at(self, sq: Square, active_only: bool = True) -> list[BoardObject]:
        out: list[BoardObject] = []
        for o in self.objects.values():
            if (o["kind"] == "trap" and [sq[0], sq[1]] in o["squares"]
                    and (not active_only or not o.get("disarmed"))):
                out.append(o)
        return out


class Ctx:
    """One `apply` in progress: the new state, its generator and the events it produced."""

    def __init__(self, state: HQState) -> None:
        self.state = state
        self.rng = Rng(state.d["rng"])
        self.events: list[Event] = []
        self.undoable = True

    def say(self, key: str, to: Iterable[int] | None = None, **params: Param) -> None:
        m = msg(key, **params)
        audience = None if to is None else frozenset(to)
        self.events.append(Event(m, audience))
        log = self.state.d["log"]
        log.append({"msg": m.to_json(), "to": None if audience is None else sorted(audience)})
        del log[: max(0, len(log) - 2 * LOG_SIZE)]

    def gm(self, key: str, **params: Param) -> None:
        self.say(key, to=[GM], **params)

    def about(self, m: Monster, key: str, **params: Param) -> None:
        """An event about a monster: everybody hears it once the heroes have seen the monster, else only the GM."""
        self.say(key, to=None if m["revealed"] else [GM], **params)

    def roll(self, count: int) -> list[str]:
        self.undoable = False
        return dice.roll(self.rng, count, self.state.d["opts"]["die"])

    def finish(self) -> None:
        self.state.d["rng"] = self.rng.state


def refuse(key: str, **params: Param) -> IllegalAction:
    """The refusal of an action, naming the rule it breaks (`key` and its parameters)."""
    return IllegalAction(msg(key, **params))


def hero_label(h: Hero) -> Lit:
    return catalog.hero_name(h["hero"])


def monster_label(m: Monster) -> Lit:
    """"Goblin 2" once the heroes have seen it (numbered in the order they met them), else just "Goblin"."""
    name = catalog.monster_name(m["ref"])
    n = m.get("n")
    return Lit(f"{name.es} {n}", f"{name.en} {n}") if n else name


def figure_label(f: Figure) -> Lit:
    """A hero's or a monster's name as the heroes know it."""
    return hero_label(f) if "hero" in f else monster_label(f)


def publish_monster(s: HQState, m: Monster) -> None:
    """The heroes see `m` now: it gets its public number and id, which depend only on what they have seen."""
    shown = s.d.setdefault("shown", {})
    n = int(shown.get(m["ref"], 0)) + 1
    while f"{m['ref']}_{n}" in s.monsters:
        n += 1
    shown[m["ref"]] = n
    s.monsters.pop(m["uid"], None)
    m["uid"] = f"{m['ref']}_{n}"
    m["n"] = n
    m["revealed"] = True
    s.monsters[m["uid"]] = m


def name_of(kind: str, ref: str) -> Lit:
    words = ref.replace("_", " ")
    return Lit(words, words) if kind != "monster" else catalog.monster_name(ref)


"""The shape of a Gorgasali game's state: the island, the fighters and their mats, banners, the turn in progress.

These are plain dicts at runtime (the stored JSON and the fast copy are unchanged); the TypedDicts let mypy check
every key read. The keys are the stored ones, short names included (`xc`, `cd`, `t`), so old games still load.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NotRequired, TypedDict

#: The two areas of a mat slot: "a" the active cards, "p" the backpack.
Area = Literal["a", "p"]
AREAS: tuple[Area, Area] = ("a", "p")
#: A draw pile and its discard pile.
Deck = Literal["wdeck", "sdeck"]
Discards = Literal["wdisc", "sdisc"]


class MapData(TypedDict):
    """A map as the state keeps it (shared by every copy of the state, never changed): squares are `row * w + col`."""

    w: int
    h: int
    rows: Sequence[str]  # terrain letters, one string per row
    zones: Sequence[str]  # zone digits 1-4, one string per row
    sectors: Sequence[Sequence[int]]  # per starting sector: [square, the duo teammate's square]


class MatSlot(TypedDict):
    """One category of a fighter's mat: its active cards and its backpack, as card ids."""

    a: list[str]
    p: list[str]


#: A fighter's mat: one MatSlot per category of `data.SLOTS`.
Mat = dict[str, MatSlot]


class CopiedAbility(TypedDict):
    """The ability Octor copied, and its own cooldown."""

    ability: str
    cd: int


class Fighter(TypedDict):
    """One seat's fighter. `pos` is None once eliminated; `ghost` is where a duo fighter fell (its banner)."""

    seat: int
    char: str | None  # None until the character is picked
    team: int
    pos: int | None
    ghost: int | None
    hp: int
    alive: bool
    cd: int  # ability cooldown, in turns
    copy: CopiedAbility | None
    mat: Mat
    xc: int  # extra chests still to open
    skipped: bool  # skipped its movement last turn
    frozen: bool
    heal_block: bool
    turns: int
    kills: NotRequired[int]  # (older states have no count yet)
    dealt: NotRequired[int]  # damage dealt to other fighters, set at the first hit


class Banner(TypedDict):
    """A banner on the island (barrier, ball lightning, platform, magic field, smoke), placed in `round`."""

    kind: str
    owner: int
    sq: list[int]
    round: int


class Loot(TypedDict):
    """A gained card waiting for its holder to decide where it goes (every slot of its category is full)."""

    seat: int
    card: str


class Draft(TypedDict):
    """The exchange a duo fighter is putting together: cards given and taken, extra chests given and taken."""

    give: list[str]
    take: list[str]
    xg: int
    xt: int


#: An exchange proposed to the teammate ("from" and "to" are seats), waiting for the answer.
Trade = TypedDict("Trade", {"from": int, "to": int, "give": list[str], "take": list[str], "xg": int, "xt": int})


class PendingShot(TypedDict):
    """A shot whose dice may still be rolled again (Strike Option): weapon id, target seat, extension, range."""

    w: str
    target: int
    ext: str | None
    faces: list[int]
    range: int


class DoberMove(TypedDict):
    """Dobergun's free steps after a hit: steps left and the squares covered."""

    left: int
    seen: list[int]


class EyeSwap(TypedDict):
    """Eye contact: who swapped with whom, from which squares, and whether the user moved since (no swap back)."""

    user: int
    target: int
    me: int
    them: int
    moved: bool


#: The arguments of a move once `moves.refusal` has accepted it (each kind of move has the few it needs).
ActionArgs = TypedDict("ActionArgs", {
    "card": str, "into": str, "char": str, "target": int, "second": int, "dir": str, "path": tuple[str, ...],
    "dice": tuple[int, ...], "weapon": str, "ext": str, "to": str, "at": str, "orient": str, "with": str,
}, total=False)


class TurnFlags(TypedDict, total=False):
    """The turn being played (`new_turn_flags`); every key is set at a turn's start, and the dict is empty
    before the first turn and once the game is over."""

    stage: str  # start, rolled, moving, after, strike, dober
    dice: list[int]
    points: int  # movement points left
    seen: list[int]  # squares covered by this turn's movement
    mods: list[str]  # terrain letters that cost 1 this turn
    compass: bool
    moved: bool
    teleported: bool
    skipped: bool
    frozen: bool
    heal_block: bool
    consumable: bool
    defensive: bool
    main: str | None  # the turn's main action: shoot, reload or arrange
    throwable: bool
    xchest: bool
    kswap: EyeSwap | None
    shot: PendingShot | None
    dober: DoberMove | None
    ignite: bool
    drain: bool
    revived: bool
    draft: Draft


class LastShot(TypedDict):
    """The last shot resolved (the board draws it while it is the current turn's)."""

    shooter: int
    target: int
    weapon: str
    dice: list[int]
    eff: list[int]  # the dice after a platform's -1
    hit: bool
    raw: int


class SetupRolls(TypedDict, total=False):
    """The set-up's rolls, kept for the record: the first player's 2d6 by seat, each starting sector by seat."""

    first: dict[str, list[int]]
    sectors: dict[str, int]


class State(TypedDict):
    """A whole game. `board` and `cards` never change after `new_state` (engine.STATIC)."""

    board: MapData
    cards: dict[str, str]  # card id -> weapon or support key
    mode: str  # ffa or duo
    n: int
    final_zone: str  # shrink or never
    wdeck: list[str]
    sdeck: list[str]
    wdisc: list[str]
    sdisc: list[str]
    unloaded: list[str]
    chests: list[int]  # squares of the chests not opened yet
    players: list[Fighter]
    banners: list[Banner]
    round: int
    order: list[int]
    turn: int | None
    phase: str  # pick, octor, play, over
    zone: int  # zones closed so far
    zone_due: bool
    t: TurnFlags
    pending: list[Loot]
    trade: Trade | None
    out: list[int]  # eliminated seats, in order
    winners: list[int] | None
    last: LastShot | None
    log_rolls: SetupRolls
    rng: int

"""The shapes of HeroQuest's JSON: the game state's figures, objects, turn and decisions, and the seats' views.

TypedDicts are plain dicts at runtime (what is stored, copied and compared stays JSON); they only let the type
checker see each string-key lookup. A square in JSON is a `[row, col]` list (`Cell`); `state.as_square` turns it
into the `board.Square` tuple the board code uses.
"""

from __future__ import annotations

from typing import Literal, NotRequired, Protocol, TypedDict, final

from rules.base import ArgValue
from rules.text import Msg, MsgJson

#: A square as stored: [row, col].
Cell = list[int]
#: Conditions on a figure (poison, sleep, stun, fear, courage, rock_skin, pass_rock, mist, brew, swift,
#: lose_turn: True while they last) and the one-blow potion bonuses (strength, defence: how many dice).
Status = dict[str, bool | int]
#: The four things a hero wears; a hero's other belongings are `items`.
EquipSlot = Literal["weapon", "shield", "helmet", "armour"]
EQUIP_SLOTS: tuple[EquipSlot, ...] = ("weapon", "shield", "helmet", "armour")
#: Body or mind points (a figure's two counters the game master may adjust).
Stat = Literal["body", "mind"]
#: A message as JSON (`rules.text.Msg.to_json`): {"key": ..., "params": {...}}; only the text layer reads it.


def equip_slot(slot: str) -> EquipSlot | None:
    """`slot` when it is one of `EQUIP_SLOTS` (what a hero wears), else None."""
    for worn in EQUIP_SLOTS:
        if worn == slot:
            return worn
    return None


class Offer(Protocol):
    """Lists one legal action while a seat's moves are gathered: its kind, label, menu group, description and
    arguments (`rules.base.LegalAction`)."""

    def __call__(self, kind: str, label: Msg, group: str, description: Msg | None = None, /,
                 **args: ArgValue) -> None: ...


class LitJson(TypedDict):
    """A text written in both languages."""

    es: str
    en: str


@final
class Hero(TypedDict):
    """A hero on (or off) the board: `sq` is None before the quest starts, after leaving, once dead and while
    `outside` (waiting at the Door In to enter on its turn; a missing field means on the board)."""

    uid: str
    hero: str
    seat: int
    sq: Cell | None
    body: int
    max_body: int
    mind: int
    max_mind: int
    weapon: str | None
    shield: str | None
    helmet: str | None
    armour: str | None
    items: list[str]
    gold: int
    groups: list[str]
    spells: list[str]
    cast: list[str]
    quest_treasures: list[str]
    dead: bool
    left: bool
    status: Status
    #: Rooms already searched for treasure ("room7").
    searched: list[str]
    skills: list[str]
    outside: NotRequired[bool]


@final
class Monster(TypedDict):
    """A monster: `uid` starts with `state.HIDDEN_PREFIX` until the heroes see it and it gets its public `n`."""

    uid: str
    ref: str
    sq: Cell
    body: int
    max_body: int
    mind: int
    max_mind: int
    revealed: bool
    status: Status
    moved: bool
    acted: bool
    cast: list[str]
    #: Its public number ("Goblin 2"), once revealed.
    n: NotRequired[int]
    #: The Chaos spells the game master granted it.
    spells: NotRequired[list[str]]


#: Either kind of figure (spells and runes strike both).
Figure = Hero | Monster


class BoardObject(TypedDict):
    """Anything else on the board: doors and secret doors (on the edge `between` two squares), furniture,
    blocked squares, stairs, markers (notes), treasure marks, traps, fallen rocks and corpses.

    The keys after `revealed` belong to some kinds only, as listed.
    """

    uid: str
    kind: str
    ref: str
    squares: list[Cell]
    rotation: str
    between: list[Cell] | None
    #: The quest note it is tied to ("A").
    note: str | None
    revealed: bool
    #: Doors: open or shut.
    open: NotRequired[bool]
    #: Secret doors and traps: found by a search; doors are always found.
    found: NotRequired[bool]
    #: Traps: what springing it does (`setup.TRAP_KINDS`), and whether it went off or was disarmed.
    trap: NotRequired[str]
    sprung: NotRequired[bool]
    disarmed: NotRequired[bool]
    #: Corpses: what the hero carried, its Quest Treasures, and who saw it fall.
    items: NotRequired[list[str]]
    treasures: NotRequired[list[str]]
    witnesses: NotRequired[list[str]]


class Turn(TypedDict):
    """Whose turn: "setup" (spell picks), a hero (`i` in `heroes`, with its per-turn allowance and flags) or the
    game master (with the heroes who drank a potion during it)."""

    who: Literal["setup", "hero", "gm"]
    i: int
    moves: NotRequired[int]
    moved: NotRequired[bool]
    closed: NotRequired[bool]
    acted: NotRequired[bool]
    potion: NotRequired[bool]
    gave: NotRequired[bool]
    jumped: NotRequired[bool]
    run: NotRequired[bool]
    attacks: NotRequired[int]
    potions: NotRequired[list[str]]


#: A decision a hero's player must take before play goes on: "save" (drink a restoration potion or die, short
#: of `deficit` body points), "trade" (accept an exchange offered by hero `from`) or "rock_step" (where to step
#: aside from a fallen rock: `options`). `hero` is the uid of the hero who decides.
Pending = TypedDict("Pending", {
    "kind": Literal["save", "trade", "rock_step"],
    "hero": str,
    "then_end": NotRequired[bool],
    "deficit": NotRequired[int],
    "from": NotRequired[str],
    "give": NotRequired[str | None],
    "want": NotRequired[str | None],
    "options": NotRequired[list[Cell]],
})


class Over(TypedDict):
    result: str
    #: hq.reason.<reason>
    reason: str


class Thrown(TypedDict):
    """A thrown weapon lying where it landed until a hero picks it up."""

    item: str
    sq: Cell
    owner: str


class LogEntry(TypedDict):
    msg: MsgJson
    #: The seats that heard it (None: everybody).
    to: list[int] | None


class Options(TypedDict):
    quest: str
    movement: str
    die: str
    heroes: str
    rounds: int


class HeroRecord(TypedDict):
    """What a hero takes home from a quest (`HeroQuest.sheets`), folded into its sheet by `campaign.after_quest`."""

    gold: int
    equipment: list[str]
    quest_treasures: list[str]
    dead: bool


class StateData(TypedDict):
    """Everything in a game's state except the quest (`state.HQState.d`)."""

    seats: int
    opts: Options
    rng: int
    round: int
    #: One "0"/"1" per square of the board (row by row): revealed to the heroes.
    rev: str
    heroes: list[Hero]
    monsters: dict[str, Monster]
    objects: dict[str, BoardObject]
    turn: Turn
    pending: list[Pending]
    #: Uids of the heroes still to choose a spell group, in order.
    picks: list[str]
    deck: list[str]
    notes_read: list[str]
    notes_used: list[str]
    log: list[LogEntry]
    thrown: list[Thrown]
    #: How many monsters and objects the game has added (their uids count on).
    spawned: int
    over: Over | None
    #: Per monster ref, the last public number given.
    shown: NotRequired[dict[str, int]]
    #: No hero is left on the board: the game master must say whether the quest was won.
    verdict: NotRequired[bool]
    #: The character sheets the heroes started from (campaign play), and the upload's warnings for the GM.
    sheets_in: NotRequired[dict[str, Sheet]]
    import_warnings: NotRequired[list[MsgJson]]


class Sheet(TypedDict):
    """A hero's character sheet between quests (`campaign`)."""

    hero: str
    level: int
    quests: int
    completed: int
    gold: int
    equipment: list[str]
    artefacts: list[str]
    quest_treasures: list[str]
    skills: list[str]
    max_body: int
    max_mind: int
    body: int
    mind: int
    champion: bool
    outlaw: bool
    pardoned: bool


# ---------------------------------------------------------------- views (`view.build`): what a seat is shown


class DoorView(TypedDict):
    uid: str
    between: list[Cell] | None
    open: bool
    secret: bool
    #: Game master only: whether the heroes know of it yet.
    hidden: NotRequired[bool]


class ObjectView(TypedDict):
    """An object as a seat sees it: the heroes get the public id and ref (`view.public_object`)."""

    uid: str
    kind: str
    ref: str
    squares: list[Cell]
    rotation: str
    hidden: bool
    #: Game master only: a trap's state, and the quest note the object is tied to.
    found: NotRequired[bool]
    sprung: NotRequired[bool]
    disarmed: NotRequired[bool]
    note: NotRequired[str]


class HeroView(TypedDict):
    uid: str
    hero: str
    name: LitJson
    square: Cell | None
    body: int
    max_body: int
    mind: int
    max_mind: int
    equipment: list[str]
    items: list[str]
    gold: int
    dead: bool
    left: bool
    #: Waiting at the Door In, off the board, to enter on its own turn.
    outside: bool
    seat: int
    spells: list[str]
    cast: list[str]
    #: The conditions on it, by name, sorted.
    status: list[str]
    quest_treasures: list[str]
    skills: list[str]


class MonsterView(TypedDict):
    uid: str
    ref: str
    name: LitJson
    square: Cell
    body: int
    max_body: int
    hidden: bool
    status: list[str]
    #: Game master only: the Chaos spells it may still cast.
    spells: NotRequired[list[str]]


class TurnView(TypedDict):
    #: A message key with its parameters (the bot renders it per language).
    label: MsgJson
    round: int
    #: "setup", "hero", "gm" or "over".
    who: str
    #: The uid of the hero on turn (None out of a hero's turn).
    hero: str | None


class PendingView(TypedDict):
    """Who must answer before play goes on: a `Pending` decision, a spell pick ("spells") or the game master's
    verdict ("verdict")."""

    kind: str
    hero: NotRequired[str]
    seat: int | None


class NoteView(TypedDict):
    es: str
    en: str
    read: bool
    used: bool


class QuestTitle(TypedDict):
    name: LitJson


class BoardView(TypedDict):
    """What one seat sees (`viewer` "gm", "hero" or "spectator"): the game master everything (with the keys marked
    game master only), the heroes and spectators what has been revealed. Renderers and cogs read it."""

    viewer: str
    seat: int | None
    quest: QuestTitle
    revealed: list[Cell]
    doors: list[DoorView]
    objects: list[ObjectView]
    heroes: list[HeroView]
    monsters: list[MonsterView]
    turn: TurnView
    log: list[MsgJson]
    pending: PendingView | None
    over: NotRequired[Over]
    #: Game master only.
    notes: NotRequired[dict[str, NoteView]]
    player_revealed: NotRequired[list[Cell]]
    unused: NotRequired[list[Cell]]
    wandering_monster: NotRequired[str]
    deck_size: NotRequired[int]
    chaos_spells: NotRequired[list[str]]
    import_warnings: NotRequired[list[MsgJson]]
    #: Heroes and spectators: the notes read aloud so far.
    notes_read: NotRequired[dict[str, LitJson]]
    #: The seat on turn only: the squares its legal moves reach.
    reach: NotRequired[list[Cell]]

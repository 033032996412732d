"""The shapes of The King's Armory's JSON (TypedDicts, plain dicts at runtime): the game state and its figures, the
data files' records (read-only), the maps, and the view the renderer and the cog read.

The state is stored as JSON and copied by `queries.clone`, so its key names are the stored ones (some are short:
`st` is a figure's status tokens, `eturn` the enemy turn, `mc` the seat holding the monster cards)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, NotRequired, TypedDict

from rules.base import ActionJson
from rules.text import MsgJson

#: A figure's status tokens, by kind (`figures.STATUSES`): bleed, burn, slow, stun, bless.
Statuses = dict[str, int]
#: A resistance: a number, or "Im" (immune).
Resistance = int | str
#: A monster's resistances by damage type (M, R, SN).
Resistances = Mapping[str, Resistance]
#: An ally's resistances by damage type: never immune.
AllyResistances = Mapping[str, int]
#: A status an attack or a card adds: [kind, tokens] in the data files.
StatusEffect = tuple[str, int]
#: One tile of a map's route in its file: [row, column, entry edge, exit edge].
RouteStep = tuple[int, int, str, str]


# ---------------------------------------------------------------- the game state


class Tower(TypedDict):
    id: str
    #: Its top-left square, [row, column].
    at: list[int]


class Ally(TypedDict):
    """A hero, a champion or a summon (Felicity's Guardian, the Sword Golem)."""

    id: str
    kind: Literal["hero", "champion", "summon"]
    #: The hero, champion type or summon in the data files.
    key: str
    seat: int
    level: int
    #: Which of its type's token sets (and name) a champion carries.
    token: int
    hp: int
    #: Its square, [row, column]; None while benched or not placed yet.
    pos: list[int] | None
    house: str | None
    inside: bool
    st: Statuses
    ko: bool
    ap: int
    attacks: int
    done: bool
    blocks: list[str]
    tank_bonus: int
    phalanx: bool
    phalanx_used: bool
    rage: int
    dodge_pen: int
    shield: bool
    sprinted: bool
    guarding: str | None
    enchanted: int
    summoned: bool
    #: Equipment card keys carried.
    gear: list[str]
    #: Once-per-wave things already used ("hourglass", "lucky", "potion").
    once: list[str]
    #: General-ly Not Enough: the champion a player picked instead of a hero.
    own: NotRequired[bool]
    #: Standing block order (`orders.MODES`); absent means "ask".
    order: NotRequired[str]


class Monster(TypedDict):
    id: str
    key: str
    boss: bool
    hp: int
    max: int
    lane: str
    #: Its index along its lane.
    i: int
    st: Statuses
    blocked_by: str | None
    acted: bool
    grounded: bool
    fog: int
    sundered: int


class GearPiece(TypedDict):
    """One equipment card in play."""

    id: str
    card: str
    seat: int
    locked: bool
    #: The ally wearing it.
    on: str | None


class Activation(TypedDict):
    """The monster moving now (its activation paused by a blocking window or a card pause)."""

    mid: str
    left: int
    #: The lane indices it walked this activation.
    trail: list[int]
    asked: list[str]
    passed: list[str]
    moved: int


class BlockQuestion(TypedDict):
    """A blocking window: `ally` may block monster `mid`."""

    ally: str
    mid: str


#: An equipment trade offered between waves ("from" is a Python keyword, hence the functional form).
Trade = TypedDict("Trade", {"from": int, "to": int, "give": str, "want": str})


class CardPause(TypedDict):
    """The enemy turn paused for card plays: the seats still to answer."""

    seats: list[int]


class Reroll(TypedDict):
    """A Lucky Charm question: the attack (`Action.to_json`) waiting for its holder's answer."""

    ally: str
    action: ActionJson
    nat: int
    counts: bool


class Decks(TypedDict):
    """The card decks dealt at set-up, and the out-of-turn questions (none open yet) (`armory.deal`)."""

    gear: list[GearPiece]
    gear_deck: list[str]
    gear_gate: bool
    used_gear: list[str]
    #: Reinforcement deck, the team's hand, cards played, the Armory deck and the Armory card held.
    rdeck: list[str]
    hand: list[str]
    used_cards: list[str]
    adeck: list[str]
    armory: str | None
    hourglass: Literal["next", "now"] | None
    trade: Trade | None
    holds: list[int]
    window: CardPause | None
    offered: bool
    reroll: Reroll | None


class State(Decks):
    map: str
    #: An uploaded map's file (static: stored once per game).
    map_spec: NotRequired[MapFile]
    variants: list[str]
    banked: int
    gate_at_start: int
    waves: int
    arrival: str
    #: Seats.
    n: int
    phase: Literal["pick", "setup", "allies", "enemy", "between", "over"]
    result: str | None
    picker: int
    wave: int
    #: Enemy turns of this wave so far.
    eturn: int
    #: The seat with the monster cards.
    mc: int
    gate: int
    gate_max: int
    gold: int
    coins: list[int]
    saved: list[int]
    #: Monster tokens by level ("1".."5"), shuffled.
    piles: dict[str, list[str]]
    discard: dict[str, list[str]]
    boss_pile: list[str]
    boss_dead: list[str]
    #: Enemy turns of the last wave on which a boss arrives.
    boss_due: list[int]
    boss_side: str | None
    towers: list[Tower]
    #: Next tower number.
    tseq: int
    free_towers: int
    allies: list[Ally]
    #: Champions dead for good, by type.
    fallen: dict[str, int]
    #: Next champion or summon number.
    cseq: int
    monsters: list[Monster]
    #: Next monster number.
    mseq: int
    arrive: int
    later: int
    #: Forced arrivals to come (their levels).
    extra: list[int]
    act: Activation | None
    ask: BlockQuestion | None
    #: Psychic Walls, [row, column] each.
    walls: list[list[int]]
    turn: int
    active: str | None
    ready: list[int]
    rng_state: int
    #: Seats that left this round of shopping to the team, and what they proposed ([seat, item] each); absent
    #: in games saved before team decisions.
    deferred: NotRequired[list[int]]
    proposed: NotRequired[list[list[int | str]]]
    #: The last public events (`Msg.to_json`), for the board's short log.
    log: NotRequired[list[MsgJson]]


# ---------------------------------------------------------------- data files (read-only)


class Option(TypedDict, total=False):
    """An attack or special option. In champions' data `hit`, `dmg` and `amount` may be per-level lists, which
    `figures` resolves for the champion's level."""

    id: str
    es: str
    en: str
    kind: Literal["attack", "special"]
    ac: int
    #: Damage type: M, R or SN.
    type: str
    range: int
    #: A bonus to the d20, or "auto".
    hit: int | str
    dmg: int
    hits: int
    crit: Sequence[int]
    mod: float
    #: None: aimed at monsters; "around", "line", or an area [rows, cols].
    area: str | Sequence[int]
    targets: int
    on_hit: Sequence[StatusEffect]
    on_crit: Sequence[StatusEffect]
    effect: str
    amount: int
    unblockable: bool
    ground_only: bool
    sprint: bool
    once: bool


#: An option as a champion's data file writes it: some numbers per level, and the first level with it ("from",
#: a Python keyword, hence the functional form).
LevelledOption = TypedDict("LevelledOption", {
    "id": str, "es": str, "en": str, "from": int, "kind": Literal["attack", "special"], "ac": int, "type": str,
    "range": int, "hit": int | str | Sequence[int], "dmg": int | Sequence[int], "hits": int, "crit": Sequence[int],
    "mod": float, "area": str | Sequence[int], "targets": int, "on_hit": Sequence[StatusEffect],
    "on_crit": Sequence[StatusEffect], "effect": str, "amount": int | Sequence[int], "unblockable": bool,
    "ground_only": bool, "sprint": bool, "once": bool}, total=False)


class FigureCard(TypedDict, total=False):
    """A hero's or a summon's card in its data file."""

    id: str
    es: str
    en: str
    ap: int
    hp: int
    mv: int
    dodge: int
    res: AllyResistances
    tank: int
    heal: int
    min_attacks: int
    min_attacks_few: int
    out_of_turn: bool
    options: Sequence[Option]
    towers: bool
    leaves_after_wave: bool


class ChampionData(TypedDict):
    """A champion type: per-level numbers (three levels), token names and titles."""

    id: str
    es: str
    en: str
    limit: int
    ap: int
    mv: int
    min_attacks: int
    names: Sequence[str]
    titles: Mapping[str, Sequence[str]]
    cost: Sequence[int]
    hp: Sequence[int]
    dodge: Sequence[int]
    res: Sequence[AllyResistances]
    tank: Sequence[int]
    heal: Sequence[int]
    options: Sequence[LevelledOption]
    mind_cage: NotRequired[bool]


class AllyCard(TypedDict, total=False):
    """An ally's statistics at its level with its equipment (`figures.ally_card`)."""

    id: str
    es: str
    en: str
    ap: int
    hp: int
    mv: int
    max: int
    dodge: int
    res: AllyResistances
    tank: int
    heal: int
    min_attacks: int
    min_attacks_few: int
    out_of_turn: bool
    mind_cage: bool
    towers: bool
    leaves_after_wave: bool
    options: Sequence[Option]


class MonsterAttack(TypedDict, total=False):
    """One attack of a monster (a boss has several in its data file)."""

    es: str
    en: str
    type: str
    range: int
    dmg: int
    hits: int
    #: A bonus to the d20, or "CO" (no roll: it goes for the Gate).
    hit: int | str
    on_hit: Sequence[StatusEffect]
    on_crit: Sequence[StatusEffect]
    other_target: bool


class MonsterCard(TypedDict, total=False):
    """A monster's or a boss's card; a boss has `attacks` and maybe a `special`, a monster one attack inline."""

    id: str
    es: str
    en: str
    hp: int
    mv: int
    arrow: str
    flags: Sequence[str]
    hit: int | str
    dodge: int
    res: Resistances
    level: int
    count: int
    dmg: int
    hits: int
    type: str
    range: int
    attacks: Sequence[MonsterAttack]
    special: str


class EquipmentMods(TypedDict, total=False):
    primary_dmg: int
    res: Mapping[str, int]
    dodge: int
    mv: int
    max: int
    tank: int
    ap: int
    once: str
    type_range: Mapping[str, int]
    type_hit: Mapping[str, int]
    type_dmg: Mapping[str, int]
    type_crit: Mapping[str, int]


class EquipmentCard(TypedDict):
    id: str
    es: str
    en: str
    mods: EquipmentMods
    option: NotRequired[Option]


class Card(TypedDict, total=False):
    """A reinforcement or Armory card, marked with its deck."""

    id: str
    es: str
    en: str
    deck: str
    copies: int
    target: str
    rows: int
    cols: int
    dmg: int
    type: str
    hits: str
    length: int
    near_exit: int
    status: Sequence[StatusEffect]
    max: int
    filter: str
    heal: int
    destroy: bool
    bless: bool
    stun_after: bool


class Variant(TypedDict, total=False):
    """A §7 variant's names and its numbers (each variant has its own)."""

    es: str
    en: str
    monster_hit: int
    damage: int
    bonus_cards: int
    penalty_cards: int
    start_per_player: int
    bank_roll: int
    bank_gold: int
    build: int
    sell: int
    slots: int
    repair_gold: int
    repair_hp: int
    coin_cards: int
    champion_cost: int
    extra_monsters: int
    max_monsters: int
    max_waves: int


class WaveCard(TypedDict):
    starting_towers: Mapping[str, int]
    gate_hp: Mapping[str, int]
    monsters_per_wave: Mapping[str, int]
    coin_cards_per_wave: Mapping[str, int]
    #: For each wave, the highest d12 roll giving level 1, 2, 3, 4, 5.
    levels: Mapping[str, Sequence[int]]
    #: By game length, then arrival ("full", "delayed): the enemy turns a boss arrives on.
    boss_turns: Mapping[str, Mapping[str, Sequence[int]]]
    starting_gold: int


class Economy(TypedDict):
    #: How many coin cards of each value.
    coins: Mapping[str, int]
    tower: Mapping[str, int]
    parapet_slots: int
    equipment: Mapping[str, int]
    reinforcement: Mapping[str, int]
    #: The Armory card's price by game length.
    armory: Mapping[str, int]


class MapFile(TypedDict):
    """A map as its file writes it (a preset in maps.json, a custom file, an upload), once `maps.problems_of` has
    found nothing wrong with it."""

    id: NotRequired[str]
    es: NotRequired[str]
    en: NotRequired[str]
    tiles_w: int
    tiles_h: int
    route: Sequence[RouteStep]
    yellow: NotRequired[Sequence[RouteStep] | None]
    length: NotRequired[str | None]
    split: NotRequired[bool]


class MapSpec(TypedDict):
    """A checked map with its id, tile size, split and length worked out (`maps.checked`)."""

    id: str
    es: NotRequired[str]
    en: NotRequired[str]
    tiles_w: int
    tiles_h: int
    route: Sequence[RouteStep]
    yellow: NotRequired[Sequence[RouteStep] | None]
    length: str
    split: bool
    tile_size: int


class MapsFile(TypedDict):
    tile_size: int
    #: Tiles of each kind in the box (straight, curve, t).
    inventory: Mapping[str, int]
    maps: Sequence[MapFile]


# ---------------------------------------------------------------- views (what the renderer and the cog read)


class Names(TypedDict):
    es: str
    en: str


class AllyView(TypedDict):
    id: str
    kind: str
    type: str
    seat: int
    level: int
    name: Names
    hp: int
    max: int
    ko: bool
    square: str | None
    house: str | None
    inside: bool
    ap: int
    #: [blocks held, Tank].
    tank: list[int]
    blocks: list[str]
    order: str
    status: dict[str, int]
    done: bool
    effects: list[str]


class MonsterView(TypedDict):
    id: str
    type: str
    boss: bool
    level: int
    name: Names
    hp: int
    max: int
    mv: int
    square: str
    #: "L" or "R".
    lane: str
    #: "y" (yellow) or "r" (red).
    arrow: str
    flags: list[str]
    blocked_by: str | None
    status: dict[str, int]
    effects: list[str]


class TowerView(TypedDict):
    id: str
    square: str
    used: int


class GearView(TypedDict):
    id: str
    name: Names
    seat: int
    locked: bool
    on: str | None


class RerollView(TypedDict):
    ally: str
    roll: int


class View(TypedDict):
    """Everything on the table is public (§11): the same view for every seat."""

    game: str
    phase: str
    map: str
    map_spec: NotRequired[MapFile]
    wave: int
    waves: int
    variants: list[str]
    score: int | None
    enemy_turn: int
    #: [health, most].
    gate: list[int]
    gold: int
    turn: int
    active: str | None
    picker: int
    mc: int
    ready: list[int]
    deferred: list[int]
    free_towers: int
    to_arrive: int
    boss_turns: list[int]
    towers: list[TowerView]
    allies: list[AllyView]
    monsters: list[MonsterView]
    asking: BlockQuestion | None
    trade: Trade | None
    reroll: RerollView | None
    pause: list[int] | None
    holds: list[int]
    gear: list[GearView]
    walls: list[str]
    log: list[MsgJson]
    result: str | None

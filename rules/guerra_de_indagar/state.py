"""The shape of a game of La Guerra de Indagar: the state and its parts, as the JSON stored for a game holds them.

TypedDicts are plain dicts at run time: the stored JSON and the fast copy (`json` round trip) are unchanged; the
checker sees every string-key lookup. Tiles are keyed `"q,r"` (axial coordinates, see `hexes.key`), heroes and
monsters by their card id, seats are player indexes.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

#: A unit on the board: ("hero", hero id) or ("monster", monster id).
Unit = tuple[str, str]
#: What an attack resumes when it ends: the active player's turn, a primary monster's turn in the ring, or an
#: event monster's turn at the round's end.
AttackContext = Literal["turn", "monster", "event"]
#: The game's phases: set-up choices (faction, commander, monster), then each round's start, turns and end.
Phase = Literal["faction", "commander", "monster", "round_start", "turns", "round_end"]
#: The questions a seat answers before the game goes on (see `actions._answers`).
QuestionKind = Literal["declare", "redeploy", "level_up", "cache", "reveal", "hurt", "ignore", "a_boost", "p_boost",
                       "d_boost", "fall_back", "monster_fall_back", "maelstrom", "degrade", "charge", "reap",
                       "spirit_window", "monster_target", "monster_opportunity"]


class Tile(TypedDict):
    """One hex of the map."""

    t: str | None  #: its type (a tiles.json key); None for a solo home, which is never revealed (RULING-39)
    up: bool  #: face up
    destroyed: bool  #: a resource tile Tijian (or Raze) destroyed: it produces nothing more
    area: int  #: the seat whose start area it is part of, else -1
    deploy: bool  #: a deployment tile of that area
    home: int  #: the index of the primary monster home it is, else -1


class Outpost(TypedDict):
    owner: int
    level: int  #: 1 to 3
    dmg: int  #: damage taken this turn (discarded at its end unless it dropped a level)
    dropped: bool  #: dropped a level this turn: it takes no more damage until the turn ends


class Player(TypedDict):
    faction: str | None
    commander: str | None  #: the hero id chosen as commander
    res: dict[str, int]  #: resources by kind (gold, wood, mineral)
    spirits: int
    pp: int  #: primacy points earned (outposts are counted on top, see `units.primacy_points`)
    known: list[str]  #: face-down tiles this player has peeked at
    traitors: bool  #: Local Traitors revealed this round: no tree ability (RULING-20)
    tree: str | None  #: the strategy tree declared this round
    flags: list[str]  #: once-a-round powers already scored (shadow_steps, devastation)
    unlocks: dict[str, str]  #: tree ability id -> the token side it was unlocked with ("coin" or "bolt")


class Hero(TypedDict):
    owner: int
    at: str | None  #: its tile, None while in retreat
    dmg: int
    xp: int
    levels: list[str]  #: one entry per level gained: "sword", "shield", or "" while its owner chooses
    cache: list[str]  #: cache tokens ("attack", "defence") from Weapons and Armour Caches
    done: bool  #: activated this round


class Monster(TypedDict):
    kind: Literal["primary", "event"]
    card: str  #: monsters.json key
    at: str | None  #: its tile, None while in retreat
    dmg: int
    home: int  #: a primary monster's home index, -1 for an event monster
    retreat: int  #: rounds spent in retreat (a primary monster comes back after 2)
    turns: int  #: turns taken this round
    stuck: bool  #: found no way to any target this round
    count: int  #: its victory counter (outposts or tiles destroyed, heroes sent to retreat)
    spirits: int  #: spirits held (Oryana)
    gone: bool  #: an event monster sent to retreat: out of the game
    order: int  #: order of appearance (event monsters act in it, PROV-21)


class Activation(TypedDict):
    """The hero a player activated this turn and what it has done."""

    hero: str
    mv: int  #: movement left
    acted: bool  #: its one action is spent
    healed: bool  #: healed on a Mystic Clearing
    over: bool  #: the activation ends as soon as the game gets to it
    charged: bool  #: took its Charge! step (it then owes an attack, RULING-14)
    swapped: bool  #: used a Portal
    moved: int  #: steps taken
    attacked: NotRequired[bool]
    mud: NotRequired[bool]  #: stopped by mud or a swamp (RULING-12, RULING-13)
    mudproof: NotRequired[bool]  #: an after-attack move ignores mud
    free_build: NotRequired[bool]  #: an ability waived the action a build costs


class Attack(TypedDict):
    """The attack under way, stage by stage [RB p.13-14]."""

    by: list[str]  #: the attacking unit, as a list [kind, id]
    at: str  #: the attacked tile
    ctx: AttackContext
    stage: Literal["roll", "defence", "damage", "degrade", "xp", "charge", "done"]
    a: list[int]  #: attack dice
    d: list[int]  #: defence dice
    ignore: int
    min: int
    extra: int
    target: list[str] | None  #: the unit on the tile when the attack began, else None (an outpost alone)
    post: bool  #: an outpost stood on the tile when the attack began
    dropped: bool
    destroyed: bool
    captured: bool
    level0: int  #: the outpost's level before it dropped
    hit: int  #: damage that reached the unit
    retreated: bool
    success: bool
    blood: NotRequired[bool]  #: Blood Magic used (once per attack)
    asked: NotRequired[bool]  #: the defender was offered Deception before the defence roll
    then: NotRequired[list[str]]  #: [event monster, hero]: the monster a Charge through revealed strikes next


class Question(TypedDict):
    """A question put to one seat (`kind`), answered before anything else goes on; which other keys it holds
    depends on the kind."""

    kind: QuestionKind
    seat: int
    hero: NotRequired[str]  #: the hero it concerns (level_up, redeploy, fall_back, maelstrom, cache, hurt...)
    monster: NotRequired[str]  #: monster_fall_back, monster_target, monster_opportunity
    tile: NotRequired[str]  #: reveal
    token: NotRequired[str]  #: cache: "attack" or "defence"
    ctx: NotRequired[AttackContext]  #: a monster's tie: the context its turn resumes with
    mode: NotRequired[str]  #: monster_target: "free" or "open" routes
    options: NotRequired[list[list[str]] | list[str]]  #: monster_target: [kind, tile] targets; opportunity: tiles
    n: NotRequired[int]  #: hurt, ignore: the damage
    src: NotRequired[str]  #: hurt, ignore: "swamp" or "ability"
    by: NotRequired[int | None]  #: hurt, ignore: the seat whose ability dealt it
    ignore: NotRequired[int]  #: hurt, ignore: the damage ignored so far


class LastDice(TypedDict):
    """The last attack's dice, kept for the board image."""

    by: list[str]
    at: str
    a: list[int]
    d: list[int]
    damage: int


class Result(TypedDict):
    winners: list[int]
    key: str  #: the catalog key of the ending
    monster: NotRequired[str]  #: gi.end.monster: the monster that won


class State(TypedDict):
    rng: int
    players_n: int
    solo: bool
    target: int  #: primacy points that win
    round: int
    phase: Phase
    order: list[int]  #: seats in play order this round
    chooser: int  #: index in `order` of the seat choosing during set-up
    tiles: dict[str, Tile]
    outposts: dict[str, Outpost]
    players: list[Player]
    heroes: dict[str, Hero]
    monsters: dict[str, Monster]
    source: int  #: spirits on the Source of Power
    source_at: str
    ring: list[list[str]]  #: the round's turn slots: ["p", seat] or ["m", monster id]
    ring_pos: int
    lap: int
    turn: list[str] | None  #: the slot acting now
    act: Activation | None
    pending: list[Question]
    attack: Attack | None
    end_queue: list[str]  #: event monsters still to act at the round's end
    window: bool  #: the round's spirit window was opened
    used: list[str]  #: abilities used this turn
    mods: dict[str, dict[str, int]]  #: this turn's stat changes by "kind:id"
    last_ability: int | None  #: the seat that used an ability last (the Spirit Walker's target)
    result: Result | None
    monster_ties: NotRequired[str]  #: option: "player" (the last player breaks a monster's tie) or "auto"
    monsters_start: NotRequired[str]  #: option: "round2" or "second_pass"
    last_dice: NotRequired[LastDice]

"""The named arguments of La Guerra de Indagar's moves (an `Action`'s args), typed."""

from __future__ import annotations

from typing import TypedDict, cast

from rules.base import Action


class MoveArgs(TypedDict, total=False):
    """Every argument a move may carry; each kind of move uses a few (see `actions.legal`, which builds them)."""

    faction: str  #: faction
    hero: str  #: commander, activate, cache, spirit_heal, skill (the hero healed or moved)
    monster: str  #: monster (set-up)
    home: str  #: monster (set-up): the home tile's label
    to: str  #: a tile label: move, explore, attack, charge_step, portal, fall backs, redeploy, skill...
    tree: str  #: declare
    unlock: str  #: declare: the tree ability unlocked
    side: str  #: declare: "coin" or "bolt"; level: "sword" or "shield"
    get: str | tuple[str, ...]  #: trade, skill: one resource; reap, spirit_res: the resources taken
    give: tuple[str, ...]  #: trade: the three resources given
    id: str  #: ability, skill: the ability used
    save: str  #: ability, skill: the resource a coin token saves
    choice: str  #: degrade: leave, destroy or capture
    frm: int  #: skill (Plunder): the seat plundered
    pick: str  #: skill (Relief out of a Maelstrom): "last", the last player in play order picks the tile


def args_of(action: Action) -> MoveArgs:
    """The move's arguments by name. The one place they get their types: every move the rules apply or the AI
    weighs is one `actions.legal` listed (built with these names and types) or equal to one (`Game.is_legal`)."""
    return cast(MoveArgs, action.arg_dict)


def resource(action: Action) -> str:
    """The one resource a trade or an ability's gain names (`get`)."""
    get = args_of(action)["get"]
    assert isinstance(get, str), "one resource"
    return get


def resources_taken(action: Action) -> tuple[str, ...]:
    """The resources a reap or a spirit spent on resources names (`get`)."""
    get = args_of(action)["get"]
    assert isinstance(get, tuple), "a list of resources"
    return get

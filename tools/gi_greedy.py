"""A simple greedy Guerra de Indagar player, the yardstick of the AI (issue 23): it always builds, upgrades, gathers
or attacks when it can, and otherwise picks a random legal move."""

from __future__ import annotations

from rules.base import Action
from rules.guerra_de_indagar import GAME
from rules.guerra_de_indagar.state import State
from rules.rng import Rng

#: The moves the greedy player takes whenever one is legal, in this order.
GREEDY = ("build", "upgrade", "gather", "attack")


def greedy_action(state: State, seat: int, rng: Rng) -> Action:
    """`seat`'s move: the first of GREEDY that is legal (a random one among several attacks), else any legal move."""
    legal = [la.action for la in GAME.legal_actions(state, seat)]
    for kind in GREEDY:
        found = [a for a in legal if a.kind == kind]
        if found:
            return rng.choice(found)
    return rng.choice(legal)

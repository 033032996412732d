"""Gorgasali Battle Royale: up to ten fighters, a closing zone, chests, weapons, and duos."""

from rules.gorgasali.game import Gorgasali

GAME = Gorgasali()

__all__ = ["GAME", "Gorgasali"]

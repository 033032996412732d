"""The King's Armory: a co-operative tower-defence game for 1–7 players (rules engine, in progress)."""

from rules.kings_armory.game import KingsArmory

GAME = KingsArmory()
__all__ = ["GAME"]

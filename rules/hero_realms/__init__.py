"""Hero Realms (base set): a deck-building duel and its multiplayer variants."""

from rules.hero_realms.game import HeroRealms

GAME = HeroRealms()

__all__ = ["GAME", "HeroRealms"]

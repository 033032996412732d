"""HeroQuest (HQ.es rules), game-master assisted: `GAME` is the engine the registry discovers."""

from rules.heroquest.engine import HeroQuest

GAME = HeroQuest()

"""Where the vendored reference files live (tests/fixtures/reference, see its README for sources and licences).

Tests and tools read these copies only: the repository stands alone, with nothing needed beside it.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "fixtures" / "reference"
HQ_REFERENCE = REFERENCE / "heroquest"
HQ_QUESTS = HQ_REFERENCE / "heroscribe" / "quests-eu-base"
TRIAL = HQ_QUESTS / "HQBase-01-TheTrial_EU.xml"
#: Two expansion quests without a stairway: their heroes start in the Ice Cave Entrance, and on the Surface.
HQ_PACKS = HQ_REFERENCE / "heroscribe" / "quests-packs"
TRIAL_BY_ICE = HQ_PACKS / "TheFrozenHorror-02-TrialbyIce_US.xml"
OGRE_FORTRESS = HQ_PACKS / "AgainstTheOgreHorde-01-SearchfortheOgreFortress_EU.xml"
#: Return of the Witch Lord 2 in both wordings: one free square inside its Door In, the heroes enter one by one.
COLD_HALLS = (HQ_PACKS / "ReturnOfTheWitchLord-02-TheColdHalls_EU.xml",
              HQ_PACKS / "ReturnOfTheWitchLord-02-TheColdHalls_US.xml")
HR_CARDS_CSV = REFERENCE / "hero-realms" / "base-set-cards.csv"
HR_RULEBOOK_CARD_LIST = REFERENCE / "hero-realms" / "rulebook-card-list.es.txt"

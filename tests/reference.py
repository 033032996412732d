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
#: One expansion quest (The Frozen Horror): no stairway, the heroes start in the Ice Cave Entrance.
TRIAL_BY_ICE = HQ_REFERENCE / "heroscribe" / "quests-packs" / "TheFrozenHorror-02-TrialbyIce_US.xml"
HR_CARDS_CSV = REFERENCE / "hero-realms" / "base-set-cards.csv"
HR_RULEBOOK_CARD_LIST = REFERENCE / "hero-realms" / "rulebook-card-list.es.txt"

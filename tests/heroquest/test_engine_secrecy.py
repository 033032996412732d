"""Random playouts over the 15 European reference quests: no player view or event ever shows a secret."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.heroquest import GAME
from rules.heroquest.upload import load_quest
from rules.rng import Rng
from rules.text import iter_strings

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "heroquest" / "heroscribe" / "quests-eu-base"
FILES = sorted(REFERENCE.glob("*.xml")) if REFERENCE.exists() else []


def _playout(path: Path, seed: int, steps: int = 250) -> tuple[int, list[str]]:
    quest = load_quest(path.read_text(encoding="utf-8"), path.name)
    state = GAME.new_with_quest(quest, GAME.resolve_options({}), 3, seed)
    rng = Rng.from_seed(seed)
    problems: list[str] = []
    for n in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = rng.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        # keep the game going: the random game master does not end the quest
        legal = [la for la in legal if la.action.kind != "gm_end_quest"] or legal
        step = GAME.apply(state, seat, rng.choice(legal).action)
        state = step.state
        secrets = GAME.secret_tokens(state)
        for viewer in (None, 1, 2):
            forbidden = {t for t, allowed in secrets.items() if viewer is None or viewer not in allowed}
            shown = set(iter_strings(GAME.view(state, viewer))) & forbidden
            if shown:
                problems.append(f"step {n}: view of {viewer} shows {sorted(shown)[:2]}")
            for event in step.events:
                if event.visible_to(viewer) and set(iter_strings(event.msg)) & forbidden:
                    problems.append(f"step {n}: event {event.msg.key} leaks to {viewer}")
        problems += [f"step {n}: {p}" for p in GAME.check_invariants(state)]
        if problems:
            break
    return n, problems


@pytest.mark.skipif(not FILES, reason="needs ../shared reference quests")
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_reference_quest_random_playout_keeps_secrets(path: Path) -> None:
    steps, problems = _playout(path, seed=len(path.name))
    assert problems == []
    assert steps > 10


def test_all_fifteen_reference_quests_are_there() -> None:
    if not REFERENCE.exists():
        pytest.skip("needs ../shared")
    assert len(FILES) == 15

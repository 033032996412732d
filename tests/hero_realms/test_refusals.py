"""Refusals: `is_legal` is exact (no unknown or extra arguments) and every refusal reads as people talk."""

from __future__ import annotations

import re

import pytest

import i18n
from rules.base import Action, IllegalAction, RuleError
from rules.hero_realms import GAME, engine
from rules.hero_realms.state import State
from rules.rng import Rng
from tests.hero_realms.hr_helpers import act, clean, put

#: What must never show in a refusal: card instance ids, seat tokens, action tokens and move kinds.
INTERNAL = re.compile(r"\bc\d{3}\b|\bp\d\b|=|\{|\}|\b(play_all|end_turn|give_gold|pass_card|choose|gem)\b")
NAMES = {o: f"Player{o}" for o in range(6)}


def _texts(err: RuleError) -> list[str]:
    return [i18n.t(err.reason, lang, NAMES.get) for lang in i18n.LANGS]


def _refused(s: State, seat: int, action: Action) -> list[str]:
    assert not GAME.is_legal(s, seat, action), action
    with pytest.raises(RuleError) as err:
        GAME.apply(s, seat, action)
    texts = _texts(err.value)
    for text in texts:
        assert not INTERNAL.search(text), (action, text)
    return texts


@pytest.mark.parametrize("kind", ["end_turn", "play_all"])
def test_an_action_with_extra_arguments_is_illegal(kind: str) -> None:
    s = clean()
    put(s, 0, "gold")
    put(s, 0, "dagger")
    assert GAME.is_legal(s, 0, Action.of(kind))
    _refused(s, 0, Action.from_token(f"{kind} extra=!true"))


def test_arguments_must_be_exactly_the_moves_own() -> None:
    s = clean()
    gold = put(s, 0, "gold")
    s.players[0].combat = 3
    assert GAME.is_legal(s, 0, Action.of("play", card=gold))
    _refused(s, 0, Action.of("play", card=gold, twice=True))
    _refused(s, 0, Action.of("play"))
    _refused(s, 0, Action.of("attack", target="p1"))
    _refused(s, 0, Action.of("attack", target="p1", amount=2, bonus=5))
    _refused(s, 0, Action.of("attack", target="p1", amount=True))
    _refused(s, 0, Action.of("choose", option=0))
    _refused(s, 0, Action.of("launch_missiles"))


def test_refusals_name_the_card_and_list_moves_by_their_labels() -> None:
    s = clean()
    s.players[0].gold = 1
    bought = s.market[0]
    (en, es) = _refused(s, 0, Action.of("buy", card=bought))[::-1]
    name = engine.card_of(s, bought)
    assert name.name_en in en and name.name_es in es
    elsewhere = put(s, 1, "rake", "hand")
    en = _refused(s, 0, Action.of("play", card=elsewhere))[1]
    assert "Rake, Master Assassin is not in your hand" in en
    assert "End turn" in en


def test_a_guarded_player_refusal_names_the_guard() -> None:
    s = clean()
    s.players[0].combat = 5
    put(s, 1, "orc_grunt", "champions")
    es, en = _refused(s, 0, Action.of("attack", target="p1", amount=5))
    assert "Player1" in en and "Orc Grunt" in en and "Infante orco" in es


def test_random_illegal_variations_are_refused_in_plain_words() -> None:
    """Property: from states met in random play, broken variants of legal moves are refused, the state is
    untouched, and the refusal shows no internal id in either language."""
    rng = Rng(99)
    for variant, seats in (("free-for-all", 3), ("hydra", 4), ("emperor", 6), ("hunter-last-standing", 4)):
        s = GAME.new({"variant": variant}, seats, 5)
        for _ in range(250):
            if s.winners is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(s)))
            legal = GAME.legal_actions(s, seat)
            la = rng.choice(legal)
            broken = [
                Action(la.action.kind, (*la.action.args, ("zz", 1))),
                Action.of("attack", target="p9", amount=1),
                Action.of("buy", card="c999"),
                Action.of("play", card=next(iter(s.cards))) if not s.players[seat].hand else None,
                Action.of("give_gold", to=seat, amount=1),
            ]
            before = GAME.to_json(s)
            for action in broken:
                if action is not None and not GAME.is_legal(s, seat, action):
                    _refused(s, seat, action)
            assert GAME.to_json(s) == before
            s = GAME.apply(s, seat, la.action).state


def test_is_legal_agrees_with_apply() -> None:
    s = clean()
    gold = put(s, 0, "gold")
    with pytest.raises(IllegalAction):
        act(s, 0, "play", card=gold, card2=gold)

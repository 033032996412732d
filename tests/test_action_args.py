"""Typed reads of an action's arguments (`Action.text`, `Action.number`) and its JSON form."""

from __future__ import annotations

import pytest

from rules.base import Action


def test_text_and_number_read_arguments_of_their_type() -> None:
    action = Action.of("attack", target="p1", amount=3)
    assert action.text("target") == "p1"
    assert action.number("amount") == 3


@pytest.mark.parametrize(("name", "read"), [("amount", "text"), ("target", "number"), ("flag", "number"),
                                            ("cards", "text"), ("cards", "number")])
def test_a_read_of_the_wrong_type_is_refused(name: str, read: str) -> None:
    action = Action.of("attack", target="p1", amount=3, flag=True, cards=["a", "b"])
    with pytest.raises(TypeError):
        getattr(action, read)(name)


def test_a_missing_argument_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        Action.of("end_turn").text("card")
    with pytest.raises(KeyError):
        Action.of("end_turn").number("amount")


def test_json_round_trip_keeps_types() -> None:
    action = Action.of("pick", card="c001", amount=2, sure=False, cards=["a", "b"])
    data = action.to_json()
    assert data == {"kind": "pick", "args": {"amount": 2, "card": "c001", "cards": ["a", "b"], "sure": False}}
    assert Action.from_json(data) == action


@pytest.mark.parametrize("data", [{"args": {}}, {"kind": 3}, {"kind": "x", "args": []},
                                  {"kind": "x", "args": {"a": {"b": 1}}}, {"kind": "x", "args": {"a": [1.5]}}])
def test_malformed_json_is_refused(data: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Action.from_json(data)

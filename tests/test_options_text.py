"""`options:` as people type it: spaces or commas between options, commas inside a list value."""

from __future__ import annotations

import pytest

from cogs.lobby import parse_options
from rules.base import BadOptions


@pytest.mark.parametrize(("typed", "parsed"), [
    ("variant=hydra movement=2d6", {"variant": "hydra", "movement": "2d6"}),
    ("variant=hydra,movement=2d6", {"variant": "hydra", "movement": "2d6"}),
    ("heroes=barbarian,dwarf", {"heroes": "barbarian,dwarf"}),
    ("heroes=barbarian, dwarf target=7", {"heroes": "barbarian,dwarf", "target": "7"}),
])
def test_options_as_typed(typed: str, parsed: dict[str, str]) -> None:
    assert parse_options(typed) == parsed


def test_a_value_without_its_option_is_refused() -> None:
    with pytest.raises(BadOptions):
        parse_options("dwarf")

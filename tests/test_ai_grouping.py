"""The AIs weigh their options grouped by kind through one helper: kinds and moves keep the order listed."""

from __future__ import annotations

from rules.base import Action, LegalAction, by_kind
from rules.text import msg


def _legal(*tokens: tuple[str, int]) -> list[LegalAction]:
    return [LegalAction(Action.of(kind, n=n), msg("core.step.part")) for kind, n in tokens]


def test_moves_are_grouped_by_kind_in_the_order_listed() -> None:
    grouped = by_kind(_legal(("move", 1), ("buy", 2), ("move", 3), ("end", 0), ("buy", 4)))
    assert list(grouped) == ["move", "buy", "end"]
    assert [a["n"] for a in grouped["move"]] == [1, 3] and [a["n"] for a in grouped["buy"]] == [2, 4]


def test_kinds_left_out_are_dropped_and_nothing_listed_gives_nothing() -> None:
    grouped = by_kind(_legal(("trade", 1), ("move", 2), ("trade", 3)), leave_out=("trade",))
    assert list(grouped) == ["move"]
    assert by_kind([]) == {}

"""Texts around every game: plurals, names that read the same in both languages."""

from __future__ import annotations

import i18n
from cogs.delivery import choose_line
from table.service import _ai_name


def test_one_possible_action_is_singular_in_both_languages() -> None:
    assert i18n.t(choose_line(1), "en").startswith("You have 1 possible action:")
    assert i18n.t(choose_line(1), "es").startswith("Tienes 1 acción posible:")
    assert "3 possible actions" in i18n.t(choose_line(3), "en")


def test_ai_seat_names_read_the_same_in_spanish_and_english() -> None:
    names = [_ai_name(i) for i in range(30)]
    assert len(set(names)) == 30, "every AI seat has its own name, however many there are"
    assert all(name.endswith("(bot)") and "(IA)" not in name and "(AI)" not in name for name in names)

"""A command's pictures are drawn while its words are written and sent: their drawing starts before the first word
leaves (the words still go first, tests/e2e/test_answer_before_image.py), so the last picture arrives about one
drawing after the command, not one drawing after its last words."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

import pytest

from cogs import delivery
from standin.inprocess import InProcessDiscord
from standin.world import is_error_output
from tests.e2e.games import bot_world, hero_realms_for_two

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
P = ParamSpec("P")
T = TypeVar("T")


@pytest.fixture
async def d(tmp_path, monkeypatch):
    async for world in bot_world(tmp_path, monkeypatch, 11):
        yield world


async def test_every_picture_of_a_turn_that_ends_is_started_before_its_first_word(d: InProcessDiscord,
                                                                                   monkeypatch) -> None:
    on_turn = await hero_realms_for_two(d, second_locale="es-ES")

    started: list[tuple[str, int]] = []  # (which picture, how many outputs existed when its drawing started)

    def recorded(name: str, draw: Callable[P, T]) -> Callable[P, T]:
        def start(*args: P.args, **kwargs: P.kwargs) -> T:
            started.append((name, len(d.world.outputs)))
            return draw(*args, **kwargs)
        return start

    monkeypatch.setattr(delivery, "board_png", recorded("board", delivery.board_png))
    monkeypatch.setattr(delivery, "private_png", recorded("private", delivery.private_png))
    before = len(d.world.outputs)
    out = await d.command(on_turn, "/hr end")
    assert not [o.text() for o in out if is_error_output(o)]
    kinds = {o.kind for o in out}
    assert {"channel", "ephemeral", "dm"} <= kinds, kinds  # a new turn's post, the answer, the next player's DM
    names = [name for name, _ in started]
    # the board, the acting person's picture and the next player's private picture (the DM's)
    assert names.count("board") == 1 and names.count("private") == 2, started
    assert all(outputs == before for _, outputs in started), f"a drawing waited for words: {started}"
    for kind in ("channel", "ephemeral", "dm"):  # every picture reaches its own message (with or after its words)
        first = next(o for o in out if o.kind == kind)
        assert d.world.messages[first.message_id].attachments, kind

"""Images follow their words: only the newest image waiting for a place is drawn, and one failure stops nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from cogs.late_images import LateImages


class Drawings:
    """Drawing functions that record what they drew and can be held until released."""

    def __init__(self) -> None:
        self.drawn: list[str] = []
        self.shown: list[str] = []
        self.hold = asyncio.Event()
        self.hold.set()

    def draw(self, name: str, *, fail: bool = False) -> Callable[[], Awaitable[bytes]]:
        async def run() -> bytes:
            self.drawn.append(name)
            await self.hold.wait()
            if fail:
                raise RuntimeError("the renderer broke")
            return name.encode()
        return run

    async def show(self, png: bytes) -> None:
        self.shown.append(png.decode())


async def test_only_the_newest_waiting_image_is_drawn_and_a_stale_one_is_not_shown() -> None:
    late, d = LateImages(), Drawings()
    d.hold.clear()
    late.submit("live", d.draw("move 1"), d.show)
    await asyncio.sleep(0)  # move 1 is being drawn
    late.submit("live", d.draw("move 2"), d.show)
    late.submit("live", d.draw("move 3"), d.show)  # move 2 was never started: it is never drawn
    d.hold.set()
    await late.idle()
    assert d.drawn == ["move 1", "move 3"]
    assert d.shown == ["move 3"], "move 1 went stale while it was drawn, and the newest board is what stays"
    assert late.shown == 1 and late.skipped == 2


async def test_images_for_different_places_are_all_shown() -> None:
    late, d = LateImages(), Drawings()
    for place in ("channel A", "channel B", "ann's picture"):
        late.submit(place, d.draw(place), d.show)
    await late.idle()
    assert sorted(d.shown) == ["ann's picture", "channel A", "channel B"]


async def test_a_failed_drawing_stops_neither_the_next_one_nor_other_places() -> None:
    late, d = LateImages(), Drawings()
    late.submit("live", d.draw("broken", fail=True), d.show)
    late.submit("other", d.draw("other"), d.show)
    await late.idle()
    late.submit("live", d.draw("next move"), d.show)
    await late.idle()
    assert sorted(d.shown) == ["next move", "other"]
    assert late.busy() == 0


async def test_at_shutdown_a_drawing_in_time_is_shown_and_a_stuck_one_is_dropped() -> None:
    late, d = LateImages(), Drawings()
    late.submit("quick", d.draw("quick"), d.show)
    stuck = Drawings()
    stuck.hold.clear()
    late.submit("stuck", stuck.draw("stuck"), stuck.show)
    await late.finish(timeout=0.5)
    assert d.shown == ["quick"]
    assert stuck.drawn == ["stuck"] and stuck.shown == []
    assert late.busy() == 0


async def test_an_early_drawing_replaced_before_its_turn_is_cancelled() -> None:
    """Under load the drawing processes should draw what people will see: a board started early (`early`) whose
    job a newer board replaced is cancelled; the one being drawn and the newest are not."""
    late, d = LateImages(), Drawings()
    d.hold.clear()

    def started(name: str) -> asyncio.Task[bytes]:
        return asyncio.ensure_future(d.draw(name)())

    first, second, third = started("move 1"), started("move 2"), started("move 3")
    late.submit("live", lambda: first, d.show, started=first)
    await asyncio.sleep(0)  # move 1 is being drawn: its turn came, so it is never cancelled
    late.submit("live", lambda: second, d.show, started=second)
    late.submit("live", lambda: third, d.show, started=third)  # replaces move 2 before its turn
    await asyncio.sleep(0)
    assert second.cancelled() and not first.cancelled() and not third.done()
    d.hold.set()
    await late.idle()
    assert d.shown == ["move 3"] and third.result() == b"move 3"
    assert late.skipped == 2 and late.cancelled == 1

"""One live channel message per turn: posted when a wait begins, then edited in place as the turn goes on."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import i18n
from rules.text import Msg, msg

#: Lines of a turn's running summary shown in its message; older ones are counted and left to `/game log`.
SUMMARY_LINES = 10
#: Characters the summary may take, leaving room for the pings and the deadline under it.
SUMMARY_CHARS = 1500
#: Lines that say how something stands now (the lobby's seats): a newer one replaces the older in a summary.
STANDING = frozenset({"core.lobby.seats"})
#: Games whose live message this process remembers (the oldest are forgotten: their next turn posts anew).
KEPT = 5000


@dataclass
class LiveTurn:
    """The message that shows the current turn of one game, and everything said in it so far."""

    channel_id: int
    message: Any
    lines: list[Msg] = field(default_factory=list)
    #: The ping and deadline lines under the summary, already rendered (each in its reader's language).
    footer: str = ""

    def add(self, lines: list[Msg]) -> None:
        """The turn's new lines; one that says how something stands now replaces its older self."""
        for line in lines:
            if line.key in STANDING:
                self.lines = [old for old in self.lines if old.key != line.key]
            self.lines.append(line)


class LiveTurns:
    """The live message of every game this process delivers, with a lock per game so edits never cross.

    What it holds belongs to one event loop: messages and locks from a loop that has ended (a bot closed and
    started again in the same process) are dropped, never waited on."""

    def __init__(self, kept: int = KEPT) -> None:
        self._turns: OrderedDict[int, LiveTurn] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._kept = kept
        self._loop: asyncio.AbstractEventLoop | None = None

    def _here(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if loop is not self._loop:
            self._loop = loop
            self._turns.clear()
            self._locks.clear()

    def lock(self, game_id: int) -> asyncio.Lock:
        self._here()
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def get(self, game_id: int, channel_id: int) -> LiveTurn | None:
        self._here()
        turn = self._turns.get(game_id)
        return turn if turn is not None and turn.channel_id == channel_id else None

    def put(self, game_id: int, turn: LiveTurn) -> None:
        self._here()
        self._turns[game_id] = turn
        self._turns.move_to_end(game_id)
        while len(self._turns) > self._kept:
            old, _ = self._turns.popitem(last=False)
            if old in self._locks and not self._locks[old].locked():
                del self._locks[old]

    def forget(self, game_id: int) -> None:
        self._here()
        self._turns.pop(game_id, None)


def summary(lines: Sequence[Msg], lang: str, names: dict[int, str], *, limit: int = SUMMARY_LINES,
            chars: int = SUMMARY_CHARS) -> str:
    """A turn's lines in `lang`: repeats folded ("plays Gold (×3)"), the newest `limit` kept, the rest counted."""
    folded: list[tuple[str, int]] = []
    for line in lines:
        text = i18n.t(line, lang, lambda seat: names.get(seat, f"#{seat + 1}")).strip()
        if not text:
            continue
        if folded and folded[-1][0] == text:
            folded[-1] = (text, folded[-1][1] + 1)
        else:
            folded.append((text, 1))
    shown = [text if times == 1 else i18n.t(msg("bot.live.times", line=text, n=times), lang)
             for text, times in folded]
    hidden = max(0, len(shown) - limit)
    kept = shown[hidden:]
    while len(kept) > 1 and sum(len(x) + 1 for x in kept) > chars:
        kept.pop(0)
        hidden += 1
    if kept and len(kept[0]) > chars:
        kept[0] = kept[0][: chars - 1] + "…"
    if hidden:
        kept.insert(0, i18n.t(msg("bot.live.earlier", n=hidden), lang))
    return "\n".join(kept)

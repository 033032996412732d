"""Statistics and leaderboard images: a titled table of finished strings -> PNG bytes."""

from __future__ import annotations

from collections.abc import Sequence

from renderers import kit

TITLE, TEXT, ROW, PAD = 26, 18, 34, 18
MEDALS = (kit.PALETTE.gold, (0xC0, 0xC4, 0xCC), (0xCD, 0x7F, 0x32))


def render(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], *, ranked: bool = False) -> bytes:
    """A table image: `title`, a header row of `columns`, then `rows` (every cell already in the reader's
    language). With `ranked`, the first three rows get a gold, silver and bronze mark."""
    widths = [max([kit.text_width(c, TEXT) for c in [col, *(r[i] for r in rows)]] + [40]) + PAD
              for i, col in enumerate(columns)]
    width = max(PAD * 2 + sum(widths) + (28 if ranked else 0), kit.text_width(title, TITLE) + 2 * PAD, 420)
    height = PAD + kit.line_height(TITLE) + PAD + ROW * (len(rows) + 1) + PAD
    canvas = kit.Canvas(width, height)
    draw = canvas.draw
    kit.text(draw, (PAD, PAD), title, TITLE, bold=True)
    top = PAD * 2 + kit.line_height(TITLE)
    left = PAD + (28 if ranked else 0)
    draw.rectangle((PAD // 2, top, width - PAD // 2, top + ROW), fill=kit.PALETTE.panel_alt)
    x = left
    for col, w in zip(columns, widths, strict=True):
        kit.text(draw, (x, top + ROW // 2), col, TEXT, fill=kit.PALETTE.muted, anchor="lm", bold=True)
        x += w
    for n, row in enumerate(rows):
        y = top + ROW * (n + 1)
        if n % 2:
            draw.rectangle((PAD // 2, y, width - PAD // 2, y + ROW), fill=kit.PALETTE.panel)
        if ranked and n < len(MEDALS):
            draw.ellipse((PAD, y + ROW // 2 - 8, PAD + 16, y + ROW // 2 + 8), fill=MEDALS[n])
        x = left
        for cell, w in zip(row, widths, strict=True):
            kit.text(draw, (x, y + ROW // 2), cell, TEXT, anchor="lm", max_width=w - 6)
            x += w
    return canvas.png()

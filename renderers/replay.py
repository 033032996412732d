"""Replays as images: each frame a board drawn by its game's renderer, shrunk under a caption strip, reduced to one
shared palette and joined into an animated GIF (or WebP); pure."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image

import renderers
from renderers import kit

#: Discord's upload limit for a bot without boosts; an animation is made smaller until it fits.
MAX_BYTES = 8 * 1024 * 1024
#: The width frames are shrunk to: a board stays readable in Discord's inline player at this size.
FRAME_WIDTH = 720
CAPTION_HEIGHT = 30
CAPTION_SIZE = 18
#: How long each frame stays, by the `speed` a replay asks for (milliseconds); the last frame stays longer.
SPEEDS = {"slow": 2400, "normal": 1200, "fast": 600}
LAST_HOLD = 3
FORMATS = ("gif", "webp")


def with_names(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """Renderers draw players by name: views only know seats."""
    count = max(names, default=-1) + 1
    return {**view, "names": [names.get(i, f"P{i + 1}") for i in range(count)]}


def board(game_type: str, view: dict[str, Any], names: dict[int, str], lang: str) -> Image.Image:
    """The board of `view` as the game's renderer draws it, in RGB (a plain panel when it has no renderer)."""
    png = renderers.render_for(game_type, with_names(view, names), lang)
    if png is None:
        return Image.new("RGB", (FRAME_WIDTH, FRAME_WIDTH // 2), kit.PALETTE.background)
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def captioned(image: Image.Image, caption: str, width: int) -> Image.Image:
    """`image` shrunk to `width` (never enlarged) under a strip that says which turn it shows."""
    if image.width > width:
        height = max(1, round(image.height * width / image.width))
        image = image.resize((width, height), Image.Resampling.BOX, reducing_gap=2.0)
    out = Image.new("RGB", (image.width, image.height + CAPTION_HEIGHT), kit.PALETTE.panel)
    out.paste(image, (0, CAPTION_HEIGHT))
    canvas = kit.Canvas.from_image(out)
    kit.text(canvas.draw, (8, CAPTION_HEIGHT / 2), caption, CAPTION_SIZE, kit.PALETTE.ink, anchor="lm",
             max_width=image.width - 16, bold=True)
    return out


def still(game_type: str, view: dict[str, Any], names: dict[int, str], caption: str, lang: str) -> bytes:
    """One frame at full size as PNG (the step-through shows one turn at a time)."""
    image = captioned(board(game_type, view, names, lang), caption, 10_000)
    return kit.Canvas.from_image(image).png()


def animate(game_type: str, views: Sequence[dict[str, Any]], captions: Sequence[str], names: dict[int, str],
            lang: str, *, speed: str = "normal", fmt: str = "gif", width: int = FRAME_WIDTH) -> bytes:
    """The frames as one animation that loops; identical frames are merged into one that stays longer. Made
    narrower until it fits `MAX_BYTES`."""
    boards = [board(game_type, view, names, lang) for view in views]
    while True:
        data = encode([captioned(b, c, width) for b, c in zip(boards, captions, strict=True)],
                      SPEEDS.get(speed, SPEEDS["normal"]), fmt)
        if len(data) <= MAX_BYTES or width <= 240:
            return data
        width = width * 3 // 4


def encode(frames: Sequence[Image.Image], duration: int, fmt: str = "gif") -> bytes:
    """Frames on one shared palette (so unchanged pixels stay unchanged and the encoder stores only what moved),
    repeats dropped, as an animated GIF or WebP."""
    if not frames:
        raise ValueError("no frames")
    size = frames[0].size
    frames = [f if f.size == size else _fit(f, size) for f in frames]
    palette = _shared_palette(frames)
    kept: list[Image.Image] = []
    durations: list[int] = []
    previous = b""
    for frame in frames:
        reduced = frame.quantize(palette=palette, dither=Image.Dither.NONE)
        raw = reduced.tobytes()
        if kept and raw == previous:
            durations[-1] += duration
            continue
        kept.append(reduced)
        durations.append(duration)
        previous = raw
    durations[-1] = max(durations[-1], duration * LAST_HOLD)
    buf = io.BytesIO()
    if fmt == "webp":
        kept[0].save(buf, "WEBP", save_all=True, append_images=kept[1:], duration=durations, loop=0,
                     lossless=True, quality=60, method=4, minimize_size=True)
    else:
        if len(kept) == 1:  # a GIF of one frame would not animate: the frame is shown twice
            kept.append(kept[0].copy())
            durations = [durations[0], duration]
        kept[0].save(buf, "GIF", save_all=True, append_images=kept[1:], duration=durations, loop=0,
                     disposal=1, optimize=False)
    return buf.getvalue()


def _fit(frame: Image.Image, size: tuple[int, int]) -> Image.Image:
    """A frame of another size (a board that grew) placed on a canvas of the first frame's size."""
    out = Image.new("RGB", size, kit.PALETTE.background)
    out.paste(frame.crop((0, 0, min(size[0], frame.width), min(size[1], frame.height))), (0, 0))
    return out


def _shared_palette(frames: Sequence[Image.Image]) -> Image.Image:
    """One 256-colour palette for every frame, picked from the first, middle and last frames side by side."""
    picks = sorted({0, len(frames) // 2, len(frames) - 1})
    w, h = frames[0].size
    sheet = Image.new("RGB", (w // 2 * len(picks), h // 2))
    for i, index in enumerate(picks):
        sheet.paste(frames[index].resize((w // 2, h // 2), Image.Resampling.NEAREST), (i * (w // 2), 0))
    return sheet.quantize(colors=255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def is_animation(data: bytes) -> tuple[int, bool]:
    """(frames, animated) of an image, as Pillow reads it."""
    with Image.open(io.BytesIO(data)) as image:
        return int(getattr(image, "n_frames", 1)), bool(getattr(image, "is_animated", False))

"""Typed reads of an RGB picture's pixels for the renderer tests (Pillow types a pixel for every image mode)."""

from __future__ import annotations

from PIL import Image


def rgb(pixel: float | tuple[int, ...] | None) -> tuple[int, ...]:
    """A pixel of an RGB picture: a tuple of channels."""
    assert isinstance(pixel, tuple), pixel
    return pixel


def colours(img: Image.Image) -> list[tuple[int, ...]]:
    """Every colour of an RGB picture (up to 65,536 of them)."""
    return [rgb(colour) for _, colour in img.getcolors(1 << 16) or []]

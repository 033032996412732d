"""Encoding choices for board images, measured: time, bytes and fidelity per format on real boards of all games.

`python -m tools.image_formats [--boards 8] [--seed 1]` draws boards from random playouts of every game, keeps each
drawn RGB image and encodes it several ways: PNG after the 256-colour palette reduction (today's choice) at zlib
levels 1, 3, 6 and 9, PNG in full colour, WebP lossless and lossy. One JSON object: per format the encode
milliseconds p50 (palette reduction included where it applies), bytes p50 and PSNR against the drawn image (dB;
lossless = inf), and the load average (`os.getloadavg()`).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import time
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageChops, ImageStat

import renderers
from renderers import kit
from rules import registry
from tools.bench import engine_figures
from tools.load import percentile

GAMES = ("hero-realms", "heroquest", "gorgasali", "kings-armory", "guerra-de-indagar")


def _png(level: int, palette: bool) -> Callable[[Image.Image], bytes]:
    def encode(img: Image.Image) -> bytes:
        buf = io.BytesIO()
        (kit.to_palette(img) if palette else img).save(buf, "PNG", compress_level=level)
        return buf.getvalue()
    return encode


def _webp(lossless: bool, quality: int, method: int) -> Callable[[Image.Image], bytes]:
    def encode(img: Image.Image) -> bytes:
        buf = io.BytesIO()
        img.save(buf, "WEBP", lossless=lossless, quality=quality, method=method)
        return buf.getvalue()
    return encode


FORMATS: dict[str, Callable[[Image.Image], bytes]] = {
    "png_palette_z1": _png(1, True), "png_palette_z3 (today)": _png(3, True), "png_palette_z6": _png(6, True),
    "png_palette_z9": _png(9, True), "png_rgb_z1": _png(1, False), "png_rgb_z3": _png(3, False),
    "webp_lossless_m0": _webp(True, 0, 0), "webp_lossless_m4": _webp(True, 50, 4),
    "webp_q90_m4": _webp(False, 90, 4), "webp_q90_m0": _webp(False, 90, 0),
}


def psnr(drawn: Image.Image, data: bytes) -> float:
    decoded = Image.open(io.BytesIO(data)).convert("RGB")
    stat = ImageStat.Stat(ImageChops.difference(drawn, decoded))
    mse = sum(x * x for x in stat.rms) / 3
    return math.inf if mse == 0 else round(10 * math.log10(255 * 255 / mse), 1)


def drawn_boards(boards: int, seed: int) -> list[tuple[str, Image.Image]]:
    """(game, RGB image) of public boards from random playouts, captured as drawn, before any encoding."""
    captured: list[Image.Image] = []
    original = kit.Canvas.png

    def keep(self: kit.Canvas, *args: Any, **kwargs: Any) -> bytes:
        captured.append(self.image.convert("RGB"))
        return original(self, *args, **kwargs)

    kit.Canvas.png = keep  # type: ignore[method-assign]  # see each board as drawn, while measuring
    found: list[tuple[str, Image.Image]] = []
    try:
        for game_id in GAMES:
            game = registry.get(game_id)
            assert game is not None
            _, states = engine_figures(game, 400, seed)
            for state in states[:boards]:
                captured.clear()
                renderers.render_for(game_id, game.view(state, None), "es")
                found += [(game_id, img) for img in captured[-1:]]
    finally:
        kit.Canvas.png = original  # type: ignore[method-assign]  # put it back
    return found


def measure(boards: int, seed: int) -> dict[str, Any]:
    images = drawn_boards(boards, seed)
    result: dict[str, Any] = {"boards": len(images), "load_average": [round(x, 2) for x in os.getloadavg()]}
    for name, encode in FORMATS.items():
        times, sizes, fidelity = [], [], []
        for _, img in images:
            started = time.perf_counter()
            data = encode(img)
            times.append((time.perf_counter() - started) * 1000)
            sizes.append(len(data))
            fidelity.append(psnr(img, data))
        finite = [f for f in fidelity if f != math.inf]
        result[name] = {"encode_ms_p50": round(percentile(times, 50), 1),
                        "encode_ms_p99": round(percentile(times, 99), 1),
                        "bytes_p50": int(percentile(sizes, 50)),
                        "psnr_db_min": "lossless" if not finite else min(finite)}
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=8, help="boards per game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(measure(args.boards, args.seed)))


if __name__ == "__main__":
    main()

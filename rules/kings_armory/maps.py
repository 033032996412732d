"""Map definitions: the presets, custom map files, and the checks every map passes on load (§1.1.4, P-03)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import cast

from rules.base import BadOptions
from rules.kings_armory import data
from rules.kings_armory.shapes import MapFile, MapSpec, RouteStep
from rules.safe_text import clean_name, only_invisible
from rules.text import Msg, Param, msg

CUSTOM_DIR = data.DATA / "maps"
CUSTOM_PREFIX = "custom:"
EDGES = ("N", "S", "E", "W")
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
STEP = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}
MAX_TILES = 8  # the border pieces frame at most this many tiles a side digitally (the box frames 4×4)

Tile = tuple[int, int]


def custom_names() -> list[str]:
    return sorted(p.stem for p in CUSTOM_DIR.glob("*.json")) if CUSTOM_DIR.is_dir() else []


def spec(map_id: str) -> MapSpec:
    """The checked definition of a preset or of `custom:<name>` (a file under data/kings_armory/maps/)."""
    if map_id.startswith(CUSTOM_PREFIX):
        name = map_id[len(CUSTOM_PREFIX):]
        if name not in custom_names():
            raise BadOptions(msg("ka.map.unknown", name=name))
        try:
            raw = json.loads((CUSTOM_DIR / f"{name}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise BadOptions(msg("ka.map.invalid", name=name, problems=msg("ka.map.bad.json"))) from None
        return checked(raw, map_id)
    presets = data.maps()
    if map_id not in presets:
        raise BadOptions(msg("ka.map.unknown", name=map_id))
    return checked(presets[map_id], map_id)


def checked(raw: object, map_id: str) -> MapSpec:
    """`raw` with its id and tile size set, or BadOptions listing every problem found."""
    problems = problems_of(raw)
    if problems:
        raise BadOptions(msg("ka.map.invalid", name=map_id, problems=listing(problems)))
    spec = cast(MapFile, raw)  # a map file's JSON in which problems_of found nothing wrong
    return {**spec, "id": map_id, "tile_size": data.maps_file()["tile_size"],
            "split": bool(spec.get("yellow")), "length": spec.get("length") or _length(spec)}


def listing(items: Sequence[Param]) -> Msg:
    shown = {f"s{i}": m for i, m in enumerate(items[:5])}
    if len(items) <= 5:
        return Msg(f"core.list.{len(items)}", shown)
    return Msg("core.list.many", {**shown, "n": len(items) - 5})


def _length(raw: MapFile) -> str:
    """Long if the red route crosses 10 or more tiles (P-04)."""
    return "long" if len(raw["route"]) >= 10 else "short"


def _tile(step: RouteStep) -> Tile:
    return (int(step[0]), int(step[1]))


def _shape_problems(raw: object) -> list[Msg]:
    if not isinstance(raw, dict):
        return [msg("ka.map.bad.json")]
    out = []
    for key in ("tiles_w", "tiles_h"):
        value = raw.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= MAX_TILES:
            out.append(msg("ka.map.bad.size", field=key, high=MAX_TILES))
    for key in ("route", "yellow"):
        route = raw.get(key)
        if route is None and key == "yellow":
            continue
        if not isinstance(route, list) or not route or not all(
                isinstance(t, list) and len(t) == 4 and all(isinstance(v, int) and not isinstance(v, bool)
                                                            for v in t[:2]) and t[2] in EDGES and t[3] in EDGES
                for t in route):
            out.append(msg("ka.map.bad.route", field=key))
    if raw.get("length") not in (None, "long", "short"):
        out.append(msg("ka.map.bad.length"))
    return out


def problems_of(raw: object) -> list[Msg]:
    """Every reason this map cannot be played; empty when it can."""
    out = _shape_problems(raw)
    if out:
        return out
    spec = cast(MapFile, raw)  # _shape_problems found each field of the type a map file gives it
    w, h = spec["tiles_w"], spec["tiles_h"]
    routes = {"red": spec["route"], **({"yellow": yellow} if (yellow := spec.get("yellow")) else {})}
    for colour, route in routes.items():
        out += _route_problems(route, w, h, colour)
    if out:
        return out
    kinds: dict[Tile, set[tuple[str, str]]] = {}
    for route in routes.values():
        for r, c, entry, exit_ in route:
            kinds.setdefault((r, c), set()).add((entry, exit_))
    counts = {"straight": 0, "curve": 0, "t": 0}
    for tile, ways in kinds.items():
        edges = {e for way in ways for e in way}
        if len(ways) == 1:
            entry, exit_ = next(iter(ways))
            counts["straight" if OPPOSITE[entry] == exit_ else "curve"] += 1
        elif len(ways) == 2 and len(edges) == 3 and _is_t(ways):
            counts["t"] += 1
        else:
            out.append(msg("ka.map.bad.crossing", tile=_name(tile)))
    limits = data.maps_file()["inventory"]
    for kind, count in counts.items():
        if count > limits[kind]:
            out.append(msg("ka.map.bad.inventory", kind=msg(f"ka.map.tile.{kind}"), count=count, limit=limits[kind]))
    if "yellow" in routes:
        out += _split_problems(routes["red"], routes["yellow"])
    return out


def _is_t(ways: set[tuple[str, str]]) -> bool:
    """Two ways through one tile sharing the stem: a fork (same entry) or a merge (same exit) [A-02]."""
    (e1, x1), (e2, x2) = sorted(ways)
    return (e1 == e2 and x1 != x2) or (x1 == x2 and e1 != e2)


def _name(tile: Tile) -> str:
    return f"({tile[0]},{tile[1]})"


def _route_problems(route: Sequence[RouteStep], w: int, h: int, colour: str) -> list[Msg]:
    out: list[Msg] = []
    seen: set[Tile] = set()
    for k, (r, c, entry, exit_) in enumerate(route):
        tile = (r, c)
        if not (0 <= r < h and 0 <= c < w):
            out.append(msg("ka.map.bad.outside", tile=_name(tile), w=w, h=h))
            continue
        if entry == exit_:
            out.append(msg("ka.map.bad.same_edge", tile=_name(tile)))
        if tile in seen:
            out.append(msg("ka.map.bad.reused", tile=_name(tile), colour=msg(f"ka.map.colour.{colour}")))
        seen.add(tile)
        if k == 0 and _inside(tile, entry, w, h):
            out.append(msg("ka.map.bad.entrance", tile=_name(tile), edge=entry))
        if k == len(route) - 1 and _inside(tile, exit_, w, h):
            out.append(msg("ka.map.bad.exit", tile=_name(tile), edge=exit_))
        if k + 1 < len(route):
            nr, nc, nentry, _ = route[k + 1]
            dr, dc = STEP[exit_]
            if (nr, nc) != (r + dr, c + dc) or nentry != OPPOSITE[exit_]:
                out.append(msg("ka.map.bad.gap", tile=_name(tile), next=_name((nr, nc))))
    return out


def _inside(tile: Tile, edge: str, w: int, h: int) -> bool:
    dr, dc = STEP[edge]
    return 0 <= tile[0] + dr < h and 0 <= tile[1] + dc < w


def _split_problems(red: Sequence[RouteStep], yellow: Sequence[RouteStep]) -> list[Msg]:
    """The yellow route leaves the red one at a fork and rejoins it at a merge, sharing the rest [A-02]."""
    if red[0][:3] != yellow[0][:3] or red[-1][:2] != yellow[-1][:2] or red[-1][3] != yellow[-1][3]:
        return [msg("ka.map.bad.ends")]
    fork = 0
    while fork < min(len(red), len(yellow)) and red[fork] == yellow[fork]:
        fork += 1
    merge = 1
    while merge <= min(len(red), len(yellow)) and red[-merge] == yellow[-merge]:
        merge += 1
    red_mid, yellow_mid = red[fork:len(red) - merge + 1], yellow[fork:len(yellow) - merge + 1]
    if len(red_mid) < 2 or len(yellow_mid) < 2 or red_mid[0][:3] != yellow_mid[0][:3] \
            or red_mid[-1][:2] != yellow_mid[-1][:2] or red_mid[-1][3] != yellow_mid[-1][3]:
        return [msg("ka.map.bad.split")]
    inner_red = {_tile(t) for t in red_mid[1:-1]}
    inner_yellow = {_tile(t) for t in yellow_mid[1:-1]}
    if inner_red & inner_yellow or not inner_red or not inner_yellow:
        return [msg("ka.map.bad.split")]
    return []


def load_file(path: Path) -> MapSpec:
    """A custom map file, checked (tools and tests)."""
    return checked(json.loads(path.read_text(encoding="utf-8")), CUSTOM_PREFIX + path.stem)


# ---------------------------------------------------------------- maps attached to /game new

UPLOAD_PREFIX = "upload:"
#: Bytes a map file may have: a route over all 64 tiles of the largest grid takes about 2 KB.
MAX_UPLOAD_BYTES = 16_000
#: Characters of a map's name shown in the lobby and on the board.
MAX_NAME = 60
UPLOAD_KEYS = ("es", "en", "tiles_w", "tiles_h", "route", "yellow", "length")
#: Fields of the presets in maps.json that an upload may carry but that are worked out again (copied presets load).
IGNORED_KEYS = ("id", "split")


def from_upload(blob: bytes, filename: str) -> MapFile:
    """A map file attached to `/game new`: the checked map (only its known fields) with its names filled from the
    file name when it has none; BadOptions naming every problem and what would be valid otherwise."""
    stem = clean_name(Path(filename).stem, MAX_NAME) or "map"
    if len(blob) > MAX_UPLOAD_BYTES:
        raise _refused(stem, [msg("ka.map.bad.too_big", kb=MAX_UPLOAD_BYTES // 1000)])
    try:
        raw = json.loads(blob.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise _refused(stem, [msg("ka.map.bad.encoding")]) from None
    except json.JSONDecodeError as exc:
        raise _refused(stem, [msg("ka.map.bad.syntax", line=exc.lineno, column=exc.colno)]) from None
    except (ValueError, RecursionError):  # a number too long to read, or arrays nested thousands deep
        raise _refused(stem, [msg("ka.map.bad.json")]) from None
    if not isinstance(raw, dict):
        raise _refused(stem, [msg("ka.map.bad.json")])
    problems = [msg("ka.map.bad.key", field=str(k)[:30], valid=", ".join(UPLOAD_KEYS)) for k in raw
                if k not in UPLOAD_KEYS and k not in IGNORED_KEYS]
    for key in ("es", "en"):
        if key in raw and isinstance(raw[key], str) and only_invisible(raw[key]):
            problems.append(msg("ka.map.bad.name_invisible", field=key))
        elif key in raw and (not isinstance(raw[key], str)
                             or not 0 < len(clean_name(raw[key], MAX_NAME + 1)) <= MAX_NAME):
            problems.append(msg("ka.map.bad.name", field=key, high=MAX_NAME))
    problems += problems_of(raw)
    if problems:
        raise _refused(_shown_name(raw, stem), problems)
    spec = cast(MapFile, {k: raw[k] for k in UPLOAD_KEYS if k in raw})  # problems_of found nothing wrong with it
    spec["es"], spec["en"] = (clean_name(str(raw.get("es") or raw.get("en") or stem), MAX_NAME),
                              clean_name(str(raw.get("en") or raw.get("es") or stem), MAX_NAME))
    return spec


def upload_id(spec: MapFile) -> str:
    """The id of an uploaded map: named by its content, so equal files share one board."""
    canonical = json.dumps(spec, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return UPLOAD_PREFIX + hashlib.sha256(canonical.encode()).hexdigest()[:12]


def _shown_name(raw: Mapping[str, object], stem: str) -> str:
    for key in ("en", "es"):
        name = raw.get(key)
        if isinstance(name, str) and clean_name(name, MAX_NAME):
            return clean_name(name, MAX_NAME)
    return stem


def _refused(name: str, problems: list[Msg]) -> BadOptions:
    return BadOptions(msg("ka.map.upload_invalid", name=name, problems=listing(problems)))

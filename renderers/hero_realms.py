"""Hero Realms table and hand images drawn from the engine's views (public and per seat)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image

import i18n
from renderers import kit
from renderers.kit import PALETTE, Box, Canvas, Color, Glyph, Token
from rules.hero_realms.cards import CardDef, cards
from rules.hero_realms.variants import VARIANTS
from rules.text import Msg

WIDTH = 1400
MARGIN = 24
GAP = 14
CARD_W, CARD_H = 204, 292
#: The public table's smallest words (titles, tags, chips, the log) stay at least this big: the image is
#: often seen about 400 px wide, on a phone.
LABEL = 20
LOG_LH = 30
LOG_LINES = 5

ABILITY_ORDER = ("primary", "expend", "ally", "sacrifice")
POOL_ICON = {"gold": ("coin", PALETTE.gold), "combat": ("sword", PALETTE.combat), "health": ("heart", PALETTE.health)}


# ---------------------------------------------------------------- reading the view


@dataclass
class Champion:
    card: CardDef | None
    expended: bool = False
    damage: int = 0


@dataclass
class Seat:
    seat: int
    name: str
    health: int | None
    deck: int
    hand: int
    discard: int
    champions: list[Champion]
    played: list[CardDef | None]
    gold: int
    combat: int
    eliminated: bool
    team: int | None
    role: str
    guarded: bool = False
    waiting: bool = False
    hand_cards: list[CardDef | None] = field(default_factory=list)


@dataclass
class Table:
    seats: list[Seat]
    market: list[CardDef | None]
    market_deck: int
    gems: int
    sacrificed: int
    active: list[int]
    turn_no: int | None
    to_act: list[int]
    log: list[Any]
    winners: list[int] | None
    team_health: dict[int, int]
    variant: str
    viewer: int | None


def _card(ref: Any) -> CardDef | None:
    """A card reference in a view: a key, an {"key"/"card": key} object, or None for an empty slot."""
    if isinstance(ref, Mapping):
        ref = ref.get("key", ref.get("card"))
    if not isinstance(ref, str):
        return None
    return cards().get(ref)


def _count(value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, (list, tuple)):
        return len(value)
    if isinstance(value, Mapping):
        return _count(value.get("count", value.get("size", 0)))
    return 0


def _first(d: Mapping[str, Any], *keys: str, default: Any = None) -> Any:
    for k in keys:
        if k in d and d[k] is not None:
            return d[k]
    return default


def _seat_default(seat: int, lang: str) -> str:
    return i18n.tk("render.hr.seat", lang, n=seat + 1)


def read_view(view: Mapping[str, Any], lang: str) -> Table:
    """Normalise an engine view into the few facts the images show."""
    raw_players = list(view.get("players", []))
    names = view.get("names") or view.get("seat_names") or []
    health_list = view.get("health")
    pool_of = view.get("pool_of")
    team_of = view.get("team_of")
    seats: list[Seat] = []
    for i, p in enumerate(raw_players):
        seat = int(p.get("seat", i))
        name = p.get("name") or (names[seat] if seat < len(names) and names[seat] else None)
        health = p.get("health")
        if health is None and isinstance(health_list, list):
            pool = pool_of[seat] if isinstance(pool_of, list) and seat < len(pool_of) else seat
            health = health_list[pool] if pool < len(health_list) else None
        champs = []
        for c in p.get("champions", []):
            if isinstance(c, Mapping):
                champs.append(Champion(_card(c), bool(c.get("expended", False)), int(c.get("damage", 0) or 0)))
            else:
                expended = set(p.get("expended", []))
                champs.append(Champion(_card(c), c in expended))
        team = p.get("team")
        if team is None and isinstance(team_of, list) and seat < len(team_of):
            team = team_of[seat]
        hand = p.get("hand", 0)
        seats.append(
            Seat(
                seat=seat,
                name=str(name) if name else _seat_default(seat, lang),
                health=None if health is None else max(0, int(health)),
                deck=_count(_first(p, "deck", "deck_size", default=0)),
                hand=_count(_first(p, "hand_size", "hand_count", default=hand)),
                discard=_count(_first(p, "discard_count", "discard_size", "discard", default=0)),
                champions=champs,
                played=[_card(c) for c in _first(p, "in_play", "played", default=[])],
                guarded=bool(p.get("protected", p.get("guarded", False))),
                waiting=bool(p.get("waiting", False)),
                gold=int(p.get("gold", 0) or 0),
                combat=int(p.get("combat", 0) or 0),
                eliminated=bool(p.get("eliminated", False)),
                team=None if team is None else int(team),
                role=str(p.get("role", "player")),
                hand_cards=[_card(c) for c in hand] if isinstance(hand, list) else [],
            )
        )
    variant = str(view.get("variant", ""))
    own_hand = view.get("hand")
    viewer = view.get("viewer", view.get("seat"))
    if isinstance(own_hand, list) and isinstance(viewer, int):
        for s in seats:
            if s.seat == viewer:
                s.hand_cards = [_card(c) for c in own_hand]
    team_health: dict[int, int] = {}
    if variant in VARIANTS and VARIANTS[variant].shared_health:
        for s in seats:
            if s.team is not None and s.health is not None:
                team_health.setdefault(s.team, s.health)
    active = view.get("active", [])
    if isinstance(active, int):
        active = [active]
    turn_no = view.get("turn_no", view.get("turn"))
    winners = view.get("winners")
    return Table(
        seats=seats,
        market=[_card(c) for c in view.get("market", [])],
        market_deck=_count(view.get("market_deck", 0)),
        gems=_count(view.get("gems", 0)),
        sacrificed=_count(view.get("sacrificed", 0)),
        active=[int(a) for a in active or []],
        turn_no=turn_no if isinstance(turn_no, int) else None,
        to_act=[int(a) for a in view.get("to_act", active or [])],
        log=list(view.get("log", [])),
        winners=None if winners is None else [int(w) for w in winners],
        team_health=team_health,
        variant=variant,
        viewer=viewer if isinstance(viewer, int) else None,
    )


def _namer(table: Table, lang: str):
    by_seat = {s.seat: s.name for s in table.seats}
    return lambda seat: by_seat.get(seat, _seat_default(seat, lang))


def _log_lines(table: Table, lang: str) -> list[str]:
    namer = _namer(table, lang)
    out: list[str] = []
    for entry in table.log[-LOG_LINES:]:
        if isinstance(entry, Mapping) and "key" in entry:
            out.append(i18n.t(Msg.from_json(entry), lang, namer))
        elif isinstance(entry, Mapping) and "msg" in entry:
            out.append(i18n.t(Msg.from_json(entry["msg"]), lang, namer))
        elif isinstance(entry, str):
            out.append(entry)
    return out


# ---------------------------------------------------------------- card text as icons and words


def _name(card: CardDef, lang: str) -> str:
    return card.name_es if lang == "es" else card.name_en


def _tr(key: str, lang: str, **params: Any) -> str:
    return i18n.tk(key, lang, **params)


def _gain_tokens(gain: Mapping[str, int]) -> list[Token]:
    ((pool, amount),) = gain.items()
    name, color = POOL_ICON[pool]
    return [Glyph(name, color), str(amount)]


def effect_tokens(eff: Mapping[str, Any], lang: str) -> list[Token]:
    """One effect of the card DSL (data/hero_realms/NOTES.md) in short form: icons and a few words."""
    ((name, arg),) = eff.items()
    if name in POOL_ICON:
        return _gain_tokens({name: arg})
    if name == "draw":
        return [Glyph("draw", PALETTE.info), str(arg)]
    if name == "choose":
        out: list[Token] = []
        for i, option in enumerate(arg):
            if i:
                out.append(" " + _tr("render.hr.fx.or", lang) + " ")
            for e in option:
                out += effect_tokens(e, lang)
        return out
    if name == "stun_target_champion":
        key = "render.hr.fx.stun_optional" if arg.get("optional") else "render.hr.fx.stun"
        return [Glyph("champion", PALETTE.danger), _tr(key, lang)]
    if name == "prepare_champion":
        return [Glyph("champion", PALETTE.ok), _tr("render.hr.fx.prepare", lang)]
    if name == "discard_to_top":
        champion_only = arg.get("filter") == "champion"
        key = "render.hr.fx.discard_champion_to_top" if champion_only else "render.hr.fx.discard_to_top"
        return [Glyph("discard", PALETTE.muted), _tr(key, lang)]
    if name == "draw_then_discard":
        n = arg.get("up_to", arg.get("count"))
        key = "render.hr.fx.draw_discard_up_to" if "up_to" in arg else "render.hr.fx.draw_discard"
        return [Glyph("draw", PALETTE.info), _tr(key, lang, n=n)]
    if name == "opponent_discards":
        return [Glyph("hand", PALETTE.danger), _tr("render.hr.fx.opponent_discards", lang, n=arg)]
    if name == "sacrifice_from_hand_or_discard":
        label = _tr("render.hr.fx.sacrifice_cards", lang, n=arg["up_to"])
        out = [Glyph("sacrifice", PALETTE.muted), label + ":" if arg.get("bonus") else label]
        if arg.get("bonus"):
            for e in arg["bonus"]:
                out += effect_tokens(e, lang)
        return out
    if name in ("next_action_to_top", "next_acquired_to_top", "next_acquired_to_hand"):
        return [Glyph("deck", PALETTE.info), _tr(f"render.hr.fx.{name}", lang)]
    if name in ("per_champion", "per_other_champion", "per_other_guard"):
        return [*_gain_tokens(arg), " " + _tr(f"render.hr.fx.{name}", lang)]
    if name == "per_faction_in_play":
        faction = arg["faction"]
        key = "render.hr.fx.per_other_faction" if arg["other"] else "render.hr.fx.per_faction"
        return [*_gain_tokens(arg["gain"]), " " + _tr(key, lang) + " ", Glyph(kit.faction_glyph(faction),
                                                                              PALETTE.faction(faction))]
    return [name]


def ability_tokens(card: CardDef, kind: str, lang: str) -> list[Token]:
    out: list[Token] = []
    for eff in card.abilities.get(kind, ()):
        if out:
            out.append(" ")
        out += effect_tokens(eff, lang)
    return out


def _type_line(card: CardDef, lang: str) -> str:
    parts = [_tr(f"render.hr.type.{card.type}", lang)]
    for sub in card.subtypes:
        key = f"hr.subtype.{sub}"
        parts.append(i18n.tk(key, lang) if i18n.has(key, lang) else sub.capitalize())
    return " · ".join(parts)


# ---------------------------------------------------------------- one card


def draw_card(c: Canvas, box: Box, card: CardDef | None, lang: str) -> None:
    """A market or hand card: faction band with glyph and name, cost coin, type line, abilities,
    defense shield and guard marker."""
    d = c.draw
    if card is None:
        d.rounded_rectangle(box.rect, radius=12, outline=PALETTE.line, width=2)
        kit.text(d, (box.center[0], box.center[1]), "—", 28, PALETTE.muted, anchor="mm")
        return
    if cards().get(card.key) is not card:  # a card from elsewhere (a test's): its key may not say what it shows
        _paint_card(c, box, card, lang)
        return
    face = _card_face(card.key, lang, box.w, box.h)
    c.image.paste(face, (box.x, box.y), face)


@lru_cache(maxsize=192)  # ~230 KB each; the 59 shipped cards in both languages fill 118
def _card_face(key: str, lang: str, w: int, h: int) -> Image.Image:
    """A shipped card drawn once on a transparent tile (shared: paste it, never draw on it). Only the
    corners outside the rounded body stay transparent, so pasting it is the same as drawing it."""
    tile = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    _paint_card(Canvas.from_image(tile), Box(0, 0, w, h), cards()[key], lang)
    return tile


def _paint_card(c: Canvas, box: Box, card: CardDef, lang: str) -> None:
    d = c.draw
    accent = PALETTE.faction(card.faction)
    scale = box.w / CARD_W
    header_h = round(62 * scale)
    d.rounded_rectangle(box.rect, radius=round(12 * scale), fill=PALETTE.panel_alt, outline=accent,
                        width=max(2, round(3 * scale)))
    head = Box(box.x, box.y, box.w, header_h)
    d.rounded_rectangle(head.rect, radius=round(12 * scale), fill=accent)
    d.rectangle(Box(box.x, box.y + header_h // 2, box.w, header_h - header_h // 2).rect, fill=accent)
    ink = kit.ink_on(accent)
    # faction glyph at left, cost coin at right, the name wrapped between them
    g = round(24 * scale)
    kit.icon(d, kit.faction_glyph(card.faction), Box(box.x + round(8 * scale), box.y + (header_h - g) // 2, g, g), ink)
    coin_d = round(38 * scale)
    coin = Box(box.x2 - coin_d - round(6 * scale), box.y + (header_h - coin_d) // 2, coin_d, coin_d)
    d.ellipse(coin.rect, fill=PALETTE.gold, outline=PALETTE.dark_ink, width=max(1, round(2 * scale)))
    kit.text(d, coin.center, str(card.cost), round(22 * scale), PALETTE.dark_ink, anchor="mm", bold=True)
    name_box = Box(box.x + g + round(14 * scale), box.y + 2, coin.x - box.x - g - round(18 * scale), header_h - 4)
    _fit_name(c, name_box, _name(card, lang), ink, round(17 * scale))
    body = Box(box.x, box.y + header_h, box.w, box.h - header_h).inset(round(9 * scale), round(6 * scale))
    type_size = round(13 * scale)
    kit.text(d, (body.x, body.y), _type_line(card, lang), type_size, PALETTE.muted, max_width=body.w)
    y = body.y + kit.line_height(type_size) + round(4 * scale)
    footer_h = round(44 * scale) if card.champion else 0
    text_size = round(19 * scale)
    gutter = round(24 * scale)
    bottom = body.y2 - footer_h
    for kind in ABILITY_ORDER:
        if kind not in card.abilities:
            continue
        d.line([(body.x, y), (body.x2, y)], fill=PALETTE.line, width=1)
        y += round(5 * scale)
        tokens = ability_tokens(card, kind, lang)
        area = Box(body.x + gutter, y, body.w - gutter, max(0, bottom - y))
        used = kit.flow(None, area, tokens, text_size)
        marker = Box(body.x, y + round(2 * scale), round(18 * scale), round(18 * scale))
        if kind == "ally":
            kit.icon(d, kit.faction_glyph(card.faction), marker, accent)
        elif kind == "expend":
            kit.icon(d, "expend", marker, PALETTE.ink)
        elif kind == "sacrifice":
            kit.icon(d, "sacrifice", marker, PALETTE.ink)
        else:
            d.ellipse(marker.centered(marker.w // 3, marker.w // 3).rect, fill=PALETTE.muted)
        kit.flow(d, area, tokens, text_size)
        y += min(used, area.h) + round(6 * scale)
    if card.champion:
        _defense(d, Box(body.x, body.y2 - footer_h + round(4 * scale), body.w, footer_h - round(4 * scale)),
                 card.defense, card.guard, lang, scale)


def _fit_name(c: Canvas, box: Box, name: str, ink: Color, size: int) -> None:
    """The card name in up to two lines, shrinking a little before it would be cut."""
    for s in (size, size - 2, size - 3):
        lines = kit.wrap(name, s, box.w)
        if len(lines) <= 2 and all(kit.text_width(line, s) <= box.w for line in lines):
            break
    lines = lines[:2]
    lh = kit.line_height(s)
    top = box.y + (box.h - lh * len(lines)) // 2
    for i, line in enumerate(lines):
        kit.text(c.draw, (box.x, top + i * lh), line, s, ink, max_width=box.w, bold=True)


def _shield_value(d: Any, box: Box, value: int, guard: bool, size: int, hurt: bool = False) -> None:
    """A solid shield with the defense on it: white for guards, grey otherwise."""
    fill = PALETTE.ink if guard else PALETTE.muted
    kit.icon(d, "badge", box, fill)
    ink = PALETTE.combat if hurt else PALETTE.dark_ink
    kit.text(d, (box.center[0], box.center[1] - size // 8), str(value), size, ink, anchor="mm", bold=True)


def _guard_pill(d: Any, box: Box, lang: str, size: int) -> None:
    d.rounded_rectangle(box.rect, radius=box.h // 2, fill=PALETTE.ink)
    kit.text(d, box.center, _tr("render.hr.guard", lang), size, PALETTE.dark_ink, anchor="mm", max_width=box.w - 6,
             bold=True)


def _defense(d: Any, box: Box, defense: int, guard: bool, lang: str, scale: float) -> None:
    """The defense shield and, for guards, the word "Guard" (the shield colour is not the only cue)."""
    side = box.h
    _shield_value(d, Box(box.x, box.y, side, side), defense, guard, round(side * 0.48))
    if guard:
        size = max(10, round(side * 0.4))
        x = box.x + side + round(8 * scale)
        w = min(box.x2 - x, kit.text_width(_tr("render.hr.guard", lang), size) + round(20 * scale))
        h = round(side * 0.66)
        _guard_pill(d, Box(x, box.y + (side - h) // 2, w, h), lang, size)


def draw_champion(c: Canvas, box: Box, champ: Champion, lang: str) -> None:
    """A champion in play as a small card: name, every ability in icons and words, defense left, guard;
    an expended one is dimmed and marked with the expend icon (the word is in the section title)."""
    card = champ.card
    if card is None:
        c.draw.rounded_rectangle(box.rect, radius=8, outline=PALETTE.line, width=2)
        return
    if cards().get(card.key) is card:
        face = _tile_face(card.key, lang, box.w, box.h)
    else:  # a card from elsewhere (a test's): its key may not say what it shows
        tile = Image.new("RGBA", (box.w, box.h), (0, 0, 0, 0))
        _paint_tile(Canvas.from_image(tile), Box(0, 0, box.w, box.h), card, lang)
        face = tile
    if champ.expended:
        dim = Image.new("RGBA", face.size, (*PALETTE.background, 255))
        face = Image.composite(Image.blend(face, dim, 0.45), face.copy(), face)
    c.image.paste(face, (box.x, box.y), face)
    d = c.draw
    foot = Box(box.x + 6, box.y2 - TILE_FOOT, box.w - 12, TILE_FOOT - 6)
    left = max(0, (card.defense or 0) - champ.damage)
    _shield_value(d, Box(foot.x, foot.y, foot.h, foot.h), left, card.guard, 19, hurt=champ.damage > 0)
    badge = Box(foot.x2 - foot.h + 4, foot.y + 2, foot.h - 4, foot.h - 4)
    if card.guard:
        room = (badge.x - 4 if champ.expended else foot.x2) - (foot.x + foot.h + 4)
        pb = Box(foot.x + foot.h + 4, foot.y + 5, min(room, 84), foot.h - 10)
        word = _tr("render.hr.guard", lang)
        _guard_pill(d, pb, lang, next((sz for sz in (16, 14, 12, 11, 10) if kit.text_width(word, sz) <= pb.w - 8), 10))
    if champ.expended:
        d.ellipse(badge.rect, fill=PALETTE.ink)
        kit.icon(d, "expend", badge.inset(4), PALETTE.dark_ink)


TILE_HEAD = 46
TILE_FOOT = 40
TILE_GUTTER = 17
TILE_MIN, TILE_MAX = 118, 190


@lru_cache(maxsize=256)
def _tile_face(key: str, lang: str, w: int, h: int) -> Image.Image:
    """A shipped champion's tile without its footer (shared: paste it, never draw on it)."""
    tile = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    _paint_tile(Canvas.from_image(tile), Box(0, 0, w, h), cards()[key], lang)
    return tile


def tile_height(card: CardDef | None, w: int, lang: str) -> int:
    """How tall a champion's tile must be to show its abilities at the usual text size."""
    if card is None:
        return TILE_MIN
    body = sum(kit.flow(None, Box(0, 0, w - 10 - TILE_GUTTER, 10_000), ability_tokens(card, k, lang), 13) + 4
               for k in ABILITY_ORDER if k in card.abilities)
    return max(TILE_MIN, min(TILE_MAX, TILE_HEAD + 3 + body + 4 + TILE_FOOT))


def _paint_tile(c: Canvas, box: Box, card: CardDef, lang: str) -> None:
    d = c.draw
    accent = PALETTE.faction(card.faction)
    d.rounded_rectangle(box.rect, radius=8, fill=PALETTE.panel_alt, outline=accent, width=2)
    head = Box(box.x, box.y, box.w, TILE_HEAD)
    d.rounded_rectangle(head.rect, radius=8, fill=accent)
    d.rectangle(Box(box.x, box.y + TILE_HEAD // 2, box.w, TILE_HEAD - TILE_HEAD // 2).rect, fill=accent)
    ink = kit.ink_on(accent)
    kit.icon(d, kit.faction_glyph(card.faction), Box(box.x + 5, box.y + (TILE_HEAD - 18) // 2, 18, 18), ink)
    _fit_name(c, Box(box.x + 27, box.y + 1, box.w - 32, TILE_HEAD - 2), _name(card, lang), ink, 18)
    body = Box(box.x + 5, box.y + TILE_HEAD + 3, box.w - 10, box.h - TILE_HEAD - TILE_FOOT - 4)
    kinds = [k for k in ABILITY_ORDER if k in card.abilities]
    gutter = TILE_GUTTER
    for size in (13, 12, 11, 10):
        needed = sum(kit.flow(None, Box(0, 0, body.w - gutter, 10_000), ability_tokens(card, k, lang), size) + 4
                     for k in kinds)
        if needed <= body.h:
            break
    y = body.y
    for kind in kinds:
        tokens = ability_tokens(card, kind, lang)
        area = Box(body.x + gutter, y, body.w - gutter, max(0, body.y2 - y))
        marker = Box(body.x, y + 1, 14, 14)
        if kind == "ally":
            kit.icon(d, kit.faction_glyph(card.faction), marker, accent)
        elif kind in ("expend", "sacrifice"):
            kit.icon(d, kind, marker, PALETTE.ink)
        else:
            d.ellipse(marker.centered(5, 5).rect, fill=PALETTE.muted)
        used = kit.flow(d, area, tokens, size)
        y += min(used, area.h) + 4


# ---------------------------------------------------------------- the table

TILE_GAP = 8
CHIP_H = 32
TAGS_H = 26
PANEL_PAD_X, PANEL_PAD_Y = 14, 12


@dataclass
class _PanelLayout:
    """Where things go in one player's panel; the same numbers measure it and draw it."""

    tile_w: int
    tile_h: int
    per_row: int
    tile_rows: int
    chips: list[list[tuple[CardDef, int]]]
    pools: bool
    height: int


def _chip_width(card: CardDef, lang: str) -> int:
    return CHIP_H + 2 + kit.text_width(_name(card, lang), LABEL) + 16


def _panel_layout(seat: Seat, table: Table, inner_w: int, lang: str) -> _PanelLayout:
    per_row = 4 if inner_w >= 560 else 3
    tile_w = (inner_w - (per_row - 1) * TILE_GAP) // per_row
    tile_rows = -(-len(seat.champions) // per_row)
    tile_h = max((tile_height(ch.card, tile_w, lang) for ch in seat.champions), default=TILE_MIN)
    chips: list[list[tuple[CardDef, int]]] = []
    x = inner_w + 1
    for card in seat.played:
        if card is None:
            continue
        w = min(inner_w, _chip_width(card, lang))
        if x + w > inner_w:
            chips.append([])
            x = 0
        chips[-1].append((card, w))
        x += w + 6
    is_active = seat.seat in table.active and table.winners is None
    pools = bool(is_active or seat.gold or seat.combat)
    height = PANEL_PAD_Y + 40 + 8 + TAGS_H + 6 + 34 + 10 + ((34 + 10) if pools else 0)
    height += TAGS_H + 4 + (tile_rows * tile_h + (tile_rows - 1) * TILE_GAP if tile_rows else 30)
    if chips:
        height += 12 + TAGS_H + 4 + len(chips) * CHIP_H + (len(chips) - 1) * 6
    height += PANEL_PAD_Y
    return _PanelLayout(tile_w, tile_h, per_row, tile_rows, chips, pools, height)


#: What a render drew and where: (kind, which, box, words), for tests and layout checks.
Trace = list[tuple[str, Any, Box, str]]


def render(view: dict[str, Any], lang: str, trace: Trace | None = None) -> bytes:
    """The public table image: market, gems, every player's health, piles, every champion in play with
    its abilities, the cards played this turn, the acting players' pools and the latest events. Never
    shows a hand (the public view has none). `trace`, when given, receives every panel, pile, health
    figure, champion and played card drawn, with its box."""
    table = read_view(view, lang)
    n = max(1, len(table.seats))
    cols = n if n <= 3 else (2 if n == 4 else 3)
    header_h = 70
    market_h = 36 + CARD_H
    log_h = 44 + LOG_LINES * LOG_LH
    panel_w = (WIDTH - 2 * MARGIN - (cols - 1) * GAP) // cols
    inner_w = panel_w - 2 * PANEL_PAD_X
    layouts = [_panel_layout(seat, table, inner_w, lang) for seat in table.seats]
    rows = [list(range(i, min(i + cols, n))) for i in range(0, len(table.seats), cols)]
    row_heights = [max(layouts[i].height for i in row) for row in rows]
    players_h = sum(row_heights) + GAP * max(0, len(rows) - 1)
    height = MARGIN + header_h + GAP + market_h + GAP * 2 + players_h + GAP * 2 + log_h + MARGIN
    c = Canvas(WIDTH, height)
    content = c.box.inset(MARGIN)
    head, rest = content.cut_top(header_h, GAP)
    _header(c, head, table, lang)
    market, rest = rest.cut_top(market_h, GAP * 2)
    _market(c, market, table, lang)
    players, rest = rest.cut_top(players_h, GAP * 2)
    y = players.y
    for row, row_h in zip(rows, row_heights, strict=True):
        # centre a short last row
        offset = (cols - len(row)) * (panel_w + GAP) // 2
        for col, i in enumerate(row):
            box = Box(players.x + offset + col * (panel_w + GAP), y, panel_w, row_h)
            _player_panel(c, box, table.seats[i], table, layouts[i], lang, trace)
        y += row_h + GAP
    _log(c, rest, table, lang)
    return c.png()


def _header(c: Canvas, box: Box, table: Table, lang: str) -> None:
    d = c.draw
    d.rounded_rectangle(box.rect, radius=14, fill=PALETTE.panel)
    inner = box.inset(18, 10)
    kit.icon(d, "crown", Box(inner.x, inner.y + 6, 38, 38), PALETTE.highlight)
    title = "Hero Realms"
    if table.turn_no is not None:
        title += " · " + _tr("render.hr.turn_no", lang, n=table.turn_no)
    kit.text(d, (inner.x + 50, inner.y + inner.h / 2), title, 28, PALETTE.ink, anchor="lm", bold=True)
    names = _namer(table, lang)
    if table.winners is not None:
        who = _names_list([names(s) for s in table.winners], lang)
        label = _tr("render.hr.winner" if len(table.winners) == 1 else "render.hr.winner_many", lang, name=who)
        kit.icon(d, "star", Box(inner.x + 470, inner.y + 4, 40, 40), PALETTE.highlight)
        kit.text(d, (inner.x + 520, inner.y + inner.h / 2), label, 26, PALETTE.highlight, anchor="lm", bold=True,
                 max_width=inner.x2 - inner.x - 520)
        return
    if not table.active:
        return
    who = _names_list([names(s) for s in table.active], lang)
    key = "render.hr.to_play" if len(table.active) == 1 else "render.hr.to_play_many"
    kit.icon(d, "arrow", Box(inner.x + 470, inner.y + 6, 38, 38), PALETTE.highlight)
    pools_w = 300
    kit.text(d, (inner.x + 518, inner.y + inner.h / 2), _tr(key, lang, name=who), 26,
             PALETTE.highlight, anchor="lm", bold=True, max_width=inner.x2 - inner.x - 518 - pools_w - 20)
    active = [s for s in table.seats if s.seat in table.active]
    gold = sum(s.gold for s in active)
    combat = sum(s.combat for s in active)
    right = Box(inner.x2 - pools_w, inner.y + 2, pools_w, inner.h - 4)
    gb, cb = right.split_h(2, gap=12)
    kit.pill(d, gb, f"{gold}", PALETTE.gold, icon_name="coin", size=26)
    kit.pill(d, cb, f"{combat}", PALETTE.combat, icon_name="sword", size=26)


def _names_list(names: list[str], lang: str) -> str:
    """"a", "a and b", "a, b and c" in the image's language."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} {_tr('render.hr.and', lang)} {names[-1]}"


def _section_title(c: Canvas, x: int, y: int, label: str, icon_name: str | None = None) -> int:
    if icon_name:
        kit.icon(c.draw, icon_name, Box(x, y + 2, 22, 22), PALETTE.muted)
        x += 28
    return x + kit.text(c.draw, (x, y + 13), label, LABEL + 2, PALETTE.muted, anchor="lm", bold=True)


def _market(c: Canvas, box: Box, table: Table, lang: str) -> None:
    d = c.draw
    title_h = 36
    x = _section_title(c, box.x, box.y, _tr("render.hr.market", lang), "deck")
    info = _tr("render.hr.market_deck", lang, n=table.market_deck)
    if table.sacrificed:
        info += " · " + _tr("render.hr.sacrificed", lang, n=table.sacrificed)
    kit.text(d, (x + 16, box.y + 13), info, LABEL, PALETTE.muted, anchor="lm")
    slots = list(table.market) + [None] * max(0, 5 - len(table.market))
    cards_y = box.y + title_h
    gap = (box.w - 6 * CARD_W) // 5
    for i, card in enumerate(slots[:5]):
        draw_card(c, Box(box.x + i * (CARD_W + gap), cards_y, CARD_W, CARD_H), card, lang)
    gem_box = Box(box.x + 5 * (CARD_W + gap), cards_y, CARD_W, CARD_H)
    gem = cards().get("fire_gem")
    if table.gems and gem is not None:
        # a small stack behind the gem card shows it is a pile
        for k in (2, 1):
            d.rounded_rectangle(Box(gem_box.x + 4 * k, gem_box.y - 4 * k, CARD_W, CARD_H).rect, radius=12,
                                fill=PALETTE.panel, outline=PALETTE.faction(None), width=2)
        draw_card(c, gem_box, gem, lang)
    else:
        draw_card(c, gem_box, None, lang)
    badge = Box(gem_box.x2 - 74, gem_box.y2 - 46, 66, 36)
    kit.pill(d, badge, f"×{table.gems}", PALETTE.ink, size=22)
    kit.text(d, (gem_box.x, box.y + 13), _tr("render.hr.gems", lang), LABEL, PALETTE.muted, anchor="lm",
             max_width=CARD_W)


def _player_panel(c: Canvas, box: Box, seat: Seat, table: Table, layout: _PanelLayout, lang: str,
                  trace: Trace | None) -> None:
    d = c.draw
    note = trace.append if trace is not None else (lambda _item: None)
    note(("panel", seat.seat, box, seat.name))
    is_active = seat.seat in table.active and table.winners is None
    outline = PALETTE.highlight if is_active else PALETTE.line
    d.rounded_rectangle(box.rect, radius=14, fill=PALETTE.panel, outline=outline, width=4 if is_active else 2)
    inner = box.inset(PANEL_PAD_X, PANEL_PAD_Y)
    top, rest = inner.cut_top(40, 8)
    # name, with an arrow when it is this seat's turn and a skull once out
    x = top.x
    if is_active:
        kit.icon(d, "arrow", Box(x, top.y + 6, 28, 28), PALETTE.highlight)
        x += 34
    if seat.eliminated:
        kit.icon(d, "skull", Box(x, top.y + 6, 28, 28), PALETTE.muted)
        x += 34
    health_w = 124
    name_w = top.x2 - x - health_w - 10
    name_color = PALETTE.muted if seat.eliminated else PALETTE.ink
    kit.text(d, (x, top.y + 20), seat.name, 24, name_color, anchor="lm", bold=True, max_width=name_w)
    hb = Box(top.x2 - health_w, top.y + 2, health_w, 36)
    shared = seat.team is not None and seat.team in table.team_health
    if seat.health is not None:
        # no health left is not good news: never the health colour
        fill = PALETTE.health if seat.health > 0 else PALETTE.line
        kit.pill(d, hb, str(seat.health), fill, icon_name="heart", size=24)
        note(("health", seat.seat, hb, "ok" if fill == PALETTE.health else "out"))
    # second line: team / role tags, or "eliminated"
    tags: list[str] = []
    if shared:
        tags.append(_tr("render.hr.team_health", lang, team=_team_name(seat.team)))
    elif seat.team is not None and table.variant == "emperor":
        tags.append(_tr("render.hr.team", lang, team=_team_name(seat.team)))
    if seat.role in ("emperor", "captain"):
        tags.append(_tr(f"render.hr.role.{seat.role}", lang))
    if seat.eliminated:
        tags.append(_tr("render.hr.eliminated", lang))
    elif seat.seat in table.to_act and seat.seat not in table.active:
        tags.append(_tr("render.hr.deciding", lang))
    elif seat.waiting:
        tags.append(_tr("render.hr.waiting", lang))
    if seat.guarded and not seat.eliminated:
        tags.append(_tr("render.hr.guarded", lang))
    line2, rest = rest.cut_top(TAGS_H, 6)
    if tags:
        kit.text(d, (line2.x, line2.y + TAGS_H // 2), " · ".join(tags), LABEL, PALETTE.muted, anchor="lm",
                 max_width=line2.w)
    # pile counters, always with their words
    counters, rest = rest.cut_top(34, 10)
    piles = [("deck", seat.deck, "render.hr.deck"), ("hand", seat.hand, "render.hr.hand"),
             ("discard", seat.discard, "render.hr.discard")]
    pills = [(icon, f"{value} {_tr(key, lang)}", PALETTE.panel_alt) for icon, value, key in piles]
    if layout.pools:
        pools, rest = rest.cut_top(34, 10)
        money = [("coin", _tr("render.hr.gold", lang, n=seat.gold), PALETTE.gold),
                 ("sword", _tr("render.hr.combat", lang, n=seat.combat), PALETTE.combat)]
        for cell, (icon_name, label, _fill) in zip(_counter_row(d, pools, money), money, strict=True):
            note(("pool", (seat.seat, icon_name), cell, label))
    for cell, (icon_name, label, _fill) in zip(_counter_row(d, counters, pills), pills, strict=True):
        note(("pile", (seat.seat, icon_name), cell, label))
    _champions(c, rest, seat, layout, lang, note)


def _counter_row(d: Any, box: Box, items: list[tuple[str, str, Color]]) -> list[Box]:
    """Pills side by side, each an icon and its words (smaller words rather than none)."""
    cells = box.split_h(len(items), gap=8)
    for cell, (icon_name, label, fill) in zip(cells, items, strict=True):
        room = cell.w - cell.h * 0.7 - cell.h // 2 - 6
        size = next((sz for sz in (LABEL, 18, 16, 14) if kit.text_width(label, sz) <= room), 14)
        kit.pill(d, cell, label, fill, icon_name=icon_name, size=size)
    return cells


def _champions(c: Canvas, box: Box, seat: Seat, layout: _PanelLayout, lang: str, note: Any) -> None:
    """Every champion in play (rows of tiles, as many as needed), then every card played this turn."""
    d = c.draw
    title = _tr("render.hr.champions", lang)
    if seat.champions:
        tired = sum(ch.expended for ch in seat.champions)
        title += f" ({len(seat.champions)}"
        title += f", {_tr('render.hr.expended', lang, n=tired)})" \
            if tired else ")"
    kit.text(d, (box.x, box.y + TAGS_H // 2), title, LABEL, PALETTE.muted, anchor="lm", max_width=box.w)
    y = box.y + TAGS_H + 4
    if not seat.champions:
        kit.text(d, (box.x, y + 15), _tr("render.hr.no_champions", lang), LABEL, PALETTE.line, anchor="lm")
        y += 30
    for i, champ in enumerate(seat.champions):
        r, col = divmod(i, layout.per_row)
        tile = Box(box.x + col * (layout.tile_w + TILE_GAP), y + r * (layout.tile_h + TILE_GAP), layout.tile_w,
                   layout.tile_h)
        draw_champion(c, tile, champ, lang)
        note(("champion", (seat.seat, i), tile, champ.card.key if champ.card else ""))
    if layout.tile_rows:
        y += layout.tile_rows * layout.tile_h + (layout.tile_rows - 1) * TILE_GAP
    if not layout.chips:
        return
    y += 12
    kit.text(d, (box.x, y + TAGS_H // 2), _tr("render.hr.played", lang), LABEL, PALETTE.muted, anchor="lm")
    y += TAGS_H + 4
    shown = 0
    for line in layout.chips:
        x = box.x
        for card, w in line:
            chip = Box(x, y, w, CHIP_H)
            note(("played", (seat.seat, shown), chip, card.key))
            shown += 1
            d.rounded_rectangle(chip.rect, radius=CHIP_H // 2, fill=PALETTE.panel_alt,
                                outline=PALETTE.faction(card.faction), width=2)
            kit.icon(d, kit.faction_glyph(card.faction), Box(chip.x + 8, chip.y + 5, CHIP_H - 10, CHIP_H - 10),
                     PALETTE.faction(card.faction))
            kit.text(d, (chip.x + CHIP_H + 2, chip.y + CHIP_H // 2), _name(card, lang), LABEL, PALETTE.ink,
                     anchor="lm", max_width=chip.w - CHIP_H - 10)
            x += w + 6
        y += CHIP_H + 6


def _team_name(team: int | None) -> str:
    return chr(ord("A") + (team or 0))


def _log(c: Canvas, box: Box, table: Table, lang: str) -> None:
    d = c.draw
    d.rounded_rectangle(box.rect, radius=14, fill=PALETTE.panel)
    inner = box.inset(18, 10)
    _section_title(c, inner.x, inner.y, _tr("render.hr.log", lang))
    lines = _log_lines(table, lang)
    for i, line in enumerate(lines):
        y = inner.y + 36 + i * LOG_LH
        color = PALETTE.ink if i == len(lines) - 1 else PALETTE.muted
        kit.text(d, (inner.x, y), "· " + line, LABEL + 2, color, max_width=inner.w)


# ---------------------------------------------------------------- a player's hand


def _pending_prompt(view: Mapping[str, Any], table: Table, lang: str) -> str | None:
    """The decision the viewer owes now (discard, choose...), if any."""
    for p in view.get("pending") or []:
        if isinstance(p, Mapping) and p.get("seat") == table.viewer and isinstance(p.get("prompt"), Mapping):
            text = i18n.t(Msg.from_json(p["prompt"]), lang, _namer(table, lang))
            source = _card(p.get("source"))
            return f"{text} · {_name(source, lang)}" if source else text
    return None


def _pending_options(view: Mapping[str, Any], table: Table) -> list[Mapping[str, Any]]:
    """The answers to the viewer's own pending decision (only their own view carries them)."""
    for p in view.get("pending") or []:
        if isinstance(p, Mapping) and p.get("seat") == table.viewer:
            return [o for o in p.get("options") or [] if isinstance(o, Mapping)]
    return []


PER_ROW = 6
CAPTION_H = 44


def render_hand(view: dict[str, Any], lang: str, trace: Trace | None = None) -> bytes:
    """A seat's private image: the answers to a decision they owe (cards, or effects to choose from), then
    the cards in their hand at full size, with their piles and pools. `view` is that seat's own view (the
    only one holding the hand)."""
    table = read_view(view, lang)
    me = next((s for s in table.seats if s.hand_cards), None)
    if me is None and table.viewer is not None:
        me = next((s for s in table.seats if s.seat == table.viewer), None)
    hand = me.hand_cards if me else []
    options = _pending_options(view, table)
    prompt = _pending_prompt(view, table, lang)
    top_h = 56 + (40 if prompt else 0)
    option_rows = -(-len(options) // PER_ROW)
    options_h = (30 + option_rows * (CARD_H + CAPTION_H) + (option_rows - 1) * GAP + GAP * 2) if options else 0
    hand_rows = max(1, -(-len(hand) // PER_ROW))
    hand_h = (30 if options else 0) + (hand_rows * CARD_H + (hand_rows - 1) * GAP if hand or not options else 40)
    height = MARGIN + top_h + GAP + options_h + hand_h + MARGIN
    c = Canvas(WIDTH, height)
    content = c.box.inset(MARGIN)
    head, rest = content.cut_top(top_h, GAP)
    d = c.draw
    d.rounded_rectangle(head.rect, radius=14, fill=PALETTE.panel)
    if prompt:
        band, head = head.cut_top(56)
        kit.icon(d, "star", Box(head.x + 16, head.y + 4, 26, 26), PALETTE.highlight)
        kit.text(d, (head.x + 52, head.y + 17), prompt, 20, PALETTE.highlight, anchor="lm", max_width=head.w - 70)
        head = band
    inner = head.inset(16, 8)
    kit.icon(d, "hand", Box(inner.x, inner.y + 2, 36, 36), PALETTE.ink)
    title = _tr("render.hr.your_hand", lang)
    if me is not None:
        title += f" · {me.name}"
    kit.text(d, (inner.x + 48, inner.y + inner.h / 2), title, 24, PALETTE.ink, anchor="lm", bold=True,
             max_width=inner.w // 2)
    if me is not None:
        items = [("deck", str(me.deck), PALETTE.panel_alt), ("discard", str(me.discard), PALETTE.panel_alt)]
        if me.health is not None:
            items.insert(0, ("heart", str(me.health), PALETTE.health if me.health > 0 else PALETTE.line))
        if me.seat in table.active:
            items += [("coin", str(me.gold), PALETTE.gold), ("sword", str(me.combat), PALETTE.combat)]
        w = 100
        right = Box(inner.x2 - len(items) * (w + 8) + 8, inner.y, len(items) * (w + 8) - 8, inner.h)
        for cell, (name, value, fill) in zip(right.split_h(len(items), gap=8), items, strict=True):
            kit.pill(d, cell, value, fill, icon_name=name, size=20)
    gap = (rest.w - PER_ROW * CARD_W) // (PER_ROW - 1)
    y = rest.y
    if options:
        _section_title(c, rest.x, y, _tr("render.hr.answers", lang), "star")
        y += 30
        for i, option in enumerate(options):
            r, col = divmod(i, PER_ROW)
            box = Box(rest.x + col * (CARD_W + gap), y + r * (CARD_H + CAPTION_H + GAP), CARD_W, CARD_H)
            _option_tile(c, box, option, table, lang)
            if trace is not None:
                trace.append(("option", i, box, i18n.t(Msg.from_json(option["label"]), lang, _namer(table, lang))))
        y += option_rows * (CARD_H + CAPTION_H) + (option_rows - 1) * GAP + GAP * 2
        _section_title(c, rest.x, y, _tr("render.hr.your_hand", lang), "hand")
        y += 30
    if not hand:
        if options:
            kit.text(d, (rest.x, y + 14), _tr("render.hr.empty_hand", lang), 20, PALETTE.muted, anchor="lm")
        else:
            kit.text(d, (rest.x + rest.w / 2, y + CARD_H / 2), _tr("render.hr.empty_hand", lang), 24,
                     PALETTE.muted, anchor="mm")
    for i, card in enumerate(hand):
        r, col = divmod(i, PER_ROW)
        box = Box(rest.x + col * (CARD_W + gap), y + r * (CARD_H + GAP), CARD_W, CARD_H)
        draw_card(c, box, card, lang)
        if trace is not None:
            trace.append(("hand", i, box, card.key if card else ""))
    return c.png()


def _option_tile(c: Canvas, box: Box, option: Mapping[str, Any], table: Table, lang: str) -> None:
    """One answer: its card at full size, or its effects in icons and words; its label below."""
    d = c.draw
    label = i18n.t(Msg.from_json(option["label"]), lang, _namer(table, lang)) if "label" in option else ""
    card = _card(option.get("card"))
    if card is not None:
        draw_card(c, box, card, lang)
    else:
        d.rounded_rectangle(box.rect, radius=12, fill=PALETTE.panel_alt, outline=PALETTE.highlight, width=2)
        tokens: list[Token] = []
        for eff in option.get("effects") or []:
            if tokens:
                tokens.append(" ")
            tokens += effect_tokens(eff, lang)
        area = box.inset(14, 16)
        if tokens:
            size = next((sz for sz in (30, 24, 20, 17) if kit.flow(None, area, tokens, sz) <= area.h), 17)
            used = kit.flow(None, area, tokens, size)
            kit.flow(d, Box(area.x, area.y + max(0, (area.h - used) // 2), area.w, area.h), tokens, size)
        else:
            lines = kit.wrap(label, 22, area.w)[:5]
            top = area.y + (area.h - len(lines) * kit.line_height(22)) // 2
            for i, line in enumerate(lines):
                kit.text(d, (area.x + area.w / 2, top + i * kit.line_height(22)), line, 22, PALETTE.ink, anchor="ma")
    for i, line in enumerate(kit.wrap(label, 15, box.w)[:2]):
        kit.text(d, (box.x, box.y2 + 6 + i * 19), line, 15, PALETTE.highlight, max_width=box.w)


def clear_caches() -> None:
    """Forget the cached card faces and the toolkit's caches (images do not depend on them)."""
    _card_face.cache_clear()
    _tile_face.cache_clear()
    kit.clear_caches()

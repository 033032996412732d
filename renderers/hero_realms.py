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
MINI_W, MINI_H = 116, 150
LOG_LINES = 6

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
                health=None if health is None else int(health),
                deck=_count(_first(p, "deck", "deck_size", default=0)),
                hand=_count(_first(p, "hand_size", "hand_count", default=hand)),
                discard=_count(_first(p, "discard_count", "discard_size", "discard", default=0)),
                champions=champs,
                played=[_card(c) for c in _first(p, "in_play", "played", default=[])],
                guarded=bool(p.get("guarded", False)),
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
        return [*_gain_tokens(arg), _tr(f"render.hr.fx.{name}", lang)]
    if name == "per_faction_in_play":
        faction = arg["faction"]
        key = "render.hr.fx.per_other_faction" if arg["other"] else "render.hr.fx.per_faction"
        return [*_gain_tokens(arg["gain"]), _tr(key, lang), Glyph(kit.faction_glyph(faction),
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


def draw_mini_champion(champ: Champion, lang: str) -> Canvas:
    """A small upright champion card (the caller turns it 90° when expended)."""
    card = champ.card
    if card is not None and cards().get(card.key) is not card:
        return _paint_mini(champ, lang)
    face = _mini_face(card.key if card else None, champ.damage, lang)
    return Canvas.from_image(face.copy())


@lru_cache(maxsize=256)
def _mini_face(key: str | None, damage: int, lang: str) -> Image.Image:
    """A shipped champion's small card (shared: copy it before drawing on it)."""
    return _paint_mini(Champion(cards()[key] if key else None, damage=damage), lang).image


def _paint_mini(champ: Champion, lang: str) -> Canvas:
    c = Canvas(MINI_W, MINI_H, PALETTE.panel)
    d = c.draw
    card = champ.card
    box = c.box
    accent = PALETTE.faction(card.faction if card else None)
    d.rounded_rectangle(box.rect, radius=8, fill=PALETTE.panel_alt, outline=accent, width=3)
    head = Box(0, 0, MINI_W, 28)
    d.rounded_rectangle(head.rect, radius=8, fill=accent)
    d.rectangle(Box(0, 14, MINI_W, 14).rect, fill=accent)
    ink = kit.ink_on(accent)
    kit.icon(d, kit.faction_glyph(card.faction if card else None), Box(6, 4, 20, 20), ink)
    if card is None:
        return c
    name_box = Box(7, 34, MINI_W - 14, 60)
    lines = kit.wrap(_name(card, lang), 14, name_box.w)[:3]
    for i, line in enumerate(lines):
        kit.text(d, (name_box.x, name_box.y + i * 18), line, 14, PALETTE.ink, max_width=name_box.w)
    foot = Box(6, MINI_H - 40, MINI_W - 12, 34)
    left = max(0, card.defense - champ.damage)
    _shield_value(d, Box(foot.x, foot.y, foot.h, foot.h), left, card.guard, 17, hurt=champ.damage > 0)
    if card.guard:
        pb = Box(foot.x + foot.h + 4, foot.y + 7, foot.w - foot.h - 4, foot.h - 14)
        _guard_pill(d, pb, lang, 12)
    return c


# ---------------------------------------------------------------- the table


def render(view: dict[str, Any], lang: str) -> bytes:
    """The public table image: market, gems, every player's health, piles and champions, the
    active player's pools and the latest events. Never shows a hand (the public view has none)."""
    table = read_view(view, lang)
    n = max(1, len(table.seats))
    cols = n if n <= 3 else (2 if n == 4 else 3)
    rows = -(-n // cols)
    panel_h = 316
    header_h = 70
    market_h = 36 + CARD_H
    log_h = 44 + LOG_LINES * 26
    height = MARGIN + header_h + GAP + market_h + GAP * 2 + rows * panel_h + (rows - 1) * GAP + GAP * 2 + log_h + MARGIN
    c = Canvas(WIDTH, height)
    content = c.box.inset(MARGIN)
    head, rest = content.cut_top(header_h, GAP)
    _header(c, head, table, lang)
    market, rest = rest.cut_top(market_h, GAP * 2)
    _market(c, market, table, lang)
    players, rest = rest.cut_top(rows * panel_h + (rows - 1) * GAP, GAP * 2)
    panel_w = (players.w - (cols - 1) * GAP) // cols
    for i, seat in enumerate(table.seats):
        r, col = divmod(i, cols)
        in_row = min(cols, n - r * cols)
        # centre a short last row
        offset = (cols - in_row) * (panel_w + GAP) // 2
        box = Box(players.x + offset + col * (panel_w + GAP), players.y + r * (panel_h + GAP), panel_w, panel_h)
        _player_panel(c, box, seat, table, lang)
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
        who = ", ".join(names(s) for s in table.winners)
        label = _tr("render.hr.winner", lang, name=who)
        kit.icon(d, "star", Box(inner.x + 470, inner.y + 4, 40, 40), PALETTE.highlight)
        kit.text(d, (inner.x + 520, inner.y + inner.h / 2), label, 26, PALETTE.highlight, anchor="lm", bold=True,
                 max_width=inner.x2 - inner.x - 520)
        return
    if not table.active:
        return
    who = ", ".join(names(s) for s in table.active)
    kit.icon(d, "arrow", Box(inner.x + 470, inner.y + 6, 38, 38), PALETTE.highlight)
    pools_w = 300
    kit.text(d, (inner.x + 518, inner.y + inner.h / 2), _tr("render.hr.to_play", lang, name=who), 26,
             PALETTE.highlight, anchor="lm", bold=True, max_width=inner.x2 - inner.x - 518 - pools_w - 20)
    active = [s for s in table.seats if s.seat in table.active]
    gold = sum(s.gold for s in active)
    combat = sum(s.combat for s in active)
    right = Box(inner.x2 - pools_w, inner.y + 2, pools_w, inner.h - 4)
    gb, cb = right.split_h(2, gap=12)
    kit.pill(d, gb, f"{gold}", PALETTE.gold, icon_name="coin", size=26)
    kit.pill(d, cb, f"{combat}", PALETTE.combat, icon_name="sword", size=26)


def _section_title(c: Canvas, x: int, y: int, label: str, icon_name: str | None = None) -> int:
    if icon_name:
        kit.icon(c.draw, icon_name, Box(x, y + 2, 22, 22), PALETTE.muted)
        x += 28
    return x + kit.text(c.draw, (x, y + 13), label, 19, PALETTE.muted, anchor="lm", bold=True)


def _market(c: Canvas, box: Box, table: Table, lang: str) -> None:
    d = c.draw
    title_h = 36
    x = _section_title(c, box.x, box.y, _tr("render.hr.market", lang), "deck")
    info = _tr("render.hr.market_deck", lang, n=table.market_deck)
    if table.sacrificed:
        info += " · " + _tr("render.hr.sacrificed", lang, n=table.sacrificed)
    kit.text(d, (x + 16, box.y + 13), info, 17, PALETTE.muted, anchor="lm")
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
    kit.text(d, (gem_box.x, box.y + 13), _tr("render.hr.gems", lang), 17, PALETTE.muted, anchor="lm",
             max_width=CARD_W)


def _player_panel(c: Canvas, box: Box, seat: Seat, table: Table, lang: str) -> None:
    d = c.draw
    is_active = seat.seat in table.active and table.winners is None
    outline = PALETTE.highlight if is_active else PALETTE.line
    d.rounded_rectangle(box.rect, radius=14, fill=PALETTE.panel, outline=outline, width=4 if is_active else 2)
    inner = box.inset(14, 12)
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
        kit.pill(d, hb, str(seat.health), PALETTE.health, icon_name="heart", size=24)
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
    if seat.guarded and not seat.eliminated:
        tags.append(_tr("render.hr.guarded", lang))
    line2, rest = rest.cut_top(22, 6)
    if tags:
        kit.text(d, (line2.x, line2.y + 11), " · ".join(tags), 16, PALETTE.muted, anchor="lm", max_width=line2.w)
    # pile counters
    counters, rest = rest.cut_top(34, 10)
    items = [("deck", seat.deck, "render.hr.deck"), ("hand", seat.hand, "render.hr.hand"),
             ("discard", seat.discard, "render.hr.discard")]
    show_pools = is_active or seat.gold or seat.combat
    if show_pools:
        items += [("coin", seat.gold, ""), ("sword", seat.combat, "")]
    cells = counters.split_h(len(items), gap=8)
    for cell, (icon_name, value, label_key) in zip(cells, items, strict=True):
        fill = {"coin": PALETTE.gold, "sword": PALETTE.combat}.get(icon_name, PALETTE.panel_alt)
        label = str(value)
        if label_key:
            long = f"{value} {_tr(label_key, lang)}"
            # the word only when it fits beside the icon; the icon alone still says which pile
            if kit.text_width(long, 18) <= cell.w - cell.h * 0.7 - cell.h // 2 - 6:
                label = long
        kit.pill(d, cell, label, fill, icon_name=icon_name, size=18)
    # champions in play; expended ones turned 90°
    champs_box = rest
    _champions_row(c, champs_box, seat, lang)


def _champions_row(c: Canvas, box: Box, seat: Seat, lang: str) -> None:
    d = c.draw
    label_h = 22
    kit.text(d, (box.x, box.y + label_h // 2), _tr("render.hr.champions", lang), 15, PALETTE.muted, anchor="lm")
    area = Box(box.x, box.y + label_h + 4, box.w, box.h - label_h - 4)
    x = area.x
    if not seat.champions:
        x += kit.text(d, (area.x, area.y + 20), _tr("render.hr.no_champions", lang), 16, PALETTE.line, anchor="lm")
        x = max(x + 30, area.x + MINI_W + 8)
    shown = 0
    for champ in seat.champions:
        w = MINI_H if champ.expended else MINI_W
        remaining = len(seat.champions) - shown
        if x + w > area.x2 - (40 if remaining > 1 else 0):
            break
        mini = draw_mini_champion(champ, lang)
        if champ.expended:
            # turned clockwise like a tapped card, sitting on the same bottom line as upright ones
            c.paste(mini, (x, area.y + MINI_H - MINI_W), rotate=-90)
            kit.icon(d, "expend", Box(x + MINI_H - 24, area.y + MINI_H - MINI_W - 26, 22, 22), PALETTE.muted)
        else:
            c.paste(mini, (x, area.y))
        x += w + 8
        shown += 1
    if shown < len(seat.champions):
        kit.text(d, (x + 4, area.y + MINI_H // 2), f"+{len(seat.champions) - shown}", 22, PALETTE.ink, anchor="lm",
                 bold=True)
    if seat.played:
        _played_list(c, Box(x + 10, area.y, area.x2 - x - 10, MINI_H), seat, lang)


def _played_list(c: Canvas, box: Box, seat: Seat, lang: str) -> None:
    """Actions and items played this turn, as a short list of names with faction marks."""
    if box.w < 120:
        return
    d = c.draw
    kit.text(d, (box.x, box.y - 15), _tr("render.hr.played", lang), 15, PALETTE.muted, anchor="lm")
    row_h = 22
    max_rows = box.h // row_h
    names = [card for card in seat.played if card is not None]
    for i, card in enumerate(names[:max_rows]):
        y = box.y + i * row_h
        if i == max_rows - 1 and len(names) > max_rows:
            kit.text(d, (box.x, y + row_h // 2), f"+{len(names) - i}", 15, PALETTE.muted, anchor="lm")
            break
        kit.icon(d, kit.faction_glyph(card.faction), Box(box.x, y + 3, 16, 16), PALETTE.faction(card.faction))
        kit.text(d, (box.x + 22, y + row_h // 2), _name(card, lang), 15, PALETTE.ink, anchor="lm",
                 max_width=box.w - 22)


def _team_name(team: int | None) -> str:
    return chr(ord("A") + (team or 0))


def _log(c: Canvas, box: Box, table: Table, lang: str) -> None:
    d = c.draw
    d.rounded_rectangle(box.rect, radius=14, fill=PALETTE.panel)
    inner = box.inset(18, 10)
    _section_title(c, inner.x, inner.y, _tr("render.hr.log", lang))
    lines = _log_lines(table, lang)
    for i, line in enumerate(lines):
        y = inner.y + 36 + i * 26
        color = PALETTE.ink if i == len(lines) - 1 else PALETTE.muted
        kit.text(d, (inner.x, y), "· " + line, 18, color, max_width=inner.w)


# ---------------------------------------------------------------- a player's hand


def _pending_prompt(view: Mapping[str, Any], table: Table, lang: str) -> str | None:
    """The decision the viewer owes now (discard, choose...), if any."""
    for p in view.get("pending") or []:
        if isinstance(p, Mapping) and p.get("seat") == table.viewer and isinstance(p.get("prompt"), Mapping):
            text = i18n.t(Msg.from_json(p["prompt"]), lang, _namer(table, lang))
            source = _card(p.get("source"))
            return f"{text} · {_name(source, lang)}" if source else text
    return None


def render_hand(view: dict[str, Any], lang: str) -> bytes:
    """A seat's private image: the cards in their hand at full size, with their piles and pools.
    `view` is that seat's own view (the only one holding the hand)."""
    table = read_view(view, lang)
    me = next((s for s in table.seats if s.hand_cards), None)
    if me is None and table.viewer is not None:
        me = next((s for s in table.seats if s.seat == table.viewer), None)
    hand = me.hand_cards if me else []
    per_row = 6
    rows = max(1, -(-len(hand) // per_row))
    prompt = _pending_prompt(view, table, lang)
    top_h = 56 + (40 if prompt else 0)
    height = MARGIN + top_h + GAP + rows * CARD_H + (rows - 1) * GAP + MARGIN
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
            items.insert(0, ("heart", str(me.health), PALETTE.health))
        if me.seat in table.active:
            items += [("coin", str(me.gold), PALETTE.gold), ("sword", str(me.combat), PALETTE.combat)]
        w = 100
        right = Box(inner.x2 - len(items) * (w + 8) + 8, inner.y, len(items) * (w + 8) - 8, inner.h)
        for cell, (name, value, fill) in zip(right.split_h(len(items), gap=8), items, strict=True):
            kit.pill(d, cell, value, fill, icon_name=name, size=20)
    if not hand:
        kit.text(d, (rest.x + rest.w / 2, rest.y + CARD_H / 2), _tr("render.hr.empty_hand", lang), 24, PALETTE.muted,
                 anchor="mm")
    gap = (rest.w - per_row * CARD_W) // (per_row - 1)
    for i, card in enumerate(hand):
        r, col = divmod(i, per_row)
        draw_card(c, Box(rest.x + col * (CARD_W + gap), rest.y + r * (CARD_H + GAP), CARD_W, CARD_H), card, lang)
    return c.png()


def clear_caches() -> None:
    """Forget the cached card faces and the toolkit's caches (images do not depend on them)."""
    _card_face.cache_clear()
    _mini_face.cache_clear()
    kit.clear_caches()

"""The `/hq` command group and the Discord presentation (buttons, GM map, heroes' sheets) of HeroQuest."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.bot_table import table_of
from cogs.declare import catalog_choices, command_group, game_command, given
from cogs.delivery import defer, reply, who_of
from cogs.heroquest_names import figure_label, figures, fold, match_figures, parse_square, square_text
from cogs.plumbing import (
    Choices,
    GameCog,
    Wording,
    by_token,
    legal_moves,
    pair_choices,
)
from cogs.translator import locale_of
from cogs.ui import GameUI
from renderers.heroquest import render
from rules.base import Action, GameOver, IllegalAction, LegalAction, NotYourTurn
from rules.heroquest import campaign, catalog, quest_treasures
from rules.heroquest.quest import builtin_quests
from rules.text import Lit, Msg, msg
from table import TableError

GAME_ID = "heroquest"
#: Kinds a hero answers with when the game asks them to decide (a potion to survive, a step, spells).
DECIDE_KINDS = frozenset({"drink", "accept_death", "rock_step", "choose_spells", "accept_trade", "decline_trade"})
#: What `/hq cast` offers: spells, scrolls and runes (all count as casting).
CAST_KINDS = ("cast", "read_scroll", "rune")
#: What `/hq give` offers: giving, asking for and exchanging one thing with an adjacent hero.
TRADE_KINDS = ("give", "take", "swap")
#: Words that ask for a bare-handed attack.
FIST_WORDS = ("fists", "fist", "bare", "unarmed", "punos", "sin armas", "manos")
SEARCH_KINDS = {"treasure": "search_treasure", "traps": "search_traps", "secret": "search_secret"}
#: Actions without arguments: when not on offer, they go to the engine anyway so it can say why not.
NO_ARGUMENT_KINDS = frozenset({*SEARCH_KINDS.values(), "run", "leave", "recover", "end_turn"})


# ---------------------------------------------------------------- small helpers


def lit(value: Any, lang: str) -> str:
    """A text: a message as views carry them ({"key", "params"}), {es, en} or a Lit."""
    if isinstance(value, dict) and "key" in value:
        return i18n.t(Msg.from_json(value), lang)
    if isinstance(value, dict):
        return str(value.get(lang) or value.get("en") or "")
    if isinstance(value, Lit):
        return value.es if lang == "es" else value.en
    return "" if value is None else str(value)


def ref_name(ref: str, lang: str) -> str:
    if ref in catalog.monsters():
        return lit(catalog.monster_name(ref), lang)
    key = f"hq.q.ref.{ref}"
    return i18n.tk(key, lang) if i18n.has(key, lang) else ref.replace("_", " ")


# ---------------------------------------------------------------- presentation


def status_name(status: str, lang: str) -> str:
    key = f"hq.statusname.{status}"
    return i18n.tk(key, lang) if i18n.has(key, lang) else status.replace("_", " ")


def skill_name(skill: str) -> Lit:
    entry = catalog.skills().get(skill)
    return Lit(entry["name"]["es"], entry["name"]["en"]) if entry else Lit(skill, skill)


def _hero_line(h: Mapping[str, Any], lang: str) -> str:
    name = lit(h["name"], lang)
    if h.get("dead"):
        return i18n.t(msg("hq.bot.hero.dead", hero=name), lang)
    if h.get("left"):
        return i18n.t(msg("hq.bot.hero.left", hero=name), lang)
    stats = {"hero": name, "body": h["body"], "max_body": h["max_body"], "mind": h["mind"], "max_mind": h["max_mind"],
             "gold": h.get("gold", 0)}
    if h.get("outside"):  # waiting at the Door In, off the board
        line = i18n.t(msg("hq.bot.hero.line_outside", **stats), lang)
    else:
        where = square_text(h["square"]) if h.get("square") else "-"
        line = i18n.t(msg("hq.bot.hero.line", square=where, **stats), lang)
    extra = []
    gear = [lit(catalog.item_name(i), lang) for i in h.get("equipment", [])]
    if gear:
        extra.append(i18n.t(msg("hq.bot.hero.equipment", items=", ".join(gear)), lang))
    items = [lit(catalog.item_name(i), lang) for i in h.get("items", [])]
    if items:
        extra.append(i18n.t(msg("hq.bot.hero.items", items=", ".join(items)), lang))
    spells = [lit(catalog.spell_name(s), lang) for s in h.get("spells", []) if s not in h.get("cast", [])]
    if spells:
        extra.append(i18n.t(msg("hq.bot.hero.spells", spells=", ".join(spells)), lang))
    treasures = [lit(quest_treasures.name(t), lang) for t in h.get("quest_treasures", [])]
    if treasures:
        extra.append(i18n.t(msg("hq.bot.hero.treasures", items=", ".join(treasures)), lang))
    skills = [lit(skill_name(k), lang) for k in h.get("skills", [])]
    if skills:
        extra.append(i18n.t(msg("hq.bot.hero.skills", skills=", ".join(skills)), lang))
    if h.get("status"):
        extra.append(i18n.t(msg("hq.bot.hero.status", status=", ".join(status_name(x, lang) for x in h["status"])),
                            lang))
    return "\n".join([line, *("  " + e for e in extra)])


def gm_text(view: Mapping[str, Any], lang: str) -> str:
    """The game master's notes: quest notes read or not, what the players have not found, Chaos spells."""
    out = [i18n.t(msg("hq.bot.gm.header", quest=lit(view["quest"]["name"], lang),
                      turn=lit(view["turn"]["label"], lang)), lang)]
    out.extend(import_warnings_text(view, lang))
    notes = view.get("notes") or {}
    if notes:
        parts = []
        for key in sorted(notes):
            n = notes[key]
            mark = "✅" if n.get("read") else "⬜"
            parts.append(f"{mark} **{key}**: {lit(n, lang)}")
        out.append(i18n.t(msg("hq.bot.gm.notes", n=len(notes)), lang))
        out.extend(parts)
    hidden = [m for m in view.get("monsters", []) if m.get("hidden")]
    if hidden:
        names = ", ".join(f"{lit(m['name'], lang)} ({square_text(m['square'])})" for m in hidden)
        out.append(i18n.t(msg("hq.bot.gm.hidden_monsters", n=len(hidden), list=names), lang))
    traps = [o for o in view.get("objects", []) if o.get("kind") == "trap" and o.get("hidden")]
    if traps:
        names = ", ".join(f"{ref_name(o['ref'], lang)} ({square_text(o['squares'][0])})" for o in traps)
        out.append(i18n.t(msg("hq.bot.gm.hidden_traps", n=len(traps), list=names), lang))
    secret = [d for d in view.get("doors", []) if d.get("secret") and d.get("hidden")]
    if secret:
        out.append(i18n.t(msg("hq.bot.gm.secret_doors", n=len(secret)), lang))
    casters = [f"{lit(m['name'], lang)}: " + ", ".join(lit(catalog.spell_name(x), lang) for x in m["spells"])
               for m in view.get("monsters", []) if m.get("spells")]
    if casters:
        out.append(i18n.t(msg("hq.bot.gm.casters", casters="; ".join(casters)), lang))
    chaos = view.get("chaos_spells") or []
    if chaos:
        out.append(i18n.t(msg("hq.bot.gm.chaos", spells=", ".join(lit(catalog.spell_name(s), lang)
                                                                  for s in chaos)), lang))
    if view.get("wandering_monster"):
        out.append(i18n.t(msg("hq.bot.gm.wandering", monster=ref_name(str(view["wandering_monster"]), lang)), lang))
    # Whole, however long: the delivery splits a long text across messages rather than cut it.
    return "\n".join(out)


#: The importer's lines that tell the game master a ruling and ask nothing of them.
INFO_PREFIX = "hq.imp.info."


def import_warnings_text(view: Mapping[str, Any], lang: str, shown: int = 5) -> list[str]:
    """The uploaded quest's import warnings (objects left out, guesses made), for the game master only:
    in full during the first round, then only their count, so later turns stay short."""
    told = [Msg.from_json(w) for w in view.get("import_warnings") or []]
    # rulings that ask nothing of the game master (the heroes entering one by one) are information, not
    # warnings: said apart, while they matter (some hero still waits at the Door In)
    waiting = any(h.get("outside") for h in view.get("heroes", []))
    info = [f"ℹ️ {i18n.t(w, lang)}" for w in told if w.key.startswith(INFO_PREFIX) and waiting]
    warnings = [w for w in told if not w.key.startswith(INFO_PREFIX)]
    if not warnings:
        return info
    if int((view.get("turn") or {}).get("round") or 1) > 1:
        shown = 0
    lines = [*info, i18n.t(msg("hq.imp.gm.header", count=len(warnings)), lang)]
    lines += [f"• {i18n.t(w, lang)}" for w in warnings[:shown]]
    if len(warnings) > shown:
        lines.append(i18n.t(msg("hq.imp.gm.more", count=len(warnings) - shown), lang))
    return lines


def hero_text(view: Mapping[str, Any], lang: str) -> str:
    """A hero player's heroes: body, mind, equipment, spells, and whether one of them is on turn."""
    seat = view.get("seat")
    mine = [h for h in view.get("heroes", []) if h.get("seat") == seat]
    if not mine:
        return ""
    out = [_hero_line(h, lang) for h in mine]
    turn = view.get("turn") or {}
    current = next((h for h in mine if h["uid"] == turn.get("hero")), None)
    pending = view.get("pending") or {}
    if pending.get("seat") == seat and pending.get("kind") in ("save", "rock_step", "spells", "trade"):
        out.append(i18n.t(msg("hq.bot.decide_now"), lang))
    elif current is not None:
        out.append(i18n.t(msg("hq.bot.your_hero_turn", hero=lit(current["name"], lang)), lang))
    elif turn.get("who") != "over":
        out.append(i18n.t(msg("hq.bot.waiting", turn=lit(turn.get("label"), lang)), lang))
    return "\n".join(out)


class HeroQuestUI(GameUI):
    """Public buttons for the frequent safe hero moves; the GM's full map and notes; a player's heroes."""

    game_id = GAME_ID

    def public_buttons(self, board: dict[str, Any]) -> list[tuple[Msg, Action]]:
        turn = board.get("turn") or {}
        if board.get("over") or board.get("pending"):
            return []
        if turn.get("who") == "gm":
            return [(msg("hq.bot.button.autoplay"), Action.of("gm_autoplay")),
                    (msg("hq.bot.button.gm_end"), Action.of("end_turn"))]
        if turn.get("who") != "hero":
            return []
        return [(msg("hq.bot.button.treasure"), Action.of("search_treasure")),
                (msg("hq.bot.button.traps"), Action.of("search_traps")),
                (msg("hq.bot.button.secret"), Action.of("search_secret")),
                (msg("hq.bot.button.end"), Action.of("end_turn"))]

    def private_text(self, view: dict[str, Any], lang: str, names: dict[int, str]) -> str:
        if view.get("viewer") == "gm":
            return gm_text(view, lang)
        if view.get("viewer") == "hero":
            return hero_text(view, lang)
        return ""

    def private_image(self, view: dict[str, Any], lang: str) -> bytes | None:
        # The game master's full map; for the seat on turn, the board with the squares its hero can reach.
        # Any other hero's view is the public board, which the channel already has.
        return render(view, lang) if view.get("viewer") == "gm" or view.get("reach") else None


UI = HeroQuestUI()


# ---------------------------------------------------------------- choosing a legal action from text


def describe(la: LegalAction, view: Mapping[str, Any] | None, lang: str, names: Mapping[int, str]) -> str:
    """A legal action's label, made unambiguous with the squares of doors and monsters."""
    label = i18n.t(la.label, lang, names.get)
    if view is None:
        return label
    a = la.action
    if a.kind == "open_door":
        door = next((d for d in view.get("doors", []) if d["uid"] == a.get("door")), None)
        if door:
            label += f" ({square_text(door['between'][0])} | {square_text(door['between'][1])})"
    uid = a.get("target") or a.get("monster") or a.get("caster")
    if isinstance(uid, str):
        m = next((m for m in view.get("monsters", []) if m["uid"] == uid), None)
        if m:
            label += f" ({square_text(m['square'])})"
    return label


def spoken_forms(la: LegalAction, view: Mapping[str, Any] | None, names: Mapping[int, str]) -> list[str]:
    """Every text that names this action: its labels in both languages, its square, its argument values."""
    forms = [fold(describe(la, view, lang, names)) for lang in i18n.LANGS]
    forms += [fold(i18n.t(la.label, lang, names.get)) for lang in i18n.LANGS]
    for _, value in la.action.args:
        if isinstance(value, str):
            forms.append(fold(value))
    return forms


class HeroQuestWording(Wording):
    """HeroQuest names actions with squares too: "Open door (D4 | E4)", "H11" for a move."""

    prefix = "hq"
    sep = "; "

    def label(self, la: LegalAction, lang: str, names: Mapping[int, str], view: Mapping[str, Any] | None) -> str:
        return describe(la, view, lang, names)

    def forms(self, la: LegalAction, names: Mapping[int, str], view: Mapping[str, Any] | None) -> list[str]:
        return spoken_forms(la, view, names)

    hint_forms = forms

    def pick(self, legal: Sequence[LegalAction], text: str, lang: str, names: Mapping[int, str],
             view: Mapping[str, Any] | None = None,
             more: Callable[[LegalAction], list[str]] | None = None) -> Action:
        """A square (the one action moving to or acting at it) before the shared ways of naming an action."""
        square = None if by_token(legal, text) else parse_square(text.strip())
        if square is not None:
            hits = [la for la in legal if la.action.get("to") == square or la.action.get("at") == square]
            if len(hits) == 1:
                return hits[0].action
        return super().pick(legal, text, lang, names, view, more)


WORDS = HeroQuestWording()


def attack_action(legal: list[LegalAction], view: Mapping[str, Any], text: str, lang: str,
                  names: dict[int, str]) -> Action:
    """The attack `text` means: a monster by its name ("Goblin 2", "gob", "orco 1") or square; the hero's
    weapon unless bare hands are asked for ("fists", "puños"). An attack the engine refuses is still sent,
    so the refusal says why (not adjacent, no line of sight...)."""
    raw = text.strip()
    for la in legal:
        if la.action.token() == raw:
            return la.action
    folded = fold(raw)
    fists = any(w in folded for w in FIST_WORDS)
    for w in FIST_WORDS:
        folded = folded.replace(w, " ")
    pool = figures(view)
    uids = list(dict.fromkeys(match_figures(pool, " ".join(folded.split()) or raw)))
    if len(uids) != 1:
        shown = [figure_label(f, lang) for f in pool if not uids or f["uid"] in uids]
        key = "hq.bot.error.ambiguous_name" if uids else "hq.bot.error.no_name"
        raise IllegalAction(msg(key, text=raw, valid="; ".join(shown[:8]) or "-"))
    mine = [la.action for la in legal if la.action.get("target") == uids[0]]
    chosen = [a for a in mine if bool(a.get("fists")) == fists]
    if chosen:
        return chosen[0]
    if fists and mine and all("fists" not in a.arg_dict for a in mine):
        return mine[0]  # an unarmed hero's attack is bare-handed anyway
    return Action.of("attack", target=uids[0], **({"fists": True} if fists else {}))


def waiting_outside(view: Mapping[str, Any]) -> bool:
    """Whether the hero on turn waits at the Door In (off the board, entering on this turn)."""
    acting = (view.get("turn") or {}).get("hero")
    return any(h["uid"] == acting and h.get("outside") for h in view.get("heroes", []))


def nearest_found_trap(view: Mapping[str, Any]) -> str | None:
    """The found trap nearest the hero on turn (to ask the engine why it cannot be disarmed)."""
    hero = next((h for h in view.get("heroes", []) if h["uid"] == (view.get("turn") or {}).get("hero")), None)
    traps = [o for o in view.get("objects", []) if o.get("kind") == "trap" and o.get("ref") == "found_trap"]
    if hero is None or not hero.get("square") or not traps:
        return None
    r, c = hero["square"]
    return min(traps, key=lambda o: (abs(o["squares"][0][0] - r) + abs(o["squares"][0][1] - c), o["uid"]))["uid"]


def sheet_text(sheet: Mapping[str, Any], lang: str) -> str:
    name = lit(catalog.hero_name(sheet["hero"]), lang)
    level = campaign.level_label(campaign.stored_sheet(sheet))
    if level == "legendary":
        level = i18n.t(msg("hq.bot.sheet.legendary"), lang)
    nothing = i18n.t(msg("hq.bot.nothing"), lang)
    items = ", ".join(lit(catalog.item_name(i), lang) for i in sheet.get("equipment", [])) or nothing
    skills = ", ".join(lit(skill_name(k), lang) for k in sheet.get("skills", [])) or nothing
    treasures = ", ".join(lit(quest_treasures.name(t), lang) for t in sheet.get("quest_treasures", [])) or nothing
    lines = [i18n.t(msg("hq.bot.sheet.header", hero=name, level=level, quests=sheet.get("quests", 0),
                        completed=sheet.get("completed", 0)), lang),
             i18n.t(msg("hq.bot.sheet.stats", body=sheet["max_body"], mind=sheet["max_mind"],
                        gold=sheet.get("gold", 0)), lang),
             i18n.t(msg("hq.bot.sheet.equipment", items=items), lang),
             i18n.t(msg("hq.bot.sheet.skills", skills=skills), lang),
             i18n.t(msg("hq.bot.sheet.treasures", items=treasures), lang)]
    for flag in ("champion", "outlaw", "pardoned"):
        if sheet.get(flag):
            lines.append(i18n.t(msg(f"hq.bot.sheet.{flag}"), lang))
    return "\n".join(lines)


HERO_CHOICES = catalog_choices("cmd.hq.hero.", catalog.HERO_IDS)
#: The shop and the skills describe their hero option as the sheet does.
SHEET_HERO = {"hero": "cmd.hq.sheet.hero"}
#: What the game master may put on the map besides monsters.
OBJECT_CHOICES = catalog_choices("cmd.hq.gm.object.", ["furniture", "blocked", "trap"])


# ---------------------------------------------------------------- the cog


class HeroQuest(GameCog):
    """`/hq ...` for the heroes, `/hq gm ...` for the game master, sheets and the shop between quests."""

    game_id = GAME_ID
    words = WORDS
    group = command_group("cmd.hq")
    gm = command_group("cmd.hq.gm", group)
    shop = command_group("cmd.hq.shop", group)
    skill = command_group("cmd.hq.skill", group)

    help = game_command(group, "cmd.hq.help")(GameCog.help_pages)

    # ---- what this game adds to the shared plumbing

    async def seen(self, interaction: discord.Interaction) -> tuple[list[LegalAction], dict[str, Any],
                                                                     dict[int, str]]:
        """The caller's legal actions, their view and the seat names (raises if they are not seated)."""
        await self.game(interaction)
        view, names = await self.view(interaction)
        return await self.legal(interaction), view, names

    async def _options(self, interaction: discord.Interaction, kinds: Iterable[str]
                       ) -> tuple[list[LegalAction], dict[str, Any], dict[int, str]]:
        """The caller's legal actions of these kinds (maybe none), their view and the seat names; raises
        when it is not their moment at all (someone else's turn, a decision pending elsewhere, the end)."""
        legal, view, names = await self.seen(interaction)
        if not legal:
            await self.refuse_idle(interaction)
        if all(la.action.kind in DECIDE_KINDS for la in legal) and not set(kinds) & DECIDE_KINDS:
            raise WORDS.refusal("decide_first", legal, locale_of(interaction), names, view)
        wanted = set(kinds)
        return [la for la in legal if la.action.kind in wanted], view, names

    async def _hero(self, interaction: discord.Interaction, kinds: Iterable[str], text: str | None = None,
                    direct: Action | None = None) -> None:
        """Do the caller's action of these kinds: the one `text` names, the only one there is, or `direct`
        (an action built from what was typed) so that a refusal says exactly which rule stops it."""
        await defer(interaction)
        legal, view, names = await self._options(interaction, kinds)
        lang = locale_of(interaction)
        token = by_token(legal, text) if text is not None else None
        if token is not None:
            return await self.act(interaction, token)
        if direct is not None:
            return await self.act(interaction, direct)
        if not legal:
            kinds = list(kinds)
            if len(kinds) == 1 and kinds[0] in NO_ARGUMENT_KINDS:
                return await self.act(interaction, Action.of(kinds[0]))
            everything, _, _ = await self.seen(interaction)
            raise WORDS.refusal("no_such_move", everything, lang, names, view)
        if text is None:
            if len(legal) > 1:
                raise IllegalAction(msg("bot.menu.which", valid=WORDS.valid(legal, lang, names, view)))
            return await self.act(interaction, legal[0].action)
        await self.act(interaction, WORDS.pick(legal, text, lang, names, view))

    # ---- the heroes

    @game_command(group, "cmd.hq.move", complete={"to": legal_moves("move", "enter")})
    async def move(self, interaction: discord.Interaction, to: str) -> None:
        # a hero waiting at the Door In moves by entering through it
        square = parse_square(to)
        direct = None
        if square:
            _, view, _ = await self.seen(interaction)
            kind = "enter" if waiting_outside(view) else "move"
            direct = Action.of(kind, to=square)
        await self._hero(interaction, ("move", "enter"), to, direct)

    @game_command(group, "cmd.hq.jump", complete={"to": legal_moves("jump", "jump_in")})
    async def jump(self, interaction: discord.Interaction, to: str) -> None:
        # the square beyond a pit jumps over it; the pit's own square jumps into it
        square = parse_square(to)
        direct = None
        if square:
            legal, _, _ = await self.seen(interaction)
            into = any(la.action.kind == "jump_in" and la.action.get("to") == square for la in legal)
            direct = Action.of("jump_in" if into else "jump", to=square)
        await self._hero(interaction, ("jump", "jump_in"), to, direct)

    @game_command(group, "cmd.hq.door", complete={"door": legal_moves("open_door")})
    async def door(self, interaction: discord.Interaction, door: str | None = None) -> None:
        await self._hero(interaction, ("open_door",), door)

    @game_command(group, "cmd.hq.attack", complete={"target": legal_moves("attack")})
    async def attack(self, interaction: discord.Interaction, target: str) -> None:
        await defer(interaction)
        legal, view, names = await self._options(interaction, ("attack",))
        await self.act(interaction, attack_action(legal, view, target, locale_of(interaction), names))

    @game_command(group, "cmd.hq.cast", complete={"spell": legal_moves(*CAST_KINDS)})
    async def cast(self, interaction: discord.Interaction, spell: str) -> None:
        await self._hero(interaction, CAST_KINDS, spell)

    @game_command(group, "cmd.hq.search", choices={"kind": catalog_choices("cmd.hq.search.", list(SEARCH_KINDS))})
    async def search(self, interaction: discord.Interaction, kind: str) -> None:
        await self._hero(interaction, (SEARCH_KINDS.get(kind, kind),))

    @game_command(group, "cmd.hq.disarm", complete={"trap": legal_moves("disarm")})
    async def disarm(self, interaction: discord.Interaction, trap: str | None = None) -> None:
        await defer(interaction)
        legal, view, _ = await self._options(interaction, ("disarm",))
        if legal or trap:
            return await self._hero(interaction, ("disarm",), trap)
        # nothing to disarm here: the engine says why about the nearest found trap (stand on it, the Tool Kit...)
        await self.act(interaction, Action.of("disarm", trap=nearest_found_trap(view) or "-"))

    @game_command(group, "cmd.hq.equip", complete={"item": legal_moves("equip")})
    async def equip(self, interaction: discord.Interaction, item: str) -> None:
        await self._hero(interaction, ("equip",), item)

    @game_command(group, "cmd.hq.unequip", complete={"item": legal_moves("unequip")})
    async def unequip(self, interaction: discord.Interaction, item: str) -> None:
        await self._hero(interaction, ("unequip",), item)

    @game_command(group, "cmd.hq.drink", complete={"item": legal_moves("drink")})
    async def drink(self, interaction: discord.Interaction, item: str) -> None:
        await self._hero(interaction, ("drink",), item)

    @game_command(group, "cmd.hq.give", complete={"item": legal_moves(*TRADE_KINDS)})
    async def give(self, interaction: discord.Interaction, item: str) -> None:
        await self._hero(interaction, TRADE_KINDS, item)

    @game_command(group, "cmd.hq.pickup", complete={"item": legal_moves("pick_up")})
    async def pickup(self, interaction: discord.Interaction, item: str | None = None) -> None:
        await self._hero(interaction, ("pick_up",), item)

    @game_command(group, "cmd.hq.recover")
    async def recover(self, interaction: discord.Interaction) -> None:
        await self._hero(interaction, ("recover",))

    @game_command(group, "cmd.hq.run")
    async def run(self, interaction: discord.Interaction) -> None:
        await self._hero(interaction, ("run",))

    @game_command(group, "cmd.hq.leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._hero(interaction, ("leave",))

    @game_command(group, "cmd.hq.end")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._hero(interaction, ("end_turn",))

    @game_command(group, "cmd.hq.decide", complete={"choice": legal_moves(*DECIDE_KINDS)})
    async def decide(self, interaction: discord.Interaction, choice: str) -> None:
        await defer(interaction)
        legal, view, names = await self.seen(interaction)
        if not legal:
            await self.refuse_idle(interaction)
        options = [la for la in legal if la.action.kind in DECIDE_KINDS]
        if not options or not view.get("pending"):
            raise IllegalAction(msg("hq.bot.error.no_decision"))
        await self.act(interaction, WORDS.pick(options, choice, locale_of(interaction), names, view))

    @game_command(group, "cmd.hq.heroes")
    async def heroes(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        await self.game(interaction)
        report = await self.table.status(interaction.channel_id or 0, who_of(interaction))
        lang = locale_of(interaction)
        board = report.board or {}
        text = "\n".join(_hero_line(h, lang) for h in board.get("heroes", []))
        await reply(interaction, text or i18n.t(msg("hq.bot.nothing"), lang))

    # ---- quests and sheets

    @game_command(group, "cmd.hq.quests")
    async def quests(self, interaction: discord.Interaction) -> None:
        lang = locale_of(interaction)
        lines = [i18n.t(msg("hq.bot.quests.header"), lang)]
        for qid, quest in builtin_quests().items():
            lines.append(i18n.t(msg("hq.bot.quests.row", id=qid, name=quest.name), lang))
        lines.append(i18n.t(msg("hq.bot.quests.upload"), lang))
        await reply(interaction, "\n".join(lines))

    @game_command(group, "cmd.hq.sheet", choices={"hero": HERO_CHOICES})
    async def sheet(self, interaction: discord.Interaction, hero: str) -> None:
        await defer(interaction)
        sheets = await self.table.profiles(interaction.guild_id, GAME_ID)
        sheet = sheets.get(hero) or campaign.new_sheet(hero)
        await reply(interaction, sheet_text(sheet, locale_of(interaction)))

    async def _between_quests(self, interaction: discord.Interaction) -> None:
        row = await self.table.game_for(interaction.channel_id or 0)
        if row is not None and row.game_type == GAME_ID and row.status == "active":
            raise TableError(msg("hq.bot.error.between_quests"))

    async def _change_sheet(self, interaction: discord.Interaction, hero: str,
                            change: Callable[[campaign.Sheet], campaign.Sheet], done: Msg) -> None:
        await defer(interaction)
        await self._between_quests(interaction)
        if hero not in catalog.HERO_IDS:
            raise TableError(msg("hq.bot.error.no_hero", valid=", ".join(catalog.HERO_IDS)))
        updated = await self.table.update_profile(
            interaction.guild_id, GAME_ID, hero,
            lambda cur: dict(change(campaign.stored_sheet(cur) if cur else campaign.new_sheet(hero))))
        lang = locale_of(interaction)
        await reply(interaction, i18n.t(done, lang) + "\n" + sheet_text(updated, lang))

    @game_command(shop, "cmd.hq.shop.buy", choices={"hero": HERO_CHOICES}, texts=SHEET_HERO)
    async def shop_buy(self, interaction: discord.Interaction, hero: str, item: str) -> None:
        key = self._item_key(item)
        await self._change_sheet(interaction, hero, lambda s: campaign.buy(s, key),
                                 msg("hq.bot.shop.bought", item=catalog.item_name(key) if key in catalog.equipment()
                                     else key))

    @shop_buy.autocomplete("item")
    async def shop_buy_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = locale_of(interaction)
        pairs = [(f"{lit(catalog.item_name(k), lang)} ({e['price']})", k) for k, e in catalog.equipment().items()
                 if e["price"] > 0 and e["slot"] != "potion"]
        return choices_from(pairs, current)

    @game_command(shop, "cmd.hq.shop.sell", choices={"hero": HERO_CHOICES}, texts=SHEET_HERO)
    async def shop_sell(self, interaction: discord.Interaction, hero: str, item: str) -> None:
        key = self._item_key(item)
        await self._change_sheet(interaction, hero, lambda s: campaign.sell(s, key),
                                 msg("hq.bot.shop.sold", item=catalog.item_name(key) if key in catalog.equipment()
                                     else key))

    @shop_sell.autocomplete("item")
    async def shop_sell_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        async def suggest() -> Choices:
            lang = locale_of(interaction)
            hero = given(interaction, "hero")
            sheets = await self.table.profiles(interaction.guild_id, GAME_ID)
            owned = (sheets.get(hero) or (campaign.new_sheet(hero) if hero in catalog.HERO_IDS else {})).get(
                "equipment", [])
            return choices_from([(f"{lit(catalog.item_name(k), lang)} ({campaign.sell_price(k)})", k)
                                 for k in dict.fromkeys(owned) if k in catalog.equipment()], current)
        return await self.complete(suggest)

    @staticmethod
    def _item_key(text: str) -> str:
        raw = text.strip()
        if raw in catalog.equipment():
            return raw
        needle = fold(raw)
        for key, entry in catalog.equipment().items():
            if needle in (fold(entry["name"]["es"]), fold(entry["name"]["en"])):
                return key
        return raw

    @game_command(skill, "cmd.hq.skill.buy", choices={"hero": HERO_CHOICES}, texts=SHEET_HERO)
    async def skill_buy(self, interaction: discord.Interaction, hero: str, skill: str) -> None:
        key = skill.strip()
        for k, entry in catalog.skills().items():
            if fold(key) in (fold(entry["name"]["es"]), fold(entry["name"]["en"])):
                key = k
        name = catalog.skills()[key]["name"] if key in catalog.skills() else {"es": key, "en": key}
        await self._change_sheet(interaction, hero, lambda s: campaign.buy_skill(s, key),
                                 msg("hq.bot.skill.bought", skill=Lit(name["es"], name["en"])))

    @skill_buy.autocomplete("skill")
    async def skill_buy_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = locale_of(interaction)
        hero = given(interaction, "hero")
        sheet = campaign.new_sheet(hero) if hero in catalog.HERO_IDS else None
        pairs = []
        for k, entry in catalog.skills().items():
            price = campaign.skill_price(sheet, k) if sheet else entry["price"]
            pairs.append((f"{lit(entry['name'], lang)} ({price})", k))
        return choices_from(pairs, current)

    # ---- the game master

    async def _gm_view(self, interaction: discord.Interaction, playing: bool = True
                       ) -> tuple[dict[str, Any], dict[int, str]]:
        """The GM's full view; anyone else is told politely that this tool is the game master's."""
        row = await self.game(interaction)
        view, names = await self.view(interaction)
        if view.get("viewer") != "gm":
            raise TableError(msg("hq.bot.error.gm_only", gm=names.get(0, "?")))
        if playing and (row.status != "active" or view.get("over")):
            raise GameOver(msg("core.error.game_over"))
        return view, names

    async def _gm_act(self, interaction: discord.Interaction, action: Action) -> None:
        await defer(interaction)
        await self._gm_view(interaction)
        report = await self.act(interaction, action)
        if report.status == "active" and interaction.user.id not in report.private_views:
            # A tool used out of turn: the GM still gets the map as it is now (their view changed).
            await self._send_map(interaction)

    async def _send_map(self, interaction: discord.Interaction) -> None:
        view, names = await self.view(interaction)
        await self.private_panel(interaction, view, names, "gm-map.png")

    async def _gm_complete(self, interaction: discord.Interaction, make: Callable[[dict[str, Any], str],
                           Iterable[tuple[str, str]]], current: str) -> Choices:
        async def suggest() -> Choices:
            view, _ = await self._gm_view(interaction, playing=False)
            return choices_from(make(view, locale_of(interaction)), current)
        return await self.complete(suggest)

    async def _gm_legal(self, interaction: discord.Interaction, kind: str
                        ) -> tuple[list[LegalAction], dict[str, Any], dict[int, str]]:
        view, names = await self._gm_view(interaction)
        legal = [la for la in await self.legal(interaction) if la.action.kind == kind]
        if not legal:
            if (view.get("turn") or {}).get("who") != "gm":
                raise NotYourTurn(msg("hq.err.not_gm_turn"))
            raise IllegalAction(msg("hq.bot.error.no_monster_can"))
        return legal, view, names

    @game_command(gm, "cmd.hq.gm.map")
    async def gm_map(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        await self._gm_view(interaction, playing=False)
        await self._send_map(interaction)

    @game_command(gm, "cmd.hq.gm.place", texts={"at": "cmd.hq.gm.at"})
    async def gm_place(self, interaction: discord.Interaction, monster: str, at: str) -> None:
        ref = monster.strip()
        for key in catalog.monsters():
            if fold(ref) in (fold(lit(catalog.monster_name(key), "es")), fold(lit(catalog.monster_name(key), "en"))):
                ref = key
        await self._gm_act(interaction, Action.of("gm_place", ref=ref, at=self._square(at)))

    @gm_place.autocomplete("monster")
    async def gm_place_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        lang = locale_of(interaction)
        return choices_from(((lit(catalog.monster_name(k), lang), k) for k in catalog.monsters()), current)

    @game_command(gm, "cmd.hq.gm.object", choices={"kind": OBJECT_CHOICES}, texts={"at": "cmd.hq.gm.at"})
    async def gm_object(self, interaction: discord.Interaction, kind: str, ref: str, at: str) -> None:
        await self._gm_act(interaction, Action.of("gm_place_object", type=kind, ref=ref.strip().replace(" ", "_"),
                                                  at=self._square(at)))

    @game_command(gm, "cmd.hq.gm.remove")
    async def gm_remove(self, interaction: discord.Interaction, thing: str) -> None:
        await defer(interaction)
        view, _ = await self._gm_view(interaction)
        uid = resolve_one(gm_pool(view, objects=True), thing, locale_of(interaction))
        await self._gm_act(interaction, Action.of("gm_remove", uid=uid))

    @gm_remove.autocomplete("thing")
    async def gm_remove_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._gm_complete(interaction, lambda v, lang: gm_choices(gm_pool(v, objects=True), lang),
                                       current)

    @game_command(gm, "cmd.hq.gm.move")
    async def gm_move(self, interaction: discord.Interaction, monster: str, to: str) -> None:
        await defer(interaction)
        view, _ = await self._gm_view(interaction)
        uid = resolve_one(gm_pool(view), monster, locale_of(interaction))
        await self._gm_act(interaction, Action.of("gm_move", monster=uid, to=self._square(to)))

    @gm_move.autocomplete("monster")
    async def gm_move_monster_ac(self, interaction: discord.Interaction, current: str
                                 ) -> Choices:
        return await self._gm_monsters_ac(interaction, current, "gm_move")

    @gm_move.autocomplete("to")
    async def gm_move_to_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        async def suggest() -> Choices:
            legal, view, names = await self._gm_legal(interaction, "gm_move")
            uids = match_figures(gm_pool(view), given(interaction, "monster"))
            lang = locale_of(interaction)
            return choices_from([(describe(la, view, lang, names), str(la.action["to"]))
                                 for la in legal if la.action["monster"] in uids[:1]], current)
        return await self.complete(suggest)

    @game_command(gm, "cmd.hq.gm.attack")
    async def gm_attack(self, interaction: discord.Interaction, monster: str, target: str) -> None:
        await defer(interaction)
        view, _ = await self._gm_view(interaction)
        lang = locale_of(interaction)
        uid = resolve_one(gm_pool(view), monster, lang)
        hero = resolve_one(figures(view, monsters=False, heroes=True), target, lang)
        await self._gm_act(interaction, Action.of("gm_attack", monster=uid, target=hero))

    @gm_attack.autocomplete("monster")
    async def gm_attack_monster_ac(self, interaction: discord.Interaction, current: str
                                   ) -> Choices:
        return await self._gm_monsters_ac(interaction, current, "gm_attack")

    @gm_attack.autocomplete("target")
    async def gm_attack_target_ac(self, interaction: discord.Interaction, current: str
                                  ) -> Choices:
        async def suggest() -> Choices:
            legal, view, names = await self._gm_legal(interaction, "gm_attack")
            uids = match_figures(gm_pool(view), given(interaction, "monster"))
            heroes = {h["uid"]: h for h in view.get("heroes", [])}
            lang = locale_of(interaction)
            return choices_from([(describe(la, view, lang, names), lit(heroes[la.action["target"]]["name"], lang))
                                 for la in legal if la.action["monster"] in uids[:1] and la.action["target"] in heroes],
                                current)
        return await self.complete(suggest)

    async def _gm_monsters_ac(self, interaction: discord.Interaction, current: str, kind: str
                              ) -> Choices:
        """The monsters that may do `kind` now (by display name), else every monster on the map."""
        async def suggest() -> Choices:
            view, _ = await self._gm_view(interaction)
            able = {str(la.action["monster"]) for la in await self.legal(interaction) if la.action.kind == kind}
            pool = [m for m in gm_pool(view) if m["uid"] in able] or gm_pool(view)
            return choices_from(gm_choices(pool, locale_of(interaction)), current)
        return await self.complete(suggest)

    @game_command(gm, "cmd.hq.gm.chaos")
    async def gm_chaos(self, interaction: discord.Interaction, caster: str, spell: str,
                       target: str | None = None) -> None:
        await defer(interaction)
        view, _ = await self._gm_view(interaction)
        lang = locale_of(interaction)
        args: dict[str, Any] = {"caster": resolve_one(gm_pool(view), caster, lang), "spell": chaos_spell_id(spell)}
        if target:
            args["target"] = resolve_one(figures(view, monsters=False, heroes=True), target, lang)
        await self._gm_act(interaction, Action.of("gm_cast", **args))

    @gm_chaos.autocomplete("caster")
    async def gm_chaos_caster_ac(self, interaction: discord.Interaction, current: str
                                 ) -> Choices:
        return await self._gm_complete(interaction, lambda v, lang: gm_choices(
            [m for m in gm_pool(v) if m.get("spells")] or gm_pool(v), lang), current)

    @gm_chaos.autocomplete("spell")
    async def gm_chaos_spell_ac(self, interaction: discord.Interaction, current: str
                                ) -> Choices:
        def make(view: dict[str, Any], lang: str) -> list[tuple[str, str]]:
            uids = match_figures(gm_pool(view), given(interaction, "caster"))
            known = next((m.get("spells") for m in gm_pool(view) if m["uid"] in uids[:1]), None)
            return [(lit(catalog.spell_name(x), lang), lit(catalog.spell_name(x), lang))
                    for x in (known or view.get("chaos_spells", []))]
        return await self._gm_complete(interaction, make, current)

    @gm_chaos.autocomplete("target")
    async def gm_chaos_target_ac(self, interaction: discord.Interaction, current: str
                                 ) -> Choices:
        return await self._gm_complete(interaction, _hero_pairs, current)

    @game_command(gm, "cmd.hq.gm.spell", texts={"spell": "cmd.hq.gm.chaos.spell"})
    async def gm_spell(self, interaction: discord.Interaction, monster: str, spell: str) -> None:
        await defer(interaction)
        view, _ = await self._gm_view(interaction)
        uid = resolve_one(gm_pool(view), monster, locale_of(interaction))
        await self._gm_act(interaction, Action.of("gm_spell", monster=uid, spell=chaos_spell_id(spell)))

    @gm_spell.autocomplete("monster")
    async def gm_spell_monster_ac(self, interaction: discord.Interaction, current: str
                                  ) -> Choices:
        return await self._gm_complete(interaction, lambda v, lang: gm_choices(gm_pool(v), lang), current)

    @gm_spell.autocomplete("spell")
    async def gm_spell_spell_ac(self, interaction: discord.Interaction, current: str
                                ) -> Choices:
        return await self._gm_complete(interaction, lambda v, lang: [
            (lit(catalog.spell_name(x), lang), lit(catalog.spell_name(x), lang))
            for x in v.get("chaos_spells", [])], current)

    @game_command(gm, "cmd.hq.gm.adjust", choices={"stat": catalog_choices("cmd.hq.gm.adjust.", ["body", "mind"])})
    async def gm_adjust(self, interaction: discord.Interaction, who: str, stat: str,
                        delta: app_commands.Range[int, -20, 20]) -> None:
        await defer(interaction)
        view, _ = await self._gm_view(interaction)
        uid = resolve_one(gm_pool(view, heroes=True), who, locale_of(interaction))
        await self._gm_act(interaction, Action.of("gm_adjust", uid=uid, stat=stat, delta=delta))

    @gm_adjust.autocomplete("who")
    async def gm_adjust_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._gm_complete(interaction, lambda v, lang: gm_choices(gm_pool(v, heroes=True), lang),
                                       current)

    @game_command(gm, "cmd.hq.gm.award")
    async def gm_award(self, interaction: discord.Interaction, hero: str, item: str | None = None,
                       gold: app_commands.Range[int, 0, 10000] = 0) -> None:
        await defer(interaction)
        view, _ = await self._gm_view(interaction)
        uid = resolve_one(figures(view, monsters=False, heroes=True), hero, locale_of(interaction))
        args: dict[str, Any] = {"hero": uid}
        if item and item.strip():
            args["item"] = item.strip()
        if gold:
            args["gold"] = gold
        await self._gm_act(interaction, Action.of("gm_award", **args))

    @gm_award.autocomplete("hero")
    async def gm_award_hero_ac(self, interaction: discord.Interaction, current: str
                               ) -> Choices:
        return await self._gm_complete(interaction, _hero_pairs, current)

    @gm_award.autocomplete("item")
    async def gm_award_item_ac(self, interaction: discord.Interaction, current: str
                               ) -> Choices:
        lang = locale_of(interaction)
        pairs = [(lit(quest_treasures.name(t), lang), lit(quest_treasures.name(t), lang))
                 for t in quest_treasures.table()]
        pairs += [(lit(catalog.item_name(k), lang), lit(catalog.item_name(k), lang)) for k in catalog.equipment()]
        return choices_from(pairs, current)

    @game_command(gm, "cmd.hq.gm.note")
    async def gm_note(self, interaction: discord.Interaction, note: str) -> None:
        await self._gm_act(interaction, Action.of("gm_note", note=note.strip()))

    @gm_note.autocomplete("note")
    async def gm_note_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._gm_complete(interaction, lambda v, lang: [
            (f"{'✅' if n.get('read') else '⬜'} {k}: {lit(n, lang)}", k)
            for k, n in sorted((v.get("notes") or {}).items())], current)

    @game_command(gm, "cmd.hq.gm.reveal", texts={"at": "cmd.hq.gm.at"})
    async def gm_reveal(self, interaction: discord.Interaction, at: str) -> None:
        await self._gm_act(interaction, Action.of("gm_reveal", at=self._square(at)))

    @game_command(gm, "cmd.hq.gm.autoplay")
    async def gm_autoplay(self, interaction: discord.Interaction) -> None:
        await self._gm_act(interaction, Action.of("gm_autoplay"))

    @game_command(gm, "cmd.hq.gm.end")
    async def gm_end(self, interaction: discord.Interaction) -> None:
        await self._gm_act(interaction, Action.of("end_turn"))

    @game_command(gm, "cmd.hq.gm.finish", choices={"result": catalog_choices("cmd.hq.gm.finish.", ["win", "lose"])})
    async def gm_finish(self, interaction: discord.Interaction, result: str) -> None:
        await self._gm_act(interaction, Action.of("gm_end_quest", result=result))

    @staticmethod
    def _square(text: str) -> str:
        square = parse_square(text)
        if square is None:
            raise IllegalAction(msg("hq.bot.error.square", text=text.strip()))
        return square


def choices_from(pairs: Iterable[tuple[str, str]], current: str) -> Choices:
    """(label, value) pairs filtered by what was typed, accents aside."""
    return pair_choices(pairs, current, fold)


def _hero_pairs(view: Mapping[str, Any], lang: str) -> list[tuple[str, str]]:
    return [(lit(h["name"], lang), lit(h["name"], lang)) for h in view.get("heroes", []) if not h.get("dead")]


def gm_pool(view: Mapping[str, Any], heroes: bool = False, objects: bool = False) -> list[dict[str, Any]]:
    """What the game master may name: monsters (hidden ones too), optionally heroes and removable objects."""
    out = [dict(f) for f in figures(view, monsters=True, heroes=heroes)]
    if objects:
        for o in view.get("objects", []):
            if o.get("kind") in ("furniture", "blocked", "trap", "rock") and o.get("squares"):
                out.append({"uid": o["uid"], "square": o["squares"][0], "hidden": o.get("hidden"),
                            "name": {lang: ref_name(o["ref"], lang) for lang in i18n.LANGS}})
    return out


def gm_label(f: Mapping[str, Any], lang: str) -> str:
    """"Goblin 2 (5,10)"; a thing the heroes have not found: "Goblin · hidden (7,3)"."""
    if not f.get("hidden"):
        return figure_label(f, lang)
    tagged = {**f, "name": {x: f"{lit(f.get('name'), x)} · {i18n.tk('hq.bot.gm.hidden_tag', x)}" for x in i18n.LANGS}}
    return figure_label(tagged, lang)


def gm_choices(pool: Iterable[Mapping[str, Any]], lang: str) -> list[tuple[str, str]]:
    return [(gm_label(f, lang), gm_label(f, lang)) for f in pool]


def resolve_one(pool: Sequence[Mapping[str, Any]], text: str, lang: str) -> str:
    """The one id `text` names in `pool`, else a refusal listing what it could mean (or what there is)."""
    uids = list(dict.fromkeys(match_figures(pool, text)))
    if len(uids) == 1:
        return uids[0]
    candidates = sorted((f for f in pool if not uids or f["uid"] in uids), key=lambda f: bool(f.get("hidden")))
    shown = [gm_label(f, lang) for f in candidates]
    more = "; …" if len(shown) > 8 else ""
    key = "hq.bot.error.ambiguous_name" if uids else "hq.bot.error.no_name"
    raise IllegalAction(msg(key, text=text.strip(), valid="; ".join(shown[:8]) + more or "-"))


def chaos_spell_id(text: str) -> str:
    """A Chaos spell by id or by its name in either language (the engine refuses anything else)."""
    raw = text.strip()
    for sid in catalog.spells()["chaos"]:
        name = catalog.spell_name(sid)
        if raw == sid or fold(raw) in (fold(name.es), fold(name.en)):
            return sid
    return raw


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HeroQuest(bot, table_of(bot)))

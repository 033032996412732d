"""The `/hr` command group and the Discord presentation (buttons, private text, hand image) of Hero Realms."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.bot_table import table_of
from cogs.declare import command_group, game_command
from cogs.delivery import defer, reply, who_of
from cogs.plumbing import Choices, GameCog, Wording, fold, legal_moves, pair_choices
from cogs.translator import locale_of
from cogs.ui import GameButton, GameUI, actions_menu, button_id, choices_line, offered
from renderers.hero_realms import render_hand
from rules.base import Action, IllegalAction, LegalAction
from rules.hero_realms.moves import ARGS as MOVE_ARGS
from rules.text import Msg, SeatRef, msg
from table import TableError
from table.results import NoGame

GAME_ID = "hero-realms"
ALL_WORDS = frozenset({"all", "todo", "todas", "toda", "todos", "*"})
ABILITY_GROUPS = ("ally", "expend", "sacrifice")
#: Buttons per row and rows Discord allows on one message.
ROW, ROWS = 5, 5


# ---------------------------------------------------------------- presentation


def _card_name(card: Mapping[str, Any], lang: str) -> str:
    name = card.get("name") or {}
    return str(name.get(lang) or name.get("en") or card.get("key") or "?")


def _grouped(cards: Iterable[Mapping[str, Any]], lang: str, nothing: str) -> str:
    """Card names with repeats folded: "Gold ×3, Dagger"."""
    counts = Counter(_card_name(c, lang) for c in cards)
    parts = [name if n == 1 else f"{name} ×{n}" for name, n in counts.items()]
    return ", ".join(parts) or nothing


class HeroRealmsUI(GameUI):
    """The private text and the hand image (the turn buttons come from the engine's quick actions)."""

    game_id = GAME_ID
    private_button = "bot.button.my_turn"

    def private_text(self, view: dict[str, Any], lang: str, names: dict[int, str]) -> str:
        seat = view.get("viewer")
        if not isinstance(seat, int) or not 0 <= seat < len(view.get("players") or []):
            return ""
        me = view["players"][seat]
        nothing = i18n.t(msg("hr.bot.nothing"), lang)
        hand = view.get("hand") or []
        out = [i18n.t(msg("hr.bot.hand", n=len(hand), cards=_grouped(hand, lang, nothing)), lang),
               i18n.t(msg("hr.bot.pools", health=me["health"], gold=me["gold"], combat=me["combat"],
                          deck=me["deck"], discard=me["discard_count"]), lang)]
        if me["in_play"]:
            out.append(i18n.t(msg("hr.bot.in_play", cards=_grouped(me["in_play"], lang, nothing)), lang))
        if me["champions"]:
            tired = i18n.t(msg("hr.bot.expended"), lang)
            champs = ", ".join(_card_name(c, lang) + (f" ({tired})" if c.get("expended") else "")
                               for c in me["champions"])
            out.append(i18n.t(msg("hr.bot.champions", cards=champs), lang))
        for d in view.get("pending") or []:
            if d.get("seat") != seat:
                continue
            prompt = Msg.from_json(d["prompt"])
            if d.get("source"):
                line = msg("hr.bot.pending_from", card=_card_name(d["source"], lang), prompt=prompt)
            else:
                line = msg("hr.bot.pending", prompt=prompt)
            out.append(i18n.t(line, lang, names.get))
        if view.get("winners") is None and seat not in (view.get("to_act") or []):
            out.append(i18n.t(msg("hr.bot.waiting_team" if me.get("waiting") else "hr.bot.waiting"), lang))
        return "\n".join(out)

    def private_panel(self, game_id: int, version: int, legal: list[LegalAction], lang: str,
                      names: dict[int, str]) -> discord.ui.View | None:
        return hand_panel(game_id, version, legal, lang, names)

    def menus(self, legal: list[LegalAction]) -> list[tuple[Msg, list[LegalAction]]]:
        """One menu of every legal move (of the answers, while a decision is pending)."""
        deciding = bool(legal) and all(la.group == "decide" for la in legal)
        return [(msg("hr.bot.select.decide") if deciding else msg("bot.menu.actions"), legal)] if legal else []

    def private_image(self, view: dict[str, Any], lang: str) -> bytes | None:
        if view.get("hand") is None:
            return None
        return render_hand(view, lang)


UI = HeroRealmsUI()


def hand_panel(game_id: int, version: int, legal: list[LegalAction], lang: str,
               names: dict[int, str]) -> discord.ui.View | None:
    """The private panel of `/hr hand`: a button per card to play (or per answer), the frequent moves,
    then menus listing every legal action; within Discord's 5 rows of 5 buttons and 100-char ids."""
    if not legal:
        return None
    view = discord.ui.View(timeout=None)

    def label(la: LegalAction) -> str:
        return i18n.t(la.label, lang, names.get)

    deciding = all(la.group == "decide" for la in legal)
    if deciding:
        first = legal[:2 * ROW]
        rest: list[list[LegalAction]] = []
    else:
        plays = [la for la in legal if la.group == "play"]
        plays.sort(key=lambda la: la.action.kind != "play_all")
        first = plays[:2 * ROW]
        frequent = [la for la in legal if la.action.kind == "end_turn"]
        attacks = [la for la in legal if la.group == "attack" and la.action["target"].startswith("p")]
        frequent = [*attacks[:ROW - 1], *frequent]
        rest = [frequent]
    row = 0
    for chunk in [first[i:i + ROW] for i in range(0, len(first), ROW)] + rest:
        placed = False
        for la in chunk:
            custom_id = button_id("a", game_id, version, la.action.token())
            if custom_id is None:
                continue
            style = discord.ButtonStyle.success if la.action.kind in ("play_all", "choose") else (
                discord.ButtonStyle.danger if la.group == "attack" else discord.ButtonStyle.secondary)
            view.add_item(GameButton(custom_id, label(la), style, row=row))
            placed = True
        row += placed
    for slot, (title, moves) in enumerate(UI.menus(legal)):
        menu = actions_menu(game_id, version, slot, title, moves, lang, names, row=row) if row < ROWS else None
        if menu is not None:
            view.add_item(menu)
            row += 1
    return view


# ---------------------------------------------------------------- matching what the user typed


def _is_token(raw: str) -> bool:
    """Whether `raw` is an action token (what autocomplete and buttons send) rather than typed words."""
    try:
        action = Action.from_token(raw)
    except ValueError:
        return False
    return action.kind in MOVE_ARGS and set(action.arg_dict) == MOVE_ARGS[action.kind]


class HeroRealmsWording(Wording):
    """Hero Realms refusals; a suggestion picked earlier that is gone now is never echoed as its token."""

    prefix = "hr"

    def no_match(self, raw: str, legal: Sequence[LegalAction], lang: str, names: Mapping[int, str],
                 view: Mapping[str, Any] | None) -> IllegalAction:
        if _is_token(raw):
            return self.refusal("gone", legal, lang, names, view)
        return super().no_match(raw, legal, lang, names, view)


WORDS = HeroRealmsWording()


# ---------------------------------------------------------------- the cog


class HeroRealms(GameCog):
    """`/hr hand|play|ability|buy|attack|discard|decide|end`: each checks the table's legal moves and acts."""

    game_id = GAME_ID
    words = WORDS
    group = command_group("cmd.hr")

    help = game_command(group, "cmd.hr.help")(GameCog.help_pages)

    # ---- what this game adds to the shared plumbing

    async def _context(self, interaction: discord.Interaction) -> tuple[list[LegalAction], dict[int, str]]:
        row = await self.game(interaction, started=False)
        return await self.legal(interaction), await self.table.seat_names(row.id)

    async def _options(self, interaction: discord.Interaction, groups: Iterable[str]
                       ) -> tuple[list[LegalAction], dict[int, str]]:
        """The user's legal actions in `groups`, or a localized refusal saying why there are none."""
        legal, names = await self._context(interaction)
        if not legal:
            await self.refuse_idle(interaction)
        wanted = set(groups)
        mine = [la for la in legal if la.group in wanted]
        if not mine:
            reason = "decide_first" if all(la.group == "decide" for la in legal) else "no_such_move"
            raise WORDS.refusal(reason, legal, locale_of(interaction), names)
        return mine, names

    async def _pick_and_act(self, interaction: discord.Interaction, groups: Iterable[str], text: str) -> None:
        await defer(interaction)
        legal, names = await self._options(interaction, groups)
        await self.act(interaction, WORDS.pick(legal, text, locale_of(interaction), names))

    def offered(self, legal: list[LegalAction], kinds: Sequence[str]) -> list[LegalAction]:
        """The legal actions in these groups; attacks once per target (the most combat for each)."""
        mine = [la for la in legal if la.group in kinds]
        return _attack_targets(mine) if tuple(kinds) == ("attack",) else mine

    # ---- commands

    @game_command(group, "cmd.hr.hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        view, names = await self.view(interaction)
        row = await self.game(interaction, started=False)
        lang = locale_of(interaction)
        legal = await self.legal(interaction)
        text = UI.private_text(view, lang, names)
        shown = hand_panel(row.id, row.version, legal, lang, names)
        if offered(shown):
            text += "\n" + i18n.t(choices_line(offered(shown)), lang)
        await self.private_panel(interaction, view, names, "hand.png", text, shown)

    @game_command(group, "cmd.hr.play", complete={"card": legal_moves("play")})
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        if fold(card) not in ALL_WORDS:
            return await self._pick_and_act(interaction, ("play",), card)
        await defer(interaction)
        legal, _ = await self._options(interaction, ("play",))
        # "All" of a one-card hand is that card.
        everything = [la for la in legal if la.action.kind == "play_all"] or legal
        await self.act(interaction, everything[0].action)

    @game_command(group, "cmd.hr.ability", complete={"card": legal_moves(*ABILITY_GROUPS)})
    async def ability(self, interaction: discord.Interaction, card: str) -> None:
        await self._pick_and_act(interaction, ABILITY_GROUPS, card)

    @game_command(group, "cmd.hr.buy", complete={"card": legal_moves("buy")})
    async def buy(self, interaction: discord.Interaction, card: str) -> None:
        await self._pick_and_act(interaction, ("buy",), card)

    @game_command(group, "cmd.hr.attack", complete={"target": legal_moves("attack")})
    async def attack(self, interaction: discord.Interaction, target: str,
                     amount: app_commands.Range[int, 1, 999] | None = None) -> None:
        await defer(interaction)
        legal, names = await self._options(interaction, ("attack",))
        view, _ = await self.view(interaction)
        chosen = _attack_choice(legal, view, target, locale_of(interaction), names)
        if amount is not None:
            combat = view["players"][view["viewer"]]["combat"]
            if not 1 <= amount <= combat:
                raise IllegalAction(msg("hr.err.bad_amount", max=combat))
            chosen = Action.of("attack", target=chosen["target"], amount=amount)
        await self.act(interaction, chosen)

    @game_command(group, "cmd.hr.discard")
    async def discard(self, interaction: discord.Interaction, player: str) -> None:
        await defer(interaction)
        board, names = await self._board(interaction)
        lang = locale_of(interaction)
        seat = _seat_named(player, names, len(board["players"]))
        if seat is None:
            valid = ", ".join(names[s] for s in sorted(names))
            raise TableError(msg("hr.bot.error.no_player", text=player.strip(), valid=valid))
        pile = board["players"][seat]["discard"]
        if pile:
            line = msg("hr.bot.discard.header", seat=SeatRef(seat), n=len(pile),
                       cards=_grouped(pile, lang, i18n.t(msg("hr.bot.nothing"), lang)))
        else:
            line = msg("hr.bot.discard.empty", seat=SeatRef(seat))
        await reply(interaction, i18n.t(line, lang, names.get))

    @discard.autocomplete("player")
    async def discard_autocomplete(self, interaction: discord.Interaction, current: str) -> Choices:
        async def make() -> Choices:
            board, names = await self._board(interaction)
            lang = locale_of(interaction)
            return pair_choices(((i18n.t(msg("hr.bot.choice.seat", seat=SeatRef(p["seat"]), n=p["discard_count"]),
                                         lang, names.get), str(p["seat"] + 1)) for p in board["players"]),
                                current, by_value=False)
        return await self.complete(make)

    async def _board(self, interaction: discord.Interaction) -> tuple[dict[str, Any], dict[int, str]]:
        report = await self.table.status(interaction.channel_id or 0, who_of(interaction))
        if report.game_type != GAME_ID:
            raise NoGame(msg("core.error.no_game"))
        if report.board is None:
            raise TableError(msg("core.error.not_started"))
        return report.board, report.seat_names

    @game_command(group, "cmd.hr.decide", complete={"choice": legal_moves("decide")})
    async def decide(self, interaction: discord.Interaction, choice: str) -> None:
        await defer(interaction)
        legal, names = await self._context(interaction)
        if not legal:
            await self.refuse_idle(interaction)
        options = [la for la in legal if la.group == "decide"]
        if not options:
            raise IllegalAction(msg("hr.bot.error.no_decision"))
        await self.act(interaction, WORDS.pick(options, choice, locale_of(interaction), names))

    @game_command(group, "cmd.hr.end")
    async def end(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        legal, _ = await self._options(interaction, ("end",))
        await self.act(interaction, legal[0].action)


def _attack_targets(legal: list[LegalAction]) -> list[LegalAction]:
    """One entry per attack target: the largest amount the engine lists for it (all combat on a player,
    exactly what a champion needs)."""
    best: dict[str, LegalAction] = {}
    for la in legal:
        if la.action.kind != "attack":
            continue
        t = la.action["target"]
        if t not in best or la.action["amount"] > best[t].action["amount"]:
            best[t] = la
    return list(best.values())


def _attack_choice(legal: list[LegalAction], view: Mapping[str, Any], text: str, lang: str,
                   names: dict[int, str]) -> Action:
    """The attack `text` names: a suggestion's token, a player or a champion by name. A target that cannot
    be attacked now, or a name that fits several, is refused with the valid choices, never redirected."""
    raw = text.strip()
    for la in legal:
        if la.action.token() == raw:
            return la.action
    targets = _attack_targets(legal)
    if _is_token(raw):
        raise WORDS.refusal("gone", targets, lang, names)
    players = view["players"]
    me = view["viewer"]
    seat = _seat_named(raw, names, len(players))
    if seat is not None:
        mine = next((t for t in view.get("targets") or [] if t["seat"] == me), None)
        if mine is not None and seat in mine["players"]:
            return Action.of("attack", target=f"p{seat}", amount=players[me]["combat"])
        if players[seat]["team"] == players[me]["team"]:
            raise IllegalAction(msg("hr.err.own_team"))
        if players[seat]["eliminated"]:
            raise IllegalAction(msg("hr.err.eliminated", seat=SeatRef(seat)))
        why = {b["seat"]: b["why"] for b in (mine or {}).get("blocked", [])}.get(seat, "reach")
        key = "hr.bot.error.guarded" if why == "guard" else "hr.err.out_of_reach"
        raise IllegalAction(msg(key, seat=SeatRef(seat), valid=WORDS.valid(targets, lang, names)))
    needle = fold(raw)
    champions = {c["id"]: c for p in players for c in p["champions"]}

    def called(cid: str, exact: bool) -> bool:
        words = [fold(n) for n in champions[cid]["name"].values()]
        return needle in words if exact else any(needle in w for w in words)

    at_champions = [la for la in targets if la.action["target"] in champions]
    for exact in (True, False):
        found = [la for la in at_champions if needle and called(la.action["target"], exact)]
        if len(found) == 1:
            return found[0].action
        if found:
            raise WORDS.ambiguous(raw, found, lang, names)
    by_label = [la for la in targets if needle in WORDS.forms(la, names, None)]
    if len(by_label) == 1:
        return by_label[0].action
    if any(needle and called(cid, False) for cid in champions):
        raise IllegalAction(msg("hr.bot.error.champion_blocked", text=raw, valid=WORDS.valid(targets, lang, names)))
    raise IllegalAction(msg("hr.bot.error.no_match", text=raw, valid=WORDS.valid(targets, lang, names)))


def _seat_named(text: str, names: dict[int, str], seats: int) -> int | None:
    """A seat from its number as printed on the board (1-based, optionally "P3"/"J3") or its player's name
    (or the unique start of it); None when it names no seat of this table."""
    raw = text.strip()
    number = raw[1:] if raw[:1] in ("p", "P", "j", "J") else raw
    if number.isascii() and number.isdecimal():
        seat = int(number) - 1
        return seat if 0 <= seat < seats else None
    needle = fold(raw.lstrip("@"))
    exact = [s for s, n in names.items() if fold(n) == needle and s < seats]
    if len(exact) == 1:
        return exact[0]
    starts = [s for s, n in names.items() if needle and fold(n).startswith(needle) and s < seats]
    return starts[0] if len(starts) == 1 else None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HeroRealms(bot, table_of(bot)))

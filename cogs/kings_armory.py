"""The `/ka` command group and the Discord presentation (private text, panel, block buttons) of The King's Armory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord.ext import commands

import i18n
from cogs import delivery
from cogs.bot_table import table_of
from cogs.declare import command_group, game_command
from cogs.delivery import defer, reply, who_of
from cogs.plumbing import GameCog, TwoSteps, Wording, legal_moves
from cogs.translator import locale_of
from cogs.ui import GameButton, GameUI, add_step_menu, button_id
from renderers.kings_armory import render
from rules.base import Choice, LegalAction
from rules.text import Lit, SeatRef, msg

GAME_ID = "kings-armory"
MOVE_KINDS = ("move", "exit", "enter", "transfer")
#: Answers to the out-of-turn questions: the block window, the pause for cards, the Lucky Charm, a trade offer.
REACT_KINDS = ("block", "wait", "pass", "go_on", "reroll", "keep_roll", "accept_trade", "decline_trade")
BENCH_KINDS = ("bench", "give")
BLOCK_KINDS = ("block", "unblock")
BUY_KINDS = ("buy_card", "buy_armory", "buy_gear")
#: The commands that name a move by two options: what (a weapon, the ally to place, a card), then where or whom.
PLACE = TwoSteps(("place",), "ally", "ally", first="ally", then="at")
ATTACK = TwoSteps(("attack",), "opt", "option", first="using", then="target")
SPECIAL = TwoSteps(("special",), "opt", "option", first="using", then="target")
TRADE = TwoSteps(("trade",), "gear", "gear", first="give", then="want")
PLAY = TwoSteps(("play",), "card", "card", first="card", then="aim")
GEAR = TwoSteps(("unlock", "equip", "unequip", "sell_gear"), "gear", "gear", first="gear", then="move")
#: The one-click moves of the panel, in the order they are offered (a question shows only its answers).
QUICK = ("activate", "end", "end_turn", "ready")
STYLES = {"block": discord.ButtonStyle.primary, "activate": discord.ButtonStyle.primary,
          "ready": discord.ButtonStyle.success, "pass": discord.ButtonStyle.danger,
          "end_turn": discord.ButtonStyle.danger, "reroll": discord.ButtonStyle.primary,
          "accept_trade": discord.ButtonStyle.success, "decline_trade": discord.ButtonStyle.danger}
#: Discord puts at most five buttons on a row.
PER_ROW = 5


class KingsArmoryUI(GameUI):
    """The private text (the ally acting, a block asked of someone) and the map, and a panel of buttons."""

    game_id = GAME_ID

    def private_image(self, view: dict[str, Any], lang: str) -> bytes | None:
        return render(view, lang) if view.get("map") else None

    def private_text(self, view: dict[str, Any], lang: str, names: dict[int, str]) -> str:
        allies = {a["id"]: a for a in view.get("allies") or []}
        out = [i18n.t(msg("ka.bot.state", wave=view.get("wave", 1), waves=view.get("waves", 5),
                          gate=(view.get("gate") or [0, 0])[0], gold=view.get("gold", 0)), lang)]
        active = allies.get(view.get("active"))
        if active is not None:
            out.append(i18n.t(msg("ka.bot.active", ally=_lit(active["name"]), ap=active["ap"], hp=active["hp"],
                                  max=active["max"], square=active.get("square") or "-"), lang))
        standing = [i18n.t(msg(f"ka.act.order_{a['order']}", ally=_lit(a["name"])), lang)
                    for a in allies.values() if a.get("order", "ask") != "ask"]
        if standing:
            out.append(i18n.t(msg("ka.bot.orders", orders=Lit("; ".join(standing), "; ".join(standing))), lang))
        asking = view.get("asking")
        if isinstance(asking, Mapping) and asking.get("ally") in allies:
            monster = next((m for m in view.get("monsters") or [] if m["id"] == asking.get("mid")), None)
            if monster is not None:
                out.append(i18n.t(msg("ka.bot.asking", ally=_lit(allies[asking["ally"]]["name"]),
                                      monster=_lit(monster["name"]), square=monster["square"]), lang))
        out += _questions(view, allies, lang, names)
        return "\n".join(out)

    def private_panel(self, game_id: int, version: int, legal: list[LegalAction], lang: str,
                      names: dict[int, str]) -> discord.ui.View | None:
        return panel(game_id, version, legal, lang, names)


UI = KingsArmoryUI()


def _questions(view: Mapping[str, Any], allies: Mapping[str, Any], lang: str, names: dict[int, str]) -> list[str]:
    """The other out-of-turn questions open now: a trade offer, a Lucky Charm roll, the pause for cards."""
    out = []
    trade, reroll = view.get("trade"), view.get("reroll")
    gear = {g["id"]: g for g in view.get("gear") or []}
    if isinstance(trade, Mapping) and trade.get("give") in gear and trade.get("want") in gear:
        out.append(i18n.t(msg("ka.bot.trade", seat=SeatRef(trade["from"]), to=SeatRef(trade["to"]),
                              gear=_lit(gear[trade["give"]]["name"]), want=_lit(gear[trade["want"]]["name"])),
                          lang, names.get))
    if isinstance(reroll, Mapping) and reroll.get("ally") in allies:
        out.append(i18n.t(msg("ka.bot.reroll", ally=_lit(allies[reroll["ally"]]["name"]), roll=reroll["roll"]), lang))
    if view.get("pause"):
        out.append(i18n.t(msg("ka.bot.pause"), lang))
    return out


def _lit(value: Any) -> Lit:
    return Lit(str(value.get("es", "")), str(value.get("en", ""))) if isinstance(value, Mapping) else Lit(
        str(value), str(value))


def panel(game_id: int, version: int, legal: Sequence[LegalAction], lang: str,
          names: dict[int, str]) -> discord.ui.View | None:
    """A seat's private panel: the block window's three answers as buttons, else the one-click moves (activate
    an ally, end, ready) and a menu that builds every other move step by step."""
    ui = discord.ui.View(timeout=None)
    react = [la for la in legal if la.action.kind in REACT_KINDS]
    buttons = react or sorted((la for la in legal if la.action.kind in QUICK),
                              key=lambda la: QUICK.index(la.action.kind))
    placed: list[LegalAction] = []
    for la in buttons:
        custom_id = button_id("a", game_id, version, la.action.token())
        if custom_id is None or len(placed) == 2 * PER_ROW:
            continue
        ui.add_item(GameButton(custom_id, i18n.t(la.label, lang, names.get),
                               STYLES.get(la.action.kind, discord.ButtonStyle.secondary), row=len(placed) // PER_ROW))
        placed.append(la)
    # A kind leaves the menu only when every move of it has a button: no move is ever out of reach.
    left = [la for la in legal if la not in placed]
    kinds = list(dict.fromkeys(la.action.kind for la in left))
    add_step_menu(ui, game_id, version, [Choice(k, msg(f"ka.bot.kind.{k}")) for k in kinds], lang, names, row=2)
    return ui if ui.children else None


# ---------------------------------------------------------------- matching what the user typed


class KingsArmoryWording(Wording):
    """King's Armory refusals; a move is also named by the square, hero or champion it names ("B3", "archer")."""

    prefix = "ka"

    def hint_forms(self, la: LegalAction, names: Mapping[int, str], view: Mapping[str, Any] | None) -> list[str]:
        return [self.fold(str(v)) for k, v in la.action.arg_dict.items() if k in ("to", "at", "hero", "type")]

    def forms(self, la: LegalAction, names: Mapping[int, str], view: Mapping[str, Any] | None) -> list[str]:
        return super().forms(la, names, view) + self.hint_forms(la, names, view)


WORDS = KingsArmoryWording()


# ---------------------------------------------------------------- the cog


#: Moves the shop lists only a few of; autocomplete and typed squares get all of them.
SHOP_SQUARES = ("build", "place")


class KingsArmory(GameCog):
    """`/ka panel|pick|build|sell|hire|upgrade|place|bench|ready|activate|move|attack|special|block|react|trade|
    play|hold|end|endturn|buy|gear|orders`: each offers only the caller's legal moves of its kinds (a card play, a
    hold or an order also off turn), matches what was typed, and acts."""

    game_id = GAME_ID
    words = WORDS
    group = command_group("cmd.ka")

    help = game_command(group, "cmd.ka.help")(GameCog.help_pages)

    async def seen(self, interaction: discord.Interaction
                   ) -> tuple[list[LegalAction], dict[str, Any] | None, dict[int, str]]:
        """The legal moves, with every build and placement: the shop lists a few of each (so its other moves are
        not drowned) and offers every square through the moves built in steps."""
        legal, view, names = await super().seen(interaction)
        first = [Choice(kind, msg(f"ka.act.{kind}")) for kind in SHOP_SQUARES]
        every = await delivery.walk_moves(self.table, interaction.channel_id or 0, who_of(interaction), first, None)
        if every:
            # A square near two houses is a placement into either: one move per (ally, square) is offered, the
            # one the shop lists when it lists one, else the first house, so typing the square is never ambiguous.
            seen: dict[tuple[Any, ...], LegalAction] = {}
            listed = [la for la in legal if la.action.kind in SHOP_SQUARES]
            for la in [*listed, *every]:
                seen.setdefault((la.action.kind, la.action.get("ally"), la.action.get("at")), la)
            legal = [la for la in legal if la.action.kind not in SHOP_SQUARES] + list(seen.values())
        return legal, view, names

    # ---- commands

    @game_command(group, "cmd.ka.panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        """What the turn message's private button shows (the map, the text, this game's panel), on demand."""
        await defer(interaction)
        row = await self.game(interaction)
        view, names = await self.view(interaction)
        text, buttons, file = await delivery.private_panel(self.table, interaction, row.id, row.version, GAME_ID, view,
                                                           names, locale_of(interaction), who_of(interaction))
        await reply(interaction, text, view=buttons, file=file)

    @game_command(group, "cmd.ka.pick", complete={"hero": legal_moves("pick")})
    async def pick(self, interaction: discord.Interaction, hero: str) -> None:
        await self.pick_and_act(interaction, ("pick",), hero)

    @game_command(group, "cmd.ka.build", complete={"at": legal_moves("build")})
    async def build(self, interaction: discord.Interaction, at: str) -> None:
        await self.pick_and_act(interaction, ("build",), at)

    @game_command(group, "cmd.ka.sell", complete={"tower": legal_moves("sell")})
    async def sell(self, interaction: discord.Interaction, tower: str) -> None:
        await self.pick_and_act(interaction, ("sell",), tower)

    @game_command(group, "cmd.ka.hire", complete={"champion": legal_moves("hire")})
    async def hire(self, interaction: discord.Interaction, champion: str) -> None:
        await self.pick_and_act(interaction, ("hire",), champion)

    @game_command(group, "cmd.ka.upgrade", complete={"ally": legal_moves("upgrade")})
    async def upgrade(self, interaction: discord.Interaction, ally: str) -> None:
        await self.pick_and_act(interaction, ("upgrade",), ally)

    @game_command(group, "cmd.ka.place", complete=PLACE.complete)
    async def place(self, interaction: discord.Interaction, ally: str, at: str | None = None) -> None:
        await PLACE.play(self, interaction, ally, at)

    @game_command(group, "cmd.ka.bench", complete={"ally": legal_moves(*BENCH_KINDS)})
    async def bench(self, interaction: discord.Interaction, ally: str) -> None:
        await self.pick_and_act(interaction, BENCH_KINDS, ally)

    @game_command(group, "cmd.ka.ready")
    async def ready(self, interaction: discord.Interaction) -> None:
        await self.pick_and_act(interaction, ("ready",), None)

    @game_command(group, "cmd.ka.activate", complete={"ally": legal_moves("activate")})
    async def activate(self, interaction: discord.Interaction, ally: str) -> None:
        await self.pick_and_act(interaction, ("activate",), ally)

    @game_command(group, "cmd.ka.move", complete={"to": legal_moves(*MOVE_KINDS)})
    async def move(self, interaction: discord.Interaction, to: str) -> None:
        await self.pick_and_act(interaction, MOVE_KINDS, to)

    @game_command(group, "cmd.ka.attack", complete=ATTACK.complete)
    async def attack(self, interaction: discord.Interaction, using: str, target: str | None = None) -> None:
        await ATTACK.play(self, interaction, using, target)

    @game_command(group, "cmd.ka.special", complete=SPECIAL.complete)
    async def special(self, interaction: discord.Interaction, using: str, target: str | None = None) -> None:
        await SPECIAL.play(self, interaction, using, target)

    @game_command(group, "cmd.ka.block", complete={"choice": legal_moves(*BLOCK_KINDS)})
    async def block(self, interaction: discord.Interaction, choice: str) -> None:
        await self.pick_and_act(interaction, BLOCK_KINDS, choice, own_kind_first=True)

    @game_command(group, "cmd.ka.react", complete={"choice": legal_moves(*REACT_KINDS)})
    async def react(self, interaction: discord.Interaction, choice: str) -> None:
        await self.pick_and_act(interaction, REACT_KINDS, choice)

    @game_command(group, "cmd.ka.trade", complete=TRADE.complete)
    async def trade(self, interaction: discord.Interaction, give: str, want: str | None = None) -> None:
        await TRADE.play(self, interaction, give, want)

    @game_command(group, "cmd.ka.play", complete=PLAY.complete)
    async def play(self, interaction: discord.Interaction, card: str, aim: str | None = None) -> None:
        await PLAY.play(self, interaction, card, aim)

    @game_command(group, "cmd.ka.hold")
    async def hold(self, interaction: discord.Interaction) -> None:
        await self.pick_and_act(interaction, ("hold",), None)

    @game_command(group, "cmd.ka.end")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.pick_and_act(interaction, ("end",), None)

    @game_command(group, "cmd.ka.endturn")
    async def endturn(self, interaction: discord.Interaction) -> None:
        await self.pick_and_act(interaction, ("end_turn",), None)

    @game_command(group, "cmd.ka.buy", complete={"what": legal_moves(*BUY_KINDS)})
    async def buy(self, interaction: discord.Interaction, what: str) -> None:
        await self.pick_and_act(interaction, BUY_KINDS, what)

    @game_command(group, "cmd.ka.gear", complete=GEAR.complete)
    async def gear(self, interaction: discord.Interaction, gear: str, move: str | None = None) -> None:
        await GEAR.play(self, interaction, gear, move)

    @game_command(group, "cmd.ka.orders", complete={"choice": legal_moves("order")})
    async def orders(self, interaction: discord.Interaction, choice: str) -> None:
        await self.pick_and_act(interaction, ("order",), choice)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(KingsArmory(bot, table_of(bot)))

"""The `/br` command group and the Discord presentation (private text, step buttons) of Gorgasali Battle Royale."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import discord
from discord.ext import commands

import i18n
from cogs.bot_table import table_of
from cogs.declare import command_group, game_command
from cogs.delivery import defer, walk_moves, who_of
from cogs.plumbing import Choices, GameCog, Wording, legal_moves, listing, nothing, step_labels
from cogs.translator import locale_of
from cogs.ui import GameButton, GameUI, Walk, add_step_menu, button_id, choices_line, offered
from renderers.gorgasali import render
from rules.base import Action, Choice, IllegalAction, LegalAction
from rules.gorgasali.views import View
from rules.text import msg

GAME_ID = "gorgasali"
#: The direction buttons laid out as on a compass: three rows of three (the middle one is empty).
COMPASS = (("NW", "N", "NE"), ("W", None, "E"), ("SW", "S", "SE"))
ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
#: The one-click moves of the panel's fourth row, in the order they are offered.
QUICK = ("roll", "skip", "stop", "reload", "chest", "dober_done", "end")
STEP_KINDS = ("step", "dober", "dober_done")
SHOOT_KINDS = ("shoot", "reroll")
CARD_KINDS = ("potion", "ammo", "move_card", "teleport", "arrange", "chest")
ABILITY_KINDS = ("ability", "imitate", "swap_back")
DECIDE_KINDS = ("place", "accept", "decline", "pick")
DUO_KINDS = ("revive", "give", "take", "give_chest", "take_chest", "propose", "withdraw")
ROW = 5


# ---------------------------------------------------------------- presentation


class GorgasaliUI(GameUI):
    """The private text (the seat's fighter, stage and pending decisions) and the island drawn for that seat."""

    game_id = GAME_ID

    def private_text(self, view: dict[str, Any], lang: str, names: dict[int, str]) -> str:
        seat = view.get("you")
        players = view.get("players") or []
        if not isinstance(seat, int) or not 0 <= seat < len(players):
            return ""
        me = players[seat]
        out = []
        if me.get("alive") or view.get("phase") == "pick":
            out.append(i18n.t(msg("br.bot.me", hp=me["hp"], at=me.get("at") or "-"), lang))
        else:
            out.append(i18n.t(msg("br.bot.out"), lang))
        flags = view.get("turn_flags")
        if view.get("turn") == seat and flags and flags.get("stage") in ("rolled", "moving"):
            out.append(i18n.t(msg("br.bot.points", points=flags.get("points", 0),
                                  dice=" ".join(str(d) for d in flags.get("dice") or []) or "-"), lang))
        steps = view.get("steps") or []
        if steps:
            out.append(i18n.t(msg("br.bot.steps", steps=", ".join(f"{ARROWS.get(s['dir'], s['dir'])} {s['to']}"
                                                                    f" ({s['cost']})" for s in steps)), lang))
        for q in view.get("pending") or []:
            if q.get("seat") == seat:
                out.append(i18n.t(msg("br.bot.decide", prompt=msg("gg.dec.place", card=msg(f"gg.card.{q['card']}"))),
                                  lang))
                break
        trade = view.get("trade")
        if isinstance(trade, Mapping) and trade.get("to") == seat and not view.get("pending"):
            out.append(i18n.t(msg("br.bot.decide", prompt=msg("gg.dec.trade", seat=names.get(trade["from"], "?"))),
                              lang))
        return "\n".join(out)

    def private_image(self, view: dict[str, Any], lang: str) -> bytes | None:
        # The table hands every game's view over as a plain dict; this one is Gorgasali's (rules.gorgasali.views.View).
        return render(cast(View, view), lang) if view.get("map") else None

    async def step_panel(self, walk: Walk, game_id: int, version: int, first: list[Choice],
                         view: dict[str, Any], lang: str, names: dict[int, str]) -> discord.ui.View | None:
        """"My options" shows the same compass as `/br panel`."""
        labels = step_labels(WORDS.prefix, first, await walk(None), lang, names)
        return panel(game_id, version, await walk((*STEP_KINDS, *QUICK)), first, view, lang, names, labels)


UI = GorgasaliUI()


def panel(game_id: int, version: int, legal: Sequence[LegalAction], first: list[Choice] | Action,
          view: Mapping[str, Any], lang: str, names: dict[int, str],
          labels: dict[str, str] | None = None) -> discord.ui.View | None:
    """The private panel of `/br panel`: a compass of the steps and Dobergun moves legal now, the one-click moves,
    then the menu that builds any other move (Discord's 5 rows: three of compass, one of buttons, one menu)."""
    ui = discord.ui.View(timeout=None)
    by_dir = {la.action.get("dir"): la.action for la in legal if la.action.kind in ("step", "dober")}
    where = {s["dir"]: s for s in view.get("steps") or []}
    for row, dirs in enumerate(COMPASS):
        for d in dirs:
            action = by_dir.get(d)
            custom_id = button_id("a", game_id, version, action.token()) if action is not None else None
            if d is None or custom_id is None:
                continue
            s = where.get(d)
            label = f"{ARROWS[d]} {s['to']} ({s['cost']})" if s else f"{ARROWS[d]} {i18n.t(msg(f'gg.dir.{d}'), lang)}"
            ui.add_item(GameButton(custom_id, label, discord.ButtonStyle.primary, row=row))
    placed = 0
    for kind in QUICK:
        action = next((la.action for la in legal if la.action.kind == kind), None)
        custom_id = button_id("a", game_id, version, action.token()) if action is not None else None
        if custom_id is None or placed == ROW:
            continue
        style = discord.ButtonStyle.danger if kind == "end" else discord.ButtonStyle.secondary
        ui.add_item(GameButton(custom_id, i18n.t(msg(f"gg.button.{kind}"), lang), style, row=3))
        placed += 1
    if isinstance(first, list) and first:
        add_step_menu(ui, game_id, version, first, lang, names, row=4, labels=labels)
    return ui if ui.children else None


# ---------------------------------------------------------------- matching what the user typed


#: Other spellings players type for a card (folded): the rulebook writes both "Breathold" and "Breathhold" (A-57).
ALIASES = {"breathold": "breathhold"}


class GorgasaliWording(Wording):
    """Gorgasali refusals; a step is also named by its direction (N, norte, north) or the square it reaches."""

    prefix = "br"

    def hint_forms(self, la: LegalAction, names: Mapping[int, str], view: Mapping[str, Any] | None) -> list[str]:
        d = la.action.get("dir")
        if not isinstance(d, str):
            return []
        return [self.fold(d), *(self.fold(i18n.t(msg(f"gg.dir.{d}"), lang)) for lang in i18n.LANGS)]

    def forms(self, la: LegalAction, names: Mapping[int, str], view: Mapping[str, Any] | None) -> list[str]:
        forms = super().forms(la, names, view) + self.hint_forms(la, names, view)
        return forms + [f.replace(name, alias) for name, alias in ALIASES.items() for f in forms if name in f]


WORDS = GorgasaliWording()


# ---------------------------------------------------------------- the cog


class Gorgasali(GameCog):
    """`/br panel|step|roll|stop|skip|reload|end|shoot|card|defend|throw|ability|decide|duo`: each walks the
    table's step-built choices for its kinds of move, matches what was typed, and acts."""

    game_id = GAME_ID
    words = WORDS
    group = command_group("cmd.br")

    help = game_command(group, "cmd.br.help")(GameCog.help_pages)

    # ---- what this game adds to the shared plumbing

    async def options(self, interaction: discord.Interaction, kinds: Sequence[str] | None
                      ) -> tuple[list[LegalAction], list[Choice] | Action]:
        """The caller's legal moves of these kinds (all but `move` when None) and the first step's choices."""
        channel, who = interaction.channel_id or 0, who_of(interaction)
        first = await self.table.choices(channel, who, [])
        mine = await walk_moves(self.table, channel, who, first, kinds) if isinstance(first, list) else []
        return mine, first

    async def seen(self, interaction: discord.Interaction
                   ) -> tuple[list[LegalAction], dict[str, Any] | None, dict[int, str]]:
        """Every whole move of the caller but the path-built `move` (which `/game act` builds from its words)."""
        mine, _ = await self.options(interaction, None)
        return mine, None, await self._names(interaction)

    async def _names(self, interaction: discord.Interaction) -> dict[int, str]:
        row = await self.game(interaction)
        return await self.table.seat_names(row.id)

    async def _mine(self, interaction: discord.Interaction, kinds: Sequence[str], ask_engine: bool = False
                    ) -> tuple[list[LegalAction], dict[int, str]]:
        """The caller's moves of these kinds, or a localized refusal saying why there are none (the engine's own
        reason for a move without arguments, when `ask_engine`)."""
        names = await self._names(interaction)
        mine, first = await self.options(interaction, kinds)
        if not first:
            await self.refuse_idle(interaction)
        if not mine:
            told = await self.engine_reason(interaction, kinds) if ask_engine else None
            if told is not None:
                raise IllegalAction(told)
            lang = locale_of(interaction)
            steps = first if isinstance(first, list) else []
            everything, _ = await self.options(interaction, None)
            words = step_labels(WORDS.prefix, steps, everything, lang, names)
            labels = [words.get(c.token) or i18n.t(c.label, lang, lambda seat: names.get(seat, "?")) for c in steps]
            raise IllegalAction(msg("br.bot.error.no_such_move", valid=listing(labels, empty=nothing(lang))))
        return mine, names

    async def _pick_and_act(self, interaction: discord.Interaction, kinds: Sequence[str], text: str | None) -> None:
        await defer(interaction)
        mine, names = await self._mine(interaction, kinds, ask_engine=text is None)
        if text is None:
            if len(mine) > 1:
                raise WORDS.refusal("which", mine, locale_of(interaction), names)
            await self.act(interaction, mine[0].action)
            return
        await self.act(interaction, WORDS.pick(mine, text, locale_of(interaction), names))

    async def suggest(self, interaction: discord.Interaction, current: str, kinds: Sequence[str]) -> Choices:
        async def make() -> Choices:
            names = await self._names(interaction)
            mine, _ = await self.options(interaction, kinds)
            return self.words.choices(mine, current, locale_of(interaction), names)
        return await self.complete(make)

    # ---- commands

    @game_command(group, "cmd.br.panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        view, names = await self.view(interaction)
        row = await self.game(interaction)
        legal, first = await self.options(interaction, (*STEP_KINDS, *QUICK))
        lang = locale_of(interaction)
        text = UI.private_text(view, lang, names)
        everything, _ = await self.options(interaction, None)
        shown = panel(row.id, row.version, legal, first, view, lang, names,
                      step_labels(WORDS.prefix, first if isinstance(first, list) else [], everything, lang, names))
        more = choices_line(offered(shown)) if first and shown is not None else msg("bot.nothing_to_do")
        text = "\n".join(x for x in (text, i18n.t(more, lang)) if x)
        await self.private_panel(interaction, view, names, "island.png", text, shown)

    @game_command(group, "cmd.br.step", complete={"direction": legal_moves(*STEP_KINDS)})
    async def step(self, interaction: discord.Interaction, direction: str) -> None:
        await self._pick_and_act(interaction, STEP_KINDS, direction)

    @game_command(group, "cmd.br.roll")
    async def roll(self, interaction: discord.Interaction) -> None:
        await self._pick_and_act(interaction, ("roll",), None)

    @game_command(group, "cmd.br.stop")
    async def stop(self, interaction: discord.Interaction) -> None:
        await self._pick_and_act(interaction, ("stop",), None)

    @game_command(group, "cmd.br.skip")
    async def skip(self, interaction: discord.Interaction) -> None:
        await self._pick_and_act(interaction, ("skip",), None)

    @game_command(group, "cmd.br.reload")
    async def reload(self, interaction: discord.Interaction) -> None:
        await self._pick_and_act(interaction, ("reload",), None)

    @game_command(group, "cmd.br.end")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._pick_and_act(interaction, ("end",), None)

    @game_command(group, "cmd.br.shoot", complete={"shot": legal_moves(*SHOOT_KINDS)})
    async def shoot(self, interaction: discord.Interaction, shot: str) -> None:
        await self._pick_and_act(interaction, SHOOT_KINDS, shot)

    @game_command(group, "cmd.br.card", complete={"card": legal_moves(*CARD_KINDS)})
    async def card(self, interaction: discord.Interaction, card: str) -> None:
        await self._pick_and_act(interaction, CARD_KINDS, card)

    @game_command(group, "cmd.br.defend", complete={"card": legal_moves("defend")})
    async def defend(self, interaction: discord.Interaction, card: str) -> None:
        await self._pick_and_act(interaction, ("defend",), card)

    @game_command(group, "cmd.br.throw", complete={"card": legal_moves("throw")})
    async def throw(self, interaction: discord.Interaction, card: str) -> None:
        await self._pick_and_act(interaction, ("throw",), card)

    @game_command(group, "cmd.br.ability", complete={"choice": legal_moves(*ABILITY_KINDS)})
    async def ability(self, interaction: discord.Interaction, choice: str) -> None:
        await self._pick_and_act(interaction, ABILITY_KINDS, choice)

    @game_command(group, "cmd.br.decide", complete={"choice": legal_moves(*DECIDE_KINDS)})
    async def decide(self, interaction: discord.Interaction, choice: str) -> None:
        await self._pick_and_act(interaction, DECIDE_KINDS, choice)

    @game_command(group, "cmd.br.duo", complete={"choice": legal_moves(*DUO_KINDS)})
    async def duo(self, interaction: discord.Interaction, choice: str) -> None:
        await self._pick_and_act(interaction, DUO_KINDS, choice)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Gorgasali(bot, table_of(bot)))

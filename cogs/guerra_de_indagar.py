"""The `/gi` command group and the Discord presentation (private map, peeks, window buttons) of La Guerra de Indagar."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord.ext import commands

import i18n
from cogs.bot_table import table_of
from cogs.declare import command_group, game_command, given
from cogs.delivery import who_of
from cogs.plumbing import Choices, GameCog, Wording, fold, legal_moves, pair_choices
from cogs.translator import locale_of
from cogs.ui import GameButton, GameUI, actions_menu, add_step_menu, button_id
from renderers.guerra_de_indagar import render
from rules.base import Action, Choice, LegalAction
from rules.guerra_de_indagar.data import hero_name
from rules.text import Msg, msg

GAME_ID = "guerra-de-indagar"
#: The steps of an activation: which hero, its path, its one action (then the action's target).
HERO = ("activate",)
PATH = ("move", "explore", "charge_step", "portal", "leave_maelstrom")
ACTION = ("attack", "build", "upgrade", "gather", "clearing")
SETUP = ("faction", "commander", "monster")
TRADE = ("trade", "spirit_res", "spirit_heal", "spirit_pp")
#: Answers to the questions of a fight, a reveal, a level or a window (often on someone else's turn).
ANSWER = ("roll_defence", "spirit_dice", "spirit_ignore", "ability", "blood_magic", "done", "fall_back",
          "monster_fall_back", "level", "redeploy", "maelstrom", "cache", "monster_target", "monster_opportunity",
          "pass", "spirit_pp", "declare", "reap", "charge", "stay", "reveal", "keep_hidden", "degrade")
#: Moves offered as one-click buttons on the private panel (the rest sit in its menus).
BUTTONS = ("roll_defence", "spirit_dice", "spirit_ignore", "blood_magic", "done", "pass", "spirit_pp", "charge",
           "stay", "reveal", "keep_hidden", "build", "upgrade", "gather", "clearing", "end")
PER_ROW = 5


# ---------------------------------------------------------------- presentation


def _buttons(game_id: int, version: int, legal: Sequence[LegalAction]) -> list[tuple[str, LegalAction]]:
    """The moves shown as one-click buttons (two rows at most), each with its custom id."""
    out: list[tuple[str, LegalAction]] = []
    for la in legal:
        custom_id = button_id("a", game_id, version, la.action.token())
        if la.action.kind in BUTTONS and custom_id is not None and len(out) < 2 * PER_ROW:
            out.append((custom_id, la))
    return out


def _rest(legal: Sequence[LegalAction]) -> list[LegalAction]:
    """The moves not on a button."""
    buttons = {la.action for _, la in _buttons(0, 0, legal)}
    return [la for la in legal if la.action not in buttons]


def menus(legal: Sequence[LegalAction]) -> list[tuple[Msg, list[LegalAction]]]:
    """The panel's menus of whole moves not on a button: moving and exploring, then the rest but trades and spirits
    (which are built in steps); each pages when longer than 25."""
    rest = _rest(legal)
    groups = [(msg("gi.menu.path"), [la for la in rest if la.action.kind in PATH]),
              (msg("gi.menu.other"), [la for la in rest if la.action.kind not in PATH + TRADE])]
    return [(title, moves) for title, moves in groups if moves]


def trade_steps(legal: Sequence[LegalAction]) -> list[Choice]:
    """The first step of a trade or a spirit spent, one entry per kind: what to get, then what to give follows."""
    kinds = dict.fromkeys(la.action.kind for la in _rest(legal) if la.action.kind in TRADE)
    return [Choice(kind, msg(f"gi.menu.kind.{kind}")) for kind in kinds]


def panel(game_id: int, version: int, legal: Sequence[LegalAction], lang: str,
          names: dict[int, str]) -> discord.ui.View | None:
    """Two rows of one-click buttons (a window's answers, the activation's simple actions, End), then a menu of the
    paths, one that builds a trade or a spirit spent step by step, and one of the other moves (Discord's rows)."""
    ui = discord.ui.View(timeout=None)
    for placed, (custom_id, la) in enumerate(_buttons(game_id, version, legal)):
        style = discord.ButtonStyle.danger if la.action.kind == "end" else discord.ButtonStyle.secondary
        ui.add_item(GameButton(custom_id, i18n.t(la.label, lang, names.get), style, row=placed // PER_ROW))
    groups = list(enumerate(menus(legal)))
    paths = [(slot, group) for slot, group in groups if group[0].key == "gi.menu.path"]
    others = [(slot, group) for slot, group in groups if group[0].key != "gi.menu.path"]
    row = 2
    for slot, (title, moves) in paths:
        menu = actions_menu(game_id, version, slot, title, moves, lang, names, row=row)
        if menu is not None:
            ui.add_item(menu)
            row += 1
    trades = trade_steps(legal)
    if trades:
        add_step_menu(ui, game_id, version, trades, lang, names, row=row, title=i18n.t(msg("gi.menu.trade"), lang))
        row += 1
    for slot, (title, moves) in others:
        menu = actions_menu(game_id, version, slot, title, moves, lang, names, row=row) if row < 5 else None
        if menu is not None:
            ui.add_item(menu)
            row += 1
    return ui if ui.children else None


class IndagarUI(GameUI):
    """The seat's private text (its activation, what it alone has seen) and the map drawn for that seat."""

    game_id = GAME_ID

    def private_text(self, view: dict[str, Any], lang: str, names: dict[int, str]) -> str:
        out = []
        active = view.get("active")
        if active:
            out.append(i18n.t(msg("gi.bot.active", hero=hero_name(active["hero"]), mv=active["mv"],
                                  acted=msg("gi.bot.acted" if active["acted"] else "gi.bot.not_acted")), lang))
        peeks = view.get("peeks") or []
        if peeks:
            out.append(i18n.t(msg("gi.bot.peeks", tiles=", ".join(p.split("=")[0] for p in peeks)), lang))
        return "\n".join(out)

    def private_image(self, view: dict[str, Any], lang: str) -> bytes | None:
        return render(view, lang) if view.get("tiles") else None

    def private_panel(self, game_id: int, version: int, legal: list[LegalAction], lang: str,
                      names: dict[int, str]) -> discord.ui.View | None:
        return panel(game_id, version, legal, lang, names)

    def menus(self, legal: list[LegalAction]) -> list[tuple[Msg, list[LegalAction]]]:
        return menus(legal)


UI = IndagarUI()


class IndagarWording(Wording):
    """Guerra de Indagar refusals; a move is also named by the tile it goes to (C4) or the hero it names."""

    prefix = "gi"

    def hint_forms(self, la: LegalAction, names: Mapping[int, str], view: Mapping[str, Any] | None) -> list[str]:
        out = [self.fold(str(la.action[k])) for k in ("to", "hero", "tree") if la.action.get(k) is not None]
        hero = la.action.get("hero")
        if isinstance(hero, str):
            out += [self.fold(hero_name(hero).es), self.fold(hero_name(hero).en)]
        return out

    def forms(self, la: LegalAction, names: Mapping[int, str], view: Mapping[str, Any] | None) -> list[str]:
        return super().forms(la, names, view) + self.hint_forms(la, names, view)


WORDS = IndagarWording()


def _step_label(choice: Choice, lang: str, names: Mapping[int, str]) -> str:
    """A step's words: the move's own label, or for an argument (`to=C4`) just its value."""
    text = i18n.t(choice.label, lang, names.get)
    return text.partition("=")[2] or text if text == choice.token else text


# ---------------------------------------------------------------- the cog


class Indagar(GameCog):
    """`/gi panel|setup|hero|path|action|trade|answer|end`: each offers the caller's legal moves of its kind
    (the action and its target walked step by step through the table's choices) and acts."""

    game_id = GAME_ID
    words = WORDS
    group = command_group("cmd.gi")

    help = game_command(group, "cmd.gi.help")(GameCog.help_pages)

    async def _steps(self, interaction: discord.Interaction, path: list[str]) -> list[Choice] | Action:
        return await self.table.choices(interaction.channel_id or 0, who_of(interaction), path)

    async def _kinds_offered(self, interaction: discord.Interaction) -> list[Choice]:
        first = await self._steps(interaction, [])
        return [c for c in first if c.token in ACTION] if isinstance(first, list) else []

    def _match(self, choices: Sequence[Choice], text: str, lang: str, names: Mapping[int, str]) -> Choice | None:
        needle = fold(text)
        for choice in choices:
            forms = {fold(choice.token), fold(choice.token.partition("=")[2]), fold(_step_label(choice, lang, names))}
            forms |= {fold(i18n.t(choice.label, other, names.get)) for other in i18n.LANGS}
            if needle in forms:
                return choice
        return None

    # ---- commands

    @game_command(group, "cmd.gi.panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        await self.panel_for(interaction, "indagar.png", panel)

    @game_command(group, "cmd.gi.setup", complete={"choice": legal_moves(*SETUP)})
    async def setup_choice(self, interaction: discord.Interaction, choice: str) -> None:
        await self.pick_and_act(interaction, SETUP, choice)

    @game_command(group, "cmd.gi.hero", complete={"hero": legal_moves(*HERO)})
    async def hero(self, interaction: discord.Interaction, hero: str) -> None:
        await self.pick_and_act(interaction, HERO, hero)

    @game_command(group, "cmd.gi.path", complete={"step": legal_moves(*PATH)})
    async def path(self, interaction: discord.Interaction, step: str) -> None:
        await self.pick_and_act(interaction, PATH, step)

    @game_command(group, "cmd.gi.trade", complete={"trade": legal_moves(*TRADE)})
    async def trade(self, interaction: discord.Interaction, trade: str) -> None:
        await self.pick_and_act(interaction, TRADE, trade)

    @game_command(group, "cmd.gi.answer", complete={"choice": legal_moves(*ANSWER)})
    async def answer(self, interaction: discord.Interaction, choice: str) -> None:
        await self.pick_and_act(interaction, ANSWER, choice)

    @game_command(group, "cmd.gi.action")
    async def action(self, interaction: discord.Interaction, action: str, target: str | None = None) -> None:
        """The hero's one action, built in steps: its kind, then (for an attack) its target."""
        legal, _, names = await self.moves(interaction)
        lang = locale_of(interaction)
        kinds = await self._kinds_offered(interaction)
        if not kinds:
            raise WORDS.refusal("no_such_move", legal, lang, names)
        whole = next((la.action for la in self.offered(legal, ACTION) if la.action.token() == action.strip()), None)
        if whole is not None:
            await self.act(interaction, whole)
            return
        kind = self._match(kinds, action, lang, names)
        if kind is None:
            raise WORDS.refusal("no_match", self.offered(legal, ACTION), lang, names, text=action)
        found = await self._steps(interaction, [kind.token])
        while isinstance(found, list):
            if target is None and len(found) != 1:
                raise WORDS.refusal("which", [la for la in legal if la.action.kind == kind.token], lang, names)
            step = found[0] if target is None else self._match(found, target, lang, names)
            if step is None:
                raise WORDS.refusal("no_match", [la for la in legal if la.action.kind == kind.token], lang, names,
                                    text=target)
            target = None
            found = await self._steps(interaction, [kind.token, step.token])
        await self.act(interaction, found)

    async def _suggest_steps(self, interaction: discord.Interaction, current: str, path: list[str] | None) -> Choices:
        """Autocomplete of one step: the action kinds offered now (`path` None), or what may follow `path`."""
        async def make() -> Choices:
            names = await self.table.seat_names((await self.game(interaction)).id)
            lang = locale_of(interaction)
            steps = await self._kinds_offered(interaction) if path is None else await self._steps(interaction, path)
            pairs = ((_step_label(c, lang, names), c.token.partition("=")[2] or c.token)
                     for c in (steps if isinstance(steps, list) else []))
            return pair_choices(pairs, current)
        return await self.complete(make)

    @action.autocomplete("action")
    async def action_kinds(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._suggest_steps(interaction, current, None)

    @action.autocomplete("target")
    async def action_targets(self, interaction: discord.Interaction, current: str) -> Choices:
        chosen = given(interaction, "action").split(" ")[0]
        return await self._suggest_steps(interaction, current, [chosen]) if chosen in ACTION else []

    @game_command(group, "cmd.gi.end")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.pick_and_act(interaction, ("end",), None)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Indagar(bot, table_of(bot)))

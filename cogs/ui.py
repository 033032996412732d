"""Per-game presentation hooks, and the persistent buttons and menus every game shares."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

import discord

import i18n
import renderers
from rules.base import Action, Choice, LegalAction
from rules.text import Msg, msg

BUTTON_TEMPLATE = re.compile(r"^tgb:(?P<kind>[a-z]+):(?P<game>\d+):(?P<ver>\d+):(?P<rest>.*)$")
SELECT_TEMPLATE = re.compile(r"^tgs:(?P<kind>[a-z]+):(?P<game>\d+):(?P<ver>\d+):(?P<rest>.*)$")
MAX_ID = 100
MAX_SELECT_OPTIONS = 25


#: Lists a seat's whole step-built moves whose first step is one of these kinds (None: every kind but `move`).
Walk = Callable[[Sequence[str] | None], Awaitable[list[LegalAction]]]


class GameUI:
    """How one game is presented on Discord; a game's cog registers a subclass with `register_ui`."""

    game_id = ""

    def public_buttons(self, board: dict[str, Any]) -> list[tuple[Msg, Action]]:
        """Buttons on the public turn message; they must never reveal a secret."""
        return []

    def private_text(self, view: dict[str, Any], lang: str, names: dict[int, str]) -> str:
        """A seat's private view as text (their hand, their secret map notes...)."""
        return ""

    def private_image(self, view: dict[str, Any], lang: str) -> bytes | None:
        """An image of a seat's private view, if the game has one (sent by ephemeral or DM only)."""
        return None

    def private_panel(self, game_id: int, version: int, legal: list[LegalAction], lang: str,
                      names: dict[int, str]) -> discord.ui.View | None:
        """The buttons and menus under a player's private view; by default menus of every legal action."""
        return options_view(game_id, version, legal, lang, names)

    async def step_panel(self, walk: Walk, game_id: int, version: int, first: list[Choice],
                         view: dict[str, Any], lang: str, names: dict[int, str]) -> discord.ui.View | None:
        """The private panel of a game whose moves are built in steps: by default a menu of the first step;
        `walk(kinds)` lists the seat's whole moves of those first-step kinds, for games that lay them out."""
        return build_view(game_id, version, [], first, lang, names)

    def board_image(self, view: dict[str, Any], lang: str) -> bytes | None:
        return renderers.render_for(self.game_id, view, lang)


_UIS: dict[str, GameUI] = {}


def register_ui(ui: GameUI) -> None:
    _UIS[ui.game_id] = ui


def ui_for(game_id: str) -> GameUI:
    ui = _UIS.get(game_id)
    if ui is None:
        ui = GameUI()
        ui.game_id = game_id
    return ui


async def run_blocking(func: Callable[..., Any], *args: Any) -> Any:
    """Rendering and other CPU work runs off the event loop."""
    return await asyncio.to_thread(func, *args)


# ---------------------------------------------------------------- persistent components

Handler = Callable[[discord.Interaction, str, int, int, str], Coroutine[Any, Any, None]]
_handlers: dict[str, Handler] = {}


def on_component(kind: str) -> Callable[[Handler], Handler]:
    """Register the coroutine that handles clicks of one kind (`a` act, `pv` private view, ...)."""

    def wrap(func: Handler) -> Handler:
        _handlers[kind] = func
        return func

    return wrap


async def _dispatch(interaction: discord.Interaction, match: re.Match[str], value: str | None) -> None:
    handler = _handlers.get(match["kind"])
    if handler is None:
        return
    rest = value if value is not None else match["rest"]
    await handler(interaction, match["kind"], int(match["game"]), int(match["ver"]), rest)


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """A button whose custom_id carries the game id, the version it was drawn at and what it does."""

    def __init__(self, custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 emoji: str | None = None, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label[:80], style=style, emoji=emoji),
                         row=row)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> GameButton:
        return cls(item.custom_id or "", item.label or "-")

    async def callback(self, interaction: discord.Interaction) -> None:
        match = BUTTON_TEMPLATE.match(self.item.custom_id or "")
        if match:
            await _dispatch(interaction, match, None)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    """A menu of actions; each option's value is an action token."""

    def __init__(self, custom_id: str, options: list[discord.SelectOption], placeholder: str,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, options=options, placeholder=placeholder[:150],
                                           min_values=1, max_values=1), row=row)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str], /) -> GameSelect:
        return cls(item.custom_id or "", list(item.options) or [discord.SelectOption(label="-")],
                   item.placeholder or "-")

    async def callback(self, interaction: discord.Interaction) -> None:
        match = SELECT_TEMPLATE.match(self.item.custom_id or "")
        values = self.item.values
        if match and values:
            await _dispatch(interaction, match, values[0])


def button_id(kind: str, game_id: int, version: int, rest: str = "") -> str | None:
    custom_id = f"tgb:{kind}:{game_id}:{version}:{rest}"
    return custom_id if len(custom_id) <= MAX_ID else None


def turn_view(game_id: int, version: int, lang: str, extra: list[tuple[Msg, Action]],
              *, finished: bool = False, can_undo: bool = True) -> discord.ui.View | None:
    """The components of a public turn message: the private-view button plus the game's own; once the game is
    over, the Rematch button alone."""
    if finished:
        return end_view(game_id, lang)
    view = discord.ui.View(timeout=None)
    pv = button_id("pv", game_id, version)
    if pv:
        view.add_item(GameButton(pv, i18n.t(msg("bot.button.my_turn"), lang), discord.ButtonStyle.primary,
                                 emoji="🂠"))
    for label, action in extra[:8]:
        custom_id = button_id("a", game_id, version, action.token())
        if custom_id:
            view.add_item(GameButton(custom_id, i18n.t(label, lang)))
    undo = button_id("undo", game_id, version) if can_undo else None
    if undo:
        view.add_item(GameButton(undo, i18n.t(msg("bot.button.undo"), lang), emoji="↩️"))
    return view


def end_view(game_id: int, lang: str) -> discord.ui.View | None:
    """Under a finished game: Rematch (a new lobby with the same seats and options, for anyone who played)."""
    custom_id = button_id("rematch", game_id, 0)
    if custom_id is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(custom_id, i18n.t(msg("bot.button.rematch"), lang), discord.ButtonStyle.success,
                             emoji="🔁"))
    return view


def build_view(game_id: int, version: int, path: list[str], choices: list[Choice], lang: str,
               names: dict[int, str]) -> discord.ui.View | None:
    """One step of a move built in steps: a menu of what may come next (each option carries the whole path)."""
    options = []
    for choice in choices:
        value = "/".join([*path, choice.token])
        if len(value) <= 100 and len(options) < MAX_SELECT_OPTIONS:
            options.append(discord.SelectOption(label=clip(i18n.t(choice.label, lang, names.get), 100) or "-",
                                                value=value))
    if not options:
        return None
    view = discord.ui.View(timeout=None)
    placeholder = i18n.t(msg("bot.select.step", n=len(path) + 1), lang)
    view.add_item(GameSelect(f"tgs:b:{game_id}:{version}:{len(path)}", options, placeholder))
    return view


def add_step_menu(panel: discord.ui.View, game_id: int, version: int, choices: list[Choice], lang: str,
                  names: dict[int, str], row: int) -> None:
    """Put the first step of the moves built in steps on a panel, as one menu on `row` (nothing when no choices)."""
    menu = build_view(game_id, version, [], choices, lang, names) if choices else None
    for item in menu.children if menu is not None else ():
        item.row = row
        panel.add_item(item)


def options_view(game_id: int, version: int, legal: list[LegalAction], lang: str,
                 names: dict[int, str]) -> discord.ui.View | None:
    """A private panel: up to four menus of 25 legal actions each, for the player whose turn it is."""
    if not legal:
        return None
    view = discord.ui.View(timeout=None)
    usable = [la for la in legal if len(la.action.token()) <= MAX_ID]
    chunks = [usable[i:i + MAX_SELECT_OPTIONS] for i in range(0, len(usable), MAX_SELECT_OPTIONS)][:4]
    for n, chunk in enumerate(chunks):
        options = [discord.SelectOption(label=clip(i18n.t(la.label, lang, names.get), 100),
                                        value=la.action.token()) for la in chunk]
        placeholder = i18n.t(msg("bot.select.actions", first=n * 25 + 1, last=n * 25 + len(chunk)), lang)
        view.add_item(GameSelect(f"tgs:a:{game_id}:{version}:{n}", options, placeholder, row=n))
    undo = button_id("undo", game_id, version)
    if undo:
        view.add_item(GameButton(undo, i18n.t(msg("bot.button.undo"), lang), emoji="↩️", row=4))
    return view


def clip(text: str, limit: int = MAX_ID) -> str:
    """A label cut to Discord's limit (100 characters for choices, menu options and ids)."""
    text = text.strip() or "-"
    return text if len(text) <= limit else text[: limit - 1] + "…"

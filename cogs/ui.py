"""Per-game presentation hooks, and the persistent buttons and menus every game shares."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

import discord

import i18n
import renderers
from cogs import drawing
from cogs.games import game_module
from rules.base import Action, Choice, LegalAction
from rules.text import Msg, msg

BUTTON_TEMPLATE = re.compile(r"^tgb:(?P<kind>[a-z]+):(?P<game>\d+):(?P<ver>\d+):(?P<rest>.*)$")
SELECT_TEMPLATE = re.compile(r"^tgs:(?P<kind>[a-z]+):(?P<game>\d+):(?P<ver>\d+):(?P<rest>.*)$")
MAX_ID = 100
MAX_SELECT_OPTIONS = 25
#: A menu value that asks for another page of the same menu (no action token starts with it).
PAGE = "…p"
#: Entries per page of a menu that pages: room is left for its "previous" and "more…" entries.
PAGE_SIZE = MAX_SELECT_OPTIONS - 2


#: Lists a seat's whole step-built moves whose first step is one of these kinds (None: every kind but `move`).
Walk = Callable[[Sequence[str] | None], Awaitable[list[LegalAction]]]


class GameUI:
    """How one game is presented on Discord; a game's cog module holds a subclass as `UI`."""

    game_id = ""
    #: The public turn message's button that opens a player's private view: "My hand" only where there are hands.
    private_button = "bot.button.my_view"

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
        return options_view(game_id, version, self.menus(legal), lang, names)

    def menus(self, legal: list[LegalAction]) -> list[tuple[Msg, list[LegalAction]]]:
        """The menus of the private panel, each with its name: by default one menu of every legal action. A menu
        longer than 25 pages, and its "more…" entry asks this again to show the next page."""
        return [(msg("bot.menu.actions"), legal)] if legal else []

    async def step_panel(self, walk: Walk, game_id: int, version: int, first: list[Choice],
                         view: dict[str, Any], lang: str, names: dict[int, str]) -> discord.ui.View | None:
        """The private panel of a game whose moves are built in steps: by default a menu of the first step;
        `walk(kinds)` lists the seat's whole moves of those first-step kinds, for games that lay them out."""
        return build_view(game_id, version, [], first, lang, names)

    def board_image(self, view: dict[str, Any], lang: str) -> bytes | None:
        return renderers.render_for(self.game_id, view, lang)


def ui_for(game_id: str) -> GameUI:
    """The game's own UI (its cog module's `UI`), or the plain one for a game without a Discord side of its own."""
    module = game_module(game_id)
    ui = getattr(module, "UI", None)
    if isinstance(ui, GameUI):
        return ui
    plain = GameUI()
    plain.game_id = game_id
    return plain


async def run_blocking(func: Callable[..., Any], *args: Any) -> Any:
    """Rendering runs off the event loop, in the drawing processes (`func` a game UI's drawing method)."""
    return await drawing.draw(func, *args)


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
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> GameButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item.custom_id or "", item.label or "-")

    async def callback(self, interaction: discord.Interaction) -> None:
        match = BUTTON_TEMPLATE.match(self.item.custom_id or "")
        if match:
            await _dispatch(interaction, match, None)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    """A menu of actions; each option's value is an action token."""

    def __init__(self, custom_id: str, options: list[discord.SelectOption], placeholder: str,
                 row: int | None = None, total: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, options=options, placeholder=placeholder[:150],
                                           min_values=1, max_values=1), row=row)
        #: How many choices the whole menu offers, over all its pages.
        self.total = len([o for o in options if not o.value.split("/")[-1].startswith(PAGE)]) \
            if total is None else total

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> GameSelect:
        assert isinstance(item, discord.ui.Select)
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
              *, finished: bool = False, can_undo: bool = True,
              private_button: str = "bot.button.my_view") -> discord.ui.View | None:
    """The components of a public turn message: the private-view button plus the game's own; once the game is
    over, the Rematch button alone."""
    if finished:
        return end_view(game_id, lang)
    view = discord.ui.View(timeout=None)
    pv = button_id("pv", game_id, version)
    if pv:
        view.add_item(GameButton(pv, i18n.t(msg(private_button), lang), discord.ButtonStyle.primary,
                                 emoji="🂠"))
    for label, action in extra[:8]:
        custom_id = button_id("a", game_id, version, action.token())
        if custom_id:
            view.add_item(GameButton(custom_id, i18n.t(label, lang)))
    undo = button_id("undo", game_id, version) if can_undo else None
    if undo:
        view.add_item(GameButton(undo, i18n.t(msg("bot.button.undo"), lang), emoji="↩️"))
    return view


def option(label: str, value: str, description: str = "") -> discord.SelectOption:
    """A menu entry: its label and the one line under it, cut to Discord's 100 characters."""
    return discord.SelectOption(label=clip(label), value=value, description=clip(description) if description.strip()
                                else None)


def paged(entries: Sequence[discord.SelectOption], page: int, lang: str, page_value: Callable[[int], str]
          ) -> tuple[list[discord.SelectOption], int, int]:
    """One page of a menu's entries (all of them when they fit in 25), with "◀ previous" and "more…" entries
    whose values `page_value` makes; also the page shown and how many pages there are."""
    if len(entries) <= MAX_SELECT_OPTIONS:
        return list(entries), 0, 1
    pages = -(-len(entries) // PAGE_SIZE)
    page = max(0, min(page, pages - 1))
    first = page * PAGE_SIZE
    chunk = list(entries[first:first + PAGE_SIZE])
    if page > 0:
        chunk.insert(0, discord.SelectOption(
            label=clip(i18n.t(msg("bot.menu.previous", first=first - PAGE_SIZE + 1, last=first), lang)),
            value=page_value(page - 1), emoji="◀️"))
    left = len(entries) - first - PAGE_SIZE
    if left > 0:
        chunk.append(discord.SelectOption(label=clip(i18n.t(msg("bot.menu.more", n=left), lang)),
                                          value=page_value(page + 1), emoji="▶️"))
    return chunk, page, pages


def titled(title: str, page: int, pages: int, lang: str) -> str:
    """A menu's placeholder: its name, and the page shown when it has several."""
    return title if pages == 1 else i18n.t(msg("bot.menu.page", title=title, page=page + 1, pages=pages), lang)


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
               names: dict[int, str], *, page: int = 0, title: str | None = None,
               labels: dict[str, str] | None = None) -> discord.ui.View | None:
    """One step of a move built in steps: a menu of what may come next (each option carries the whole path),
    paged when longer than 25; `title` names the step and `labels` words choices whose own label is a token."""
    entries = []
    for choice in choices:
        value = "/".join([*path, choice.token])
        if len(value) <= MAX_ID:
            label = (labels or {}).get(choice.token) or i18n.t(choice.label, lang, names.get)
            entries.append(option(label, value, described(choice.description, lang, names)))
    if not entries:
        return None
    shown, page, pages = paged(entries, page, lang, lambda n: "/".join([*path, f"{PAGE}{n}"]))
    view = discord.ui.View(timeout=None)
    name = title or i18n.t(msg("bot.menu.step.first" if not path else "bot.menu.step.next"), lang)
    view.add_item(GameSelect(f"tgs:b:{game_id}:{version}:{len(path)}", shown, titled(name, page, pages, lang),
                             total=len(entries)))
    return view


def described(description: Msg | None, lang: str, names: dict[int, str]) -> str:
    return i18n.t(description, lang, names.get) if description is not None else ""


def add_step_menu(panel: discord.ui.View, game_id: int, version: int, choices: list[Choice], lang: str,
                  names: dict[int, str], row: int, labels: dict[str, str] | None = None,
                  title: str | None = None) -> None:
    """Put the first step of the moves built in steps on a panel, as one menu on `row` (nothing when no choices)."""
    menu = build_view(game_id, version, [], choices, lang, names, labels=labels, title=title) if choices else None
    for item in menu.children if menu is not None else ():
        item.row = row
        panel.add_item(item)


def actions_menu(game_id: int, version: int, slot: int, title: Msg, legal: Sequence[LegalAction], lang: str,
                 names: dict[int, str], page: int = 0, row: int | None = None) -> GameSelect | None:
    """A menu of legal actions named `title` (each value an action token), paged when longer than 25; `slot` is
    its place among the panel's menus, so that its "more…" entry can ask for the next page of the same one."""
    entries = [option(i18n.t(la.label, lang, names.get), la.action.token(), described(la.description, lang, names))
               for la in legal if len(la.action.token()) <= MAX_ID]
    if not entries:
        return None
    shown, page, pages = paged(entries, page, lang, lambda n: f"{PAGE}{slot}.{n}")
    return GameSelect(f"tgs:a:{game_id}:{version}:{slot}", shown, titled(i18n.t(title, lang), page, pages, lang),
                      row=row, total=len(entries))


def options_view(game_id: int, version: int, menus: list[tuple[Msg, list[LegalAction]]], lang: str,
                 names: dict[int, str], first_row: int = 0, undo: bool = True) -> discord.ui.View | None:
    """A private panel: one menu per entry of `menus` (Discord's rows allowing), each paged when longer than 25,
    then the undo button."""
    view = discord.ui.View(timeout=None)
    row = first_row
    for slot, (title, legal) in enumerate(menus):
        menu = actions_menu(game_id, version, slot, title, legal, lang, names, row=row) if row < 5 else None
        if menu is not None:
            view.add_item(menu)
            row += 1
    if not view.children:
        return None
    back = button_id("undo", game_id, version) if undo else None
    if back and row < 5:
        view.add_item(GameButton(back, i18n.t(msg("bot.button.undo"), lang), emoji="↩️", row=row))
    return view


def offered(panel: discord.ui.View | None) -> int:
    """How many different choices a panel shows: its action buttons and the entries of its menus (a move on a
    button and in a menu counts once), with the entries of the pages not shown."""
    seen: set[str] = set()
    hidden = 0
    for item in panel.children if panel is not None else ():
        if isinstance(item, GameSelect):
            values = [o.value for o in item.item.options if not o.value.split("/")[-1].startswith(PAGE)]
            seen.update(values)
            hidden += item.total - len(values)
        elif isinstance(item, GameButton) and (item.item.custom_id or "").startswith("tgb:a:"):
            seen.add((item.item.custom_id or "").split(":", 4)[4])
    return len(seen) + hidden


def choices_line(count: int) -> Msg:
    """"You have N choices below", counting what the panel shows (a plural block in the catalog)."""
    return msg("bot.menu.count", n=count)


def clip(text: str, limit: int = MAX_ID) -> str:
    """A label cut to Discord's limit (100 characters for choices, menu options and ids)."""
    text = text.strip() or "…"
    return text if len(text) <= limit else text[: limit - 1] + "…"

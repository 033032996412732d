"""`/game help`, each game's `/<group> help` and the lobby's "How to play" button: paged help in the reader's
language, with command and option names written as that reader's Discord shows them."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import discord

import i18n
from cogs.translator import locale_of
from cogs.ui import GameButton, button_id, on_component
from rules import registry
from rules.text import Msg, msg
from table import Table

log = logging.getLogger("tabletop.help")

#: The topic of `/game help`; every other topic is a game id.
GENERAL = "game"
#: Each topic's pages, in reading order: a page is a catalog key (its body) and `<key>.title` (its title).
PAGES: dict[str, tuple[str, ...]] = {
    GENERAL: ("bot.help.welcome", "bot.help.table", "bot.help.turns", "bot.help.slow", "bot.help.records"),
    "hero-realms": ("hr.help.about", "hr.help.turn", "hr.help.win"),
    "heroquest": ("hq.help.about", "hq.help.heroes", "hq.help.gm"),
    "gorgasali": ("gg.help.about", "gg.help.turn", "gg.help.win"),
    "kings-armory": ("ka.help.about", "ka.help.prepare", "ka.help.wave"),
    "guerra-de-indagar": ("gi.help.about", "gi.help.turn", "gi.help.win"),
}
#: Each game's command group (its `cmd.<group>` key), for the games' list on the first page.
GROUPS = {"hero-realms": "hr", "heroquest": "hq", "gorgasali": "br", "kings-armory": "ka",
          "guerra-de-indagar": "gi"}
#: `{/hr/play}` is a command as the reader sees it ("/hr jugar"); `{@game}` an option of /game (`cmd.opt.game`),
#: `{@hr/card}` an option of a game's command (`cmd.hr.opt.card`).
MARKER = re.compile(r"\{([/@])([a-z_]+(?:/[a-z_]+)*)\}")
#: Discord's limits for one embed's description, and for all the text of a message's embeds.
MAX_DESCRIPTION = 4096
MAX_EMBEDS_TEXT = 6000
COLOUR = 0x3B82F6
#: Values listed per option on a game's options page (HeroQuest's hero line-ups run to fifteen).
MAX_VALUES = 8


@dataclass(frozen=True)
class Page:
    """One page of help as the reader sees it."""

    title: str
    body: str
    footer: str

    def size(self) -> int:
        return len(self.title) + len(self.body) + len(self.footer)


def command_text(path: str, lang: str) -> str:
    """`hr/play` -> "/hr play" (English) or "/hr jugar" (Spanish): each word the name Discord shows that reader."""
    parts = path.split("/")
    return "/" + " ".join(i18n.t(Msg("cmd." + ".".join(parts[:n + 1])), lang) for n in range(len(parts)))


def option_text(path: str, lang: str) -> str:
    """`game` -> the /game option name (`cmd.opt.game`); `hr/card` -> the /hr option name (`cmd.hr.opt.card`)."""
    group, _, option = path.rpartition("/")
    return i18n.t(Msg(f"cmd.{group}.opt.{option}" if group else f"cmd.opt.{option}"), lang)


def marker_keys(template: str) -> list[str]:
    """The catalog keys the markers of a template name (for the test that every one of them exists)."""
    keys = []
    for kind, path in MARKER.findall(template):
        if kind == "/":
            parts = path.split("/")
            keys += ["cmd." + ".".join(parts[:n + 1]) for n in range(len(parts))]
        else:
            group, _, option = path.rpartition("/")
            keys.append(f"cmd.{group}.opt.{option}" if group else f"cmd.opt.{option}")
    return keys


def render(key: str, lang: str) -> str:
    """A help text with its command and option markers written in `lang`."""
    template = i18n.t(Msg(key), lang)
    return MARKER.sub(lambda m: command_text(m[2], lang) if m[1] == "/" else option_text(m[2], lang), template)


def game_lines(game_ids: list[str], lang: str) -> str:
    """One line per game for the first page: its name, what it is and its own help command."""
    lines = []
    for game_id in game_ids:
        game = registry.get(game_id)
        if game is None or game_id not in GROUPS:
            continue
        line = render(f"{PAGES[game_id][0]}.line", lang)
        command = command_text(f"{GROUPS[game_id]}/help", lang)
        lines.append(f"• **{i18n.t(Msg(game.name_key), lang)}** — {line} `{command}`")
    return "\n".join(lines)


def value_text(value: str, label: str) -> str:
    """One value of an option as the options page lists it: "`hydra` Hydra (2 teams of 2)", "`10` standard"; the
    label alone adds nothing when it only repeats the value."""
    rest = label.strip()
    if rest.casefold() == value.casefold():
        rest = ""
    elif rest.startswith(f"{value} (") and rest.endswith(")"):
        rest = rest[len(value) + 2:-1]
    return f"`{value}` {rest}" if rest else f"`{value}`"


def options_lines(game_id: str, lang: str) -> str:
    """What each `/game new options:` key of a game does, its default and the values it takes, from its
    OptionSpecs: a line for the option, a line for its values."""
    game = registry.get(game_id)
    lines = []
    for spec in game.options() if game is not None else ():
        if isinstance(spec.default, bool):  # a switch, off unless asked for
            lines.append(f"• `{spec.key}=true` — {i18n.t(spec.label, lang)}")
            continue
        if spec.choices:
            named = [value_text(value, i18n.t(label, lang)) for value, label in spec.choices]
            values = " · ".join(named[:MAX_VALUES]) + (" · …" if len(named) > MAX_VALUES else "")
        else:
            values = i18n.t(msg("bot.help.options.range", low=spec.low, high=spec.high), lang)
        lines.append(f"• `{spec.key}` — {i18n.t(spec.label, lang)} "
                     f"({i18n.t(msg('bot.help.options.default', value=spec.default), lang)})\n  {values}")
    return "\n".join(lines)


def pages(topic: str, lang: str, games: list[str]) -> list[Page]:
    """Every page of a topic in `lang`: its catalog pages, then for a game the options it can be opened with;
    `games` are the games this bot offers (listed on the first general page)."""
    found: list[tuple[str, str]] = []
    for n, key in enumerate(PAGES[topic]):
        body = render(key, lang)
        if topic == GENERAL and n == 0:
            body = f"{body}\n\n{game_lines(games, lang)}"
        found.append((render(f"{key}.title", lang), body))
    options = options_lines(topic, lang) if topic != GENERAL else ""
    if options:
        game = registry.get(topic)
        name = i18n.t(Msg(game.name_key), lang) if game is not None else topic
        found.append((i18n.t(msg("bot.help.options.title", game=name), lang),
                      f"{render('bot.help.options', lang)}\n{options}"))
    return [Page(title, body, i18n.t(msg("bot.help.page", page=n + 1, pages=len(found)), lang))
            for n, (title, body) in enumerate(found)]


def embed_of(page: Page) -> discord.Embed:
    embed = discord.Embed(title=page.title, description=page.body, colour=COLOUR)
    embed.set_footer(text=page.footer)
    return embed


def pager(topic: str, page: int, count: int, lang: str, games: list[str]) -> discord.ui.View | None:
    """◀ ▶ between a topic's pages; on the general help a button per game, on a game's help one back to it."""
    items: list[GameButton] = []

    def add(target: str, to: int, label: str, style: discord.ButtonStyle, row: int) -> None:
        custom_id = button_id("help", to, 0, target)
        if custom_id:
            items.append(GameButton(custom_id, label, style, row=row))

    if page > 0:
        add(topic, page - 1, i18n.t(msg("bot.help.previous"), lang), discord.ButtonStyle.secondary, 0)
    if page < count - 1:
        add(topic, page + 1, i18n.t(msg("bot.help.next"), lang), discord.ButtonStyle.primary, 0)
    if topic == GENERAL:
        for n, game_id in enumerate(g for g in games if g in PAGES):
            game = registry.get(game_id)
            if game is not None:
                add(game_id, 0, i18n.t(Msg(game.name_key), lang), discord.ButtonStyle.secondary, 1 + n // 5)
    else:
        add(GENERAL, 0, i18n.t(msg("bot.help.all_games"), lang), discord.ButtonStyle.secondary, 0)
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def lobby_help_view(game_type: str, lang: str) -> discord.ui.View | None:
    """The "How to play" button under a lobby message (its label in the table's language); the help it opens
    speaks the clicker's."""
    custom_id = button_id("help", 0, 0, game_type) if game_type in PAGES else None
    if custom_id is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(custom_id, i18n.t(msg("core.help.title"), lang), discord.ButtonStyle.success, emoji="❔"))
    return view


def offered(client: discord.Client) -> list[str]:
    """The games this bot offers players (previews only when its operator asked), that have help pages."""
    table = getattr(client, "table", None)
    games = table.offered_games() if isinstance(table, Table) else registry.games()
    return sorted(g for g in games if g in PAGES)


async def show(interaction: discord.Interaction, topic: str, page: int = 0, *, edit: bool = False) -> None:
    """A topic's page, only to the reader and in their language: a new message, or the clicked one edited."""
    lang = locale_of(interaction)
    games = offered(interaction.client)
    found = pages(topic, lang, games)
    page = max(0, min(page, len(found) - 1))
    embed = embed_of(found[page])
    view = pager(topic, page, len(found), lang, games)
    if edit:  # the clicked help message itself turns the page (None takes its buttons away)
        await interaction.response.edit_message(content=None, embed=embed, view=view)
    elif interaction.response.is_done():
        await interaction.followup.send(embed=embed, view=view or discord.utils.MISSING, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING, ephemeral=True)


async def show_help(interaction: discord.Interaction, topic: str) -> None:
    """What each group's `help` command does: the first page of its topic."""
    await show(interaction, topic)


async def on_help_click(interaction: discord.Interaction, kind: str, page: int, version: int, topic: str) -> None:
    """◀ ▶ and the topic buttons edit the reader's help message; the lobby's button opens a new one for them.
    (Not `guarded`: that module sends through the delivery, which puts this module's button on lobbies.)"""
    if topic not in PAGES:
        return
    message = interaction.message
    try:
        await show(interaction, topic, page, edit=bool(message is not None and message.flags.ephemeral))
    except discord.HTTPException:
        log.exception("help page %s/%s could not be shown", topic, page)


on_component("help")(on_help_click)

"""A tiny throwaway bot exercising what the stand-in must support: groups, autocomplete, views, files, DMs."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands
from PIL import Image

GAMES = ["hero-realms", "heroquest", "catan", "carcassonne", "azul"]
ACTIONS = ["play", "plan", "pass", "attack"]
TRANSLATIONS = {"es-ES": {"hello": "hola", "Say hello": "Saluda"}}


class DemoTranslator(app_commands.Translator):
    def __init__(self, table: dict[str, dict[str, str]]) -> None:
        self.table = table

    async def translate(self, string: locale_str, locale: discord.Locale, context: Any) -> str | None:
        return self.table.get(locale.value, {}).get(string.message)


class JoinView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="testbot:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[JoinView]) -> None:
        interaction.client.events.append(("join", interaction.user.id))  # type: ignore[attr-defined]
        await interaction.response.send_message(f"{interaction.user.name} joined")

    @discord.ui.select(
        custom_id="testbot:seat",
        placeholder="Pick a seat",
        options=[discord.SelectOption(label=f"Seat {n}", value=str(n)) for n in (1, 2, 3)],
    )
    async def seat(self, interaction: discord.Interaction, select: discord.ui.Select[JoinView]) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} took seat {select.values[0]}")


class ConfirmView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.confirmed = False

    @discord.ui.button(label="Confirm", custom_id="testbot:confirm")
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button[ConfirmView]) -> None:
        self.confirmed = True
        await interaction.response.defer()
        self.stop()


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[FeedbackModal] = discord.ui.TextInput(label="Your thoughts", custom_id="testbot:text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks: {self.text.value}", ephemeral=True)


def png_bytes() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


class GameCog(commands.Cog):
    game = app_commands.Group(name="game", description="Play a game")

    def __init__(self, bot: DemoBot) -> None:
        self.bot = bot

    @game.command(name="new", description="Start a new game")
    @app_commands.describe(game="Which game", players="How many players")
    async def new(
        self, interaction: discord.Interaction, game: str, players: app_commands.Range[int, 1, 6] = 2
    ) -> None:
        await interaction.response.send_message(f"New {game} for {players}", view=JoinView())

    @new.autocomplete("game")
    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=g, value=g) for g in GAMES if current.lower() in g]

    @game.command(name="act", description="Take an action")
    async def act(self, interaction: discord.Interaction, action: str) -> None:
        await interaction.response.send_message(f"{interaction.user.name} does {action}")

    @act.autocomplete("action")
    async def action_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=a, value=a) for a in ACTIONS if a.startswith(current)]

    @app_commands.command(name="render", description="Render the board")
    async def render(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.01)
        await interaction.followup.send("Board", file=discord.File(io.BytesIO(png_bytes()), "board.png"))

    @app_commands.command(name="dm", description="Whisper to yourself")
    async def dm(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("psst")
        except discord.Forbidden as exc:
            self.bot.events.append(("forbidden", exc.code))
            await interaction.response.send_message("\u26a0\ufe0f I cannot DM you", ephemeral=True)
            return
        await interaction.response.send_message("Check your DMs", ephemeral=True)

    @app_commands.command(name="secret", description="Ephemeral reply")
    async def secret(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you", ephemeral=True)

    @app_commands.command(name="slow", description="Answers too late")
    async def slow(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(self.bot.slow_delay)
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound as exc:
            self.bot.events.append(("notfound", exc.code))

    @app_commands.command(name="long", description="Too long a reply")
    async def long(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("x" * 2001)
        except discord.HTTPException as exc:
            self.bot.events.append(("http", exc.status, exc.code, str(exc)))
            await interaction.response.send_message("\u26a0\ufe0f too long", ephemeral=True)

    @app_commands.command(name="announce", description="Post in the channel")
    async def announce(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.channel.send(text)  # type: ignore[union-attr]
        await interaction.response.send_message("posted", ephemeral=True)

    @app_commands.command(name="upload", description="Upload a file")
    async def upload(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        data = await file.read()
        await interaction.response.send_message(f"got {file.filename} ({len(data)} bytes)")

    @app_commands.command(name="perms", description="Show my permissions")
    async def perms(self, interaction: discord.Interaction) -> None:
        p = interaction.permissions
        # guild_permissions is computed from the member's roles in the bot's role cache
        user = interaction.user
        roles = isinstance(user, discord.Member) and user.guild_permissions.manage_threads
        await interaction.response.send_message(f"channels={p.manage_channels} threads={p.manage_threads} {roles=}")

    @app_commands.command(name="think", description="Defer, edit, follow up")
    async def think(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.edit_original_response(content="thought")
        await interaction.followup.send("also this", ephemeral=True)
        embed = discord.Embed(title="Oops", description="bad move", colour=0xD55E00)
        await interaction.edit_original_response(content=None, embed=embed)

    @app_commands.command(name="confirm", description="Ask, wait for the click, then follow up")
    async def confirm(self, interaction: discord.Interaction) -> None:
        view = ConfirmView()
        await interaction.response.send_message("Sure?", view=view, ephemeral=True)
        await view.wait()
        await interaction.followup.send(f"confirmed={view.confirmed}", ephemeral=True)

    @app_commands.command(name="feedback", description="Open a form")
    async def feedback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(FeedbackModal())

    @app_commands.command(name="ping", description="Tell someone it is their turn, in the channel")
    async def ping(self, interaction: discord.Interaction, who: discord.User) -> None:
        await interaction.response.send_message(f"👉 {who.mention} — your turn! (in <#{interaction.channel_id}>)")

    @app_commands.command(name="boom", description="Crash")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    @app_commands.command(name=locale_str("hello"), description=locale_str("Say hello"))
    async def hello(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello ({interaction.locale.value}, {interaction.guild_locale})")


class DemoBot(commands.AutoShardedBot):
    def __init__(self, **options: Any) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), **options)
        self.events: list[tuple[Any, ...]] = []
        self.slow_delay = 0.0
        self.translations = TRANSLATIONS

    async def setup_hook(self) -> None:
        await self.tree.set_translator(DemoTranslator(self.translations))
        await self.add_cog(GameCog(self))
        self.add_view(JoinView())


def make_bot() -> DemoBot:
    return DemoBot(guild_ready_timeout=0.05)


class PlainDemoBot(commands.Bot):
    """The same bot without sharding: it connects to the default gateway instead of asking /gateway/bot."""

    def __init__(self, **options: Any) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), **options)
        self.events: list[tuple[Any, ...]] = []
        self.slow_delay = 0.0
        self.translations = TRANSLATIONS

    setup_hook = DemoBot.setup_hook


def make_plain_bot() -> PlainDemoBot:
    return PlainDemoBot(guild_ready_timeout=0.05)

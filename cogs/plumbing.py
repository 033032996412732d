"""What every game cog shares: typed text to legal actions, refusals naming what is valid, autocomplete, acting."""

from __future__ import annotations

import inspect
import io
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.delivery import choose_line, defer, deliver, reply, who_of, with_names
from cogs.guard import guarded
from cogs.translator import L, locale_of
from cogs.ui import clip, run_blocking, ui_for
from rules.base import Action, IllegalAction, LegalAction
from rules.text import Lit, msg
from table import Table, TableError
from table.results import NoGame

#: Discord shows at most 25 suggestions, and a choice's name and value hold at most 100 characters.
MAX_CHOICES = 25
MAX_VALUE = 100
Choices = list[app_commands.Choice[str]]
Command = Callable[..., Coroutine[Any, Any, None]]
#: Lays out a private panel: (game id, version, legal actions, language, seat names) -> the buttons and menus.
PanelBuilder = Callable[[int, int, list[LegalAction], str, dict[int, str]], discord.ui.View | None]


def fold(text: str) -> str:
    """Case- and spacing-insensitive form of what someone typed."""
    return " ".join(str(text).casefold().split())


def listing(labels: Sequence[str], sep: str = ", ", limit: int = 6) -> str:
    """The first few of `labels` for a refusal ("a, b, …"), or "-" when there are none."""
    return sep.join(labels[:limit]) + (f"{sep}…" if len(labels) > limit else "") or "-"


def by_token(legal: Iterable[LegalAction], text: str) -> Action | None:
    """The legal action whose token (what autocomplete, buttons and menus send) is exactly `text`."""
    raw = text.strip()
    return next((la.action for la in legal if la.action.token() == raw), None)


def narrow(items: Sequence[Any], needle: str, forms: Callable[[Any], list[str]]) -> list[Any]:
    """The items one of whose forms is `needle`, else those with a form containing it."""
    spoken = [forms(x) for x in items]
    exact = [x for x, f in zip(items, spoken, strict=True) if needle in f]
    return exact or [x for x, f in zip(items, spoken, strict=True) if needle and any(needle in w for w in f)]


def pair_choices(pairs: Iterable[tuple[str, str]], current: str, fold: Callable[[str], str] = fold,
                 by_value: bool = True) -> Choices:
    """Autocomplete from (label, value) pairs filtered by what was typed (in the label, or the value)."""
    needle = fold(current)
    out: Choices = []
    for label, value in pairs:
        if not needle or needle in fold(label) or (by_value and needle in fold(value)):
            out.append(app_commands.Choice(name=clip(label), value=value[:MAX_VALUE]))
        if len(out) == MAX_CHOICES:
            break
    return out


class Wording:
    """How one game names its legal actions to people; message keys are `<prefix>.bot.error.<reason>`."""

    prefix = ""
    sep = ", "

    def fold(self, text: str) -> str:
        return fold(text)

    def label(self, la: LegalAction, lang: str, names: Mapping[int, str], view: Mapping[str, Any] | None) -> str:
        return i18n.t(la.label, lang, names.get)

    def forms(self, la: LegalAction, names: Mapping[int, str], view: Mapping[str, Any] | None) -> list[str]:
        """Every text that names `la` when typed in full: by default its label in each language."""
        return [self.fold(i18n.t(la.label, lang, names.get)) for lang in i18n.LANGS]

    def hint_forms(self, la: LegalAction, names: Mapping[int, str], view: Mapping[str, Any] | None) -> list[str]:
        """More texts autocomplete may filter by besides the shown label and the token."""
        return []

    def valid(self, legal: Sequence[LegalAction], lang: str, names: Mapping[int, str],
              view: Mapping[str, Any] | None = None, limit: int = 6) -> str:
        return listing([self.label(la, lang, names, view) for la in legal[:limit + 1]], self.sep, limit)

    def refusal(self, reason: str, legal: Sequence[LegalAction], lang: str, names: Mapping[int, str],
                view: Mapping[str, Any] | None = None, **params: Any) -> IllegalAction:
        """A refusal that names what would be valid instead."""
        return IllegalAction(msg(f"{self.prefix}.bot.error.{reason}", valid=self.valid(legal, lang, names, view),
                                 **params))

    def no_match(self, raw: str, legal: Sequence[LegalAction], lang: str, names: Mapping[int, str],
                 view: Mapping[str, Any] | None) -> IllegalAction:
        return self.refusal("no_match", legal, lang, names, view, text=raw)

    def pick(self, legal: Sequence[LegalAction], text: str, lang: str, names: Mapping[int, str],
             view: Mapping[str, Any] | None = None,
             more: Callable[[LegalAction], list[str]] | None = None) -> Action:
        """The one legal action `text` means: its token, its label in either language, another of its forms
        (`more` adds some), or a unique label containing it; else a refusal listing the candidates."""
        token = by_token(legal, text)
        if token is not None:
            return token
        raw = text.strip()
        found = narrow(list(legal), self.fold(raw),
                       lambda la: self.forms(la, names, view) + [self.fold(x) for x in (more(la) if more else [])])
        if len(found) == 1:
            return found[0].action
        if found:
            raise self.refusal("ambiguous", found, lang, names, view, text=raw)
        raise self.no_match(raw, legal, lang, names, view)

    def choices(self, legal: Iterable[LegalAction], current: str, lang: str, names: Mapping[int, str],
                view: Mapping[str, Any] | None = None) -> Choices:
        """Up to 25 legal actions whose label, token or other forms contain what was typed; values are tokens."""
        needle = self.fold(current)
        out: Choices = []
        for la in legal:
            token = la.action.token()
            if len(token) > MAX_VALUE:
                continue
            label = self.label(la, lang, names, view)
            if not needle or needle in self.fold(label) or needle in token.casefold() or any(
                    needle in f for f in self.hint_forms(la, names, view)):
                out.append(app_commands.Choice(name=clip(label), value=token))
            if len(out) == MAX_CHOICES:
                break
        return out


# ---------------------------------------------------------------- declaring commands; raw option values

def command_group(key: str, parent: app_commands.Group | None = None) -> app_commands.Group:
    """A game's command group (or subgroup) named `key` and described by `<key>.desc` in the catalog."""
    if parent is not None:
        return app_commands.Group(name=L(key), description=L(f"{key}.desc"), parent=parent)
    return app_commands.Group(name=L(key), description=L(f"{key}.desc"), guild_only=True)


def game_command(group: app_commands.Group, key: str, *options: str, suggest: Sequence[str] = ()
                 ) -> Callable[[Command], app_commands.Command[Any, ..., None]]:
    """A `guarded` subcommand of `group` whose texts come from the catalog: its name `key`, description
    `<key>.desc`, each option's description `<key>.<option>` and name `cmd.<game>.opt.<option>`; the first
    option autocompletes the caller's legal actions of the kinds in `suggest`."""
    return lambda func: _declare(group, key, {o: o for o in options}, suggest, func)


def _declare(group: app_commands.Group, key: str, options: Mapping[str, str], suggest: Sequence[str],
             func: Command) -> app_commands.Command[Any, ..., None]:
    """`func` guarded and declared in `group`; `options` maps its parameters to their option keys."""
    game = ".".join(key.split(".")[:2])
    func = guarded(func)
    if suggest:
        func = app_commands.autocomplete(**{next(iter(options)): legal_suggestions(*suggest)})(func)
    if options:
        func = app_commands.rename(**{p: L(f"{game}.opt.{o}") for p, o in options.items()})(func)
        func = app_commands.describe(**{p: L(f"{key}.{o}") for p, o in options.items()})(func)
    return group.command(name=L(key), description=L(f"{key}.desc"))(func)


def _as_method(run: Command, key: str, options: Sequence[tuple[str, Any]]) -> Command:
    """Give a generated callback the signature discord.py reads its options from (each option a parameter with
    its type and default) and a class-level name (discord.py takes a method's first parameter to be `self`)."""
    plain = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter("self", plain), inspect.Parameter("interaction", plain, annotation=discord.Interaction)]
    params += [inspect.Parameter(name, plain, annotation=kind, default=inspect.Parameter.empty if kind is str else None)
               for name, kind in options]
    run.__signature__ = inspect.Signature(params, return_annotation=None)  # type: ignore[attr-defined]
    run.__name__ = key.rsplit(".", 1)[-1]
    run.__qualname__ = f"GameCog.{run.__name__}"
    return run


def kind_command(group: app_commands.Group, key: str, kinds: Sequence[str], option: str | None = None
                 ) -> app_commands.Command[Any, ..., None]:
    """A subcommand whose whole job is `GameCog.pick_and_act`: the caller's legal move of these kinds that its one
    text `option` names (autocompleted from those moves), or, with no option, their only such move."""

    async def run(self: GameCog, interaction: discord.Interaction, **typed: str) -> None:
        await self.pick_and_act(interaction, kinds, typed[option] if option else None)

    options = [(option, str)] if option else []
    return game_command(group, key, *(o for o, _ in options), suggest=tuple(kinds) if option else ())(
        _as_method(run, key, options))


def part_of(la: LegalAction, arg: str, param: str) -> tuple[str, Lit | None]:
    """The value of one argument of a move (an attack's weapon, the figure placed) and its name in the label."""
    name = la.label.params.get(param)
    return str(la.action.get(arg)), name if isinstance(name, Lit) else None


def named(arg: str, param: str, text: str | None) -> Callable[[LegalAction], bool]:
    """Whether a move's `arg` is what `text` names: its value as autocomplete sends it, or its name (the label's
    `param`) in either language; any move when nothing was typed."""
    wanted = fold(text or "")

    def keep(la: LegalAction) -> bool:
        value, name = part_of(la, arg, param)
        return not wanted or wanted == fold(value) or (name is not None and wanted in (fold(name.es), fold(name.en)))

    return keep


def two_step_command(group: app_commands.Group, key: str, kinds: Sequence[str], options: tuple[str, str],
                     part: tuple[str, str]) -> app_commands.Command[Any, ..., None]:
    """A subcommand built in two steps: its first option picks what (an attack, the figure to place: the moves'
    argument and label parameter `part`), its second, optional when only one move is left, where or at whom;
    each autocompletes only what is legal given the steps before it."""
    first, second = options
    arg, param = part

    async def run(self: GameCog, interaction: discord.Interaction, **typed: str | None) -> None:
        await self.pick_and_act(interaction, kinds, typed.get(second), named(arg, param, typed[first]))

    command = game_command(group, key, first, second)(
        _as_method(run, key, [(first, str), (second, str | None)]))
    return app_commands.autocomplete(**{first: cog_autocomplete("parts", kinds, arg, param),
                                        second: cog_autocomplete("rests", kinds, arg, param, first)})(command)


# ---------------------------------------------------------------- the cog base


def cog_autocomplete(method: str, *args: Any) -> Callable[[discord.Interaction, str], Awaitable[Choices]]:
    """An autocomplete callback that asks the command's own cog: `await cog.<method>(interaction, current, *args)`."""

    async def suggest(interaction: discord.Interaction, current: str) -> Choices:
        cog = getattr(interaction.command, "binding", None)
        answer = getattr(cog, method, None) if isinstance(cog, GameCog) else None
        return list(await answer(interaction, current, *args)) if answer is not None else []

    return suggest


def legal_suggestions(*kinds: str) -> Callable[[discord.Interaction, str], Awaitable[Choices]]:
    """An autocomplete callback (`@app_commands.autocomplete(option=legal_suggestions(...))`) offering the
    caller's legal actions of these kinds, as the command's own cog words them."""
    return cog_autocomplete("suggest", kinds)


class GameCog(commands.Cog):
    """A game's command group: subclasses set `game_id` and list commands that call these helpers."""

    game_id = ""
    words = Wording()

    def __init__(self, bot: commands.Bot, table: Table) -> None:
        self.bot = bot
        self.table = table

    async def game(self, interaction: discord.Interaction, started: bool = True) -> Any:
        """This channel's game row; refused when there is none of this game (or, if `started`, still a lobby)."""
        row = await self.table.game_for(interaction.channel_id or 0)
        if row is None or row.game_type != self.game_id:
            raise NoGame(msg("core.error.no_game"))
        if started and row.status == "lobby":
            raise TableError(msg("core.error.not_started"))
        return row

    async def refuse_idle(self, interaction: discord.Interaction) -> None:
        """Raise why this user has nothing to do now, as the table words it (whose turn it is, by name)."""
        await self.game(interaction)
        await self.table.check_turn(interaction.channel_id or 0, who_of(interaction))
        raise IllegalAction(msg("core.error.illegal", valid=msg("core.nobody")))

    async def legal(self, interaction: discord.Interaction) -> list[LegalAction]:
        return await self.table.legal(interaction.channel_id or 0, who_of(interaction))

    async def view(self, interaction: discord.Interaction) -> tuple[dict[str, Any], dict[int, str]]:
        """The caller's private view and the seat names (raises if they are not seated)."""
        _, view, names = await self.table.private_view(interaction.channel_id or 0, who_of(interaction))
        return view, names

    async def act(self, interaction: discord.Interaction, action: Action) -> Any:
        """Send the action to the table and deliver what it reports; a refusal carries the engine's reason."""
        await defer(interaction)
        report = await self.table.act(interaction.channel_id or 0, who_of(interaction), action)
        await deliver(self.table, interaction, report)
        return report

    async def seen(self, interaction: discord.Interaction
                   ) -> tuple[list[LegalAction], dict[str, Any] | None, dict[int, str]]:
        """The caller's legal actions, the view this game's wording needs (none by default) and the seat
        names; a game whose labels read its view (HeroQuest's squares and figures) returns that view too."""
        row = await self.game(interaction, started=False)
        return await self.legal(interaction), None, await self.table.seat_names(row.id)

    async def mine(self, interaction: discord.Interaction, kinds: Sequence[str]
                   ) -> tuple[list[LegalAction], dict[str, Any] | None, dict[int, str]]:
        """The caller's offered legal actions of these kinds, the view and the seat names; a localized refusal
        saying why (whose turn it is, or what the caller may do instead) when there are none."""
        legal, view, names = await self.moves(interaction)
        found = self.offered(legal, kinds)
        if not found:
            # Off turn a seat may still have moves (a card, a standing order): say whose turn it is first.
            await self.table.check_turn(interaction.channel_id or 0, who_of(interaction))
            raise self.words.refusal("no_such_move", legal, locale_of(interaction), names, view)
        return found, view, names

    async def pick_and_act(self, interaction: discord.Interaction, kinds: Sequence[str], text: str | None,
                           keep: Callable[[LegalAction], bool] | None = None) -> None:
        """Play the caller's one legal move of these kinds (those `keep` accepts) that `text` names; with no
        text, the only such move, else a refusal asking which."""
        await defer(interaction)
        found, view, names = await self.mine(interaction, kinds)
        lang = locale_of(interaction)
        if keep is not None:
            kept = [la for la in found if keep(la)]
            if not kept:
                raise self.words.refusal("no_such_move", found, lang, names, view)
            found = kept
        if text is None:
            if len(found) > 1:
                raise self.words.refusal("which", found, lang, names, view)
            await self.act(interaction, found[0].action)
            return
        await self.act(interaction, self.words.pick(found, text, lang, names, view))

    async def parts(self, interaction: discord.Interaction, current: str, kinds: Sequence[str], arg: str,
                    param: str) -> Choices:
        """Autocomplete of a two-step command's first option: the distinct first steps of the caller's moves."""
        async def make() -> Choices:
            legal, _, _ = await self.seen(interaction)
            lang = locale_of(interaction)
            pairs: dict[str, str] = {}
            for la in self.offered(legal, kinds):
                value, name = part_of(la, arg, param)
                pairs.setdefault(value, i18n.t(name, lang) if name is not None else value)
            return pair_choices([(label, value) for value, label in pairs.items()], current)
        return await self.complete(make)

    async def rests(self, interaction: discord.Interaction, current: str, kinds: Sequence[str], arg: str,
                    param: str, first: str) -> Choices:
        """Autocomplete of its second option: the caller's moves whose first step is the one chosen in `first`."""
        async def make() -> Choices:
            legal, view, names = await self.seen(interaction)
            keep = named(arg, param, getattr(interaction.namespace, first, None))
            found = [la for la in self.offered(legal, kinds) if keep(la)]
            return self.words.choices(found, current, locale_of(interaction), names, view)
        return await self.complete(make)

    def offered(self, legal: list[LegalAction], kinds: Sequence[str]) -> list[LegalAction]:
        """Which legal actions a command about `kinds` offers (by default those of these kinds)."""
        return [la for la in legal if la.action.kind in kinds]

    async def suggest(self, interaction: discord.Interaction, current: str, kinds: Sequence[str]) -> Choices:
        """The offered legal actions whose words contain what was typed, worded by the game."""
        async def make() -> Choices:
            legal, view, names = await self.seen(interaction)
            return self.words.choices(self.offered(legal, kinds), current, locale_of(interaction), names, view)
        return await self.complete(make)

    async def moves(self, interaction: discord.Interaction
                    ) -> tuple[list[LegalAction], dict[str, Any] | None, dict[int, str]]:
        """`seen` for a command about to act (deferred first): a refusal saying why when the caller has no move."""
        await defer(interaction)
        found = await self.seen(interaction)
        if not found[0]:
            await self.refuse_idle(interaction)
        return found

    @staticmethod
    async def complete(make: Callable[[], Awaitable[Choices]]) -> Choices:
        """Autocomplete answers quickly and never fails loudly: any refusal means no suggestions."""
        try:
            return await make()
        except Exception:
            return []

    async def panel_for(self, interaction: discord.Interaction, filename: str, build: PanelBuilder) -> None:
        """A `/<game> panel` command: the caller's private text and image, how many moves they have (or that they
        have none now) and the buttons `build` lays out for those moves, only to them."""
        await defer(interaction)
        row = await self.game(interaction)
        view, names = await self.view(interaction)
        legal = await self.legal(interaction)
        lang = locale_of(interaction)
        more = choose_line(len(legal)) if legal else msg("bot.nothing_to_do")
        text = "\n".join(x for x in (ui_for(self.game_id).private_text(view, lang, names), i18n.t(more, lang)) if x)
        await self.private_panel(interaction, view, names, filename, text,
                                 build(row.id, row.version, legal, lang, names))

    async def private_panel(self, interaction: discord.Interaction, view: dict[str, Any], names: dict[int, str],
                            filename: str, text: str | None = None, panel: discord.ui.View | None = None) -> None:
        """A seat's private text and image (rendered off the event loop), with its panel, sent only to them."""
        ui = ui_for(self.game_id)
        lang = locale_of(interaction)
        png = await run_blocking(ui.private_image, with_names(view, names), lang)
        file = discord.File(io.BytesIO(png), filename=filename) if png else None
        await reply(interaction, ui.private_text(view, lang, names) if text is None else text, view=panel, file=file)

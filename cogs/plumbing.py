"""What every game cog shares: typed text to legal actions, refusals naming what is valid, autocomplete, acting."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs.declare import Autocomplete, Choices, given
from cogs.delivery import defer, deliver, reply, who_of, with_names
from cogs.games import game_module
from cogs.help import show_help
from cogs.translator import locale_of
from cogs.ui import choices_line, clip, offered, run_blocking, ui_for
from rules.base import Action, Choice, IllegalAction, LegalAction, RuleError
from rules.text import Lit, Msg, msg
from table import Table, TableError
from table.results import NoGame

log = logging.getLogger("tabletop.commands")

#: Discord shows at most 25 suggestions, and a choice's name and value hold at most 100 characters.
MAX_CHOICES = 25
MAX_VALUE = 100
#: Lays out a private panel: (game id, version, legal actions, language, seat names) -> the buttons and menus.
PanelBuilder = Callable[[int, int, list[LegalAction], str, dict[int, str]], discord.ui.View | None]


#: A count a label ends with ("Play all (4)", "Gold ×3"): typed with or without it, it names the same move.
COUNT_SUFFIX = re.compile(r"\s*(\(\s*[×x]?\d+\s*\)|[×x]\s*\d+)\s*$")
#: Refusals that only say a bare kind is not written in full (no reason a player can act on).
UNTOLD = ("core.error.illegal", "bad_args", "unknown", "malformed")


def fold(text: str) -> str:
    """Case- and spacing-insensitive form of what someone typed."""
    return " ".join(str(text).casefold().split())


def bare(text: str) -> str:
    """`text` without the count it may end with."""
    return COUNT_SUFFIX.sub("", text)


def listing(labels: Sequence[str], sep: str = ", ", limit: int = 6, empty: str = "-") -> str:
    """The first few of `labels` for a refusal ("a, b, …"), or `empty` when there are none."""
    return sep.join(labels[:limit]) + (f"{sep}…" if len(labels) > limit else "") or empty


def nothing(lang: str) -> str:
    """What a refusal lists when nothing is valid now."""
    return i18n.t(msg("bot.menu.nothing"), lang)


def by_token(legal: Iterable[LegalAction], text: str) -> Action | None:
    """The legal action whose token (what autocomplete, buttons and menus send) is exactly `text`."""
    raw = text.strip()
    return next((la.action for la in legal if la.action.token() == raw), None)


def _words_begin(needle: str, form: str) -> bool:
    """Whether every word typed begins a word of `form`, in order ("move d6" names "move to d6")."""
    words = form.split()
    at = 0
    for typed in needle.split():
        while at < len(words) and not words[at].startswith(typed):
            at += 1
        if at == len(words):
            return False
        at += 1
    return True


def narrow(items: Sequence[Any], needle: str, forms: Callable[[Any], list[str]]) -> list[Any]:
    """The items one of whose forms is `needle`, else is it without a count, else begins with it, else contains it,
    else has words it begins in order ("move d6" for "Move to D6")."""
    spoken = [forms(x) for x in items]
    tests: list[Callable[[str], bool]] = [
        lambda f: f == needle, lambda f: bare(f) == bare(needle), lambda f: f.startswith(needle), lambda f: needle in f,
        lambda f: _words_begin(needle, f)]
    for test in tests:
        found = [x for x, f in zip(items, spoken, strict=True) if needle and any(test(w) for w in f)]
        if found:
            return found
    return []


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


def suggestion(label: str, description: str = "") -> str:
    """An autocomplete name: the label, followed by " — description" only when both fit in 100 characters."""
    label = clip(label)
    extra = f"{label} — {description.strip()}"
    return extra if description.strip() and len(extra) <= MAX_VALUE else label


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

    def description(self, la: LegalAction, lang: str, names: Mapping[int, str]) -> str:
        """The one line a menu shows under the move, when the engine gives one."""
        return i18n.t(la.description, lang, names.get) if la.description is not None else ""

    def hint_forms(self, la: LegalAction, names: Mapping[int, str], view: Mapping[str, Any] | None) -> list[str]:
        """More texts autocomplete may filter by besides the shown label and the token."""
        return []

    def valid(self, legal: Sequence[LegalAction], lang: str, names: Mapping[int, str],
              view: Mapping[str, Any] | None = None, limit: int = 6, sep: str | None = None) -> str:
        labels = list(dict.fromkeys(self.label(la, lang, names, view) for la in legal))
        return listing(labels, sep or self.sep, limit, nothing(lang))

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
            raise self.ambiguous(raw, found, lang, names, view)
        raise self.no_match(raw, legal, lang, names, view)

    def ambiguous(self, raw: str, found: Sequence[LegalAction], lang: str, names: Mapping[int, str],
                  view: Mapping[str, Any] | None = None) -> IllegalAction:
        """Several moves answer to what was typed: each named in full, so typing one of them picks it."""
        return IllegalAction(msg("bot.menu.ambiguous", text=raw, valid=self.valid(found, lang, names, view, 8, "; ")))

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
                out.append(app_commands.Choice(name=suggestion(label, self.description(la, lang, names)),
                                               value=token))
            if len(out) == MAX_CHOICES:
                break
        return out


# ---------------------------------------------------------------- moves built in steps, in words


def kind_name(prefix: str, kind: str, lang: str) -> str | None:
    """How menus name a kind of move ("Build a tower", "Throw a card"), when a catalog names it."""
    for key in (f"{prefix}.bot.kind.{kind}", f"{prefix}.menu.kind.{kind}"):
        if prefix and i18n.has(key, lang):
            return i18n.t(Msg(key), lang)
    return None


def step_labels(prefix: str, choices: Sequence[Choice], moves: Sequence[LegalAction], lang: str,
                names: Mapping[int, str]) -> dict[str, str]:
    """Words for the steps whose own label is only their token (`core.step.part`): a kind by its name in the
    catalog, else by its one move; an argument (`card=s035`) by the name the moves' labels give it (their
    parameter of that name, or the one showing the value, as a square)."""
    out: dict[str, str] = {}
    for choice in choices:
        if choice.label.key != "core.step.part":
            continue
        arg, eq, _ = choice.token.partition("=")
        under = [la for la in moves if (choice.token in la.action.token().split(" ")[1:] if eq
                                        else la.action.kind == choice.token)]
        if not eq:
            name = kind_name(prefix, choice.token, lang)
            if name is None and under:
                name = i18n.t(under[0].label, lang, names.get) + ("" if len(under) == 1 else " …")
        else:
            # the label's parameter of the same name, else the one that shows the value itself (a square)
            value = choice.token.partition("=")[2]
            param = next((la.label.params[arg] for la in under if arg in la.label.params), None) or next(
                (v for la in under for v in la.label.params.values() if isinstance(v, str) and v == value), None)
            name = i18n.t(param, lang, names.get) if param is not None else (
                i18n.t(under[0].label, lang, names.get) + " …" if under else None)
        if name:
            out[choice.token] = name
    return out


def step_title(prefix: str, path: Sequence[str], choices: Sequence[Choice], lang: str) -> str:
    """What a step of a move asks, in words: "What do you want to do?", "Where to?", "Choose a card to throw"."""
    if not path:
        return i18n.t(msg("bot.menu.step.first"), lang)
    args = {c.token.partition("=")[0] for c in choices if "=" in c.token}
    arg = next(iter(args)) if len(args) == 1 else None
    keys = [f"{prefix}.menu.step.{path[0]}.{arg}", f"bot.menu.arg.{arg}"] if arg else []
    keys.insert(0 if len(path) == 1 or not arg else 1, f"{prefix}.menu.step.{path[0]}")
    found = next((k for k in keys if i18n.has(k, lang)), None)
    return i18n.t(Msg(found or "bot.menu.step.next"), lang)


async def step_words(table: Table, channel: int, who: Any, game_type: str, path: Sequence[str],
                     choices: Sequence[Choice], lang: str, names: Mapping[int, str]
                     ) -> tuple[dict[str, str], list[str], str]:
    """For a menu of the next step after `path`: words for its choices, the labels of the steps picked so far,
    and the step's title."""
    wording = words_for(game_type)
    prefix = wording.prefix if wording is not None else ""

    async def words(before: Sequence[str], steps: Sequence[Choice]) -> dict[str, str]:
        # Whole moves are walked only for what a catalog cannot name (a kind without a name, an argument's value),
        # and only for the games with a cog of their own (whose moves are few enough to walk).
        raw = [c for c in steps if c.label.key == "core.step.part"]
        if before:
            wanted = [before[0]] if any("=" in c.token for c in raw) else []
        else:
            wanted = [c.token for c in raw if kind_name(prefix, c.token, lang) is None]
        moves = await table.step_moves(channel, who, wanted) if wanted and wording is not None else []
        return step_labels(prefix, steps if before or not raw else raw, moves, lang, names)

    picked: list[str] = []
    for depth, token in enumerate(path):
        before = await table.choices(channel, who, list(path[:depth]))
        step = next((c for c in before if c.token == token), None) if isinstance(before, list) else None
        if step is None:
            break
        picked.append((await words(path[:depth], [step])).get(token) or i18n.t(step.label, lang, names.get))
    return await words(path, choices), picked, step_title(prefix, path, choices, lang)


# ---------------------------------------------------------------- autocomplete of a game's moves


def command_cog(interaction: discord.Interaction) -> GameCog | None:
    """The game cog whose command is being typed (the command's binding), if any."""
    command = interaction.command
    cog = command.binding if isinstance(command, app_commands.Command) else None
    return cog if isinstance(cog, GameCog) else None


def _ask_cog(answer: Callable[[GameCog, discord.Interaction, str], Awaitable[Choices]]) -> Autocomplete:
    """An autocomplete that asks the game cog of the command it is bound to; nothing outside a game cog."""

    async def complete(interaction: discord.Interaction, current: str) -> Choices:
        cog = command_cog(interaction)
        return list(await answer(cog, interaction, current)) if cog is not None else []

    return complete


def legal_moves(*kinds: str) -> Autocomplete:
    """Autocomplete of an option naming a move (`game_command(..., complete={"card": legal_moves("play")})`): the
    caller's legal moves of these kinds (as `GameCog.offered` reads them), worded by the game."""
    return _ask_cog(lambda cog, interaction, current: cog.suggest(interaction, current, kinds))


@dataclass(frozen=True)
class TwoSteps:
    """A move named by two options: `first` picks a part of it (an attack's weapon, the figure to place: the moves'
    argument `arg`, named by their label's parameter `param`), `then`, optional when one move is left, the rest
    (where, at whom); each autocompletes only what is legal given the option before it."""

    kinds: tuple[str, ...]
    arg: str
    param: str
    first: str
    then: str

    @property
    def complete(self) -> dict[str, Autocomplete]:
        """The autocomplete of both options, for `game_command(..., complete=...)`."""
        return {self.first: _ask_cog(lambda cog, interaction, current: cog.parts(
                    interaction, current, self.kinds, self.arg, self.param)),
                self.then: _ask_cog(lambda cog, interaction, current: cog.rests(
                    interaction, current, self.kinds, self.arg, self.param, self.first))}

    async def play(self, cog: GameCog, interaction: discord.Interaction, part: str, rest: str | None) -> None:
        """Play the caller's one move whose part is `part` and whose rest `rest` names."""
        await cog.pick_and_act(interaction, self.kinds, rest, (self.arg, self.param, part))


def part_of(la: LegalAction, arg: str, param: str) -> tuple[str, Lit | None]:
    """The value of one argument of a move (an attack's weapon, the figure placed) and its name in the label."""
    name = la.label.params.get(param)
    return str(la.action.get(arg)), name if isinstance(name, Lit) else None


def named(arg: str, param: str, text: str | None, among: Sequence[LegalAction] = ()
          ) -> Callable[[LegalAction], bool]:
    """Whether a move's `arg` is what `text` names: its value as autocomplete sends it, or its name (the label's
    `param`) in either language, whole or (when only one of the names in `among` answers to it) in part, as
    "Asphar" names "Asphar the Ranger"; any move when nothing was typed."""
    wanted = fold(text or "")

    def spoken(la: LegalAction) -> list[str]:
        value, name = part_of(la, arg, param)
        return [fold(value)] + ([fold(name.es), fold(name.en)] if name is not None else [])

    values = {part_of(la, arg, param)[0] for la in narrow(list(among), wanted, spoken)} if among else set()

    def keep(la: LegalAction) -> bool:
        forms = spoken(la)
        return not wanted or wanted in forms or (len(values) == 1 and part_of(la, arg, param)[0] in values)

    return keep


def parts_named(legal: Sequence[LegalAction], arg: str, param: str, lang: str) -> str:
    """The first steps of these moves by name (the figures that may be placed, the weapons), for a refusal."""
    seen: dict[str, str] = {}
    for la in legal:
        value, name = part_of(la, arg, param)
        seen.setdefault(value, i18n.t(name, lang) if name is not None else i18n.t(la.label, lang))
    return listing(list(seen.values()), limit=8, empty=nothing(lang))


# ---------------------------------------------------------------- the cog base


def cog_for(bot: commands.Bot, game_id: str) -> GameCog | None:
    """The loaded cog of a game: how `/game act` reads what a player typed the way that game's command would."""
    return next((cog for cog in bot.cogs.values() if isinstance(cog, GameCog) and cog.game_id == game_id), None)


def words_for(game_id: str) -> Wording | None:
    """How a game's moves are named (its cog module's `WORDS`), or None for a game without a cog of its own."""
    words = getattr(game_module(game_id), "WORDS", None)
    return words if isinstance(words, Wording) else None


class GameCog(commands.Cog):
    """A game's command group: subclasses set `game_id` and list commands that call these helpers."""

    game_id = ""
    words = Wording()

    def __init__(self, bot: commands.Bot, table: Table) -> None:
        self.bot = bot
        self.table = table

    async def help_pages(self, interaction: discord.Interaction) -> None:
        """What the game is, how a turn goes here, how to win and where secrets go, in the reader's language; each
        game declares it first in its group: `help = game_command(group, "cmd.<prefix>.help")(GameCog.help_pages)`."""
        await show_help(interaction, self.game_id)

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

    async def mine(self, interaction: discord.Interaction, kinds: Sequence[str], ask_engine: bool = False
                   ) -> tuple[list[LegalAction], dict[str, Any] | None, dict[int, str]]:
        """The caller's offered legal moves of these kinds, the view and the seat names; a localized refusal
        saying why (whose turn it is, the engine's own reason for a move without arguments when `ask_engine`, or
        what the caller may do instead) when there are none."""
        legal, view, names = await self.moves(interaction)
        found = self.offered(legal, kinds)
        if not found:
            # Off turn a seat may still have moves (a card, a standing order): say whose turn it is first.
            await self.table.check_turn(interaction.channel_id or 0, who_of(interaction))
            told = await self.engine_reason(interaction, kinds) if ask_engine else None
            if told is not None:
                raise IllegalAction(told)
            raise self.words.refusal("no_such_move", legal, locale_of(interaction), names, view)
        return found, view, names

    async def engine_reason(self, interaction: discord.Interaction, kinds: Sequence[str]) -> Msg | None:
        """Why the engine refuses a move of these kinds without arguments now ("finish your movement first"), when
        it says more than that the move is not written in full; None otherwise."""
        row = await self.game(interaction)
        loaded = await self.table.inspect(row.id)
        for seat in loaded.seats_of(interaction.user.id):
            for kind in kinds:
                try:
                    reason = loaded.game.why_illegal(loaded.state, seat, Action.of(kind))
                except RuleError:  # an engine that cannot judge a bare kind has nothing to say about it
                    reason = None
                except Exception:
                    log.exception("why_illegal of %s crashed on a bare %s", loaded.game.id, kind)
                    reason = None
                if reason is not None and not any(word in reason.key for word in UNTOLD):
                    return reason
        return None

    async def pick_and_act(self, interaction: discord.Interaction, kinds: Sequence[str], text: str | None,
                           part: tuple[str, str, str | None] | None = None, *, own_kind_first: bool = False) -> None:
        """Play the caller's one legal move of these kinds that `text` names (of those whose first step `part` =
        (argument, label parameter, what was typed) names); with no text, the only such move, else a refusal
        asking which."""
        await defer(interaction)
        found, view, names = await self.mine(interaction, kinds, ask_engine=text is None and part is None)
        lang = locale_of(interaction)
        if part is not None:
            arg, param, typed = part
            keep = named(arg, param, typed, found)
            kept = [la for la in found if keep(la)]
            if not kept:
                raise IllegalAction(msg("bot.menu.no_part", text=(typed or "").strip(),
                                        valid=parts_named(found, arg, param, lang)))
            found = kept
        if text is None:
            if len(found) > 1:
                raise self.words.refusal("which", found, lang, names, view)
            await self.act(interaction, found[0].action)
            return
        try:
            chosen = self.words.pick(found, text, lang, names, view)
        except IllegalAction as refused:
            # a name both the command's own kind and a lesser one answer to ("/ka block Valcor" when Valcor may also
            # unblock) means the command's own kind; anything else keeps the first refusal, which lists them all
            primary = [la for la in found if la.action.kind == kinds[0]]
            if not own_kind_first or not 0 < len(primary) < len(found):
                raise
            try:
                chosen = self.words.pick(primary, text, lang, names, view)
            except IllegalAction:
                raise refused from None
        await self.act(interaction, chosen)

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
            mine = self.offered(legal, kinds)
            keep = named(arg, param, given(interaction, first), mine)
            found = [la for la in mine if keep(la)]
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
        """Autocomplete answers quickly and never fails loudly: a refusal means no suggestions, and a bug is
        logged (the person typing still just sees no suggestions)."""
        try:
            return await make()
        except RuleError:
            return []
        except Exception:
            log.exception("autocomplete failed")
            return []

    async def panel_for(self, interaction: discord.Interaction, filename: str, build: PanelBuilder) -> None:
        """A `/<game> panel` command: the caller's private text and image, how many moves they have (or that they
        have none now) and the buttons `build` lays out for those moves, only to them."""
        await defer(interaction)
        row = await self.game(interaction)
        view, names = await self.view(interaction)
        legal = await self.legal(interaction)
        lang = locale_of(interaction)
        panel = build(row.id, row.version, legal, lang, names)
        more = choices_line(offered(panel)) if legal and panel is not None else msg("bot.nothing_to_do")
        text = "\n".join(x for x in (ui_for(self.game_id).private_text(view, lang, names), i18n.t(more, lang)) if x)
        await self.private_panel(interaction, view, names, filename, text, panel)

    async def private_panel(self, interaction: discord.Interaction, view: dict[str, Any], names: dict[int, str],
                            filename: str, text: str | None = None, panel: discord.ui.View | None = None) -> None:
        """A seat's private text and image (rendered off the event loop), with its panel, sent only to them."""
        ui = ui_for(self.game_id)
        lang = locale_of(interaction)
        png = await run_blocking(ui.private_image, with_names(view, names), lang)
        file = discord.File(io.BytesIO(png), filename=filename) if png else None
        await reply(interaction, ui.private_text(view, lang, names) if text is None else text, view=panel, file=file)

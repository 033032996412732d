"""The engine contract every game implements: actions, events, errors, views and the Game interface."""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Container, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypedDict, TypeVar

from rules.rng import Rng
from rules.text import Msg, MsgJson, msg

Scalar = str | int | bool
ArgValue = Scalar | tuple[Scalar, ...]
#: A JSON value, as `json.loads` gives it and `json.dumps` takes it.
Json = str | int | float | bool | None | list["Json"] | dict[str, "Json"]


class ActionJson(TypedDict):
    """An action as stored in a game's log: its kind and its arguments (a tuple written as a list)."""

    kind: str
    args: dict[str, Scalar | list[Scalar]]


class EventJson(TypedDict):
    """An event as JSON: its message and the seats allowed to see it (None: everyone)."""

    msg: MsgJson
    to: list[int] | None


#: The type of a game's state: each engine's own (a dataclass, a TypedDict). `Game` is generic over it; a subclass
#: that names none (`class X(Game)`) leaves its state untyped, as before.
StateT = TypeVar("StateT")
#: What `Game.view` returns: JSON-able data for one viewer. Its values stay untyped because the five games' views
#: differ and each is read by its own game's renderer and cog, chosen by game id at run time. A plain dict, not
#: a Mapping: the table, cogs and renderers take views as dicts (a TypedDict view would need them all to take a
#: Mapping).
View = dict[str, Any]

#: The viewer of a public view (a spectator, the channel, the public board image).
SPECTATOR: None = None
#: The seat of the game itself: while it is in `to_act`, the table plays `system_action` steps by itself
#: (a monster turn, a wave arriving, the zone closing), logs them as the game's own moves and announces them.
SYSTEM = -1
#: The kind of the log row the table writes when a player resigns and the game's rules take them out
#: (`Game.resign`); never a legal action of any game, and replayed through `apply_logged`.
RESIGN = "resigned"
#: The levels an AI seat may play at (`/game new ai_level:`), weakest first; "normal" is the default.
AI_LEVELS = ("easy", "normal", "hard")


# ---------------------------------------------------------------- errors


class RuleError(ValueError):
    """Base of every refusal an engine or the table gives; carries a localized reason."""

    code: ClassVar[str] = "rule"

    def __init__(self, reason: Msg) -> None:
        super().__init__(reason.key)
        self.reason = reason


class IllegalAction(RuleError):
    code = "illegal"


class NotYourTurn(RuleError):
    code = "not_your_turn"


class GameOver(RuleError):
    code = "game_over"


class BadOptions(RuleError):
    code = "bad_options"


# ---------------------------------------------------------------- values


@dataclass(frozen=True, order=True)
class Action:
    """A move as a small immutable value: a kind plus named scalar arguments (sorted by name)."""

    kind: str
    args: tuple[tuple[str, ArgValue], ...] = ()

    @staticmethod
    def of(kind: str, **args: ArgValue | list[Scalar]) -> Action:
        norm = {k: tuple(v) if isinstance(v, list) else v for k, v in args.items()}
        return Action(kind, tuple(sorted(norm.items())))

    # `get` and `[]` stay untyped: the engines read their arguments through them (hundreds of reads in the four
    # other games, typed package by package); a typed read is `text(name)` or `number(name)`.
    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.args:
            if key == name:
                return value
        return default

    def __getitem__(self, name: str) -> Any:
        for key, value in self.args:
            if key == name:
                return value
        raise KeyError(name)

    def text(self, name: str) -> str:
        """The string argument `name` (KeyError when missing, TypeError when it is not a string)."""
        value = self[name]
        if not isinstance(value, str):
            raise TypeError(f"argument {name!r} of {self.kind!r} is not a string")
        return value

    def number(self, name: str) -> int:
        """The integer argument `name` (KeyError when missing, TypeError when it is not an integer)."""
        value = self[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"argument {name!r} of {self.kind!r} is not an integer")
        return value

    @property
    def arg_dict(self) -> dict[str, ArgValue]:
        return dict(self.args)

    def to_json(self) -> ActionJson:
        return {"kind": self.kind, "args": {k: list(v) if isinstance(v, tuple) else v for k, v in self.args}}

    @staticmethod
    def from_json(data: Mapping[str, object]) -> Action:
        """An action read back from stored or sent JSON, every part checked (ValueError when malformed)."""
        kind = data.get("kind") if isinstance(data, Mapping) else None
        if not isinstance(kind, str):
            raise ValueError("an action is an object with a string 'kind'")
        args = data.get("args", {})
        if not isinstance(args, Mapping):
            raise ValueError("action args must be an object")
        for value in args.values():
            items = value if isinstance(value, list) else [value]
            if not all(isinstance(v, (str, int, bool)) for v in items):
                raise ValueError("action args are strings, integers, booleans or lists of them")
        return Action.of(kind, **args)

    def token(self) -> str:
        """A compact, stable text form used in button ids and autocomplete values."""
        parts = [self.kind]
        for key, value in self.args:
            if isinstance(value, tuple):
                text = "[" + ",".join(map(_scalar_token, value)) + "]"
            else:
                text = _scalar_token(value)
            parts.append(f"{key}={text}")
        return " ".join(parts)

    @staticmethod
    def from_token(text: str) -> Action:
        """Inverse of `token` (integers and booleans come back typed); raises ValueError when malformed."""
        parts = text.split()
        if not parts or "=" in parts[0]:
            raise ValueError("empty or malformed action")
        args: dict[str, ArgValue] = {}
        for part in parts[1:]:
            key, sep, raw = part.partition("=")
            if not sep or not key:
                raise ValueError(f"malformed argument {part!r}")
            if raw.startswith("[") and raw.endswith("]"):
                inner = raw[1:-1]
                args[key] = tuple(_parse_scalar(x) for x in inner.split(",")) if inner else ()
            else:
                args[key] = _parse_scalar(raw)
        return Action.of(parts[0], **args)


def _scalar_token(value: Scalar) -> str:
    if isinstance(value, bool):
        return "!true" if value else "!false"
    if isinstance(value, int):
        return f"#{value}"
    return value


def _parse_scalar(raw: str) -> Scalar:
    if raw == "!true":
        return True
    if raw == "!false":
        return False
    if raw.startswith("#"):
        try:
            return int(raw[1:])
        except ValueError as exc:
            raise ValueError(f"malformed integer {raw!r}") from exc
    return raw


@dataclass(frozen=True)
class LegalAction:
    """A legal action and its label in both languages (through the message catalog)."""

    action: Action
    label: Msg
    #: Optional grouping for menus, e.g. "play", "buy", "attack"; games choose.
    group: str = ""
    #: Optional one-line explanation shown under the label in menus (at most 100 characters once resolved).
    description: Msg | None = None


def by_kind(legal: Iterable[LegalAction], *, leave_out: Container[str] = ()) -> dict[str, list[Action]]:
    """The legal moves grouped by kind, kinds and moves in the order listed (how the AIs weigh their options);
    kinds in `leave_out` are dropped."""
    grouped: dict[str, list[Action]] = {}
    for legal_action in legal:
        if legal_action.action.kind not in leave_out:
            grouped.setdefault(legal_action.action.kind, []).append(legal_action.action)
    return grouped


@dataclass(frozen=True)
class Event:
    """Something that happened. `to` is None for everyone, else the seats allowed to see it."""

    msg: Msg
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> EventJson:
        return {"msg": self.msg.to_json(), "to": None if self.to is None else sorted(self.to)}

    @staticmethod
    def from_json(data: EventJson) -> Event:
        to = data.get("to")
        return Event(Msg.from_json(data["msg"]), None if to is None else frozenset(to))


@dataclass
class Step(Generic[StateT]):
    """The result of applying an action.

    `undoable` is False when the action drew a card, rolled a die or revealed anything hidden:
    the table never undoes past such a step.
    """

    state: StateT
    events: list[Event] = field(default_factory=list)
    undoable: bool = True


@dataclass(frozen=True)
class Decision:
    """A question put to a seat that is not (or not only) the one on turn: block now?, accept the exchange?

    The seat answers with one of its legal actions; when its deadline passes (the decision's own, or the
    game's turn timer) the table applies `default` for it and says so.
    """

    seat: int
    prompt: Msg
    default: Action
    #: Asked privately (DM or ephemeral) because the question involves hidden things.
    private: bool = True
    #: Seconds the seat has to answer before the default applies; None: the game's turn timer, if any.
    seconds: int | None = None


@dataclass(frozen=True)
class Choice:
    """One step of a move built in steps: the text added to the move, and its label."""

    token: str
    label: Msg
    #: Optional one-line explanation shown under the label in menus (at most 100 characters once resolved).
    description: Msg | None = None


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winners: frozenset[int]
    summary: Msg
    #: Optional final ranking, best first (seats).
    ranking: tuple[int, ...] = ()


@dataclass(frozen=True)
class OptionSpec:
    """One option of `/game new`: a key, its label, allowed values and the default."""

    key: str
    label: Msg
    default: Scalar
    #: (value, label) pairs; empty means any integer between `low` and `high`.
    choices: tuple[tuple[str, Msg], ...] = ()
    low: int = 0
    high: int = 0

    def parse(self, raw: str) -> Scalar:
        if self.choices:
            for value, _label in self.choices:
                if raw.lower() == value.lower():
                    return value
            valid = ", ".join(v for v, _ in self.choices)
            raise BadOptions(msg("core.error.option_choice", option=self.key, valid=valid))
        if isinstance(self.default, bool):
            if raw.lower() in ("1", "true", "yes", "si", "sí", "on"):
                return True
            if raw.lower() in ("0", "false", "no", "off"):
                return False
            raise BadOptions(msg("core.error.option_bool", option=self.key))
        bad = BadOptions(msg("core.error.option_int", option=self.key, low=self.low, high=self.high))
        try:
            number = int(raw)
        except ValueError as exc:
            raise bad from exc
        if not self.low <= number <= self.high:
            raise bad
        return number


# ---------------------------------------------------------------- the game interface


class Game(ABC, Generic[StateT]):
    """A game's static facts and its pure, deterministic rules.

    States are engine-specific objects; `apply` must never mutate its input state. Every random
    choice uses an `Rng` stored inside the state, so `new(options, seats, seed)` plus the action
    log replays to the identical state.
    """

    #: Stable identifier used in commands, storage and file names, e.g. "hero-realms".
    id: ClassVar[str]
    #: Catalog key of the game's display name.
    name_key: ClassVar[str]
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    #: A game still being built: tools and tests play it; the bot offers it to players only when its
    #: operator asks for previews (TABLETOP_PREVIEW_GAMES=1).
    in_progress: ClassVar[bool] = False
    #: A turn timer in minutes the game suggests (ten players keep moving) when neither `/game new timer:` nor
    #: the server's settings choose one; None: no timer unless asked.
    suggested_timer_minutes: ClassVar[int | None] = None
    #: Whether `ai_action` is implemented, so `/game new` can fill seats with AI players.
    supports_ai: ClassVar[bool] = False
    #: Top-level keys of `to_json(state)` that never change after `new` (an imported quest): the table
    #: stores them once per game instead of in every snapshot. The contract test checks they never change.
    static_keys: ClassVar[tuple[str, ...]] = ()
    #: How many seats one person may hold (a solo player running three heroes); 1 for most games.
    seats_per_player: ClassVar[int] = 1
    #: Moves are built in steps through `choices` (huge action spaces): menus and autocomplete never list
    #: `legal_actions`, which such a game may keep for tests only.
    step_built: ClassVar[bool] = False
    #: Catalog prefix naming each kind of move as the first step of a move built in steps ("br.menu.kind." names
    #: `throw` by "br.menu.kind.throw": "Throw a card"); empty: the kind is named by its moves' labels alone.
    kind_names: ClassVar[str] = ""
    #: How the records treat a finished game: "versus" (won, lost or draw; rated), "coop" (everyone wins or loses
    #: together: a record, no rating) or "unrated" (won or lost, never rated: heroes against a human game master).
    record_kind: ClassVar[str] = "versus"

    def options(self) -> Sequence[OptionSpec]:
        return ()

    def seat_role(self, options: Mapping[str, Scalar], seat: int) -> str:
        """The role of a seat ("player", or e.g. "gm"); used in lobby texts and permissions."""
        return "player"

    def seat_range(self, options: Mapping[str, Scalar]) -> tuple[int, int]:
        """The fewest and most seats these options can be played with (a variant may narrow the game's)."""
        return (self.min_seats, self.max_seats)

    def check_seats(self, options: Mapping[str, Scalar], seats: int) -> None:
        """Raise BadOptions when `seats` players cannot play with these options."""
        low, high = self.seat_range(options)
        if not low <= seats <= high:
            raise BadOptions(msg("core.error.seat_count", low=low, high=high))

    def resolve_options(self, raw: Mapping[str, str]) -> dict[str, Scalar]:
        """Validate raw `key=value` options against `options()` and fill defaults."""
        specs = {spec.key: spec for spec in self.options()}
        for key in raw:
            if key not in specs:
                valid = ", ".join(specs) or "-"
                raise BadOptions(msg("core.error.option_unknown", option=key, valid=valid))
        return {key: spec.parse(raw[key]) if key in raw else spec.default for key, spec in specs.items()}

    @abstractmethod
    def new(self, options: Mapping[str, Scalar], seats: int, seed: int) -> StateT:
        """The initial state for `seats` seats (numbered from 0) with validated options."""

    def new_with_setup(self, setup: Mapping[str, Json], options: Mapping[str, Scalar], seats: int, seed: int) -> StateT:
        """A new game from a set-up: an uploaded file (`setup_from_upload`) and the per-server records of
        `profile_keys` under "profiles". Games that take neither need not override this."""
        return self.new(options, seats, seed)

    def seat_count(self, state: StateT) -> int:
        """How many seats the game in `state` has (checks that look at every seat's view use it)."""
        return self.max_seats

    @abstractmethod
    def to_act(self, state: StateT) -> frozenset[int]:
        """Seats that may act now (empty when the game is over)."""

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> list[LegalAction]:
        """Every legal action of `seat` now, labelled; empty when it may not act."""

    def is_legal(self, state: StateT, seat: int, action: Action) -> bool:
        """Cheap legality check; games with huge action spaces override this."""
        return any(la.action == action for la in self.legal_actions(state, seat))

    @abstractmethod
    def apply(self, state: StateT, seat: int, action: Action) -> Step[StateT]:
        """Apply a legal action of `seat`; raise a RuleError (and change nothing) otherwise."""

    @abstractmethod
    def view(self, state: StateT, seat: int | None) -> View:
        """JSON-able view for a seat (None: a spectator / the public channel); secrets stripped."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """None while the game is running."""

    @abstractmethod
    def to_json(self, state: StateT) -> Mapping[str, object]:
        """The whole state, including the RNG, as JSON-able data (a Mapping of the game's own shape, which may be a
        TypedDict; the table only stores and compares it)."""

    @abstractmethod
    def from_json(self, data: Mapping[str, Json]) -> StateT:
        """Inverse of `to_json` (the data comes back from storage as plain JSON)."""

    # ---- optional hooks

    def secret_tokens(self, state: StateT) -> Mapping[str, frozenset[int]]:
        """Strings that only some seats may see (e.g. ids of cards in a hand), mapped to those seats.

        The contract tests assert no other seat's view or events ever contain one of them.
        """
        return {}

    def check_invariants(self, state: StateT) -> list[str]:
        """Descriptions of broken invariants (cards created or lost, negative pools...)."""
        return []

    def ai_action(self, state: StateT, seat: int, rng: Rng, level: str = "normal") -> Action:
        """The AI's choice for `seat` playing at `level` (one of `AI_LEVELS`: "hard" is the strongest the game has,
        "easy" plays weaker on purpose); only called when `supports_ai` is True."""
        raise IllegalAction(msg("core.error.no_ai"))

    def at_ai_level(self, action: Action, level: str) -> Action:
        """`action` as the table applies it at the table's AI level (one of `AI_LEVELS`): a move that hands the
        play over to the game's own automation (HeroQuest's monster autoplay) carries the level, so that the log
        replays it; any other move is returned unchanged."""
        return action

    def why_illegal(self, state: StateT, seat: int, action: Action) -> Msg | None:
        """A localized reason why this action is refused now, or None."""
        return None

    def may_act(self, state: StateT, seat: int, action: Action) -> bool:
        """Whether `seat` may try `action` now; games with out-of-turn moves (a GM's tools) widen this."""
        return seat in self.to_act(state)

    def anytime_actions(self, state: StateT, seat: int) -> list[LegalAction]:
        """The moves `seat` may make now although it is not on turn (a card played during another's turn); the
        table lists them, and builds them in steps, for a player none of whose seats is on turn."""
        return []

    #: Options that an uploaded set-up file replaces (not shown in the lobby when a file was given).
    upload_overrides: ClassVar[tuple[str, ...]] = ()

    def watchers(self, state: StateT) -> frozenset[int]:
        """Seats sent their private view whenever the turn moves on (a game master watching the map)."""
        return frozenset()

    def profile_keys(self, options: Mapping[str, Scalar], seats: int) -> list[str]:
        """Keys of the per-server records (e.g. character sheets) this game reads at start; none by default.

        The table loads them and passes `{"profiles": {key: data}}` in the set-up to `new_with_setup`.
        """
        return []

    def profile_updates(self, state: StateT) -> dict[str, dict[str, Json]]:
        """Per-server records to save when the game ends (merged over the ones it started with)."""
        return {}

    def setup_from_upload(self, data: bytes, filename: str) -> dict[str, Json]:
        """Validate a file attached to `/game new` (e.g. a quest) and return the JSON set-up that
        `new_with_setup(setup, options, seats, seed)` will receive; raise BadOptions naming the problem."""
        raise BadOptions(msg("core.error.no_upload"))

    def system_action(self, state: StateT) -> Action:
        """The game's own next step while `SYSTEM` is in `to_act`; decided by the state and its Rng alone."""
        raise IllegalAction(msg("core.error.no_system"))

    def decisions(self, state: StateT) -> Sequence[Decision]:
        """Questions pending for seats, in the order they must be answered (their seats are in `to_act`)."""
        return ()

    def timeout_action(self, state: StateT, seat: int) -> Action | None:
        """What the table plays for `seat` when its time runs out: its pending decision's default, else the
        action `skip_action` gives."""
        for decision in self.decisions(state):
            if decision.seat == seat:
                return decision.default
        return self.skip_action(state, seat)

    def choices(self, state: StateT, seat: int, path: Sequence[str]) -> list[Choice] | Action:
        """A move built in steps: the choices that may follow `path` (the tokens picked so far), or the
        complete action once `path` names one. The table shows at most 25 at a time, filtered by what the
        player types, so a step may offer more; games with huge action spaces override this to build their
        steps without listing every action (and keep `is_legal` cheap).

        The default walks the tokens of `legal_actions`: the kind first, then one argument at a time.
        """
        return choices_from_legal(self.legal_actions(state, seat), tuple(path), self.step_name)

    def step_name(self, path: tuple[str, ...], token: str, moves: Sequence[LegalAction]) -> Msg | None:
        """The words for one step of a move built in steps (`token`, after `path`) that leads to several `moves`:
        a kind of move ("Throw a card") or an argument the labels do not show by itself; None lets
        `choices_from_legal` name it by the value the moves' labels share."""
        return Msg(self.kind_names + token) if not path and self.kind_names else None

    def moves_of_kinds(self, state: StateT, seat: int, kinds: Sequence[str]) -> list[LegalAction]:
        """Every complete move built in steps whose first step is one of `kinds`, labelled as its last step shows
        it; the default walks `choices`, and a game that can list such moves at once overrides this."""
        out: list[LegalAction] = []

        def walk(path: list[str], label: Msg) -> None:
            found = self.choices(state, seat, path)
            if isinstance(found, Action):
                out.append(LegalAction(found, label, found.kind))
                return
            for choice in found:
                walk([*path, choice.token], choice.label)

        first = self.choices(state, seat, [])
        labels = {c.token: c.label for c in first} if isinstance(first, list) else {}
        for kind in kinds:
            walk([kind], labels.get(kind) or msg("core.step.part", part=kind))
        return out

    def quick_actions(self, state: StateT) -> list[tuple[Msg, Action]] | None:
        """Buttons for the public turn message (Play all, Attack, End turn...), at most 8, taken from the
        legal moves of the seats on turn; None: the game's Discord UI decides (older games)."""
        return None

    def skip_action(self, state: StateT, seat: int) -> Action | None:
        """An action the table may take for an absent `seat` when others vote to skip, or None."""
        return None

    def turn_key(self, state: StateT) -> Hashable:
        """Identifies the current turn (compared, and stored as JSON); undo never crosses a change of it. Defaults to
        who acts."""
        return tuple(sorted(self.to_act(state)))

    def copy_state(self, state: StateT) -> StateT:
        """A deep copy; engines may override with something faster."""
        return copy.deepcopy(state)

    def resign(self, state: StateT, seat: int) -> Step[StateT] | None:
        """The game after the player of `seat` resigns, where the rules can take a player out (eliminated; when
        one side is left, it wins and `outcome` says so); pure, like `apply`. None: the rules have no such thing
        now, and the table hands the seat to the AI (when `supports_ai`) or refuses. Raises a RuleError saying why
        when the seat cannot resign (already out)."""
        return None

    def final_figures(self, state: StateT) -> list[Msg]:
        """A few lines of key figures for the end-of-game summary (turns or waves played, each player's health,
        points, eliminations...), built from the state; none by default."""
        return []

    def record_figures(self, state: StateT) -> dict[int, dict[str, int]]:
        """Per seat, the few public numbers the records keep for statistics (health left, eliminations, points);
        none by default."""
        return {}

    def record_teams(self, state: StateT) -> list[list[int]] | None:
        """The seats that play as one side (duos, teams), for ratings; None: every seat plays for itself."""
        return None


def apply_logged(game: Game[StateT], state: StateT, seat: int, action: Action) -> Step[StateT]:
    """One row of a game's action log applied again: a resignation through `resign`, any other move through
    `apply` (replay and rebuilding a state from its snapshot go through here)."""
    if action.kind == RESIGN:
        step = game.resign(state, seat)
        if step is None:
            raise IllegalAction(msg("core.error.illegal", valid=msg("core.nobody")))
        return step
    return game.apply(state, seat, action)


#: Names a step of a move built in steps: (the tokens picked before it, its token, the moves it leads to) -> its
#: label, or None to let `choices_from_legal` name it.
StepNamer = Callable[[tuple[str, ...], str, Sequence[LegalAction]], "Msg | None"]


def choices_from_legal(legal: Sequence[LegalAction], path: tuple[str, ...],
                       name: StepNamer | None = None) -> list[Choice] | Action:
    """The steps that may follow `path` among these moves' tokens (the kind first, then one argument at a time), or
    the move `path` completes. Each step is named in words: the move's own label when it leads to one move (or to
    moves that all read the same), else `name` (a game's names for its kinds of move), else the value the
    moves' labels show for it (a card's name, a square), never the token itself unless nothing names it."""
    path = tuple(path)
    depth = len(path)
    groups: dict[str, list[LegalAction]] = {}
    for la in legal:
        parts = la.action.token().split(" ")
        if tuple(parts[:depth]) != path:
            continue
        if len(parts) == depth:
            return la.action
        groups.setdefault(parts[depth], []).append(la)
    return [Choice(token, _step_label(path, token, moves, groups, name), _step_description(depth, moves))
            for token, moves in groups.items()]


def _step_description(depth: int, moves: list[LegalAction]) -> Msg | None:
    """A step that completes a move (or leads to moves that all read the same) carries that move's description."""
    ending = next((la for la in moves if len(la.action.token().split(" ")) == depth + 1), None)
    if ending is not None:
        return ending.description
    return moves[0].description if len({la.label for la in moves}) == 1 else None


def _step_label(path: tuple[str, ...], token: str, moves: list[LegalAction], groups: Mapping[str, list[LegalAction]],
                name: StepNamer | None) -> Msg:
    if len({la.label for la in moves}) == 1:
        return moves[0].label
    named = name(path, token, moves) if name is not None else None
    if named is None and path:
        named = _value_named(token, moves, groups)
    return named if named is not None else msg("core.step.part", part=token)


def _value_named(token: str, moves: list[LegalAction], groups: Mapping[str, list[LegalAction]]) -> Msg | None:
    """An argument's step by the value its moves' labels share (`ally=a0`: the ally's name): of the label
    parameters equal across these moves, the one that best tells this step from the others; a number alone
    says nothing and is never chosen."""
    first = moves[0].label.params
    shared = [p for p, value in first.items() if not isinstance(value, (int, bool))
              and all(la.label.params.get(p) == value for la in moves)]
    if not shared:
        return None
    arg = token.partition("=")[0]

    def spread(param: str) -> tuple[int, bool]:
        seen = {repr(group[0].label.params.get(param)) for group in groups.values()}
        return len(seen), param == arg

    best = max(shared, key=spread)
    return msg("core.step.value", value=first[best])

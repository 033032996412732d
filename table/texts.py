"""The table's words: lists of seats, the lobby's lines, the reasons a move is refused (as `Msg` keys)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from rules.base import SYSTEM, Action, Game, IllegalAction, NotYourTurn, OptionSpec, RuleError, Step
from rules.text import Lit, Msg, SeatRef, msg
from storage import SeatRow

AI_NAMES = ("Ada", "Bernat", "Carmen", "Dario", "Elena", "Fausto", "Gala", "Hugo", "Irene", "Jordi", "Lola",
            "Marco")

log = logging.getLogger("tabletop.table")


def _ai_name(index: int) -> str:
    base = AI_NAMES[index % len(AI_NAMES)]
    lap = index // len(AI_NAMES)
    return f"{base} {lap + 1} (bot)" if lap else f"{base} (bot)"


def _seat_list(seats: Iterable[int], names: Mapping[int, str] | None = None) -> Msg:
    """Seats named for a message; with `names`, the names are written in (refusals carry no name table)."""
    ordered = sorted(seats)
    if not ordered:
        return msg("core.nobody")
    refs: list[Any] = [msg("core.seat.system") if s == SYSTEM else Lit(names[s], names[s]) if names and s in names
                       else SeatRef(s) for s in ordered]
    if len(ordered) <= 6:
        return Msg(f"core.list.{len(ordered)}", {f"s{i}": r for i, r in enumerate(refs)})
    shown = {f"s{i}": r for i, r in enumerate(refs[:5])}
    return Msg("core.list.many", {**shown, "n": len(ordered) - 5})


def _seats_line(seats: list[SeatRow]) -> Msg:
    names = ", ".join(f"{s.seat + 1}. {s.name}" for s in seats) or "-"
    return msg("core.lobby.seats", seats=names, n=len(seats))


def _options_line(game: Game, options: Mapping[str, Any], hide: tuple[str, ...] = ()) -> Msg:
    """The table's options as players read them: each option's label and its value's label, in the reader's
    language ("Options: Primacy points to win: 10 (standard) · Monster ties: at random"); a switch is named only
    when it is on. Never the keys and values typed in `/game new`."""
    parts: list[Msg] = []
    for spec in game.options():
        if spec.key in hide or spec.key not in options:
            continue
        value = options[spec.key]
        if isinstance(spec.default, bool):
            if _switched_on(value):
                parts.append(msg("core.lobby.option", name=spec.label, value=msg("core.value.yes")))
            continue
        parts.append(msg("core.lobby.option", name=spec.label, value=_option_value(spec, value)))
    if not parts:
        return msg("core.lobby.options", options=msg("core.lobby.options_none"))
    joined = parts[-1]
    for part in reversed(parts[:-1]):
        joined = msg("core.lobby.options_join", a=part, b=joined)
    return msg("core.lobby.options", options=joined)


def _switched_on(value: Any) -> bool:
    return value is True or str(value).lower() in ("true", "1", "yes")


def _option_value(spec: OptionSpec, value: Any) -> Msg | Lit | int:
    """An option's value by its label (a number stays a number)."""
    for choice, label in spec.choices:
        if str(choice).lower() == str(value).lower():
            return label
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value)
    return Lit(text, text)


def _illegal_reason(game: Game, state: Any, seat: int, action: Action | None = None,
                    names: Mapping[int, str] | None = None) -> Msg:
    """Why a move is refused, in words people read: the engine's own reason when it gives one, else the
    moves that are legal now, by their labels (never internal ids). With `names`, the players it mentions are
    written in by name (a refusal reaches its reader without the table's list of names)."""
    reason = _engine_reason(game, state, seat, action)
    return _named(reason, names) if names else reason


def _engine_reason(game: Game, state: Any, seat: int, action: Action | None) -> Msg:
    if action is not None:
        reason = game.why_illegal(state, seat, action)
        if reason is None:
            try:  # the contract: apply refuses an illegal move with a RuleError and changes nothing
                game.apply(state, seat, action)
            except RuleError as exc:
                reason = exc.reason
            except Exception:  # an engine that cannot explain falls back to the list below
                log.exception("%s crashed while explaining a refusal of a %s move", game.id, action.kind)
                reason = None
        if reason is not None and reason.key != "core.error.illegal":
            return reason
    if game.step_built:
        first = game.choices(state, seat, ())
        labels = [c.label for c in first] if isinstance(first, list) else []
    else:
        labels = [la.label for la in game.legal_actions(state, seat)]
    if not labels:
        return msg("core.error.illegal", valid=msg("core.nobody"))
    shown: dict[str, Any] = {f"s{i}": label for i, label in enumerate(labels[:5])}
    listed = Msg(f"core.list.{len(labels)}", shown) if len(labels) <= 5 else Msg(
        "core.list.many", {**shown, "n": len(labels) - 5})
    return msg("core.error.illegal", valid=listed)


def _named(message: Msg, names: Mapping[int, str]) -> Msg:
    """`message` with every player it mentions (at any depth) written in by name."""
    def name(value: Any) -> Any:
        if isinstance(value, SeatRef) and value.seat in names:
            return Lit(names[value.seat], names[value.seat])
        return _named(value, names) if isinstance(value, Msg) else value

    return Msg(message.key, {key: name(value) for key, value in message.params.items()})


def apply_or_raise(game: Game, state: Any, seat: int, action: Action) -> Step:
    """Apply through the contract the way the table does (legality first); used by tools."""
    if seat not in game.to_act(state):
        raise NotYourTurn(msg("core.error.not_your_turn", seats=_seat_list(game.to_act(state))))
    if not game.is_legal(state, seat, action):
        raise IllegalAction(_illegal_reason(game, state, seat, action))
    return game.apply(state, seat, action)

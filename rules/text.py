"""Localizable text values that rule engines emit instead of finished strings."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict, Union, final

Param = Union[str, int, "Msg", "SeatRef", "Lit"]


@final
class MsgJson(TypedDict):
    """A message as JSON (events, logs, views, records): its catalog key and its parameters."""

    key: str
    #: Always written; a message read back may omit it (no parameters).
    params: NotRequired[dict[str, ParamJson]]


@final
class MsgParamJson(TypedDict):
    """A message inside a message's parameters."""

    msg: MsgJson


@final
class SeatJson(TypedDict):
    """A `SeatRef` as JSON."""

    seat: int


@final
class LitJson(TypedDict):
    """A `Lit` as JSON."""

    es: str
    en: str


#: A message parameter as JSON: text and numbers as they are, a message, a seat or a literal as an object.
ParamJson = str | int | MsgParamJson | SeatJson | LitJson


@dataclass(frozen=True)
class SeatRef:
    """A seat mentioned in a message; the table replaces it by the player's name or mention."""

    seat: int


@dataclass(frozen=True)
class Lit:
    """A literal already written in both languages (a card name from data, a quest title)."""

    es: str
    en: str


@dataclass(frozen=True)
class Msg:
    """A catalog key plus parameters, resolved to Spanish or English by `i18n`."""

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted((k, repr(v)) for k, v in self.params.items()))))

    def to_json(self) -> MsgJson:
        return {"key": self.key, "params": {k: param_to_json(v) for k, v in self.params.items()}}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Msg:
        """A message read back from stored or foreign JSON (untyped at this boundary; `param_from_json` reads it)."""
        return Msg(data["key"], {k: param_from_json(v) for k, v in data.get("params", {}).items()})


def msg(key: str, **params: Param) -> Msg:
    """Shorthand: `msg(key, seat=SeatRef(0), card=...)`."""
    return Msg(key, params)


def param_to_json(value: Param) -> ParamJson:
    if isinstance(value, Msg):
        return {"msg": value.to_json()}
    if isinstance(value, SeatRef):
        return {"seat": value.seat}
    if isinstance(value, Lit):
        return {"es": value.es, "en": value.en}
    return value


def param_from_json(value: ParamJson) -> Param:
    if isinstance(value, dict):
        if "msg" in value:
            return Msg.from_json(value["msg"])
        if "seat" in value:
            return SeatRef(int(value["seat"]))
        return Lit(value["es"], value["en"])
    return value


def iter_strings(value: object) -> Iterator[str]:
    """Yield every string inside a JSON-like value or message (keys included): used by secrecy checks."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Msg):
        yield value.key
        for v in value.params.values():
            yield from iter_strings(v)
    elif isinstance(value, Lit):
        yield value.es
        yield value.en
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from iter_strings(k)
            yield from iter_strings(v)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from iter_strings(v)

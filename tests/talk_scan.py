"""What the bot said through the Discord stand-in, piece by piece, and the internal words hidden in it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import i18n
from standin.world import Output, World, iter_components


@dataclass(frozen=True)
class Said:
    """One piece of text the bot showed someone.

    `where`: channel, ephemeral, dm, edit (a message's text), embed, button, menu (a select's placeholder),
    option, option.description, autocomplete. `reader`: the user it was shown to (None: the whole channel).
    `value`: what a button, option or suggestion sends back (an action token or a step path), for labels.
    """

    where: str
    text: str
    reader: int | None = None
    value: str = ""


@dataclass(frozen=True)
class Finding:
    """One internal word in a piece of text: its kind (key=value, snake_case, catalog key, id, None, dash,
    placeholder, token) and the word itself."""

    kind: str
    word: str
    said: Said

    def __str__(self) -> str:
        return f"{self.kind} {self.word!r} in {self.said.where}: {self.said.text[:160]!r}"


# ---------------------------------------------------------------- collecting what was said


def said_in(outputs: Iterable[Output], world: World) -> list[Said]:
    """Every piece of text in these outputs: the text, the embeds and each component's labels (from the stored
    message, so select options and their descriptions are included)."""
    out: list[Said] = []
    for o in outputs:
        reader = o.recipient_id
        where = o.kind
        if o.content:
            out.append(Said(where, o.content, reader))
        message = world.messages.get(o.message_id)
        embeds = message.embeds if message is not None else o.embeds
        for e in embeds:
            for key in ("title", "description"):
                if e.get(key):
                    out.append(Said("embed", str(e[key]), reader))
            for f in e.get("fields", []):
                out.extend(Said("embed", str(f.get(k, "")), reader) for k in ("name", "value") if f.get(k))
            if (e.get("footer") or {}).get("text"):
                out.append(Said("embed", e["footer"]["text"], reader))
        if message is None:
            out.extend(Said("button", label or "", reader, cid) for cid, label in o.components)
            continue
        out.extend(component_said(message.components, reader))
    return out


def component_said(components: list[dict[str, Any]], reader: int | None) -> list[Said]:
    """The labels of buttons and menus (placeholder, options and their descriptions)."""
    out: list[Said] = []
    for c in iter_components(components):
        if c.get("type") == 2:
            out.append(Said("button", c.get("label") or "", reader, _sent(c.get("custom_id", ""))))
        elif c.get("type") == 3:
            if c.get("placeholder"):
                out.append(Said("menu", c["placeholder"], reader))
            for option in c.get("options", []):
                out.append(Said("option", option.get("label", ""), reader, option.get("value", "")))
                if option.get("description"):
                    out.append(Said("option.description", option["description"], reader, option.get("value", "")))
    return out


def said_in_choices(choices: Sequence[dict[str, Any]], reader: int) -> list[Said]:
    """The names of autocomplete suggestions shown to `reader`."""
    return [Said("autocomplete", str(c.get("name", "")), reader, str(c.get("value", ""))) for c in choices]


def _sent(custom_id: str) -> str:
    """The action part of a game button's custom_id (tgb:kind:game:version:rest)."""
    parts = custom_id.split(":", 4)
    return parts[4] if len(parts) == 5 and parts[0] == "tgb" else ""


# ---------------------------------------------------------------- finding internal words

#: Discord markup that is not text: mentions, timestamps, custom emoji; and links.
_MARKUP = re.compile(r"<(?:@[!&]?|#)\d+>|<t:\d+(?::[A-Za-z])?>|<a?:\w+:\d+>|https?://\S+")
#: A command written for the player to type (`/game new options:target=7`) shows its syntax on purpose.
_COMMAND_SPAN = re.compile(r"`/[^`]*`")
_KEY_VALUE = re.compile(r"(?<![\w/])[A-Za-z_][A-Za-z0-9_]*=[^\s=][^\s,;]*")
_SNAKE = re.compile(r"(?<![\w./-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w/-])")
_ID = re.compile(r"(?<![\w#./-])[a-z]\d{1,3}(?![\w-])")
_DICE = re.compile(r"d(?:4|6|8|10|12|20|100)")
_NONE = re.compile(r"\b(?:None|null|undefined|NaN)\b")
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][\w]*(?:,[^{}]*)?\}|\{[A-Za-z_]\w*,\s*plural")
_LONE_DASH = re.compile(r"(?:^|(?<=[:=(\[])|(?<=[:=(\[] ))-(?=\s*(?:$|[.,;)\]\n]))", re.MULTILINE)


def _catalog_prefixes() -> tuple[str, ...]:
    return tuple(sorted({key.split(".", 1)[0] for lang in i18n.LANGS for key in i18n.catalog(lang)}))


_CATALOG = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, _catalog_prefixes())) + r")(?:\.[a-z0-9_]+){2,}")


def _token_parts(value: str) -> set[str]:
    """The words an action token or step path is made of (kind, argument names and values)."""
    return {p for p in re.split(r"[/ =,\[\]#!]", value) if p}


def raw_tokens(said: Said, internal: Iterable[str] = ()) -> list[Finding]:
    """The internal words in one piece of text. `internal` adds lowercase words (action kinds, step tokens)
    that must never stand alone as a label or as an item of a list."""
    text = _COMMAND_SPAN.sub(" ", _MARKUP.sub(" ", said.text))
    found: list[Finding] = []

    def add(kind: str, pattern: re.Pattern[str], skip: re.Pattern[str] | None = None) -> None:
        for m in pattern.finditer(text):
            if skip is None or not skip.fullmatch(m.group(0)):
                found.append(Finding(kind, m.group(0), said))

    add("key=value", _KEY_VALUE)
    add("catalog key", _CATALOG)
    add("snake_case", _SNAKE)
    add("id", _ID, _DICE)
    add("None", _NONE)
    add("placeholder", _PLACEHOLDER)
    if said.text.strip() in ("-", "") and said.where in ("button", "option", "autocomplete", "menu"):
        found.append(Finding("dash", said.text, said))
    else:
        add("dash", _LONE_DASH)
    words = {w for w in internal if re.fullmatch(r"[a-z][a-z0-9_]*", w)}
    if said.value:
        words |= {w for w in _token_parts(said.value) if re.fullmatch(r"[a-z][a-z0-9_]*", w)}
    if words:
        pieces = [p.strip(" .…!?*_`'\"()[]") for p in re.split(r"[,;:\n·|]| — | - ", text)]
        for piece in pieces:
            if piece in words and not any(f.word == piece for f in found):
                found.append(Finding("token", piece, said))
    return found


def scan(pieces: Iterable[Said], internal: Iterable[str] = ()) -> list[Finding]:
    """Every internal word in what was said."""
    words = frozenset(internal)
    return [f for said in pieces for f in raw_tokens(said, words)]


def internal_words(pieces: Iterable[Said]) -> set[str]:
    """The lowercase words of the tokens and paths that buttons, options and suggestions send back: the moves'
    kinds and arguments as the engines spell them."""
    return {w for said in pieces if said.value for w in _token_parts(said.value)
            if re.fullmatch(r"[a-z][a-z0-9_]*", w)}

"""Act as a Discord user: parse command lines against the synced commands and build interaction payloads."""

from __future__ import annotations

import difflib
import mimetypes
import re
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, NamedTuple

from standin.world import (
    DM,
    GUILD_TEXT,
    Attachment,
    Channel,
    Guild,
    Interaction,
    Message,
    Output,
    User,
    World,
    default_world,
    iter_components,
)

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
APP_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
_TRUE = {"true", "yes", "1", "on", "si", "sí"}
_FALSE = {"false", "no", "0", "off"}


class DriverError(ValueError):
    """The simulated user did something Discord's client would not allow (unknown command, bad option...)."""


class Token(NamedTuple):
    """One word of a typed line, and where its first colon outside quotes is (-1: none)."""

    text: str
    colon: int


def split_line(line: str) -> list[Token]:
    """Split a typed line the way a person means it: spaces separate words, quotes group them.

    Double quotes group anywhere (`name:"a b"`, `"a b"`); a single quote opens a group only where a word
    or a value starts (`target:'Goblin 2'`) and closes only before a space or the end, so apostrophes
    inside words (`Ada's`) stay plain letters. A backslash inside quotes escapes the next character.
    """
    tokens: list[Token] = []
    buf: list[str] = []
    quote = ""
    colon = -1
    in_token = False
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if quote and ch == "\\" and i + 1 < n:
            buf.append(line[i + 1])
            i += 1
        elif quote and ch == quote and (quote == '"' or i + 1 == n or line[i + 1].isspace()):
            quote = ""
        elif quote:
            buf.append(ch)
        elif ch == '"' or (ch == "'" and (not buf or buf[-1] in ":=")):
            quote, in_token = ch, True
        elif ch.isspace():
            if in_token:
                tokens.append(Token("".join(buf), colon))
                buf, colon, in_token = [], -1, False
        else:
            if ch == ":" and colon < 0:
                colon = len(buf)
            buf.append(ch)
            in_token = True
        i += 1
    if quote:
        raise DriverError(
            f"unterminated quote: the {quote} opened in {line.strip()!r} is never closed; "
            f"close it like name:{quote}two words{quote}"
        )
    if in_token:
        tokens.append(Token("".join(buf), colon))
    return tokens


def tokenize(line: str) -> list[str]:
    """The words of a typed line (see split_line), quotes removed."""
    return [t.text for t in split_line(line)]


def _names(obj: dict[str, Any], locale: str) -> set[str]:
    names = {obj.get("name", "")}
    local = (obj.get("name_localizations") or {}).get(locale)
    if local:
        names.add(local)
    return names


def _find(options: list[dict[str, Any]], name: str, locale: str) -> dict[str, Any] | None:
    return next((o for o in options if name in _names(o, locale)), None)


def _shown(obj: dict[str, Any], locale: str) -> str:
    """The name a user with this locale sees."""
    return (obj.get("name_localizations") or {}).get(locale) or obj.get("name", "")


def _did_you_mean(typed: str, objs: list[dict[str, Any]], locale: str, prefix: str = "") -> str:
    names = sorted({n for o in objs for n in _names(o, locale) if n})
    close = difflib.get_close_matches(typed.casefold(), names, n=1, cutoff=0.6)
    return f" (did you mean {prefix}{close[0]}?)" if close else ""


def _option_list(opts: list[dict[str, Any]], locale: str) -> str:
    if not opts:
        return "it takes no options"
    return "options: " + ", ".join(_shown(o, locale) + ("" if o.get("required") else " (optional)") for o in opts)


def _match_component(msg: Message, key: str) -> dict[str, Any] | None:
    """A component with custom_id `key`, else one whose label (or placeholder) matches case-insensitively."""
    comps = [c for c in iter_components(msg.components) if c.get("custom_id")]
    exact = next((c for c in comps if c["custom_id"] == key), None)
    if exact is not None:
        return exact
    folded = key.casefold()
    return next((c for c in comps if (c.get("label") or c.get("placeholder") or "").casefold() == folded), None)


def menu_options(msg: Message) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(menu, option) for every option of the message's enabled string menus, in order: what `pick N` counts."""
    return [
        (c, o)
        for c in iter_components(msg.components)
        if c.get("type") == 3 and c.get("custom_id") and not c.get("disabled")
        for o in c.get("options", [])
    ]


def _modal_inputs(component: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """(input component, its label) pairs inside one top-level modal component (action row or label)."""
    if component.get("type") == 1:
        return [(c, c.get("label", "")) for c in component.get("components", [])]
    if component.get("type") == 18 and isinstance(component.get("component"), dict):
        return [(component["component"], component.get("label", ""))]
    return []


def modal_keys(component: dict[str, Any]) -> set[str]:
    return {k for c, label in _modal_inputs(component) for k in (c.get("custom_id"), label) if k}


def _fill_modal_component(component: dict[str, Any], values: dict[str, str | list[str]]) -> dict[str, Any]:
    filled = []
    for inp, label in _modal_inputs(component):
        key = inp.get("custom_id") if inp.get("custom_id") in values else label
        given = values.get(key or "")
        answer: dict[str, Any] = {"type": inp["type"], "custom_id": inp.get("custom_id")}
        if inp["type"] == 4:
            text = given if isinstance(given, str) else inp.get("value") or ""
            if inp.get("required", True) and not text:
                raise DriverError(f"modal field {label or inp.get('custom_id')!r} is required")
            if not inp.get("min_length", 0) <= len(text) <= inp.get("max_length", 4000) and text:
                raise DriverError(f"modal field {label!r}: length must be {inp.get('min_length', 0)}..")
            answer["value"] = text
        else:
            answer["values"] = [given] if isinstance(given, str) else list(given or [])
        filled.append(answer)
    if component.get("type") == 18:
        return {"type": 18, "component": filled[0]} if filled else component
    return {"type": 1, "components": filled}


class Driver(ABC):
    """Shared user-side behaviour of the in-process and websocket modes; subclasses deliver payloads."""

    def __init__(self, world: World | None = None, guild: Guild | None = None, channel: Channel | None = None):
        if world is None:
            world, guild, channel = default_world()
        self.world = world
        self.guild = guild or next(iter(world.guilds.values()), None)
        if channel is None and self.guild is not None:
            channel = next(
                (world.channels[c] for c in self.guild.channel_ids if world.channels[c].type == GUILD_TEXT), None
            )
        self.channel = channel
        self.last_interaction: Interaction | None = None

    # transport hook
    @abstractmethod
    async def deliver(self, inter: Interaction, payload: dict[str, Any]) -> None:
        """Dispatch INTERACTION_CREATE to the bot and return once the bot is done reacting."""

    # users
    def user(self, who: User | str, *, locale: str | None = None, permissions: Any = None) -> User:
        """Get a user by name, creating them (as a member of the default guild) on first mention."""
        if isinstance(who, User):
            user = who
        else:
            user = self.world.user_named(who) or self.world.add_user(who)
        if locale:
            user.locale = locale
        if self.guild is not None and (user.id not in self.guild.members or permissions):
            self.world.add_member(self.guild, user, permissions=permissions)
        return user

    def _channel_for(self, user: User, channel: Channel | str | None) -> Channel:
        if channel == "dm":
            return self.world.dm_channel(user)
        if isinstance(channel, Channel):
            return channel
        if isinstance(channel, str):
            found = next((c for c in self.world.channels.values() if c.name == channel.lstrip("#")), None)
            if found is None:
                raise DriverError(f"unknown channel {channel!r}")
            return found
        if self.channel is None:
            raise DriverError("no default channel")
        return self.channel

    # public actions
    async def command(self, who: User | str, line: str, *, channel: Channel | str | None = None) -> list[Output]:
        user = self.user(who)
        ch = self._channel_for(user, channel)
        data = self.command_data(user, ch, line)  # a line Discord would refuse never becomes an interaction
        inter = self.world.new_interaction(APP_COMMAND, user, ch)
        return await self._run(inter, self.interaction_payload(inter, user, ch, data))

    async def autocomplete(
        self,
        who: User | str,
        line: str,
        focused_option: str,
        value: str = "",
        *,
        channel: Channel | str | None = None,
    ) -> list[dict[str, Any]]:
        """Type `value` into option `focused_option` of `line` and return the bot's choices."""
        user = self.user(who)
        ch = self._channel_for(user, channel)
        data = self.command_data(user, ch, line, focused=(focused_option, value))
        inter = self.world.new_interaction(AUTOCOMPLETE, user, ch)
        await self._run(inter, self.interaction_payload(inter, user, ch, data))
        return inter.autocomplete_choices or []

    async def click(self, who: User | str, message: Message | Output | int | None, custom_id: str) -> list[Output]:
        """Press a button (by custom_id, or by label) on a message the user can see."""
        return await self._component(who, message, custom_id, None)

    async def select(
        self, who: User | str, message: Message | Output | int | None, custom_id: str, values: list[str]
    ) -> list[Output]:
        return await self._component(who, message, custom_id, list(values))

    async def pick(self, who: User | str, choice: str) -> list[Output]:
        """Choose one option of the newest menu the user can see: by its number (as printed), label or value."""
        user = self.user(who)
        msg, menu, option = self.find_option(user, choice)
        return await self._component(user, msg, menu["custom_id"], [option["value"]])

    def find_option(self, user: User, choice: str) -> tuple[Message, dict[str, Any], dict[str, Any]]:
        """(message, menu, option) that `choice` names in the newest message with a menu visible to `user`.

        Numbers count the options of all the message's menus in order (a second menu of 25 goes on at 26);
        a label matches whole (ignoring case) or, failing that, as the only label containing the text."""
        msg = next((m for m in self._newest_visible(user) if menu_options(m)), None)
        if msg is None:
            raise DriverError(f"no menu is visible to {user.name}")
        options = menu_options(msg)
        text = choice.strip()
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= len(options):
                raise DriverError(f"the newest menu {user.name} can see has options 1-{len(options)}, not {number}")
            return (msg, *options[number - 1])
        folded = text.casefold()
        numbered = list(enumerate(options, 1))
        exact = [(n, m, o) for n, (m, o) in numbered if folded in (o.get("label", "").casefold(), o.get("value"))]
        partial = [(n, m, o) for n, (m, o) in numbered if folded and folded in o.get("label", "").casefold()]
        found = exact or partial
        if len(found) == 1 or exact:
            return msg, found[0][1], found[0][2]
        if found:
            which = "; ".join(f"{n}. {o.get('label')}" for n, _, o in found)
            raise DriverError(f"{choice!r} matches several options: {which}; pick one by its number")
        listed = "; ".join(f"{n}. {o.get('label')}" for n, (_, o) in numbered)
        raise DriverError(f"the newest menu {user.name} can see has no option {choice!r}; options: {listed}")

    def _newest_visible(self, user: User) -> list[Message]:
        newest_first = sorted(self.world.messages.values(), key=lambda m: -m.id)
        return [m for m in newest_first if self.world.visible_to(m, user.id)]

    async def submit_modal(self, who: User | str, values: dict[str, str | list[str]]) -> list[Output]:
        """Fill in and submit the latest unsubmitted modal the bot showed this user (keys: custom_id or label)."""
        user = self.user(who)
        shown = [i for i in self.world.interactions.values() if i.user_id == user.id and i.modal]
        opener = next((i for i in reversed(shown) if not i.modal_submitted), None)
        if opener is None or opener.modal is None:
            raise DriverError(f"no open modal for {user.name}")
        components = [_fill_modal_component(c, values) for c in opener.modal.get("components", [])]
        unknown = set(values) - {k for c in opener.modal.get("components", []) for k in modal_keys(c)}
        if unknown:
            raise DriverError(f"modal {opener.modal.get('title')!r} has no field(s) {sorted(unknown)}")
        opener.modal_submitted = True
        ch = self.world.channels[opener.channel_id]
        inter = self.world.new_interaction(MODAL_SUBMIT, user, ch, message_id=opener.message_id)
        data = {"custom_id": opener.modal["custom_id"], "components": components}
        payload = self.interaction_payload(inter, user, ch, data)
        if opener.message_id is not None:
            payload["message"] = self.world.message_payload(self.world.messages[opener.message_id])
        return await self._run(inter, payload)

    # building blocks
    async def _run(self, inter: Interaction, payload: dict[str, Any]) -> list[Output]:
        self.last_interaction = inter
        start = len(self.world.outputs)
        await self.deliver(inter, payload)
        if not inter.responded and not inter.late_reported:
            inter.late_reported = True
            self.world.problem(f"interaction {inter.id} (type {inter.type}) got no response")
        return self.world.outputs[start:]

    def find_message(self, user: User, key: str) -> tuple[Message, dict[str, Any]]:
        """The most recent message visible to `user` with a component whose custom_id or label is `key`."""
        visible = self._newest_visible(user)
        for msg in visible:
            comp = _match_component(msg, key)
            if comp is not None:
                return msg, comp
        latest = next((m for m in visible if any(c.get("type") == 2 for c in iter_components(m.components))), None)
        if latest is None:
            raise DriverError(f"no visible message has a component {key!r}: {user.name} sees no buttons")
        labels = [str(c.get("label") or c.get("custom_id")) for c in iter_components(latest.components)
                  if c.get("type") == 2]
        close = difflib.get_close_matches(key.casefold(), [x.casefold() for x in labels], n=1, cutoff=0.6)
        hint = f" (did you mean {next(x for x in labels if x.casefold() == close[0])!r}?)" if close else ""
        raise DriverError(
            f"no visible message has a component {key!r}{hint}; the newest buttons {user.name} can see: "
            + " ".join(f"[{x}]" for x in labels)
        )

    def _resolve_message(self, user: User, message: Message | Output | int | None, key: str) -> tuple[Message, dict]:
        if message is None:
            return self.find_message(user, key)
        mid = (
            message.message_id
            if isinstance(message, Output)
            else message.id
            if isinstance(message, Message)
            else message
        )
        msg = self.world.messages.get(int(mid))
        if msg is None or not self.world.visible_to(msg, user.id):
            raise DriverError(f"message {mid} is not visible to {user.name}")
        comp = _match_component(msg, key)
        if comp is None:
            raise DriverError(f"message {mid} has no component {key!r} (has {[c for c, _ in msg.custom_ids()]})")
        return msg, comp

    async def _component(
        self, who: User | str, message: Message | Output | int | None, key: str, values: list[str] | None
    ) -> list[Output]:
        user = self.user(who)
        msg, comp = self._resolve_message(user, message, key)
        if comp.get("disabled"):
            raise DriverError(f"component {key!r} is disabled")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if comp["type"] == 2:
            if values is not None:
                raise DriverError(f"{key!r} is a button, not a select")
        else:
            data["values"] = self._select_values(comp, values or [])
        ch = self.world.channels[msg.channel_id]
        inter = self.world.new_interaction(COMPONENT, user, ch, message_id=msg.id)
        payload = self.interaction_payload(inter, user, ch, data)
        payload["message"] = self.world.message_payload(msg)
        return await self._run(inter, payload)

    @staticmethod
    def _select_values(comp: dict[str, Any], values: list[str]) -> list[str]:
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise DriverError(f"select {comp['custom_id']!r} takes {lo}..{hi} values, got {len(values)}")
        if comp["type"] == 3:
            allowed = {o["value"]: o for o in comp.get("options", [])}
            by_label = {o["label"].casefold(): o["value"] for o in comp.get("options", [])}
            out = []
            for v in values:
                v = v if v in allowed else by_label.get(v.casefold(), v)
                if v not in allowed:
                    raise DriverError(f"{v!r} is not an option of {comp['custom_id']!r}: {sorted(allowed)}")
                out.append(v)
            return out
        return values

    # payloads
    def interaction_payload(self, inter: Interaction, user: User, ch: Channel, data: dict[str, Any]) -> dict[str, Any]:
        world = self.world
        payload: dict[str, Any] = {
            "id": str(inter.id),
            "application_id": str(world.application_id),
            "type": inter.type,
            "data": data,
            "token": inter.token,
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(ch.id),
        }
        guild = world.guilds.get(ch.guild_id) if ch.guild_id else None
        if guild is not None:
            perms = world.member_permissions(guild, user.id)
            member = guild.members.get(user.id) or world.add_member(guild, user)
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.locale,
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                member={**world.member_payload(member), "permissions": str(perms)},
                app_permissions=str(world.member_permissions(guild, world.bot_user.id)),
                channel={**ch.payload(world), "permissions": str(perms)},
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.payload(),
                app_permissions=str((1 << 53) - 1 if ch.type == DM else 0),
                channel=ch.payload(world),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        inter.payload = payload
        return payload

    def command_data(
        self,
        user: User,
        ch: Channel,
        line: str,
        *,
        focused: tuple[str, str] | None = None,
    ) -> dict[str, Any]:
        """The `data` of an application-command interaction for a typed line; DriverError if Discord would refuse it."""
        tokens = split_line(line.strip())
        if not tokens or not tokens[0].text.startswith("/") or len(tokens[0].text) < 2:
            raise DriverError(f"a command line starts with /name, got {line.strip()!r}")
        name = tokens[0].text[1:]
        commands = [c for c in self.world.commands_for(ch.guild_id) if c.get("type", 1) == 1]
        if ch.type == DM:
            commands = [c for c in commands if "guild_id" not in c and 1 in (c.get("contexts") or [0, 1])]
        cmd = _find(commands, name, user.locale)
        if cmd is None:
            shown = sorted({f"/{n}" for c in commands for n in _names(c, user.locale)})
            raise DriverError(f"unknown command /{name}{_did_you_mean(name, commands, user.locale, '/')}; "
                              f"commands: {', '.join(shown) or 'none synced'}")
        resolved: dict[str, dict[str, Any]] = {}
        options = self._parse_level(cmd, tokens[1:], user, ch, resolved, focused, f"/{_shown(cmd, user.locale)}")
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if options:
            data["options"] = options
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        return data

    def _parse_level(
        self,
        node: dict[str, Any],
        tokens: list[Token],
        user: User,
        ch: Channel,
        resolved: dict[str, dict[str, Any]],
        focused: tuple[str, str] | None,
        where: str,
    ) -> list[dict[str, Any]]:
        locale = user.locale
        opts = node.get("options") or []
        subs = [o for o in opts if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if subs:
            listed = ", ".join(_shown(s, locale) for s in subs)
            if not tokens or tokens[0].colon >= 0:
                raise DriverError(f"{where} needs a subcommand: {listed}")
            sub = _find(subs, tokens[0].text, locale)
            if sub is None:
                hint = _did_you_mean(tokens[0].text, subs, locale)
                raise DriverError(f"unknown subcommand {tokens[0].text!r} of {where}{hint}; subcommands: {listed}")
            inner = self._parse_level(sub, tokens[1:], user, ch, resolved, focused, f"{where} {_shown(sub, locale)}")
            entry: dict[str, Any] = {"name": sub["name"], "type": sub["type"]}
            if inner or sub["type"] == SUB_COMMAND:
                entry["options"] = inner
            return [entry]
        given = self._option_values(opts, tokens, locale, where)
        out: list[dict[str, Any]] = []
        fopt: dict[str, Any] | None = None
        if focused is not None:
            fopt = _find(opts, focused[0], locale)
            if fopt is None:
                raise DriverError(f"unknown option {focused[0]!r} for {where}; {_option_list(opts, locale)}")
            given.pop(fopt["name"], None)
        for opt in opts:
            if fopt is not None and opt is fopt and focused is not None:
                out.append({"name": opt["name"], "type": opt["type"], "value": focused[1], "focused": True})
            elif opt["name"] in given:
                value = self._convert(opt, given[opt["name"]], user, ch, resolved, where)
                out.append({"name": opt["name"], "type": opt["type"], "value": value})
            elif opt.get("required") and focused is None:
                raise DriverError(f"missing required option {_shown(opt, locale)!r} for {where}; "
                                  f"write it as {where} {_shown(opt, locale)}:...")
        return out

    @staticmethod
    def _option_values(opts: list[dict[str, Any]], tokens: list[Token], locale: str, where: str) -> dict[str, str]:
        """name:value words to {option name: value}. A word without a colon continues the value before it, as
        typing a space in Discord's option box does; `name: value` (a space after the colon) works too."""
        given: dict[str, str] = {}
        last: str | None = None
        fresh = False  # the last option was written `name:` with its value still to come
        for tok in tokens:
            if tok.colon < 0:
                if last is None:
                    raise DriverError(f"unexpected argument {tok.text!r} for {where}: write options as name:value; "
                                      f"{_option_list(opts, locale)}")
                given[last] = tok.text if fresh else f"{given[last]} {tok.text}"
                fresh = False
                continue
            key, value = tok.text[: tok.colon], tok.text[tok.colon + 1:]
            opt = _find(opts, key, locale)
            if opt is None:
                hint = _did_you_mean(key, opts, locale)
                quote = " (put a value that has spaces or colons in quotes)" if last is not None else ""
                raise DriverError(f"unknown option {key!r} for {where}{hint}; {_option_list(opts, locale)}{quote}")
            if opt["name"] in given:
                raise DriverError(f"option {key!r} is given twice in {where}")
            given[opt["name"]] = value
            last, fresh = opt["name"], value == ""
        return given

    def _convert(
        self, opt: dict[str, Any], raw: str, user: User, ch: Channel, resolved: dict[str, dict[str, Any]], where: str
    ) -> Any:
        kind, name = opt["type"], f"{where} {opt['name']}"
        choices = opt.get("choices") or []
        if choices:
            for c in choices:
                if raw == str(c["value"]) or raw in _names(c, user.locale):
                    return c["value"]
            raise DriverError(f"{raw!r} is not a choice of {name}: {[c['name'] for c in choices]}")
        if kind == STRING:
            if not opt.get("min_length", 0) <= len(raw) <= opt.get("max_length", 6000):
                raise DriverError(f"{name}: length must be {opt.get('min_length', 0)}..{opt.get('max_length', 6000)}")
            return raw
        if kind in (INTEGER, NUMBER):
            try:
                value: Any = int(raw) if kind == INTEGER else float(raw)
            except ValueError as exc:
                wanted = "an integer" if kind == INTEGER else "a number"
                raise DriverError(f"{name} expects {wanted}, got {raw!r}") from exc
            if ("min_value" in opt and value < opt["min_value"]) or ("max_value" in opt and value > opt["max_value"]):
                raise DriverError(f"{name}: {value} is outside {opt.get('min_value')}..{opt.get('max_value')}")
            return value
        if kind == BOOLEAN:
            if raw.casefold() in _TRUE | _FALSE:
                return raw.casefold() in _TRUE
            raise DriverError(f"{name} expects true/false, got {raw!r}")
        if kind in (USER, MENTIONABLE) and (kind == USER or self._lookup_user(raw)):
            return self._resolve_user(raw, ch, resolved, name)
        if kind in (ROLE, MENTIONABLE):
            return self._resolve_role(raw, ch, resolved, name)
        if kind == CHANNEL:
            return self._resolve_channel(raw, resolved, opt, name)
        if kind == ATTACHMENT:
            return self._upload(raw, resolved, name)
        raise DriverError(f"{name}: unsupported option type {kind}")

    def _lookup_user(self, raw: str) -> User | None:
        ident = re.fullmatch(r"<@!?(\d+)>|(\d+)", raw)
        if ident:
            return self.world.users.get(int(ident.group(1) or ident.group(2)))
        return self.world.user_named(raw.lstrip("@"))

    def _resolve_user(self, raw: str, ch: Channel, resolved: dict[str, dict[str, Any]], name: str) -> str:
        target = self._lookup_user(raw)
        if target is None:
            target = self.user(raw.lstrip("@"))
        resolved.setdefault("users", {})[str(target.id)] = target.payload()
        guild = self.world.guilds.get(ch.guild_id or 0)
        if guild is not None and target.id in guild.members:
            member = self.world.member_payload(guild.members[target.id], with_user=False)
            member["permissions"] = str(self.world.member_permissions(guild, target.id))
            resolved.setdefault("members", {})[str(target.id)] = member
        return str(target.id)

    def _resolve_role(self, raw: str, ch: Channel, resolved: dict[str, dict[str, Any]], name: str) -> str:
        guild = self.world.guilds.get(ch.guild_id or 0)
        roles = guild.roles.values() if guild else []
        role = next((r for r in roles if raw.lstrip("@") in (r.name, str(r.id))), None)
        if role is None:
            raise DriverError(f"{name}: unknown role {raw!r}")
        resolved.setdefault("roles", {})[str(role.id)] = role.payload()
        return str(role.id)

    def _resolve_channel(self, raw: str, resolved: dict[str, dict[str, Any]], opt: dict[str, Any], name: str) -> str:
        ident = re.fullmatch(r"<#(\d+)>|(\d+)", raw)
        if ident:
            target = self.world.channels.get(int(ident.group(1) or ident.group(2)))
        else:
            target = next((c for c in self.world.channels.values() if c.name == raw.lstrip("#")), None)
        if target is None:
            raise DriverError(f"{name}: unknown channel {raw!r}")
        if opt.get("channel_types") and target.type not in opt["channel_types"]:
            raise DriverError(f"{name}: channel {raw!r} has a type not in {opt['channel_types']}")
        data = target.payload(self.world)
        resolved.setdefault("channels", {})[str(target.id)] = {**data, "permissions": str((1 << 53) - 1)}
        return str(target.id)

    def _upload(self, raw: str, resolved: dict[str, dict[str, Any]], name: str) -> str:
        path = Path(raw).expanduser()
        if not path.is_file():
            raise DriverError(f"{name}: attachment file {raw!r} not found")
        att = Attachment(self.world.snowflake(), path.name, path.read_bytes(), mimetypes.guess_type(path.name)[0])
        self.world.attachments[att.id] = att
        resolved.setdefault("attachments", {})[str(att.id)] = att.payload(self.world)
        return str(att.id)

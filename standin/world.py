"""In-memory model of the fake Discord: users, guilds, channels, messages, commands, interactions, outputs."""

from __future__ import annotations

import datetime as dt
import itertools
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

log = logging.getLogger("standin")

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
ERROR_MARK = "\u26a0\ufe0f"
ERROR_COLOUR = 0xD55E00

# Channel types (subset of Discord's enum).
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

# Permission bits used by the stand-in's defaults.
PERM = {
    "create_instant_invite": 1 << 0,
    "kick_members": 1 << 1,
    "ban_members": 1 << 2,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "add_reactions": 1 << 6,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "manage_roles": 1 << 28,
    "use_application_commands": 1 << 31,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
}
EVERYONE_PERMS = sum(
    PERM[p]
    for p in (
        "view_channel",
        "send_messages",
        "add_reactions",
        "embed_links",
        "attach_files",
        "read_message_history",
        "use_external_emojis",
        "use_application_commands",
        "create_public_threads",
        "send_messages_in_threads",
    )
)


def permissions_value(perms: int | list[str] | tuple[str, ...] | None) -> int:
    """Turn a permission bit value or a list of permission names into a bit value."""
    if perms is None:
        return 0
    if isinstance(perms, int):
        return perms
    return sum(PERM[p] for p in perms)


def iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat()


class ApiError(Exception):
    """A Discord REST error answer: HTTP status, JSON error code, message and the optional field errors."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        body.update(self.extra)
        return body


def form_error(problems: list[tuple[str, str, str]]) -> ApiError:
    """Build Discord's 50035 Invalid Form Body from (dotted field path, error code, message) triples."""
    errors: dict[str, Any] = {}
    for path, code, message in problems:
        node = errors
        for part in path.split(".") if path not in ("", "_") else []:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return ApiError(400, 50035, "Invalid Form Body", errors)


class FakeClock:
    """A manually advanced clock usable as World.clock."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class User:
    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False
    dms_open: bool = True

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Member:
    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    joined_at: float = 0.0


@dataclass
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    recipient_id: int | None = None
    owner_id: int | None = None
    position: int = 0

    def payload(self, world: World) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "flags": 0}
        if self.type == DM:
            rec = world.users[self.recipient_id] if self.recipient_id else None
            data["recipients"] = [rec.payload()] if rec else []
            data["last_message_id"] = None
            return data
        data.update(
            name=self.name,
            guild_id=str(self.guild_id),
            position=self.position,
            permission_overwrites=[],
            nsfw=False,
            topic=None,
            last_message_id=None,
            rate_limit_per_user=0,
            parent_id=str(self.parent_id) if self.parent_id else None,
        )
        if self.type in (PUBLIC_THREAD, PRIVATE_THREAD):
            data.update(
                owner_id=str(self.owner_id or world.bot_user.id),
                member_count=1,
                message_count=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso(world.wall()),
                    "locked": False,
                },
            )
        return data


@dataclass
class Guild:
    id: int
    name: str
    locale: str = "en-US"
    owner_id: int = 0
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    def payload(self, world: World) -> dict[str, Any]:
        url = f"{world.cdn_base}/attachments/{self.id}/{self.filename}"
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        return data


@dataclass
class Message:
    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    interaction_id: int | None = None
    webhook_id: int | None = None
    recipient_id: int | None = None  # who may see it when ephemeral
    #: Who the message notified when it was posted, by Discord's rules over its allowed_mentions (see `pings_of`).
    pings: tuple[str, ...] = ()
    created_at: float = 0.0
    edited_at: float | None = None
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def custom_ids(self) -> list[tuple[str, str | None]]:
        return [(c.get("custom_id", ""), _label(c)) for c in iter_components(self.components) if c.get("custom_id")]

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in iter_components(self.components) if c.get("custom_id") == custom_id), None)


@dataclass
class Interaction:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    created_at: float
    payload: dict[str, Any] = field(default_factory=dict)
    message_id: int | None = None  # the message a component belongs to
    response_type: int | None = None
    responded_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    autocomplete_choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    modal_submitted: bool = False
    late_reported: bool = False

    @property
    def responded(self) -> bool:
        return self.response_type is not None


OutputKind = Literal["channel", "ephemeral", "dm", "edit"]


@dataclass
class Output:
    """One thing the bot showed to users."""

    kind: OutputKind
    channel_id: int
    recipient_id: int | None
    content: str
    embeds: list[dict[str, Any]]
    components: list[tuple[str, str | None]]
    attachments: list[tuple[str, bytes]]
    message_id: int
    interaction_id: int | None = None
    #: Mentions that notified someone: "<@id>" for a user, "<@&id>" for a role, "@everyone", "@here" (an edit
    #: notifies nobody, so an edit's pings are always empty).
    pings: tuple[str, ...] = ()

    def text(self) -> str:
        """Content plus embed text plus component labels, for printing or substring assertions."""
        parts = [self.body()] if self.content or self.embeds else []
        parts.extend(f"[{label or cid}]" for cid, label in self.components)
        return "\n".join(p for p in parts if p)

    def body(self) -> str:
        """Content plus embed text, without the components."""
        parts = [self.content] if self.content else []
        for e in self.embeds:
            parts.extend(_embed_text(e))
        return "\n".join(parts)


def is_error_output(output: Output) -> bool:
    """True when the bot marked this output as an error reply (⚠️ prefix or the error embed colour)."""
    if output.content.lstrip().startswith(ERROR_MARK):
        return True
    return any(e.get("color") == ERROR_COLOUR for e in output.embeds)


def _embed_text(e: dict[str, Any]) -> list[str]:
    out = [str(e[k]) for k in ("title", "description") if e.get(k)]
    for f in e.get("fields", []):
        out.append(f"{f.get('name', '')}: {f.get('value', '')}")
    if (e.get("footer") or {}).get("text"):
        out.append(e["footer"]["text"])
    return out


def _label(c: dict[str, Any]) -> str | None:
    return c.get("label") or c.get("placeholder")


_MENTION = re.compile(r"<@(!|&)?(\d+)>|@(everyone|here)")


def pings_of(content: str, allowed: dict[str, Any] | None) -> tuple[str, ...]:
    """Who a new message notifies, by Discord's rules: with no `allowed_mentions` every user, role and
    @everyone/@here written in it; with one, only the kinds in its `parse` list and the ids in `users`/`roles`."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse") or ())
    users = {str(u) for u in (allowed or {}).get("users") or ()}
    roles = {str(r) for r in (allowed or {}).get("roles") or ()}
    found: list[str] = []
    for m in _MENTION.finditer(content or ""):
        bang, number, everyone = m.groups()
        if everyone:
            token, ok = f"@{everyone}", "everyone" in parse
        elif bang == "&":
            token, ok = f"<@&{number}>", "roles" in parse or number in roles
        else:
            token, ok = f"<@{number}>", "users" in parse or number in users
        if ok and token not in found:
            found.append(token)
    return tuple(found)


def iter_components(components: list[dict[str, Any]]) -> Any:
    """Depth-first walk of a component tree (action rows, containers, sections, accessories)."""
    for c in components:
        yield c
        yield from iter_components(c.get("components", []))
        if isinstance(c.get("accessory"), dict):
            yield from iter_components([c["accessory"]])


class World:
    """The whole fake Discord state plus the error-emulation switches."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        interaction_deadline: float = 3.0,
        token: str = "standin-token",
        bot_name: str = "StandinBot",
    ) -> None:
        self.clock = clock
        self.interaction_deadline = interaction_deadline
        self.token_lifetime = 15 * 60.0
        self.token = token
        self._seq = itertools.count(1)
        self._wall_start = time.time()
        self._clock_start = clock()
        self.cdn_base = "https://cdn.standin.invalid"
        self.gateway_url = "ws://127.0.0.1:0/gateway"
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.outputs: list[Output] = []
        self.problems: list[str] = []
        self.presence: dict[str, Any] | None = None
        self.request_log: list[tuple[str, str, int]] = []
        self.rate_limits: dict[str, list[float]] = {}
        #: What the next attachment downloads get instead of the file: an HTTP status, or "hang" (no answer).
        self.download_failures: list[int | str] = []
        self.listeners: list[Callable[[Output], None]] = []
        self.event_sinks: list[Callable[[str, dict[str, Any]], None]] = []
        self.bot_user = self.add_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = self.add_user("owner")

    # ids and time
    def snowflake(self) -> int:
        ms = int(self.wall() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._seq) & 0x3FFFFF)

    def wall(self) -> float:
        """Wall-clock seconds that follow the (possibly fake) clock, for timestamps and snowflakes."""
        return self._wall_start + (self.clock() - self._clock_start)

    # construction
    def add_user(self, name: str, *, locale: str = "en-US", bot: bool = False, dms_open: bool = True) -> User:
        user = User(self.snowflake(), name, locale, bot, dms_open)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, locale: str = "en-US") -> Guild:
        guild = Guild(self.snowflake(), name, locale, owner_id=self.owner.id)
        guild.roles[guild.id] = Role(guild.id, "@everyone", EVERYONE_PERMS)
        self.guilds[guild.id] = guild
        self.add_member(guild, self.bot_user)
        self.add_member(guild, self.owner)
        return guild

    def add_member(self, guild: Guild, user: User, *, permissions: int | list[str] | None = None) -> Member:
        member = guild.members.get(user.id) or Member(user, guild.id, joined_at=self.wall())
        extra = permissions_value(permissions)
        if extra:
            role = next((r for r in guild.roles.values() if r.id != guild.id and r.permissions == extra), None)
            if role is None:
                role = Role(self.snowflake(), f"perms-{extra}", extra, position=len(guild.roles))
                guild.roles[role.id] = role
                self.emit("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()})
            if role.id not in member.role_ids:
                member.role_ids.append(role.id)
        known = user.id in guild.members
        guild.members[user.id] = member
        payload = {**self.member_payload(member), "guild_id": str(guild.id)}
        self.emit("GUILD_MEMBER_UPDATE" if known else "GUILD_MEMBER_ADD", payload)
        return member

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        ch = Channel(self.snowflake(), GUILD_TEXT, name, guild.id, position=len(guild.channel_ids))
        self.channels[ch.id] = ch
        guild.channel_ids.append(ch.id)
        return ch

    def add_thread(self, parent: Channel, name: str, *, private: bool = False, owner_id: int | None = None) -> Channel:
        kind = PRIVATE_THREAD if private else PUBLIC_THREAD
        ch = Channel(self.snowflake(), kind, name, parent.guild_id, parent.id, owner_id=owner_id)
        self.channels[ch.id] = ch
        if parent.guild_id is not None:
            self.guilds[parent.guild_id].channel_ids.append(ch.id)
        return ch

    def dm_channel(self, user: User) -> Channel:
        for ch in self.channels.values():
            if ch.type == DM and ch.recipient_id == user.id:
                return ch
        ch = Channel(self.snowflake(), DM, recipient_id=user.id)
        self.channels[ch.id] = ch
        return ch

    def user_named(self, name: str) -> User | None:
        return next((u for u in self.users.values() if u.name == name), None)

    # permissions
    def member_permissions(self, guild: Guild, user_id: int) -> int:
        if user_id == guild.owner_id:
            return (1 << 53) - 1
        member = guild.members.get(user_id)
        perms = guild.roles[guild.id].permissions
        for rid in member.role_ids if member else []:
            perms |= guild.roles[rid].permissions
        if perms & PERM["administrator"]:
            return (1 << 53) - 1
        return perms

    # payloads
    def member_payload(self, member: Member, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in member.role_ids],
            "joined_at": iso(member.joined_at),
            "nick": None,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
        }
        if with_user:
            data["user"] = member.user.payload()
        return data

    def guild_payload(self, guild: Guild) -> dict[str, Any]:
        channels = [self.channels[c] for c in guild.channel_ids]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner_id),
            "preferred_locale": guild.locale,
            "features": [],
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "members": [self.member_payload(m) for m in guild.members.values()],
            "member_count": len(guild.members),
            "channels": [c.payload(self) for c in channels if c.type == GUILD_TEXT],
            "threads": [c.payload(self) for c in channels if c.type in (PUBLIC_THREAD, PRIVATE_THREAD)],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "joined_at": iso(self.wall()),
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "system_channel_flags": 0,
            "afk_timeout": 300,
            "max_members": 500000,
        }

    def message_payload(self, msg: Message) -> dict[str, Any]:
        channel = self.channels.get(msg.channel_id)
        data: dict[str, Any] = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "author": self.users[msg.author_id].payload(),
            "content": msg.content,
            "timestamp": iso(msg.created_at),
            "edited_timestamp": iso(msg.edited_at) if msg.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(self) for a in msg.attachments],
            "embeds": msg.embeds,
            "components": msg.components,
            "pinned": False,
            "type": msg.type,
            "flags": msg.flags,
        }
        if channel and channel.guild_id:
            data["guild_id"] = str(channel.guild_id)
        if msg.webhook_id:
            data["webhook_id"] = str(msg.webhook_id)
            data["application_id"] = str(self.application_id)
        inter = self.interactions.get(msg.interaction_id or 0)
        if inter is not None:
            data["interaction_metadata"] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": self.users[inter.user_id].payload(),
                "authorizing_integration_owners": {},
            }
        return data

    def guilds_for_shard(self, shard_id: int, shard_count: int) -> list[Guild]:
        return [g for g in self.guilds.values() if (g.id >> 22) % max(shard_count, 1) == shard_id]

    def ready_payload(self, shard_id: int, shard_count: int, session_id: str) -> dict[str, Any]:
        guilds = self.guilds_for_shard(shard_id, shard_count)
        return {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": [shard_id, shard_count],
            "application": {"id": str(self.application_id), "flags": self.application_payload()["flags"]},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth": {},
            "user_settings": {},
            "_trace": ["standin"],
        }

    def application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": (1 << 19) | (1 << 15),
            "bot": self.bot_user.payload(),
            "rpc_origins": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
        }

    # messages and outputs
    def visible_kind(self, msg: Message) -> tuple[OutputKind, int | None]:
        if msg.ephemeral:
            return "ephemeral", msg.recipient_id
        channel = self.channels.get(msg.channel_id)
        if channel is not None and channel.type == DM:
            return "dm", channel.recipient_id
        return "channel", None

    def record_output(self, msg: Message, *, edit: bool = False) -> Output:
        kind, recipient = self.visible_kind(msg)
        out = Output(
            kind="edit" if edit else kind,
            channel_id=msg.channel_id,
            recipient_id=recipient,
            content=msg.content,
            embeds=msg.embeds,
            components=msg.custom_ids(),
            attachments=[(a.filename, a.data) for a in msg.attachments],
            message_id=msg.id,
            interaction_id=msg.interaction_id,
            pings=() if edit else msg.pings,
        )
        self.outputs.append(out)
        for listener in self.listeners:
            listener(out)
        return out

    def add_message(self, msg: Message) -> Message:
        msg.created_at = self.wall()
        self.messages[msg.id] = msg
        for a in msg.attachments:
            self.attachments[a.id] = a
        return msg

    def visible_to(self, msg: Message, user_id: int) -> bool:
        if msg.deleted:
            return False
        if msg.ephemeral:
            return msg.recipient_id == user_id
        channel = self.channels.get(msg.channel_id)
        return channel is None or channel.type != DM or channel.recipient_id == user_id

    # interactions
    def new_interaction(
        self,
        kind: int,
        user: User,
        channel: Channel,
        *,
        message_id: int | None = None,
    ) -> Interaction:
        inter = Interaction(
            id=self.snowflake(),
            token=f"itoken-{next(self._seq)}-standin",
            type=kind,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            created_at=self.clock(),
            message_id=message_id,
        )
        self.interactions[inter.id] = inter
        self.interactions_by_token[inter.token] = inter
        return inter

    def check_deadlines(self) -> list[Interaction]:
        """Report (once) every interaction still unanswered after the deadline."""
        late = []
        now = self.clock()
        for inter in self.interactions.values():
            if inter.responded or inter.late_reported or inter.type == 1:
                continue
            if now - inter.created_at > self.interaction_deadline:
                inter.late_reported = True
                late.append(inter)
                self.problem(f"interaction {inter.id} (type {inter.type}) got no response within the deadline")
        return late

    # error emulation switches
    def close_dms(self, user: User, closed: bool = True) -> None:
        user.dms_open = not closed

    def rate_limit(self, route: str, times: int = 1, retry_after: float = 0.05) -> None:
        """Answer the next `times` requests to `route` ('POST /channels/{channel_id}/messages' or a path)."""
        self.rate_limits.setdefault(route, []).extend([retry_after] * times)

    def fail_downloads(self, answer: int | str = 404, times: int = 1) -> None:
        """Answer the next `times` attachment downloads with HTTP status `answer` (404: the file is gone), or
        never ("hang", a timeout)."""
        self.download_failures.extend([answer] * times)

    def take_rate_limit(self, keys: list[str]) -> float | None:
        for key in keys:
            pending = self.rate_limits.get(key)
            if pending:
                return pending.pop(0)
        return None

    def emit(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway dispatch to every connected bot (server sessions or the in-process feeder)."""
        for sink in self.event_sinks:
            sink(event, data)

    def problem(self, text: str) -> None:
        log.error("stand-in problem: %s", text)
        self.problems.append(text)

    # convenience for tests
    def outputs_since(self, index: int) -> list[Output]:
        return self.outputs[index:]

    def commands_for(self, guild_id: int | None) -> list[dict[str, Any]]:
        cmds = list(self.global_commands)
        if guild_id is not None:
            cmds = self.guild_commands.get(guild_id, []) + cmds
        return cmds


class ErrorLogCatcher(logging.Handler):
    """Turns ERROR records from discord.py or the app (any logger but the stand-in's) into world problems."""

    def __init__(self, world: World) -> None:
        super().__init__(logging.ERROR)
        self.world = world

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("standin"):
            return
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f": {record.exc_info[1]!r}"
        self.world.problem(f"bot logged an error ({record.name}): {text}")


def default_world(**kwargs: Any) -> tuple[World, Guild, Channel]:
    """A world with one guild 'Standin' and its text channel #mesa."""
    world = World(**kwargs)
    guild = world.add_guild("Standin")
    channel = world.add_text_channel(guild, "mesa")
    return world, guild, channel

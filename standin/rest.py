"""Discord REST API handlers as plain functions over a World: (method, path, body) -> (status, json, headers)."""

from __future__ import annotations

import json
import logging
import math
import mimetypes
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from standin import validate
from standin.world import (
    DM,
    EPHEMERAL,
    LOADING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    ApiError,
    Attachment,
    Interaction,
    Message,
    World,
    form_error,
    pings_of,
)

log = logging.getLogger("standin.rest")


@dataclass
class UploadedFile:
    field: str
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class Request:
    method: str
    path: str  # relative to /api/v10, e.g. /users/@me
    query: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    json: Any = None
    files: list[UploadedFile] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)


@dataclass
class Response:
    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[World, Request], Any]
_ROUTES: list[tuple[str, str, re.Pattern[str], Handler, bool]] = []


def route(method: str, template: str, *, auth: bool = True) -> Callable[[Handler], Handler]:
    pattern = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$")

    def deco(fn: Handler) -> Handler:
        _ROUTES.append((method, template, pattern, fn, auth))
        return fn

    return deco


def parse_body(body: bytes, content_type: str | None) -> tuple[Any, list[UploadedFile]]:
    """Decode a JSON or multipart/form-data (payload_json + files[n]) request body."""
    if not body:
        return None, []
    ctype = (content_type or "").lower()
    if ctype.startswith("multipart/form-data"):
        match = re.search(r'boundary="?([^";]+)"?', content_type or "")
        if not match:
            raise ApiError(400, 50035, "Invalid Form Body: missing multipart boundary")
        payload: Any = None
        files: list[UploadedFile] = []
        for headers, data in _split_multipart(body, match.group(1).encode()):
            disp = headers.get("content-disposition", "")
            name = _disp_param(disp, "name") or ""
            filename = _disp_param(disp, "filename")
            if name == "payload_json":
                payload = json.loads(data.decode())
            elif filename is not None:
                files.append(UploadedFile(name, filename, data, headers.get("content-type")))
        return payload, files
    try:
        return json.loads(body.decode()), []
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc


def _disp_param(disp: str, key: str) -> str | None:
    match = re.search(rf'(?:^|;)\s*{key}="((?:[^"\\]|\\.)*)"', disp) or re.search(rf"(?:^|;)\s*{key}=([^;]+)", disp)
    return match.group(1) if match else None


def _split_multipart(body: bytes, boundary: bytes) -> list[tuple[dict[str, str], bytes]]:
    parts = []
    for chunk in body.split(b"--" + boundary)[1:]:
        if chunk.startswith(b"--"):
            break
        chunk = chunk.removeprefix(b"\r\n")
        head, _, data = chunk.partition(b"\r\n\r\n")
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            if key:
                headers[key.strip().lower()] = value.strip()
        parts.append((headers, data.removesuffix(b"\r\n")))
    return parts


def handle(
    world: World,
    method: str,
    path: str,
    *,
    query: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    body: bytes = b"",
    content_type: str | None = None,
) -> Response:
    """Serve one REST call. `path` may still carry the /api/v10 prefix."""
    path = re.sub(r"^/api(/v\d+)?", "", path) or "/"
    req = Request(method.upper(), path, dict(query or {}), {k.lower(): v for k, v in (headers or {}).items()})
    resp = _dispatch(world, req, body, content_type)
    world.request_log.append((req.method, req.path, resp.status))
    return resp


def _dispatch(world: World, req: Request, body: bytes, content_type: str | None) -> Response:
    for method, template, pattern, fn, auth in _ROUTES:
        match = pattern.match(req.path)
        if method != req.method or not match:
            continue
        retry_after = world.take_rate_limit([f"{method} {template}", f"{method} {req.path}"])
        if retry_after is not None:
            return rate_limited(retry_after, template)
        if auth and req.headers.get("authorization") != f"Bot {world.token}":
            return Response(401, {"message": "401: Unauthorized", "code": 0})
        req.params = match.groupdict()
        try:
            req.json, req.files = parse_body(body, content_type)
            result = fn(world, req)
        except ApiError as err:
            return Response(err.status, err.body(), err.headers)
        except Exception as exc:
            # A 500 would make discord.py retry with long sleeps; fail fast and loudly instead.
            log.exception("stand-in handler for %s %s crashed", req.method, req.path)
            world.problem(f"stand-in could not handle {req.method} {req.path}: {exc!r}")
            return Response(400, {"message": f"stand-in error: {exc!r}", "code": 0})
        if not isinstance(result, Response):
            result = Response(204) if result is None else Response(200, result)
        if result.status < 400:
            result.headers = {**granted(template), **result.headers}
        return result
    world.problem(f"unknown route {req.method} {req.path}")
    return Response(204)


def granted(bucket: str) -> dict[str, str]:
    """The rate-limit headers Discord puts on every answer: this stand-in limits nothing unless a test asks
    (`World.rate_limit`), so each bucket always has room. Without them discord.py takes every route for an
    unknown one-request bucket and sleeps once after each request, which Discord never makes it do."""
    return {
        "X-RateLimit-Limit": "50",
        "X-RateLimit-Remaining": "49",
        "X-RateLimit-Reset-After": "1.000",
        "X-RateLimit-Bucket": _bucket_id(bucket),
    }


def _bucket_id(bucket: str) -> str:
    return f"standin-{abs(hash(bucket)) % 10**8:08d}"


def rate_limited(retry_after: float, bucket: str) -> Response:
    headers = {
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": _bucket_id(bucket),
        "X-RateLimit-Scope": "user",
        "Via": "1.1 google",
    }
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False, "code": 0}
    return Response(429, body, headers)


# lookups


def _channel(world: World, channel_id: str) -> Any:
    ch = world.channels.get(int(channel_id))
    if ch is None:
        raise ApiError(404, 10003, "Unknown Channel")
    return ch


def _message(world: World, message_id: str | int, channel_id: int | None = None) -> Message:
    msg = world.messages.get(int(message_id))
    if msg is None or msg.deleted or (channel_id is not None and msg.channel_id != channel_id):
        raise ApiError(404, 10008, "Unknown Message")
    return msg


def _webhook_interaction(world: World, app_id: str, token: str) -> Interaction:
    inter = world.interactions_by_token.get(token)
    if inter is None or str(world.application_id) != app_id:
        raise ApiError(404, 10015, "Unknown Webhook")
    if world.clock() - inter.created_at > world.token_lifetime:
        raise ApiError(401, 50027, "Invalid Webhook Token")
    if not inter.responded:
        raise ApiError(404, 10015, "Unknown Webhook")
    return inter


# message bodies


def _attachments(world: World, req: Request, payload: dict[str, Any], existing: list[Attachment]) -> list[Attachment]:
    by_index: dict[int, UploadedFile] = {}
    for f in req.files:
        match = re.search(r"(\d+)", f.field)
        by_index[int(match.group(1)) if match else len(by_index)] = f
    declared = payload.get("attachments")
    if declared is None:
        keep = list(existing)
        declared = [{"id": i} for i in by_index]
    else:
        keep = []
    result = keep
    known = {a.id: a for a in existing}
    for entry in declared:
        ident = int(entry.get("id", -1))
        if ident in by_index:
            f = by_index[ident]
            name = entry.get("filename") or f.filename
            ctype = f.content_type if f.content_type not in (None, "application/octet-stream") else None
            ctype = ctype or mimetypes.guess_type(name)[0]
            result.append(Attachment(world.snowflake(), name, f.data, ctype, entry.get("description")))
        elif ident in known:
            result.append(known[ident])
        else:
            raise form_error([("attachments", "ATTACHMENT_NOT_FOUND", f"Unknown attachment id {ident}")])
    return result


def _check_body(payload: dict[str, Any], n_files: int, *, partial: bool) -> None:
    problems = validate.validate_message(payload, n_files, partial=partial)
    if problems:
        raise form_error(problems)
    if not partial and validate.is_empty_message(payload, n_files):
        raise ApiError(400, 50006, "Cannot send an empty message")


def new_message(
    world: World,
    req: Request,
    channel_id: int,
    payload: dict[str, Any],
    *,
    flags: int = 0,
    inter: Interaction | None = None,
    record: bool = True,
) -> Message:
    attachments = _attachments(world, req, payload, [])
    _check_body(payload, len(attachments), partial=False)
    msg = Message(
        id=world.snowflake(),
        channel_id=channel_id,
        author_id=world.bot_user.id,
        content=payload.get("content") or "",
        embeds=payload.get("embeds") or [],
        components=payload.get("components") or [],
        attachments=attachments,
        flags=flags | (int(payload.get("flags") or 0) & ~(LOADING | EPHEMERAL)),
        type=0 if inter is None or inter.type != 2 else 20,
        interaction_id=inter.id if inter else None,
        webhook_id=world.application_id if inter else None,
        recipient_id=inter.user_id if inter else None,
    )
    if not msg.ephemeral:
        msg.pings = pings_of(msg.content, payload.get("allowed_mentions"))
    world.add_message(msg)
    if record:
        world.record_output(msg)
    return msg


def edit_message(
    world: World, req: Request, msg: Message, payload: dict[str, Any], *, filling: bool = False
) -> Message:
    """Apply a PATCH body; `filling` means a deferred placeholder gets its first real content."""
    attachments = _attachments(world, req, payload, msg.attachments)
    merged = {
        "content": payload.get("content", msg.content),
        "embeds": payload.get("embeds", msg.embeds),
        "components": payload.get("components", msg.components),
        "flags": msg.flags & ~LOADING,
    }
    _check_body(merged, len(attachments), partial=True)
    msg.content = merged["content"] or ""
    msg.embeds = merged["embeds"] or []
    msg.components = merged["components"] or []
    msg.attachments = attachments
    for a in attachments:
        world.attachments[a.id] = a
    was_loading = bool(msg.flags & LOADING)
    msg.flags &= ~LOADING
    if (filling or was_loading) and not msg.ephemeral:  # a deferred reply's first content notifies like a post
        msg.pings = pings_of(msg.content, payload.get("allowed_mentions"))
    if not (filling or was_loading):
        msg.edited_at = world.wall()
    world.record_output(msg, edit=not (filling or was_loading))
    return msg


# identity and gateway


@route("GET", "/users/@me")
def get_me(world: World, req: Request) -> Any:
    return world.bot_user.payload()


@route("GET", "/users/{user_id}")
def get_user(world: World, req: Request) -> Any:
    user = world.users.get(int(req.params["user_id"]))
    if user is None:
        raise ApiError(404, 10013, "Unknown User")
    return user.payload()


@route("GET", "/gateway")
def get_gateway(world: World, req: Request) -> Any:
    return {"url": world.gateway_url}


@route("GET", "/gateway/bot")
def get_gateway_bot(world: World, req: Request) -> Any:
    limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
    return {"url": world.gateway_url, "shards": 1, "session_start_limit": limit}


@route("GET", "/applications/@me")
def get_application(world: World, req: Request) -> Any:
    return world.application_payload()


@route("GET", "/oauth2/applications/@me")
def get_oauth_application(world: World, req: Request) -> Any:
    return world.application_payload()


@route("GET", "/applications/{app_id}/emojis")
def get_app_emojis(world: World, req: Request) -> Any:
    return {"items": []}


# application commands


def _store_commands(world: World, payload: Any, guild_id: int | None, existing: list[dict[str, Any]]) -> Any:
    problems = validate.validate_commands(payload)
    if problems:
        raise form_error(problems)
    old = {(c.get("type", 1), c["name"]): c["id"] for c in existing}
    stored = []
    for cmd in payload:
        kind = cmd.get("type", 1)
        data = {
            "type": kind,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "integration_types": [0],
            "contexts": None,
            "name_localizations": None,
            "description_localizations": None,
            **cmd,
        }
        data["id"] = old.get((kind, cmd["name"])) or str(world.snowflake())
        data["application_id"] = str(world.application_id)
        data["version"] = str(world.snowflake())
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        stored.append(data)
    return stored


def _guild_id(world: World, req: Request) -> int:
    gid = int(req.params["guild_id"])
    if gid not in world.guilds:
        raise ApiError(404, 10004, "Unknown Guild")
    return gid


@route("GET", "/applications/{app_id}/commands")
def get_global_commands(world: World, req: Request) -> Any:
    return world.global_commands


@route("PUT", "/applications/{app_id}/commands")
def put_global_commands(world: World, req: Request) -> Any:
    world.global_commands = _store_commands(world, req.json, None, world.global_commands)
    return world.global_commands


@route("POST", "/applications/{app_id}/commands")
def post_global_command(world: World, req: Request) -> Any:
    rest = [c for c in world.global_commands if (c["type"], c["name"]) != (req.json.get("type", 1), req.json["name"])]
    world.global_commands = _store_commands(world, [*rest, req.json], None, world.global_commands)
    return world.global_commands[-1]


@route("DELETE", "/applications/{app_id}/commands/{command_id}")
def delete_global_command(world: World, req: Request) -> Any:
    world.global_commands = [c for c in world.global_commands if c["id"] != req.params["command_id"]]


@route("GET", "/applications/{app_id}/guilds/{guild_id}/commands")
def get_guild_commands(world: World, req: Request) -> Any:
    return world.guild_commands.get(_guild_id(world, req), [])


@route("PUT", "/applications/{app_id}/guilds/{guild_id}/commands")
def put_guild_commands(world: World, req: Request) -> Any:
    gid = _guild_id(world, req)
    world.guild_commands[gid] = _store_commands(world, req.json, gid, world.guild_commands.get(gid, []))
    return world.guild_commands[gid]


# interactions


def _deadline_passed(world: World, inter: Interaction) -> bool:
    return world.clock() - inter.created_at > world.interaction_deadline


@route("POST", "/interactions/{interaction_id}/{token}/callback", auth=False)
def interaction_callback(world: World, req: Request) -> Any:
    inter = world.interactions.get(int(req.params["interaction_id"]))
    if inter is None or inter.token != req.params["token"] or (_deadline_passed(world, inter) and not inter.responded):
        raise ApiError(404, 10062, "Unknown interaction")
    if inter.responded:
        raise ApiError(400, 40060, "Interaction has already been acknowledged.")
    body = req.json or {}
    kind = body.get("type")
    data = body.get("data") or {}
    info: dict[str, Any] = {"id": str(inter.id), "type": inter.type}
    resource: dict[str, Any] | None = None
    if kind in (4, 5):
        flags = int(data.get("flags") or 0) & EPHEMERAL
        if kind == 5:
            msg = Message(
                world.snowflake(),
                inter.channel_id,
                world.bot_user.id,
                flags=flags | LOADING,
                type=20 if inter.type == 2 else 0,
                interaction_id=inter.id,
                webhook_id=world.application_id,
                recipient_id=inter.user_id,
            )
            world.add_message(msg)
        else:
            msg = new_message(world, req, inter.channel_id, data, flags=flags, inter=inter)
        inter.original_message_id = msg.id
        info.update(
            response_message_id=str(msg.id), response_message_loading=kind == 5, response_message_ephemeral=bool(flags)
        )
        resource = {"type": kind, "message": world.message_payload(msg)}
    elif kind in (6, 7):
        if inter.message_id is None:
            raise form_error([("type", "INTERACTION_RESPONSE_TYPE_INVALID", "Only for component interactions.")])
        msg = _message(world, inter.message_id)
        inter.original_message_id = msg.id
        if kind == 7:
            edit_message(world, req, msg, data)
            resource = {"type": 7, "message": world.message_payload(msg)}
    elif kind == 8:
        _check_choices(data.get("choices") or [])
        inter.autocomplete_choices = data.get("choices") or []
    elif kind == 9:
        _check_modal(data)
        inter.modal = data
    elif kind != 1:
        raise form_error([("type", "BASE_TYPE_CHOICES", f"Value must be one of (1, 4, 5, 6, 7, 8, 9); got {kind}.")])
    inter.response_type = kind
    inter.responded_at = world.clock()
    if req.query.get("with_response", "").lower() not in ("1", "true"):
        return None
    return {"interaction": info, **({"resource": resource} if resource else {})}


def _check_choices(choices: list[dict[str, Any]]) -> None:
    problems = []
    if len(choices) > 25:
        problems.append(("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    for i, c in enumerate(choices):
        if not isinstance(c.get("name"), str) or not 1 <= len(c["name"]) <= 100:
            problems.append((f"data.choices.{i}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
        if isinstance(c.get("value"), str) and len(c["value"]) > 100:
            problems.append((f"data.choices.{i}.value", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."))
    if problems:
        raise form_error(problems)


def _check_modal(data: dict[str, Any]) -> None:
    problems = []
    if not isinstance(data.get("custom_id"), str) or not 1 <= len(data["custom_id"]) <= 100:
        problems.append(("data.custom_id", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
    if not isinstance(data.get("title"), str) or not 1 <= len(data["title"]) <= 45:
        problems.append(("data.title", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length."))
    if not 1 <= len(data.get("components") or []) <= 5:
        problems.append(("data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
    if problems:
        raise form_error(problems)


def _original(world: World, inter: Interaction) -> Message:
    if inter.original_message_id is None:
        raise ApiError(404, 10008, "Unknown Message")
    return _message(world, inter.original_message_id)


def _webhook_message(world: World, req: Request, inter: Interaction) -> Message:
    mid = req.params["message_id"]
    if mid == "@original":
        return _original(world, inter)
    msg = _message(world, mid)
    if msg.interaction_id != inter.id:
        raise ApiError(404, 10008, "Unknown Message")
    return msg


@route("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
def get_webhook_message(world: World, req: Request) -> Any:
    inter = _webhook_interaction(world, req.params["app_id"], req.params["token"])
    return world.message_payload(_webhook_message(world, req, inter))


@route("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
def edit_webhook_message(world: World, req: Request) -> Any:
    inter = _webhook_interaction(world, req.params["app_id"], req.params["token"])
    msg = _webhook_message(world, req, inter)
    return world.message_payload(edit_message(world, req, msg, req.json or {}))


@route("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
def delete_webhook_message(world: World, req: Request) -> Any:
    inter = _webhook_interaction(world, req.params["app_id"], req.params["token"])
    _webhook_message(world, req, inter).deleted = True


@route("POST", "/webhooks/{app_id}/{token}", auth=False)
def create_followup(world: World, req: Request) -> Any:
    inter = _webhook_interaction(world, req.params["app_id"], req.params["token"])
    payload = req.json or {}
    original = world.messages.get(inter.original_message_id or 0)
    if inter.response_type == 5 and original is not None and original.flags & LOADING:
        # The first followup after a deferred reply replaces the "thinking..." placeholder.
        msg = edit_message(world, req, original, payload, filling=True)
    else:
        channel_id = int(req.query.get("thread_id") or inter.channel_id)
        flags = int(payload.get("flags") or 0) & EPHEMERAL
        msg = new_message(world, req, channel_id, payload, flags=flags, inter=inter)
    inter.followup_ids.append(msg.id)
    if req.query.get("wait", "").lower() in ("1", "true"):
        return world.message_payload(msg)
    return None


# channels and messages


@route("GET", "/channels/{channel_id}")
def get_channel(world: World, req: Request) -> Any:
    return _channel(world, req.params["channel_id"]).payload(world)


@route("POST", "/channels/{channel_id}/messages")
def create_message(world: World, req: Request) -> Any:
    ch = _channel(world, req.params["channel_id"])
    if ch.type == DM and ch.recipient_id is not None and not world.users[ch.recipient_id].dms_open:
        raise ApiError(403, 50007, "Cannot send messages to this user")
    return world.message_payload(new_message(world, req, ch.id, req.json or {}))


@route("GET", "/channels/{channel_id}/messages")
def list_messages(world: World, req: Request) -> Any:
    ch = _channel(world, req.params["channel_id"])
    msgs = [m for m in world.messages.values() if m.channel_id == ch.id and not m.deleted and not m.ephemeral]
    limit = int(req.query.get("limit", 50))
    return [world.message_payload(m) for m in sorted(msgs, key=lambda m: -m.id)[:limit]]


@route("GET", "/channels/{channel_id}/messages/{message_id}")
def get_message(world: World, req: Request) -> Any:
    msg = _message(world, req.params["message_id"], int(req.params["channel_id"]))
    if msg.ephemeral:
        raise ApiError(404, 10008, "Unknown Message")
    return world.message_payload(msg)


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
def patch_message(world: World, req: Request) -> Any:
    msg = _message(world, req.params["message_id"], int(req.params["channel_id"]))
    if msg.author_id != world.bot_user.id or msg.ephemeral:
        raise ApiError(403, 50005, "Cannot edit a message authored by another user")
    return world.message_payload(edit_message(world, req, msg, req.json or {}))


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
def delete_message(world: World, req: Request) -> Any:
    _message(world, req.params["message_id"], int(req.params["channel_id"])).deleted = True


@route("POST", "/channels/{channel_id}/typing")
def typing(world: World, req: Request) -> Any:
    _channel(world, req.params["channel_id"])


@route("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me")
def add_reaction(world: World, req: Request) -> Any:
    _message(world, req.params["message_id"], int(req.params["channel_id"]))


def _thread(world: World, req: Request, parent_id: str) -> Any:
    parent = _channel(world, parent_id)
    body = req.json or {}
    private = body.get("type") == PRIVATE_THREAD
    thread = world.add_thread(parent, body.get("name") or "thread", private=private, owner_id=world.bot_user.id)
    data = thread.payload(world)
    world.emit("THREAD_CREATE", {**data, "newly_created": True})
    return Response(201, data)


@route("POST", "/channels/{channel_id}/threads")
def create_thread(world: World, req: Request) -> Any:
    return _thread(world, req, req.params["channel_id"])


@route("POST", "/channels/{channel_id}/messages/{message_id}/threads")
def create_thread_from_message(world: World, req: Request) -> Any:
    _message(world, req.params["message_id"], int(req.params["channel_id"]))
    if req.json is not None:
        req.json["type"] = PUBLIC_THREAD
    return _thread(world, req, req.params["channel_id"])


@route("PUT", "/channels/{channel_id}/thread-members/{user_id}")
def add_thread_member(world: World, req: Request) -> Any:
    _channel(world, req.params["channel_id"])


@route("POST", "/users/@me/channels")
def create_dm(world: World, req: Request) -> Any:
    user = world.users.get(int((req.json or {}).get("recipient_id", 0)))
    if user is None:
        raise ApiError(404, 10013, "Unknown User")
    return world.dm_channel(user).payload(world)


# guilds


@route("GET", "/guilds/{guild_id}")
def get_guild(world: World, req: Request) -> Any:
    data = world.guild_payload(world.guilds[_guild_id(world, req)])
    for key in ("members", "channels", "threads", "presences", "voice_states"):
        data.pop(key, None)
    return data


@route("GET", "/guilds/{guild_id}/channels")
def get_guild_channels(world: World, req: Request) -> Any:
    return world.guild_payload(world.guilds[_guild_id(world, req)])["channels"]


@route("GET", "/guilds/{guild_id}/roles")
def get_guild_roles(world: World, req: Request) -> Any:
    return [r.payload() for r in world.guilds[_guild_id(world, req)].roles.values()]


@route("GET", "/guilds/{guild_id}/members/{user_id}")
def get_member(world: World, req: Request) -> Any:
    guild = world.guilds[_guild_id(world, req)]
    member = guild.members.get(int(req.params["user_id"]))
    if member is None:
        raise ApiError(404, 10007, "Unknown Member")
    return world.member_payload(member)

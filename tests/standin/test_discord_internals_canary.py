"""Canary: the discord.py internals the stand-in patches or calls still exist with the expected shapes."""

from __future__ import annotations

import inspect

import discord
import yarl
from discord import gateway, http, shard, state, utils
from discord.app_commands import CommandTree
from discord.ui.view import BaseView
from discord.webhook import async_ as webhook_async


def test_version_is_pinned() -> None:
    assert discord.__version__ == "2.7.1"


def test_rest_base_is_a_class_attribute_read_at_route_creation() -> None:
    assert isinstance(http.Route.BASE, str) and http.Route.BASE.endswith("/api/v10")
    assert http.Route("GET", "/users/@me").url == http.Route.BASE + "/users/@me"
    # the interaction/webhook adapter builds the same Route class, so one patch covers both
    assert webhook_async.Route is http.Route


def test_default_gateway_and_compression_negotiation() -> None:
    assert isinstance(gateway.DiscordWebSocket.DEFAULT_GATEWAY, yarl.URL)
    params = inspect.signature(gateway.DiscordWebSocket.from_client).parameters
    assert {"gateway", "compress", "encoding", "resume", "session", "sequence"} <= set(params)
    assert utils._ActiveDecompressionContext.COMPRESSION_TYPE in ("zlib-stream", "zstd-stream")
    source = inspect.getsource(gateway.DiscordWebSocket.received_message)
    assert "resume_gateway_url" in source and "_discord_parsers" in source


def test_http_session_hook_used_by_inprocess_mode() -> None:
    login = inspect.getsource(http.HTTPClient.static_login)
    assert "self.__session = aiohttp.ClientSession(" in login
    assert "self._global_over = asyncio.Event()" in login
    assert "Route('GET', '/users/@me')" in login
    assert "self.__session.request(method, url, **kwargs)" in inspect.getsource(http.HTTPClient.request)
    interaction_init = inspect.getsource(discord.Interaction.__init__)
    assert "state.http._HTTPClient__session" in interaction_init
    assert "session.request(" in inspect.getsource(webhook_async.AsyncWebhookAdapter.request)


def test_response_parsing_expectations() -> None:
    # bodies are parsed as JSON only for exactly this content type; 429 retries need a Via header
    assert "== 'application/json'" in inspect.getsource(http.json_or_text)
    assert "headers.get('Via')" in inspect.getsource(http.HTTPClient.request)
    assert "data['retry_after']" in inspect.getsource(http.HTTPClient.request)
    assert "'with_response': '1'" in inspect.getsource(webhook_async.AsyncWebhookAdapter.create_interaction_response)


def test_parsers_used_by_the_feed() -> None:
    client = discord.Client(intents=discord.Intents.default())
    parsers = client._connection.parsers
    for event in (
        "READY",
        "RESUMED",
        "GUILD_CREATE",
        "INTERACTION_CREATE",
        "GUILD_MEMBER_ADD",
        "GUILD_MEMBER_UPDATE",
        "GUILD_ROLE_CREATE",
        "GUILD_MEMBERS_CHUNK",
        "THREAD_CREATE",
    ):
        assert callable(parsers[event]), event
    assert hasattr(client._connection, "guild_ready_timeout")
    assert "shard_ids" in inspect.getsource(state.AutoShardedConnectionState.parse_ready)


def test_sharding_internals_used_by_inprocess_mode() -> None:
    assert list(inspect.signature(shard.Shard.__init__).parameters) == ["self", "ws", "client", "queue_put"]
    assert "client._reconnect" in inspect.getsource(shard.Shard.__init__)
    setup = inspect.getsource(shard.AutoShardedClient._async_setup_hook)
    assert "self.__queue = asyncio.PriorityQueue()" in setup
    assert "self.__shards" in inspect.getsource(shard.AutoShardedClient.launch_shard)
    assert "get_bot_gateway" in inspect.getsource(shard.AutoShardedClient.launch_shards)


def test_task_names_used_to_decide_quiescence() -> None:
    assert hasattr(BaseView, "_BaseView__timeout_task_impl")
    assert BaseView.wait.__qualname__ == "BaseView.wait"
    assert discord.Client.wait_for.__qualname__ == "Client.wait_for"
    assert "create_task" in inspect.getsource(CommandTree._from_interaction)


def test_interaction_payload_keys_the_driver_must_send() -> None:
    source = inspect.getsource(discord.Interaction._from_data)
    for key in ("'attachment_size_limit'", "'token'", "'version'", "'application_id'", "'guild_locale'"):
        assert key in source, key

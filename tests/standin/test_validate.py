"""validate.py: a good command payload passes, each documented limit violated fails naming the field."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import discord
import pytest

from standin import rest
from standin.inprocess import InProcessDiscord
from standin.validate import validate_commands, validate_message
from standin.world import World
from tests.standin.testbot import DemoBot


def good() -> list[dict[str, Any]]:
    return [
        {
            "name": "game",
            "description": "Play a game",
            "name_localizations": {"es-ES": "juego"},
            "description_localizations": {"es-ES": "Jugar"},
            "options": [
                {
                    "type": 1,
                    "name": "new",
                    "description": "Start",
                    "options": [
                        {"type": 3, "name": "game", "description": "Which", "required": True, "autocomplete": True},
                        {
                            "type": 4,
                            "name": "ai",
                            "description": "AI seats",
                            "choices": [{"name": "one", "value": 1}, {"name": "two", "value": 2}],
                        },
                    ],
                },
                {
                    "type": 2,
                    "name": "admin",
                    "description": "Admin tools",
                    "options": [{"type": 1, "name": "reset", "description": "Reset"}],
                },
            ],
        },
        {"name": "नमस्ते", "description": "Devanagari"},
        {"name": "สวัสดี", "description": "Thai"},
        {"name": "héllo-wörld_2", "description": "Latin"},
        {"type": 2, "name": "Show Profile"},
    ]


def opts(p: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return p[0]["options"][0]["options"]


def _huge(p: list[dict[str, Any]], locale: str | None) -> None:
    """25 options with long texts: over 4000 characters by default, or only in `locale`."""
    text = "d" if locale else "d" * 100
    loc = {locale: "L" * 100} if locale else {}
    p[3]["options"] = [
        {
            "type": 3,
            "name": f"o{i}",
            "description": text,
            "description_localizations": loc,
            "choices": [{"name": text, "value": "v", "name_localizations": loc}],
        }
        for i in range(25)
    ]


Mutation = Callable[[list[dict[str, Any]]], Any]
CASES: list[tuple[str, Mutation, str]] = [
    ("uppercase name", lambda p: p[0].update(name="Game"), "0.name"),
    ("space in name", lambda p: p[0].update(name="my game"), "0.name"),
    ("name too long", lambda p: p[0].update(name="g" * 33), "0.name"),
    ("empty description", lambda p: p[0].update(description=""), "0.description"),
    ("description too long", lambda p: p[0].update(description="d" * 101), "0.description"),
    (
        "too many options",
        lambda p: p[3].update(options=[{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]),
        "3.options",
    ),
    (
        "too many choices",
        lambda p: opts(p)[1].update(choices=[{"name": f"c{i}", "value": i} for i in range(26)]),
        "0.options.0.options.1.choices",
    ),
    ("choice name too long", lambda p: opts(p)[1]["choices"][0].update(name="c" * 101), "choices.0.name"),
    ("bad locale", lambda p: p[0]["name_localizations"].update(xx="juego"), "0.name_localizations.xx"),
    ("localized name uppercase", lambda p: p[0]["name_localizations"].update({"es-ES": "Juego"}), "es-ES"),
    (
        "localized description too long",
        lambda p: p[0]["description_localizations"].update(fr="d" * 101),
        "0.description_localizations.fr",
    ),
    ("required after optional", lambda p: opts(p).append({**opts(p)[0], "name": "late"}), "options.2.required"),
    (
        "subcommand inside subcommand",
        lambda p: opts(p).append({"type": 1, "name": "deep", "description": "d"}),
        "0.options.0.options",
    ),
    (
        "group inside group",
        lambda p: p[0]["options"][1]["options"].append({"type": 2, "name": "g2", "description": "d"}),
        "0.options.1.options.1.type",
    ),
    ("duplicate command", lambda p: p.append(copy.deepcopy(p[3])), "5.name"),
    (
        "too many commands",
        lambda p: p.extend({"name": f"c{i}", "description": "d"} for i in range(100)),
        "100 or fewer",
    ),
    ("choices with autocomplete", lambda p: opts(p)[1].update(autocomplete=True), "autocomplete"),
    ("command too large", lambda p: _huge(p, None), "maximum size"),
    ("too large in one locale only", lambda p: _huge(p, "de"), "locale de"),
]


def test_good_payload_passes() -> None:
    assert validate_commands(good()) == []


@pytest.mark.parametrize(("label", "mutate", "field"), CASES, ids=[c[0] for c in CASES])
def test_each_limit_fails_naming_the_field(label: str, mutate: Mutation, field: str) -> None:
    payload = good()
    mutate(payload)
    problems = validate_commands(payload)
    assert problems, label
    assert any(field in f"{path}: {message}" for path, _code, message in problems), problems


def test_put_commands_answers_50035_with_discord_error_shape() -> None:
    world = World()
    payload = good()
    payload[0]["description"] = ""
    resp = rest.handle(
        world,
        "PUT",
        f"/api/v10/applications/{world.application_id}/commands",
        headers={"Authorization": f"Bot {world.token}"},
        body=json.dumps(payload).encode(),
        content_type="application/json",
    )
    assert resp.status == 400
    assert resp.body["code"] == 50035
    assert resp.body["errors"]["0"]["description"]["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"


@pytest.mark.parametrize(
    ("body", "files", "field"),
    [
        ({"content": "x" * 2001}, 0, "content"),
        ({"content": "x"}, 11, "attachments"),
        (
            {"components": [{"type": 1, "components": [{"type": 2, "custom_id": "b", "label": "b"}]}] * 6},
            0,
            "components",
        ),
        (
            {"components": [{"type": 1, "components": [{"type": 2, "custom_id": "x" * 101, "label": "b"}]}]},
            0,
            "custom_id",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                            }
                        ],
                    }
                ]
            },
            0,
            "options",
        ),
        ({"embeds": [{"title": "t" * 257}]}, 0, "embeds.0.title"),
        ({"embeds": [{"fields": [{"name": "", "value": "v"}]}]}, 0, "embeds.0.fields.0.name"),
    ],
)
def test_message_limits(body: dict[str, Any], files: int, field: str) -> None:
    assert any(field in path for path, _code, _msg in validate_message(body, files))


async def test_bad_translation_fails_sync_like_real_discord() -> None:
    def factory() -> DemoBot:
        bot = DemoBot()
        bot.translations = {"es-ES": {"hello": "Hola Mundo"}}
        return bot

    session = InProcessDiscord(factory, strict=False)
    with pytest.raises(discord.HTTPException, match=r"name_localizations\.es-ES"):
        await session.start()
    await session.close(check=False)

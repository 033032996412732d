"""The language policy: public talk in the table's language, lines addressed to one person in theirs; a turn
is one live message, edited in place until a wait begins."""

from __future__ import annotations

import json

import pytest

from bot import make_bot
from standin.inprocess import InProcessDiscord
from standin.world import is_error_output
from tests.standin_reads import home_channel, named_user

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PING = {"en": "— your turn!", "es": "— ¡te toca!"}


@pytest.fixture
async def d(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_SEED", "11")
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "x.sqlite3"))) as world:
        yield world


async def started(d: InProcessDiscord, table_lang: str = "es") -> tuple[str, str]:
    """An English and a Spanish player at a table of `table_lang`; returns (who is on turn, the other)."""
    out = await d.command("owner", f"/game settings language:{table_lang}")
    d.user("ann", locale="en-US")
    d.user("berta", locale="es-ES")
    out += await d.command("ann", "/game new game:hero-realms")
    out += await d.command("berta", "/game join")
    out += await d.command("ann", "/game start")
    assert not [o.text() for o in out if is_error_output(o)]
    row = await d.bot.table.game_for(home_channel(d).id)
    loaded = await d.bot.table.inspect(row.id)
    first = next(iter(loaded.game.to_act(loaded.state)))
    names = ["ann", "berta"]
    return names[first], names[1 - first]


def labels(d: InProcessDiscord, message_id: int) -> list[str]:
    found = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("label"), str):
                found.append(node["label"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(d.world.messages[message_id].components)
    return found


@pytest.mark.parametrize("table_lang", ["es", "en"])
async def test_public_talk_is_in_the_tables_language_whoever_acts(d: InProcessDiscord, table_lang: str) -> None:
    on_turn, other = await started(d, table_lang)
    mine = {"ann": "en", "berta": "es"}
    my_hand = {"es": "Mi mano / mis opciones", "en": "My hand / my options"}[table_lang]
    for _ in range(2):  # both players end a turn: the channel's words never follow the clicker
        out = await d.command(on_turn, "/hr end")
        posts = [o for o in out if o.kind in ("channel", "edit")]
        assert posts, [(o.kind, o.text()[:60]) for o in out]
        for post in posts:
            shown = labels(d, post.message_id)
            assert not shown or my_hand in shown, shown
        waiting = named_user(d.world, other)
        ping = next(o for o in posts if f"<@{waiting.id}>" in o.content)
        # The ping line speaks the pinged player's language, not the table's and not the mover's.
        assert f"<@{waiting.id}> {PING[mine[other]]}" in ping.content, ping.content
        wrong = PING["en" if mine[other] == "es" else "es"]
        assert wrong not in ping.content
        on_turn, other = other, on_turn


async def test_dms_speak_the_readers_language_and_link_to_the_table(d: InProcessDiscord) -> None:
    on_turn, other = await started(d)
    out = await d.command(on_turn, "/hr end")
    dms = [o for o in out if o.kind == "dm" and o.recipient_id == named_user(d.world, other).id]
    assert dms, [(o.kind, o.text()[:60]) for o in out]
    header = {"ann": "Your turn in", "berta": "Te toca en"}[other]
    assert all(header in o.content and "https://discord.com/channels/" in o.content for o in dms), \
        [o.content[:80] for o in dms]


async def test_a_turn_is_one_message_edited_in_place(d: InProcessDiscord) -> None:
    on_turn, other = await started(d)
    mover = named_user(d.world, on_turn)
    out = await d.command(on_turn, "/hr play card:all")
    assert not [o for o in out if o.kind == "channel"], "a move in the middle of a turn posted a new message"
    edits = [o for o in out if o.kind == "edit"]
    assert edits and not any(f"<@{mover.id}>" in o.content and PING["en"] not in o.content for o in edits)
    assert any(a[0].endswith(".png") for o in edits for a in o.attachments), "the live board was not redrawn"
    out = await d.command(on_turn, "/hr end")
    new = [o for o in out if o.kind == "channel"]
    waiting = named_user(d.world, other)
    assert len(new) == 1 and f"<@{waiting.id}>" in new[0].content, [o.content[:80] for o in new]
    message = d.world.messages[new[0].message_id]
    assert message.attachments and message.attachments[0].description, "the board has no alt text"
    assert json.dumps(message.attachments[0].description, ensure_ascii=False)


async def test_status_answers_the_asker_alone(d: InProcessDiscord) -> None:
    on_turn, _ = await started(d)
    out = await d.command(on_turn, "/game status")
    # nothing public: no channel post, no edit of a channel message (their own answer's picture may follow)
    assert not [o for o in out if o.kind == "channel" or (o.kind == "edit" and o.recipient_id is None)]
    assert [o for o in out if o.kind == "ephemeral"]


async def test_undo_is_offered_only_where_it_would_work(d: InProcessDiscord) -> None:
    on_turn, _ = await started(d, "en")
    out = await d.command(on_turn, "/game view")
    panel = [o for o in out if o.kind == "ephemeral" and o.components]
    assert panel and not any(cid.startswith("tgb:undo:") for o in panel for cid, _ in o.components), \
        "nothing of theirs to take back yet"

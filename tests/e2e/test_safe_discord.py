"""Through the stand-in: mentions ping exactly who a message means, names from files read harmlessly, failed
downloads and a full disk get their own localized answers, and a DM costs no user fetch."""

from __future__ import annotations

import json

import pytest

import cogs.downloads
from bot import make_bot
from cogs.dm_channels import dm_channels
from rules.kings_armory import maps as kmaps
from standin.inprocess import InProcessDiscord
from standin.world import Output, is_error_output
from tests.reference import TRIAL
from tests.standin_reads import home_channel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RLO, ZWSP = "\u202e", "\u200b"


@pytest.fixture
async def d(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_SEED", "5")
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "s.sqlite3"))) as world:
        yield world


def _errors(outputs: list[Output]) -> list[str]:
    return [o.text() for o in outputs if is_error_output(o)]


def _map_file(tmp_path, name: str, **names: str):
    spec = json.loads((kmaps.CUSTOM_DIR / "river-bend.json").read_text(encoding="utf-8"))
    spec.update(names)
    path = tmp_path / name
    path.write_text(json.dumps(spec, ensure_ascii=False), encoding="utf-8")
    return path


def _pings(d: InProcessDiscord) -> list[tuple[str, ...]]:
    return [o.pings for o in d.world.outputs if o.pings]


async def test_a_map_named_like_a_mention_pings_nobody_and_reads_harmlessly(d: InProcessDiscord, tmp_path) -> None:
    bob = d.user("bob")
    path = _map_file(tmp_path, "m.json", es=f"<@{bob.id}> @everyone", en=f"<@{bob.id}> @here @everyone")
    out = await d.command("alice", f"/game new game:kings-armory ai:1 file:{path}")
    assert not _errors(out), _errors(out)
    lobby = [o for o in out if o.kind == "channel"]
    assert lobby and all(o.pings == () for o in lobby), [o.pings for o in lobby]
    shown = "\n".join(o.text() for o in lobby)
    assert f"<＠{bob.id}>" in shown and "＠everyone" in shown
    assert "@everyone" not in shown and f"<@{bob.id}>" not in shown
    await d.command("bob", "/game join")
    out = await d.command("alice", "/game start")
    assert not _errors(out), _errors(out)
    # Every message of the whole game so far pinged only seated players, never everyone, a role or bob by name.
    seated = {f"<@{d.user(n).id}>" for n in ("alice", "bob")}
    for pinged in _pings(d):
        assert set(pinged) <= seated, pinged


async def test_the_stand_in_would_see_a_ping_from_a_message_sent_without_allowed_mentions(d: InProcessDiscord) -> None:
    """The check above can fail: a message sent with discord.py's defaults (no allowed mentions) pings all."""
    channel = d.bot.get_channel(home_channel(d).id) or await d.bot.fetch_channel(home_channel(d).id)
    import discord

    await channel.send(f"<@{d.user('bob').id}> @everyone", allowed_mentions=discord.AllowedMentions.all())
    assert d.world.outputs[-1].pings == (f"<@{d.user('bob').id}>", "@everyone")
    await channel.send(f"<@{d.user('bob').id}> @everyone")  # the bot's own default: nobody
    assert d.world.outputs[-1].pings == ()


@pytest.mark.parametrize("lang", ["es", "en"])
async def test_a_map_name_of_only_invisible_characters_is_refused_in_the_askers_language(
        d: InProcessDiscord, tmp_path, lang: str) -> None:
    d.user("alice", locale="es-ES" if lang == "es" else "en-US")
    path = _map_file(tmp_path, "m.json", es=RLO + ZWSP, en=RLO)
    out = await d.command("alice", f"/game new game:kings-armory file:{path}")
    words = {"es": "invisibles o de control", "en": "invisible or control characters"}[lang]
    assert _errors(out) and words in _errors(out)[0], _errors(out)
    assert not any(o.kind == "channel" for o in out)
    assert await d.bot.table.game_for(home_channel(d).id) is None


@pytest.mark.parametrize("failure", [404, 500, "hang"])
@pytest.mark.parametrize("game", ["kings-armory", "heroquest"])
async def test_a_failed_download_is_a_localized_refusal_not_a_crash(
        d: InProcessDiscord, tmp_path, monkeypatch, failure: int | str, game: str) -> None:
    monkeypatch.setattr(cogs.downloads, "DOWNLOAD_SECONDS", 0.3)
    path = _map_file(tmp_path, "m.json") if game == "kings-armory" else TRIAL
    d.user("alice", locale="es-ES")
    d.world.fail_downloads(failure)
    out = await d.command("alice", f"/game new game:{game} file:{path}")
    errors = _errors(out)
    assert errors and "No se pudo leer ese archivo" in errors[0], [o.text() for o in out]
    assert "algo falló" not in errors[0].lower()
    assert await d.bot.table.game_for(home_channel(d).id) is None
    # ... and the same file read again works (nothing was left half-done); no ERROR was logged (the fixture's
    # close checks the stand-in's problems, which count every ERROR line).
    d.user("alice", locale="en-US")
    d.world.fail_downloads(404)
    out = await d.command("alice", f"/game new game:{game} file:{path}")
    assert "Could not read that file" in _errors(out)[0]
    out = await d.command("alice", f"/game new game:{game} file:{path}")
    assert not _errors(out), _errors(out)


async def test_a_second_dm_to_the_same_person_costs_no_user_fetch_and_no_new_channel(d: InProcessDiscord) -> None:
    out = await d.command("alice", "/game new game:hero-realms")
    out += await d.command("bob", "/game join")
    out += await d.command("alice", "/game start")
    assert not _errors(out)
    for _ in range(6):
        row = await d.bot.table.game_for(home_channel(d).id)
        loaded = await d.bot.table.inspect(row.id)
        on_turn = ["alice", "bob"][next(iter(loaded.game.to_act(loaded.state)))]
        await d.command(on_turn, "/hr end")
    dms = [o for o in d.world.outputs if o.kind == "dm"]
    assert len(dms) >= 4, "the game sent DMs"
    log = d.world.request_log
    user_fetches = [p for m, p, s in log if m == "GET" and p.startswith("/users/") and p != "/users/@me"]
    opened = [p for m, p, s in log if m == "POST" and p == "/users/@me/channels"]
    people = {o.recipient_id for o in dms}
    assert user_fetches == []
    assert len(opened) <= len(people), (len(opened), people)
    assert len(dm_channels(d.bot)) == len(people)


async def test_the_dm_channel_cache_is_bounded() -> None:
    from cogs.dm_channels import DmChannels

    cache = DmChannels(kept=3)
    for user in range(10):
        cache.remember(user, 1000 + user)
    assert len(cache) == 3 and sorted(cache._ids) == [7, 8, 9]
    cache.remember(7, 1007)  # used again: the last to go
    cache.remember(11, 1011)
    assert sorted(cache._ids) == [7, 9, 11]


async def test_a_full_disk_has_its_own_message_in_the_readers_language(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TABLETOP_SEED", "5")
    d = InProcessDiscord(lambda: make_bot(str(tmp_path / "full.sqlite3")))
    await d.start()
    try:
        berta, bob = d.user("berta", locale="es-ES"), d.user("bob", locale="en-US")
        out = await d.command("berta", "/game new game:hero-realms")
        out += await d.command("bob", "/game join")
        out += await d.command("berta", "/game start")
        assert not _errors(out)
        backend = d.bot.store.backend
        await backend.set_max_pages((await backend.page_bytes()) // 4096)  # no room for another page
        refused: dict[str, str] = {}
        for _ in range(400):
            row = await d.bot.table.game_for(home_channel(d).id)
            loaded = await d.bot.table.inspect(row.id)
            on_turn = [berta, bob][next(iter(loaded.game.to_act(loaded.state)))]
            errors = _errors(await d.command(on_turn, "/hr end"))
            if errors:  # the same move again, asked in the other language
                first = "es" if on_turn is berta else "en"
                refused[first] = errors[0]
                d.user(on_turn.name, locale="en-US" if first == "es" else "es-ES")
                errors = _errors(await d.command(on_turn, "/hr end"))
                refused["en" if first == "es" else "es"] = errors[0] if errors else ""
                break
        assert "El almacenamiento del bot está lleno" in refused.get("es", ""), refused
        assert "storage is full" in refused.get("en", ""), refused
        assert not any("ahora mismo" in text or "right now" in text for text in refused.values()), refused
    finally:
        await d.close(check=False)
    # The operator is told (an ERROR line without a traceback); nothing else went wrong.
    assert d.world.problems and all("storage full" in p for p in d.world.problems), d.world.problems


async def test_a_refusal_quotes_what_was_typed_cleaned_and_bounded(d: InProcessDiscord) -> None:
    """Free text typed into a command comes back in the refusal without its invisible characters, with the mention
    sign made harmless and cut to a readable length."""
    await d.command("alice", "/game new game:hero-realms ai:1")
    await d.command("alice", "/game start")
    typed = f"{RLO}zz{ZWSP}qq @everyone " + "x" * 300
    out = await d.command("alice", f'/hr play card:"{typed}"')
    errors = _errors(out)
    assert len(errors) == 1, [o.text() for o in out]
    shown = errors[0]
    assert "zzqq ＠everyone" in shown, shown
    assert RLO not in shown and ZWSP not in shown and "@everyone" not in shown
    assert "x" * 120 not in shown and "x" * 60 in shown

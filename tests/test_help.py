"""`/game help` and each game's `/<group> help`: every page whole, within Discord's limits, in both languages,
with command and option names as the reader's Discord shows them; and the same through the stand-in."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import i18n
from bot import make_bot
from cogs import help as H
from cogs.ui import GameButton
from rules import registry
from standin.inprocess import InProcessDiscord
from standin.world import Output, is_error_output

GAMES = sorted(set(H.PAGES) - {H.GENERAL})
#: Each game's group as the reader types it: (English, Spanish) words, read off the catalog by hand.
SPANISH_WORDS = {"/game new": "/partida nueva", "/hr play": "/hr jugar", "/hq move": "/hq mover",
                 "/br roll": "/br tirar", "/ka ready": "/ka listo", "/gi hero": "/gi heroe"}


def all_pages() -> list[tuple[str, str, H.Page]]:
    return [(topic, lang, page) for topic in H.PAGES for lang in i18n.LANGS
            for page in H.pages(topic, lang, GAMES)]


def test_every_game_has_help_and_a_command_group() -> None:
    playable = {g for g, game in registry.games().items()
                if not game.in_progress and type(game).__module__.startswith("rules.")}
    assert playable <= set(H.PAGES), playable - set(H.PAGES)
    assert set(GAMES) == set(H.GROUPS) == {"hero-realms", "heroquest", "gorgasali", "kings-armory",
                                           "guerra-de-indagar"}


def test_every_marker_names_a_command_or_option_in_both_languages() -> None:
    keys = [key for topic in H.PAGES for page in H.PAGES[topic] for suffix in ("", ".title", ".line")
            if i18n.has(page + suffix, "en")
            for lang in i18n.LANGS for key in H.marker_keys(i18n.catalog(lang)[page + suffix])]
    assert keys, "the help texts name commands through markers"
    assert sorted({k for k in keys if not (i18n.has(k, "en") and i18n.has(k, "es"))}) == []


@pytest.mark.parametrize(("topic", "lang", "page"), all_pages(), ids=lambda x: getattr(x, "title", x))
def test_every_page_is_whole_and_within_discords_limits(topic: str, lang: str, page: H.Page) -> None:
    assert page.title and page.body and page.footer
    assert len(page.title) <= 256 and len(page.body) <= H.MAX_DESCRIPTION and page.size() <= H.MAX_EMBEDS_TEXT
    # a page for a phone: a few short paragraphs, never a wall
    assert len(page.body) <= 1800, (topic, lang, len(page.body))
    text = page.title + page.body + page.footer
    assert "{" not in text and "}" not in text, text  # no marker or placeholder left unresolved
    assert not re.search(r"\b(?:cmd|bot|hr|hq|gg|ka|gi)\.[a-z_]+\.", text), "no catalog key shown"
    assert text.count("`") % 2 == 0, "every code span is closed"


def test_general_help_lists_all_five_games_and_their_help_commands() -> None:
    for lang in i18n.LANGS:
        first = H.pages(H.GENERAL, lang, GAMES)[0].body
        for game_id in GAMES:
            game = registry.get(game_id)
            assert game is not None
            assert i18n.t(i18n.Msg(game.name_key), lang) in first
            assert H.command_text(f"{H.GROUPS[game_id]}/help", lang) in first
    assert "/partida ayuda" not in H.pages(H.GENERAL, "es", GAMES)[0].body  # a game's help is /hr ayuda...
    assert "/hr ayuda" in H.pages(H.GENERAL, "es", GAMES)[0].body


def test_spanish_help_shows_spanish_command_and_option_names() -> None:
    spanish = "\n".join(p.body for topic in H.PAGES for p in H.pages(topic, "es", GAMES))
    english = "\n".join(p.body for topic in H.PAGES for p in H.pages(topic, "en", GAMES))
    for en, es in SPANISH_WORDS.items():
        assert en in english and es in spanish, (en, es)
        assert f"`{en}`" not in spanish and f"{en} " not in spanish, en
    assert "juego:hero-realms" in spanish and "ia:1" in spanish and "opciones:variant=hydra" in spanish
    assert "game:hero-realms" in english and "options:variant=hydra" in english
    assert "`/hr mano`" in spanish and "`/hr hand`" in english


def test_each_game_names_its_own_group_and_the_commands_a_turn_needs() -> None:
    needed = {"hero-realms": ["hr/play", "hr/buy", "hr/attack", "hr/end"],
              "heroquest": ["hq/move", "hq/attack", "hq/search", "hq/end", "hq/gm/finish"],
              "gorgasali": ["br/panel", "br/roll", "br/step", "br/shoot", "br/end"],
              "kings-armory": ["ka/pick", "ka/ready", "ka/activate", "ka/attack", "ka/endturn"],
              "guerra-de-indagar": ["gi/setup", "gi/hero", "gi/path", "gi/action", "gi/end", "gi/answer"]}
    for game_id, commands in needed.items():
        for lang in i18n.LANGS:
            text = "\n".join(p.body for p in H.pages(game_id, lang, GAMES))
            missing = [c for c in commands if H.command_text(c, lang) not in text]
            assert missing == [], (game_id, lang)


def test_the_examples_open_tables_that_can_start() -> None:
    """Every `/game new game:X options:... ai:N` example names real options and a seat count the game takes."""
    seen = 0
    for topic in H.PAGES:
        for lang in i18n.LANGS:
            words = {k: H.option_text(k, lang) for k in ("game", "options", "ai")}
            for page in H.pages(topic, lang, GAMES):
                for example in re.findall(rf"`{re.escape(H.command_text('game/new', lang))} ([^`]*)`", page.body):
                    parts = dict(w.split(":", 1) for w in example.split())
                    game = registry.get(parts[words["game"]])
                    assert game is not None, example
                    raw = dict(kv.split("=", 1) for kv in parts.get(words["options"], "").split() if "=" in kv)
                    if "…" in raw.get("quest", ""):
                        continue  # "quest=…": the reader picks one from the list
                    options = game.resolve_options(raw)
                    seats = 1 + int(parts.get(words["ai"], "0"))
                    low, high = game.seat_range(options)
                    assert low <= seats <= high or (low > seats and "join" in page.body), (example, low, high)
                    seen += 1
    assert seen >= 10


def test_game_options_page_explains_every_option_in_both_languages() -> None:
    for game_id in GAMES:
        game = registry.get(game_id)
        assert game is not None
        for lang in i18n.LANGS:
            last = H.pages(game_id, lang, GAMES)[-1]
            for spec in game.options():
                assert f"`{spec.key}` — {i18n.t(spec.label, lang)}" in last.body or \
                    f"`{spec.key}=true` — {i18n.t(spec.label, lang)}" in last.body, (game_id, spec.key)


def test_a_pager_never_repeats_a_button_id() -> None:
    for topic in H.PAGES:
        count = len(H.pages(topic, "en", GAMES))
        for page in range(count):
            view = H.pager(topic, page, count, "en", GAMES)
            assert view is not None
            buttons = [item for item in view.children if isinstance(item, GameButton)]
            assert len(buttons) == len(view.children), "the pager holds buttons only"
            ids = [item.custom_id for item in buttons]
            assert len(ids) == len(set(ids)) and all(len(i) <= 100 for i in ids)


# ---------------------------------------------------------------- through the stand-in


@pytest.fixture
async def discord_(tmp_path: Path) -> AsyncIterator[InProcessDiscord]:
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "help.sqlite3"))) as d:
        d.user("ana", locale="es-ES")
        d.user("alice", locale="en-US")
        yield d


def _within_limits(out: list[Output]) -> None:
    for o in out:
        assert len(o.content or "") <= 2000
        assert sum(len(e.get("title") or "") + len(e.get("description") or "")
                   + len((e.get("footer") or {}).get("text") or "") for e in o.embeds) <= 6000
        assert all(len(e.get("description") or "") <= 4096 for e in o.embeds)


async def test_game_help_answers_each_reader_in_their_language_page_by_page(discord_: InProcessDiscord) -> None:
    for who, command, title, next_label, expected in (
            ("alice", "/game help", "Welcome", "Next ▶", "/game new"),
            ("ana", "/partida ayuda", "Bienvenida", "Siguiente ▶", "/partida nueva")):
        out = await discord_.command(who, command)
        assert len(out) == 1 and out[0].kind == "ephemeral" and not is_error_output(out[0]), out
        _within_limits(out)
        body = out[0].body()
        assert title in body and expected in body
        games = [registry.get(g) for g in GAMES]
        assert all(game is not None and i18n.t(i18n.Msg(game.name_key), "en") in body for game in games)
        labels = [label for _, label in out[0].components]
        assert next_label in labels
        pages = [body]
        message = out[0]
        while True:
            forward = [cid for cid, label in message.components if label == next_label]
            if not forward:
                break
            after = await discord_.click(who, message, forward[0])
            _within_limits(after)
            assert after and not any(is_error_output(o) for o in after), after
            message = after[-1]
            pages.append(message.body())
        assert len(pages) == len(H.PAGES[H.GENERAL]), "◀ ▶ walk every page"
        assert len(set(pages)) == len(pages)


async def test_each_group_help_answers_in_both_languages(discord_: InProcessDiscord) -> None:
    for game_id, group in H.GROUPS.items():
        for who, lang in (("alice", "en"), ("ana", "es")):
            out = await discord_.command(who, f"/{group} {H.command_text(f'{group}/help', lang).split()[-1]}")
            assert len(out) == 1 and out[0].kind == "ephemeral" and not is_error_output(out[0]), out
            _within_limits(out)
            first = H.pages(game_id, lang, GAMES)[0]
            assert first.title in out[0].body() and first.body in out[0].body()


async def test_the_lobby_offers_how_to_play_in_the_clickers_language(discord_: InProcessDiscord) -> None:
    out = await discord_.command("alice", "/game new game:guerra-de-indagar ai:1")
    lobby = next(o for o in out if o.kind == "channel")
    button = next((cid for cid, label in lobby.components if label == "How to play"), None)
    assert button is not None, lobby.components
    shown = await discord_.click("ana", lobby, button)
    assert len(shown) == 1 and shown[0].kind == "ephemeral" and shown[0].recipient_id is not None
    assert H.pages("guerra-de-indagar", "es", GAMES)[0].title in shown[0].body()
    _within_limits(shown)


async def test_the_lobby_names_its_options_in_words_and_autocomplete_explains_each_value(
        discord_: InProcessDiscord) -> None:
    choices = await discord_.autocomplete("alice", "/game new game:hero-realms", "options", "variant=h")
    names = [c["name"] for c in choices]
    assert "variant=hydra — Variant: Hydra (2 teams of 2)" in names, names
    choices = await discord_.autocomplete("ana", "/partida nueva juego:kings-armory", "opciones", "endurance")
    assert any(c["name"].startswith("endurance=true — Variante: Resistencia") for c in choices), choices
    out = await discord_.command("alice", "/game new game:hero-realms options:variant=hydra ai:3")
    lobby = next(o for o in out if o.kind == "channel")
    assert "Variant: Hydra (2 teams of 2)" in lobby.content and "variant=hydra" not in lobby.content


def test_an_option_value_shows_its_meaning_without_repeating_itself() -> None:
    assert H.value_text("full", "Full arrival") == "`full` Full arrival"
    assert H.value_text("10", "10 (standard)") == "`10` standard"
    assert H.value_text("original", "Original") == "`original`"
    assert H.value_text("hydra", "Hydra (2 teams of 2)") == "`hydra` Hydra (2 teams of 2)"

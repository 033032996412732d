"""HeroQuest commands take what a person would type: monsters by their shown name and number or a unique
beginning, an attack without naming the weapon, and refusals that say which rule stops the move."""

from __future__ import annotations

import pytest

import i18n
from bot import make_bot
from cogs.heroquest import _hero_line
from rules import coords
from standin.inprocess import InProcessDiscord
from standin.world import is_error_output
from tests.e2e.test_heroquest_discord import _choose_spells, _loaded, _open, assert_no_leak

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
async def d(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETOP_SEED", "3")
    async with InProcessDiscord(lambda: make_bot(str(tmp_path / "hq.sqlite3"))) as world:
        yield world


def errors(out) -> list[str]:
    return [o.text() for o in out if is_error_output(o)]


async def _hero_on_turn(d: InProcessDiscord):
    """The hero on turn, its player, and free squares next to it (it first steps into the open)."""
    loaded = await _loaded(d)
    h = loaded.state.current_hero()
    player = d.world.users[loaded.user_of(h["seat"])].name
    out = await d.command(player, "/hq move to:D3")
    assert not errors(out), errors(out)
    loaded = await _loaded(d)
    state = loaded.state
    h = state.current_hero()
    name = d.world.users[loaded.user_of(h["seat"])].name
    sq = tuple(h["sq"])
    free = [q for q in ((sq[0] + 1, sq[1]), (sq[0] - 1, sq[1]), (sq[0], sq[1] + 1), (sq[0], sq[1] - 1))
            if state.is_revealed(q) and q not in state.figure_at() and q not in state.blocked_squares()]
    return loaded, h, name, free


async def test_names_as_people_type_them(d: InProcessDiscord) -> None:
    await _open(d, upload=None)
    await _choose_spells(d)
    _, _, player, free = await _hero_on_turn(d)
    assert len(free) >= 2
    (r1, c1), (r2, c2) = free[:2]
    out = await d.command("alice", f"/hq gm place monster:orc at:{coords.name(r1, c1)}")
    out += await d.command("alice", f"/hq gm place monster:goblin at:{coords.name(r2, c2)}")
    assert not errors(out), errors(out)
    # the game master names them as shown: "Goblin 1", a unique beginning, in Spanish too
    out = await d.command("alice", '/hq gm adjust who:"Goblin 1" stat:mind delta:1')
    out += await d.command("alice", '/hq gm adjust who:"gob 1" stat:body delta:1')
    d.user("alice", locale="es-ES")
    out += await d.command("alice", '/hq dj ajustar quien:"orco 1" atributo:mind cambio:1')
    assert not errors(out), errors(out)
    d.user("alice", locale="en-US")
    out = await d.command("alice", "/hq gm adjust who:dragon stat:body delta:-1")
    assert errors(out) and "Goblin 1" in errors(out)[0] and "Orc 1" in errors(out)[0]
    out = await d.command("alice", "/hq gm adjust who:gob stat:body delta:-1")  # hidden goblins too: which?
    assert errors(out) and "Goblin 1 (" in errors(out)[0] and "hidden" in errors(out)[0]
    # autocomplete offers display names, never internal ids
    options = await d.autocomplete("alice", "/hq gm adjust", "who", "")
    assert {"Goblin 1", "Orc 1"} <= {o["name"].split(" (")[0] for o in options}
    assert not any("_" in o["value"] for o in options)
    # the hero attacks "orc" with the weapon in hand: no question between the weapon and bare hands
    out = await d.command(player, "/hq attack target:orc")
    assert not errors(out), errors(out)
    await assert_no_leak(d, out)


async def test_adjusting_an_unseen_monster_stays_with_the_game_master(d: InProcessDiscord) -> None:
    await _open(d, upload=None)
    await _choose_spells(d)
    state = (await _loaded(d)).state
    hidden = next((r, c) for r in range(19) for c in range(26)
                  if not state.is_revealed((r, c)) and (r, c) not in state.dark
                  and (r, c) not in state.blocked_squares() and (r, c) not in state.figure_at())
    out = await d.command("alice", f"/hq gm place monster:fimir at:{coords.name(*hidden)}")
    for _ in range(2):
        out += await d.command("alice", f"/hq gm adjust who:\"Fimir ({coords.name(*hidden)})\" "
                                        f"stat:body delta:-1")
    assert not errors(out), errors(out)
    assert not [o for o in out if o.kind == "channel" and "Fimir" in o.text()]
    await assert_no_leak(d, out)
    assert not [m for m in (await _loaded(d)).state.monsters.values() if tuple(m["sq"]) == hidden], "it died"


async def test_a_refusal_names_the_rule(d: InProcessDiscord) -> None:
    await _open(d, upload=None)
    await _choose_spells(d)
    loaded, _, player, _ = await _hero_on_turn(d)
    state = loaded.state
    unseen = next((r, c) for r in range(19) for c in range(26) if not state.is_revealed((r, c)))
    out = await d.command(player, f"/hq move to:{coords.name(*unseen)}")
    assert errors(out) and i18n.t(i18n.Msg("hq.err.unseen_square"), "en") in errors(out)[0]


def test_statuses_read_as_words() -> None:
    line = _hero_line({"name": {"es": "Mago", "en": "Wizard"}, "body": 4, "max_body": 4, "mind": 6, "max_mind": 6,
                       "square": [1, 1], "status": ["mist", "stun"], "quest_treasures": ["spirit_blade"],
                       "skills": ["dodge"]}, "es")
    assert "Manto de Niebla, aturdido" in line and "Espada del Espíritu" in line and "Esquiva" in line
    assert "mist" not in line

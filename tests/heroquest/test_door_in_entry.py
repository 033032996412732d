"""The Cold Halls (Return of the Witch Lord 2) has one free square inside its Door In: the heroes who do not fit
wait at the door, off the board, and enter one by one, each on its own turn (data/heroquest/NOTES.md, provisional).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import i18n
from rules.base import IllegalAction
from rules.heroquest import GAME, sight
from rules.heroquest.state import Ctx, HQState, as_square, sq_token
from rules.heroquest.upload import import_quest, load_quest
from rules.rng import Rng
from rules.text import msg
from tests.heroquest.hq_helpers import act, as_setup, board_view, fresh, hero, kinds, new, placed
from tests.reference import COLD_HALLS
from tools import quest as quest_tool
from tools.hq_heroes import hero_action

TEAM = "barbarian,dwarf,elf"


def cold_halls(path: Path = COLD_HALLS[0], team: str = TEAM, seed: int = 5) -> HQState:
    quest = load_quest(path.read_text(encoding="utf-8"), path.name)
    return GAME.new_with_quest(quest, GAME.resolve_options({"heroes": team}), len(team.split(",")) + 1, seed)


def past_spells(s: HQState) -> HQState:
    """The spell picks done (the Elf takes the first group offered)."""
    while s.d["picks"]:
        seat = min(GAME.to_act(s))
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0].action).state
    return s


def on_turn(s: HQState) -> str:
    """The uid of the hero whose turn it is."""
    h = s.current_hero()
    assert h is not None, "not a hero's turn"
    return h["uid"]


def entry(s: HQState) -> tuple[int, int]:
    return s.quest_obj.start[0]


def clear_the_entry(s: HQState) -> HQState:
    """The Barbarian (first on the board, on the entry square) opens the door ahead and walks on, then ends."""
    seat = hero(s, "barbarian")["seat"]
    legal = GAME.legal_actions(s, seat)
    doors = [la.action for la in legal if la.action.kind == "open_door"]
    if doors:
        s = GAME.apply(s, seat, doors[0]).state
        legal = GAME.legal_actions(s, seat)
    walks = [la.action for la in legal if la.action.kind == "move"]
    assert walks, "the Barbarian cannot leave the entry square"
    s = GAME.apply(s, seat, walks[0]).state
    assert placed(hero(s, "barbarian")) != entry(s)
    return act(s, seat, "end_turn")


@pytest.mark.parametrize("path", COLD_HALLS, ids=["EU", "US"])
@pytest.mark.parametrize("team", [TEAM, "barbarian,dwarf,elf,wizard"])
def test_the_cold_halls_starts_with_more_heroes_than_squares(path: Path, team: str) -> None:
    s = cold_halls(path, team)
    assert len(s.quest_obj.start) == 1
    first, *rest = s.heroes
    assert as_square(first["sq"]) == entry(s) and not first.get("outside")
    assert rest and all(h["sq"] is None and h.get("outside") for h in rest)
    assert GAME.check_invariants(s) == []


def test_heroes_enter_one_by_one_on_their_own_turn() -> None:
    s = clear_the_entry(past_spells(cold_halls()))
    dwarf = hero(s, "dwarf")
    assert on_turn(s) == dwarf["uid"]
    assert kinds(s, dwarf["seat"]) == {"enter", "end_turn"}
    moves = s.d["turn"]["moves"]
    s = act(s, dwarf["seat"], "enter", to=sq_token(entry(s)))
    dwarf = hero(s, "dwarf")
    assert placed(dwarf) == entry(s) and not dwarf.get("outside")
    # the whole move is still to come, counted from the square inside the door
    assert s.d["turn"]["moves"] == moves and "move" in kinds(s, dwarf["seat"])
    assert hero(s, "elf").get("outside")
    walks = [la.action for la in GAME.legal_actions(s, dwarf["seat"]) if la.action.kind == "move"]
    s = GAME.apply(s, dwarf["seat"], walks[-1]).state
    s = act(s, dwarf["seat"], "end_turn")
    elf = hero(s, "elf")
    assert on_turn(s) == elf["uid"]
    s = act(s, elf["seat"], "enter", to=sq_token(entry(s)))
    assert placed(hero(s, "elf")) == entry(s) and s.outside_heroes() == []
    assert GAME.check_invariants(s) == []


def test_an_occupied_entry_square_blocks_entering_this_turn() -> None:
    s = past_spells(cold_halls())
    barbarian = hero(s, "barbarian")
    s = act(s, barbarian["seat"], "end_turn")  # stays on the square inside the door
    dwarf = hero(s, "dwarf")
    assert kinds(s, dwarf["seat"]) == {"end_turn"}
    with pytest.raises(IllegalAction) as refused:
        act(s, dwarf["seat"], "enter", to=sq_token(entry(s)))
    assert refused.value.reason.key == "hq.err.entry_taken"
    assert i18n.t(refused.value.reason, "en").startswith("The square inside the Door In is taken: Dwarf cannot")
    assert i18n.t(refused.value.reason, "es").startswith("La casilla de dentro de la Puerta de entrada está ocupada")
    two = i18n.t(msg("hq.err.entry_taken", hero="Elf", count=2), "en")
    assert two.startswith("All 2 squares inside the Door In are taken")
    for kind, args in (("move", {"to": sq_token(entry(s))}), ("search_treasure", {}), ("drink", {"item": "x"})):
        with pytest.raises(IllegalAction) as refused:
            act(s, dwarf["seat"], kind, **args)
        assert refused.value.reason.key == "hq.err.outside"
    assert GAME.why_illegal(s, dwarf["seat"], GAME.legal_actions(s, dwarf["seat"])[0].action) is None
    s = act(s, dwarf["seat"], "end_turn")  # passing is all it can do
    assert hero(s, "dwarf").get("outside")
    assert on_turn(s) == "hero_elf" and kinds(s, hero(s, "elf")["seat"]) == {"end_turn"}


def test_a_waiting_hero_is_on_no_board_and_cannot_be_attacked() -> None:
    s = past_spells(cold_halls())
    s = act(s, hero(s, "barbarian")["seat"], "end_turn")
    s = act(s, hero(s, "dwarf")["seat"], "end_turn")
    s = act(s, hero(s, "elf")["seat"], "end_turn")
    assert s.d["turn"]["who"] == "gm"
    # a monster the heroes have seen stands next to the square inside the door, as close as one can come
    r, c = entry(s)
    beside = next(q for q in ((r, c + 1), (r - 1, c), (r + 1, c)) if q not in s.blocked_squares())
    next(iter(s.monsters.values()))["sq"] = list(beside)
    for o in s.objects.values():  # the door ahead stands open
        if o["kind"] == "door" and sorted(as_square(q) for q in o["between"] or []) == sorted([entry(s), beside]):
            o["open"] = True
    ctx = Ctx(s)
    sight.refresh(ctx)  # the Barbarian sees it
    ctx.finish()
    s = fresh(s)
    assert [m["revealed"] for m in s.monsters.values() if as_square(m["sq"]) == beside] == [True]
    for seat in (None, 0, 1, 2, 3):
        view = board_view(s, seat)
        waiting = [h for h in view["heroes"] if h["outside"]]
        assert {h["uid"] for h in waiting} == {"hero_dwarf", "hero_elf"}
        assert all(h["square"] is None for h in waiting)
    targets = {la.action.get("target") for la in GAME.legal_actions(s, 0) if la.action.kind == "gm_attack"}
    assert targets == {"hero_barbarian"}
    uid = next(m["uid"] for m in s.monsters.values() if as_square(m["sq"]) == beside)
    act(s, 0, "gm_attack", monster=uid, target="hero_barbarian")  # the one on the board can be
    for target in ("hero_dwarf", "hero_elf"):
        with pytest.raises(IllegalAction):
            act(s, 0, "gm_attack", monster=uid, target=target)
    body = {h["uid"]: h["body"] for h in s.heroes}
    for level in ("easy", "normal", "hard"):
        after = act(s, 0, "gm_autoplay", level=level)
        assert {h["uid"]: h["body"] for h in after.heroes if h.get("outside")} == {
            "hero_dwarf": body["hero_dwarf"], "hero_elf": body["hero_elf"]}
        assert GAME.check_invariants(after) == []


def test_the_heroes_left_waiting_keep_the_quest_going() -> None:
    """The only hero on the board dies: the others are still to come in, so the quest goes on."""
    s = past_spells(cold_halls())
    barbarian = hero(s, "barbarian")
    seat = barbarian["seat"]
    with pytest.raises(IllegalAction):  # the game master's tools do not reach a hero outside either
        act(s, 0, "gm_adjust", uid="hero_dwarf", stat="body", delta=-1)
    s = act(s, 0, "gm_adjust", uid=barbarian["uid"], stat="body", delta=-barbarian["body"])
    if s.d["pending"]:
        s = act(s, seat, "accept_death")
    assert hero(s, "barbarian")["dead"] and s.d["over"] is None and not s.d.get("verdict")
    assert len(s.outside_heroes()) == 2 and GAME.check_invariants(s) == []
    dwarf = hero(s, "dwarf")
    assert on_turn(s) == dwarf["uid"]
    assert kinds(s, dwarf["seat"]) == {"enter", "end_turn"}


def test_what_the_players_read_says_waiting_at_the_door_in() -> None:
    from cogs.heroquest import _hero_line
    from renderers.heroquest import _equipment, render

    s = past_spells(cold_halls())
    for lang, words in (("en", "waiting at the Door In"), ("es", "esperando en la Puerta de entrada")):
        for seat in (0, 1):
            view = board_view(s, seat)
            dwarf = next(h for h in view["heroes"] if h["uid"] == "hero_dwarf")
            # the bot's hero list, and the hero's card on the picture (under its name, before its equipment)
            assert words in _hero_line(dwarf, lang) and words.lower() in _equipment(dwarf, lang).lower()
            assert render(dict(view), lang).startswith(b"\x89PNG")
        barbarian = next(h for h in board_view(s, 1)["heroes"] if h["uid"] == "hero_barbarian")
        assert words not in _hero_line(barbarian, lang) and words.lower() not in _equipment(barbarian, lang).lower()


def test_a_stored_game_without_the_field_has_nobody_outside() -> None:
    """States written before the Door In ruling have no "outside" field: they load and play unchanged."""
    s = new(heroes="barbarian,dwarf")
    stored = GAME.to_json(s)
    assert all("outside" not in h for h in s.heroes)
    loaded = GAME.from_json(json.loads(json.dumps(stored)))
    assert GAME.to_json(loaded) == stored
    assert loaded.outside_heroes() == []
    assert all(h["outside"] is False for h in board_view(loaded, 1)["heroes"])
    # a hero off the board for another reason (gone by the stairs) is not waiting to enter
    gone = fresh(s)
    gone.heroes[1]["sq"] = None
    gone.heroes[1]["left"] = True
    assert gone.outside_heroes() == [] and not board_view(gone, 0)["heroes"][1]["outside"]


def test_the_checker_says_the_heroes_enter_one_by_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert quest_tool.main(["check", *(str(p) for p in COLD_HALLS)]) == 0
    for line in capsys.readouterr().out.splitlines():
        report = json.loads(line)
        assert report["errors"] == [] and report["heroes"] == 4
        assert not any("cannot start" in w for w in report["warnings"])
        assert any("enter one by one" in w for w in report["info"])
    # the game master's line, in both languages and with its plural
    said = [w for w in import_quest(COLD_HALLS[0].read_bytes(), COLD_HALLS[0].name).warnings
            if w.key == "hq.imp.info.enter_one_by_one"]
    assert len(said) == 1
    assert "Only 1 free square is inside" in i18n.t(said[0], "en")
    assert "solo hay 1 casilla libre" in i18n.t(said[0], "es")
    two = msg("hq.imp.info.enter_one_by_one", count=2)
    assert "Only 2 free squares are" in i18n.t(two, "en") and "2 casillas libres" in i18n.t(two, "es")


@pytest.mark.parametrize("path", COLD_HALLS, ids=["EU", "US"])
def test_random_playouts_of_the_cold_halls_with_three_heroes(path: Path) -> None:
    """Random heroes and game master, and the scripted heroes, over a few seeds: no error, no broken
    invariant, and the heroes waiting outside do come in."""
    entered = actions = 0
    for seed in range(3):
        s = cold_halls(path, seed=seed)
        rng = Rng.from_seed(seed)
        for _ in range(400):
            if GAME.outcome(s) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(s)))
            legal = [la for la in GAME.legal_actions(s, seat) if la.action.kind != "gm_end_quest"]
            action = hero_action(GAME, s, seat, rng) if seed == 0 and seat else rng.choice(legal).action
            step = GAME.apply(s, seat, action)
            s = step.state
            actions += 1
            entered += sum(1 for e in step.events if e.msg.key == "hq.ev.enters")
            assert GAME.check_invariants(s) == []
            for viewer in (None, 0, 1):
                GAME.view(s, viewer)
    assert actions > 300 and entered >= 3


def test_the_game_master_reads_the_ruling_as_information_while_a_hero_waits() -> None:
    from cogs.heroquest import import_warnings_text

    path = COLD_HALLS[0]
    setup = GAME.setup_from_upload(path.read_bytes(), path.name)
    s = past_spells(GAME.new_with_setup(setup, GAME.resolve_options({"heroes": TEAM}), 4, 5))
    for lang, words in (("en", "enter one by one"), ("es", "entran uno a uno")):
        lines = import_warnings_text(board_view(s, 0), lang)
        info = [line for line in lines if words in line]
        assert len(info) == 1 and info[0].startswith("ℹ️")
        warned = [w for w in as_setup(setup)["warnings"] if not w["key"].startswith("hq.imp.info.")]
        header = i18n.t(msg("hq.imp.gm.header", count=len(warned)), lang)
        assert header in lines and lines.index(info[0]) < lines.index(header)  # not counted among the warnings
    everyone_in = fresh(s)
    for h in everyone_in.heroes:
        h.pop("outside", None)
        h["sq"] = h["sq"] or [0, 0]  # where does not matter to the text: nobody waits any more
    assert not any("enter one by one" in line for line in import_warnings_text(board_view(everyone_in, 0), "en"))


def test_a_game_stored_by_an_older_release_loads_unchanged() -> None:
    """The HeroQuest game in the schema-9 upgrade fixture (written before this ruling): nobody is outside, it
    plays on, and writing it back changes nothing."""
    import sqlite3
    import zlib

    from rules.heroquest.quest import builtin_quests
    from tests.reference import ROOT

    db = sqlite3.connect(ROOT / "tests" / "fixtures" / "upgrade" / "schema9" / "games.sqlite3")
    try:
        (blob,) = db.execute("SELECT state FROM snapshots s JOIN games g ON g.id = s.game_id "
                             "WHERE g.game_type = 'heroquest' ORDER BY s.version DESC LIMIT 1").fetchone()
    finally:
        db.close()
    stored = json.loads(zlib.decompress(blob))
    assert all("outside" not in h for h in stored["heroes"])
    quest = builtin_quests()[stored["opts"]["quest"]].to_json()
    s = GAME.from_json({"quest": quest, **stored})
    assert s.outside_heroes() == [] and GAME.check_invariants(s) == []
    assert {k: v for k, v in GAME.to_json(s).items() if k != "quest"} == stored
    for seat in (None, *range(s.seats)):
        assert not any(h["outside"] for h in board_view(s, seat)["heroes"])
    seat = min(GAME.to_act(s))
    assert GAME.legal_actions(s, seat)

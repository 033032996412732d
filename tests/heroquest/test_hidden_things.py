"""Things the heroes have not seen stay out of every public text, view and image (examples; see
test_twin_quests.py for the property over random play)."""

from __future__ import annotations

import json

from renderers.heroquest import render
from rules.heroquest import GAME
from rules.heroquest.quest import PlacedJson
from rules.heroquest.state import HQState
from tests.heroquest.hq_helpers import act, board_view, dice, door, monster, new, step

BEHIND_DOOR = [door("door_1", (2, 4), (2, 5)), monster("f_1", "fimir", (2, 7))]


def public(s: HQState) -> str:
    return json.dumps([GAME.view(s, seat) for seat in (None, 1)], sort_keys=True)


def test_adjusting_a_hidden_monster_tells_only_the_game_master() -> None:
    s = new(BEHIND_DOOR)
    before = public(s)
    hidden = next(iter(s.monsters))
    r = step(s, 0, "gm_adjust", uid=hidden, stat="body", delta=-1)
    assert r.events and all(e.to == frozenset({0}) for e in r.events)
    assert public(r.state) == before
    r = step(r.state, 0, "gm_adjust", uid=hidden, stat="body", delta=-1)
    assert [e.msg.key for e in r.events] == ["hq.ev.monster_dies"] and r.events[0].to == frozenset({0})
    assert public(r.state) == before and not r.state.monsters
    r = step(s, 0, "gm_adjust", uid=hidden, stat="mind", delta=-1)
    assert all(e.to == frozenset({0}) for e in r.events) and public(r.state) == before


def test_a_trapped_chest_looks_like_a_plain_chest_until_its_trap_is_found() -> None:
    def chest(ref: str) -> PlacedJson:
        return {"uid": f"{ref}_1", "kind": "furniture", "ref": ref, "squares": [[3, 4]]}

    plain, trapped = new([chest("chest")]), new([chest("trapped_chest")])
    for seat in (None, 1):
        a, b = GAME.view(plain, seat), GAME.view(trapped, seat)
        assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
        assert "trapped" not in json.dumps(b)
        assert render(a, "en") == render(b, "en") and render(a, "es") == render(b, "es")
    assert GAME.legal_actions(plain, 1) == GAME.legal_actions(trapped, 1)
    # once found, a found-trap token lies under the chest; the chest is still drawn as a chest
    found = act(trapped, 1, "search_traps")
    shown = board_view(found, 1)["objects"]
    assert {(o["kind"], o["ref"]) for o in shown if o["squares"] == [[3, 4]]} == {("furniture", "chest"),
                                                                                  ("trap", "found_trap")}


def test_a_found_trap_does_not_say_what_it_is() -> None:
    s = new([{"uid": "pit_trap_1", "kind": "trap", "ref": "pit_trap", "squares": [[3, 3]]}])
    s = act(s, 1, "search_traps")
    text = json.dumps([GAME.view(s, 1), [la.action.token() for la in GAME.legal_actions(s, 1)]])
    assert "found_trap" in text and "pit" not in text


def test_monsters_are_numbered_in_the_order_the_heroes_meet_them() -> None:
    # the quest's own ids (goblin_7 here) never reach the heroes: the first goblin they see is Goblin 1
    s = new([door("door_1", (2, 4), (2, 5)), monster("goblin_7", "goblin", (2, 5)), monster("goblin_3", "goblin",
                                                                                              (1, 20))])
    s = act(s, 1, "move", to="E3")
    s = act(s, 1, "open_door", door="door_1")
    seen = board_view(s, 1)["monsters"]
    assert [(m["uid"], m["name"]["en"]) for m in seen] == [("goblin_1", "Goblin 1")]
    assert "goblin_7" not in public(s) and "goblin_3" not in public(s)
    with dice("wshield", "wshield", "wshield"):
        r = step(s, 1, "attack", target="goblin_1")
    assert any("Goblin 1" in json.dumps(e.msg.to_json()) for e in r.events)

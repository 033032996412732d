"""Property: nothing the players or the channel get depends on what they have not found.

Each reference quest is played twice in lockstep with the same seed and the same random moves: once
as written, once with some hidden things changed (plain chests trapped and trapped ones plain, hidden
traps, unseen monsters or secret doors removed, or extra game-master tools used on unseen things in
one game only). Until the heroes could know of the difference (the changed trap is found or sprung,
the changed square comes into sight, the secret door is found), every public and player view, every
event they receive, the undo flag, their legal actions and refusal reasons, and the public and player
images (with the on-turn seat's reach marks) must be identical, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from renderers.heroquest import render
from rules.base import Action, RuleError, Step
from rules.heroquest import GAME, board
from rules.heroquest.quest import PlacedJson, Quest
from rules.heroquest.state import GM, HQState, as_square, sq_token
from rules.heroquest.upload import load_quest
from rules.rng import Rng
from tests.reference import HQ_QUESTS

REFERENCE = HQ_QUESTS
FILES = sorted(REFERENCE.glob("*.xml"))
SEATS = 3
STEPS = 160
IMAGE_EVERY = 20
PROBE_EVERY = 4
VARIANTS = ("chests", "traps", "monsters", "secret_doors", "gm_tools")

Known = Callable[[HQState, HQState], bool]


def _quest(path: Path) -> Quest:
    return load_quest(path.read_text(encoding="utf-8"), path.name)


def _start(quest: Quest, seed: int) -> HQState:
    return GAME.new_with_quest(quest, GAME.resolve_options({}), SEATS, seed)


def _edited(quest: Quest, edit: Callable[[list[PlacedJson]], list[PlacedJson]]) -> Quest:
    data = quest.to_json()
    data["objects"] = edit([o.copy() for o in data["objects"]])
    return Quest.from_json(data)


def _traps_known(s: HQState, squares: set[tuple[int, int]]) -> bool:
    return any(o["kind"] == "trap" and (o["found"] or o["sprung"] or o.get("disarmed"))
               and any(as_square(q) in squares for q in o["squares"]) for o in s.objects.values())


def twin(quest: Quest, variant: str, seed: int) -> tuple[HQState, HQState, Known, set[tuple[int, int]]]:
    """The two games, a test of whether the heroes may now know of the difference, and its squares."""
    a = _start(quest, seed)
    objects = quest.to_json()["objects"]
    if variant == "chests":
        flip = {"chest": "trapped_chest", "trapped_chest": "chest"}
        spots = {as_square(o["squares"][0]) for o in objects if o["kind"] == "furniture" and o["ref"] in flip}
        b_quest = _edited(quest, lambda objs: [{**o, "ref": flip[o["ref"]]} if o["kind"] == "furniture"
                                               and o["ref"] in flip else o for o in objs])
        return a, _start(b_quest, seed), lambda x, y: _traps_known(x, spots) or _traps_known(y, spots), spots
    if variant == "traps":
        spots = {as_square(q) for o in objects if o["kind"] == "trap" for q in o["squares"]}
        b_quest = _edited(quest, lambda objs: [o for o in objs if o["kind"] != "trap"])
        return a, _start(b_quest, seed), lambda x, y: _traps_known(x, spots), spots
    if variant == "monsters":
        hidden = {o["uid"] for o in objects if o["kind"] == "monster" and not a.is_revealed(as_square(o["squares"][0]))}
        spots = {as_square(o["squares"][0]) for o in objects if o["uid"] in hidden}
        b_quest = _edited(quest, lambda objs: [o for o in objs if o["uid"] not in hidden])
        return a, _start(b_quest, seed), lambda x, y: any(x.is_revealed(q) for q in spots), spots
    if variant == "secret_doors":
        b_quest = _edited(quest, lambda objs: [o for o in objs if o["kind"] != "secret_door"])
        spots = {as_square(q) for o in objects if o["kind"] == "secret_door" for q in o["between"]}
        return a, _start(b_quest, seed), lambda x, y: any(
            o["kind"] == "secret_door" and o["found"] for o in x.objects.values()), spots
    assert variant == "gm_tools"
    touched: set[tuple[int, int]] = set()
    return a, _start(quest, seed), lambda x, y: any(x.is_revealed(q) for q in touched) or _traps_known(x, touched), \
        touched


def hidden_gm_tool(s: HQState, rng: Rng, touched: set[tuple[int, int]]) -> Action | None:
    """A game-master tool on something unseen: adjust or remove a hidden monster, place things out of sight."""
    hidden = sorted(m["uid"] for m in s.monsters.values() if not m["revealed"])
    dark = [q for q in board.all_squares() if not s.is_revealed(q) and q not in s.dark
            and q not in s.blocked_squares() and q not in s.figure_at()]
    pick = rng.below(5)
    if pick == 0 and hidden:
        uid = rng.choice(hidden)
        touched.add(as_square(s.monsters[uid]["sq"]))
        return Action.of("gm_adjust", uid=uid, stat=rng.choice(["body", "mind"]), delta=rng.choice([-1, 1]))
    if pick == 1 and hidden:
        uid = rng.choice(hidden)
        touched.add(as_square(s.monsters[uid]["sq"]))
        return Action.of("gm_remove", uid=uid)
    if not dark:
        return None
    at = rng.choice(dark)
    touched.add(at)
    if pick == 2:
        return Action.of("gm_place", ref=rng.choice(["orc", "goblin", "fimir"]), at=sq_token(at))
    if pick == 3:
        return Action.of("gm_place_object", type="trap", ref="pit_trap", at=sq_token(at))
    return Action.of("gm_place_object", type="furniture", ref="chest", at=sq_token(at))


def probes(a: HQState, b: HQState, spots: set[tuple[int, int]], rng: Rng) -> list[Action]:
    """Actions a curious player might type about the hidden things (their refusals must not differ)."""
    uids = sorted({o["uid"] for s in (a, b) for o in s.objects.values()}
                  | {m["uid"] for s in (a, b) for m in s.monsters.values()})
    out = [Action.of(k) for k in ("search_treasure", "search_traps", "search_secret")]
    traps = [u for u in uids if u.startswith("trap-")]
    hidden = [u for u in uids if u.startswith("hidden-")]
    doors = [u for u in uids if "door" in u]
    for pool, make in ((traps, lambda u: Action.of("disarm", trap=u)),
                       (hidden, lambda u: Action.of("attack", target=u)),
                       (doors, lambda u: Action.of("open_door", door=u))):
        if pool:
            out.append(make(rng.choice(pool)))
    if spots:
        q = rng.choice(sorted(spots))
        out += [Action.of("move", to=sq_token(q)), Action.of("jump", to=sq_token(q))]
    return out


def public(s: HQState, step: Step | None) -> str:
    views = [GAME.view(s, seat) for seat in (None, *range(1, SEATS))]
    heard = [] if step is None else [[e.msg.to_json() for e in step.events if e.visible_to(seat)]
                                    for seat in (None, *range(1, SEATS))]
    legal = [[(la.action.token(), la.label.to_json()) for la in GAME.legal_actions(s, seat)]
             for seat in range(1, SEATS)]
    return json.dumps({"views": views, "heard": heard, "legal": legal, "to_act": sorted(GAME.to_act(s)),
                       "undoable": None if step is None else step.undoable}, sort_keys=True, default=str)


def refusal(s: HQState, seat: int, action: Action) -> str:
    try:
        GAME.apply(s, seat, action)
    except RuleError as exc:
        why = GAME.why_illegal(s, seat, action)
        return json.dumps([type(exc).__name__, exc.reason.to_json(), why and why.to_json()], sort_keys=True)
    return "accepted"


def images(s: HQState) -> list[bytes]:
    """The channel's board and each player's own (the seat on turn's shows where its hero can move)."""
    return [render(GAME.view(s, seat), lang) for seat, lang in ((None, "en"), (1, "es"), (2, "en"))]


def lockstep(path: Path, variant: str, seed: int) -> tuple[int, list[str]]:
    a, b, known, spots = twin(_quest(path), variant, seed)
    rng = Rng.from_seed(seed * 7919 + VARIANTS.index(variant))
    problems: list[str] = []
    if known(a, b):
        return 0, []
    assert public(a, None) == public(b, None), "the twins differ before anyone moved"
    assert images(a) == images(b)
    n = 0
    for n in range(1, STEPS + 1):
        if GAME.outcome(a) is not None:
            break
        if variant == "gm_tools" and rng.below(3) == 0:
            tool = hidden_gm_tool(a, rng, spots)
            if tool is not None and not a.d.get("verdict"):
                r = GAME.apply(a, GM, tool)
                assert all(e.to == frozenset({GM}) for e in r.events), (tool, r.events)
                a = r.state
        seat = min(GAME.to_act(a))
        every = [la.action for la in GAME.legal_actions(a, seat)]
        legal = [x for x in every if x.kind != "gm_end_quest"] or every
        moving = [x for x in legal if x.kind != "end_turn"]
        action = rng.choice(moving if moving and rng.below(5) else legal)
        if seat != GM and n % PROBE_EVERY == 1:
            for probe in probes(a, b, spots, rng):
                if refusal(a, seat, probe) != refusal(b, seat, probe):
                    problems.append(f"step {n}: {probe.token()} answered differently")
        ra = GAME.apply(a, seat, action)
        try:
            rb = GAME.apply(b, seat, action)
        except RuleError as exc:
            problems.append(f"step {n}: {action.token()} refused only in the twin ({exc.reason.key})")
            break
        a, b = ra.state, rb.state
        if known(a, b):
            break
        if public(a, ra) != public(b, rb):
            problems.append(f"step {n}: {action.token()} shows a difference: {_first_difference(a, b, ra, rb)}")
            break
        if n % IMAGE_EVERY == 0 and images(a) != images(b):
            problems.append(f"step {n}: the images differ")
            break
    if not problems and not known(a, b) and images(a) != images(b):
        problems.append("the final images differ")
    return n, problems


def _first_difference(a: HQState, b: HQState, ra: Step, rb: Step) -> str:
    left, right = json.loads(public(a, ra)), json.loads(public(b, rb))
    for key in left:
        if left[key] != right[key]:
            return f"{key}: {str(left[key])[:300]} != {str(right[key])[:300]}"
    return "?"


CASES = [(p, VARIANTS[(i + k) % len(VARIANTS)]) for i, p in enumerate(FILES) for k in (0, 2)]


@pytest.mark.parametrize(("path", "variant"), CASES, ids=[f"{p.stem[7:20]}-{v}" for p, v in CASES])
def test_twin_quests_look_the_same_to_the_players(path: Path, variant: str) -> None:
    steps, problems = lockstep(path, variant, seed=len(path.name) + len(variant))
    assert problems == []
    assert steps > 0, "the twins were compared"



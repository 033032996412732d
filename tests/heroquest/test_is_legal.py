"""`is_legal` agrees with `apply` without running it: every action `apply` takes is legal, free-form tools too."""

from __future__ import annotations

import pytest

from rules.base import Action, RuleError
from rules.heroquest import GAME, board, catalog
from rules.heroquest.quest import builtin_quests
from rules.heroquest.state import GM, HQState, as_square, sq_token
from rules.rng import Rng
from tests.heroquest.hq_helpers import monster, new, placed

KIT = ["rune_inflict_damage", "rune_heal", "rune_distance", "rune_bonus", "scroll_sleep", "scroll_heal_body",
       "healing", "heroic_brew", "toolkit", "dagger"]


def accepted(s: HQState, seat: int, a: Action) -> bool:
    try:
        GAME.apply(s, seat, a)
    except RuleError:
        return False
    return True


def _squares_near(rng: Rng, s: HQState, n: int) -> list[tuple[int, int]]:
    figures = [placed(h) for h in s.on_board_heroes()] + [as_square(m["sq"]) for m in s.monsters.values()]
    out = []
    for _ in range(n):
        r, c = rng.choice(figures) if figures else (0, 0)
        sq = (r + rng.randint(-3, 3), c + rng.randint(-3, 3))
        if board.in_board(sq):
            out.append(sq)
    return out


def candidates(s: HQState, rng: Rng) -> list[Action]:
    """Listed actions spelled otherwise, and actions of every kind with arguments taken from the state."""
    heroes = [h["uid"] for h in s.heroes] + ["nobody"]
    monsters = [*sorted(s.monsters), "nothing"]
    objects = sorted(s.objects)
    squares = _squares_near(rng, s, 6)
    items = [*sorted({i for h in s.heroes for i in h["items"]}), "healing", "Poción curativa", "nonsense"]
    spells = [*sorted({x for h in s.heroes for x in h["spells"]}), "c_sleep", "c_fear", "c_ball_of_flame"]
    out: list[Action] = []
    for seat in range(s.seats):
        for la in GAME.legal_actions(s, seat):
            a = la.action
            args = a.arg_dict
            out.append(Action.of(a.kind, **args, extra="x"))
            if a.kind == "attack":
                out.append(Action.of("attack", target=args["target"], fists=not args.get("fists", False)))
                out.append(Action.of("attack", target=args["target"], fists=False))
            if a.kind == "rune" and args.get("power") == 0:
                out.append(Action.of("rune", rune=args["rune"], target=args["target"]))
            if "to" in args and isinstance(args["to"], str):
                out.append(Action.of(a.kind, **{**args, "to": "0" + args["to"]}))
    for sq in squares:
        t = sq_token(sq)
        out += [Action.of("move", to=t), Action.of("jump", to=t), Action.of("rock_step", to=t),
                Action.of("gm_reveal", at=t), Action.of("gm_place", ref=rng.choice(["orc", "goblin", "troll"]), at=t),
                Action.of("gm_place_object", type=rng.choice(["furniture", "trap", "door"]),
                          ref=rng.choice(["table", "pit", "bad ref"]), at=t)]
        out += [Action.of("gm_move", monster=m, to=t) for m in monsters[:3]]
    for uid in monsters + heroes[:2] + objects[:6]:
        out += [Action.of("gm_remove", uid=uid),
                Action.of("gm_adjust", uid=uid, stat=rng.choice(["body", "mind", "luck"]),
                          delta=rng.choice([-1, 1, 2, 0])),
                Action.of("gm_spell", monster=uid, spell=rng.choice(spells)),
                Action.of("attack", target=uid), Action.of("attack", target=uid, fists=True),
                Action.of("gm_cast", caster=uid, spell=rng.choice(spells), target=rng.choice(heroes)),
                Action.of("gm_cast", caster=uid, spell=rng.choice(spells))]
        out += [Action.of("gm_attack", monster=uid, target=h) for h in heroes[:2]]
        out += [Action.of("cast", spell=x, target=uid) for x in spells[:3]]
        out += [Action.of("rune", rune=r, target=uid, power=p) for r in ("inflict_damage", "heal") for p in (0, 1)]
        out += [Action.of("read_scroll", item=i, target=uid) for i in items[:3]]
    for h in heroes:
        out += [Action.of("gm_award", hero=h, item=rng.choice(items)),
                Action.of("gm_award", hero=h, gold=rng.choice([0, 5, -1])),
                Action.of("give", item=rng.choice(items), to=h),
                Action.of("take", item=rng.choice(items), **{"from": h}),
                Action.of("swap", item=rng.choice(items), want=rng.choice(items), to=h)]
    for uid in objects:
        out += [Action.of("open_door", door=uid), Action.of("disarm", trap=uid)]
    for i in items:
        out += [Action.of("drink", item=i), Action.of("equip", item=i)]
    for note in [*sorted(s.quest_obj.notes), "ZZ"]:
        out.append(Action.of("gm_note", note=note))
    out += [Action.of(k) for k in ("end_turn", "run", "leave", "recover", "search_treasure", "search_traps",
                                   "search_secret", "gm_autoplay", "accept_death", "accept_trade", "decline_trade")]
    out += [Action.of("unequip", slot=x) for x in ("weapon", "shield", "helmet", "armour", "ring")]
    out += [Action.of("pick_up", index=i) for i in (0, 1)] + [Action.of("pick_up", index="0")]
    out += [Action.of("choose_spells", group=g) for g in (*catalog.spells()["order"], "chaos")]
    out += [Action.of("gm_end_quest", result=r) for r in ("win", "lose", "draw")]
    return out


def check_state(s: HQState, rng: Rng, sample: int) -> int:
    pool = candidates(s, rng)
    checked = 0
    for a in [pool[rng.randint(0, len(pool) - 1)] for _ in range(sample)]:
        for seat in range(s.seats):
            legal = GAME.is_legal(s, seat, a)
            ok = accepted(s, seat, a)
            listed = any(la.action == a for la in GAME.legal_actions(s, seat))
            assert legal == ok or (legal and listed), (seat, a.token(), legal, ok)
            checked += 1
    return checked


def _equip(s: HQState) -> HQState:
    """Every hero carries runes (and knows how to throw them), scrolls, potions and a tool kit."""
    for h in s.heroes:
        h["items"] += KIT
        h.setdefault("skills", []).append("runic_knowledge")
    return s


def playout(s: HQState, seed: int, steps: int, sample: int) -> int:
    rng = Rng.from_seed(seed)
    checked = 0
    for i in range(steps):
        if GAME.outcome(s) is not None:
            break
        if i % 3 == 0:
            checked += check_state(s, rng, sample)
        seat = rng.choice(sorted(GAME.to_act(s)))
        legal = GAME.legal_actions(s, seat)
        if not legal:
            break
        # the game master's free tools too (monsters placed, things handed out), when it is not yet time to end
        tools = [a for a in candidates(s, rng)[-40:] if a.kind.startswith("gm_") and a.kind != "gm_end_quest"]
        if rng.randint(0, 9) == 0 and tools:
            a = rng.choice(tools)
            if GAME.is_legal(s, GM, a):
                s = GAME.apply(s, GM, a).state
                continue
        moves = [la.action for la in legal if la.action.kind != "gm_end_quest"] or [legal[0].action]
        s = GAME.apply(s, seat, rng.choice(moves)).state
    return checked


@pytest.mark.parametrize("qid", sorted(builtin_quests())[:3])
def test_is_legal_matches_apply_over_playouts(qid: str) -> None:
    opts = GAME.resolve_options({"quest": qid})
    s = _equip(GAME.new(opts, 3, 11))
    assert playout(s, 7, 150, 12) > 500


def test_is_legal_matches_apply_in_a_fight() -> None:
    s = _equip(new([monster("orc_1", "orc", (2, 3)), monster("gob_1", "goblin", (3, 3))],
                   heroes="barbarian,dwarf,elf,wizard", seats=3))
    assert playout(s, 3, 90, 12) > 300


def test_tools_and_spellings_the_list_does_not_show_are_legal() -> None:
    s = new([monster("orc_1", "orc", (2, 3))], heroes="barbarian,dwarf", seats=2, notes={"A": "Una nota"})
    hero = s.current_hero()
    assert hero is not None and GAME.is_legal(s, 1, Action.of("move", to="3-1"))
    for seat, a in [(GM, Action.of("gm_place", ref="goblin", at="3-4")), (GM, Action.of("gm_note", note="A")),
                    (GM, Action.of("gm_end_quest", result="lose")), (1, Action.of("end_turn", please="yes")),
                    (1, Action.of("move", to="03-1"))]:
        assert a not in [la.action for la in GAME.legal_actions(s, seat)]
        assert accepted(s, seat, a) and GAME.is_legal(s, seat, a), a.token()
    assert not GAME.is_legal(s, 1, Action.of("gm_place", ref="goblin", at="3-4"))
    assert not GAME.is_legal(s, GM, Action.of("gm_place", ref="goblin", at=sq_token(placed(hero))))


def test_autoplay_with_no_monster_to_play_is_legal() -> None:
    s = new(heroes="barbarian", seats=2)
    s = GAME.apply(s, 1, Action.of("end_turn")).state
    assert GAME.to_act(s) == {GM}
    assert "gm_autoplay" not in {la.action.kind for la in GAME.legal_actions(s, GM)}
    assert accepted(s, GM, Action.of("gm_autoplay")) and GAME.is_legal(s, GM, Action.of("gm_autoplay"))

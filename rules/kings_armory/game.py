"""The King's Armory as a `rules.base.Game`: state, phases, legality, views and invariants."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.base import (
    SYSTEM,
    Action,
    Decision,
    Event,
    Game,
    IllegalAction,
    LegalAction,
    OptionSpec,
    Outcome,
    Scalar,
    Step,
)
from rules.kings_armory import ai, data, enemy, shop
from rules.kings_armory import figures as fg
from rules.kings_armory import round as rnd
from rules.kings_armory import state as st
from rules.kings_armory.board import board
from rules.rng import Rng
from rules.text import Lit, Msg, msg

S = dict[str, Any]
BLOCK_SECONDS = 120
#: Public event lines kept for the board's short log.
LOG_LINES = 6


class KingsArmory(Game):
    id = "kings-armory"
    name_key = "ka.name"
    min_seats = 1
    max_seats = 7
    in_progress = True
    seats_per_player = 7  # one person may run several heroes (solo with three heroes, say)
    supports_ai = True

    def options(self) -> list[OptionSpec]:
        maps = tuple((k, msg("ka.opt.map." + k)) for k in data.maps())
        waves = (("5", msg("ka.opt.waves.5")), ("7", msg("ka.opt.waves.7")))
        arrival = (("full", msg("ka.opt.arrival.full")), ("delayed", msg("ka.opt.arrival.delayed")))
        return [OptionSpec("waves", msg("ka.opt.waves"), "5", choices=waves),
                OptionSpec("map", msg("ka.opt.map"), "long-road", choices=maps),
                OptionSpec("arrival", msg("ka.opt.arrival"), "full", choices=arrival)]

    # ---------------------------------------------------------------- state

    def new(self, options: Mapping[str, Scalar], seats: int, seed: int) -> S:
        rng = Rng.from_seed(seed)
        map_id = str(options.get("map", "long-road"))
        board(map_id)
        waves = int(str(options.get("waves", "5")))
        piles: dict[str, list[str]] = {str(lvl): [] for lvl in range(1, 6)}
        for key, mon in data.monsters().items():
            piles[str(mon["level"])] += [key] * mon["count"]
        for pile in piles.values():
            rng.shuffle(pile)
        coins = shop.coin_values()
        rng.shuffle(coins)
        card = data.wave_card()
        gate = card["gate_hp"]["base"] + card["gate_hp"]["per_player"] * seats
        return {"map": map_id, "waves": waves, "arrival": str(options.get("arrival", "full")), "n": seats,
                "phase": "pick", "result": None, "picker": 0, "wave": 1, "eturn": 0, "mc": -1,
                "gate": gate, "gate_max": gate, "gold": card["starting_gold"], "coins": coins, "saved": [],
                "piles": piles, "discard": {str(lvl): [] for lvl in range(1, 6)},
                "boss_pile": sorted(data.bosses()), "boss_dead": [], "boss_due": [], "boss_side": None,
                "towers": [], "tseq": 0, "free_towers": card["starting_towers"][str(seats)], "allies": [],
                "fallen": {}, "cseq": 0, "monsters": [], "mseq": 0, "arrive": 0, "later": 0, "extra": [],
                "act": None, "ask": None, "turn": -1, "active": None, "ready": [], "rng_state": rng.state}

    def seat_count(self, state: S) -> int:
        return int(state["n"])

    def to_json(self, state: S) -> dict[str, Any]:
        return dict(st.clone(state))

    def from_json(self, data_: Mapping[str, Any]) -> S:
        return dict(st.clone(dict(data_)))

    def copy_state(self, state: S) -> S:
        return dict(st.clone(state))

    # ---------------------------------------------------------------- whose turn

    def to_act(self, state: S) -> frozenset[int]:
        phase = state["phase"]
        if phase == "over":
            return frozenset()
        if phase == "pick":
            return frozenset({state["picker"]})
        if phase in ("setup", "between"):
            return frozenset(s for s in range(state["n"]) if s not in state["ready"])
        if state["ask"] is not None:
            return frozenset({st.ally(state, state["ask"]["ally"])["seat"]})
        if phase == "enemy":
            return frozenset({SYSTEM})
        return frozenset({state["turn"]})

    def turn_key(self, state: S) -> Any:
        return (state["phase"], state["wave"], state["eturn"], state["turn"], state["active"],
                state["ask"] and state["ask"]["ally"], tuple(state["ready"]))

    def system_action(self, state: S) -> Action:
        return Action.of("step")

    def decisions(self, state: S) -> list[Decision]:
        ask = state["ask"]
        if ask is None:
            return []
        a = st.ally(state, ask["ally"])
        mon = st.monster(state, ask["mid"])
        assert mon is not None
        prompt = msg("ka.ask.block", ally=fg.ally_name(a), monster=fg.monster_name(mon),
                     square=st.bd(state).label(st.msq(state, mon)))
        return [Decision(a["seat"], prompt, Action.of("pass"), private=False, seconds=BLOCK_SECONDS)]

    def is_legal(self, state: S, seat: int, action: Action) -> bool:
        if state["phase"] in ("setup", "between") and seat in self.to_act(state):
            return shop.is_legal(state, seat, action)
        return any(la.action == action for la in self._legal(state, seat, None))

    def legal_actions(self, state: S, seat: int) -> list[LegalAction]:
        return self._legal(state, seat, None)

    def _legal(self, state: S, seat: int, kind: str | None) -> list[LegalAction]:
        if seat == SYSTEM or seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "pick":
            return shop.pick_legal(state, seat)
        if phase in ("setup", "between"):
            return shop.legal(state, seat, kind)
        if state["ask"] is not None:
            ask = state["ask"]
            a = st.ally(state, ask["ally"])
            mon = st.monster(state, ask["mid"])
            assert mon is not None
            name, mname = fg.ally_name(a), fg.monster_name(mon)
            return [LegalAction(Action.of("block", ally=a["id"], monster=mon["id"]), msg("ka.act.block", ally=name,
                                                                                      monster=mname)),
                    LegalAction(Action.of("wait"), msg("ka.act.wait", monster=mname)),
                    LegalAction(Action.of("pass"), msg("ka.act.pass", monster=mname))]
        return rnd.legal(state, seat)

    def why_illegal(self, state: S, seat: int, action: Action) -> Msg | None:
        if seat != SYSTEM and seat not in self.to_act(state):
            return msg("ka.why.not_your_turn")
        if action.kind == "end" and state["phase"] == "allies" and state["active"]:
            a = st.ally(state, state["active"])
            if not rnd.may_stop(state, a):
                return msg("ka.why.must_attack", ally=fg.ally_name(a), count=rnd.minimum(state, a))
        if action.kind == "ready" and state["phase"] in ("setup", "between"):
            if state["phase"] == "setup" and state["free_towers"]:
                return msg("ka.why.towers_left", count=state["free_towers"])
            return msg("ka.why.not_housed")
        if action.kind == "enter":
            return msg("ka.why.tower_full")
        return None

    def apply(self, state: S, seat: int, action: Action) -> Step:
        if seat == SYSTEM:
            if SYSTEM not in self.to_act(state) or action != Action.of("step"):
                raise IllegalAction(msg("ka.why.not_your_turn"))
        elif not self.is_legal(state, seat, action):
            raise IllegalAction(self.why_illegal(state, seat, action) or msg("ka.why.illegal"))
        s = st.clone(state)
        rng = Rng(s["rng_state"])
        events: list[Event] = []
        undoable = True
        phase = s["phase"]
        if seat == SYSTEM:
            enemy.step(s, rng, events)
            undoable = False
        elif phase == "pick":
            shop.pick(s, events, seat, str(action["hero"]))
        elif phase in ("setup", "between"):
            shop.apply(s, rng, events, seat, action)
            undoable = action.kind != "ready" or bool(s["ready"])
        elif s["ask"] is not None:
            self._answer(s, events, action)
            undoable = False
        else:
            undoable = not rnd.apply(s, rng, events, seat, action)
        s["rng_state"] = rng.state
        s["log"] = [*s.get("log", []), *(e.msg.to_json() for e in events if e.to is None)][-LOG_LINES:]
        return Step(s, events, undoable=undoable)

    def ai_action(self, state: S, seat: int, rng: Rng) -> Action:
        return ai.choose(self.legal_actions(state, seat), state, seat, rng)

    def _answer(self, s: S, events: list[Event], action: Action) -> None:
        ask = s["ask"]
        s["ask"] = None
        act = s["act"]
        a = st.ally(s, ask["ally"])
        mon = st.monster(s, ask["mid"])
        assert mon is not None and act is not None
        if action.kind == "block":
            enemy.block(s, a, mon)
            events.append(Event(msg("ka.ev.block", ally=fg.ally_name(a), monster=fg.monster_name(mon))))
        elif action.kind == "pass":
            act["passed"].append(a["id"])

    def outcome(self, state: S) -> Outcome | None:
        if state["result"] is None:
            return None
        everyone = frozenset(range(state["n"]))
        if state["result"] == "won":
            return Outcome(everyone, msg("ka.end.won", wave=state["wave"]))
        return Outcome(frozenset(), msg(f"ka.end.lost_{state['result']}", wave=state["wave"]))

    # ---------------------------------------------------------------- table helpers

    def quick_actions(self, state: S) -> list[tuple[Msg, Action]] | None:
        wanted = ("end", "end_turn", "ready", "pass")
        out: list[tuple[Msg, Action]] = []
        for seat in sorted(self.to_act(state)):
            if seat == SYSTEM:
                continue
            for la in self.legal_actions(state, seat):
                if la.action.kind in wanted and (la.label, la.action) not in out:
                    out.append((la.label, la.action))
        return out[:8]

    def skip_action(self, state: S, seat: int) -> Action | None:
        legal = self.legal_actions(state, seat)
        for kind in ("pass", "ready", "end", "end_turn", "pick", "place", "attack"):
            for la in legal:
                if la.action.kind == kind:
                    return la.action
        return None

    def timeout_action(self, state: S, seat: int) -> Action | None:
        if state["ask"] is not None:
            return Action.of("pass")
        return self.skip_action(state, seat)

    # ---------------------------------------------------------------- views and checks

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """Everything on the table is public (§11); deck orders, piles and the RNG never leave the state."""
        b = st.bd(state)

        def ally_view(a: dict[str, Any]) -> dict[str, Any]:
            card = fg.ally_card(a)
            p = st.pos(a)
            return {"id": a["id"], "kind": a["kind"], "type": a["key"], "seat": a["seat"], "level": a["level"],
                    "name": _lit(fg.ally_name(a)), "hp": a["hp"], "max": card["max"], "ko": a["ko"],
                    "square": None if p is None else b.label(p), "house": a["house"], "inside": a["inside"],
                    "ap": a["ap"], "tank": [len(a["blocks"]), fg.tank(a)], "blocks": list(a["blocks"]),
                    "status": {k: v for k, v in a["st"].items() if v}, "done": a["done"]}

        def monster_view(m: dict[str, Any]) -> dict[str, Any]:
            card = fg.monster_card(m)
            return {"id": m["id"], "type": m["key"], "boss": m["boss"], "level": 0 if m["boss"] else card["level"],
                    "name": _lit(fg.monster_name(m)), "hp": m["hp"], "max": m["max"], "mv": fg.monster_mv(m),
                    "square": b.label(st.msq(state, m)), "lane": m["lane"], "flags": fg.flags(m),
                    "blocked_by": m["blocked_by"], "status": {k: v for k, v in m["st"].items() if v}}

        return {"game": self.id, "phase": state["phase"], "map": state["map"], "wave": state["wave"],
                "waves": state["waves"], "enemy_turn": state["eturn"], "gate": [state["gate"], state["gate_max"]],
                "gold": state["gold"], "turn": state["turn"], "active": state["active"], "picker": state["picker"],
                "mc": state["mc"], "ready": list(state["ready"]), "free_towers": state["free_towers"],
                "to_arrive": state["arrive"] + state["later"] + len(state["extra"]),
                "boss_turns": list(state["boss_due"]),
                "towers": [{"id": t["id"], "square": b.label((t["at"][0], t["at"][1])),
                            "used": st.slots_used(state, t["id"])} for t in state["towers"]],
                "allies": [ally_view(a) for a in state["allies"]],
                "monsters": [monster_view(m) for m in state["monsters"]],
                "asking": None if state["ask"] is None else dict(state["ask"]),
                "log": list(state.get("log", [])), "result": state["result"]}

    def check_invariants(self, state: S) -> list[str]:
        out = []
        if state["gold"] < 0:
            out.append(f"gold is negative: {state['gold']}")
        if not 0 <= state["gate"] <= state["gate_max"]:
            out.append(f"gate HP {state['gate']} out of bounds")
        squares: dict[Any, int] = {}
        for a in state["allies"]:
            card = fg.ally_card(a)
            if not 0 <= a["hp"] <= card["max"]:
                out.append(f"{a['id']} HP {a['hp']} outside 0..{card['max']}")
            if (a["hp"] == 0) != a["ko"] and a["kind"] == "hero":
                out.append(f"{a['id']} KO flag disagrees with HP")
            out += _token_problems(a["id"], a["st"])
            if len(a["blocks"]) > fg.tank(a):
                out.append(f"{a['id']} blocks more than its Tank")
            if a["pos"] is not None:
                key = tuple(a["pos"])
                squares[key] = squares.get(key, 0) + 1
        out += [f"two allies on {sq}" for sq, n in squares.items() if n > 1]
        layers: dict[Any, int] = {}
        for m in state["monsters"]:
            if not 0 < m["hp"] <= m["max"]:
                out.append(f"{m['id']} HP {m['hp']} outside 1..{m['max']}")
            out += _token_problems(m["id"], m["st"])
            if not m["boss"]:
                key = (tuple(st.msq(state, m)), fg.flying(m))
                layers[key] = layers.get(key, 0) + 1
        out += [f"two monsters of one kind on {k[0]}" for k, n in layers.items() if n > 1]
        board_count = sum(1 for m in state["monsters"] if not m["boss"])
        stock = sum(len(p) for p in state["piles"].values()) + sum(len(p) for p in state["discard"].values())
        if board_count + stock != 85:
            out.append(f"monster tokens: {board_count} on the board + {stock} in piles != 85")
        bosses = len(state["boss_pile"]) + len(state["boss_dead"]) + sum(1 for m in state["monsters"] if m["boss"])
        if bosses != len(data.bosses()):
            out.append(f"boss tokens: {bosses} != {len(data.bosses())}")
        for kind, champ in data.champions().items():
            if shop.alive_of(state, kind) + state["fallen"].get(kind, 0) > champ["limit"]:
                out.append(f"too many {kind} champions")
        for hid in st.houses(state):
            if state["phase"] != "pick" and st.slots_used(state, hid) > st.capacity(hid):
                out.append(f"house {hid} over capacity")
        return out


def _token_problems(fid: str, tokens: dict[str, int]) -> list[str]:
    out = [f"{fid} has {tokens[k]} {k}" for k, cap in fg.CAPS.items() if not 0 <= tokens[k] <= cap]
    if tokens["bleed"] + tokens["burn"] > 4 or tokens["slow"] < 0:
        out.append(f"{fid} tokens out of bounds")
    return out


def _lit(value: Lit) -> dict[str, str]:
    return {"es": value.es, "en": value.en}

"""The King's Armory as a `rules.base.Game`: state, phases, legality, views and invariants."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypedDict, cast

from rules.base import (
    SYSTEM,
    Action,
    Choice,
    Decision,
    Event,
    Game,
    IllegalAction,
    LegalAction,
    OptionSpec,
    Outcome,
    Scalar,
    Step,
    choices_from_legal,
)
from rules.kings_armory import ai, armory, coop, data, enemy, figures, maps, orders, queries, shop
from rules.kings_armory import round as allies_round
from rules.kings_armory.board import board
from rules.kings_armory.shapes import Ally, AllyView, MapFile, Monster, MonsterView, Names, State, View
from rules.rng import Rng
from rules.text import Lit, Msg, SeatRef, msg

BLOCK_SECONDS = 120
#: Seconds to answer the other out-of-turn questions (re-roll, a pause for cards, a trade) before the default.
ASK_SECONDS = 120
#: Public event lines kept for the board's short log.
LOG_LINES = 6


class KingsArmory(Game[State]):
    record_kind = "coop"
    id = "kings-armory"
    kind_names = "ka.bot.kind."
    name_key = "ka.name"
    min_seats = 1
    max_seats = 7
    seats_per_player = 7  # one person may run several heroes (solo with three heroes, say)
    supports_ai = True

    def options(self) -> list[OptionSpec]:
        map_choices = tuple((k, msg("ka.opt.map." + k)) for k in data.maps()) + tuple(
            (maps.CUSTOM_PREFIX + name, msg("ka.opt.map.custom", name=name)) for name in maps.custom_names())
        waves = (("5", msg("ka.opt.waves.5")), ("7", msg("ka.opt.waves.7")))
        arrival = (("full", msg("ka.opt.arrival.full")), ("delayed", msg("ka.opt.arrival.delayed")))
        return [OptionSpec("waves", msg("ka.opt.waves"), "5", choices=waves),
                OptionSpec("map", msg("ka.opt.map"), "long-road", choices=map_choices),
                OptionSpec("arrival", msg("ka.opt.arrival"), "full", choices=arrival),
                *(OptionSpec(key, msg("ka.opt.variant", name=Lit(v["es"], v["en"])), False)
                  for key, v in data.variants().items())]

    # ---------------------------------------------------------------- state

    #: An uploaded map travels in the state (the engine needs nothing else) but is stored once per game.
    static_keys = ("map_spec",)
    upload_overrides = ("map",)

    def setup_from_upload(self, data_: bytes, filename: str) -> dict[str, Any]:
        """A map file attached to `/game new` (the format of data/kings_armory/maps/*.json, docs/kings-armory-maps.md):
        the checked map and its name for the lobby; BadOptions naming every problem otherwise."""
        spec = maps.from_upload(data_, filename)
        return {"map": spec, "title": {"es": spec["es"], "en": spec["en"]}}

    def new_with_setup(self, setup: Mapping[str, Any], options: Mapping[str, Scalar], seats: int, seed: int) -> State:
        spec = setup.get("map")
        if not isinstance(spec, dict):
            return self.new(options, seats, seed)
        return self._new(options, seats, seed, cast(MapFile, dict(spec)))  # stored with the game, once checked

    def new(self, options: Mapping[str, Scalar], seats: int, seed: int) -> State:
        return self._new(options, seats, seed, None)

    def _new(self, options: Mapping[str, Scalar], seats: int, seed: int, spec: MapFile | None) -> State:
        rng = Rng.from_seed(seed)
        map_id = str(options.get("map", "long-road")) if spec is None else maps.upload_id(spec)
        board(map_id, spec)
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
        variants = sorted(k for k in data.variants() if options.get(k) is True)
        mining = data.variants()["gold_mining"]
        gold = card["starting_gold"] + (mining["start_per_player"] * seats if "gold_mining" in variants else 0)
        state: State = {"map": map_id, "variants": variants, "banked": 0, "gate_at_start": gate, "waves": waves,
                        "arrival": str(options.get("arrival", "full")), "n": seats,
                        "phase": "pick", "result": None, "picker": 0, "wave": 1, "eturn": 0, "mc": -1,
                        "gate": gate, "gate_max": gate, "gold": gold, "coins": coins, "saved": [],
                        "piles": piles, "discard": {str(lvl): [] for lvl in range(1, 6)},
                        "boss_pile": sorted(data.bosses()), "boss_dead": [], "boss_due": [], "boss_side": None,
                        "towers": [], "tseq": 0, "free_towers": card["starting_towers"][str(seats)], "allies": [],
                        "fallen": {}, "cseq": 0, "monsters": [], "mseq": 0, "arrive": 0, "later": 0, "extra": [],
                        "act": None, "ask": None, "walls": [], "turn": -1, "active": None, "ready": [],
                        # the decks come from their own stream of the seed: adding them left phase 1's dice unchanged
                        **armory.deal(seats, "generals" in variants, Rng.from_seed(seed * 7919 + 101)),
                        # nobody has left the first round of shopping to the team (`coop.reset`)
                        "deferred": [], "proposed": [], "rng_state": rng.state}
        if spec is not None:  # static: stored apart from the state (`static_keys`), wherever it stands in it
            state["map_spec"] = spec
        return state

    def seat_count(self, state: State) -> int:
        return int(state["n"])

    def to_json(self, state: State) -> dict[str, Any]:
        # Shared, not copied: a state is never changed once made (`apply` works on a copy, the playouts' deep
        # check proves it), and the table only stores and compares this. Every move stores it.
        return dict(state)

    def from_json(self, data_: Mapping[str, Any]) -> State:
        return cast(State, dict(queries.clone(dict(data_))))  # a state's stored JSON (`to_json`)

    def copy_state(self, state: State) -> State:
        return queries.clone(state)

    # ---------------------------------------------------------------- whose turn

    def to_act(self, state: State) -> frozenset[int]:
        phase = state["phase"]
        if phase == "over":
            return frozenset()
        if phase == "pick":
            return frozenset({state["picker"]})
        if phase in ("setup", "between"):
            trade = state["trade"]
            return coop.deciding(state) | (frozenset({trade["to"]}) if trade is not None else frozenset())
        if state["reroll"] is not None:
            return frozenset({queries.ally(state, state["reroll"]["ally"])["seat"]})
        if state["ask"] is not None:
            return frozenset({queries.ally(state, state["ask"]["ally"])["seat"]})
        if state["window"] is not None:
            return frozenset(state["window"]["seats"])
        if phase == "enemy":
            return frozenset({SYSTEM})
        if state["active"] is not None:  # Boleslaw may be acting out of turn (P-25)
            return frozenset({queries.ally(state, state["active"])["seat"]})
        return frozenset({state["turn"]})

    def turn_key(self, state: State) -> Hashable:
        return (state["phase"], state["wave"], state["eturn"], state["turn"], state["active"],
                state["ask"] and state["ask"]["ally"], tuple(state["ready"]), state["trade"] and state["trade"]["to"],
                state["window"] and tuple(state["window"]["seats"]), state["reroll"] and state["reroll"]["ally"],
                tuple(coop.deferred(state)))

    def system_action(self, state: State) -> Action:
        return Action.of("step")

    def decisions(self, state: State) -> list[Decision]:
        """The out-of-turn questions: a block, the Lucky Charm's re-roll, a pause for cards, a trade offer."""
        if state["phase"] == "over":
            return []
        trade, reroll, window = state["trade"], state["reroll"], state["window"]
        if trade is not None and state["phase"] == "between":
            give, want = armory.piece(state, trade["give"]), armory.piece(state, trade["want"])
            assert give is not None and want is not None
            prompt = msg("ka.ask.trade", seat=SeatRef(trade["from"]), gear=armory.gear_name(give),
                         want=armory.gear_name(want))
            return [Decision(trade["to"], prompt, Action.of("decline_trade"), private=False, seconds=ASK_SECONDS)]
        if reroll is not None:
            a = queries.ally(state, reroll["ally"])
            prompt = msg("ka.ask.reroll", ally=figures.ally_name(a), roll=reroll["nat"])
            return [Decision(a["seat"], prompt, Action.of("keep_roll"), private=False, seconds=ASK_SECONDS)]
        if window is not None and state["ask"] is None:
            return [Decision(seat, msg("ka.ask.window"), Action.of("go_on"), private=False, seconds=ASK_SECONDS)
                    for seat in window["seats"]]
        ask = state["ask"]
        if ask is None:
            return []
        a = queries.ally(state, ask["ally"])
        mon = queries.monster(state, ask["mid"])
        assert mon is not None
        prompt = msg("ka.ask.block", ally=figures.ally_name(a), monster=figures.monster_name(mon),
                     square=queries.board_of(state).label(queries.monster_square(state, mon)))
        return [Decision(a["seat"], prompt, Action.of("pass"), private=False, seconds=BLOCK_SECONDS)]

    def may_act(self, state: State, seat: int, action: Action) -> bool:
        """Anyone may buy or play a reinforcement or Armory card at any time of a wave, block during the allies'
        round, and Boleslaw's player may activate him between other allies' activations (§4.2, §4.6, P-25)."""
        return seat in self.to_act(state) or (0 <= seat < state["n"] and self._anytime(state, seat, action))

    def anytime_actions(self, state: State, seat: int) -> list[LegalAction]:
        """The moves `seat` may make now although it is not on turn (the table's `legal` and `choices` list only
        seats on turn, so the game's cog offers these itself): card buys and plays, blocks, Boleslaw."""
        if seat in self.to_act(state) or not 0 <= seat < state["n"]:
            return []
        listed = armory.card_legal(state) if state["phase"] in ("allies", "enemy") else []
        listed += armory.hold_legal(state, seat) if state["phase"] in ("allies", "enemy") else []
        if state["phase"] == "allies" and state["active"] is None and state["ask"] is None:
            listed += allies_round.block_actions(state, seat) + allies_round.unblock_actions(state, seat) \
                + allies_round.out_of_turn(state, seat)
        return [la for la in listed if self._anytime(state, seat, la.action)] + orders.legal(state, seat)

    def _anytime(self, state: State, seat: int, action: Action) -> bool:
        """Legality of the moves a seat may make out of turn."""
        if action.kind == "order":
            return orders.ok(state, seat, action)
        phase = state["phase"]
        if phase not in ("allies", "enemy") or state["result"] is not None:
            return False
        if action.kind == "hold":
            return armory.hold_ok(state, seat, action)
        if state["reroll"] is not None:
            return False  # an attack is waiting for its Lucky Charm answer
        if action.kind == "buy_card":
            return armory.can_buy_card(state)
        if action.kind == "play":
            return armory.play_ok(state, action)
        if phase != "allies" or state["active"] is not None or state["ask"] is not None:
            return False
        if action.kind == "block":
            return any(la.action == action for la in allies_round.block_actions(state, seat))
        if action.kind == "unblock":
            return any(la.action == action for la in allies_round.unblock_actions(state, seat))
        if action.kind == "activate":
            return any(la.action == action for la in allies_round.out_of_turn(state, seat))
        return False

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        if action.kind == "order":  # a standing order is given at any time, on turn or not
            return 0 <= seat < state["n"] and orders.ok(state, seat, action)
        if action.kind in (*armory.CARD_KINDS, "hold") and state["phase"] in ("allies", "enemy"):
            return 0 <= seat < state["n"] and self._anytime(state, seat, action)
        if seat not in self.to_act(state) and seat != SYSTEM:
            return 0 <= seat < state["n"] and self._anytime(state, seat, action)
        if state["phase"] in ("setup", "between") and action.kind in armory.TRADE_ANSWERS:
            return any(la.action == action for la in armory.trade_answers(state, seat))
        if state["phase"] in ("setup", "between") and action.kind == "hold":
            return armory.hold_ok(state, seat, action)
        if state["phase"] in ("setup", "between") and (coop.held(state, seat) or action.kind == "defer"):
            return action.kind == "defer" and coop.defer_ok(state, seat, action)
        if state["phase"] in ("setup", "between") and action.kind in (*armory.CARD_KINDS, *armory.GEAR_KINDS):
            return seat not in state["ready"] and any(la.action == action for la in self._legal(state, seat, "cards"))
        if state["phase"] in ("setup", "between") and seat in self.to_act(state):
            return shop.is_legal(state, seat, action)
        return any(la.action == action for la in self._legal(state, seat, action.kind))

    def legal_actions(self, state: State, seat: int) -> list[LegalAction]:
        listed = self._legal(state, seat, None)
        return listed + orders.legal(state, seat) if listed else listed

    def _legal(self, state: State, seat: int, kind: str | None) -> list[LegalAction]:
        if seat == SYSTEM or seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "pick":
            return shop.pick_legal(state, seat)
        if phase in ("setup", "between"):
            answers = armory.trade_answers(state, seat)
            if seat in state["ready"] or coop.held(state, seat):
                return answers  # a seat ready or stepping back is asked only to answer the trade offered to it
            extra = [*armory.gear_legal(state, seat), *armory.card_legal(state)]
            if kind == "cards":
                return extra
            return answers + shop.legal(state, seat, kind) + (
                extra + armory.hold_legal(state, seat) + coop.legal(state, seat) if kind is None else [])
        if state["reroll"] is not None:
            return allies_round.reroll_legal(state)
        if state["ask"] is None and state["window"] is not None:
            return armory.window_legal(state)
        if state["ask"] is not None:
            ask = state["ask"]
            a = queries.ally(state, ask["ally"])
            mon = queries.monster(state, ask["mid"])
            assert mon is not None
            name, mname = figures.ally_name(a), figures.monster_name(mon)
            return [LegalAction(Action.of("block", ally=a["id"], monster=mon["id"]), msg("ka.act.block", ally=name,
                                                                                      monster=mname)),
                    LegalAction(Action.of("wait"), msg("ka.act.wait", monster=mname)),
                    LegalAction(Action.of("pass"), msg("ka.act.pass", monster=mname)),
                    *armory.card_legal(state)]  # a card may be played in the middle of a monster's move
        on_turn = kind is None and state["active"] is None and seat == state["turn"]
        return allies_round.legal(state, seat, kind) \
            + (armory.card_legal(state) if kind in (None, *armory.CARD_KINDS) else []) \
            + (armory.hold_legal(state, seat) if on_turn else [])

    def why_illegal(self, state: State, seat: int, action: Action) -> Msg | None:
        if action.kind == "order":
            return msg("ka.why.order")
        if seat != SYSTEM and 0 <= seat < state["n"] and coop.held(state, seat):
            return msg("ka.coop.why.held")
        if action.kind == "defer" and seat in self.to_act(state):
            return msg("ka.coop.why.defer")
        if seat != SYSTEM and seat not in self.to_act(state):
            return msg("ka.why.not_your_turn")
        if action.kind == "end" and state["phase"] == "allies" and state["active"]:
            a = queries.ally(state, state["active"])
            if not allies_round.may_stop(state, a):
                return msg("ka.why.must_attack", ally=figures.ally_name(a), count=allies_round.minimum(state, a))
        if action.kind == "ready" and state["phase"] in ("setup", "between"):
            if state["phase"] == "setup" and state["free_towers"]:
                return msg("ka.why.towers_left", count=state["free_towers"])
            return msg("ka.why.not_housed")
        if action.kind == "enter":
            return msg("ka.why.tower_full")
        return None

    def apply(self, state: State, seat: int, action: Action) -> Step:
        if seat == SYSTEM:
            if SYSTEM not in self.to_act(state) or action != Action.of("step"):
                raise IllegalAction(msg("ka.why.not_your_turn"))
        elif not self.may_act(state, seat, action):
            raise IllegalAction(msg("ka.why.not_your_turn"))
        elif not self.is_legal(state, seat, action):
            raise IllegalAction(self.why_illegal(state, seat, action) or msg("ka.why.illegal"))
        after = queries.clone(state)
        rng = Rng(after["rng_state"])
        events: list[Event] = []
        undoable = True
        phase = after["phase"]
        if seat == SYSTEM:
            if not armory.open_window(after, events):
                enemy.step(after, rng, events)
            undoable = False
        elif action.kind == "order":
            orders.apply(after, events, action)
        elif action.kind in armory.CARD_KINDS:
            armory.card_apply(after, rng, events, seat, action)
            undoable = action.kind == "play"
        elif action.kind in (*armory.GEAR_KINDS, *armory.TRADE_ANSWERS):
            armory.gear_apply(after, rng, events, seat, action)
            # an answer to a trade is the other seat's move: nobody takes it back
            undoable = action.kind not in ("buy_gear", "trade", "withdraw_trade", *armory.TRADE_ANSWERS)
        elif action.kind in armory.WINDOW_KINDS:
            armory.hold_apply(after, events, seat, action)
        elif after["reroll"] is not None:
            allies_round.answer_reroll(after, rng, events, action)
            undoable = False
        elif phase == "pick":
            shop.pick(after, events, seat, action)
        elif action.kind == "defer":
            coop.apply(after, events, seat, action)
        elif phase in ("setup", "between"):
            shop.apply(after, rng, events, seat, action)
            armory.lapse_trade(after, events)
            undoable = action.kind != "ready" or bool(after["ready"])
        elif after["ask"] is not None:
            self._answer(after, events, action)
            undoable = False
        else:
            undoable = not allies_round.apply(after, rng, events, seat, action)
        if phase in ("setup", "between"):
            if after["phase"] in ("setup", "between"):
                coop.announce_return(state, after, events)
            else:  # the wave started: the next round of shopping begins with nobody stepping back
                coop.reset(after)
        after["rng_state"] = rng.state
        after["log"] = [*after.get("log", []), *(e.msg.to_json() for e in events if e.to is None)][-LOG_LINES:]
        return Step(after, events, undoable=undoable)

    def ai_action(self, state: State, seat: int, rng: Rng, level: str = "normal") -> Action:
        """The AI's move at `level` ("easy", "normal" or "hard"; anything else plays "normal")."""
        return ai.choose(self.legal_actions(state, seat), state, seat, rng, level)

    def _answer(self, state: State, events: list[Event], action: Action) -> None:
        ask = state["ask"]
        assert ask is not None
        state["ask"] = None
        act = state["act"]
        a = queries.ally(state, ask["ally"])
        mon = queries.monster(state, ask["mid"])
        assert mon is not None and act is not None
        if action.kind == "block":
            enemy.block(state, a, mon)
            events.append(Event(msg("ka.ev.block", ally=figures.ally_name(a), monster=figures.monster_name(mon))))
        elif action.kind == "pass":
            act["passed"].append(a["id"])

    def outcome(self, state: State) -> Outcome | None:
        if state["result"] is None:
            return None
        everyone = frozenset(range(state["n"]))
        if queries.variant(state, "endurance"):  # the score is what counts: waves survived (P-28)
            won = state["result"] == "won"
            return Outcome(everyone if won else frozenset(),
                           msg("ka.end.endurance_won" if won else "ka.end.endurance_lost", wave=state["wave"],
                               score=queries.waves_survived(state), why=msg(f"ka.end.why.{state['result']}")))
        if state["result"] == "won":
            return Outcome(everyone, msg("ka.end.won", wave=state["wave"]))
        return Outcome(frozenset(), msg(f"ka.end.lost_{state['result']}", wave=state["wave"]))

    def final_figures(self, state: State) -> list[Msg]:
        """The wave reached and the waves survived, the Gate's health and the gold left, then each player's hero
        (or own champion): level and health, or knocked out."""
        lines = [msg("ka.figures.waves", wave=state["wave"], waves=queries.last_wave(state),
                     survived=queries.waves_survived(state), gate=state["gate"], max=state["gate_max"],
                     gold=state["gold"])]
        for a in state["allies"]:
            if a["kind"] != "hero" and not a.get("own"):
                continue
            if a["ko"]:
                lines.append(msg("ka.figures.hero_ko", seat=SeatRef(a["seat"]), hero=figures.ally_name(a),
                                 level=a["level"]))
            else:
                lines.append(msg("ka.figures.hero", seat=SeatRef(a["seat"]), hero=figures.ally_name(a),
                                 level=a["level"], hp=a["hp"], max=figures.ally_card(a)["max"]))
        return lines

    def record_figures(self, state: State) -> dict[int, dict[str, int]]:
        """The team's waves survived and the Gate's health left, the same for every seat."""
        shared = {"waves": queries.waves_survived(state), "gate": max(0, int(state["gate"]))}
        return {seat: dict(shared) for seat in range(state["n"])}

    # ---------------------------------------------------------------- table helpers

    def choices(self, state: State, seat: int, path: Sequence[str]) -> list[Choice] | Action:
        """Builds and placements offer every square when built in steps; `legal_actions` lists a few of each."""
        path = tuple(path)
        if path and path[0] in ("build", "place") and state["phase"] in ("setup", "between") \
                and seat in self.to_act(state):
            return choices_from_legal(shop.legal(state, seat, path[0]), path, self.step_name)
        return super().choices(state, seat, path)

    def step_name(self, path: tuple[str, ...], token: str, moves: Sequence[LegalAction]) -> Msg | None:
        """An area's width and depth are numbers that mean nothing alone: they are named as such."""
        arg, _, value = token.partition("=")
        if path and arg in ("cols", "rows") and value.startswith("#"):
            return msg(f"ka.step.{arg}", **{arg: int(value[1:])})
        return super().step_name(path, token, moves)

    def moves_of_kinds(self, state: State, seat: int, kinds: Sequence[str]) -> list[LegalAction]:
        """Every build and placement at once (walking them step by step would list the shop once per square)."""
        if state["phase"] not in ("setup", "between") or seat not in self.to_act(state):
            return super().moves_of_kinds(state, seat, kinds)
        squares = [k for k in kinds if k in ("build", "place")]
        listed = [la for k in squares for la in shop.legal(state, seat, k) if la.action.kind == k]
        return listed + super().moves_of_kinds(state, seat, [k for k in kinds if k not in squares])

    def quick_actions(self, state: State) -> list[tuple[Msg, Action]] | None:
        wanted: tuple[str, ...] = ("end", "end_turn", "ready", "defer", "pass", "go_on", "keep_roll", "reroll",
                                   "accept_trade", "decline_trade")
        if state["ask"] is not None:  # a block window offers all three of its answers, not only "let it pass"
            wanted = ("block", "wait", *wanted)
        out: list[tuple[Msg, Action]] = []
        for seat in sorted(self.to_act(state)):
            if seat == SYSTEM:
                continue
            for la in self.legal_actions(state, seat):
                if la.action.kind in wanted and (la.label, la.action) not in out:
                    out.append((la.label, la.action))
        return out[:8]

    def skip_action(self, state: State, seat: int) -> Action | None:
        legal = self.legal_actions(state, seat)
        for kind in ("pass", "ready", "defer", "end", "end_turn", "pick", "place", "attack"):
            for la in legal:
                if la.action.kind == kind:
                    return la.action
        return None

    def timeout_action(self, state: State, seat: int) -> Action | None:
        """A question's default for the seat asked; while a trade waits for its answer, the other seats' time
        is not up (their deadline was the trade's)."""
        for decision in self.decisions(state):
            if decision.seat == seat:
                return decision.default
        if state["trade"] is not None and state["phase"] == "between":
            return None
        return self.skip_action(state, seat)

    # ---------------------------------------------------------------- views and checks

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything on the table is public (§11); deck orders, piles and the RNG never leave the state."""
        b = queries.board_of(state)

        def ally_view(a: Ally) -> AllyView:
            card = figures.ally_card(a)
            p = queries.pos(a)
            return {"id": a["id"], "kind": a["kind"], "type": a["key"], "seat": a["seat"], "level": a["level"],
                    "name": _names(figures.ally_name(a)), "hp": a["hp"], "max": card["max"], "ko": a["ko"],
                    "square": None if p is None else b.label(p), "house": a["house"], "inside": a["inside"],
                    "ap": a["ap"], "tank": [len(a["blocks"]), figures.tank(a)], "blocks": list(a["blocks"]),
                    "order": orders.mode(a),
                    "status": {k: v for k, v in a["st"].items() if v}, "done": a["done"],
                    "effects": [k for k in ("enchanted", "summoned") if a.get(k)] + (
                        [f"guarding:{a['guarding']}"] if a.get("guarding") else [])}

        def monster_view(m: Monster) -> MonsterView:
            card = figures.monster_card(m)
            return {"id": m["id"], "type": m["key"], "boss": m["boss"], "level": 0 if m["boss"] else card["level"],
                    "name": _names(figures.monster_name(m)), "hp": m["hp"], "max": m["max"],
                    "mv": figures.monster_mv(m), "square": b.label(queries.monster_square(state, m)),
                    "lane": m["lane"][-1],
                    "arrow": "y" if m["lane"].startswith("Y") else "r", "flags": figures.flags(m),
                    "blocked_by": m["blocked_by"], "status": {k: v for k, v in m["st"].items() if v},
                    "effects": [k for k in ("grounded", "fog", "sundered") if m.get(k)]}

        view: View = {"game": self.id, "phase": state["phase"], "map": state["map"],
                      **_map_spec(state), "wave": state["wave"],
                      "waves": queries.last_wave(state), "variants": list(state["variants"]),
                      "score": queries.waves_survived(state) if queries.variant(state, "endurance") else None,
                      "enemy_turn": state["eturn"], "gate": [state["gate"], state["gate_max"]],
                      "gold": state["gold"], "turn": state["turn"], "active": state["active"],
                      "picker": state["picker"],
                      "mc": state["mc"], "ready": list(state["ready"]), "deferred": coop.deferred(state),
                      "free_towers": state["free_towers"],
                      "to_arrive": state["arrive"] + state["later"] + len(state["extra"]),
                      "boss_turns": list(state["boss_due"]),
                      "towers": [{"id": t["id"], "square": b.label((t["at"][0], t["at"][1])),
                                  "used": queries.slots_used(state, t["id"])} for t in state["towers"]],
                      "allies": [ally_view(a) for a in state["allies"]],
                      "monsters": [monster_view(m) for m in state["monsters"]],
                      "asking": None if state["ask"] is None else {**state["ask"]},
                      "trade": None if state["trade"] is None else {**state["trade"]},
                      "reroll": None if state["reroll"] is None else {"ally": state["reroll"]["ally"],
                                                                      "roll": state["reroll"]["nat"]},
                      "pause": None if state["window"] is None else list(state["window"]["seats"]),
                      "holds": list(state["holds"]),
                      "gear": [{"id": g["id"], "name": _names(armory.gear_name(g)), "seat": g["seat"],
                                "locked": g["locked"], "on": g["on"]} for g in state["gear"]],
                      "walls": [b.label((w[0], w[1])) for w in state["walls"]],
                      "log": list(state.get("log", [])), "result": state["result"]}
        return dict(view)

    def check_invariants(self, state: State) -> list[str]:
        out = []
        if state["gold"] < 0:
            out.append(f"gold is negative: {state['gold']}")
        if not 0 <= state["gate"] <= state["gate_max"]:
            out.append(f"gate HP {state['gate']} out of bounds")
        squares: dict[tuple[int, ...], int] = {}
        for a in state["allies"]:
            card = figures.ally_card(a)
            if not 0 <= a["hp"] <= card["max"]:
                out.append(f"{a['id']} HP {a['hp']} outside 0..{card['max']}")
            if (a["hp"] == 0) != a["ko"] and (a["kind"] == "hero" or a.get("own")):
                out.append(f"{a['id']} KO flag disagrees with HP")
            out += _token_problems(a["id"], a["st"])
            if len(a["blocks"]) > figures.tank(a):
                out.append(f"{a['id']} blocks more than its Tank")
            if orders.mode(a) not in orders.MODES:
                out.append(f"{a['id']} has an unknown standing order {orders.mode(a)!r}")
            if a["pos"] is not None:
                key = tuple(a["pos"])
                squares[key] = squares.get(key, 0) + 1
        out += [f"two allies on {sq}" for sq, n in squares.items() if n > 1]
        layers: dict[tuple[tuple[int, ...], bool], int] = {}
        for m in state["monsters"]:
            if not 0 < m["hp"] <= m["max"]:
                out.append(f"{m['id']} HP {m['hp']} outside 1..{m['max']}")
            out += _token_problems(m["id"], m["st"])
            if not m["boss"]:
                layer = (tuple(queries.monster_square(state, m)), figures.flying(m))
                layers[layer] = layers.get(layer, 0) + 1
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
        for hid in queries.houses(state):
            if state["phase"] != "pick" and queries.slots_used(state, hid) > queries.capacity(state, hid):
                out.append(f"house {hid} over capacity")
        return out + _figure_problems(state) + _card_problems(state) + _question_problems(state) \
            + _team_problems(state)


def _figure_problems(state: State) -> list[str]:
    """Every figure listed once, standing on one square where it may stand."""
    out = []
    b = queries.board_of(state)
    ids = [a["id"] for a in state["allies"]] + [m["id"] for m in state["monsters"]]
    out += [f"figure {i} listed twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    for m in state["monsters"]:
        if m["lane"] not in b.lanes or not 0 <= m["i"] < len(b.lanes[m["lane"]]):
            out.append(f"{m['id']} is off its lane")
    towers = queries.tower_squares(state)
    for a in state["allies"]:
        p = queries.pos(a)
        if p is None:
            continue
        if a["inside"] != (p in towers or p in b.parapets.values()):
            out.append(f"{a['id']} inside flag disagrees with its square {b.label(p)}")
        if not (b.on_field(p) or p in b.exits.values() or p in b.parapets.values()):
            out.append(f"{a['id']} stands off the field on {b.label(p)}")
    out += [f"Psychic Wall off the path at {w}" for w in state["walls"] if (w[0], w[1]) not in b.path]
    return out


def _card_problems(state: State) -> list[str]:
    """Every equipment, reinforcement and Armory card accounted for; carrying and holding limits kept."""
    out = []
    eco = data.economy()
    pieces = len(state["gear_deck"]) + len(state["gear"]) + len(state["used_gear"])
    if pieces != len(data.equipment()):
        out.append(f"equipment cards: {pieces} != {len(data.equipment())}")
    for a in state["allies"]:
        worn = sorted(g["card"] for g in state["gear"] if g["on"] == a["id"])
        if worn != sorted(a["gear"]) or len(worn) > eco["equipment"]["max_carried"]:
            out.append(f"{a['id']} carries {a['gear']} but the cards say {worn}")
    if any(g["locked"] and g["on"] for g in state["gear"]):
        out.append("a locked piece is worn")
    ids = [g["id"] for g in state["gear"]]
    if len(set(ids)) != len(ids):
        out.append(f"equipment ids repeat: {sorted(ids)}")
    cards = data.cards()
    reinforcements = len(state["rdeck"]) + len(state["hand"]) + sum(
        1 for k in state["used_cards"] if cards[k]["deck"] == "reinforcements")
    if reinforcements != 16 or len(state["hand"]) > eco["reinforcement"]["max_held"]:
        out.append(f"reinforcement cards: {reinforcements} accounted, {len(state['hand'])} held")
    armory_cards = len(state["adeck"]) + (1 if state["armory"] else 0) + sum(
        1 for k in state["used_cards"] if cards[k]["deck"] == "armory")
    if armory_cards != 7:
        out.append(f"Armory cards: {armory_cards} != 7")
    return out


def _question_problems(state: State) -> list[str]:
    """The out-of-turn questions open only where they belong, about things that exist."""
    out = []
    trade, window, reroll = state["trade"], state["window"], state["reroll"]
    if trade is not None:
        pieces = [armory.piece(state, trade["give"]), armory.piece(state, trade["want"])]
        if state["phase"] != "between" or any(g is None or g["locked"] for g in pieces):
            out.append(f"trade offer {trade} in phase {state['phase']} names a missing or locked piece")
        elif [g["seat"] for g in pieces if g is not None] != [trade["from"], trade["to"]]:
            out.append(f"trade offer {trade} names pieces of other seats")
    if window is not None and (state["phase"] != "enemy" or not window["seats"]
                               or not set(window["seats"]) <= set(state["holds"])):
        out.append(f"card pause {window} open in phase {state['phase']} for seats not holding")
    if reroll is not None and (state["phase"] != "allies" or queries.find_ally(state, reroll["ally"]) is None):
        out.append(f"Lucky Charm question {reroll} in phase {state['phase']}")
    return out


def _team_problems(state: State) -> list[str]:
    """Seats step back only while the team shops, once each, and propose only while they do."""
    waiting, proposed = coop.deferred(state), state.get("proposed", [])
    out = [f"seat {x} stepped back twice" for x in sorted(set(waiting)) if waiting.count(x) > 1]
    if state["phase"] not in ("setup", "between") and (waiting or proposed):
        out.append(f"seats {waiting} stepped back in phase {state['phase']}")
    out += [f"seat {x} proposed without stepping back" for x, _ in proposed if x not in waiting]
    return out


def _token_problems(fid: str, tokens: dict[str, int]) -> list[str]:
    out = [f"{fid} has {tokens[k]} {k}" for k, cap in figures.CAPS.items() if not 0 <= tokens[k] <= cap]
    if tokens["bleed"] + tokens["burn"] > 4 or tokens["slow"] < 0:
        out.append(f"{fid} tokens out of bounds")
    return out


class _MapSpecPart(TypedDict, total=False):
    map_spec: MapFile


def _map_spec(state: State) -> _MapSpecPart:
    """An uploaded map's file for the view (a preset or custom map is known by its name)."""
    return {"map_spec": {**state["map_spec"]}} if "map_spec" in state else {}


def _names(value: Lit) -> Names:
    return {"es": value.es, "en": value.en}

"""The Gorgasali Battle Royale `Game`: options, the contract methods, decisions, invariants and AI hooks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from rules.base import (
    SYSTEM,
    Action,
    BadOptions,
    Choice,
    Decision,
    Game,
    IllegalAction,
    LegalAction,
    OptionSpec,
    Outcome,
    Scalar,
    Step,
)
from rules.gorgasali import ai, movement, moves
from rules.gorgasali.board import DIRS, board_of
from rules.gorgasali.data import SLOTS
from rules.gorgasali.engine import (
    HP,
    STATIC,
    Ctx,
    all_cards,
    capacity,
    char_name,
    clone,
    copy_state,
    listing,
    new_state,
    resign,
    square,
    to_act,
)
from rules.gorgasali.state import MapData, State
from rules.gorgasali.views import description, label, view
from rules.rng import Rng
from rules.text import Msg, SeatRef, msg

MODES = ("ffa", "duo")


class Gorgasali(Game[State]):
    id = "gorgasali"
    name_key = "gg.name"
    min_seats = 2
    max_seats = 10
    supports_ai = True
    #: Ten players keep moving in a sitting; a play-by-post table creates its game with `timer:0` or longer.
    suggested_timer_minutes = 15
    step_built = True
    kind_names = "br.menu.kind."
    static_keys = STATIC

    def options(self) -> Sequence[OptionSpec]:
        return (
            OptionSpec("mode", msg("gg.opt.mode"), "ffa", tuple((m, msg(f"gg.mode.{m}")) for m in MODES)),
            OptionSpec("characters", msg("gg.opt.characters"), "choose",
                       (("choose", msg("gg.chars.choose")), ("random", msg("gg.chars.random")))),
            OptionSpec("final_zone", msg("gg.opt.final_zone"), "shrink",
                       (("shrink", msg("gg.final.shrink")), ("never", msg("gg.final.never")))),
            OptionSpec("teams", msg("gg.opt.teams"), "join-order",
                       (("join-order", msg("gg.teams.join_order")), ("random", msg("gg.teams.random")))),
        )

    def seat_range(self, options: Mapping[str, Scalar]) -> tuple[int, int]:
        return (4, 10) if options.get("mode") == "duo" else (2, 10)

    def check_seats(self, options: Mapping[str, Scalar], seats: int) -> None:
        super().check_seats(options, seats)
        if options.get("mode") == "duo" and seats % 2:
            raise BadOptions(msg("gg.err.duo_even"))

    def new(self, options: Mapping[str, Scalar], seats: int, seed: int) -> State:
        return self.new_on(options, seats, seed, None)

    def new_on(self, options: Mapping[str, Scalar], seats: int, seed: int,
               map_data: MapData | None) -> State:
        """A new game on a given map (tests use small boards); the standard island when `map_data` is None."""
        self.check_seats(options, seats)
        s = new_state(dict(options), seats, seed, map_data)
        if s["phase"] == "octor":
            ctx = Ctx(s)
            moves.after_picks(ctx)
            ctx.finish()
        return s

    def seat_count(self, state: State) -> int:
        return int(state["n"])

    def to_act(self, state: State) -> frozenset[int]:
        return to_act(state)

    def turn_key(self, state: State) -> tuple[int, int | None, str, int, bool, bool]:
        return (state["round"], state["turn"], state["phase"], len(state["pending"]), state["trade"] is not None,
                state["zone_due"])

    # ---------------------------------------------------------------- moves

    def legal_actions(self, state: State, seat: int) -> list[LegalAction]:
        if seat not in to_act(state):
            return []
        seen: set[Action] = set()
        out = []
        for a in moves.candidates(state, seat):
            if a not in seen and moves.refusal(state, seat, a) is None:
                seen.add(a)
                out.append(LegalAction(a, label(state, a), a.kind, description(state, a)))
        return out

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        return moves.refusal(state, seat, action) is None

    def why_illegal(self, state: State, seat: int, action: Action) -> Msg | None:
        return moves.refusal(state, seat, action)

    def apply(self, state: State, seat: int, action: Action) -> Step:
        why = moves.refusal(state, seat, action)
        if why is not None:
            raise IllegalAction(why)
        ctx = Ctx(copy_state(state))
        moves.perform(ctx, seat, action)
        moves.settle(ctx)
        ctx.finish()
        return Step(ctx.state, ctx.events, ctx.undoable)

    def system_action(self, state: State) -> Action:
        if not state["zone_due"]:
            raise IllegalAction(msg("core.error.no_system"))
        return Action.of("close_zone")

    def choices(self, state: State, seat: int, path: Sequence[str]) -> list[Choice] | Action:
        """Moves built in steps: the usual walk over the (short) legal list, plus `move` built direction by
        direction, whose paths are never listed."""
        path = tuple(path)
        if path and path[0] == "move":
            return self._move_choices(state, seat, path[1:])
        found = super().choices(state, seat, path)
        if not path and isinstance(found, list) and state.get("t", {}).get("stage") in ("rolled", "moving") \
                and seat == state["turn"] and not state["pending"] and state["trade"] is None:
            found.append(Choice("move", msg("gg.act.move_menu")))
        return found

    def _move_choices(self, state: State, seat: int, steps: tuple[str, ...]) -> list[Choice] | Action:
        if seat not in to_act(state) or state["t"].get("stage") not in ("rolled", "moving"):
            return []
        board = board_of(state["board"])
        if steps and steps[-1] == "go":
            action = Action.of("move", path=list(steps[:-1]))
            return action if moves.refusal(state, seat, action) is None else []
        if steps and movement.path_refusal(state, board, seat, steps) is not None:
            return []
        # where the figure would stand, and what is left, after these steps
        pos = square(state["players"][seat])
        seen = list(state["t"]["seen"]) or [pos]
        points = state["t"]["points"]
        for d in steps:
            nxt = board.step(pos, d)
            assert nxt is not None
            points -= movement.cost(state, board, nxt)
            seen.append(nxt)
            pos = nxt
        nexts = movement.legal_steps(state, board, seat, pos, seen, points)
        if steps and (points == 0 or not nexts):
            return Action.of("move", path=list(steps))
        out = []
        for d in nexts:
            to = board.step(pos, d)
            assert to is not None
            out.append(Choice(d, msg("gg.act.step", dir=msg(f"gg.dir.{d}"), to=board.name(to),
                                     cost=movement.cost(state, board, to))))
        if steps:
            out.append(Choice("go", msg("gg.act.move_go", at=board.name(pos), points=points)))
        return out

    # ---------------------------------------------------------------- decisions, buttons, absent players

    def decisions(self, state: State) -> Sequence[Decision]:
        out = []
        for q in state["pending"][:1]:
            out.append(Decision(q["seat"], msg("gg.dec.place", card=msg(f"gg.card.{state['cards'][q['card']]}")),
                                Action.of("place", card=q["card"], into="discard")))
        if state["trade"] is not None and not state["pending"]:
            tr = state["trade"]
            out.append(Decision(tr["to"], msg("gg.dec.trade", seat=SeatRef(tr["from"])), Action.of("decline")))
        return out

    def quick_actions(self, state: State) -> list[tuple[Msg, Action]]:
        out: list[tuple[Msg, Action]] = []
        for seat in sorted(to_act(state) - {SYSTEM}):
            for kind in ("roll", "skip", "stop", "reload", "chest", "dober_done", "end"):
                a = Action.of(kind)
                if moves.refusal(state, seat, a) is None:
                    out.append((msg(f"gg.button.{kind}"), a))
        return out[:8]

    def skip_action(self, state: State, seat: int) -> Action | None:
        """For an absent player: roll, skip when allowed, else step N, E, S, W until the movement ends; end."""
        if seat not in to_act(state) or seat == SYSTEM:
            return None
        for d in self.decisions(state):
            if d.seat == seat:
                return d.default
        candidates = [Action.of("roll"), Action.of("skip"), *(Action.of("step", dir=d) for d in DIRS),
                      Action.of("stop"), Action.of("dober_done"), Action.of("reroll", dice=[]), Action.of("end")]
        for a in candidates:
            if moves.refusal(state, seat, a) is None:
                return a
        legal = self.legal_actions(state, seat)
        return legal[0].action if legal else None

    # ---------------------------------------------------------------- state, views, outcome

    def view(self, state: State, seat: int | None) -> dict[str, object]:
        # The contract's views are plain dicts (rules/base.py); views.View is this game's shape of one.
        return cast(dict[str, object], view(state, seat))

    def outcome(self, state: State) -> Outcome | None:
        if state["winners"] is None:
            return None
        winners = frozenset(state["winners"])
        alive = sorted((p for p in state["players"] if p["alive"] and p["seat"] not in winners),
                       key=lambda p: -p["hp"])
        ranking = [*sorted(winners), *(p["seat"] for p in alive), *reversed(state["out"])]
        ranking = list(dict.fromkeys(ranking))
        if not winners:
            return Outcome(winners, msg("gg.outcome.draw"), tuple(ranking))
        names = listing([SeatRef(w) for w in sorted(winners)])
        return Outcome(winners, msg("gg.outcome.won", seats=names, round=state["round"]), tuple(ranking))

    def resign(self, state: State, seat: int) -> Step | None:
        """Once the fight is on, resigning eliminates the fighter (nobody is credited); while characters are still
        being chosen there is nothing to be out of, and the table hands the seat to a bot instead."""
        if state["winners"] is not None or state["phase"] != "play":
            return None
        if not state["players"][seat]["alive"]:
            raise IllegalAction(msg("core.resign.error.out"))
        ctx = Ctx(copy_state(state))
        resign(ctx, seat)
        moves.settle(ctx)
        ctx.finish()
        return Step(ctx.state, ctx.events, False)

    def final_figures(self, state: State) -> list[Msg]:
        """Rounds played, then each fighter by final place: character, health left, eliminations, turns played."""
        outcome = self.outcome(state)
        order = list(outcome.ranking) if outcome else [p["seat"] for p in state["players"]]
        lines = [msg("gg.figures.rounds", n=state["round"])]
        for place, seat in enumerate(order, start=1):
            p = state["players"][seat]
            char: Msg | str = char_name(p) if p["char"] else msg("gg.figures.no_char")
            lines.append(msg("gg.figures.fighter", place=place, seat=SeatRef(seat), char=char, hp=p["hp"],
                             kills=p.get("kills", 0), turns=p["turns"]))
        return lines

    def record_figures(self, state: State) -> dict[int, dict[str, int]]:
        """Eliminations, damage dealt to other fighters and health left."""
        return {p["seat"]: {"kills": p.get("kills", 0), "damage": p.get("dealt", 0), "health": p["hp"]}
                for p in state["players"]}

    def record_teams(self, state: State) -> list[list[int]] | None:
        if state["mode"] != "duo":
            return None
        sides: dict[int, list[int]] = {}
        for p in state["players"]:
            sides.setdefault(p["team"], []).append(p["seat"])
        return list(sides.values())

    def to_json(self, state: State) -> dict[str, object]:
        # Shared, not copied (as the other games do): a state is never changed once made (`apply` works on a copy,
        # the playouts' deep check proves it), and the table only stores and compares this. Every move stores it.
        return dict(state)

    def from_json(self, data: Mapping[str, object]) -> State:
        return cast(State, clone(dict(data)))  # the JSON stored by to_json

    def copy_state(self, state: State) -> State:
        return copy_state(state)

    def secret_tokens(self, state: State) -> Mapping[str, frozenset[int]]:
        # Only the order of the decks is secret (§6): no view or event may name a card still in a deck.
        nobody: frozenset[int] = frozenset()
        return {cid: nobody for cid in (*state["wdeck"], *state["sdeck"])}

    def check_invariants(self, state: State) -> list[str]:
        problems = []
        board = board_of(state["board"])
        held: list[str] = []
        squares: dict[int, int] = {}
        for p in state["players"]:
            if not 0 <= p["hp"] <= HP:
                problems.append(f"seat {p['seat']} has {p['hp']} HP")
            if p["alive"] != (p["hp"] > 0) and state["phase"] != "pick":
                problems.append(f"seat {p['seat']} alive={p['alive']} with {p['hp']} HP")
            if p["xc"] < 0:
                problems.append(f"seat {p['seat']} has {p['xc']} extra chests")
            for slot in SLOTS:
                act, pack = capacity(slot)
                if len(p["mat"][slot]["a"]) > act or len(p["mat"][slot]["p"]) > pack:
                    problems.append(f"seat {p['seat']} overfills its {slot} slots")
                if slot != "weapon" and any(c[0] == "w" for c in p["mat"][slot]["a"] + p["mat"][slot]["p"]):
                    problems.append(f"seat {p['seat']} has a weapon in {slot}")
            held += all_cards(p)
            if p["alive"]:
                if p["pos"] is None:
                    problems.append(f"seat {p['seat']} is alive off the board")
                    continue
                if p["pos"] in squares:
                    problems.append(f"seats {squares[p['pos']]} and {p['seat']} share {board.name(p['pos'])}")
                squares[p["pos"]] = p["seat"]
                if board.is_tree(p["pos"]) or any(b["kind"] == "barrier" and p["pos"] in b["sq"]
                                                  for b in state["banners"]):
                    problems.append(f"seat {p['seat']} stands on the tree or a barrier")
                if p["pos"] in state["chests"] and not (state["turn"] == p["seat"]
                                                         and state["t"].get("stage") in ("moving", "rolled", "dober")):
                    problems.append(f"seat {p['seat']} stands on an unopened chest")
            elif p["mat"] != {slot: {"a": [], "p": []} for slot in SLOTS}:
                problems.append(f"eliminated seat {p['seat']} still holds cards")
        every = held + state["wdeck"] + state["sdeck"] + state["wdisc"] + state["sdisc"] + \
            [q["card"] for q in state["pending"]]
        if sorted(every) != sorted(state["cards"]):
            problems.append(f"cards not accounted for: {len(every)} of {len(state['cards'])}")
        for b in state["banners"]:
            # expired banners go when the round's first turn starts, after a pending zone closing
            if b["round"] + 2 < state["round"] and not state["zone_due"]:
                problems.append(f"banner {b} outlived its rounds")
        return problems

    def ai_action(self, state: State, seat: int, rng: Rng, level: str = "normal") -> Action:
        return ai.choose(self, state, seat, rng, level)

"""La Guerra de Indagar: a 4X of heroes, outposts and scripted monsters on a hex map, for 1 to 4 players."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from rules.base import (
    SYSTEM,
    Action,
    Choice,
    Decision,
    Event,
    Game,
    GameOver,
    IllegalAction,
    LegalAction,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Scalar,
    Step,
)
from rules.guerra_de_indagar import actions, ai, flow
from rules.guerra_de_indagar.data import faction_name, monster_name
from rules.guerra_de_indagar.invariants import check
from rules.guerra_de_indagar.moves import args_of
from rules.guerra_de_indagar.setup import new_state
from rules.guerra_de_indagar.state import Question, State
from rules.guerra_de_indagar.units import primacy_points, tile_label
from rules.guerra_de_indagar.views import view_of
from rules.rng import Rng
from rules.text import Msg, SeatRef, msg

DECISIONS = {"d_boost": "done", "p_boost": "done", "fall_back": "", "monster_fall_back": "", "level_up": "sword",
             "redeploy": "",
             "maelstrom": "", "cache": "", "monster_target": "", "monster_opportunity": "", "spirit_window": "pass",
             "declare": "", "reap": "", "ignore": "done"}
ASK_KEYS = {"d_boost": "gi.ask.d_boost", "p_boost": "gi.ask.p_boost", "fall_back": "gi.ask.fall_back",
            "monster_fall_back": "gi.ask.monster_fall_back", "level_up": "gi.ask.level_up",
            "redeploy": "gi.ask.redeploy", "maelstrom": "gi.ask.maelstrom", "cache": "gi.ask.cache",
            "monster_target": "gi.ask.monster_target", "monster_opportunity": "gi.ask.monster_opportunity",
            "spirit_window": "gi.ask.spirit_window", "declare": "gi.ask.declare", "reap": "gi.ask.reap",
            "ignore": "gi.ask.ignore"}
#: The questions put to a seat on someone else's turn (a defence, the round's end, a monster's tie), and how
#: long they wait before their default applies.
WINDOWS = frozenset({"d_boost", "p_boost", "spirit_window", "monster_target", "monster_opportunity",
                     "monster_fall_back", "maelstrom", "ignore"})
WINDOW_SECONDS = 300
#: A defender's boost windows (and the window to ignore damage outside an attack) are shorter: the game waits on
#: someone whose turn it may not be.
BOOST_SECONDS = 120


class GuerraDeIndagar(Game[State]):
    id = "guerra-de-indagar"
    kind_names = "gi.kind."
    name_key = "gi.name"
    min_seats = 1
    max_seats = 4
    supports_ai: ClassVar[bool] = True

    def options(self) -> Sequence[OptionSpec]:
        return [OptionSpec("target", msg("gi.opt.target"), "10",
                           (("10", msg("gi.opt.target_10")), ("7", msg("gi.opt.target_7")))),
                OptionSpec("easy", msg("gi.opt.easy"), False),
                OptionSpec("monster_ties", msg("gi.opt.monster_ties"), "player",
                           (("player", msg("gi.opt.ties_player")), ("auto", msg("gi.opt.ties_auto")))),
                OptionSpec("monsters_start", msg("gi.opt.monsters_start"), "round2",
                           (("round2", msg("gi.opt.start_round2")), ("second_pass", msg("gi.opt.start_second_pass"))))]

    def new(self, options: Mapping[str, Scalar], seats: int, seed: int) -> State:
        self.check_seats(options, seats)
        target = int(str(options.get("target", "10")))
        s = new_state(seats, seed, target, bool(options.get("easy", False)))
        s["monster_ties"] = str(options.get("monster_ties", "player"))
        s["monsters_start"] = str(options.get("monsters_start", "round2"))
        return s

    def seat_count(self, state: State) -> int:
        return int(state["players_n"])

    def to_json(self, state: State) -> dict[str, Any]:
        # The contract's plain JSON object, sharing nothing with the state: a JSON round trip copies the state's
        # plain data (as `copy_state` does) in half the time of a deep copy, and every move stores it.
        copied: dict[str, Any] = json.loads(json.dumps(state))
        return copied

    def from_json(self, data: Mapping[str, Any]) -> State:
        # The one boundary where a stored JSON object becomes a State: written by `to_json`, checked by the tests'
        # JSON round trip and by `check_invariants`.
        return cast(State, copy.deepcopy(dict(data)))

    def copy_state(self, state: State) -> State:
        copied: State = json.loads(json.dumps(state))
        return copied

    # ---------------------------------------------------------------- turns

    def to_act(self, state: State) -> frozenset[int]:
        if state["result"] is not None:
            return frozenset()
        seat = actions.seat_to_act(state)
        return frozenset({seat}) if seat is not None else frozenset({SYSTEM})

    def turn_key(self, state: State) -> tuple[int, str, int, tuple[int, ...]]:
        return (state["round"], state["phase"], state["ring_pos"], tuple(self.to_act(state)))

    def legal_actions(self, state: State, seat: int) -> list[LegalAction]:
        if seat == SYSTEM:
            return []
        return actions.legal(state, seat)

    def choices(self, state: State, seat: int, path: Sequence[str]) -> list[Choice] | Action:
        """Moves built in steps; a trade is built as people think of it, what to give and then what to get (the
        move's own words, `trade get=… give=[…]`, name the get first)."""
        path = tuple(path)
        if path[:1] == ("trade",):
            return _trade_steps(self.legal_actions(state, seat), path[1:])
        return super().choices(state, seat, path)

    def step_name(self, path: tuple[str, ...], token: str, moves: Sequence[LegalAction]) -> Msg | None:
        """A strategy tree declared with the coin or with the bolt: the side is named by what it does; a monster's
        home tile, chosen before the monster, as a home."""
        if path[:1] == ("declare",) and token in ("side=coin", "side=bolt"):
            return msg(f"gi.step.{token.replace('=', '.')}")
        if path[:1] == ("monster",) and token.startswith("home="):
            return msg("gi.step.home", tile=token.partition("=")[2])
        return super().step_name(path, token, moves)

    def system_action(self, state: State) -> Action:
        return Action.of(flow.system_kind(state))

    def decisions(self, state: State) -> list[Decision]:
        if not state["pending"] or state["result"] is not None:
            return []
        item = state["pending"][0]
        if item["kind"] not in DECISIONS:
            return []
        default = self._default(state, item)
        window = item["kind"] in WINDOWS  # answered out of one's own turn: asked privately, with a deadline
        seconds = BOOST_SECONDS if item["kind"] in ("d_boost", "p_boost", "ignore") else WINDOW_SECONDS
        return [Decision(item["seat"], msg(ASK_KEYS[item["kind"]]), default, private=window,
                         seconds=seconds if window else None)]

    def _default(self, state: State, item: Question) -> Action:
        options = actions.legal(state, item["seat"])
        wanted = DECISIONS.get(item["kind"], "")
        if item["kind"] == "cache":
            wanted = str(item["hero"])
        if item["kind"] == "declare":  # keep last round's tree
            wanted = str(state["players"][item["seat"]]["tree"])
        for la in options:
            args = args_of(la.action)
            picks = (la.action.kind, args.get("side"), args.get("hero"), args.get("tree"))
            if wanted and wanted in picks:
                return la.action
        return options[0].action

    def skip_action(self, state: State, seat: int) -> Action | None:
        options = actions.legal(state, seat)
        if not options:
            return None
        if state["pending"]:
            item = state["pending"][0]
            if item["kind"] in DECISIONS:
                return self._default(state, item)
            for kind in ("roll_defence", "stay", "keep_hidden"):
                if any(la.action.kind == kind for la in options):
                    return Action.of(kind)
            return options[0].action  # degrade: "leave" is listed first
        for kind in ("end", "activate", "attack"):  # an owed attack (after a Charge! step) before any trade
            found = [la.action for la in options if la.action.kind == kind]
            if found:
                return found[0]
        return options[0].action

    def quick_actions(self, state: State) -> list[tuple[Msg, Action]] | None:
        seat = actions.seat_to_act(state)
        if seat is None:
            return []
        return [(la.label, la.action) for la in actions.legal(state, seat)
                if la.action.kind in ("end", "roll_defence", "done", "stay", "keep_hidden", "reveal", "charge")][:8]

    def why_illegal(self, state: State, seat: int, action: Action) -> Msg | None:
        if state["result"] is not None:
            return msg("gi.error.over")
        if seat not in self.to_act(state):
            return msg("gi.error.not_your_turn")
        if not self.is_legal(state, seat, action):
            return msg("gi.error.illegal")
        return None

    def apply(self, state: State, seat: int, action: Action) -> Step:
        if state["result"] is not None:
            raise GameOver(msg("gi.error.over"))
        s = self.copy_state(state)
        rng = Rng(s["rng"])
        events: list[Event] = []
        if seat == SYSTEM:
            if SYSTEM not in self.to_act(state) or action != self.system_action(state):
                raise IllegalAction(msg("gi.error.illegal"))
            flow.system_step(s, action.kind, rng, events)
            hidden = True
        else:
            if seat not in self.to_act(state):
                raise NotYourTurn(msg("gi.error.not_your_turn"))
            if not self.is_legal(state, seat, action):
                raise IllegalAction(msg("gi.error.illegal"))
            hidden = actions.apply(s, seat, action, rng, events)
            flow.run(s, rng, events)
        undoable = not hidden and rng.state == s["rng"]
        s["rng"] = rng.state
        return Step(s, events, undoable=undoable)

    def ai_action(self, state: State, seat: int, rng: Rng, level: str = "normal") -> Action:
        """The AI's move; `level` is `easy`, `normal` or `hard` (anything else plays `normal`)."""
        return ai.choose(actions.legal(state, seat), state, seat, rng, level)

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        if result["key"] == "gi.end.monster":
            summary = msg("gi.end.monster", monster=monster_name(result["monster"]))
        else:
            summary = msg(result["key"])
        ranking = tuple(sorted(range(state["players_n"]),
                               key=lambda x: (-primacy_points(state, x), state["order"].index(x))))
        return Outcome(frozenset(result["winners"]), summary, ranking)

    def final_figures(self, state: State) -> list[Msg]:
        """Rounds played, the target, then each player's faction, primacy points and outposts, best first."""
        s = state
        lines = [msg("gi.figures.rounds", n=s["round"], target=s["target"])]
        for seat in sorted(range(s["players_n"]), key=lambda x: (-primacy_points(s, x), s["order"].index(x))):
            faction = s["players"][seat]["faction"]
            lines.append(msg("gi.figures.player", seat=SeatRef(seat),
                             faction=faction_name(faction) if faction else msg("gi.figures.no_faction"),
                             pp=primacy_points(s, seat),
                             outposts=sum(1 for p in s["outposts"].values() if p["owner"] == seat)))
        return lines

    def record_figures(self, state: State) -> dict[int, dict[str, int]]:
        """Primacy points and outposts."""
        return {seat: {"pp": primacy_points(state, seat),
                       "outposts": sum(1 for p in state["outposts"].values() if p["owner"] == seat)}
                for seat in range(state["players_n"])}

    # ---------------------------------------------------------------- what each seat sees

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return dict(view_of(state, seat))  # the contract's plain dict (see views.View for its keys)

    def secret_tokens(self, state: State) -> dict[str, frozenset[int]]:
        """Every face-down tile's identity: nobody may see it but the seats that explored it."""
        knowers: dict[str, set[int]] = {}
        for seat, player in enumerate(state["players"]):
            for k in player["known"]:
                knowers.setdefault(k, set()).add(seat)
        return {f"{tile_label(state, k)}={t['t']}": frozenset(knowers.get(k, ()))
                for k, t in state["tiles"].items() if not t["up"] and t["t"] is not None}

    def check_invariants(self, state: State) -> list[str]:
        return check(state)


GAME = GuerraDeIndagar()
__all__ = ["GAME"]


def _trade_steps(legal: Sequence[LegalAction], rest: tuple[str, ...]) -> list[Choice] | Action:
    """The steps of a trade after its kind: the three resources to give (`give=[gold,gold,wood]`), then the one to
    get (`get=wood`, named by the whole trade), then the trade itself."""
    by_give: dict[str, list[LegalAction]] = {}
    for la in legal:
        if la.action.kind == "trade":
            by_give.setdefault(Action.of("give", give=args_of(la.action)["give"]).token().split(" ")[1], []).append(la)
    if not rest:
        return [Choice(give, msg("gi.step.give", give=moves[0].label.params["give"]))
                for give, moves in by_give.items()]
    moves = by_give.get(rest[0], [])
    gets = {f"get={args_of(la.action)['get']}": la for la in moves}
    if len(rest) == 1:
        return [Choice(token, la.label) for token, la in gets.items()]
    found = gets.get(rest[1]) if len(rest) == 2 else None
    return found.action if found is not None else []

"""Team decisions before a wave (§2.2 step 7, §4.7 step 3): a seat may leave the shared choices (the starting
towers, the team's gold) to the others and act once they are done, and say what it would do meanwhile."""

from __future__ import annotations

from rules.base import Action, Event, LegalAction
from rules.kings_armory import data, figures, queries, shop
from rules.kings_armory.shapes import State
from rules.rng import Rng
from rules.text import Lit, Msg, Param, SeatRef, msg

#: Moves that spend or change what the whole team shares (its gold, its towers): the ones a seat may propose.
SHARED = ("build", "sell", "hire", "upgrade", "repair")
#: The argument each shared move takes, written after the kind in a proposal ("build:C5", "hire:archer").
_ARG = {"build": "at", "sell": "tower", "hire": "type", "upgrade": "ally", "repair": None}
#: Most moves one proposal may hold (the AI's never comes near: the towers it lacks and a few champions).
MAX_PLAN = 12


def deferred(state: State) -> list[int]:
    """The seats that left this round of shopping to the team (older saved games have none)."""
    return list(state.get("deferred", []))


def deciding(state: State) -> frozenset[int]:
    """The seats choosing now: those not ready that have not left it to the team, or, once only seats that left
    it remain, those (everyone else has had their chance)."""
    ready, waiting = state["ready"], deferred(state)
    open_ = [x for x in range(state["n"]) if x not in ready]
    return frozenset([x for x in open_ if x not in waiting] or open_)


def held(state: State, seat: int) -> bool:
    """Whether `seat` left it to the team and some other seat is still choosing."""
    return state["phase"] in ("setup", "between") and seat not in state["ready"] and seat in deferred(state) \
        and seat not in deciding(state)


def can_defer(state: State, seat: int) -> bool:
    """Once per shopping round, while some other seat is not ready yet (alone, there is nobody to leave it to)."""
    return state["phase"] in ("setup", "between") and state["result"] is None and seat not in state["ready"] \
        and seat not in deferred(state) and any(x != seat and x not in state["ready"] for x in range(state["n"]))


def legal(state: State, seat: int) -> list[LegalAction]:
    if not can_defer(state, seat):
        return []
    return [LegalAction(Action.of("defer"), msg("ka.coop.act.defer"), group="defer",
                        description=msg("ka.coop.act.defer_about"))]


# ---------------------------------------------------------------- proposals


def item(action: Action) -> str:
    """A shared move written as one proposal item ("build:C5", "repair")."""
    arg = _ARG[action.kind]
    return action.kind if arg is None else f"{action.kind}:{action[arg]}"


def move(text: str) -> Action | None:
    """The move a proposal item stands for, or None when it names none."""
    kind, _, value = text.partition(":")
    if kind not in _ARG:
        return None
    arg = _ARG[kind]
    if arg is None:
        return Action.of(kind) if not value else None
    return Action.of(kind, **{arg: value}) if value else None


def plan_of(action: Action) -> list[str]:
    plan = action.get("plan", ())
    return [str(x) for x in plan] if isinstance(plan, tuple) else [str(plan)]


def try_plan(state: State, seat: int, plan: list[str], labels: list[Param] | None = None) -> State | None:
    """A copy of the state after `seat` makes every move of `plan` in turn, or None when one of them is not
    legal by then; `labels` receives how each is read out."""
    sim = queries.clone(state)
    sim["ready"] = [x for x in sim["ready"] if x != seat]
    rng = Rng(state["rng_state"])  # shared moves draw nothing
    for text in plan:
        action = move(text)
        if action is None or not shop.is_legal(sim, seat, action):
            return None
        if labels is not None:
            labels.append(_label(sim, action))
        shop.apply(sim, rng, [], seat, action)
    return sim


def after_proposals(state: State) -> State:
    """The state as it would be after everything already proposed this round (a later proposal builds on them)."""
    sim = queries.clone(state)
    for seat, text in state.get("proposed", []):
        done = try_plan(sim, int(seat), [str(text)])
        if done is not None:
            sim = done
    return sim


def defer_ok(state: State, seat: int, action: Action) -> bool:
    if not can_defer(state, seat) or set(action.arg_dict) - {"plan"}:
        return False
    plan = plan_of(action)
    return len(plan) <= MAX_PLAN and (not plan or try_plan(after_proposals(state), seat, plan) is not None)


def _label(state: State, action: Action) -> Msg:
    """One proposal item as players read it: "a tower at C5", "an archer", "Bram to level 2"."""
    kind, b = action.kind, queries.board_of(state)
    if kind == "build":
        return msg("ka.coop.item.build", square=str(action["at"]))
    if kind == "sell":
        t = next(t for t in state["towers"] if t["id"] == action["tower"])
        return msg("ka.coop.item.sell", square=b.label((t["at"][0], t["at"][1])))
    if kind == "hire":
        champ = data.champions()[str(action["type"])]
        return msg("ka.coop.item.hire", champion=Lit(champ["es"], champ["en"]), n=1)
    if kind == "upgrade":
        a = queries.ally(state, str(action["ally"]))
        return msg("ka.coop.item.upgrade", ally=figures.ally_name(a), level=a["level"] + 1)
    return msg("ka.coop.item.repair")


def _merged(labels: list[Param]) -> list[Param]:
    """Champions of one kind hired together are read out once, with their number ("3 new Archers")."""
    out: list[Param] = []
    hires: dict[Param, int] = {}  # champion name -> its place in `out`
    for label in labels:
        if not (isinstance(label, Msg) and label.key == "ka.coop.item.hire"):
            out.append(label)
            continue
        name = label.params["champion"]
        if name not in hires:
            hires[name] = len(out)
            out.append(label)
            continue
        kept = out[hires[name]]
        assert isinstance(kept, Msg)
        out[hires[name]] = Msg(kept.key, {**kept.params, "n": int(str(kept.params["n"])) + 1})
    return out


def listing(items: list[Param]) -> Msg:
    """"a, b and c" in the reader's language (the shared core.list keys)."""
    if len(items) <= 6:
        return Msg(f"core.list.{len(items)}", {f"s{i}": v for i, v in enumerate(items)})
    return Msg("core.list.many", {**{f"s{i}": v for i, v in enumerate(items[:5])}, "n": len(items) - 5})


def apply(state: State, events: list[Event], seat: int, action: Action) -> None:
    """The seat steps back until the others are done; what it proposes is told to everyone."""
    plan = plan_of(action)
    labels: list[Param] = []
    before = after_proposals(state)
    after = try_plan(before, seat, plan, labels)
    assert after is not None
    state["deferred"] = [*deferred(state), seat]
    items: list[list[int | str]] = [[seat, text] for text in plan]
    state["proposed"] = [*state.get("proposed", []), *items]
    if not plan:
        events.append(Event(msg("ka.coop.ev.defer", seat=SeatRef(seat))))
    elif state["phase"] == "setup":
        events.append(Event(msg("ka.coop.ev.propose_towers", seat=SeatRef(seat), items=listing(labels))))
    else:
        events.append(Event(msg("ka.coop.ev.propose", seat=SeatRef(seat), items=listing(_merged(labels)),
                                gold=max(0, before["gold"] - after["gold"]))))


def announce_return(before: State, state: State, events: list[Event]) -> None:
    """When the last seat still choosing is done, the seats that left it to the team are told it is theirs."""
    if state["phase"] not in ("setup", "between") or not any(held(before, x) for x in range(before["n"])):
        return
    if not any(held(state, x) for x in range(state["n"])):
        back = sorted(deciding(state))
        events.append(Event(msg("ka.coop.ev.back", seats=listing([SeatRef(x) for x in back]), n=len(back))))


def reset(state: State) -> None:
    """A new round of shopping (the set-up, or the pause between two waves) starts with nobody stepping back."""
    state["deferred"], state["proposed"] = [], []

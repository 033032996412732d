"""Standing block orders: an ally blocks whenever it can, lets every monster pass, or has its player asked (§4.3)."""

from __future__ import annotations

from rules.base import Action, Event, LegalAction
from rules.kings_armory import figures, queries
from rules.kings_armory.shapes import Ally, State
from rules.text import msg

#: `ask` opens the react window (the default); `block` blocks at the first square it can; `pass` never blocks.
MODES = ("ask", "block", "pass")


def mode(ally: Ally) -> str:
    return str(ally.get("order", "ask"))


def legal(state: State, seat: int) -> list[LegalAction]:
    """The orders `seat` may give now: to each of its allies able to block, each mode other than the current."""
    if state["phase"] in ("pick", "over") or state["result"] is not None:
        return []
    out = []
    for a in state["allies"]:
        if a["seat"] != seat or figures.tank(a) <= 0:
            continue
        out += [LegalAction(Action.of("order", ally=a["id"], mode=m),
                            msg(f"ka.act.order_{m}", ally=figures.ally_name(a)), group="order")
                for m in MODES if m != mode(a)]
    return out


def ok(state: State, seat: int, action: Action) -> bool:
    return any(la.action == action for la in legal(state, seat))


def apply(state: State, events: list[Event], action: Action) -> None:
    a = queries.ally(state, str(action["ally"]))
    a["order"] = str(action["mode"])
    events.append(Event(msg(f"ka.ev.order_{a['order']}", ally=figures.ally_name(a))))

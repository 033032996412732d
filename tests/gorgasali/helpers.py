"""Small boards, hand-placed fighters, cards put on mats and dice forced through the state's seed."""

from __future__ import annotations

from rules.base import SYSTEM, Action, ArgValue, Scalar
from rules.coords import name
from rules.gorgasali import GAME
from rules.gorgasali.data import CHARACTERS, MapSector, check_map
from rules.gorgasali.engine import Ctx, slot_of, square, start_turn
from rules.gorgasali.state import AREAS, Deck, MapData, State
from rules.rng import Rng


def plain(w: int = 10, h: int = 10, marks: dict[tuple[int, int], str] | None = None,
          zone: str = "4") -> MapData:
    """A `w`×`h` map of plain squares, with terrain letters at `marks`, every square in zone `zone`."""
    rows = [["."] * w for _ in range(h)]
    for (r, c), ch in (marks or {}).items():
        rows[r][c] = ch
    sectors: list[MapSector] = [{"n": i + 1, "at": name(0, i), "duo": name(1, i)} for i in range(w)]
    return check_map({"width": w, "height": h, "rows": ["".join(r) for r in rows], "zones": [zone * w] * h,
                      "sectors": sectors})


def setup(chars: list[str], at: list[tuple[int, int]], board: MapData | None = None, *,
          mode: str = "ffa", seed: int = 1) -> State:
    """A game in round 1 on `board` with seat i playing chars[i] on square at[i]; seat 0 is on turn, no cards."""
    board = board or plain()
    s = GAME.new_on({"mode": mode, "characters": "random", "final_zone": "shrink"}, len(chars), seed, board)
    for p, ch, (r, c) in zip(s["players"], chars, at, strict=True):
        p["char"] = ch
        p["cd"] = CHARACTERS[ch].cooldown or 0
        p["copy"] = None
        p["pos"] = r * board["w"] + c
        p["turns"] = 0
    s["order"] = list(range(len(chars)))
    if mode == "duo":  # these tests pair seats i and i + n/2, so the order 0, 1, 2, 3 alternates teams
        for p in s["players"]:
            p["team"] = p["seat"] % (len(chars) // 2)
    s["phase"] = "play"
    s["round"] = 1
    ctx = Ctx(s)
    start_turn(ctx, 0)
    ctx.finish()
    return s


def sq(s: State, r: int, c: int) -> int:
    return r * s["board"]["w"] + c


def at(s: State, seat: int) -> tuple[int, int]:
    return divmod(square(s["players"][seat]), s["board"]["w"])


def give(s: State, seat: int, key: str, *, backpack: bool = False, loaded: bool = True) -> str:
    """Move a card `key` from its deck onto `seat`'s mat; returns its id."""
    deck: Deck = "wdeck" if any(s["cards"][c] == key for c in s["wdeck"]) else "sdeck"
    cid = next(c for c in s[deck] if s["cards"][c] == key)
    s[deck].remove(cid)
    s["players"][seat]["mat"][slot_of(s, cid)]["p" if backpack else "a"].append(cid)
    if not loaded:
        s["unloaded"].append(cid)
    return cid


def force(s: State, *faces: int) -> None:
    """Set the state's generator so that its next d6 rolls are `faces`."""
    for x in range(2_000_000):
        rng = Rng(x)
        if all(rng.die() == f for f in faces):
            s["rng"] = x
            return
    raise AssertionError(f"no seed gives {faces}")


def play(s: State, seat: int, kind: str, **args: ArgValue | list[Scalar]) -> State:
    return GAME.apply(s, seat, Action.of(kind, **args)).state


def events(s: State, seat: int, kind: str, **args: ArgValue | list[Scalar]) -> tuple[State, list[str]]:
    step = GAME.apply(s, seat, Action.of(kind, **args))
    return step.state, [e.msg.key for e in step.events]


def why(s: State, seat: int, kind: str, **args: ArgValue | list[Scalar]) -> str | None:
    reason = GAME.why_illegal(s, seat, Action.of(kind, **args))
    return None if reason is None else reason.key


def to_after(s: State, seat: int, dice: tuple[int, int] = (1, 2)) -> State:
    """Roll `dice` and stay put (or, when staying is refused, end a stuck movement): Actions 4-6 come next."""
    force(s, *dice)
    s = play(s, seat, "roll") if why(s, seat, "roll") is None else s
    if why(s, seat, "skip") is None:
        return play(s, seat, "skip")
    while s["t"].get("stage") in ("rolled", "moving") and s["turn"] == seat:
        step = next((d for d in "NESW" if why(s, seat, "step", dir=d) is None), None)
        s = play(s, seat, "step", dir=step) if step else play(s, seat, "stop")
    return s


def pass_turn(s: State, seat: int, dice: tuple[int, int] = (1, 2)) -> State:
    """`seat` rolls, stays put if allowed (else steps until the movement ends), and ends its turn."""
    s = play(to_after(s, seat, dice), seat, "end")
    while GAME.to_act(s) == {SYSTEM}:  # the zone closing between rounds
        s = GAME.apply(s, SYSTEM, GAME.system_action(s)).state
    return s


def hp(s: State, seat: int) -> int:
    return int(s["players"][seat]["hp"])


def holds(s: State, seat: int, key: str) -> bool:
    p = s["players"][seat]
    return any(s["cards"][c] == key for slot in p["mat"].values() for area in AREAS for c in slot[area])

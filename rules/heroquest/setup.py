"""A new HeroQuest game: heroes on their start squares, the quest's objects, the treasure deck, spell picks."""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence

from rules import coords
from rules.base import BadOptions, Scalar
from rules.heroquest import board, catalog, sight
from rules.heroquest.quest import Quest
from rules.heroquest.shapes import BoardObject, Hero, Monster, Sheet, StateData, equip_slot
from rules.heroquest.state import HIDDEN_PREFIX, SQUARES, Ctx, HQState
from rules.heroquest.turns import start_round
from rules.rng import Rng
from rules.text import msg

TRAP_KINDS = {
    "pit_trap": "pit",
    "long_pit_trap": "pit",
    "deep_pit_trap": "dark_pit",
    "falling_block": "rock",
    "stalactite": "rock",
    "spear_trap": "arrow",
    "star_burst": "arrow",
    "fireburst_trap": "arrow",
    "hurricane_trap": "arrow",
    "swinging_axe": "axe",
    "swinging_blade_trap": "axe",
    "slippery_stairs": "slippery",
    "chest_trap": "furniture",
}
#: Furniture holding a trap -> what the heroes see until the trap is found or sprung (and after: a found-trap token).
TRAPPED_FURNITURE = {"trapped_chest": "chest"}


def trap_kind(ref: str) -> str:
    return TRAP_KINDS.get(ref, "arrow")


def trap_uid(objects: Container[str], sq: Sequence[int]) -> str:
    """Traps are named by their square only ("trap-H11"): a found trap's id says where it is, never what it is."""
    base = f"trap-{coords.name(sq[0], sq[1])}"
    uid, n = base, 1
    while uid in objects:
        n += 1
        uid = f"{base}-{n}"
    return uid


def new_hero(hid: str, seat: int, sheet: Sheet | None = None) -> Hero:
    h = catalog.heroes()[hid]
    equipment = list(sheet["equipment"]) if sheet else list(h["start"])
    hero: Hero = {
        "uid": f"hero_{hid}",
        "hero": hid,
        "seat": seat,
        "sq": None,
        "body": h["body"],
        "max_body": h["body"],
        "mind": h["mind"],
        "max_mind": h["mind"],
        "weapon": None,
        "shield": None,
        "helmet": None,
        "armour": None,
        "items": [],
        "gold": 0,
        "groups": [],
        "spells": [],
        "cast": [],
        "quest_treasures": [],
        "dead": False,
        "left": False,
        "status": {},
        "searched": [],
        "skills": [],
    }
    if sheet:
        for key in ("max_body", "max_mind", "gold"):
            hero[key] = int(sheet[key])
        hero["body"], hero["mind"] = hero["max_body"], hero["max_mind"]
        hero["quest_treasures"] = list(sheet.get("quest_treasures", []))
        hero["skills"] = [k for k in sheet.get("skills", []) if k in catalog.skills()]
    table = catalog.equipment()
    for item in equipment:
        slot = table[item]["slot"] if item in table else "item"
        worn = equip_slot(slot)
        if worn is not None and hero[worn] is None:
            hero[worn] = item
        else:
            hero["items"].append(item)
    return hero


def build(quest: Quest, options: Mapping[str, Scalar], seats: int, seed: int,
          sheets: Mapping[str, Sheet] | None = None) -> HQState:
    heroes_opt = str(options.get("heroes", "barbarian,dwarf,elf,wizard"))
    hero_ids = [h.strip() for h in heroes_opt.split(",") if h.strip()]
    if not hero_ids or len(set(hero_ids)) != len(hero_ids) or any(h not in catalog.heroes() for h in hero_ids):
        raise BadOptions(msg("hq.err.bad_heroes", valid=",".join(catalog.HERO_IDS)))
    if seats < 2 or seats > 6 or seats - 1 > len(hero_ids):
        raise BadOptions(msg("hq.err.seats", heroes=len(hero_ids)))
    players = seats - 1
    heroes = [new_hero(hid, 1 + i % players, (sheets or {}).get(hid)) for i, hid in enumerate(hero_ids)]
    rng = Rng.from_seed(seed)
    deck = [c["id"] for c in catalog.treasure_deck()]
    rng.shuffle(deck)
    objects: dict[str, BoardObject] = {}
    monsters: dict[str, Monster] = {}
    for o in quest.objects:
        if o.kind == "monster":
            stats = catalog.monster(o.ref)
            uid = f"{HIDDEN_PREFIX}{o.uid}"
            monsters[uid] = {
                "uid": uid, "ref": o.ref, "sq": list(o.squares[0]),
                "body": stats["body"], "max_body": stats["body"], "mind": stats["mind"], "max_mind": stats["mind"],
                "revealed": False, "status": {}, "moved": False, "acted": False, "cast": [],
            }
            continue
        uid = trap_uid(objects, o.squares[0]) if o.kind == "trap" else o.uid
        entry: BoardObject = {
            "uid": uid, "kind": o.kind, "ref": o.ref, "squares": [list(q) for q in o.squares],
            "rotation": o.rotation, "between": [list(q) for q in o.between] if o.between else None,
            "note": o.note, "revealed": False,
        }
        if o.kind in ("door", "secret_door"):
            entry["open"] = o.ref == "open_door"
            entry["found"] = o.kind == "door"
        if o.kind == "trap":
            entry.update({"trap": trap_kind(o.ref), "found": False, "sprung": False, "disarmed": False})
        objects[uid] = entry
        if o.kind == "furniture" and o.ref in TRAPPED_FURNITURE:
            uid = trap_uid(objects, o.squares[0])
            objects[uid] = {
                "uid": uid, "kind": "trap", "ref": "chest_trap", "squares": [list(q) for q in o.squares],
                "rotation": o.rotation, "between": None, "note": None, "revealed": False,
                "trap": "furniture", "found": False, "sprung": False, "disarmed": False,
            }
    d: StateData = {
        "seats": seats,
        "opts": {
            "quest": quest.id,
            "movement": str(options.get("movement", "fixed")),
            "die": str(options.get("die", "hqes")),
            "heroes": ",".join(hero_ids),
            "rounds": int(options.get("rounds", 0) or 0),
        },
        "rng": rng.state,
        "round": 1,
        "rev": "0" * SQUARES,
        "heroes": heroes,
        "monsters": monsters,
        "objects": objects,
        "turn": {"who": "setup", "i": 0},
        "pending": [],
        "picks": [],
        "deck": deck,
        "notes_read": [],
        "notes_used": [],
        "log": [],
        "thrown": [],
        "spawned": 0,
        "over": None,
    }
    state = HQState.load(quest.to_json(), d)
    _place_heroes(state, quest)
    ctx = Ctx(state)
    ctx.say("hq.ev.quest_begins", quest=quest.name)
    if quest.speech.en.strip():
        ctx.say("hq.ev.speech", text=quest.speech)
    sight.refresh(ctx)
    ctx.finish()
    _plan_spell_picks(state)
    return state


def _place_heroes(state: HQState, quest: Quest) -> None:
    taken: set[tuple[int, int]] = set()
    occupied = {tuple(m["sq"]) for m in state.monsters.values()} | state.blocked_squares()
    starts = [q for q in quest.start if q not in occupied]
    room = quest.start_room()
    spare = sorted(board.room_squares(room)) if room is not None else []
    for h in state.heroes:
        sq = next((q for q in starts if q not in taken), None)
        if sq is None:
            sq = next((q for q in spare if q not in taken and q not in occupied), None)
        if sq is None and taken:
            # more heroes than free start squares (a Door In with one free square inside): the rest wait at
            # the door and enter one by one, each on its own turn (data/heroquest/NOTES.md, provisional)
            h["outside"] = True
            continue
        if sq is None:
            raise BadOptions(msg("hq.err.no_start_square"))
        taken.add(sq)
        h["sq"] = list(sq)


def _plan_spell_picks(state: HQState) -> None:
    """Wizard chooses first, then the Elf, then the Wizard takes the rest (rulebook, Elección de Hechizos)."""
    casters = {h["hero"]: h for h in state.heroes if catalog.heroes()[h["hero"]]["spell_groups"] > 0}
    picks: list[str] = []
    if "wizard" in casters:
        picks.append(casters["wizard"]["uid"])
        if "elf" in casters:
            picks.append(casters["elf"]["uid"])
        else:
            picks += [casters["wizard"]["uid"]] * (catalog.heroes()["wizard"]["spell_groups"] - 1)
    elif "elf" in casters:
        picks.append(casters["elf"]["uid"])
    if len(casters) == 1:
        # Extra Spell Group: one more of the groups nobody else can take
        only = next(iter(casters.values()))
        if "extra_spell_group" in only["skills"]:
            picks.append(only["uid"])
    state.d["picks"] = picks
    if picks:
        state.d["turn"] = {"who": "setup", "i": 0}
    else:
        ctx = Ctx(state)
        start_round(ctx)
        ctx.finish()


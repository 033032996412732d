"""The HeroQuest rules engine (GM-assisted): seats, options, dispatch of every action, views and checks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, cast

from rules.base import (
    AI_LEVELS,
    Action,
    BadOptions,
    Game,
    GameOver,
    IllegalAction,
    Json,
    LegalAction,
    NotYourTurn,
    OptionSpec,
    Outcome,
    RuleError,
    Scalar,
    Step,
)
from rules.heroquest import board, campaign, catalog, gm, hero_actions, sight, trade, view
from rules.heroquest import descriptions as describe
from rules.heroquest.quest import MAX_PROBLEMS, Quest, QuestError, QuestJson, builtin_quests
from rules.heroquest.setup import build
from rules.heroquest.shapes import HeroRecord, MsgJson, Sheet, StateData
from rules.heroquest.state import (
    GM,
    Ctx,
    HQState,
    as_square,
    hero_label,
    hero_square,
    is_outside,
    json_copy,
    parse_sq,
    sq_token,
)
from rules.heroquest.turns import die, end_hero_turn, finish, mark_potion, start_round
from rules.heroquest.upload import import_quest
from rules.text import Lit, Msg, SeatRef, msg

#: The public turn message's buttons, in order: (action kind, label key).
QUICK_HERO = (("enter", "hq.bot.button.enter"), ("search_treasure", "hq.bot.button.treasure"),
              ("search_traps", "hq.bot.button.traps"), ("search_secret", "hq.bot.button.secret"),
              ("end_turn", "hq.bot.button.end"))
QUICK_GM = (("gm_autoplay", "hq.bot.button.autoplay"), ("end_turn", "hq.bot.button.gm_end"))

DEFAULT_HEROES = "barbarian,dwarf,elf,wizard"


def hero_choices() -> list[str]:
    """Every non-empty team of the four base heroes, in the usual order (non-magic first)."""
    out = []
    for n in range(len(catalog.HERO_IDS), 0, -1):
        out += [",".join(c) for c in combinations(catalog.HERO_IDS, n)]
    return out


def _team_names(team: str) -> Lit:
    """A team option's heroes by name ("Barbarian, Elf"), in both languages."""
    names = [catalog.hero_name(hid) for hid in team.split(",")]
    return Lit(", ".join(n.es for n in names), ", ".join(n.en for n in names))


class HeroQuest(Game[HQState]):
    id = "heroquest"
    kind_names = "hq.kind."
    record_kind = "unrated"  # heroes against a human game master: a record, never a rating
    name_key = "hq.name"
    min_seats = 2
    max_seats = 6
    supports_ai = False
    static_keys = ("quest",)

    # ---- setup

    def options(self) -> Sequence[OptionSpec]:
        quests = builtin_quests()
        quest_choices = tuple((qid, msg("hq.opt.quest_named", name=q.name)) for qid, q in quests.items())
        return (
            OptionSpec("quest", msg("hq.opt.quest"), next(iter(quests), ""), quest_choices),
            OptionSpec("heroes", msg("hq.opt.heroes"), DEFAULT_HEROES,
                       tuple((c, msg("hq.opt.heroes_list", heroes=_team_names(c))) for c in hero_choices())),
            OptionSpec("movement", msg("hq.opt.movement"), "fixed",
                       (("fixed", msg("hq.opt.movement.fixed")), ("2d6", msg("hq.opt.movement.2d6")))),
            OptionSpec("die", msg("hq.opt.die"), "hqes",
                       (("hqes", msg("hq.opt.die.hqes")), ("original", msg("hq.opt.die.original")))),
            OptionSpec("rounds", msg("hq.opt.rounds"), 0, low=0, high=500),
        )

    def seat_role(self, options: Mapping[str, Scalar], seat: int) -> str:
        return "gm" if seat == GM else "player"

    def check_seats(self, options: Mapping[str, Scalar], seats: int) -> None:
        super().check_seats(options, seats)
        heroes = str(options.get("heroes", DEFAULT_HEROES)).split(",")
        if seats - 1 > len(heroes):
            raise BadOptions(msg("hq.err.seats", heroes=len(heroes)))

    def new(self, options: Mapping[str, Scalar], seats: int, seed: int) -> HQState:
        quests = builtin_quests()
        qid = str(options.get("quest") or next(iter(quests), ""))
        if qid not in quests:
            raise BadOptions(msg("hq.err.unknown_quest"))
        return self.new_with_quest(quests[qid], options, seats, seed)

    def new_with_quest(self, quest: Quest, options: Mapping[str, Scalar], seats: int, seed: int,
                       sheets: Mapping[str, Sheet] | None = None) -> HQState:
        """A game on any quest (e.g. an uploaded HeroScribe file); `sheets` carries heroes between quests."""
        self.check_seats(options, seats)
        return build(quest, options, seats, seed, sheets)

    def new_with_setup(self, setup: Mapping[str, Any], options: Mapping[str, Scalar], seats: int,
                       seed: int) -> HQState:
        """The table's entry point: an uploaded quest (`setup["quest"]`) and this server's character sheets."""
        sheets: dict[str, Sheet] = dict(setup.get("profiles") or {})
        if setup.get("quest") is not None:
            quest = Quest.from_json(setup["quest"])
            state = self.new_with_quest(quest, options, seats, seed, sheets)
        else:
            quests = builtin_quests()
            qid = str(options.get("quest") or next(iter(quests), ""))
            if qid not in quests:
                raise BadOptions(msg("hq.err.unknown_quest"))
            state = self.new_with_quest(quests[qid], options, seats, seed, sheets)
        state.d["sheets_in"] = json_copy(sheets)
        state.d["import_warnings"] = _warnings(setup.get("warnings"))
        return state

    def setup_from_upload(self, data: bytes, filename: str) -> dict[str, Json]:
        """A HeroScribe or own-format quest file attached to `/game new`: the quest and its warnings for the
        game master (`setup["warnings"]`, `rules.text.Msg` JSON); QuestError naming its problems."""
        try:
            imported = import_quest(data, filename)
        except QuestError as exc:
            raise QuestError(exc.summary(), exc.problems) from None
        return cast(dict[str, Json], dict(imported.setup()))  # a SetupJson is JSON; the base speaks of any JSON

    upload_overrides = ("quest",)

    def watchers(self, state: HQState) -> frozenset[int]:
        """The game master gets the updated map after every hero's turn, not only when it is theirs."""
        return frozenset() if state.d["over"] else frozenset({GM})

    def may_act(self, state: HQState, seat: int, action: Action) -> bool:
        """The game master's tools (placing, revealing, adjusting...) work at any moment."""
        return (seat == GM and action.kind in gm.ANYTIME and not state.d["over"]) or seat in self.to_act(state)

    def profile_keys(self, options: Mapping[str, Scalar], seats: int) -> list[str]:
        return str(options.get("heroes", DEFAULT_HEROES)).split(",")

    def profile_updates(self, state: HQState) -> dict[str, dict[str, Json]]:
        """Each hero's character sheet after the quest: gold, equipment, treasures, quests completed."""
        if not state.d["over"]:
            return {}
        won = state.d["over"]["result"] == "win"
        start = state.d.get("sheets_in") or {}
        out: dict[str, dict[str, Json]] = {}
        for hero, record in self.sheets(state).items():
            sheet = campaign.after_quest(start.get(hero) or campaign.new_sheet(hero), record)
            if won and not record.get("dead"):
                sheet = campaign.complete_quest(sheet)
            out[hero] = cast(dict[str, Json], dict(sheet))  # a Sheet is JSON; the records keep any JSON
        return out

    # ---- turns

    def to_act(self, state: HQState) -> frozenset[int]:
        s = state
        if s.d["over"]:
            return frozenset()
        if s.d["pending"]:
            h = s.hero(s.d["pending"][0]["hero"])
            return frozenset({h["seat"]}) if h else frozenset({GM})
        if s.d["picks"]:
            h = s.hero(s.d["picks"][0])
            return frozenset({h["seat"]}) if h else frozenset({GM})
        turn = s.d["turn"]
        if turn["who"] == "hero":
            return frozenset({s.heroes[turn["i"]]["seat"]})
        return frozenset({GM})

    def turn_key(self, state: HQState) -> tuple[int, str, int, int]:
        turn = state.d["turn"]
        return (state.d["round"], turn["who"], turn.get("i", 0), len(state.d["picks"]))

    def quick_actions(self, state: HQState) -> list[tuple[Msg, Action]]:
        """The turn message's buttons, only those the seat on turn may use now (no search while a monster is in
        sight, none while a question waits for its answer)."""
        if state.d["over"] or state.d["pending"]:
            return []
        keys = QUICK_GM if state.d["turn"]["who"] == "gm" else QUICK_HERO
        out: list[tuple[Msg, Action]] = []
        for seat in sorted(self.to_act(state)):
            legal = {la.action.kind: la.action for la in self.legal_actions(state, seat)}
            out += [(msg(key), legal[kind]) for kind, key in keys if kind in legal]
        return out[:8]

    def legal_actions(self, state: HQState, seat: int) -> list[LegalAction]:
        if not state.sealed:
            return self._legal(state, seat)
        known = state.legal_memo.get(seat)
        if known is None:
            known = state.legal_memo[seat] = self._legal(state, seat)
        return list(known)

    def _legal(self, state: HQState, seat: int) -> list[LegalAction]:
        s = state
        if seat not in self.to_act(s):
            return []
        if s.d["pending"]:
            return _pending_legal(s)
        if s.d["picks"]:
            h = s.hero(s.d["picks"][0])
            assert h is not None
            taken = {g for x in s.heroes for g in x["groups"]}
            return [LegalAction(Action.of("choose_spells", group=g),
                                msg("hq.act.choose_spells", hero=hero_label(h), group=catalog.group_name(g)), "spell",
                                describe.group(g))
                    for g in catalog.spells()["order"] if g not in taken]
        if s.d["turn"]["who"] == "gm":
            return gm.legal(s)
        h = s.current_hero()
        assert h is not None
        return hero_actions.legal(s, h)

    def at_ai_level(self, action: Action, level: str) -> Action:
        """The monsters' autoplay plays at the table's level (normal needs no argument)."""
        if action.kind == "gm_autoplay" and "level" not in action.arg_dict and level != "normal":
            return Action.of("gm_autoplay", level=level)
        return action

    def is_legal(self, state: HQState, seat: int, action: Action) -> bool:
        """Whether `apply` takes this action now, without applying it: the game master's tools by the checks
        they make, leaving by the stairs and the monsters' autoplay by their one condition, every other move
        by being listed in `legal_actions` once spelled as listed (arguments `apply` ignores dropped, squares
        and defaults written out)."""
        s = state
        kind = action.kind
        if s.d["over"] or (kind.startswith("gm_") and seat != GM):
            return False
        if seat == GM and kind in gm.ANYTIME:
            return gm.accepts_tool(s, action)
        if seat not in self.to_act(s):
            return False
        if not s.d["pending"] and not s.d["picks"]:
            if s.d["turn"]["who"] == "gm" and kind == "gm_autoplay":
                return not s.d.get("verdict") and action.get("level", "normal") in AI_LEVELS
            h = s.current_hero()
            if h is not None and kind == "leave":
                return hero_actions.on_stairs(s, h)
        listed = _as_listed(s, action)
        return any(la.action == listed for la in self.legal_actions(s, seat))

    def why_illegal(self, state: HQState, seat: int, action: Action) -> Msg | None:
        """The rule this action breaks now, as the engine itself refuses it (wall in the way, not adjacent,
        already searched...), or None when it would be accepted. Reasons use only what `seat` may know."""
        try:
            self.apply(state, seat, action)
        except RuleError as exc:
            return exc.reason
        return None

    def apply(self, state: HQState, seat: int, action: Action) -> Step:
        if state.d["over"]:
            raise GameOver(msg("hq.err.over"))
        s = state.clone()
        ctx = Ctx(s)
        kind = action.kind
        if kind.startswith("gm_") and seat != GM:
            raise IllegalAction(msg("hq.err.gm_only"))
        if seat == GM and kind in gm.ANYTIME:
            gm.act(ctx, action)
        elif seat not in self.to_act(state):
            raise NotYourTurn(msg("hq.err.not_your_turn"))
        elif s.d["pending"]:
            _resolve_pending(ctx, action)
        elif s.d["picks"]:
            _choose_spells(ctx, action)
        elif s.d["turn"]["who"] == "gm":
            gm.act(ctx, action)
        else:
            h = s.current_hero()
            assert h is not None
            hero_actions.act(ctx, h, action)
        _settle(ctx)
        ctx.finish()
        return Step(s, ctx.events, ctx.undoable)

    def skip_action(self, state: HQState, seat: int) -> Action | None:
        legal = self.legal_actions(state, seat)
        if not legal:
            return None
        for la in legal:
            if la.action.kind in ("end_turn", "decline_trade", "drink", "rock_step", "choose_spells"):
                return la.action
        return legal[-1].action

    # ---- results and views

    def outcome(self, state: HQState) -> Outcome | None:
        over = state.d["over"]
        if not over:
            return None
        players = frozenset(range(1, state.seats))
        winners = players if over["result"] == "win" else frozenset({GM})
        # The reason was told as the quest ended (hq.ev.over.*): the summary names the winners only.
        return Outcome(winners, msg(f"hq.outcome.{over['result']}"))

    def final_figures(self, state: HQState) -> list[Msg]:
        """The quest and the rounds played (the result and its reason were just said), then each hero: body
        points, gold and quest treasures, or dead, or out by the stairs."""
        lines = [msg("hq.figures.quest", quest=state.quest_obj.name, rounds=state.d["round"])]
        for h in state.heroes:
            key = "hq.figures.hero_dead" if h["dead"] else "hq.figures.hero_left" if h["left"] else "hq.figures.hero"
            lines.append(msg(key, hero=hero_label(h), seat=SeatRef(h["seat"]), body=h["body"], max=h["max_body"],
                             gold=h["gold"], treasures=len(h["quest_treasures"])))
        return lines

    def record_figures(self, state: HQState) -> dict[int, dict[str, int]]:
        """Per hero player: quests completed (the quest won, hero alive) and Body points left."""
        over = state.d["over"]
        won = over is not None and over["result"] == "win"
        out: dict[int, dict[str, int]] = {}
        for h in state.heroes:
            row = out.setdefault(h["seat"], {"quests": 0, "body": 0})
            row["quests"] += int(won and not h["dead"])
            row["body"] += 0 if h["dead"] else int(h["body"])
        return out

    def view(self, state: HQState, seat: int | None) -> dict[str, object]:
        out = view.build(state, seat)
        if seat is not None and seat != GM and seat in self.to_act(state):
            out["reach"] = view.reach(self.legal_actions(state, seat))  # the seat on turn's own view only
        return dict(out)

    def to_json(self, state: HQState) -> dict[str, object]:
        return {"quest": state.quest, **state.d}

    def from_json(self, data: Mapping[str, object]) -> HQState:
        rest = {k: v for k, v in data.items() if k != "quest"}
        # stored JSON, written by `to_json` from a typed state: the boundary's one cast
        return HQState.load(cast(QuestJson, json_copy(data["quest"])), cast(StateData, json_copy(rest)))

    def copy_state(self, state: HQState) -> HQState:
        return state.clone()

    def secret_tokens(self, state: HQState) -> Mapping[str, frozenset[int]]:
        only_gm = frozenset({GM})
        out = {uid: only_gm for uid in view.hidden_uids(state)}
        notes = state.quest_obj.notes
        public = {t for k in state.d["notes_read"] if k in notes for t in (notes[k].es, notes[k].en)}
        for key, note in notes.items():
            if key not in state.d["notes_read"]:
                # a note worded exactly like one already read aloud is no secret any more
                out.update({t: only_gm for t in (note.es, note.en) if t not in public})
        return out

    def check_invariants(self, state: HQState) -> list[str]:
        return _invariants(self, state)

    # ---- campaign helpers

    def sheets(self, state: HQState) -> dict[str, HeroRecord]:
        """Each hero's end-of-quest record, to fold into campaign sheets with `campaign.after_quest`."""
        out: dict[str, HeroRecord] = {}
        for h in state.heroes:
            items = [i for i in (h["weapon"], h["shield"], h["helmet"], h["armour"]) if i] + list(h["items"])
            out[h["hero"]] = {"gold": h["gold"], "equipment": items, "quest_treasures": list(h["quest_treasures"]),
                              "dead": h["dead"]}
        return out


#: The arguments `apply` reads, by kind: `is_legal` drops any other before looking an action up in the list.
_ARGS: dict[str, tuple[str, ...]] = {
    "move": ("to",), "enter": ("to",), "jump": ("to",), "jump_in": ("to",), "rock_step": ("to",),
    "open_door": ("door",), "drink": ("item",),
    "give": ("item", "to"), "take": ("item", "from"), "swap": ("item", "to", "want"), "cast": ("spell", "target"),
    "read_scroll": ("item", "target"), "rune": ("power", "rune", "target"), "disarm": ("trap",),
    "equip": ("item",), "unequip": ("slot",), "pick_up": ("index",), "attack": ("fists", "target"),
    "choose_spells": ("group",), "gm_move": ("monster", "to"), "gm_attack": ("monster", "target"),
    "gm_cast": ("caster", "spell", "target"),
}
_SQUARE_ARGS = ("to",)


def _as_listed(s: HQState, action: Action) -> Action:
    """`action` spelled the way `legal_actions` lists it, when `apply` would treat both alike: arguments it
    ignores dropped, squares in their canonical token, a rune's power of 0 and an unarmed hero's bare hands
    written as listed, no target for a Chaos spell cast on the caster."""
    kind = action.kind
    args = {k: action.get(k) for k in _ARGS.get(kind, ()) if action.get(k) is not None}
    for key in _SQUARE_ARGS:
        sq = parse_sq(args.get(key))
        if sq is not None:
            args[key] = sq_token(sq)
    if kind == "rune":
        args.setdefault("power", 0)
    elif kind == "attack":
        h = s.current_hero()
        if args.pop("fists", False) and h is not None and h["weapon"]:
            args["fists"] = True
    elif kind == "gm_cast":
        chaos = catalog.spells()["chaos"]
        if args.get("spell") in chaos and chaos[args["spell"]]["target"] != "hero":
            args.pop("target", None)
    return Action.of(kind, **args)


def _warnings(value: object) -> list[MsgJson]:
    """The upload's warnings as kept in the state (for the game master's view): well-formed and bounded."""
    if not isinstance(value, list):
        return []
    # the stored set-up's boundary: each kept warning was written by Msg.to_json and has its key
    return [cast(MsgJson, json_copy(w)) for w in value[: MAX_PROBLEMS + 1]
            if isinstance(w, dict) and isinstance(w.get("key"), str)]


# ---------------------------------------------------------------- pending decisions


def _pending_legal(s: HQState) -> list[LegalAction]:
    p = s.d["pending"][0]
    h = s.hero(p["hero"])
    assert h is not None
    out = []
    if p["kind"] == "save":
        table = catalog.equipment()
        for item in sorted({i for i in h["items"] if (e := table.get(i)) is not None and e.get("saves")}):
            out.append(LegalAction(Action.of("drink", item=item),
                                   msg("hq.act.drink", hero=hero_label(h), item=catalog.item_name(item)), "items"))
        out.append(LegalAction(Action.of("accept_death"), msg("hq.act.accept_death", hero=hero_label(h)), "turn"))
    elif p["kind"] == "trade":
        out += trade.pending_offers(s, p)
    elif p["kind"] == "rock_step":
        for q in p["options"]:
            out.append(LegalAction(Action.of("rock_step", to=sq_token(q)),
                                   msg("hq.act.rock_step", hero=hero_label(h), sq=sq_token(q)), "move"))
    return out


def _resolve_pending(ctx: Ctx, action: Action) -> None:
    s = ctx.state
    p = s.d["pending"][0]
    h = s.hero(p["hero"])
    assert h is not None
    if p["kind"] == "save":
        if action.kind == "accept_death":
            s.d["pending"].pop(0)
            die(ctx, h)
        elif action.kind == "drink":
            item = action.get("item")
            entry = catalog.equipment().get(str(item))
            if item not in h["items"] or not entry or not entry.get("saves"):
                raise IllegalAction(msg("hq.err.not_owned"))
            s.d["pending"].pop(0)
            h["items"].remove(item)
            mark_potion(s, h)
            heal = entry.get("heal_body", 0)
            if entry.get("heal_body_die"):
                heal += ctx.rng.die(6)
                ctx.undoable = False
            h["body"] = min(h["max_body"], heal - p["deficit"])
            ctx.say("hq.ev.drinks", hero=hero_label(h), item=catalog.item_name(str(item)))
            if h["body"] <= 0:
                die(ctx, h)
            else:
                ctx.say("hq.ev.saved", hero=hero_label(h), body=h["body"])
        else:
            raise IllegalAction(msg("hq.err.decide_first"))
    elif p["kind"] == "trade":
        trade.resolve(ctx, p, action.kind)
    elif p["kind"] == "rock_step":
        target = parse_sq(action.get("to"))
        if action.kind != "rock_step" or target is None or [target[0], target[1]] not in p["options"]:
            raise IllegalAction(msg("hq.err.decide_first"))
        s.d["pending"].pop(0)
        if target in s.figure_at() and s.figure_at()[target][1] is not h:
            raise IllegalAction(msg("hq.err.bad_square"))
        h["sq"] = list(target)
        sight.refresh(ctx)
    if (p.get("then_end") and s.d["turn"]["who"] == "hero" and s.current_hero() is h and not s.d["pending"]
            and not h["dead"]):
        end_hero_turn(ctx)


def _choose_spells(ctx: Ctx, action: Action) -> None:
    s = ctx.state
    group = action.get("group")
    taken = {g for x in s.heroes for g in x["groups"]}
    if action.kind != "choose_spells" or group not in catalog.spells()["groups"] or group in taken:
        raise IllegalAction(msg("hq.err.bad_group"))
    h = s.hero(s.d["picks"].pop(0))
    assert h is not None
    h["groups"].append(group)
    h["spells"] += catalog.spells()["groups"][group]["spells"]
    ctx.say("hq.ev.chose_spells", hero=hero_label(h), group=catalog.group_name(group))
    if not s.d["picks"]:
        wizard = next((x for x in s.heroes if x["hero"] == "wizard"), None)
        rest = [g for g in catalog.spells()["order"] if g not in {g for x in s.heroes for g in x["groups"]}]
        if wizard is not None and any(x["hero"] == "elf" for x in s.heroes):
            for g in rest:
                wizard["groups"].append(g)
                wizard["spells"] += catalog.spells()["groups"][g]["spells"]
                ctx.say("hq.ev.chose_spells", hero=hero_label(wizard), group=catalog.group_name(g))
        start_round(ctx)


def _settle(ctx: Ctx) -> None:
    """After every action: a dead hero's turn ends; with no hero left on the board the quest ends."""
    s = ctx.state
    s.d["pending"] = [p for p in s.d["pending"] if not (s.hero(p["hero"]) or {"dead": True})["dead"]]
    if s.d["over"] or s.d["pending"]:
        return
    if not s.on_board_heroes() and not s.outside_heroes():
        if any(not h["dead"] for h in s.heroes):
            if not s.d.get("verdict"):
                s.d["verdict"] = True
                s.d["turn"] = {"who": "gm", "i": 0, "potions": []}
                ctx.say("hq.ev.verdict_due")
        else:
            finish(ctx, "lose", "all_dead")
        return
    turn = s.d["turn"]
    if turn["who"] == "hero":
        h = s.heroes[turn["i"]]
        if h["dead"] or (h["sq"] is None and not is_outside(h)):
            end_hero_turn(ctx)


# ---------------------------------------------------------------- invariants


def _invariants(game: HeroQuest, s: HQState) -> list[str]:
    out = []
    pending = {p["hero"] for p in s.d["pending"]}
    seen: dict[tuple[int, int], str] = {}
    blocked = s.blocked_squares()
    for h in s.heroes:
        if not 0 <= h["body"] <= h["max_body"]:
            out.append(f"{h['uid']} body {h['body']} outside 0..{h['max_body']}")
        if not 0 <= h["mind"] <= h["max_mind"]:
            out.append(f"{h['uid']} mind {h['mind']} outside 0..{h['max_mind']}")
        if h["dead"] and h["sq"] is not None:
            out.append(f"{h['uid']} is dead but on the board")
        if h.get("outside") and (h["sq"] is not None or h["dead"] or h["left"]):
            out.append(f"{h['uid']} waits at the Door In but is on the board, dead or gone")
        if not h["dead"] and h["body"] == 0 and h["uid"] not in pending and h["sq"] is not None:
            out.append(f"{h['uid']} has no body left but is alive")
        if h["sq"] is not None:
            sq = hero_square(h)
            if sq in seen:
                out.append(f"{h['uid']} shares {sq} with {seen[sq]}")
            seen[sq] = h["uid"]
            if not board.in_board(sq) or sq in blocked:
                out.append(f"{h['uid']} stands on an illegal square {sq}")
    for m in s.monsters.values():
        if not 1 <= m["body"] <= m["max_body"]:
            out.append(f"{m['uid']} body {m['body']} outside 1..{m['max_body']}")
        sq = as_square(m["sq"])
        if sq in seen:
            out.append(f"{m['uid']} shares {sq} with {seen[sq]}")
        seen[sq] = m["uid"]
        if not board.in_board(sq) or sq in blocked:
            out.append(f"{m['uid']} stands on an illegal square {sq}")
    hidden = view.hidden_uids(s)
    for seat in (None, *range(1, s.seats)):
        v = view.build(s, seat)  # the seat's view but for its reach marks, which hold no ids
        shown = {x["uid"] for key in ("objects", "monsters", "doors") for x in v[key]}
        leak = shown & hidden
        if leak:
            out.append(f"view of {seat} shows unrevealed {sorted(leak)[:3]}")
        outside = [x["uid"] for x in v["heroes"] if x["outside"] and x["square"] is not None]
        if outside:
            out.append(f"view of {seat} puts heroes waiting at the Door In on the board {outside}")
        unrevealed = [x["uid"] for x in v["monsters"] if not s.is_revealed(as_square(x["square"]))]
        if unrevealed:
            out.append(f"view of {seat} shows monsters on unrevealed squares {unrevealed[:3]}")
    return out


def _lit(text: str) -> Lit:
    return Lit(text, text)

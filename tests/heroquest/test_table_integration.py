"""HeroQuest through the table: an uploaded quest, the GM's tools out of turn, sheets kept per server."""

from __future__ import annotations

import pytest

from rules.base import Action, BadOptions, RuleError
from rules.text import Lit
from table import Table, Who
from tests.heroquest.hq_helpers import registered
from tests.reference import COLD_HALLS, HQ_QUESTS

QUESTS = HQ_QUESTS
GM, ANA, BEN = Who(1, "Zargon"), Who(2, "Ana"), Who(3, "Ben")
CH = 55


async def test_uploaded_quest_gm_anytime_tools_and_sheets(table: Table) -> None:
    game = registered()
    setup = game.setup_from_upload((QUESTS / "HQBase-01-TheTrial_EU.xml").read_bytes(), "trial.xml")
    await table.new(guild_id=9, channel_id=CH, who=GM, game_type="heroquest", extra={"setup": setup})
    await table.join(CH, ANA)
    await table.join(CH, BEN)
    report = await table.start(CH, GM)
    assert report.board is not None and report.board["quest"]["name"]["en"] == "The Trial"
    row = await table.game_for(CH)
    assert row is not None
    state = (await table.inspect(row.id)).state
    assert state is not None
    assert 0 not in game.to_act(state)
    # The GM may adjust a hero's body at any time, even out of turn.
    uid = state.heroes[0]["uid"]
    await table.act(CH, GM, Action.of("gm_adjust", uid=uid, stat="body", delta=-1))
    await table.act(CH, GM, Action.of("gm_end_quest", result="win"))
    sheets = await table.profiles(9, "heroquest")
    assert set(sheets) == {"barbarian", "dwarf", "elf", "wizard"}
    assert all(sheet["quests"] == 1 for sheet in sheets.values())
    # The next game in this server starts from those sheets, snapshotted into its set-up.
    await table.new(guild_id=9, channel_id=CH, who=GM, game_type="heroquest")
    await table.join(CH, ANA)
    await table.start(CH, GM)
    row = await table.game_for(CH)
    assert row is not None
    stored = await table.store.blob(row.id, "setup")
    assert stored is not None and stored["profiles"]["barbarian"]["quests"] == 1
    replayed = await table.replay(row.id)
    reloaded = (await Table(table.store).inspect(row.id)).state
    assert reloaded is not None
    assert game.to_json(replayed) == game.to_json(reloaded)


def test_broken_upload_is_refused_with_a_reason() -> None:
    game = registered()
    with pytest.raises(RuleError) as exc:  # BadOptions' parent: any refusal of the rules
        game.setup_from_upload(b"<quest name='x'><board>", "broken.xml")
    assert exc.value.reason.key.startswith("hq.")


async def test_the_gm_gets_the_map_whenever_the_turn_moves_on(table: Table) -> None:
    await table.new(guild_id=9, channel_id=CH, who=GM, game_type="heroquest")
    await table.join(CH, ANA)
    await table.start(CH, GM)
    game = registered()
    for _ in range(10):
        row = await table.game_for(CH)
        assert row is not None
        state = (await table.inspect(row.id)).state
        assert state is not None
        seat = sorted(game.to_act(state))[0]
        legal = game.legal_actions(state, seat)
        end = next((la.action for la in legal if la.action.kind == "end_turn"), None)
        if seat != 0 and end is not None:
            report = await table.act(CH, ANA, end)
            assert report.turn_changed and GM.user_id in report.watch
            assert report.private_views[GM.user_id]["viewer"] == "gm"
            return
        who = GM if seat == 0 else ANA
        await table.act(CH, who, legal[0].action)
    raise AssertionError("no hero turn ended in ten moves")


async def test_hidden_gm_work_leaves_no_public_trace(table: Table) -> None:
    """A monster placed where no hero can see: no channel line, no new board image, no ping."""
    from rules.heroquest import board

    await table.new(guild_id=9, channel_id=CH, who=GM, game_type="heroquest")
    await table.join(CH, ANA)
    await table.start(CH, GM)
    row = await table.game_for(CH)
    assert row is not None
    state = (await table.inspect(row.id)).state
    assert state is not None
    hidden = next(sq for sq in board.all_squares() if not state.is_revealed(sq) and sq not in state.dark
                  and sq not in state.blocked_squares() and sq not in state.figure_at())
    report = await table.act(CH, GM, Action.of("gm_place", ref="goblin", at=f"{hidden[0]}-{hidden[1]}"))
    assert report.public == [] and report.board is None and report.mention == []
    assert GM.user_id in report.private and ANA.user_id not in report.private
    seen = next(sq for sq in board.all_squares() if state.is_revealed(sq) and sq not in state.blocked_squares()
                and sq not in state.figure_at())
    report = await table.act(CH, GM, Action.of("gm_place", ref="goblin", at=f"{seen[0]}-{seen[1]}"))
    assert report.board is not None, "a monster the heroes can see is shown"


async def test_an_uploaded_quest_is_named_in_the_lobby_and_checked_off_the_loop(table: Table) -> None:
    data = (QUESTS / "HQBase-01-TheTrial_EU.xml").read_bytes()
    report = await table.new(guild_id=9, channel_id=CH, who=GM, game_type="heroquest", upload=(data, "trial.xml"))
    upload = next(m for m in report.public if m.key == "core.lobby.upload")
    title = upload.params["title"]
    assert isinstance(title, Lit) and title.en == "The Trial"
    with pytest.raises(BadOptions) as exc:
        await table.new(guild_id=9, channel_id=CH + 1, who=GM, game_type="heroquest",
                        upload=(b"<quest name='x'><board>", "broken.xml"))
    assert exc.value.reason.key.startswith("hq.")


async def test_the_uploader_reads_the_rulings_apart_from_the_warnings_counted(table: Table) -> None:
    """The Cold Halls: the Door In ruling asks nothing of the game master, so it is not one of the warnings."""
    data = COLD_HALLS[0].read_bytes()
    report = await table.new(guild_id=9, channel_id=CH, who=GM, game_type="heroquest", upload=(data, "cold.xml"))
    told = report.private[GM.user_id]
    keys = [m.key for m in told]
    assert keys[0] == "core.lobby.file_info"
    info = told[0].params["text"]
    assert not isinstance(info, (str, int)) and getattr(info, "key", "").startswith("hq.imp.info.")
    header = told[keys.index("core.lobby.file_warnings")]
    bullets = [m for m in told if m.key == "core.lobby.file_warning"]
    assert header.params["count"] == len(bullets) >= 1
    assert all(not getattr(m.params["text"], "key", "").startswith("hq.imp.info.") for m in bullets)


"""A move's log lines stored in its log row: paged per viewer, newest page first, lines in order, on both backends."""

from __future__ import annotations

from storage import Commit, LogLine


async def test_pages_hold_what_each_viewer_may_read_in_order(any_store) -> None:
    game_id, version = await any_store.create_game(guild_id=1, channel_id=5, game_type="tiny", options={}, seed=1,
                                                   creator_id=1, now=0.0, seats=[])
    written: list[tuple[int, frozenset[int] | None, int]] = []
    for move in range(12):
        lines = [LogLine({"key": "core.log.start", "params": {"n": move * 10 + i}},
                         None if (move + i) % 3 else frozenset({(move + i) % 2})) for i in range(move % 4)]
        version = await any_store.commit(game_id, version, Commit(kind="act", seat=0, lines=lines), float(move))
        written += [(version, line.to, line.msg["params"]["n"]) for line in lines]
    for viewer in (0, 1, None):
        visible = [(v, n) for v, to, n in written if to is None or (viewer is not None and viewer in to)]
        per_page = 4
        pages = -(-len(visible) // per_page)
        seen: list[tuple[int, int]] = []
        for page in range(pages, 0, -1):  # the oldest page is the last one
            lines, total = await any_store.log_page(game_id, viewer, page, per_page)
            assert total == len(visible)
            seen += [(v, m["params"]["n"]) for v, m in lines]
        assert seen == visible
        assert (await any_store.log_page(game_id, viewer, pages + 1, per_page))[0] == []
    everything = await any_store.lines(game_id, after=3)
    assert [(v, to, m["params"]["n"]) for v, to, m in everything] == [w for w in written if w[0] > 3]

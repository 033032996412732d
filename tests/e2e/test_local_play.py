"""Local play with the real bot (`bot.py --local` without a script): the Actions menu, mentions, the prompt."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot import make_bot
from standin.local import run_local_async

pytestmark = [pytest.mark.timeout(120), pytest.mark.filterwarnings("ignore::DeprecationWarning")]

TYPED = """\
/game new game:hero-realms ai:1
/game start
pick Play Gold
pick 1
click Play Gold
/game act action:'end_turn'
quit
"""


async def test_hero_realms_actions_menu_is_printed_and_picked_by_label_and_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETOP_SEED", "7")  # alice's first hand is three Gold
    out = io.StringIO()
    status = await run_local_async(lambda: make_bot(str(tmp_path / "db.sqlite3")), None, str(tmp_path / "img"),
                                   out=out, stdin=io.StringIO(TYPED))
    text = out.getvalue()
    assert status == 0, text
    assert "[Your moves v]  (choose: pick <number> or pick <label>)\n      1. Play Gold - +1 Gold\n" in text, \
        "the menu shows each move's description under it"
    # Each move edits the turn's one live message, which gathers the turn's lines.
    for typed in ("pick Play Gold", "pick 1", "click Play Gold"):
        answer = text.split(f"alice> {typed}\n", 1)[1].split("alice> ", 1)[0]
        assert "[edit #mesa]" in answer and "[ephemeral -> alice]" in answer, answer
    assert "alice plays Gold. (×3)" in text
    assert "👉 @alice — your turn!" in text
    assert "<@" not in text
    assert "Ada (bot)'s turn." in text
    assert "problems - OK" in text

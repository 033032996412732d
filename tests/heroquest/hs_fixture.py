"""Small HeroScribe quest files written for the tests (our own, not copies of real quests)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

# Room 1 spans rows 2-4, columns 2-5 in HeroScribe's 1-based left/top: a 2x2 stairway fits at its corner.
STAIRWAY = ("Stairway", 2, 2, "downward")


def xml(objects: Iterable[tuple[str, float | str, float | str, str]] = (STAIRWAY,), notes: Sequence[str] = (),
        darks: Iterable[tuple[int, int, int, int]] = (), speech: str = "Go forth.", name: str = "Fixture",
        region: str = "USA", width: int = 1, height: int = 1, boards: int = 1, extra: str = "") -> str:
    """A quest file: `objects` are (id, left, top, rotation), `darks` (left, top, width, height), all 1-based (a
    coordinate may be any text: broken files are written with it)."""
    board = "".join(f'<dark left="{left}" top="{top}" width="{w}" height="{h}" />\n' for left, top, w, h in darks)
    board += "".join(f'<object id="{oid}" left="{left}" top="{top}" rotation="{rot}" zorder="0.0" />\n'
                     for oid, left, top, rot in objects)
    boards_xml = f"<board>\n{board}</board>\n" + "<board>\n</board>\n" * (boards - 1)
    notes_xml = "".join(f"<note>{n}</note>\n" for n in notes)
    return (f'<?xml version="1.0"?>\n<quest name="{name}" region="{region}" version="1.0" width="{width}" '
            f'height="{height}">\n{boards_xml}{extra}<speech>{speech}</speech>\n{notes_xml}</quest>\n')

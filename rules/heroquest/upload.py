"""Reading an uploaded quest file (HeroScribe XML or our JSON) into a bounded `Imported` quest and its warnings."""

from __future__ import annotations

from rules.heroquest.heroscribe import parse_heroscribe
from rules.heroquest.quest import MAX_BYTES, Imported, Quest, QuestError, quest_from_json_text, warnings
from rules.text import msg


def import_quest(data: str | bytes, filename: str = "") -> Imported:
    """Parse a quest file: HeroScribe XML (starts with '<') or our JSON (starts with '{').

    Raises QuestError (and nothing else) listing every problem that makes it unplayable; what the game
    master should know about a playable one comes back as warnings.
    """
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise QuestError(msg("hq.q.error.too_big", size=len(data), limit=MAX_BYTES))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise QuestError(msg("hq.q.error.encoding")) from None
    else:
        text = data
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise QuestError(msg("hq.q.error.too_big", size=len(text.encode("utf-8", "surrogatepass")), limit=MAX_BYTES))
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith("<"):
        return parse_heroscribe(body, filename)
    if body.startswith("{"):
        quest = quest_from_json_text(body)
        return Imported(quest, tuple(warnings(quest)))
    raise QuestError(msg("hq.q.error.unknown_format"))


def load_quest(data: str | bytes, filename: str = "") -> Quest:
    """Just the quest of `import_quest` (its warnings dropped)."""
    return import_quest(data, filename).quest

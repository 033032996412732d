"""Every catalog message that shows a count agrees with it: "1 step", "2 steps", "queda 1 paso", "quedan 2 pasos".

Each template is rendered in both languages with one count at a time set to 0, 1 and 2 (other counts 7, other
placeholders a neutral word), and the text is read the way a player would: a number that CLDR calls "one" must
not be followed by a plural noun of the catalogs, any other number not by a singular one, and the verbs around it
must agree. The noun lists below are the ones the catalogs count; the last test keeps them in step with the plural
blocks the catalogs hold.
"""

from __future__ import annotations

import re

import i18n
import plurals
from rules.text import Msg

#: Placeholders that carry a number (read from the code that builds the messages: `msg(..., n=len(...))`).
#: A plural block's selector counts as a number too, whatever its name.
NUMERIC = frozenset([
    "n", "count", "minutes", "hours", "seconds", "points", "steps", "mv", "ap", "gold", "price", "cost", "hp",
    "gate", "dmg", "damage", "amount", "body", "mind", "moves", "reach", "power", "dice", "cards", "monsters",
    "squares", "furniture", "found", "quests", "completed", "limit", "max", "high", "low", "most", "turns",
    "rounds", "wave", "waves", "score", "level", "round", "held", "need", "total", "xp", "health", "lost",
    "raw", "before", "after", "penalty", "turn", "later", "used", "of", "size", "kb", "page", "pages", "dist",
    "w", "h", "rows", "cols", "res", "combat", "discard", "deck", "heroes", "roll", "new", "ta", "td",
    "max_body", "max_mind",
])

#: The counted nouns (and the words that agree with a count) as the catalogs write them: singular -> plural.
NOUNS = {
    "en": {
        "action": "actions", "minute": "minutes", "hour": "hours", "second": "seconds", "character": "characters",
        "player": "players", "turn": "turns", "point": "points", "square": "squares", "round": "rounds",
        "spirit": "spirits", "thing": "things", "step": "steps", "card": "cards", "coin": "coins", "item": "items",
        "object": "objects", "problem": "problems", "warning": "warnings", "board": "boards", "rune": "runes",
        "monster": "monsters", "piece": "pieces", "wave": "waves", "tower": "towers", "time": "times",
        "quest": "quests", "die": "dice", "bridge": "bridges", "line": "lines",
        "day": "days", "elimination": "eliminations", "outpost": "outposts", "move": "moves", "page": "pages",
        "game": "games", "frame": "frames", "letter": "letters",
    },
    "es": {
        "acción": "acciones", "minuto": "minutos", "hora": "horas", "segundo": "segundos",
        "carácter": "caracteres", "jugador": "jugadores", "turno": "turnos", "punto": "puntos",
        "casilla": "casillas", "ronda": "rondas", "espíritu": "espíritus", "paso": "pasos", "carta": "cartas",
        "moneda": "monedas", "cosa": "cosas", "objeto": "objetos", "problema": "problemas", "aviso": "avisos",
        "tablero": "tableros", "runa": "runas", "monstruo": "monstruos", "mueble": "muebles",
        "oleada": "oleadas", "torre": "torres", "vez": "veces", "reto": "retos", "dado": "dados",
        "daño": "daños", "agotado": "agotados", "encontrada": "encontradas", "completado": "completados",
        "puente": "puentes", "libre": "libres", "repetido": "repetidos", "inicial": "iniciales",
        "superada": "superadas", "posible": "posibles", "línea": "líneas", "anterior": "anteriores",
        "día": "días", "jugado": "jugados", "jugada": "jugadas", "disputada": "disputadas",
        "eliminación": "eliminaciones", "puesto": "puestos", "página": "páginas", "partida": "partidas",
        "ganada": "ganadas", "imagen": "imágenes", "letra": "letras",
    },
}
#: Verbs whose number follows the count after them ("quedan 2", "se admite como mucho 1", "there are 2").
VERBS_BEFORE = {
    "en": {"is": "are"},
    "es": {"queda": "quedan", "llega": "llegan", "admite": "admiten", "falta": "faltan"},
}
#: The same, after the count; only "1 are" is checked ("the 2 is rolled again" reads fine).
VERBS_AFTER = {"en": {"is": "are", "was": "were"}, "es": {}}

_NUMBER = re.compile(r"(?<![\w.,/×-])(\d+)(?![\d/×.,]\d|\w)")
_WORD = re.compile(r"[^\W\d_]+")
_NEXT_WORD = re.compile(r" +([^\W\d_]+)")
#: Words before a number that make it a name rather than a count ("level 2", "version 1 are supported").
_ORDINALS = frozenset(["level", "nivel", "version", "versión", "page", "página"])
#: Text right before a number that makes it the end of a range ("1 to 8 players", "de 1 a 4 jugadores").
_RANGE_END = re.compile(r"\d+\s*(?:to|and|a|y|-|–|/|×)\s*$")
#: Words after a count that close the noun phrase, so the word after them is not the counted noun.
_STOPS = frozenset(["de", "of", "to", "a", "y", "and", "en", "in", "on", "for", "por", "para", "del", "al"])
#: Hedges written by hand instead of a plural block.
_HEDGES = re.compile(r"\w\((?:s|es)\)|\bvez/veces\b|\(s\)")
#: "se admiten como mucho 1": the words that may sit between such a verb and its count.
_VERB_GAP = r"(?:\s+(?:como\s+mucho|al\s+menos))*"


def _words_after(text: str) -> list[str]:
    """Up to three words right after a count, stopping at punctuation ("2 espíritus: 1 punto" gives one)."""
    words: list[str] = []
    while len(words) < 3 and (m := _NEXT_WORD.match(text)):
        words.append(m.group(1).lower())
        text = text[m.end():]
        if not text.startswith(" "):
            break
    return words


def _counted_noun(words: list[str], nouns: set[str]) -> str | None:
    """The noun a count governs: the first counted noun after at most one other word ("1 possible action",
    "2 coin cards"), or the second of two in a row ("2 action points" counts points)."""
    i = 1 if words and words[0] not in nouns and words[0] not in _STOPS else 0
    if i >= len(words) or words[i] not in nouns:
        return None
    return words[i + 1] if i + 1 < len(words) and words[i + 1] in nouns else words[i]


def problems(text: str, lang: str) -> list[str]:
    """What reads wrong in one rendered message: a count next to a noun or verb of the other number."""
    found = [f"hand-written plural {m.group(0)!r}" for m in _HEDGES.finditer(text)]
    singular = NOUNS[lang]
    plural = {p: s for s, p in singular.items()}
    for m in _NUMBER.finditer(text):
        before = text[:m.start()]
        label = re.search(r"([^\W\d_]+) $", before)
        if _RANGE_END.search(before) or (label and label.group(1).lower() in set(singular) | _ORDINALS):
            continue  # "1 to 8 players", "Wave 7 won", "round 2": not a count of what follows
        one = plurals.category(lang, int(m.group(1))) == "one"
        words = _words_after(text[m.end():])
        noun = _counted_noun(words, set(singular) | set(plural))
        if noun in (plural if one else singular):
            found.append(f"{m.group(1)} {' '.join(words)}")
        if one and words and words[0] in VERBS_AFTER[lang].values():
            found.append(f"{m.group(1)} {words[0]}")
        verbs = VERBS_BEFORE[lang]
        wrong_verbs = set(verbs.values()) if one else set(verbs)
        if lang == "en":  # "there is/are N"; elsewhere "is 2" reads fine ("the quest file is 2 bytes")
            wrong_verbs = {f"there {v}" for v in wrong_verbs}
        for verb in wrong_verbs:
            if re.search(rf"\b{verb}{_VERB_GAP}\s*$", before, re.IGNORECASE):
                found.append(f"{verb} … {m.group(1)}")
    return found


def counts_of(key: str) -> set[str]:
    """The placeholders of a key that carry a number, in either language."""
    names: set[str] = set()
    for lang in i18n.LANGS:
        template = i18n.catalog(lang).get(key, "")
        names |= i18n.placeholders(template) & NUMERIC
        names |= plurals.names(template)
    return names


def renderings(key: str, lang: str) -> list[tuple[str, str]]:
    """The message with each count in turn set to 0, 1 and 2: (which count=value, text)."""
    template = i18n.catalog(lang)[key]
    names = i18n.placeholders(template)
    counts = counts_of(key) & names
    out = []
    for name in sorted(counts):
        for value in (0, 1, 2):
            params = {p: (value if p == name else 7) if p in counts else "Zed" for p in names}
            out.append((f"{name}={value}", i18n.t(Msg(key, params), lang)))
    return out


def disagreements(lang: str) -> list[str]:
    out: list[str] = []
    for key in sorted(i18n.catalog(lang)):
        for case, text in renderings(key, lang) or [("", i18n.t(Msg(key), lang))]:
            out.extend(f"{lang} {key} [{case}] {p}: {text!r}" for p in problems(text, lang))
    return out


def test_every_count_agrees_with_its_noun_in_english() -> None:
    assert disagreements("en") == []


def test_every_count_agrees_with_its_noun_in_spanish() -> None:
    assert disagreements("es") == []


def test_the_reader_catches_the_mistakes_players_reported() -> None:
    """The checker itself: the texts of issue 20 are caught, their right forms pass."""
    wrong = {
        "en": ["Turn timer: 1 minutes.", "after 1 hours of waiting", "Active hero: Ada, 1 steps left.",
               "Acting: Ana, 1 action points.", "Gather 2 spirit", "You have 1 possible actions",
               "at most 1 are allowed", "there are 1.", "ready in 2 turn(s)", "Only 1 free squares"],
        "es": ["le quedan 1 pasos", "Oryana toma 1 espíritus de la Fuente", "Actúa: Ana, 1 puntos de acción",
               "quedan 1.", "le queda 2", "llegan 1 monstruo", "se admiten como mucho 1.", "2 vez/veces",
               "Tienes 1 acciones posibles"],
    }
    right = {
        "en": ["Turn timer: 1 minute.", "Active hero: Ada, 2 steps left.", "from 1 to 1 players",
               "the 2 is rolled again", "1 is the most recent", "there is 1.", "at most 1 is allowed",
               "The quest file is 2 bytes", "Round 2/10", "A1 to Z19 board"],
        "es": ["le queda 1 paso", "toma 1 espíritu", "recibe 2 de daño", "de 1 a 1 jugadores", "quedan 2.",
               "su Vida queda en 2", "se admite como mucho 1.", "1 punto de acción", "ronda 2, turno 1"],
    }
    for lang in i18n.LANGS:
        assert [t for t in wrong[lang] if not problems(t, lang)] == [], lang
        assert [t for t in right[lang] if problems(t, lang)] == [], lang


def test_the_noun_lists_know_every_noun_the_catalogs_count() -> None:
    """Each plural block's `one` and `other` branches, word after the count: a pair of the lists above (or the
    same word), so a noun the catalogs learn to count is checked from then on."""
    unknown = []
    for lang in i18n.LANGS:
        pairs = NOUNS[lang] | VERBS_BEFORE[lang] | VERBS_AFTER[lang]
        for key, template in i18n.catalog(lang).items():
            for _, _, _, branches in plurals.blocks(template):
                one, other = branches.get("one", ""), branches["other"]
                if "#" not in one or "#" not in other:
                    continue
                for a, b in zip(_WORD.findall(one.split("#", 1)[1])[:2], _WORD.findall(other.split("#", 1)[1])[:2],
                                strict=False):
                    if a != b and pairs.get(a.lower()) != b.lower():
                        unknown.append(f"{lang} {key}: {a}/{b}")
    assert unknown == []

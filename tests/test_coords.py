"""Board coordinates: every square and hex has one label, labels round-trip, and nothing else parses."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from rules import coords
from rules.coords import HexCodec

MAX = 40


def _canonical(text: str) -> str:
    """What a label the codec accepted must look like once case, spaces, one separator and leading
    zeros are taken away (an independent statement of the grammar, not the codec's regex)."""
    s = text.strip().upper()
    letters = "".join(ch for ch in s if "A" <= ch <= "Z")
    digits = "".join(ch for ch in s if "0" <= ch <= "9").lstrip("0")
    return letters + digits


def test_examples_from_the_specs() -> None:
    assert coords.name(10, 7) == "H11"
    assert coords.name(0, 0) == "A1"
    assert coords.name(15, 15) == "P16"  # The King's Armory: A–P / 1–16
    assert coords.name(29, 29) == "AD30"  # Gorgasali: A…Z, AA…AD / 1…30
    assert coords.name(6, 2) == "C7"
    assert [coords.column_name(c) for c in (0, 25, 26, 27, 29, 51, 52, 701, 702)] == [
        "A", "Z", "AA", "AB", "AD", "AZ", "BA", "ZZ", "AAA"]
    assert coords.corners(26, 19) == ("A1", "Z19")


def test_tolerant_forms_of_one_square() -> None:
    for text in ("H11", "h11", "H-11", "H 11", "h,11", " H11 ", "h - 11", "H.11", "H:11", "H/11", "H011"):
        assert coords.parse(text, 16, 16) == (10, 7), text


def test_refusals() -> None:
    refused = [
        "", " ", "H", "11", "11H", "H11X", "HH", "H0", "H-0", "Q1", "A17", "AQ1", "H--11", "H 1 1", "H,-11",
        "H1.5", "-H11", "H+11", "H11,", "ß1", "ı5", "İ5", "\u212a1", "Ｈ11", "H١١", "H\u00b9", "H11\n2",
        "ABCD1", "A12345", "A1e3", "None",
    ]
    for text in refused:
        assert coords.parse(text, 16, 16) is None, text
    assert coords.parse(None, 16, 16) is None  # type: ignore[arg-type]  # not text: refused at run time
    assert coords.parse(11, 16, 16) is None  # type: ignore[arg-type]  # not text: refused at run time


def test_every_square_of_a_40_by_40_board_round_trips_with_a_unique_name() -> None:
    names: dict[str, tuple[int, int]] = {}
    for row in range(MAX):
        for col in range(MAX):
            label = coords.name(row, col)
            assert re.fullmatch(r"[A-Z]{1,2}[1-9][0-9]?", label)
            assert coords.parse(label, MAX, MAX) == (row, col)
            assert coords.parse(label.lower(), MAX, MAX) == (row, col)
            assert label not in names, (label, names.get(label), (row, col))
            names[label] = (row, col)
    assert len(names) == MAX * MAX


@given(
    st.integers(1, MAX).flatmap(
        lambda w: st.tuples(st.just(w), st.integers(1, MAX)).flatmap(
            lambda wh: st.tuples(
                st.just(wh[0]), st.just(wh[1]), st.integers(0, wh[1] - 1), st.integers(0, wh[0] - 1),
                st.sampled_from(["", "-", " ", ",", " - ", ", "]), st.booleans(),
            )
        )
    )
)
def test_round_trip_on_any_board_in_any_tolerated_form(case: tuple[int, int, int, int, str, bool]) -> None:
    width, height, row, col, sep, lower = case
    label = coords.name(row, col)
    text = coords.column_name(col) + sep + str(row + 1)
    assert coords.parse(label, width, height) == (row, col)
    assert coords.parse(text.lower() if lower else text, width, height) == (row, col)


@given(st.integers(1, MAX), st.integers(1, MAX), st.integers(0, 60), st.integers(0, 60))
def test_squares_off_the_board_never_parse(width: int, height: int, row: int, col: int) -> None:
    got = coords.parse(coords.name(row, col), width, height)
    assert got == ((row, col) if row < height and col < width else None)


@given(st.text(max_size=12), st.integers(1, MAX), st.integers(1, MAX))
def test_junk_never_parses_and_nothing_raises(text: str, width: int, height: int) -> None:
    got = coords.parse(text, width, height)
    if got is not None:
        row, col = got
        assert 0 <= row < height and 0 <= col < width
        assert _canonical(text) == coords.name(row, col), text
        assert all(ch.isascii() for ch in text.strip()), text


@given(st.text(alphabet="AaBbZz019-, .:/ßıİ\t\n+_Ｈ", max_size=8))
def test_near_misses_parse_only_when_they_are_labels(text: str) -> None:
    got = coords.parse(text, 30, 30)
    if got is not None:
        assert _canonical(text) == coords.name(*got)
        # at most one separator between letters and digits, nothing around them but spaces
        assert re.fullmatch(r"[A-Za-z]+[ \t]*[-,.:/]?[ \t]*[0-9]+", text.strip()), text


# ---------------------------------------------------------------- hexes


def _radius(n: int) -> set[tuple[int, int]]:
    return {(q, r) for q in range(-n, n + 1) for r in range(-n, n + 1) if abs(q + r) <= n}


hex_maps = st.sets(st.tuples(st.integers(-9, 9), st.integers(-9, 9)), min_size=1, max_size=120)


@given(hex_maps)
def test_every_hex_of_any_map_has_a_unique_label_that_round_trips(hexes: set[tuple[int, int]]) -> None:
    codec = HexCodec(hexes)
    labels = {codec.name(q, r): (q, r) for q, r in hexes}
    assert len(labels) == len(hexes)
    for label, hx in labels.items():
        assert re.fullmatch(r"[A-Z]{1,2}[1-9][0-9]?", label)
        assert codec.parse(label) == hx
        parts = re.fullmatch(r"([A-Z]+)([0-9]+)", label)
        assert parts is not None
        letters, digits = parts.groups()
        assert codec.parse(f"{letters.lower()} - {digits}") == hx


@given(hex_maps, st.text(max_size=8))
def test_hex_parse_only_names_hexes_of_the_map(hexes: set[tuple[int, int]], text: str) -> None:
    codec = HexCodec(hexes)
    got = codec.parse(text)
    assert got is None or (got in hexes and _canonical(text) == codec.name(*got))


@given(hex_maps, st.tuples(st.integers(-12, 12), st.integers(-12, 12)))
def test_a_hex_off_the_map_has_no_label(hexes: set[tuple[int, int]], hx: tuple[int, int]) -> None:
    codec = HexCodec(hexes)
    col, row = codec.offset(*hx)
    label = f"{coords.column_name(col)}{row + 1}" if col >= 0 and row >= 0 else "A0"
    assert (codec.parse(label) == hx) == (hx in hexes)


def test_hex_labels_read_left_to_right_and_top_to_bottom() -> None:
    codec = HexCodec(_radius(3))  # La Guerra de Indagar: a radius-3 hexagon
    assert (codec.width, codec.height) == (7, 7)
    row_of_centre = sorted((2 * q + r, codec.name(q, r)) for q, r in codec.hexes if r == 0)
    assert [label for _, label in row_of_centre] == ["A4", "B4", "C4", "D4", "E4", "F4", "G4"]
    assert codec.name(0, -3) == "B1" and codec.name(3, -3) == "E1"
    assert codec.corners() == ("B1", "E7")
    # the map's own frame: labels do not depend on where the axial origin sits
    shifted = HexCodec((q + 5, r - 2) for q, r in _radius(3))
    assert all(shifted.name(q + 5, r - 2) == codec.name(q, r) for q, r in codec.hexes)
    assert codec.parse("A1") is None  # inside the label grid, but no hex there
    assert codec.parse("D4") == (0, 0)


def test_hex_codec_equality_follows_the_map() -> None:
    assert HexCodec(_radius(2)) == HexCodec(sorted(_radius(2)))
    assert hash(HexCodec(_radius(2))) == hash(HexCodec(_radius(2)))
    assert HexCodec(_radius(2)) != HexCodec(_radius(3))

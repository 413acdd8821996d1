"""The geoparser's faster searches give what the plain ones give (session 9, adversarial speed).

Each fast form (a search started later, a cheap test before a pattern, a pattern written with its first
character in front) rests on a fact about the patterns; these tests check the facts on the patterns as they
are now (a later edit of a pattern that breaks one fails here) and compare fast and plain forms on windows of
the test corpora and on random strings.
"""

from __future__ import annotations

import random
import re
import re._constants as C
import re._parser
from pathlib import Path

import pytest

from geofocus.geoparser import de, keyvalue, reshape
from geofocus.geoparser.text import html_to_text

DATA = Path(__file__).parent / "data"


def _texts() -> list[str]:
    texts = []
    for path in sorted(DATA.glob("geoparser_*.txt")) + sorted((DATA / "realtext").glob("**/*.txt")):
        texts.append(path.read_text(encoding="utf-8"))
    assert texts
    return texts


def _in_class(items: list, char: str) -> bool:
    negate, hit = False, False
    for op, arg in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL and chr(arg) == char or op is C.RANGE and arg[0] <= ord(char) <= arg[1]:
            hit = True
        elif op is C.CATEGORY:
            code = {C.CATEGORY_WORD: r"\w", C.CATEGORY_DIGIT: r"\d", C.CATEGORY_SPACE: r"\s",
                    C.CATEGORY_NOT_WORD: r"\W", C.CATEGORY_NOT_DIGIT: r"\D", C.CATEGORY_NOT_SPACE: r"\S"}[arg]
            hit = hit or re.fullmatch(code, char) is not None
    return hit != negate


def _can_take(tree, char: str) -> bool:
    """Whether a match of the parsed pattern ``tree`` can take ``char`` (lookarounds take nothing)."""
    for op, arg in tree:
        if op in (C.ASSERT, C.ASSERT_NOT, C.AT):
            continue
        if op is C.LITERAL:
            taken = chr(arg) == char
        elif op is C.NOT_LITERAL:
            taken = chr(arg) != char
        elif op is C.IN:
            taken = _in_class(arg, char)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            taken = _can_take(arg[2], char)
        elif op is C.SUBPATTERN:
            taken = _can_take(arg[3], char)
        elif op is C.ATOMIC_GROUP:
            taken = _can_take(arg, char)
        elif op is C.BRANCH:
            taken = any(_can_take(branch, char) for branch in arg[1])
        else:
            taken = True  # anything else: assume it can
        if taken:
            return True
    return False


def test_streets_and_tails_take_no_separator():
    # de._search_before starts after the last line break or comma before the tail, and after the last colon.
    for street in (de._STREET_STRICT, de._STREET_LOOSE):
        tree = re._parser.parse(street)
        assert not any(_can_take(tree, char) for char in "\n,:")
    for tail in (rf"{de._FIELD_GAP}(?:{de._NUMBER}){de._SEP}", rf" (?:{de._NUMBER}){de._SEP}"):
        assert not _can_take(re._parser.parse(tail), ":")
    assert _can_take(re._parser.parse(de._STREET_STRICT), "-")  # the test can tell


def _words(pattern: str) -> list[str]:
    """The words written in a pattern outside its character classes and escapes."""
    return re.findall(r"[^\W\d_]{2,}(?:/[^\W\d_])?", re.sub(r"\[[^\]]*\]|\\.", " ", pattern))


def test_unit_and_example_words_cover_their_patterns():
    # Every word of _UNIT_TAIL has one of the words tested before it runs (but the side of a floor, which only
    # follows a floor's word); the same for _EXAMPLE_BEFORE.
    sides = set(_words(de._FLOOR_SIDE))
    assert "links" in sides and f"UG){de._FLOOR_SIDE}?" in de._UNIT_TAIL.pattern  # after the floors only
    words = [word for word in _words(de._UNIT_TAIL.pattern) if word not in sides]
    assert "Obergeschoss" in words and "Büro" in words
    for word in words:
        assert any(sign in word for sign in de._UNIT_WORDS), word
    words = _words(de._EXAMPLE_BEFORE.pattern)
    assert "beispiel" in words
    for word in words:
        assert word.lower() in ("beispiel", "example", "muster", "etwa", "format"), word


def _same(a: re.Match[str] | None, b: re.Match[str] | None) -> bool:
    return (a and (a.span(), a.groups())) == (b and (b.span(), b.groups()))


def _windows(seed: int, count: int) -> list[tuple[str, int]]:
    """(text, end) from the corpora and random strings of address parts and syntax."""
    rand = random.Random(seed)
    out = []
    for text in _texts():
        out.extend((text, end) for end in range(0, len(text) + 1, 11))
    parts = list("aeHLSTÄäöüß0123456789 ,;:|·/–-.\n\t()'\"=") + [
        "Straße", "Str.", "weg", "Am ", "Nr. ", "PLZ", "Ort", "Beispiel", "z. B.", "Lange ", "Platz ", " in", "e.g.",
        "Format", "MUSTER", "ſ", "İ", "ı", "Büro ", "2. OG", "Ecke ", "c/o ", "Hinterhaus", "Zimmer 3", "street",
        '": "', "' => '", "_id", "[", "]"]
    for _ in range(count):
        text = "".join(rand.choice(parts) for _ in range(rand.randint(0, 40)))
        out.append((text, rand.randint(0, len(text))))
    # A street, the widest gaps, numbers and separators, with prefixes: the tail's length matters here.
    for street in ("Lange Straße", "Am Markt", "Heidbrinkweg", "Lappan"):
        for gap in (",", ";\n", " | ", " Nr. ", "\n", " "):
            for number in ("4", "12 a", "1234 b - 1234 c", "20–24", "7 / b"):
                for sep in ("", ", ", " \n - ", ",\n", " · \n", ", in ", " . ", "\n"):
                    text = rand.choice(("", "x: ", "Firma, ", "Tel.\n", "(Ecke) ")) + f"{street}{gap}{number}{sep}"
                    out.append((text, len(text)))
    return out


def test_fast_searches_give_the_plain_ones():
    windows = _windows(9, 20000)
    assert len(windows) > 40000
    for text, end in windows:
        window = text[max(0, end - 110):end]
        for pattern, tail in ((de._BEFORE_STRICT, de._STRICT_TAIL), (de._BEFORE_LOOSE, de._LOOSE_TAIL)):
            assert _same(pattern.search(window), de._search_before(pattern, tail, window)), window
        reach = max(0, len(window) - de._LABEL_REACH)
        assert _same(de._LABEL_TAIL.search(window), de._LABEL_TAIL.search(window, reach))
        last = window[-60:]
        unit = de._UNIT_TAIL.search(window, max(0, len(window) - 60))
        assert unit is None or any(word in last for word in de._UNIT_WORDS), window
        assert (de._EXAMPLE_BEFORE.search(text, max(0, end - 40), end) is not None) == de._example_before(text, end)
        assert _same(keyvalue._KEY_BEFORE.search(text, max(0, end - 44), end), keyvalue._key_before(text, end))


# The data-syntax patterns of the second reading as they were written before session 9.
_PLAIN = {
    "_FIELD_SEP": re.compile(r"""["'][ \t]*[,;|\t][ \t]*["']?|[,;][ \t]*["']|["'][ \t]*[)\]}]|[(\[{][ \t]*["']"""
                             r"""|[{}\[\]]"""),
    "_QUOTE_EDGE": re.compile(r"""^[ \t]*["'`]+|["'`]+[ \t]*,?[ \t]*$""", re.M),
}
_PLAIN_MARKDOWN = re.compile(r"\*\*|__|^[ \t]*(?:[-*+]|\d{1,2}\.)[ \t]+|[ \t]*\\$|^#{1,6}[ \t]+", re.M)


@pytest.mark.parametrize("name", sorted(_PLAIN))
def test_reshape_patterns_match_as_written_plainly(name):
    fast, plain = getattr(reshape, name), _PLAIN[name]
    rand = random.Random(name)
    chars = "\"'`,;|\t  \n()[]{}aB1_*-.\\:="
    texts = _texts() + ["".join(rand.choice(chars) for _ in range(rand.randint(0, 30))) for _ in range(30000)]
    for text in texts:
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in plain.finditer(text)], text
        assert fast.sub("\n", text) == plain.sub("\n", text)


def test_page_text_lines_as_split_and_joined():
    # html_to_text takes the spaces off a line's ends with strip where the line has no other whitespace.
    rand = random.Random(4)
    chars = [" ", "  ", "a", "B", "\xa0", "\u3000", "\r", "\n", "\x0c", "\u2028", "1"]
    for _ in range(20000):
        text = "".join(rand.choice(chars) for _ in range(rand.randint(0, 12)))
        plain = "\n".join([raw if raw[0] != " " and raw[-1] != " " and "  " not in raw and raw.isprintable()
                           else " ".join(raw.split()) for raw in text.splitlines() if raw and not raw.isspace()])
        assert html_to_text(text) == plain, repr(text)


def test_second_reading_with_markdown_as_written_plainly(monkeypatch):
    # The Markdown pattern takes a line start's line break with its marks (one empty line fewer, which reshape
    # drops): the second reading is the one of the plain pattern, with a "\n" put before the text or not.
    rand = random.Random(6)
    parts = ["*", "**", "_", "__", " ", "  ", "\t", "\n", "\n", "-", "+", "1", "12", "\u0663", ".", "#", "##", "\\",
             "\\\n", "--", "%", ">", "a", "ABCD", "Straße", "'", '"', ": ", ", ", "\\n"]
    texts = [case for text in _texts() for case in text.split("\n\n")]
    texts += ["".join(rand.choice(parts) for _ in range(rand.randint(0, 14))) for _ in range(40000)]
    fast = [reshape.reshape(text) for text in texts]
    monkeypatch.setattr(reshape, "_without_markdown", lambda text: _PLAIN_MARKDOWN.sub("\n", text))
    for text, read in zip(texts, fast, strict=True):
        assert reshape.reshape(text) == read, repr(text)
    assert sum(read is not None for read in fast) > 10000

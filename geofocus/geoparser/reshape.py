"""A second reading of a page's text, with the syntax between address parts taken out.

Pages and the files they serve write the parts of an address separated by
markup or data syntax rather than by lines: quoted fields of SQL and CSV rows
(``'Firma X', 'Beispielweg 12', '26122 Oldenburg'``), JSON values
(``"street": "...", "city": "..."``), variables and form fields
(``zip_city = "..."``), literal ``\\n`` escapes, Markdown (bullets, ``**bold**``,
a trailing backslash as line break), lines in capitals (``OLDENBURG``) and
mojibake (``StraÃŸe``, UTF-8 read as Latin-1).  :func:`reshape` turns such
text into lines of plain words, which the extractors then read like any page
text.  It returns None when there is nothing to reshape, so ordinary pages
cost one cheap scan.  Every step is a linear regex substitution.
"""

from __future__ import annotations

import re

import ftfy  # repairs mojibake far better than any table written here

# Signs of data syntax: a quoted value after a key or between separators (literal first chars: a fast scan), or
# quoted values one per line, each line ending in a comma (a call's arguments or an array written down the page:
# "'04229'," / "'Leipzig'," / "'Nonnenstrasse',"). A quote may have the prefix of a Python string literal, u'...',
# b'...', r'...' (see _STR_PREFIX).
_DATA_SIGN = re.compile(r"""["'][ \t]*(?:[,;:=|][ \t]*[uUbBrR]{0,2}["'{\[0-9]|,[ \t]*\n[ \t]*["'])"""
                        r"""|[:=][ \t]*[uUbBrR]{0,2}["'{]""")
# The prefix of a string literal before its quote, Python's u'..' / b'..' / r'..' (a Python 2 repr writes every
# string u'...'): taken out where data syntax is (only there: the test costs a scan), so that the quotes delimit
# the fields as above.
# The sign: a prefixed quote after a separator of data, one scan; then the prefixes, found by their first letter
# (a class in front: a fast scan) with a word character, quote or backslash before it ruled out by a lookbehind.
_STR_PREFIX_SIGN = re.compile(r"""[(\[{,:=][ \t]*(?:[uUbB][rR]?|[rR][bB]?)['"]""")
_STR_PREFIX = re.compile(r"""[uUbBrR](?<![\w'"\\][uUbBrR])(?:(?<=[uUbB])[rR]?|(?<=[rR])[bB]?)(?=['"])""")
_BULLET = re.compile(r"^[ \t]*[-*+][ \t]", re.M)
# The same after a line break: a pattern that starts with a literal is scanned for fast.
_BULLET_AFTER_BREAK = re.compile(r"\n[ \t]*[-*+][ \t]")
# A JSON/YAML/assignment key before a value: "streetAddress": / street = / 'plz' =>
# Tried only at the start of a word, and possessive: without both, a long run of
# letters costs 40 steps of backtracking at every position (4 s for 2 MB).
_KEY = re.compile(r"""(?<![\w.'"-])["']?[A-Za-z_][\w.-]{0,40}+["']?[ \t]*(?:=>|[:=])[ \t]*(?=["'\[{0-9A-ZÄÖÜa-z])""")
# Quotes and brackets that delimit fields: 'a', 'b' / "a";"b" / ("a", "b") / [ ] { }, i.e.
# ["'][ \t]*[,;|\t][ \t]*["']?|[,;][ \t]*["']|["'][ \t]*[)\]}]|[(\[{][ \t]*["']|[{}\[\]]
# written with the first character of every alternative as one class in front and the alternatives after it
# told apart by a lookbehind (the same matches, in the same order): a pattern that starts with a class is
# scanned for fast (the engine skips the characters outside it), one that starts with alternatives is tried
# at every position (2-5 times slower on a page of data).
_FIELD_SEP = re.compile(r"""["',;(\[{}\]](?:(?<=["'])(?:[ \t]*[,;|\t][ \t]*["']?|[ \t]*[)\]}])|(?<=[,;])[ \t]*["']"""
                        r"""|(?<=[(\[{])[ \t]*["']|(?<=[{}\[\]]))""")
# Quotes at either end of a line: ^[ \t]*["'`]+|["'`]+[ \t]*,?[ \t]*$ (re.M), its first character in front in
# the same way; "(?<![^\n][\s\S])" after that character is the "^" before it.
_QUOTE_EDGE = re.compile(r"""[ \t"'`](?:(?<![^\n][\s\S])(?:(?<=[ \t])[ \t]*["'`]+|(?<=["'`])["'`]*)"""
                         r"""|(?<=["'`])["'`]*[ \t]*,?[ \t]*$)""", re.M)
# Markdown marks: \*\*|__|^[ \t]*(?:[-*+]|\d{1,2}\.)[ \t]+|[ \t]*\\$|^#{1,6}[ \t]+ (re.M), written as above with the
# first characters in front, and a line start as the line break before it (a "\n" is put before the text): a
# class of six characters rather than every space and digit (a page of Markdown twice as fast). The marks at a
# line's start then take its line break too, which leaves one empty line fewer; reshape drops empty lines.
_MARKDOWN = re.compile(r"[*_\n \t\\](?:(?<=\*)\*|(?<=_)_|(?<=\n)[ \t]*(?:[-*+]|\d{1,2}\.)[ \t]+|(?<=[ \t])[ \t]*\\$"
                       r"|(?<=\\)$|(?<=\n)#{1,6}[ \t]+)", re.M)
_UPPER_WORD = re.compile(r"\b([A-ZÄÖÜ])([A-ZÄÖÜß]+)\b")
# A line in capitals has a word of four capitals or more ("OLDENBURG", "LANGE STRASSE", "MAIN ST"); a
# line of short codes ("PLZ: 26121", "TX 78701", "USA") has nothing to change.
_UPPER_LINE = re.compile(r"^[^a-zäöüß\n]*[A-ZÄÖÜ]{4,}[^a-zäöüß\n]*$", re.M)
# The test for such a line: the first line, or one after a line break (a literal first: a fast scan).
_UPPER_AFTER_BREAK = re.compile(r"\n[^a-zäöüß\n]*[A-ZÄÖÜ]{4,}[^a-zäöüß\n]*(?:\n|\Z)")
# Comment markers at line starts (shell, Python, YAML, Perl, Makefile "#", SQL/Lua "--", TeX "%",
# quoted mail "> "): "#    Escherweg 2" / "#    D-26121 Oldenburg, Germany".
_COMMENT = re.compile(r"^[ \t]*(?:#+|--|%+|>+)[ \t]+", re.M)
_COMMENT_AFTER_BREAK = re.compile(r"\n[ \t]*(?:#+|--|%+|>+)[ \t]")
# Text lines of Pug (Jade) and Slim templates start with "|" ("|  Neumatten 4"), and an element without text stands
# alone on its line between them ("br", "p", "span.note"): the marks go, the element lines too. A line with another
# "|" is a table's row ("| Straße | PLZ |"), no template text.
_PIPED_TEXT = re.compile(r"^[ \t]*\|[ \t]+(?=[^|\n]*$)", re.M)
_PIPED_AFTER_BREAK = re.compile(r"\n[ \t]*\|[ \t]+[^|\n]*\n")
_PUG_BREAK = re.compile(r" ?#\[br ?/?\] ?")
_ELEMENT_LINE = re.compile(r"^[ \t]*(?:br|hr|p|span|div|li|strong|em|b|i|small|address)(?:[.#][\w-]+)*[ \t]*$", re.M)
_MOJIBAKE = re.compile(r"[ÃÂ][^\sA-Za-z]")  # "StraÃŸe", "Â " (ftfy decides whether it is mojibake)
# A Markdown link, "[801 18th St NW](http://...)": its text stays, the address it points to goes.
# Bounded and without nested quantifiers: one pass.
# Two passes with a constant replacement (a group reference costs a Python call per link): the "[" of a
# link, then its "](target)".
_MD_LINK_OPEN = re.compile(r"\[(?=[^\[\]\n]{1,200}+\]\()")
_MD_LINK_TARGET = re.compile(r"\]\([^()\s]{0,500}+\)")
# A folded line of iCalendar or vCard (RFC 5545 3.1, RFC 6350 3.2): a line break and one space or tab
# continue the line before. The fold is cut anywhere, often inside a word ("Washin\n gton"), so the
# line break and the space go; where a capital or a digit follows a lower-case letter or a full stop
# ("Washington\n D.C."), the writer cut at a space between words, which stays.
_FOLD = re.compile(r"\n[ \t](?=\S)")
# A property of iCalendar or vCard at a line start; the scan starts with the literal line break (one fast
# pass over a page, where three substring tests and a search cost three).
_ICAL_PROPERTY = r"(?:BEGIN:V(?:CALENDAR|EVENT|CARD)|LOCATION[:;]|ADR[:;]|DESCRIPTION[:;]|SUMMARY[:;])"
_ICAL_SIGN = re.compile(_ICAL_PROPERTY)
_ICAL_SIGN_AFTER_BREAK = re.compile(r"\n" + _ICAL_PROPERTY)
# LaTeX line breaks between the lines of an address, as a letterhead or a title page writes them
# ("Escherweg 2\\ 26121 Oldenburg", "\\[2mm]", "\\*", "\newline", "\linebreak", "\par"). Two backslashes
# followed by "n", "r", "t", "u", a quote, a slash or more backslashes are the escapes of escaped text (JSON in
# JSON: "12d\\n26122") and are left to the steps below. Starts with a literal: one fast scan.
_TEX_BREAK = re.compile(r"\\(?:(?<!\\\\)\\(?![\\nrtu\"/])\*?(?:\[[^\]\n]{0,20}\])?"
                        r"|(?<!\\\\)(?:newline|linebreak|par)(?![A-Za-z]))")
# Where such breaks are, the rest of the LaTeX goes too: umlauts and sharp s written as macros (Ammerl\"ander,
# Stra\ss e), then commands ("\textbf", "\setkomavar") and braces, each a line break, and the en dash of a
# range of house numbers ("114--118").
# Inside a word only (after a letter, or braced): an escaped quote of JSON text ("\"Oldenburg\"") stays.
_TEX_UMLAUT = re.compile(r"""(?:(?<=[A-Za-z])\\"([aouAOU])(?=[a-z])|\{\\"\{?([aouAOU])\}?\})""")
_TEX_SZ = re.compile(r"(?:(?<=[A-Za-z])\\ss(?:\{\}| (?=[a-zäöü])|(?![A-Za-z]))|\{\\ss\})")
# A command, not the escapes of JSON text ("\nOldenburg", "\t", "\u00df"), which the steps below read.
_TEX_COMMAND = re.compile(r"\\(?![nrt](?![a-z])|u[0-9a-fA-F]{4})[A-Za-z]+\*?|[{}]")
_TEX_DASH = re.compile(r"(?<=\d)--(?=\d)")  # an en dash between numbers: "114--118"
_UMLAUTS = {"a": "ä", "o": "ö", "u": "ü", "A": "Ä", "O": "Ö", "U": "Ü"}
# Letters escaped in string literals by an ASCII-only writer: the \u escapes of JSON and JavaScript ("Stra\u00dfe",
# "K\u00fcpkersweg"), at any depth of escaping ("\\u00df"), and the \x escapes of a Python 2 repr or C string
# ("Hillstra\xdfe"), these only for the Latin-1 letters (\xc0-\xff: "\x1b" stays). A surrogate (half of a
# character outside the BMP) stays as written.
# Tried only at the start of a run of backslashes, and possessive: a long run costs one pass.
_U_ESCAPE = re.compile(r"(?<!\\)\\++(?:u([0-9a-fA-F]{4})|x([c-fC-F][0-9a-fA-F]))")

# String literals joined by a concatenation operator in program text, the lines of an address in pieces:
# 'Lange Straße 4' . PHP_EOL . '26122 Oldenburg' (PHP), "Escherweg 2\n" + "26121 Oldenburg" (Java, JavaScript, C#),
# "Escherweg 2" & vbCrLf & "26121 Oldenburg" (VB), a piece, a line-break constant and a piece ("+ "\n" +",
# "+ System.lineSeparator() +", "+ Environment.NewLine +", "~ "\n" ~"), the operator also at a line's end or start.
# The join with a line-break constant becomes a line break, a join without one nothing (the pieces are one string:
# "Escherweg 2\n" + "26121 ..." keeps its escape, which reshape reads as a break); so does a piece ending in a "\n"
# escape followed on the next line by the next piece, Python's and C's adjacent literals ("Escherweg 2\n"\n "26121").
# Done on the page text before any reading (``GeoParser.parse``): the pieces read apart gave "Marilla St\"" in
# "System.lineSeparator Dallas".
# The sign: a quote, spaces, an operator, or a quote after "\n" and a line break (a class first: a fast scan; the
# runs of spaces possessive: a quote before a long run costs one pass of it).
_CONCAT_OPERATOR = r"""(?:[.+&~]|\|\||<<)"""
_CONCAT_SIGN = re.compile(r"""["'](?:[ \t]*+\n?[ \t]*+""" + _CONCAT_OPERATOR
                          + r"""[ \t\n]|(?<=\\n["'])[ \t]*+\n[ \t]*+["'])""")
_LINE_BREAK_CONSTANT = (r"""(?:PHP_EOL|"(?:\\r)?\\n"|'(?:\\r)?\\n'|System\.lineSeparator\(\)|"""
                        r"""Environment\.NewLine|vbCrLf|vbNewLine|vbLf|os\.linesep|"<br ?/?>"|'<br ?/?>')""")
# PHP's "." joins without a break constant are left alone: prose puts a full stop between quotes too ("Ja". "Nein").
_CONCAT = re.compile(r"""["'][ \t]*+\n?[ \t]*+(?:""" + _CONCAT_OPERATOR + r"""[ \t]*+\n?[ \t]*+(?P<eol>"""
                     + _LINE_BREAK_CONSTANT + r""")[ \t]*+\n?[ \t]*+""" + _CONCAT_OPERATOR
                     + r"""|(?:[+&~]|\|\||<<))[ \t]*+\n?[ \t]*+["']|(?<=\\n)["'][ \t]*+\n[ \t]*+["']""")


def _concatenation(match: re.Match[str]) -> str:
    return "\n" if match.group("eol") else ""


def join_concatenated(text: str) -> str:
    """``text`` with string literals joined by concatenation operators made one string (see ``_CONCAT``), or
    ``text`` itself if it has none."""
    if ("'" in text or '"' in text) and _CONCAT_SIGN.search(text):
        return _CONCAT.sub(_concatenation, text)
    return text


def _unescape_u(match: re.Match[str]) -> str:
    code = int(match.group(1) or match.group(2), 16)
    return match.group(0) if 0xD800 <= code <= 0xDFFF else chr(code)


def unescape_letters(text: str) -> str:
    r"""``text`` with the escapes of _U_ESCAPE decoded. A page writes a few distinct ones many times ("\u00e4",
    "\u00df"): each is replaced with one str.replace (a C scan) rather than a Python call per escape, in up to
    four rounds of the first thousand escapes left. Escapes of escaped text ("\\u00e4"), surrogates, many distinct
    escapes (a page of them, or hostile text): one re.sub, which reads each run of backslashes whole."""
    if "\\\\u" in text or "\\\\x" in text:
        return _U_ESCAPE.sub(_unescape_u, text)
    for _round in range(4):
        distinct: set[str] = set()
        for count, match in enumerate(_U_ESCAPE.finditer(text)):
            distinct.add(match.group(0))
            if len(distinct) > 32:
                return _U_ESCAPE.sub(_unescape_u, text)
            if count >= 1000:
                break
        if not distinct:
            return text
        for escape in distinct:  # all of one backslash: no escape holds another
            letter = _unescape_u(_U_ESCAPE.match(escape))  # type: ignore[arg-type]
            if letter == escape:  # a surrogate, kept as written: the general way
                return _U_ESCAPE.sub(_unescape_u, text)
            text = text.replace(escape, letter)
    return _U_ESCAPE.sub(_unescape_u, text)


# Program statements that each write a line of an address as a string literal: a PDF's cells, a document's text
# calls, a list's items ('$this->Cell(472, 3, "Pflugstraße 9a");', 'doc.text("26122 Oldenburg", 20, 46);',
# 'c.drawString(72, 706, "Am Stadtmuseum 4-8")', 'lines.add("...");'), statements without a literal between them
# ('$this->Ln(6);'). Read as the lines their literals are, the statements without a literal dropped; lines that are
# no such statement stay. A statement is a line of a call, ended by ";" or not (Python), its callee a name or a
# chain ("$this->", "doc.", "Foo::"), its arguments on the line. Found by one scan of the line starts (a prose line
# fails at its first space).
_STATEMENT = re.compile(r"""^[ \t]*+[$\w][\w$.\->:\[\]]{0,80}+\([^\n]{0,300}\)[ \t]*+;?[ \t]*+$""", re.M)
_LITERAL = re.compile(r""""([^"\\\n]{1,200})"|'([^'\\\n]{1,200})'""")


def statement_literals(text: str) -> str | None:
    """``text`` with its one-line call statements read as the string literals they hold (see ``_STATEMENT``), or
    None if fewer than two such statements hold one (no lines to join)."""
    if ")" not in text or ('"' not in text and "'" not in text):
        return None
    parts: list[str] = []
    pos = 0
    with_literal = 0
    for statement in _STATEMENT.finditer(text):
        literals = [double or single for double, single in _LITERAL.findall(statement.group(0))]
        parts.append(text[pos:statement.start()])
        pos = statement.end()
        if literals:
            with_literal += 1
            parts.append("\n".join(literals))
        elif text.startswith("\n", pos):
            pos += 1  # the statement's line goes, not only its text: the lines around it stay neighbours
    if with_literal < 2:
        return None
    parts.append(text[pos:])
    return "".join(parts)


def _without_latex(text: str) -> str:
    """``text`` with LaTeX line breaks turned into line breaks (and then its other LaTeX taken out), or ``text``
    itself if it has none."""
    broken, count = _TEX_BREAK.subn("\n", text)
    if not count:
        return text
    broken = _TEX_UMLAUT.sub(lambda m: _UMLAUTS[m.group(1) or m.group(2)], broken)
    broken = _TEX_SZ.sub("ß", broken)
    return _TEX_DASH.sub("-", _TEX_COMMAND.sub("\n", broken))


# Markup escaped inside a data string, which the page's tag pass does not see: JSON's "\u003cbr/\u003e" and
# entities decoded once into "<br>" ("&lt;br&gt;" in the page, "&amp;lt;br&amp;gt;" read twice). A line-break or
# block tag becomes a line break, another tag a space: each pass starts with the literal "<" and is bounded.
_ESCAPED_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]{0,20}+)(?:[ \t/][^<>\n]{0,200}+)?>")
# The line-break and block tags of _ESCAPED_TAG (br p div li tr td h1-h6, either case), replaced first by a constant:
# a page of escaped "<br/>" otherwise calls a Python function for each (twice the time of the pass).
_ESCAPED_BLOCK_TAG = re.compile(r"</?(?:[bB][rR]|[pP]|[dD][iI][vV]|[lL][iI]|[tT][rRdD]|[hH][1-6])"
                                r"(?:[ \t/][^<>\n]{0,200}+)?>")


def _without_escaped_markup(text: str) -> str:
    """``text`` with JSON's and HTML's escaped tags read as tags (see ``_ESCAPED_TAG``); ``text`` itself if it has
    none (a "<" that is no escape, "<a<a<a", was in the page text already and is left as it is)."""
    unescaped = text
    if "\\u003" in unescaped:
        unescaped = (unescaped.replace("\\u003c", "<").replace("\\u003C", "<").replace("\\u003e", ">")
                     .replace("\\u003E", ">").replace("\\u0026", "&"))
    if "&lt;" in unescaped or "&LT;" in unescaped:
        unescaped = (unescaped.replace("&lt;", "<").replace("&gt;", ">").replace("&LT;", "<")
                     .replace("&GT;", ">"))
    return tags_as_breaks(unescaped) if unescaped != text else text


def tags_as_breaks(text: str) -> str:
    """Page text with the tags it shows (escaped in the markup: "&lt;br&gt;") read as tags: a line-break or
    block tag is a line break, another tag a space."""
    return _ESCAPED_TAG.sub(" ", _ESCAPED_BLOCK_TAG.sub("\n", text))


# An address written all in small letters ("lange straße 5, 26122 oldenburg", "45127 essen\nfreiheit 5"): a postcode
# followed by a word in small letters is the sign; the line with it and a line next to it that ends in a house
# number or starts with a postcode, each without any capital, get their words capitalised as a reader would write
# them (the small words inside a name stay small: "platz der republik"; "oldenburg (oldb)" -> "Oldenburg (Oldb)").
# The scan starts with the line break before such a line (a literal: a fast scan; a pattern starting with the sign's
# lookbehind is tried at every position, ten times slower), then the line's start without a capital up to the sign
# (a capital before it stops the try there).
_LOWER_POSTCODE_LINE = re.compile(r"\n[^A-ZÄÖÜ\n]{0,200}?(?<![\d.,])\d{5},? [a-zäöüß]")
_LOWER_NEIGHBOUR = re.compile(r"^(?:[a-zäöüß][^\n]{0,60}? [1-9]\d{0,3}[a-h]?[ ,;]*|\d{5},? [a-zäöüß][^\n]{0,60})$")
_LOWER_LINES_MAX = 1000
_SMALL_WORD = re.compile(r"(?<![\w'])[a-zäöüß][\w'.]*")
_KEEP_SMALL = frozenset("an der die das dem den des am im in auf bei von vom zum zur und ob vor i. a. d. b.".split())


def _capital(match: re.Match[str]) -> str:
    word = match.group(0)
    at = match.start()
    if word in _KEEP_SMALL and at > 1 and match.string[at - 1] == " " and match.string[at - 2].isalpha():
        return word  # inside a name: "platz der republik"; not after a label ("kontakt: am markt 1")
    return word[0].upper() + word[1:]


def _capitalised_lower_lines(text: str) -> str:
    """``text`` with its addresses in small letters capitalised (see ``_LOWER_POSTCODE_LINE``): only the lines with the
    sign are visited (found by one scan), each line's words capitalised once however often it is repeated."""
    spans: dict[int, int] = {}  # start -> end of each line to capitalise
    shifted = "\n" + text  # a match starts at the line break before its line: at the line's start in ``text``
    size = len(text)
    for count, found in enumerate(_LOWER_POSTCODE_LINE.finditer(shifted)):
        if count >= _LOWER_LINES_MAX:
            break  # a page of thousands of them is no page of addresses written by hand: the work stays bounded
        start = found.start()
        end = text.find("\n", start)
        end = size if end < 0 else end
        line = text[start:end]
        if len(line) > 200 or not line.islower():
            continue  # a capital after the sign: a line as written
        spans[start] = end
        if start > 0:  # the line before: a street ending in its house number ("lange straße 5")
            before = text.rfind("\n", 0, start - 1) + 1
            if start - 1 - before <= 80 and before not in spans and _is_lower_neighbour(text[before:start - 1]):
                spans[before] = start - 1
        if end < size:  # the line after: "45127 essen" / "freiheit 5"
            after_end = text.find("\n", end + 1)
            after_end = size if after_end < 0 else after_end
            if after_end - end - 1 <= 80 and _is_lower_neighbour(text[end + 1:after_end]):
                spans[end + 1] = after_end
    if not spans:
        return text
    parts: list[str] = []
    done: dict[str, str] = {}
    pos = 0
    for start in sorted(spans):
        end = spans[start]
        line = text[start:end]
        titled = done.get(line)
        if titled is None:
            titled = done[line] = _SMALL_WORD.sub(_capital, line)
        parts.append(text[pos:start])
        parts.append(titled)
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


def _is_lower_neighbour(line: str) -> bool:
    return line.islower() and _LOWER_NEIGHBOUR.match(line) is not None


def _unfold(match: re.Match[str]) -> str:
    text, at = match.string, match.start()
    after = text[match.end():match.end() + 1]
    before = text[at - 1:at] if at > 0 else ""
    return " " if (after.isupper() or after.isdigit()) and (before.islower() or before == ".") else ""


def _title(match: re.Match[str]) -> str:
    return match.group(1) + match.group(2).lower()


def _title_line(match: re.Match[str]) -> str:
    line = match.group(0)
    # "STRASSE" -> "Strasse", "LANGE STR. 5" -> "Lange Str. 5"; codes of two letters ("DC", "TX") stay.
    return _UPPER_WORD.sub(lambda m: _title(m) if len(m.group(0)) > 2 else m.group(0), line)


def unfold(markup: str) -> str:
    """``markup`` with the folded lines of iCalendar or vCard data joined (the page text loses the
    leading space that marks a fold, so this runs on the markup); other text is returned as it is."""
    if (_ICAL_SIGN_AFTER_BREAK.search(markup) is not None or _ICAL_SIGN.match(markup) is not None):
        out = _FOLD.sub(_unfold, markup.replace("\r\n", "\n"))
        if "\\" in out:  # the text escapes of these formats: "\," "\;" "\n"
            out = out.replace("\\,", ",").replace("\\;", ";").replace("\\n", "\n").replace("\\N", "\n")
        return out
    return markup


def repair_mojibake(text: str) -> str:
    """``text`` with UTF-8 read as Latin-1 repaired (``StraÃŸe`` -> ``Straße``), tested cheaply first."""
    if ("Ã" in text or "Â" in text) and _MOJIBAKE.search(text):
        return ftfy.fix_text(text)
    return text


def _without_markdown(text: str) -> str:
    """``text`` with its Markdown marks turned into line breaks (see _MARKDOWN), or ``text`` itself if it has none."""
    marked, count = _MARKDOWN.subn("\n", "\n" + text)
    return marked if count else text


def reshape(text: str) -> str | None:
    """``text`` with field syntax turned into line breaks, or None if it has none.

    Each step runs only when its sign is in the text (a substring test or one
    scan), so a page without such syntax costs a few fast scans."""
    out = repair_mojibake(text)
    # One-character tests first: each is a fast scan, a two-character one is not.
    if "](" in out:
        out = _MD_LINK_TARGET.sub("", _MD_LINK_OPEN.sub("", out))
    # A one-character test first: a scan for one character is fast, for several not (0.6 ms per 0.5 MB each).
    if ("\\" in out and "\\u003" in out) or ("&" in out and ("&lt;" in out or "&LT;" in out)):
        out = _without_escaped_markup(out)  # "City Hall\u003cbr/\u003e276 Fourth Avenue": a line break in JSON
    backslash = "\\" in out
    if backslash:
        out = _without_latex(out)
    if backslash and ("\\n" in out or "\\r" in out):
        if "\\\\" in out:  # a line break escaped twice (JSON inside a JSON string): two backslashes, then "n"
            out = out.replace("\\\\r\\\\n", "\n").replace("\\\\n", "\n").replace("\\\\r", "\n")
        out = out.replace("\\r\\n", "\n").replace("\\n", "\n").replace("\\r", "\n")
    if backslash and ("\\u" in out or "\\x" in out):
        out = unescape_letters(out)
    if backslash and ("\\," in out or "\\;" in out):
        out = out.replace("\\,", ",").replace("\\;", ";")  # iCalendar and vCard escapes: "LOCATION:Main St\\, Chicago"
    if ('"' in out or "'" in out) and _DATA_SIGN.search(out):
        if _STR_PREFIX_SIGN.search(out):
            out = _STR_PREFIX.sub("", out)
        out = _KEY.sub("\n", out)
        out = _FIELD_SEP.sub("\n", out)
        out = _QUOTE_EDGE.sub("", out)
    if (("*" in out and "**" in out) or ("_" in out and "__" in out)
            or (backslash and ("\\\n" in out or out.endswith("\\")))
            or _BULLET.match(out) or _BULLET_AFTER_BREAK.search(out)):
        out = _without_markdown(out)
    if "|" in out and _PIPED_AFTER_BREAK.search(out):
        out = _ELEMENT_LINE.sub("", _PIPED_TEXT.sub("", out))  # "p" / "| Sebastian Sebald" / "br" / "| Neumatten 4"
    if "#[" in out:
        out = _PUG_BREAK.sub("\n", out)  # "p Peterstraße 3 #[br] 26121 Oldenburg": Pug's tag in a line of text
    if (("#" in out or "%" in out or ">" in out or "--" in out)
            and (_COMMENT.match(out) or _COMMENT_AFTER_BREAK.search(out))):
        out = _COMMENT.sub("", out)
    if _UPPER_LINE.match(out) or _UPPER_AFTER_BREAK.search(out):
        out = _UPPER_LINE.sub(_title_line, out)
    if _LOWER_POSTCODE_LINE.search(out) or _LOWER_POSTCODE_LINE.match("\n" + out[:200].partition("\n")[0]):
        out = _capitalised_lower_lines(out)
    if out is text:
        return None
    # Lines that need no change (no space at either end, none doubled, no tab) are kept as they are.
    out = "\n".join([raw if raw[0] != " " and raw[-1] != " " and "  " not in raw and "\t" not in raw
                     else " ".join(raw.split()) for raw in out.split("\n") if raw and not raw.isspace()])
    return out if out != text else None

"""Text as mail, layout and data files leave it, mended before it is read: quoted-printable escapes, names broken
after their hyphen, escaped letters and folded strings of data.

Mail bodies kept as files (test mails, archives, a page showing a message's source) are often
quoted-printable (RFC 2045 6.7): ``Deelb=F6genkamp 4``, ``Stra=DFe``, ``<br />=0D=0A44149 Dortmund``,
lines cut with a soft break ``Potsda=`` / ``m``.  :func:`unquote_printable` decodes them when the
text shows the signs of the encoding; a page without them costs one substring test and at most one
scan.  A run of escapes is decoded as UTF-8 when its bytes are UTF-8 (``f=C3=BCr``) and as
Windows-1252 otherwise (``f=FCr``), so a message's charset need not be known.

A compound street name broken after its hyphen by a layout or a line wrap
(``Henning-von-Tresckow- Straße 9-13``) is joined by :func:`join_broken_names`; a US house number that a
wrapped sentence leaves at a line's end, its street on the next line (``Visit us at 1217`` /
``Barranca Dr. Suite B, El Paso, Texas.``), by :func:`join_wrapped_numbers`.

YAML's folds of a double-quoted string (``M\\xFC\\`` / ``  nster``, ``Münster,\\`` / ``  \\ Tel.``) are joined by
:func:`fold_yaml_strings`, and letters escaped in the string literals of data files (``M\\xFCnster`` in a YAML
dump, ``50171\\u00a0`` in JSON) decoded by :func:`unescape_string_letters`, so that the page text's readers see the
place as written.

A value of a URL's query string or of form data (``?address=Hamburg,+Holstenwall+9``,
``&q=Lange%20Stra%C3%9Fe%204``) is one word to the readers until :func:`decode_query_values` writes it decoded
on a line of its own.
"""

from __future__ import annotations

import binascii
import re
from urllib.parse import unquote_plus

# The signs that an "=XX" is quoted-printable and not a value in a URL, a form or a style ("?c=FF0000",
# "[state]=CA", "zip=94114"): a byte outside ASCII inside a word ("f=FCr", "Stra=C3=9Fe", "=F6ffnen"), an
# encoded "=", line break or space ("=3D", "=0D=0A", "=20" at a line end), a comma encoded between a word
# and the next ("Newtown=2C PA", "Inc.=2C All rights": mailers that encode punctuation), or a soft line
# break (an "=" ending a line after a letter, a digit or a tag). The "=" first: a fast scan, then one test
# of the next character for all the signs (half the scan's cost on a page of attributes, where "=" is
# followed by a quote); the characters around the escape are looked at only then.
_SIGN = re.compile(r"=(?=[0-9A-F\r\n])(?:(?:(?<=[^\W\d_]=)[89A-F][0-9A-F]|[89A-F][0-9A-F](?=[a-zäöüß]|=[89A-F]))"
                   r"(?![0-9A-F]{4})|(?:3D|0[DA]|09)(?![0-9A-F]{4})|20[ \t]*\r?\n|(?<=[^\W_.]=)2C(?=[ \t]\w)"
                   r"|(?:(?<=[^\W_]=)|(?<=>=))\r?\n)")
# Signs needed before the text is decoded: one is a formula or a URL, three are an encoding.
SIGNS_NEEDED = 3
# A sign enough on its own, for a short excerpt of a mail (a signature: "Deelb=F6genkamp 4", "Stra=DFe",
# "Newtown=2C PA 18940"): a letter of two UTF-8 bytes, one Latin-1 letter between letters ("=F6g", not the
# "=FF0000" of a colour), or a comma encoded between a word and a capitalised word or a number.
_LETTER_SIGN = re.compile(r"=(?<=[A-Za-zäöüß]=)(?:[C-F][0-9A-F]=[89AB][0-9A-F]|[C-F][0-9A-F](?=[a-zäöüß])"
                          r"|2C(?=[ \t][A-Z0-9]))")
# Also enough on its own: an encoded line break right before a soft one ("Suite C=0A=" / "Santa Cruz"), how vCard
# 2.1 and mail write a value of several lines (a LABEL, an ADR, a NOTE) in quoted-printable.
_BREAK_SIGN = re.compile(r"=(?:0D=)?0A=\r?\n")
# Bytes that are no UTF-8, kept by the decoder as surrogates U+DC80..U+DCFF: read as Windows-1252.
_SURROGATE = re.compile("[\udc80-\udcff]")
_CP1252 = {0xDC80 + i: bytes([0x80 + i]).decode("cp1252", errors="replace") for i in range(128)}
# A text that names its own encoding: a vCard 2.1 property ("LABEL;ENCODING=QUOTED-PRINTABLE:", "ADR;WORK;
# QUOTED-PRINTABLE:") or a mail part's header ("Content-Transfer-Encoding: quoted-printable"); with one sign
# of the encoding it is decoded.
_DECLARED = re.compile(r"[;:=] ?quoted-printable\b", re.IGNORECASE)


def _declared(text: str) -> bool:
    """Whether ``text`` names the quoted-printable encoding (two substring tests on most pages)."""
    if "uoted-printable" not in text and "UOTED-PRINTABLE" not in text:
        return False
    return _DECLARED.search(text) is not None


def unquote_printable(text: str) -> str:
    """``text`` with its quoted-printable escapes and soft line breaks decoded, if it shows
    :data:`SIGNS_NEEDED` signs of the encoding, or one with an encoded letter inside a word, an encoded
    comma after one, an encoded line break before a soft one or the encoding named (:data:`_DECLARED`);
    otherwise ``text`` itself."""
    signs = 0
    for _ in _SIGN.finditer(text):
        signs += 1
        if signs == SIGNS_NEEDED:
            break
    else:
        if signs == 0 or (_LETTER_SIGN.search(text) is None and _BREAK_SIGN.search(text) is None
                          and not _declared(text)):
            return text
    # The C decoder of the binascii module: escapes ("=XX", either case) and soft line breaks, in one pass.
    data = binascii.a2b_qp(text.encode("utf-8", errors="surrogatepass"))
    out = data.decode("utf-8", errors="surrogateescape")
    if _SURROGATE.search(out) is not None:
        out = out.translate(_CP1252)
    if "\r" in out:
        out = out.replace("\r\n", "\n").replace("\r", "\n")
    return out


# A hyphen and a space or line break after a letter, before a capitalised street word that ends the
# name: "Henning-von-Tresckow- Straße", "Carl-von-Ossietzky-\nStr. 9". The pattern starts with the
# literal "-": one fast scan of a page.
_BROKEN_NAME = re.compile(
    r"-(?<=[A-Za-zÄÖÜäöüß]-)(?:[ \t]\n?|\n)[ \t]?(?=(?:Stra(?:ß|ss)e|Str\.|Weg|Platz|Allee|Ring|Damm|"
    r"Wall|Gasse|Ufer|Markt|Steg|Pfad|Kamp|Deich|Graben|Brücke|Stieg|Twiete|Chaussee|Promenade)(?![a-zäöüß])[ \t.]*\d)")


def join_broken_names(text: str) -> str:
    """``text`` with compound street names broken after their hyphen joined."""
    if _BROKEN_NAME.search(text) is None:  # a regex scan from the literal "-": faster than two "in" tests
        return text
    return _BROKEN_NAME.sub("-", text)


# A backslash ending a line inside a YAML double-quoted string escapes the break: the line goes on after the next
# line's indentation, with "\ " there for a space kept ("M\xFC\" / "      nster", "Münster,\" / "  \ Tel.",
# "Domgasse 5, \" / "  \ M\xFCnster"). Not after a backslash: "\\" is an escaped backslash.
# Only where the next line is indented and goes on in lower case or with that escaped space: a Markdown hard break
# ("19.30 Uhr\" / "Ort: ...") starts its next line at the margin, and mostly with a capital.
_YAML_FOLD = re.compile(r"\\(?<!\\\\)\n[ \t]+(?:\\(?= )|(?=[a-zäöüß]))")
# The sign of letters escaped in string literals: an escape of a Latin-1 letter right after a letter, inside a word
# ("M\xFCnster", "Stra\u00dfe"), or an escaped no-break space ("50171\u00a0"). Escapes elsewhere (an escaped
# quote, "\x1b" in a log) are left to the second reading, which decodes them all. Both patterns start with the
# backslash (a fast scan for one character), the letter or backslash before it tested behind.
_LETTER_ESCAPE_SIGN = re.compile(r"\\(?:(?<=[A-Za-z]\\)(?:x[c-fC-F][0-9a-fA-F]|u00[c-fC-F][0-9a-fA-F])|u00[aA]0)")


def fold_yaml_strings(text: str) -> str:
    """``text`` with the escaped line breaks of YAML double-quoted strings joined (see ``_YAML_FOLD``)."""
    if "\\\n" not in text:
        return text
    return _YAML_FOLD.sub("", text)


# The escapes that may stand for a letter or a no-break space (Latin-1's upper half, Latin Extended-A), not after an
# escaped backslash. An escaped "<" or quote is left as written: the second reading (``reshape``) takes
# "\\u003cbr\\u003e" for a line break, which a "<br>" in the page text would not be.
_LETTER_ESCAPE = re.compile(r"(?<!\\)\\(?:u(00[a-fA-F][0-9a-fA-F]|01[0-7][0-9a-fA-F])|x([a-fA-F][0-9a-fA-F]))")


def _escaped_letter(match: re.Match[str]) -> str:
    character = chr(int(match.group(1) or match.group(2), 16))
    if character == "\xa0":
        return " "  # as the page text writes "&nbsp;"
    return character if character.isalpha() else match.group(0)


def unescape_string_letters(text: str) -> str:
    """``text`` with the letter escapes of string literals decoded when it shows their sign (``\\xFC``,
    ``\\u00fc`` inside a word; a no-break space escaped as ``\\u00a0`` becomes a space), the other escapes kept, or
    ``text`` itself."""
    if "\\" not in text or ("\\u" not in text and "\\x" not in text) or _LETTER_ESCAPE_SIGN.search(text) is None:
        return text
    return _LETTER_ESCAPE.sub(_escaped_letter, text)


# A house number ending a line after "at", its street starting the next: a sentence that the source wraps, as
# editors and templates wrap prose ("Come visit us at 1217\n  Barranca Dr. Suite B, El Paso, Texas.", "located
# at 500\nN. Main Street"). The street: a direction or a capitalised word (or an ordinal), at most three more
# capitalised words, then a common type word. The pattern starts with the literal "t ": one fast scan.
_WRAPPED_NUMBER = re.compile(
    r"t (?<=\b[Aa]t )(\d{1,6})[ \t]*\n[ \t]*(?=(?:[NSEW]\.? |(?:North|South|East|West) )?[A-Z0-9][\w'.-]*"
    r"(?: [A-Z][\w'.-]*){0,3} (?:St|Street|Ave|Avenue|Blvd|Boulevard|Rd|Road|Dr|Drive|Ln|Lane|Way|Pl|Place|Ct|"
    r"Court|Pkwy|Parkway|Hwy|Highway|Sq|Square|Ter|Terrace|Cir|Circle|Trl|Trail|Plaza|Plz)\b)")


def join_wrapped_numbers(text: str) -> str:
    """``text`` with US house numbers that a line wrap parted from their street joined to it."""
    if _WRAPPED_NUMBER.search(text) is None:
        return text
    return _WRAPPED_NUMBER.sub(r"t \1 ", text)


# A two-word town that a hard wrap parted after its first word, the place's line then starting with the second word
# and the state ("... 12 Airport Boulevard, San" / "Mateo, CA 94401", "Mountain" / "View, CA"). The first word must
# be one that names no town alone (so "..., Acme" / "Denver, CO" stays two lines), and no direction ("Elm St, East"
# may be the street's quadrant); a region city so parted is read by the US reader already. The scan is for the
# place's line (a line break first: one fast scan); the line before it is looked at only there.
_PLACE_LINE = re.compile(r"\n(?P<lead>[ \t]*(?:>[ \t]?)*)(?=[A-Z][a-z]+(?: [A-Z][a-z]+)?,?[ \t]+[A-Z]{2}\b)")
_TOWN_FIRST_WORDS = (
    "San|Santa|Los|Las|El|La|Del|Des|Fort|Ft\\.|Saint|St\\.|Mount|Mt\\.|Port|Palm|Palo|Palos|Menlo|Daly|Redwood|"
    "Mountain|Half|Long|Grand|Salt|Baton|Corpus|Sioux|Cape|Rancho|Culver|Chula|Costa|Boca|Overland|Bowling|Coral|"
    "Round|Foster|Ann|Sugar|Pompano|Daytona|Myrtle|Jersey|Colorado|Elk|Redondo|New")
_WRAPPED_TOWN_START = re.compile(rf",[ \t]*(?:{_TOWN_FIRST_WORDS})[ \t]*$")


def join_wrapped_towns(text: str) -> str:
    """``text`` with US towns of two words that a line wrap parted joined again (see ``_PLACE_LINE``)."""
    pieces: list[str] = []
    last = 0
    for place in _PLACE_LINE.finditer(text):
        start = place.start()
        if _WRAPPED_TOWN_START.search(text, max(last, start - 40), start) is None:
            continue
        pieces.append(text[last:start])
        pieces.append(" ")
        last = place.end()
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


# A page's lines joined without a space between them, as a summary made from an element's text content leaves
# them (a meta description: "DNA Lounge375 11th StSan Francisco, CA 94103BuzzWorks365 11th St..."): the street's
# type word (maybe with a unit) glued to the place before a state and ZIP. The street is parted from the place by a
# line break, and so is its house number from a word glued before it and the ZIP from a word glued after it.
# The state and ZIP first, then at most 80 characters before each. Read on a page's descriptions only (text.py): a
# look behind every state and ZIP of a page (a list of thousands) costs too much for a rare glue.
_STATE_ZIP = re.compile(r",[ ]?[A-Z]{2}[ ]\d{5}")
_GLUED_PLACE = re.compile(r"(?:(?<=[a-z)])(?P<glued>[1-9]\d{0,5})|(?<![\w.,-])[1-9]\d{0,5}) (?:[\w.'-]+ ){0,4}?"
                          r"(?:St|Ave|Blvd|Rd|Dr|Ln|Way|Pl|Ct|Pkwy|Hwy|Street|Avenue|Boulevard|Road|Drive|Lane|Place|"
                          r"Court|Parkway|Highway)\.?(?: (?:#|Suite |Ste\.? )\w{1,6})?"
                          r"(?P<place>[A-Z][a-z]+(?: [A-Z][a-z]+){0,2})$")


def split_glued_lines(text: str) -> str:
    """``text`` with US address lines that were joined without a space parted again (see above)."""
    if "," not in text:
        return text
    cuts: list[int] = []
    for anchor in _STATE_ZIP.finditer(text):
        start = max(0, anchor.start() - 80)
        glued = _GLUED_PLACE.search(text, start, anchor.start())
        if glued is None:
            continue
        if glued.group("glued") is not None:
            cuts.append(glued.start("glued"))
        cuts.append(glued.start("place"))
        if text[anchor.end():anchor.end() + 1].isalpha():
            cuts.append(anchor.end())  # "94103BuzzWorks": the next line's name glued to the ZIP
    if not cuts:
        return text
    parts = []
    last = 0
    for cut in cuts:
        parts.append(text[last:cut])
        last = cut
    parts.append(text[last:])
    return "\n".join(parts)


# A value of a URL's query string or of form data, encoded (RFC 3986, application/x-www-form-urlencoded):
# "?address=Hamburg,+Holstenwall+9", "&from.address=10178+Berlin-Mitte,+M%C3%BCnzstr.+12", "&q=Lange%20Stra%C3%9Fe%204".
# A "+" or an escape for every space glues the address into one word, which no reader takes apart. Only a value
# with a "+" or a "%": the key's run and the value's runs are possessive and bounded, and the pattern starts with
# a class, "?" or "&" (a fast scan).
_QUERY_VALUE = re.compile(r"[?&][A-Za-z_][\w.\[\]-]{0,40}+=((?:[^\s&#\"'`<>()|\\+%]{0,200}+[+%])++"
                          r"[^\s&#\"'`<>()|\\]{0,200}+)")
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
# A Markdown link reference definition, the line of its URL: "[3]: http://maps.example.com/?near=...".
_LINK_REFERENCE = re.compile(r"[ \t]{0,3}\[[^\]\n]{1,100}\]:[ \t]")


def _decoded(match: re.Match[str]) -> str:
    """The value of ``match`` (a parameter of ``_QUERY_VALUE``) decoded, on a line of its own; the parameter as
    written if decoding changes nothing."""
    value = match.group(1)
    if "%" in value and _PERCENT_ESCAPE.search(value) is None:
        decoded = value.replace("+", " ")  # "50%+off": a percent sign, no escape
    else:
        decoded = unquote_plus(value)
    if decoded == value:
        return match.group(0)
    # The key goes too: the values of one query string, each on its line, are the lines of an address
    # ("?strasse=Lange+Stra%C3%9Fe+4&ort=26122+Oldenburg"). The keyed readers read the markup, which stays as written.
    return "\n" + decoded + "\n"


def decode_query_values(text: str) -> str:
    """``text`` with each encoded value of a query string or form data written decoded, on a line of its own,
    in place of its parameter (see ``_QUERY_VALUE``); ``text`` itself when it has none (three substring tests on
    most pages).

    Not in a Markdown link's target, ``[text](url)``, nor a reference's, ``[3]: url``: the page shows the link's
    text, and the target repeats the place in a geocoder's words ("hnear=200+E+Randolph+St"), which the reshaped
    reading drops too. Whether a parameter is in such a target is followed along the text: each stretch between
    two parameters is scanned once (a line of thousands of parameters costs one pass)."""
    if "=" not in text or ("+" not in text and "%" not in text) or ("?" not in text and "&" not in text):
        return text
    parts: list[str] = []
    last = 0
    scanned = 0  # the text before this is accounted for in the state below
    line_start = 0
    word_start = 0
    reference_line: bool | None = None  # found out once a line, when a parameter is in it
    link_in_word = False
    for match in _QUERY_VALUE.finditer(text):
        start = match.start()
        break_at = text.rfind("\n", scanned, start)
        if break_at != -1:
            line_start = word_start = break_at + 1
            reference_line = None
            link_in_word = False
            scanned = line_start
        space_at = text.rfind(" ", scanned, start)
        if space_at != -1:
            word_start = space_at + 1
            link_in_word = False
            scanned = word_start
        if not link_in_word:
            link_in_word = text.find("](", max(word_start, scanned - 1), start) != -1
        if reference_line is None:
            reference_line = _LINK_REFERENCE.match(text, line_start) is not None
        scanned = match.end()
        if link_in_word or reference_line:
            continue
        decoded = _decoded(match)
        if decoded is not match.group(0):
            parts.append(text[last:start])
            parts.append(decoded)
            last = match.end()
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)

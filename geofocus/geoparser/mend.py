"""Text as mail and layout leave it, mended before it is read: quoted-printable escapes, names broken
after their hyphen.

Mail bodies kept as files (test mails, archives, a page showing a message's source) are often
quoted-printable (RFC 2045 6.7): ``Deelb=F6genkamp 4``, ``Stra=DFe``, ``<br />=0D=0A44149 Dortmund``,
lines cut with a soft break ``Potsda=`` / ``m``.  :func:`unquote_printable` decodes them when the
text shows the signs of the encoding; a page without them costs one substring test and at most one
scan.  A run of escapes is decoded as UTF-8 when its bytes are UTF-8 (``f=C3=BCr``) and as
Windows-1252 otherwise (``f=FCr``), so a message's charset need not be known.

A compound street name broken after its hyphen by a layout or a line wrap
(``Henning-von-Tresckow- Straße 9-13``) is joined by :func:`join_broken_names`.
"""

from __future__ import annotations

import re

# An escape of a byte: "=" and two upper-case hex digits (the encoding writes capitals).
_ESCAPES = re.compile(r"(?:=[0-9A-F]{2})+")
# The signs that an "=XX" is quoted-printable and not a value in a URL or a style ("?c=FF0000"): a
# byte outside ASCII ("=FC", "=C3=BC"), an encoded "=", line break or space ("=3D", "=0D=0A", "=20" at
# a line end), or a soft line break (an "=" ending a line after a letter, a digit or a tag).
_SIGN = re.compile(r"=(?:[89A-F][0-9A-F]|3D|0[DA]|20[ \t]*\r?\n|09)(?![0-9A-F]{4})|(?<=[\w>])=\r?\n")
# Signs needed before the text is decoded: one is a formula or a URL, three are an encoding.
SIGNS_NEEDED = 3
_SOFT_BREAK = re.compile(r"=[ \t]*\r?\n")


def _decode_run(match: re.Match[str]) -> str:
    data = bytes.fromhex(match.group(0).replace("=", ""))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def unquote_printable(text: str) -> str:
    """``text`` with its quoted-printable escapes and soft line breaks decoded, if it shows
    :data:`SIGNS_NEEDED` signs of the encoding; otherwise ``text`` itself."""
    if "=" not in text:
        return text
    signs = 0
    for _ in _SIGN.finditer(text):
        signs += 1
        if signs == SIGNS_NEEDED:
            break
    else:
        return text
    text = _SOFT_BREAK.sub("", text)
    text = _ESCAPES.sub(_decode_run, text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


# A hyphen and a space or line break after a letter, before a capitalised street word that ends the
# name: "Henning-von-Tresckow- Straße", "Carl-von-Ossietzky-\nStr. 9". The pattern starts with the
# literal "-": one fast scan of a page.
_BROKEN_NAME = re.compile(
    r"(?<=[A-Za-zÄÖÜäöüß])-(?:[ \t]\n?|\n)[ \t]?(?=(?:Stra(?:ß|ss)e|Str\.|Weg|Platz|Allee|Ring|Damm|"
    r"Wall|Gasse|Ufer|Markt|Steg|Pfad|Kamp|Deich|Graben|Brücke|Stieg|Twiete|Chaussee|Promenade)(?![a-zäöüß])[ \t.]*\d)")


def join_broken_names(text: str) -> str:
    """``text`` with compound street names broken after their hyphen joined."""
    if "- " not in text and "-\n" not in text:
        return text
    return _BROKEN_NAME.sub("-", text)

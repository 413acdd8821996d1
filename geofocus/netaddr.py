"""IP addresses in URL hosts, read the way resolvers, proxies and browsers read them.

A host such as ``2130706433``, ``0x7f.1``, ``0177.0.0.1`` or ``127.1`` is not a
name: ``inet_aton`` (and so ``getaddrinfo``, and any proxy built on it) and the
WHATWG URL host parser of browsers read it as the IPv4 address 127.0.0.1.  One
to four dot-separated parts, each decimal, octal (leading ``0``) or hex
(``0x``); the last part fills the remaining bytes.  IPv6 addresses that carry
an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) are
judged by that address, since a gateway or a dual stack delivers them there.

This is the one place geofocus tells IP literals from names (the private
address filter, the TLD filter and the link features use it).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from urllib.parse import unquote

import idna

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_SITE_LOCAL = ipaddress.ip_network("fec0::/10")  # deprecated, but routed inside networks; Python calls it global


def _ipv4_number(part: str) -> int | None:
    """One part of a numeric IPv4 host: decimal, octal (leading 0) or hex (0x); None if not a number."""
    if part[:2] in ("0x", "0X"):
        digits, base = part[2:], 16
        if not digits:
            return 0  # "0x" alone is 0 to both inet_aton and WHATWG
    elif len(part) > 1 and part[0] == "0":
        digits, base = part[1:], 8
    else:
        digits, base = part, 10
    if not digits or not digits.isascii() or not digits.isalnum():
        return None
    try:
        return int(digits, base)
    except ValueError:
        return None


def parse_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address a numeric host stands for (inet_aton / WHATWG rules), else None."""
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()  # "127.0.0.1." is 127.0.0.1 to browsers
    if not 1 <= len(parts) <= 4:
        return None
    numbers = []
    for part in parts:
        number = _ipv4_number(part)
        if number is None:
            return None
        numbers.append(number)
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (4 - len(head)):
        return None
    value = last
    for i, n in enumerate(head):
        value += n << (8 * (3 - i))
    return ipaddress.IPv4Address(value)


def mapped_host(host: str) -> str:
    """The host after percent-decoding and IDNA (UTS 46) mapping, as browsers and w3lib map it
    (``１２７．０．０．１`` is 127.0.0.1); the host itself if it does not map."""
    try:
        decoded = unquote(host, errors="strict")
        return idna.uts46_remap(decoded, std3_rules=False, transitional=False).lower()
    except (UnicodeError, ValueError, idna.IDNAError):
        return host.lower()


@lru_cache(maxsize=1 << 14)
def host_ip(host: str) -> IPAddress | None:
    """The IP address a URL host stands for, if it is an IP literal in any form; None for a name."""
    if not host:
        return None
    host = host.strip()
    if host.startswith("[") or ":" in host:
        try:
            return ipaddress.IPv6Address(host.strip("[]").split("%", 1)[0])
        except ValueError:
            return None
    for candidate in dict.fromkeys((host.lower(), mapped_host(host))):
        ip = parse_ipv4(candidate.rstrip("."))
        if ip is not None:
            return ip
    return None


def is_ip_literal(host: str) -> bool:
    return host_ip(host) is not None


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address delivers to: mapped, compatible, NAT64, 6to4, Teredo."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    value = int(ip)
    if value >> 32 == 0 and value > 1:  # ::a.b.c.d (IPv4-compatible); :: and ::1 are IPv6 themselves
        return ipaddress.IPv4Address(value & 0xFFFFFFFF)
    if any(ip in net for net in _NAT64):
        return ipaddress.IPv4Address(value & 0xFFFFFFFF)
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    return None


def is_public_ip(ip: IPAddress | str) -> bool:
    """True for a globally routable unicast address; False for private, loopback, link-local,
    unspecified, reserved, multicast and IPv6 addresses embedding any of those."""
    if isinstance(ip, str):
        try:
            ip = ipaddress.ip_address(ip.strip("[]").split("%", 1)[0])
        except ValueError:
            parsed = host_ip(ip)
            if parsed is None:
                raise ValueError(f"not an IP address: {ip!r}") from None
            ip = parsed
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _SITE_LOCAL:
            return False
        inner = embedded_ipv4(ip)
        if inner is not None and not is_public_ip(inner):
            return False
    return ip.is_global and not ip.is_multicast

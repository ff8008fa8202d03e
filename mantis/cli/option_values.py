"""What the ``mantis`` command's option values may be: argparse types that read a value
or say in one line why not (``parser`` names them on its options)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..engine.seat_count import SEAT_RANGE, valid_seat_count
from ..engine.turn_clock_range import CLOCK_RULE, valid_clock


def number(
    convert: type[int] | type[float], what: str, ok: Callable[[float], bool], rule: str
) -> Callable[[str], Any]:
    """An argparse type: ``text`` read by ``convert``; ``ok`` or one line saying ``rule``."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{rule}, not {text}")
        return value

    return parse


positive_int = number(int, "a whole number", lambda v: v >= 1, "must be at least 1")
seed = number(int, "a whole number", lambda v: v >= 0, "seeds are 0 or more")
seconds = number(float, "a number of seconds", lambda v: v > 0, "must be more than 0 seconds")
port = number(int, "a port number", lambda v: 0 <= v <= 65535, "ports are 0 to 65535")
pace = number(float, "a number of seconds", lambda v: 0 <= v <= 60, "must be 0 to 60 seconds")
turn_clock = number(int, "a whole number of seconds", lambda v: valid_clock(int(v)), CLOCK_RULE)
seat_count = number(
    int, "a number of players", lambda v: valid_seat_count(int(v)), f"must be {SEAT_RANGE}"
)


def host_name(text: str) -> str:
    """``--allow-host``: a host name (letters, digits, dots, dashes) or an address."""
    name = text.strip().lower().rstrip(".")
    if not name or not all(c.isascii() and (c.isalnum() or c in ".-:[]") for c in name):
        raise argparse.ArgumentTypeError(f"{text!r} is not a host name")
    return name


def listen_address(text: str) -> str:
    """``--metrics``: HOST:PORT (``[::1]:9100`` for IPv6)."""
    from ..net.server.pages.metrics_listener import parse_listen

    try:
        parse_listen(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def postgres_url(text: str) -> str:
    """``--database`` of ``mantis migrate``: a PostgreSQL URL."""
    if not text.startswith(("postgresql://", "postgres://")):
        raise argparse.ArgumentTypeError(f"{text!r} is not a postgresql:// URL")
    return text


def network(text: str) -> str:
    """``--trusted-proxy``: an address or a network (``10.0.0.0/8``)."""
    import ipaddress

    try:
        ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an address or a network") from None
    return text.strip()


def jobs(text: str) -> int | str:
    """``--jobs``: ``auto`` (every core) or a whole number from 1."""
    if text == "auto":
        return text
    try:
        count: int = positive_int(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (or auto)") from None
    return count

"""Who may open a tab of ``mantis web``: whoever holds this run's key, under this server's names.

A tab's app plays as the person who started ``mantis web``, with their saves
and statistics, so a tab is opened only by someone holding the address it
printed: it carries a key made for this run (as notebook servers do), which
the page trades for a cookie at once (``HttpOnly``, ``SameSite=Strict``) and
leaves out of its address, so a reload works and the key goes nowhere else,
not even in a ``Referer``.  Any other local program, or a page elsewhere,
gets no session.

The Host a request names must be one of this server's own (a rebound DNS
name is refused): on a loopback address, loopback names; on another address,
that address and this machine's names; on every interface, any address of
this machine, its names, and the names given with ``--allow-host``.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from collections.abc import Iterable, Mapping
from functools import cache
from urllib.parse import urlsplit

#: The query parameter the printed address carries the key in.
KEY_PARAMETER = "key"
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
#: Hosts that listen on every interface of this machine.
EVERY_INTERFACE = frozenset({"0.0.0.0", "::", ""})


class Access:
    """This run's key, and the host names its pages may be asked for under."""

    def __init__(self, bound: str, allowed_hosts: Iterable[str] = (), key: str | None = None):
        """For a server bound to ``bound``; ``allowed_hosts``: more names (``--allow-host``)."""
        self.key = key if key is not None else secrets.token_urlsafe(18)
        self.bound = bound
        self.allowed = frozenset(_normal(h) for h in allowed_hosts)
        self.cookie = "mantis-web"
        """The cookie's name: ``for_port`` makes it the port's own (two servers, two keys)."""

    def for_port(self, port: int) -> None:
        self.cookie = f"mantis-web-{port}"

    def opens(self, given: str) -> bool:
        """Whether ``given`` is this run's key (compared in constant time)."""
        return hmac.compare_digest(given.encode(), self.key.encode())

    def holds(self, cookies: Mapping[str, str]) -> bool:
        """Whether a request's cookies hold this run's key."""
        value = cookies.get(self.cookie)
        return value is not None and self.opens(value)

    def host_allowed(self, host: str) -> bool:
        """Whether ``host`` (a Host header: name or address, and port) names this server."""
        name = _normal(urlsplit(f"//{host}").hostname or "")
        if not name:
            return False
        if name in self.allowed:
            return True
        bound = _normal(self.bound)
        if bound in LOOPBACK_NAMES:
            return name in LOOPBACK_NAMES
        if name in _machine_names():
            return True
        if bound in EVERY_INTERFACE:
            return name in LOOPBACK_NAMES or _local_address(name)
        return _same_address(name, bound)


def _normal(host: str) -> str:
    return host.strip().lower().rstrip(".").removeprefix("[").removesuffix("]")


@cache
def _machine_names() -> frozenset[str]:
    """This machine's own names (as a browser elsewhere on the network may know it)."""
    names = {socket.gethostname(), socket.getfqdn()}
    names |= {f"{name}.local" for name in set(names) if "." not in name}
    return frozenset(_normal(n) for n in names if n and _normal(n) not in LOOPBACK_NAMES)


def _same_address(name: str, address: str) -> bool:
    try:
        return ipaddress.ip_address(name) == ipaddress.ip_address(address)
    except ValueError:
        return False


@cache
def _local_address(name: str) -> bool:
    """Whether ``name`` is an address of one of this machine's interfaces.

    The system says so: a socket binds only to an address this machine has.
    """
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False  # a name, not an address: only this machine's own names pass
    if address.is_unspecified or address.is_multicast:
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind((str(address), 0))
    except OSError:
        return False
    return True

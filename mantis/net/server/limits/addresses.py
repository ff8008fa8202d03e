"""Who a connection is, for the limits: its address, grouped as one party holds them.

A limit per address counts a *group*: an IPv4 address on its own (a home
or an office behind one NAT is one party), an IPv6 address by its /64 (one
network: a host picks any address in its /64 at will), an IPv4 address
written as IPv6 (``::ffff:203.0.113.9``) as the IPv4 address it is.

Behind a reverse proxy every connection comes from the proxy, and the
person's address is in the ``X-Forwarded-For`` header the proxy adds.
Anyone can write that header, so it is read only when the connection comes
from a proxy the operator named as trusted (``mantis serve
--trusted-proxy``): the address taken is the last one in the header that is
not itself a trusted proxy (each proxy appends what it saw; what a client
wrote comes first and is not believed).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

#: The prefix one IPv6 party is assumed to hold at will.
IPV6_GROUP = 64
#: The networks people of one party may sit from, for ratings (``network_of``): the
#: neighbouring IPv4 addresses of one provider's subscribers, and the /48 an IPv6
#: subscriber is commonly given.
IPV4_NETWORK, IPV6_NETWORK = 24, 48
UNKNOWN = "?"


def parse_address(text: str) -> Address | None:
    """``text`` as an IP address (IPv4-mapped IPv6 as IPv4; a zone dropped), or None."""
    text = text.strip().strip("[]").split("%", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def address_group(text: str) -> str:
    """The group ``text`` counts in: the IPv4 address, or the IPv6 /64 (``?`` if unreadable)."""
    address = parse_address(text)
    if address is None:
        return UNKNOWN
    if isinstance(address, ipaddress.IPv4Address):
        return str(address)
    return str(ipaddress.IPv6Network((address, IPV6_GROUP), strict=False))


def network_of(group: str) -> str:
    """The wider network an address group is in, for ratings: its IPv4 /24, its IPv6 /48
    (``?`` for an unreadable one)."""
    text = group.split("/", 1)[0]
    address = parse_address(text)
    if address is None:
        return UNKNOWN
    prefix = IPV4_NETWORK if isinstance(address, ipaddress.IPv4Address) else IPV6_NETWORK
    return str(ipaddress.ip_network((address, prefix), strict=False))


def parse_networks(texts: Iterable[str]) -> tuple[Network, ...]:
    """Addresses or networks (``10.0.0.0/8``, ``::1``) as networks; ``ValueError`` if one is not."""
    return tuple(ipaddress.ip_network(text.strip(), strict=False) for text in texts)


class ClientAddresses:
    """Reads a connection's address: the peer's, or (from a trusted proxy) its header's."""

    def __init__(self, trusted_proxies: Sequence[Network] = ()) -> None:
        self.trusted = tuple(trusted_proxies)

    def is_trusted(self, address: Address | None) -> bool:
        """Whether ``address`` is one of the operator's trusted proxies."""
        return address is not None and any(
            address.version == net.version and address in net for net in self.trusted
        )

    def client(self, peer: str, forwarded_for: Sequence[str] = ()) -> str:
        """The address a connection from ``peer`` is for (``forwarded_for``: the headers' values).

        A peer that is not a trusted proxy is itself the client, whatever it
        wrote.  From a trusted proxy, the last address in the header that is
        not a trusted proxy; the proxy's own address if there is none.
        """
        address = parse_address(peer)
        if not self.is_trusted(address):
            return str(address) if address is not None else UNKNOWN
        hops = [hop for value in forwarded_for for hop in value.split(",")]
        for hop in reversed(hops):
            seen = parse_address(hop)
            if seen is None:
                break  # a hop we cannot read: nothing before it can be believed either
            if not self.is_trusted(seen):
                return str(seen)
        return str(address)

    def group(self, peer: str, forwarded_for: Sequence[str] = ()) -> str:
        """The group of :meth:`client` (what per-address limits count)."""
        return address_group(self.client(peer, forwarded_for))

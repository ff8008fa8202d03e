"""Names held by player keys: checked before a seat is taken, bound only once it is.

A person who sits down under a name with a player key holds that name on
this server: nobody else sits under it (or under a look-alike of it, in any
case: ``NameKeys``).  An opening is checked first (``check``: the name is
not another key's, and a new name is within its key's and its address's
allowance for the day), and the name is bound (``bind``) only once the seat
is taken, so an opening refused for any reason (too many tables, a full
table, a busy store) holds nothing.

Holding is bounded: a key may take ``ServerLimits.names_per_key`` new names
a day (3) and an address group ``names_per_address`` (10), and a name with no rated game nobody
sat under for ``RELEASE_AFTER`` is free again (one with a rated game is kept
for good: it carries a rating).  Days and releases run on the clock the
claims are handed (docs/ratings.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ..players.clock import Clock
from ..store.player_ratings import NameClaim, held_by_another
from ..store.tables_interface import TableStore
from ..table.names import NameKeys, clean_name
from . import protocol
from .directory import Directory
from .limits import ServerLimits

#: A name with no rated game is free again once nobody sat under it for this long.
RELEASE_AFTER = timedelta(days=14)
DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a name may not be sat under: an error code and one line."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Claim:
    """A name checked for someone about to sit down: cleaned, its keys (None for an empty
    name, which holds nothing), the sitter's key digest (None: no key) and address group."""

    name: str
    keys: NameKeys | None
    key_hash: str | None
    group: str


class NameClaims:
    """Checks and binds the names people sit under, in ``store``, counting in ``directory``."""

    def __init__(
        self, store: TableStore, directory: Directory, clock: Clock, limits: ServerLimits
    ) -> None:
        self.store = store
        self.directory = directory
        self.clock = clock
        self.limits = limits

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock.time(), UTC)

    async def check(self, name: str, key_hash: str | None, group: str) -> Claim | Refusal:
        """Whether the sitter may sit under ``name``: the claim to bind once seated, or why not."""
        cleaned = clean_name(name)
        if not cleaned:
            return Claim(cleaned, None, key_hash, group)
        keys = NameKeys.of(cleaned)
        held = await self.store.name_holders(keys.low, keys.capitals, self._now() - RELEASE_AFTER)
        if held_by_another(held, keys.low, key_hash):
            return Refusal(
                protocol.NAME_TAKEN,
                f"the name {cleaned!r} belongs to another player on this server: pick another",
            )
        if key_hash is not None and not held:
            for counted, most, whose in (
                (_key_count(key_hash), self.limits.names_per_key, "your player key"),
                (_address_count(group), self.limits.names_per_address, "your address"),
            ):
                if (await self.directory.hits(counted, DAY)).count >= most:
                    return Refusal(
                        protocol.TOO_MANY_NAMES,
                        f"{whose} took {most} new names on this server today: "
                        "play under one you hold, or come back tomorrow",
                    )
        return Claim(cleaned, keys, key_hash, group)

    async def bind(self, claim: Claim) -> str | None | Refusal:
        """The seat is taken: hold the name for the key.  The ``name_key`` it is held under
        (None: no key, or no name), or a refusal (another key took it meanwhile)."""
        if claim.keys is None or claim.key_hash is None:
            return None
        now = self._now()
        bound = await self.store.bind_name(
            NameClaim(
                claim.keys.low,
                claim.keys.capitals,
                claim.name,
                claim.key_hash,
                now,
                now - RELEASE_AFTER,
            )
        )
        if bound is None:
            return Refusal(
                protocol.NAME_TAKEN,
                f"the name {claim.name!r} was just taken by another player: pick another",
            )
        if bound.new:
            await self.directory.hit(_key_count(claim.key_hash), DAY)
            await self.directory.hit(_address_count(claim.group), DAY)
        return bound.name_key


def _key_count(key_hash: str) -> str:
    return f"names:key:{key_hash}"


def _address_count(group: str) -> str:
    return f"names:address:{group}"

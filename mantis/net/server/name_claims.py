"""Names held by player keys: checked before a seat is taken, bound only once it is.

A person who sits down under a name with a player key holds that name on
this server: nobody else sits under it (or under a look-alike of it, in any
case: ``NameKeys``).  An opening is checked first (``check``: the name is
not another key's, and a new name is within its key's and its address's
allowance for the day, as they stand), and the name is bound (``bind``)
only once the seat is taken, so an opening refused for any reason (too many
tables, a full table, a busy store) holds nothing.

Holding is bounded: a key may take ``ServerLimits.names_per_key`` new names
a day (3) and an address group ``names_per_address`` (10), and a name with no rated game nobody
sat under for ``RELEASE_AFTER`` is free again (one with a rated game is kept
for good: it carries a rating).  Days and releases run on the clock the
claims are handed (docs/ratings.md).

The allowances are *taken* as a new name is bound, each in one step that
checks and counts, so openings sent together never pass them all: a key's
new names are counted by the store in the write that holds the name (the
names it took within the day are its rows), an address group's in the
directory (shared by every node), given back if the name turns out not to
be new or not to be held after all.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ...base.clock import Clock
from ...store.player_ratings import NameClaim, Unbound, held_by_another
from ...store.tables_interface import TableStore
from ...table.names import NameKeys, clean_name
from .. import protocol
from .directory import Directory
from .limits.server_limits import ServerLimits
from .problems import Problem

#: A name with no rated game is free again once nobody sat under it for this long.
RELEASE_AFTER = timedelta(days=14)
DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class Claim:
    """A name checked for someone about to sit down: cleaned, its keys (None for an empty
    name, which holds nothing), the sitter's key digest (None: no key) and address group,
    and whether it looked new to the key when checked."""

    name: str
    keys: NameKeys | None
    key_hash: str | None
    group: str
    new: bool = False


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

    async def check(self, name: str, key_hash: str | None, group: str) -> Claim | Problem:
        """Whether the sitter may sit under ``name``: the claim to bind once seated, or why not
        (the counts as they stand: ``bind`` takes them)."""
        cleaned = clean_name(name)
        if not cleaned:
            return Claim(cleaned, None, key_hash, group)
        keys = NameKeys.of(cleaned)
        held = await self.store.name_holders(keys.low, keys.capitals, self._now() - RELEASE_AFTER)
        if held_by_another(held, keys.low, key_hash):
            return Problem(
                protocol.NAME_TAKEN,
                f"the name {cleaned!r} belongs to another player on this server: pick another",
            )
        if key_hash is None or held:
            return Claim(cleaned, keys, key_hash, group)
        day_ago = self._now() - timedelta(seconds=DAY)
        if await self.store.new_names(key_hash, day_ago) >= self.limits.names_per_key:
            return self._used_up("your player key", self.limits.names_per_key)
        taken = await self.directory.hits(_address_count(group), DAY)
        if taken.count >= self.limits.names_per_address:
            return self._used_up("your address", self.limits.names_per_address)
        return Claim(cleaned, keys, key_hash, group, new=True)

    def _used_up(self, whose: str, most: int) -> Problem:
        return Problem(
            protocol.TOO_MANY_NAMES,
            f"{whose} took {most} new names on this server today: "
            "play under one you hold, or come back tomorrow",
        )

    async def bind(self, claim: Claim) -> str | None | Problem:
        """The seat is taken: hold the name for the key.  The ``name_key`` it is held under
        (None: no key, or no name), or a refusal (another key took it meanwhile, or the
        key's or its address's new names for the day were taken meanwhile)."""
        if claim.keys is None or claim.key_hash is None:
            return None
        now = self._now()
        receipt: str | None = None
        if claim.new:  # one of the address's new names, taken now (given back if not new)
            taken = await self.directory.take_hit(
                _address_count(claim.group), DAY, self.limits.names_per_address
            )
            if taken.receipt is None:
                return self._used_up("your address", self.limits.names_per_address)
            receipt = taken.receipt
        try:
            bound = await self.store.bind_name(
                NameClaim(
                    claim.keys.low,
                    claim.keys.capitals,
                    claim.name,
                    claim.key_hash,
                    now,
                    now - RELEASE_AFTER,
                    self.limits.names_per_key,
                    now - timedelta(seconds=DAY),
                )
            )
        except BaseException:
            if receipt is not None:
                await self.directory.give_hit(_address_count(claim.group), receipt)
            raise
        if receipt is not None and (isinstance(bound, Unbound) or not bound.new):
            await self.directory.give_hit(_address_count(claim.group), receipt)
        if bound is Unbound.TAKEN:
            return Problem(
                protocol.NAME_TAKEN,
                f"the name {claim.name!r} was just taken by another player: pick another",
            )
        if bound is Unbound.USED_UP:
            return self._used_up("your player key", self.limits.names_per_key)
        return bound.name_key


def _address_count(group: str) -> str:
    return f"names:address:{group}"

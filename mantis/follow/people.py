"""Who is at a table, in one line: what both front ends say of ``people`` (the answer to
``who``)."""

from __future__ import annotations

from ..net import protocol


def people_line(people: protocol.People) -> str:
    """``people`` (the answer to ``who``) as a person reads it: who sits, who watches."""
    players = ", ".join(people.players) if people.players else "nobody"
    if not people.watching:
        return f"At the table: {players}. Nobody is watching."
    named = list(people.watchers)
    unnamed = people.watching - len(named)
    if unnamed:
        named.append(f"{unnamed} more")
    watchers = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    return f"At the table: {players}. Watching: {watchers}."

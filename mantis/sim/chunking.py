"""How many games go into each batch of a run, so that progress shows every fraction of a second.

A run hands games out in chunks: to worker processes with ``--jobs``, or one
chunk after another in one process.  Progress is reported as each chunk
finishes, so a chunk must be short in time, whatever a game costs (a few
microseconds for ``score`` bots, milliseconds for ``expert``), yet long
enough that handing it out costs little.  ``ChunkSizer`` starts with one game,
so the first report comes after a single game, and sizes every later chunk
from the rate measured so far to take about ``target`` seconds, growing at
most fourfold a step (a slow start is cheap; a chunk too big stalls the bar).

Chunk sizes depend on timing, results never do: games are independent and
come back in task order.
"""

from __future__ import annotations

#: Seconds one chunk should take: progress moves several times a second.
TARGET_SECONDS = 0.2
#: The most games in one chunk (bounds what one result carries between processes).
MAX_CHUNK = 2000
#: The most a chunk grows over the one before.
GROWTH = 4


class ChunkSizer:
    """The size of the next chunk, from how fast chunks have gone so far."""

    def __init__(self, target: float = TARGET_SECONDS, max_chunk: int = MAX_CHUNK) -> None:
        self.target = target
        self.max_chunk = max_chunk
        self._games = 0
        self._seconds = 0.0
        self._last = 0

    def record(self, games: int, seconds: float) -> None:
        """A chunk of ``games`` took ``seconds`` (measured where it ran)."""
        self._games += games
        self._seconds += seconds

    def next_size(self) -> int:
        """Games in the next chunk: 1 at first, then about ``target`` seconds' worth."""
        if self._games == 0:
            size = 1
        else:
            per_game = self._seconds / self._games
            # (the small epsilon keeps 0.2 / 0.1 from rounding down to 1)
            wanted = self.max_chunk if per_game <= 0 else int(self.target / per_game + 1e-9)
            size = max(1, min(wanted, self._last * GROWTH, self.max_chunk))
        self._last = size
        return size

"""Ratings at an online table, as its front ends word them: each seat's, and whether it counts.

The server says (``ratings``) whether the table is rated, why a rated
table's game would not count, and each seated person's rating there; a bot
shows its level's rating at the table's size.  One place words them, for
the waiting room, the board and the result alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..net import protocol
from ..rating.levels import rating_text


def seat_rating(
    ratings: protocol.Ratings | None, room: protocol.RoomState | None, seat: int
) -> str:
    """Seat ``seat``'s rating as people read it: "1,512", "1,500?" while provisional,
    "1,537 (+37)" just after a rated game moved it; a bot's level's; "" if none."""
    if room is not None and seat < len(room.seats):
        kept = room.seats[seat]
        if kept.kind == "bot" and kept.bot is not None:
            return rating_text(kept.bot, len(room.seats))
    if ratings is None or seat >= len(ratings.seats):
        return ""
    rating = ratings.seats[seat]
    if rating is None:
        return ""
    text = f"{rating.rating:,}{'?' if rating.provisional else ''}"
    before = ratings.before[seat] if seat < len(ratings.before) else None
    if before is not None:
        text += f" ({rating.rating - before:+,})"
    return text


def table_rating(ratings: protocol.Ratings | None) -> str:
    """Whether the table's games are rated, in a few words ("" before the server said)."""
    if ratings is None:
        return ""
    if not ratings.rated:
        return "unrated"
    return "rated" if ratings.counts else "rated table · this game unrated"


def rating_changes(
    ratings: protocol.Ratings | None, names: Sequence[str]
) -> list[tuple[str, int, int]]:
    """(name, before, after) for each person whose rating the last game moved, as the
    server said just after it ended (none before then, or for an unrated game)."""
    if ratings is None or not ratings.before:
        return []
    changes = []
    for seat, (before, after) in enumerate(zip(ratings.before, ratings.seats, strict=False)):
        if before is not None and after is not None and seat < len(names):
            changes.append((names[seat], before, after.rating))
    return changes

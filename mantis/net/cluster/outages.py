"""The store or Redis out of reach: what each raises, and what a client is told ``busy`` for.

A server goes on when either is away for a while: a connection that needs
one is told the server is busy (``protocol.BUSY``) and tries again, and what
runs in the background tries again at its next turn.
"""

from __future__ import annotations

from ...store.tables_interface import StoreError


def redis_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean Redis cannot be reached (not that it said no)."""
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (RedisConnectionError, RedisTimeoutError, OSError, TimeoutError)


def _cluster_errors() -> tuple[type[BaseException], ...]:
    try:
        return redis_errors()
    except ImportError:  # no cluster extra: no cluster either
        return ()


CLUSTER_ERRORS = _cluster_errors()
"""What Redis raises when it cannot be reached."""
BUSY_ERRORS: tuple[type[BaseException], ...] = (StoreError, *CLUSTER_ERRORS)
"""The store or Redis cannot be reached: a client is told the server is busy."""

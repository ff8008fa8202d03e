"""Redis commands on a connection of their own, many in flight at once.

A busy node asks Redis a few things for every connection that opens or
closes (its address's count, its guess count, its table's owner).  Through
redis-py's commands each cost such a node 250-400 us of CPU: a connection
pool, retries, and a timeout task for each write and each read.  A lane
writes each command as it comes on one connection and matches the replies,
which Redis sends in the order of the commands, to their callers in that
order: redis-py still connects, packs and parses (with hiredis).  One timer
watches the oldest command in flight, rather than a timeout for each (their
setting up and cancelling was a tenth of a ``PUBLISH``'s CPU).

Redis away: the commands in flight fail with redis-py's ``ConnectionError``
and the next command connects again.  A command is never sent twice (one
that failed may or may not have been carried out, as with any client).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections import deque
from typing import Any

from ...base.clock import SYSTEM_CLOCK, Clock, Timer


class RedisLane:
    """Commands on one connection of their own, replies matched in order."""

    def __init__(self, client: Any, timeout: float = 5.0, clock: Clock = SYSTEM_CLOCK) -> None:
        """A lane to the Redis that ``client`` (a ``redis.asyncio.Redis``) talks to;
        ``timeout``: seconds a command may wait for its reply, on ``clock``."""
        pool = client.connection_pool
        # Its own timeouts: redis-py's would start a task for each write.
        options = {**pool.connection_kwargs, "socket_timeout": None}
        self._connection = pool.connection_class(**options)
        self._waiting: deque[asyncio.Future[Any]] = deque()
        self._sent_at: deque[float] = deque()  # (beside ``_waiting``: when each was sent)
        self._watch: Timer | None = None
        self._reader: asyncio.Task[None] | None = None
        self._connecting = asyncio.Lock()
        self.timeout = timeout
        self.clock = clock

    async def execute(self, *args: Any) -> Any:
        """Send one command and wait for its reply (Redis's error replies are raised)."""
        connection = self._connection
        if self._reader is None or self._reader.done():
            async with self._connecting:
                if self._reader is None or self._reader.done():
                    await connection.disconnect(nowait=True)  # (what is left of a lost one)
                    await connection.connect()
                    self._reader = asyncio.get_running_loop().create_task(self._read())
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        # Queued and written with no await between: the replies come in this order.
        self._waiting.append(reply)
        self._sent_at.append(self.clock.now())
        if self._watch is None:
            self._watch = self.clock.call_later(self.timeout, self._check)
        try:
            await connection.send_packed_command(connection.pack_command(*args), False)
        except BaseException as exc:
            self._fail(exc)
            raise
        return await reply

    def _check(self) -> None:
        """Give the connection up if its oldest command waited ``timeout`` for a reply."""
        self._watch = None
        if not self._sent_at:
            return
        wait = self._sent_at[0] + self.timeout - self.clock.now()
        if wait > 0:
            self._watch = self.clock.call_later(wait, self._check)
            return
        # Redis does not answer: every command in flight fails, the next connects again.
        self._fail(TimeoutError(f"no reply from Redis in {self.timeout:g} s"))

    async def script(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        """Run a ``register_script`` script by its digest (loaded again if Redis forgot it)."""
        from redis.exceptions import NoScriptError

        try:
            return await self.execute("EVALSHA", script.sha, len(keys), *keys, *args)
        except NoScriptError:  # Redis restarted: it knows no scripts
            return await self.execute("EVAL", script.script, len(keys), *keys, *args)

    async def _read(self) -> None:
        from redis.exceptions import ResponseError

        connection = self._connection
        while True:
            try:
                # (Never disconnected here, where it could meet the next connection made:
                # the lane's next command does it.)
                value = await connection.read_response(timeout=math.inf, disconnect_on_error=False)
            except ResponseError as exc:  # an error reply: this command's, and on we go
                self._answer(exc, failed=True)
                continue
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the connection is gone: so are its replies
                self._fail(exc)
                return
            self._answer(value, failed=False)

    def _answer(self, value: Any, *, failed: bool) -> None:
        if not self._waiting:
            return
        reply = self._waiting.popleft()
        self._sent_at.popleft()
        if reply.done():  # (its caller stopped waiting: the reply was still read)
            return
        if failed:
            reply.set_exception(value)
        else:
            reply.set_result(value)

    def _fail(self, cause: BaseException) -> None:
        """Give the connection up (the next command makes it again): every command in
        flight fails with ``ConnectionError``."""
        from redis.exceptions import ConnectionError as RedisConnectionError

        waiting, self._waiting = self._waiting, deque()
        self._sent_at.clear()
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        for reply in waiting:
            if not reply.done():
                error = RedisConnectionError(f"the connection to Redis was lost: {cause}")
                reply.set_exception(error)
                reply.exception()  # (read: its caller may have stopped waiting)
        reader, self._reader = self._reader, None
        if reader is not None and not reader.done():
            # (Its loop may be closed already: then nothing is read any more.)
            with contextlib.suppress(RuntimeError):
                reader.cancel()

    async def close(self) -> None:
        """Close the connection (commands in flight fail)."""
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None
        await self._connection.disconnect()

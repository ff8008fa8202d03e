"""This app's player keys: one secret per server, that holds its person's name there.

The first time the app sits down at a server it makes a key (32 random bytes
from ``secrets``, URL-safe base64) and proves it holds it whenever it sits
down there (``mantis.net.protocol.key_proof``: the key itself never leaves this
computer); the server keeps only the key's digest, bound to the name, so
nobody else can sit under that name there.  The keys live in
``player-keys.json`` in the data directory, readable by their owner only,
written atomically — and never moved aside or replaced when the file cannot
be read: losing a key loses the name on that server, so a bad file stops
online play with one line saying so, and is left for its owner to mend.

The file also keeps which servers know their key (``known``): the app has
sat down there with it, so the server holds its verifier.  Such a server
never needs the verifier again, and a challenge from it that asks for it is
a man in the middle's (``mantis.net.protocol.key_proof``): nothing is sent.

``export`` and ``import`` carry keys, and what is known of them, to another
computer.  A key is replaced
(``mantis key rotate``) in two steps that lose nothing: the new key is kept
in the file first, as pending (``rotating``), then the server is told, and
only once it has taken the new key is it the server's key here
(``rotated``); a rotation cut short is finished by the next.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from ..base.atomic import write_text_atomic
from ..base.file_lock import held
from ..base.paths import data_dir

KEYS_NAME = "player-keys.json"
FORMAT = "mantis-player-keys"
"""What an exported (and the kept) file says it is."""
KEY_BYTES = 32
_KEY = re.compile(r"[A-Za-z0-9_-]{43}")
#: Servers a file may name at most (far beyond anyone's; bounds a file made by hand).
MAX_SERVERS = 10_000
#: Bytes of a key file read at most.
MAX_FILE = 4 << 20
_HOST_MARKS = frozenset("-._:%")
"""What a host may hold besides letters and digits: a name's dots, hyphens and underscores,
an IPv6 address's colons and its zone's percent sign."""


class KeyFileError(Exception):
    """A key file that cannot be used; the message is one line."""


def default_keys_path() -> Path:
    return data_dir() / KEYS_NAME


def server_address(url: str) -> str:
    """A server's address as keys are filed under it: ``ws://host:port`` in lower case, with
    the port written out (so ``ws://Example.org/`` and ``ws://example.org:80`` are one)."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("ws", "wss") or not parts.hostname:
        raise ValueError(f"{url!r} is not a server address: write it as ws://HOST:PORT")
    try:
        port = parts.port or (443 if scheme == "wss" else 80)
    except ValueError:
        raise ValueError(f"{url!r} has no valid port") from None
    host = parts.hostname.lower()
    if not all(c.isalnum() or c in _HOST_MARKS for c in host):
        # (A control character, a space, a bidirectional override: no server is called
        # that, and a terminal listing the keys would obey it.)
        raise ValueError(f"{url!r} is not a server address: its host is not a host name")
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"


def new_key() -> str:
    """A fresh player key: 256 random bits."""
    return secrets.token_urlsafe(KEY_BYTES)


def is_key(text: object) -> bool:
    return isinstance(text, str) and _KEY.fullmatch(text) is not None


class KeyFile(NamedTuple):
    """What a key file holds: the keys, by server address; the new keys of rotations under
    way; and the servers that know their key (they hold its verifier)."""

    keys: dict[str, str]
    pending: dict[str, str]
    known: set[str]


class PlayerKeys:
    """This app's player keys by server address, kept in one owner-only JSON file."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_keys_path()

    def key_for(self, url: str) -> str:
        """The key for the server at ``url``, made (and kept) the first time; ``KeyFileError``
        if the keys file cannot be read (it is left as it is)."""
        server = server_address(url)
        key = self.keys().get(server)
        if key is not None:
            return key
        with self._changing():
            kept = self._both()
            if server not in kept.keys:
                kept.keys[server] = new_key()
                kept.known.discard(server)
                self._write(kept)
            return kept.keys[server]

    def keys(self) -> dict[str, str]:
        """Every key kept, by server address (none if there is no file yet)."""
        return self._both().keys

    def knows(self, url: str, key: str) -> bool:
        """Whether the server at ``url`` holds the verifier of ``key``, this app's key there
        (it sat down there with it, or was told it by a rotation)."""
        server = server_address(url)
        kept = self._both()
        return server in kept.known and kept.keys.get(server) == key

    def introduced(self, url: str, key: str) -> None:
        """The server at ``url`` took ``key`` (its verifier, or a proof of it): it knows it."""
        server = server_address(url)
        if self.knows(url, key):
            return
        with self._changing():
            kept = self._both()
            if kept.keys.get(server) == key and server not in kept.known:
                kept.known.add(server)
                self._write(kept)

    def reintroduce(self, url: str) -> bool:
        """Forget that the server at ``url`` knows this app's key (it lost its players): the
        next sitting there sends the key's verifier again.  Whether it was known;
        ``KeyFileError`` if there is no key for it."""
        server = server_address(url)
        with self._changing():
            kept = self._both()
            if server not in kept.keys:
                raise KeyFileError(f"there is no player key for {server} here")
            if server not in kept.known:
                return False
            kept.known.discard(server)
            self._write(kept)
            return True

    def _both(self) -> KeyFile:
        """The keys kept, the new keys of rotations under way (by server address), and the
        servers that know their key."""
        try:
            return _read(self.path)
        except FileNotFoundError:
            return KeyFile({}, {}, set())

    def rotating(self, url: str) -> tuple[str, str, bool]:
        """The key for ``url``'s server and the one to replace it with, kept first as
        pending (a rotation cut short keeps its pending key); and whether that pending key
        was there already.  ``KeyFileError`` if there is no key for it."""
        server = server_address(url)
        with self._changing():
            kept = self._both()
            if server not in kept.keys:
                raise KeyFileError(f"there is no player key for {server} here")
            earlier = server in kept.pending
            if not earlier:
                kept.pending[server] = new_key()
                self._write(kept)
            return kept.keys[server], kept.pending[server], earlier

    def rotated(self, url: str, *, known: bool = True) -> None:
        """The server took the pending key: it is the server's key here now (``known``: the
        server holds its verifier; not when the old key held nothing there)."""
        server = server_address(url)
        with self._changing():
            kept = self._both()
            if server in kept.pending:
                kept.keys[server] = kept.pending.pop(server)
                if known:
                    kept.known.add(server)
                else:
                    kept.known.discard(server)
                self._write(kept)

    def not_rotated(self, url: str) -> None:
        """The rotation did not happen: the pending key is dropped."""
        server = server_address(url)
        with self._changing():
            kept = self._both()
            if kept.pending.pop(server, None) is not None:
                self._write(kept)

    def export(self, target: str | os.PathLike[str], server: str | None = None) -> int:
        """Write the keys (``server``'s only, if given) to ``target``, owner-only, with the
        servers that know them; how many."""
        kept = self._both()
        keys = kept.keys
        if server is not None:
            address = server_address(server)
            if address not in keys:
                raise KeyFileError(f"there is no player key for {address} here")
            keys = {address: keys[address]}
        if not keys:
            raise KeyFileError("there is no player key here yet: play on a server first")
        try:
            write_text_atomic(target, _text(KeyFile(keys, {}, kept.known)), private=True)
        except OSError as exc:
            raise KeyFileError(f"cannot write {target}: {exc.strerror or exc}") from None
        return len(keys)

    def import_from(self, source: str | os.PathLike[str], *, replace: bool = False) -> int:
        """Take the keys in ``source`` in; how many were new.  A server this app holds
        another key for is refused (``KeyFileError``, nothing changed) unless ``replace``."""
        try:
            incoming = _read(Path(source))
        except FileNotFoundError:
            raise KeyFileError(f"there is no file {source}") from None
        with self._changing():
            kept = self._both()
            keys = kept.keys
            clashes = [s for s, k in incoming.keys.items() if keys.get(s, k) != k]
            if clashes and not replace:
                raise KeyFileError(
                    f"this app holds another key for {clashes[0]}: export it first, or "
                    "import with --replace (its name there is then lost here)"
                )
            new = sum(1 for s, k in incoming.keys.items() if keys.get(s) != k)
            # What is known of a key goes with it: a key replaced is known as the file says,
            # a key both hold is known if either knows it.
            known = {s for s in kept.known if keys.get(s) == incoming.keys.get(s, keys[s])}
            keys.update(incoming.keys)
            pending = {s: k for s, k in kept.pending.items() if s not in incoming.keys}
            self._write(KeyFile(keys, pending, known | incoming.known))
        return new

    def _write(self, kept: KeyFile) -> None:
        try:
            write_text_atomic(self.path, _text(kept), private=True)
        except OSError as exc:
            raise KeyFileError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def _changing(self) -> contextlib.AbstractContextManager[None]:
        # Other apps may add a key meanwhile: each read-change-write is whole.
        return held(self.path.with_name(self.path.name + ".lock"))


def _text(kept: KeyFile) -> str:
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": 1,
        "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "keys": dict(sorted(kept.keys.items())),
    }
    if kept.pending:
        data["pending"] = dict(sorted(kept.pending.items()))
    known = sorted(kept.known & set(kept.keys))
    if known:
        data["known"] = known
    return json.dumps(data, indent=1) + "\n"


def read_keys(path: Path) -> dict[str, str]:
    """The keys in a key file; ``FileNotFoundError`` if there is none, ``KeyFileError`` (one
    line) if it is not a key file."""
    return _read(path).keys


def _read(path: Path) -> KeyFile:
    """A key file's keys, its pending keys (rotations under way) and the servers that know
    their key (a file without ``known``, as an older Mantis wrote it: none)."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE + 1)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise KeyFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE:
        raise KeyFileError(f"{path} is too big to be a player key file")
    try:
        data: Any = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise KeyFileError(f"{path} is not a player key file (not JSON): left as it is") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise KeyFileError(f"{path} is not a player key file: left as it is")
    keys = data.get("keys")
    pending = data.get("pending", {})
    if not isinstance(keys, dict) or len(keys) > MAX_SERVERS:
        raise KeyFileError(f"{path} holds no keys it can be read for: left as it is")
    if not isinstance(pending, dict) or len(pending) > MAX_SERVERS:
        raise KeyFileError(f"{path} holds no keys it can be read for: left as it is")
    known = data.get("known", [])
    if not isinstance(known, list) or len(known) > MAX_SERVERS:
        raise KeyFileError(f"{path} holds no keys it can be read for: left as it is")
    keys = _checked(path, keys)
    return KeyFile(keys, _checked(path, pending), _addresses(path, known) & set(keys))


def _checked(path: Path, keys: dict[Any, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for server, key in keys.items():
        address = _address(path, server)
        if not is_key(key):
            raise KeyFileError(f"{path} has a damaged key for {address}: left as it is")
        out[address] = key
    return out


def _addresses(path: Path, servers: list[Any]) -> set[str]:
    return {_address(path, server) for server in servers}


def _address(path: Path, server: Any) -> str:
    try:
        return server_address(str(server))
    except ValueError:
        raise KeyFileError(f"{path} names {server!r}, not a server: left as it is") from None

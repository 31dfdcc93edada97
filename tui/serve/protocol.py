"""Messages between the hub and the session processes: msgpack maps over a socket pair.

Each SSH session's UI runs in its own process; the server hands it one end of a
`socket.socketpair` (never a socket file another local user could open, and the hub
knows the session's player name from the SSH login, not from anything the process
says). Every message is one msgpack map with a type ``t``. A Choice travels as the save
log writes it, ``[decision_id, key]``, and a game travels whole as its save file
(`engine.save.to_bytes`), so saves, replays and the network share one format
(PRIOR-ART §7.4).

Session to hub:
  ``lobby``            ask for the lobby again
  ``create``           ``scenario`` (a file name from the lobby's list); the hub draws the seed
  ``sit``              ``game``, ``seat`` (0, 1 or nil: resume my seat, else a free one)
  ``watch``            ``game``: join as a spectator (read-only)
  ``replay``           ``game``: ask for a finished game's save
  ``choose``           ``choice`` = [decision_id, key]
  ``ack``              ``n``, ``hash``: my copy has applied n choices and has this state hash
  ``resync``           send my game again (my copy could not apply a choice)
  ``leave``            back to the lobby

Hub to session:
  ``lobby``            ``you``, ``games`` (see `Hub.lobby`),
                       ``scenarios`` [[id, label, [side, side]]]
  ``joined``           ``game``, ``seat`` (nil for a spectator), ``save`` (save-file bytes)
  ``choice``           ``game``, ``choice`` [id, key], ``n``, ``checkup`` [rolls, events, hash]
  ``players``          ``game``, ``players`` [name, name], ``online`` [bool, bool], ``watchers``
  ``refused``          ``why`` (a `ChoiceRejection` value or "request"), ``message``
  ``left``             ``message``: you are back in the lobby (seat taken over, game gone)
  ``replay``           ``game``, ``save`` (save-file bytes of a finished game)
  ``notice``           ``message``
  ``repaint``          write `REPAINT_MARK`, then draw the whole screen (a shared render's
                       process: a viewer joins it from the mark on, `tui.serve.sharing`)
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack

from engine.decisions import Choice
from engine.save import MAX_SAVE_BYTES

PROTOCOL_VERSION = 1

MAX_SESSION_MESSAGE = 64 * 1024
"""A session only sends short requests: a larger one is an error, and the hub drops it."""
MAX_HUB_MESSAGE = MAX_SAVE_BYTES + 1024 * 1024
"""The hub sends whole saves (on join and replay), which `engine.save` caps."""
MAX_BACKLOG = 1024 * 1024
"""Bytes sent and not yet read by the peer past which the link is dropped: a session
that stopped reading would otherwise make the hub queue every game's choices for ever.
One message may be larger (a whole save on join); only an unread backlog is refused."""

Message = dict[str, Any]

REPAINT_MARK = b"\x1b]7737;wargrid-repaint\x07"
"""Written by a session process between two frames when the hub asks it to repaint; the
server cuts it out of the output (an OSC no terminal acts on, were one to see it)."""


def held_back(data: bytes) -> int:
    """How many bytes at the end of ``data`` may be the start of a `REPAINT_MARK` (kept
    until the next read shows whether they are)."""
    for size in range(min(len(REPAINT_MARK) - 1, len(data)), 0, -1):
        if data.endswith(REPAINT_MARK[:size]):
            return size
    return 0


class ProtocolError(Exception):
    """A message that is not what the protocol allows (the peer is dropped or told)."""


def pack(message: Message) -> bytes:
    """One message as bytes (string keys, no extension types: PRIOR-ART §7.1)."""
    packed: bytes = msgpack.packb(message, use_bin_type=True)
    return packed


class Link:
    """One end of a hub connection: send maps, receive maps."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, max_message: int
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.dropped = False
        """True once the peer stopped reading and was dropped (`MAX_BACKLOG`)."""
        self._unpacker = msgpack.Unpacker(
            raw=False, strict_map_key=True, max_buffer_size=max_message
        )

    def send(self, message: Message) -> None:
        """Queue ``message`` (never blocks; a closed peer is ignored, the reader notices).

        A peer that leaves more than `MAX_BACKLOG` bytes unread is dropped: the link
        closes, its `receive` returns None, and a session comes back in sync by
        reconnecting (the hub sends it the whole game again).
        """
        if self.writer.is_closing():
            return
        if self.writer.transport.get_write_buffer_size() > MAX_BACKLOG:
            self.dropped = True
            self.writer.close()
            return
        self.writer.write(pack(message))

    async def receive(self) -> Message | None:
        """The next message, or None when the peer has closed the connection.

        Raises:
            ProtocolError: the bytes are not msgpack, too large, or not a map with a type.
        """
        while True:
            try:
                item = next(self._unpacker)
            except StopIteration:
                data = await self.reader.read(65536)
                if not data:
                    return None
                try:
                    self._unpacker.feed(data)
                except msgpack.BufferFull as exc:
                    raise ProtocolError("message too large") from exc
                continue
            except (ValueError, TypeError, msgpack.UnpackException) as exc:
                raise ProtocolError(f"not a message: {exc}") from exc
            if not isinstance(item, dict) or not isinstance(item.get("t"), str):
                raise ProtocolError("a message must be a map with a type 't'")
            return item

    def close(self) -> None:
        """Close the connection (the peer's `receive` returns None)."""
        self.writer.close()


def text_field(message: Message, key: str, limit: int = 200) -> str:
    """A required string field.

    Raises:
        ProtocolError: missing, not a string, or longer than ``limit``.
    """
    value = message.get(key)
    if not isinstance(value, str) or len(value) > limit:
        raise ProtocolError(f"'{key}' must be a string of at most {limit} characters")
    return value


def int_field(message: Message, key: str, *, optional: bool = False) -> int | None:
    """An integer field (nil allowed when ``optional``).

    Raises:
        ProtocolError: missing or not an integer.
    """
    value = message.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError(f"'{key}' must be an integer")
    return value


def choice_field(message: Message) -> Choice:
    """The ``choice`` field, ``[decision_id, key]`` as the save log writes it.

    Raises:
        ProtocolError: not a pair of an integer and a short string.
    """
    value = message.get("choice")
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not isinstance(value[0], int)
        or isinstance(value[0], bool)
        or not isinstance(value[1], str)
        or len(value[1]) > 200
    ):
        raise ProtocolError("'choice' must be [decision_id, key]")
    return Choice(value[0], value[1])


def choice_record(choice: Choice) -> list[Any]:
    """A Choice as the save log and the protocol write it."""
    return [choice.decision_id, choice.key]

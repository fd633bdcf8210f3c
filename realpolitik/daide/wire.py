"""The DAIDE client-server protocol's framing over TCP: the initial, representation, diplomacy,
final and error messages (protocol document, chapter 3), read and written with asyncio."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import Iterable
from enum import IntEnum

from realpolitik.daide.tokens import (
    NAME_PATTERN,
    DaideSyntaxError,
    Message,
    TokenTable,
    decode,
    encode,
)

VERSION = 1
MAGIC = 0xDA10


class Frame(IntEnum):
    """The message types of the protocol."""

    INITIAL = 0
    REPRESENTATION = 1
    DIPLOMACY = 2
    FINAL = 3
    ERROR = 4


class ErrorCode(IntEnum):
    """The codes of an error message (protocol document, 3.6)."""

    IM_TIMER = 0x01
    IM_NOT_FIRST = 0x02
    WRONG_ENDIAN = 0x03
    BAD_MAGIC = 0x04
    VERSION = 0x05
    MORE_THAN_ONE_IM = 0x06
    IM_FROM_SERVER = 0x07
    UNKNOWN_MESSAGE = 0x08
    TOO_SHORT = 0x09
    DM_BEFORE_RM = 0x0A
    RM_NOT_FIRST = 0x0B
    UNEXPECTED_RM = 0x0C
    RM_FROM_CLIENT = 0x0D
    INVALID_TOKEN = 0x0E


class ProtocolError(Exception):
    """The other side broke the protocol (not the message syntax): the connection ends with an
    error message carrying ``code``."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


class ConnectionClosed(Exception):
    """The other side sent a final or error message, or the connection dropped."""


def frame(kind: Frame, payload: bytes = b"") -> bytes:
    """A whole message of the protocol: type, pad, length and payload."""
    return struct.pack("!BBH", kind, 0, len(payload)) + payload


def initial_message() -> bytes:
    """The client's first message: version 1 and the magic number."""
    return frame(Frame.INITIAL, struct.pack("!HH", VERSION, MAGIC))


def representation_payload(entries: Iterable[tuple[int, str]]) -> bytes:
    """A representation message's payload: six bytes per power or province token."""
    out = bytearray()
    for number, name in entries:
        out += struct.pack("!H", number) + name.encode("ascii") + b"\0"
    return bytes(out)


def parse_representation(payload: bytes) -> list[tuple[int, str]]:
    """The ``(number, name)`` entries of a representation message.

    :raises ProtocolError: a payload that is not a whole number of six-byte entries.
    """
    if len(payload) % 6:
        raise ProtocolError(ErrorCode.TOO_SHORT,
                            f"a representation message of {len(payload)} bytes: six per token")
    entries = []
    for start in range(0, len(payload), 6):
        number = struct.unpack("!H", payload[start:start + 2])[0]
        name = payload[start + 2:start + 5].decode("ascii", "replace").upper()
        if not NAME_PATTERN.fullmatch(name):
            raise ProtocolError(ErrorCode.INVALID_TOKEN, f"{name!r} is no token name")
        entries.append((number, name))
    return entries


class Connection:
    """One end of a DAIDE connection: reads and writes whole protocol messages."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.table = TokenTable.standard()
        """The tokens of this connection's map (set from the representation message)."""
        self.closed = False
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)

    async def read_frame(self) -> tuple[Frame, bytes]:
        """The next protocol message: its type and payload.

        :raises ConnectionClosed: the connection dropped.
        :raises ProtocolError: a message type the protocol does not have.
        """
        try:
            header = await self.reader.readexactly(4)
            kind, _pad, length = struct.unpack("!BBH", header)
            payload = await self.reader.readexactly(length)
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            self.closed = True
            raise ConnectionClosed("the connection dropped") from exc
        try:
            return Frame(kind), payload
        except ValueError:
            raise ProtocolError(ErrorCode.UNKNOWN_MESSAGE, f"message type {kind}") from None

    def write_frame(self, kind: Frame, payload: bytes = b"") -> None:
        """Send one protocol message (nothing once the connection is closed)."""
        if self.closed:
            return
        try:
            self.writer.write(frame(kind, payload))
        except (ConnectionError, RuntimeError):
            self.closed = True

    def send(self, message: Message) -> None:
        """Send a diplomacy message."""
        self.write_frame(Frame.DIPLOMACY, encode(message, self.table))

    def decode(self, payload: bytes) -> Message:
        """A diplomacy message's payload as a message (see :func:`tokens.decode`).

        :raises DaideSyntaxError: it cannot be read.
        """
        return decode(payload, self.table)

    async def close(self, error: ErrorCode | None = None) -> None:
        """Send a final (or error) message and close the connection."""
        if not self.closed:
            if error is None:
                self.write_frame(Frame.FINAL)
            else:
                self.write_frame(Frame.ERROR, struct.pack("!H", error))
            self.closed = True
            with contextlib.suppress(ConnectionError):
                await self.writer.drain()
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()

    async def drain(self) -> None:
        """Wait until what was written has gone out."""
        if not self.closed:
            try:
                await self.writer.drain()
            except ConnectionError:
                self.closed = True


__all__ = ["MAGIC", "VERSION", "Connection", "ConnectionClosed", "DaideSyntaxError",
           "ErrorCode", "Frame", "ProtocolError", "frame", "initial_message",
           "parse_representation", "representation_payload"]

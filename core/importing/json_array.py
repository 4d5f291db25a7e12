"""ArraySplitter: the elements of a top-level JSON array of objects, fed in chunks. Pure: no I/O.

A ChatGPT export is one array of conversations that can be hundreds of megabytes; reading it whole
would hold the text and every decoded object at once. The splitter keeps only the element being
read: it finds element boundaries with a string-aware bracket scan (strings are matched whole by a
regular expression, so brackets inside them are skipped at C speed) and hands each complete
element's bytes back, to be decoded by ``core.jsonread.parse_json`` under the caller's limits
(which also refuses an element whose inside is not JSON).

Refusals (``ValueError`` with a short reason): the text does not start with ``[``; an element is
not an object; anything but whitespace and one comma between elements; an element (or text
between elements) longer than ``max_element`` bytes; text after the closing ``]``; the text ends
before it. A UTF-8 byte order mark at the start is skipped.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|["\[\]{}]', re.DOTALL)
_SPACE = re.compile(rb"[ \t\r\n]*")
_COMMA = re.compile(rb"[ \t\r\n]*,[ \t\r\n]*")
_BOM = b"\xef\xbb\xbf"
NOT_A_LIST = "not a list of conversations (it does not start with “[”)"
NOT_AN_OBJECT = "a value in the list that is not a conversation (an object)"


class ArraySplitter:
    """Feed bytes with ``feed``: it returns the elements completed by them. ``end`` checks that
    the array was closed and returns how many elements it held."""

    def __init__(self, max_element: int) -> None:
        self._max = max_element
        self._buffer = b""
        self._pos = 0  # where the scan goes on in the buffer
        self._depth = 0  # 0: outside the array, 1: between elements, 2+: inside one
        self._start = -1  # where the element being read starts (-1: none is)
        self._count = 0
        self._after_element = False
        self._closed = False

    def feed(self, chunk: bytes) -> list[bytes]:
        self._buffer += chunk
        found: list[bytes] = []
        while (token := _TOKEN.search(self._buffer, self._pos)) is not None:
            text = token.group()
            if self._closed:
                raise ValueError("text after the end of the list")
            if text[0] == 0x22:  # a string, or one that goes on in the next chunk
                if self._depth < 2:
                    raise ValueError(NOT_AN_OBJECT if self._depth else NOT_A_LIST)
                if len(text) == 1:
                    break
            elif self._depth < 2:
                self._outside(text[0], token.start())
            else:
                self._inside(text[0], token.end(), found)
            self._pos = token.end()
        self._forget()
        return found

    @property
    def count(self) -> int:
        """The elements completed so far."""
        return self._count

    def end(self) -> int:
        """The number of elements; ValueError when the array did not end, or nothing was fed."""
        if self._closed:
            if self._buffer[self._pos :].strip():
                raise ValueError("text after the end of the list")
            return self._count
        if self._depth == 0 and not self._buffer.removeprefix(_BOM).strip():
            raise ValueError("the file is empty")
        raise ValueError("the text ends before the list of conversations does")

    def _outside(self, char: int, at: int) -> None:
        """A bracket between elements (or before the array): check the text before it."""
        gap = self._buffer[self._pos : at]
        if self._depth == 0:
            if char != ord("[") or not _SPACE.fullmatch(gap.removeprefix(_BOM)):
                raise ValueError(NOT_A_LIST)
            self._depth = 1
            return
        if char == ord("{"):
            ok = _COMMA.fullmatch(gap) if self._after_element else _SPACE.fullmatch(gap)
            if not ok:
                raise ValueError("text between conversations that is not JSON")
            self._start, self._depth = at, 2
            return
        if char != ord("]"):
            raise ValueError(NOT_AN_OBJECT)
        if not _SPACE.fullmatch(gap):
            raise ValueError("text between conversations that is not JSON")
        self._depth, self._closed = 0, True

    def _inside(self, char: int, end: int, found: list[bytes]) -> None:
        self._depth += 1 if char in b"[{" else -1
        if self._depth == 1:
            if end - self._start > self._max:
                raise ValueError(f"a conversation larger than {self._max:,} bytes")
            found.append(self._buffer[self._start : end])
            self._start, self._count, self._after_element = -1, self._count + 1, True

    def _forget(self) -> None:
        """Drop what was read; the element being read (or the unchecked gap) stays."""
        keep = self._start if self._start >= 0 else self._pos
        self._buffer, self._pos = self._buffer[keep:], self._pos - keep
        if self._start >= 0:
            self._start = 0
        if len(self._buffer) > self._max:
            raise ValueError(f"a conversation larger than {self._max:,} bytes")

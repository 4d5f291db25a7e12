# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The checks of ``core.session.block_scan`` over a block of log lines, compiled: one pass per line.

``check_block`` does in C what the block scan's pure-Python path (``read_envelopes`` and the
envelope checks in ``core.session.block_scan``) does with one C-level pass per check: each line
is checked to be one JSON object within the log line's bounds, with ``seq`` its index, ``at`` of
the canonical instant's shape, a non-empty string ``type``, a ``data`` and no ``group``. It is a
fast path only: it accepts a block when every line is surely read that way by the bounded decode
(``core.jsonread``), and answers None for anything it is not sure of, and the caller then reads
the block the pure-Python way, which gives the usual verdict. None, never a different reading:

- bytes that are not UTF-8, a string with a raw control character, an escape of a surrogate
  (orjson refuses a lone one), a key holding an escape;
- a number with an exponent or of more than ``_MOST_DIGITS`` digits (out of a double's range
  needs 309), ``NaN``, ``Infinity``, anything else RFC 8259 does not allow;
- nesting deeper than ``LOG_LINE.max_depth`` (``core.jsonread``: the log line's bound);
- ``seq`` written otherwise than as its index's digits, an ``at`` with an escape, ``type`` or
  ``at`` not strings, a ``group``, a key of the envelope twice.

Built by ``pip install`` (the project's ``ext-modules``, optional): without a C compiler Chime
runs the pure-Python path alone. ``tests/core/session/test_linecheck.py`` holds the two to the
same verdicts and parts.
"""

from collections.abc import Sequence

from cpython.array cimport array, clone
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport memchr, memcmp, memcpy

from core.jsonread import LOG_LINE

cdef int _MAX_DEPTH = LOG_LINE.max_depth
cdef int _MOST_DIGITS = 300
cdef Py_ssize_t _UNSURE = -1
"""What a skip returns for a text it is not sure the bounded decode reads as JSON."""
cdef array _WHOLES = array("Q")  # the template of the offsets and spans arrays
cdef bytes _SHAPE = b"0000-00-00T00:00:00.000Z"
cdef int _KINDS_KEPT = 32


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* The index of the first quote, backslash or control byte of s[i:n], or n: eight bytes a
       step. Each mask sets the high bit of a byte it looks for, and may set it wrongly only in
       a later byte (a borrow moves up), so on a little-endian machine its lowest set bit is
       exact; elsewhere the bytes of a word holding one are looked at one by one. */
    static inline Py_ssize_t chime_special(const unsigned char *s, Py_ssize_t i, Py_ssize_t n) {
        const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
        while (i + 8 <= n) {
            uint64_t word, quotes, escapes, found;
            memcpy(&word, s + i, 8);
            quotes = word ^ (ones * '"');
            escapes = word ^ (ones * '\\\\');
            found = (((quotes - ones) & ~quotes) | ((escapes - ones) & ~escapes)
                     | ((word - ones * 0x20) & ~word)) & highs;
            if (found) {
    #if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                return i + (__builtin_ctzll(found) >> 3);
    #else
                break;
    #endif
            }
            i += 8;
        }
        while (i < n && s[i] != '"' && s[i] != '\\\\' && s[i] >= 0x20) i++;
        return i;
    }
    /* True when a byte of s[i:n] is past ASCII. */
    static inline int chime_high(const unsigned char *s, Py_ssize_t i, Py_ssize_t n) {
        uint64_t word, seen = 0;
        for (; i + 8 <= n; i += 8) {
            memcpy(&word, s + i, 8);
            seen |= word;
        }
        for (; i < n; i++) seen |= s[i];
        return (seen & 0x8080808080808080ULL) != 0;
    }
    """
    Py_ssize_t chime_special(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept
    bint chime_high(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept


cdef inline bint _digit(unsigned char c) noexcept:
    return 48 <= c <= 57


cdef inline Py_ssize_t _space(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept:
    while i < n and (s[i] == 32 or s[i] == 9 or s[i] == 13):  # space, tab, CR (no LF in a line)
        i += 1
    return i


cdef inline int _hex(unsigned char c) noexcept:
    if 48 <= c <= 57:
        return c - 48
    if 97 <= c <= 102:
        return c - 87
    if 65 <= c <= 70:
        return c - 55
    return -1


cdef Py_ssize_t _string(const unsigned char* s, Py_ssize_t i, Py_ssize_t n, bint* escaped) noexcept:
    """Past the string opening at ``s[i]`` (a quote); ``escaped`` says whether it held one."""
    cdef unsigned char c
    cdef int k, digit, code
    i += 1
    while True:
        i = chime_special(s, i, n)
        if i >= n:
            return _UNSURE
        c = s[i]
        if c == 34:  # "
            return i + 1
        if c == 92:  # backslash
            escaped[0] = True
            if i + 1 >= n:
                return _UNSURE
            c = s[i + 1]
            if c == 117:  # u: four hex digits, not a surrogate
                if i + 6 > n:
                    return _UNSURE
                code = 0
                for k in range(2, 6):
                    digit = _hex(s[i + k])
                    if digit < 0:
                        return _UNSURE
                    code = code * 16 + digit
                if 0xD800 <= code <= 0xDFFF:
                    return _UNSURE
                i += 6
                continue
            if c == 34 or c == 92 or c == 47 or c == 98 or c == 102 or c == 110 or c == 114 or c == 116:
                i += 2
                continue
        return _UNSURE  # a control byte, or an escape JSON does not have


cdef Py_ssize_t _number(const unsigned char* s, Py_ssize_t i, Py_ssize_t n) noexcept:
    """Past the number at ``s[i]``: ``-?(0|[1-9][0-9]*)(\\.[0-9]+)?``, at most ``_MOST_DIGITS``
    digits in all; an exponent is left to the pure path."""
    cdef Py_ssize_t first
    if s[i] == 45:  # -
        i += 1
    first = i
    if i >= n or not _digit(s[i]):
        return _UNSURE
    if s[i] == 48:
        i += 1
    else:
        while i < n and _digit(s[i]):
            i += 1
    if i < n and s[i] == 46:  # .
        i += 1
        if i >= n or not _digit(s[i]):
            return _UNSURE
        while i < n and _digit(s[i]):
            i += 1
    if i - first > _MOST_DIGITS:
        return _UNSURE
    return i  # an exponent is not read: nothing may follow a value but a comma or a bracket


cdef Py_ssize_t _value(const unsigned char* s, Py_ssize_t i, Py_ssize_t n, int depth) noexcept:
    """Past the JSON value at ``s[i]`` (no space before it), ``depth`` levels inside the line."""
    cdef unsigned char c
    cdef bint escaped = False
    if i >= n:
        return _UNSURE
    c = s[i]
    if c == 34:
        return _string(s, i, n, &escaped)
    if c == 123 or c == 91:  # { [
        if depth >= _MAX_DEPTH:
            return _UNSURE
        return _container(s, i, n, depth + 1)
    if c == 45 or _digit(c):
        return _number(s, i, n)
    if c == 116 and i + 4 <= n and memcmp(s + i, b"true", 4) == 0:
        return i + 4
    if c == 102 and i + 5 <= n and memcmp(s + i, b"false", 5) == 0:
        return i + 5
    if c == 110 and i + 4 <= n and memcmp(s + i, b"null", 4) == 0:
        return i + 4
    return _UNSURE


cdef Py_ssize_t _container(const unsigned char* s, Py_ssize_t i, Py_ssize_t n, int depth) noexcept:
    """Past the object or array opening at ``s[i]``."""
    cdef unsigned char close = 125 if s[i] == 123 else 93
    cdef bint keyed = s[i] == 123
    cdef bint escaped = False
    i = _space(s, i + 1, n)
    if i < n and s[i] == close:
        return i + 1
    while True:
        if keyed:
            if i >= n or s[i] != 34:
                return _UNSURE
            i = _string(s, i, n, &escaped)
            if i < 0:
                return _UNSURE
            i = _space(s, i, n)
            if i >= n or s[i] != 58:  # :
                return _UNSURE
            i = _space(s, i + 1, n)
        i = _value(s, i, n, depth)
        if i < 0:
            return _UNSURE
        i = _space(s, i, n)
        if i >= n:
            return _UNSURE
        if s[i] == close:
            return i + 1
        if s[i] != 44:  # ,
            return _UNSURE
        i = _space(s, i + 1, n)


cdef inline bint _shaped(const unsigned char* s) noexcept:
    """The 24 bytes at ``s`` have the canonical instant's layout (digits where digits go)."""
    cdef const unsigned char* shape = _SHAPE
    cdef int k
    for k in range(24):
        if shape[k] == 48:
            if not _digit(s[k]):
                return False
        elif s[k] != shape[k]:
            return False
    return True


cdef inline bint _key(const unsigned char* s, Py_ssize_t start, Py_ssize_t end, const char* name, Py_ssize_t size) noexcept:
    return end - start == size and memcmp(s + start, name, size) == 0


def check_block(buffer, Py_ssize_t start, Py_ssize_t end, Py_ssize_t first_seq):
    """The parts of the lines of ``buffer[start:end]`` (whole lines, each ending in a newline),
    whose first is the event ``first_seq``: ``(offsets, kinds, ats, datas)``, each line's start
    in ``buffer`` (an ``array("Q")``), its ``type`` (a list of str), its ``at`` (a sequence of
    str, ``Ats``) and the bytes of its ``data`` (a sequence of bytes, ``Datas``). None when a
    line needs the pure-Python reading (see the module)."""
    cdef const unsigned char[::1] view = buffer
    cdef const unsigned char* s = &view[0] if view.shape[0] else NULL
    cdef Py_ssize_t lines = 0, pos, stop, i, key_end, kind_start, kind_end, at_start
    cdef Py_ssize_t data_start, data_end, seq, expected, line
    cdef const unsigned char* found
    cdef bint escaped, has_seq, has_at, has_type, has_data
    cdef unsigned char c
    cdef array offsets, spans
    cdef list kinds, kept_raw, kept_text
    cdef bytes raw, at_bytes, block
    cdef char* at_text
    cdef object kind
    cdef int k
    if start < 0 or end > view.shape[0] or start >= end or s[end - 1] != 10:
        return None
    pos = start
    while pos < end:  # count the lines, and note a byte past ASCII
        found = <const unsigned char*>memchr(s + pos, 10, end - pos)
        lines += 1
        pos = (found - s) + 1
    if chime_high(s, start, end):
        try:
            PyUnicode_DecodeUTF8(<const char*>(s + start), end - start, "strict")
        except UnicodeDecodeError:
            return None
    offsets = clone(_WHOLES, lines, False)
    spans = clone(_WHOLES, 2 * lines, False)
    at_bytes = PyBytes_FromStringAndSize(NULL, 24 * lines)
    at_text = <char*>at_bytes
    kinds = [None] * lines
    kept_raw, kept_text = [], []
    pos = start
    for line in range(lines):
        stop = (<const unsigned char*>memchr(s + pos, 10, end - pos) - s)
        offsets.data.as_ulonglongs[line] = pos
        has_seq = has_at = has_type = has_data = False
        kind_start = kind_end = at_start = data_start = data_end = 0
        i = _space(s, pos, stop)
        if i >= stop or s[i] != 123:
            return None
        i = _space(s, i + 1, stop)
        if i < stop and s[i] == 125:
            return None  # {} has no envelope
        while True:
            if i >= stop or s[i] != 34:
                return None
            escaped = False
            key_end = _string(s, i, stop, &escaped)
            if key_end < 0 or escaped:
                return None
            k = 0
            if _key(s, i + 1, key_end - 1, "seq", 3):
                k = 1
            elif _key(s, i + 1, key_end - 1, "at", 2):
                k = 2
            elif _key(s, i + 1, key_end - 1, "type", 4):
                k = 3
            elif _key(s, i + 1, key_end - 1, "data", 4):
                k = 4
            elif _key(s, i + 1, key_end - 1, "group", 5):
                return None
            i = _space(s, key_end, stop)
            if i >= stop or s[i] != 58:
                return None
            i = _space(s, i + 1, stop)
            if i >= stop:
                return None
            if k == 1:
                if has_seq or not _digit(s[i]) or (s[i] == 48 and i + 1 < stop and _digit(s[i + 1])):
                    return None
                seq = 0
                expected = first_seq + line
                key_end = i
                while i < stop and _digit(s[i]):
                    if i - key_end >= 18:
                        return None
                    seq = seq * 10 + (s[i] - 48)
                    i += 1
                if seq != expected or (i < stop and (s[i] == 46 or s[i] == 101 or s[i] == 69)):
                    return None
                has_seq = True
            elif k == 2:
                if has_at or s[i] != 34 or i + 26 > stop or s[i + 25] != 34 or not _shaped(s + i + 1):
                    return None
                at_start = i + 1
                i += 26
                has_at = True
            elif k == 3:
                if has_type or s[i] != 34:
                    return None
                escaped = False
                kind_end = _string(s, i, stop, &escaped)
                if kind_end < 0 or escaped or kind_end - i < 3:
                    return None
                kind_start, kind_end = i + 1, kind_end - 1
                i = kind_end + 1
                has_type = True
            elif k == 4:
                if has_data:
                    return None
                data_start = i
                i = _value(s, i, stop, 1)
                if i < 0:
                    return None
                data_end = i
                has_data = True
            else:
                i = _value(s, i, stop, 1)
                if i < 0:
                    return None
            i = _space(s, i, stop)
            if i >= stop:
                return None
            c = s[i]
            if c == 125:
                break
            if c != 44:
                return None
            i = _space(s, i + 1, stop)
        if _space(s, i + 1, stop) != stop or not (has_seq and has_at and has_type and has_data):
            return None
        kind = None
        for k in range(len(kept_raw)):  # a block has a few types: each str made once
            raw = <bytes>kept_raw[k]
            if len(raw) == kind_end - kind_start and memcmp(<const char*>raw, s + kind_start, kind_end - kind_start) == 0:
                kind = kept_text[k]
                break
        if kind is None:
            kind = PyUnicode_DecodeUTF8(<const char*>(s + kind_start), kind_end - kind_start, "strict")
            if len(kept_raw) < _KINDS_KEPT:
                kept_raw.append(PyBytes_FromStringAndSize(<const char*>(s + kind_start), kind_end - kind_start))
                kept_text.append(kind)
        kinds[line] = kind
        memcpy(at_text + 24 * line, s + at_start, 24)
        spans.data.as_ulonglongs[2 * line] = data_start - start
        spans.data.as_ulonglongs[2 * line + 1] = data_end - start
        pos = stop + 1
    block = PyBytes_FromStringAndSize(<const char*>(s + start), end - start)
    return offsets, kinds, Ats(at_bytes.decode("ascii"), lines), Datas(block, spans, lines)


cdef class Ats:
    """The ``at`` of each line of a block, cut when asked from their join: each is 24 ASCII
    characters (the canonical instant's shape), and a block folds few of them."""

    cdef str text
    cdef Py_ssize_t count

    def __cinit__(self, str text, Py_ssize_t count):
        self.text, self.count = text, count

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.count))]
        return self.text[24 * _line(index, self.count) : 24 * _line(index, self.count) + 24]


cdef class Datas:
    """The bytes of each line's ``data``, cut when asked from a copy of the block (a block folds
    few of them; the copy outlives the log's mapped pages)."""

    cdef bytes block
    cdef array spans
    cdef Py_ssize_t count

    def __cinit__(self, bytes block, array spans, Py_ssize_t count):
        self.block, self.spans, self.count = block, spans, count

    def __len__(self):
        return self.count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.count))]
        cdef Py_ssize_t line = _line(index, self.count)
        cdef Py_ssize_t first = self.spans.data.as_ulonglongs[2 * line]
        cdef Py_ssize_t last = self.spans.data.as_ulonglongs[2 * line + 1]
        return PyBytes_FromStringAndSize(<const char*>self.block + first, last - first)


cdef Py_ssize_t _line(Py_ssize_t index, Py_ssize_t count) except -1:
    """``index`` of a sequence of ``count`` lines as a list reads it (negative from the end)."""
    if index < 0:
        index += count
    if not 0 <= index < count:
        raise IndexError("no such line in the block")
    return index


Sequence.register(Ats)  # both are read-only sequences: index, slice, len, iterate
Sequence.register(Datas)

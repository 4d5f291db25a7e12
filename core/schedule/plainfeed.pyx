# cython: language_level=3, boundscheck=False, wraparound=False
"""``ScheduleFolder.feed`` of the changes writers emit, compiled: a fold of 10^5 changes in C.

``feed_plain`` applies payloads to a folder's ``active`` and ``seen`` dicts as ``feed`` would, one
after the other, while each is of a shape ``feed``'s own fast path takes (``version`` the int 1,
the exact key set, exact ``str`` ids, prompts and canonical instants, exact ``int`` seconds in
range) and its transition is allowed (§8.3: a create of a new id, a delete or dispatch of an
active one, an ``every`` dispatch at or after its target). It stops at the first payload that is
not, before changing anything for it, and says where: the caller feeds that one the pure-Python
way (``ScheduleFolder.feed``), which applies it or raises the strict decoder's error. So every
error, and every payload of an unusual shape, is still the pure code's.

Records are built by their own classes (``core.schedule.records``) and an ``every`` dispatch's
next target by ``core.schedule.every.next_target``: only the checks and the bookkeeping are
compiled, and the instants' parse (``core.instant.parse_instant_text``'s rules: the canonical
layout, years 0001-9999, real dates, hours to 23, no leap second).
``tests/core/schedule/test_plainfeed.py`` holds it to the pure folder.
"""

from cpython.dict cimport PyDict_Size
from cpython.unicode cimport PyUnicode_GET_LENGTH, PyUnicode_READ_CHAR

from core.schedule.every import next_target
from core.schedule.records import (
    MAX_EVERY_SECONDS,
    MIN_EVERY_SECONDS,
    VERSION,
    AfterRecord,
    AtRecord,
    EveryRecord,
)
from core.schedule.wire import SAFE

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)
    const char* PyUnicode_AsUTF8AndSize(object text, Py_ssize_t* size) except NULL

cdef object _VERSION = VERSION
cdef long long _SAFE = SAFE
cdef long long _MIN_EVERY = MIN_EVERY_SECONDS
cdef long long _MAX_EVERY = MAX_EVERY_SECONDS
cdef extern from *:
    """
    /* A code point of the §1.3 trim set (core.schedule.wire.TRIM_CHARS; a test compares them). */
    static inline int chime_trimmed(Py_UCS4 c) {
        if (c <= 0x20) return c == 0x20 || (c >= 0x09 && c <= 0x0d);
        if (c < 0xa0) return 0;
        return c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028
            || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff;
    }
    """
    bint chime_trimmed(Py_UCS4 c) noexcept
cdef const char* _SHAPE = b"0000-00-00T00:00:00.000Z"
cdef int _DAYS[13]
_DAYS[:] = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

cdef long long _NOT_AN_INSTANT = -(2**62)


cdef inline bint _name(object value):
    """An exact, non-empty ``str`` whose ends are not in the §1.3 trim set (``strip`` would
    leave it as it is)."""
    cdef Py_ssize_t size
    if type(value) is not str:
        return False
    size = PyUnicode_GET_LENGTH(value)
    if size == 0:
        return False
    return not (
        chime_trimmed(PyUnicode_READ_CHAR(value, 0))
        or chime_trimmed(PyUnicode_READ_CHAR(value, size - 1))
    )


def trimmed(str text):
    """Whether the first code point of ``text`` is in the trim set (for the tests)."""
    return chime_trimmed(PyUnicode_READ_CHAR(text, 0))


cdef inline int _two(const char* s, int at) noexcept:
    return (s[at] - 48) * 10 + (s[at + 1] - 48)


cdef long long _instant(object value):
    """The ms of a canonical instant ``str`` (``parse_instant_text``), or ``_NOT_AN_INSTANT``."""
    cdef Py_ssize_t size
    cdef const char* s
    cdef int k, year, month, day, hour, minute, second, milli, days_in_month
    cdef long long y, era, yoe, doy, doe, days
    if type(value) is not str or not PyUnicode_IS_ASCII(value):
        return _NOT_AN_INSTANT
    s = PyUnicode_AsUTF8AndSize(value, &size)
    if size != 24:
        return _NOT_AN_INSTANT
    for k in range(24):
        if _SHAPE[k] == 48:
            if not 48 <= s[k] <= 57:
                return _NOT_AN_INSTANT
        elif s[k] != _SHAPE[k]:
            return _NOT_AN_INSTANT
    year = _two(s, 0) * 100 + _two(s, 2)
    month, day = _two(s, 5), _two(s, 8)
    hour, minute, second = _two(s, 11), _two(s, 14), _two(s, 17)
    milli = (s[20] - 48) * 100 + _two(s, 21)
    if year < 1 or not 1 <= month <= 12 or hour > 23 or minute > 59 or second > 59:
        return _NOT_AN_INSTANT
    days_in_month = _DAYS[month]
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        days_in_month = 29
    if not 1 <= day <= days_in_month:
        return _NOT_AN_INSTANT
    y = year - (month <= 2)  # days since 1970-01-01 of a proleptic Gregorian date
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    days = era * 146097 + doe - 719468
    return ((days * 24 + hour) * 60 + minute) * 60000 + second * 1000 + milli


def parse_instant(value):
    """``parse_instant_text(value)`` for a ``str``, or None where it raises (for the tests)."""
    cdef long long ms = _instant(value)
    return None if ms == _NOT_AN_INSTANT else ms


cdef object _record(dict value):
    """``quick_record(value)`` (None where it gives None)."""
    cdef object kind = value.get("kind")
    cdef object sid, prompt, seconds
    cdef long long ms, count
    if type(kind) is not str:
        return None
    if kind == "at":
        count = 4
    elif kind == "after" or kind == "every":
        count = 5
    else:
        return None
    if PyDict_Size(value) != count:
        return None
    sid, prompt = value.get("id"), value.get("prompt")
    if not _name(sid) or not _name(prompt):
        return None
    ms = _instant(value.get("scheduledAt"))
    if ms == _NOT_AN_INSTANT:
        return None
    if count == 4:
        return AtRecord(sid, prompt, ms)
    if kind == "after":
        seconds = value.get("afterSeconds")
        if type(seconds) is int and 1 <= seconds <= _SAFE:
            return AfterRecord(sid, prompt, seconds, ms)
        return None
    seconds = value.get("everySeconds")
    if type(seconds) is int and _MIN_EVERY <= seconds <= _MAX_EVERY:
        return EveryRecord(sid, prompt, seconds, ms)
    return None


def feed_plain(list payloads, Py_ssize_t start, dict active, dict seen):
    """Apply ``payloads[start:]`` to ``active`` and ``seen`` (a ``ScheduleFolder``'s, with no
    next-due index) while each is a plain change ``feed`` would apply; the index of the first
    that is not (nothing of it applied), or ``len(payloads)``."""
    cdef Py_ssize_t index, size
    cdef object version, operation, sid, record, found, accepted_text, following
    cdef dict data
    cdef long long accepted
    for index in range(start, len(payloads)):
        if type(payloads[index]) is not dict:
            return index
        data = <dict>payloads[index]
        version = data.get("version")
        if type(version) is not int or version != _VERSION:
            return index
        operation = data.get("operation")
        if type(operation) is not str:
            return index
        size = PyDict_Size(data)
        if operation == "create":
            record = data.get("schedule")
            if size != 3 or type(record) is not dict:
                return index
            record = _record(<dict>record)
            if record is None:
                return index
            sid = record.id
            if sid in seen:
                return index
            seen[sid] = len(seen)
            active[sid] = record
            continue
        sid = data.get("id")
        if not _name(sid):
            return index
        if size == 3 and operation == "delete":
            if active.pop(sid, None) is None:
                return index
            continue
        if operation != "dispatch":
            return index
        found = active.get(sid)
        if found is None:
            return index
        if size == 3:
            if type(found) is EveryRecord:
                return index
            del active[sid]
            continue
        accepted_text = data.get("acceptedAt")
        if size != 4 or accepted_text is None or type(found) is not EveryRecord:
            return index
        accepted = _instant(accepted_text)
        if accepted == _NOT_AN_INSTANT or accepted == 0 or accepted < found.scheduled_ms:
            return index
        following = next_target(found.scheduled_ms, found.every_seconds * 1000, accepted)
        if following is None:
            del active[sid]
        else:
            active[sid] = EveryRecord(sid, found.prompt, found.every_seconds, following)
    return len(payloads)

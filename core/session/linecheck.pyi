from array import array

from core.session.scan import ByteSource

MAX_DEPTH: int

def check_block(
    buffer: ByteSource, start: int, end: int, first_seq: int
) -> tuple[array[int], list[str], list[str], list[bytes]] | None: ...

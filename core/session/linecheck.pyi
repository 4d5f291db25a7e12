from array import array
from collections.abc import Sequence
from typing import overload

from core.session.scan import ByteSource

MAX_DEPTH: int

class Ats(Sequence[str]):
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

class Datas(Sequence[bytes]):
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> bytes: ...
    @overload
    def __getitem__(self, index: slice) -> list[bytes]: ...

def check_block(
    buffer: ByteSource, start: int, end: int, first_seq: int
) -> tuple[array[int], list[str], Ats, Datas] | None: ...

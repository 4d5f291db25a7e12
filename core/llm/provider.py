"""ModelProvider: the one interface every model backend implements. Pure: a Protocol only."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Protocol

from core.llm.messages import ModelInfo, ModelRequest, StreamChunk


class ModelProvider(Protocol):
    """Streams one model step.

    ``stream(request)`` yields ``TextDelta`` chunks and ends with exactly one ``Finish``. Failures
    raise ``core.errors.ProviderError`` (with a user-readable message); cancelling the consuming
    task, or ``aclose()`` of the generator, closes the underlying stream. ``info`` names the provider and model for the log.
    """

    @property
    def info(self) -> ModelInfo: ...

    def stream(self, request: ModelRequest) -> AsyncGenerator[StreamChunk, None]: ...

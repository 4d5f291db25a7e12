"""ModelProvider: the one interface every model backend implements. Pure: Protocols only."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Protocol, runtime_checkable

from core.llm.budget import TokenBudget
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


@runtime_checkable
class BudgetedProvider(Protocol):
    """A provider whose model has a bounded context (an endpoint; the offline assistant has
    none). ``budget()`` never fails: a server that does not say gets a default."""

    async def budget(self) -> TokenBudget: ...

"""The built-in offline assistant, a deterministic ModelProvider (``assistant``): its public door. Pure.

``OfflineAssistant`` is what app/ and core/ import; the modules beside it read a message
(``dialogue``, ``intent``, ``create``, ``when`` and its pieces) and word the answers
(``replies``, ``framing``, ``text``).
"""

from core.llm.offline.assistant import MODEL, PROVIDER, OfflineAssistant

__all__ = ["MODEL", "PROVIDER", "OfflineAssistant"]

"""The local agent: turns input into model turns and records them in the session log (agent.md).

``Agent`` is the public entry; ``ToolRegistry`` maps tool names to toolsets such as
``ScheduleTools``. Knows nothing of Qt; the window observes it through ``core.host.SessionHost``.
"""

from core.agent.agent import Agent, AgentMaintenanceClaim, AgentStatus
from core.agent.tool_registry import ToolOutcome, ToolRegistry, Toolset

__all__ = [
    "Agent",
    "AgentMaintenanceClaim",
    "AgentStatus",
    "ToolOutcome",
    "ToolRegistry",
    "Toolset",
]

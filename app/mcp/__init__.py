"""Chime as an MCP client (issue 20): the protocol spoken by the official ``mcp`` SDK.

``connection`` holds one running server (stdio in its own process group, or Streamable HTTP);
``pool`` shares them between sessions, starts them on first use, restarts a crashed one on its
next use and stops them all on quit; ``reaper`` kills the process groups a crashed Chime left;
``secrets`` keeps tokens in the keyring. The pure rules (names, budget, results, approval) are
``core.mcp``'s.
"""

"""Chime's engine: reminders, session logs, agent and providers. Never imports Qt or reads the machine."""

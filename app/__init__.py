"""Chime's composition root and Qt adapters: wiring, the qasync door, tasks, timers, settings, paths."""

__version__ = "0.1.0"

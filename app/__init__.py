"""Chime's composition root and Qt adapters: wiring, the qasync door, timers, settings, paths."""

"""Chime's widgets, item models and delegates. No awaits, no I/O: app/ feeds them values."""

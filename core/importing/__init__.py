"""Importing conversations from other apps' files (issue 21): pure parsing and mapping to Chime's
event vocabulary. No I/O: ``app.import_flow`` reads the file and writes the sessions."""

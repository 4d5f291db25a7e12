"""The transcript as a pure fold of the session's log (docs/architecture.md "The transcript").

Modules: ``rows`` (frozen row values, built per event), ``usage`` (what an answer's steps cost),
``verbs`` (what each row offers: one decision, a field of the row), ``path`` (the conversation
tree as the transcript reads it), ``build`` (a range of the log as rows, in the order shown),
``queue`` (which inputs a turn took, the newest turn: a fold the session's folds keep),
``patch`` (the changes a view applies), ``window`` (where a long transcript's loaded rows are
cut), ``loading`` (the loaded range and the streamed row), ``appending`` (new entries) and
``projection`` (the incremental projection: opened, fed entry by entry, rebuilt when the shown
path changes, answering with patches). No Qt, no I/O, no clock; the words of the window's
language are ``ui.transcript_rows``'s.
"""

"""The names vulture cannot see used, because Qt, pytest, pydantic, the openai SDK or Python
itself calls or reads them. Read by ``scripts/dead_code.py`` (the gate's dead-code step); never
imported or run.

A name listed here is kept wherever it is defined, so list only names such a caller needs, each
under the caller that uses it. A name nothing uses is deleted, not listed.
"""

from __future__ import annotations


class _Names:
    """``_.name`` reads as a use of ``name`` to vulture (it matches uses by name alone)."""

    def __getattr__(self, name: str) -> _Names:
        return self


def used_by(_caller: str, *_names: object) -> None:
    """Records that ``_caller`` uses ``_names`` (a call, so the linters see no useless line)."""


_ = _Names()

used_by(
    "Qt: virtual methods it calls on our subclasses (its event handlers, ``mousePressEvent`` and"
    " the like, are left out by scripts/dead_code.py as a pattern)",
    _.itemAt,
    _.filterAcceptsRow,
    _.mimeTypes,
    _.supportedDropActions,
    _.createEditor,
    _.setEditorData,
    _.updateEditorGeometry,
    _.takeAt,
    _.expandingDirections,
    _.hasHeightForWidth,
    _.heightForWidth,
    _.setGeometry,
    _.sizeHint,
    _.minimumSizeHint,
    _.eventFilter,
    _.paint,
    _.canFetchMore,
    _.fetchMore,
)
used_by(
    "Qt: a slot's parameters follow its signal (dataChanged(topLeft, bottomRight, roles))",
    _.top_left,
)
used_by("logging: Handler.handleError, called when emitting a record fails", _.handleError)
used_by("datetime: tzinfo methods of a test's zone", _.tzname, _.fromutc)
used_by("Python: core/frozen.py sets the frozen guard on each class", _.__setattr__, _.__delattr__)
used_by("pydantic: a model's configuration", _.model_config)
used_by(
    "msgspec: a Struct field it checks the type of while decoding a line, which no fold reads"
    " (core/session/envelopes.py)",
    _.timeZone,
)
used_by(
    "the openai SDK: client attributes it reads at each request (core/llm/openai_compat.py)",
    _.organization,
    _.admin_api_key,
    _._custom_headers,
    _._ambient_authorizations,
)
used_by(
    "pytest: module marks, hooks, autouse fixtures, fixtures named in usefixtures and fixtures a"
    " test asks for only for their effect (the German window)",
    _.pytestmark,
    _.pytest_configure,
    _.clipboard_cleared,
    _._warm_dateparser,
    _.no_window_left_behind,
    _.identity_in_the_environment,
    _.german,
    _.no_window_left_behind,
)
used_by("ziamath: the setting ui/math_render.py writes and the renderer reads", _.svg2)

used_by(
    "xllamacpp (scripts/xllamacpp_serve.py): the CommonParams fields its Server reads",
    _.model_alias,
    _.hostnames,
    _.n_ctx,
    _.n_parallel,
    _.n_threads,
    _.load_mode,
    _.use_jinja,
    _.warmup,
    _.n_predict,
)

used_by(
    "Python: the defaults of the __init__ core/frozen.py makes, read at each call", _.__defaults__
)

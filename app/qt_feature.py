"""Keeps PySide6 from reading the source of every module imported after it. No I/O of its own.

PySide6's optional "features" (``from __feature__ import snake_case``) hook ``import``: for each
new module, shiboken asks whether the module uses PySide6 by reading its whole source
(``inspect.getsource`` in ``shibokensupport.feature._mod_uses_pyside``). That reads every module
Chime imports after Qt once more at start and keeps all their lines in ``linecache`` (~2 MB of
text at the first paint, ~5 MB once the engine is loaded: ~12 MB of memory). Chime selects no
feature, so the answer changes nothing for it; importing this module (``app.main`` does, before
any of Chime's own modules) answers the question from the module's globals instead of its source.

Choices where nothing is said: the replacement is installed only where the function is found
under the name it has in PySide6 6.5–6.11; a PySide6 without it is left alone, and
``tests/app/test_qt_feature.py`` fails if importing the window reads sources again (then look at
what the new version does). ``forget_sources`` empties ``linecache`` (tracebacks read the files
again when they need them): the app calls it once started, whatever PySide6 did.
"""

from __future__ import annotations

import linecache
import sys
from types import ModuleType

QT_PACKAGES = ("PySide6", "shiboken6")


def uses_qt(module: ModuleType) -> bool:
    """Whether a module refers to PySide6: a global that is one of its modules, or a class or
    function from one."""
    for value in list(vars(module).values()):
        name: object = value.__name__ if isinstance(value, ModuleType) else None
        if name is None:
            name = getattr(value, "__module__", None)
        if isinstance(name, str) and name.startswith(QT_PACKAGES):
            return True
    return False


def install() -> bool:
    """Answer shiboken's question without reading sources; False when this PySide6 does not ask
    it that way (nothing is changed then)."""
    feature = sys.modules.get("shibokensupport.feature")
    if feature is None or not callable(getattr(feature, "_mod_uses_pyside", None)):
        return False
    setattr(feature, "_mod_uses_pyside", uses_qt)  # noqa: B010  (a private name: setattr says so)
    return True


def forget_sources() -> None:
    """Drop the source lines ``linecache`` keeps (they are read again when a traceback needs
    them)."""
    linecache.clearcache()


install()

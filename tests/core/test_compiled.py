"""The compiled fast paths (docs/architecture.md, "Compiled fast paths") are built wherever a C
compiler and Python's headers are, and never older than their source: a pip that skipped the build
or an edit not yet compiled would otherwise leave every test of them skipped or stale."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

import pytest

from core.schedule import fold
from core.session import block_scan

ROOT = Path(__file__).resolve().parents[2]
COMPILED = {
    "core/session/linecheck.pyx": block_scan.compiled_check,
    "core/schedule/plainfeed.pyx": fold.compiled_feed,
}


def test_every_pyx_is_listed_here_and_in_pyproject() -> None:
    sources = {str(path.relative_to(ROOT)) for path in ROOT.glob("core/**/*.pyx")}
    assert sources == set(COMPILED)
    declared = (ROOT / "pyproject.toml").read_text()
    assert all(f'sources = ["{source}"]' in declared for source in sources)


@pytest.mark.parametrize("source", sorted(COMPILED))
def test_each_fast_path_is_compiled_from_its_current_source(source: str) -> None:
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    if not (shutil.which("cc") or shutil.which("gcc")) or not headers.exists():
        pytest.skip("no C compiler or no Python headers: the pure-Python twins run alone")
    assert COMPILED[source] is not None, f"{source} was not compiled: pip install -e . builds it"
    pyx = ROOT / source
    built = next(pyx.parent.glob(f"{pyx.stem}.*.so"), None)
    assert built is not None, f"no compiled module beside {source}"
    assert built.stat().st_mtime >= pyx.stat().st_mtime, (
        f"the compiled {pyx.stem} is older than {source}: python3 scripts/test.py rebuilds it"
    )

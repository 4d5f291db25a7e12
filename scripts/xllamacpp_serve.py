"""Runs llama.cpp's C++ HTTP server (the ``xllamacpp`` wheel) on one GGUF until SIGTERM.

Started by ``scripts/real_models.py`` with the cache venv's python (which has ``xllamacpp``;
Chime's own venv does not). Listens on 127.0.0.1 only; the model is read into memory instead of
memory-mapped (about 2x faster on these machines), with at most the threads it is given (one to
write the answer: on 2 cores shared with other work, two threads that wait on each other wrote
0.7-0.9 tokens a second where one wrote 3.8-4.5, measured here; two read the prompt); Jinja
chat templates are on, so the model's own template offers the tools and parses its calls.
Must not: import Chime, or listen anywhere but loopback.
"""

from __future__ import annotations

import argparse
import signal
import threading


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("port", type=int)
    parser.add_argument("--threads", type=int, default=2, help="threads reading the prompt")
    parser.add_argument("--gen-threads", type=int, default=1, help="threads writing the answer")
    parser.add_argument("--context", type=int, default=8192)
    parser.add_argument("--alias", default="")
    parser.add_argument(
        "--temperature", type=float, help="the server's default sampling temperature"
    )
    parser.add_argument(
        "--predict", type=int, help="the most tokens one answer may have (then finish 'length')"
    )
    args = parser.parse_args()
    import xllamacpp  # the cache venv's; Chime's own has none

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.model_alias = {args.alias or args.model}
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.n_ctx = args.context
    params.n_parallel = 1
    params.cpuparams.n_threads = args.gen_threads
    params.cpuparams_batch.n_threads = args.threads
    params.load_mode = xllamacpp.llama_load_mode.LLAMA_LOAD_MODE_NONE  # read, not mmapped
    params.use_jinja = True
    params.warmup = False
    if args.temperature is not None:
        params.sampling.temp = args.temperature
    if args.predict is not None:  # a short cap cuts answers: how Continue is tried for real
        params.n_predict = args.predict
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    server = xllamacpp.Server(params)
    print(f"listening at {server.listening_address}", flush=True)
    stopped.wait()


if __name__ == "__main__":
    main()

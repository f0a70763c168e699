"""llama.cpp's own llama-server, in-process through the xllamacpp package, on loopback.

Used by `npm run eval:injection -- --local`: python serve-model.py MODEL.gguf PORT THREADS.
The OpenAI-compatible routes (/v1/chat/completions, /v1/models) and the GGUF's own chat template
(--jinja) are llama-server's; this file only fills in its parameters and keeps the process alive
until the eval stops it.
"""

import signal
import sys
import time

import xllamacpp


def main() -> None:
    model, port, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    params = xllamacpp.CommonParams()
    params.model.path = model
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.n_ctx = 4096
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.use_jinja = True
    server = xllamacpp.Server(params)
    print(f"listening {server.listening_address}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()

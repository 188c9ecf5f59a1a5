"""`python -m myday_speech`: loads the model, then serves; prints `listening on http://HOST:PORT model NAME` once
ready."""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
import threading

import uvicorn

from .app import build_app
from .engine import Engine
from .settings import Settings, SettingsError


def main() -> None:
    parser = argparse.ArgumentParser(prog="myday-speech", description=__doc__)
    parser.add_argument(
        "--exit-when-stdin-closes",
        action="store_true",
        help="end when standard input reaches its end (the server that started this one has gone, even if killed)",
    )
    arguments = parser.parse_args()
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s speech: %(message)s")
    if arguments.exit_when_stdin_closes:
        threading.Thread(target=_exit_when_stdin_closes, name="lifeline", daemon=True).start()
    try:
        settings = Settings.from_environment()
    except SettingsError as error:
        sys.exit(f"myday-speech: {error}")
    engine = Engine(settings)
    listener = socket.create_server((settings.host, settings.port), reuse_port=False)
    host, port = listener.getsockname()[:2]
    server = uvicorn.Server(
        uvicorn.Config(build_app(engine), log_config=None, access_log=False, timeout_graceful_shutdown=5)
    )
    # The socket already listens: connections made from now on wait until uvicorn accepts them.
    print(f"listening on http://{host}:{port} model {settings.model_name}", flush=True)
    server.run(sockets=[listener])


def _exit_when_stdin_closes() -> None:
    while sys.stdin.buffer.read(65536):
        pass
    logging.getLogger("myday_speech").info("the server that started this service has gone; stopping")
    os._exit(0)


if __name__ == "__main__":
    main()

"""A TCP proxy on a loopback port that holds uploads: what a client sends on each connection is passed on up to
HOLD_AFTER bytes, then held until the proxy is told to let go, so that a test knows a server is in the middle of
receiving a request for as long as it needs. Answers always flow back.

Usage: holding_proxy.py TARGET_PORT HOLD_AFTER. Prints "ready PORT"; SIGUSR1 lets every held connection (and every
later one) through unhindered; standard input closing stops the proxy.
"""

import signal
import socket
import sys
import threading

target_port, hold_after = int(sys.argv[1]), int(sys.argv[2])
released = threading.Event()


def pipe(source, destination, limit=None):
    """Copies source to destination; with a limit, waits for the release once that many bytes went through."""
    sent = 0
    try:
        while True:
            if limit is not None and sent >= limit:
                released.wait()
                limit = None
            wanted = 65536 if limit is None else min(65536, limit - sent)
            data = source.recv(wanted)
            if not data:
                break
            destination.sendall(data)
            sent += len(data)
    except OSError:
        pass
    finally:
        for end in (source, destination):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(listener):
    while True:
        client, _ = listener.accept()
        server = socket.create_connection(("127.0.0.1", target_port))
        threading.Thread(target=pipe, args=(client, server, None if released.is_set() else hold_after), daemon=True).start()
        threading.Thread(target=pipe, args=(server, client), daemon=True).start()


listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(16)
threading.Thread(target=serve, args=(listener,), daemon=True).start()
signal.signal(signal.SIGUSR1, lambda *_: released.set())
print(f"ready {listener.getsockname()[1]}", flush=True)
sys.stdin.read()

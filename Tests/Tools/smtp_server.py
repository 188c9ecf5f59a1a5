"""A real SMTP server for the tests (aiosmtpd): STARTTLS required, AUTH PLAIN/LOGIN with one user.

Each message is written to FOLDER as N.eml, after X-Test-* lines that say who authenticated,
whether the session was encrypted and the envelope's recipients. Prints "ready PORT" once listening,
then serves until it gets SIGTERM or SIGINT (it stops cleanly) or SIGKILL.
Usage: .build/python/bin/python Tests/Tools/smtp_server.py FOLDER CERT KEY USER PASSWORD
"""
import logging
import os
import socket
import signal
import ssl
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

folder, cert, key, user, password = sys.argv[1:6]
logging.basicConfig(level=logging.DEBUG, filename=os.path.join(folder, "server.log"))


class Handler:
    def __init__(self):
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        login = session.auth_data.login.decode() if session.authenticated else ""
        meta = f"X-Test-Auth: {login}\r\nX-Test-TLS: {session.ssl is not None}\r\nX-Test-Rcpt: {','.join(envelope.rcpt_tos)}\r\n"
        path = os.path.join(folder, f"{self.count}.eml")
        with open(path + ".part", "wb") as file:
            file.write(meta.encode() + envelope.original_content)
        os.rename(path + ".part", path)
        return "250 OK"


def authenticate(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == user.encode() and auth_data.password == password.encode()
    # handled=False lets the server answer a failure with its own 535.
    return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)


probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
context.load_cert_chain(cert, key)
controller = Controller(
    Handler(), hostname="127.0.0.1", port=port, tls_context=context, require_starttls=True,
    authenticator=authenticate, auth_require_tls=True,
)
stopping = threading.Event()
for number in (signal.SIGTERM, signal.SIGINT):
    signal.signal(number, lambda *_: stopping.set())
controller.start()
print(f"ready {port}", flush=True)
# The controller serves on its own thread; this one only waits to be told to stop.
stopping.wait()
controller.stop()

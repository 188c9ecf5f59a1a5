"""schemathesis hooks for scripts/schemathesis (loaded through SCHEMATHESIS_HOOKS).

Every request to an operation that needs a bearer token carries an access token from a real sign-in of
the test user (`POST /v1/auth/email/login`), taken again every REFRESH_SECONDS: well inside the access
token's 15 minutes, so no valid request ever carries an expired token, and inside the 5 minutes that
count as a recent sign-in, so linking and unlinking identities get past that gate too. A 401 is never
retried with a new token (`retry_on=[]`): a valid request answered 401 fails the run.

Settings, from scripts/schemathesis: MYDAY_SCHEMATHESIS_URL (the server), MYDAY_SCHEMATHESIS_EMAIL and
MYDAY_SCHEMATHESIS_PASSWORD (the registered test user).
"""
import ast
import json
import os
import threading
import urllib.request

import schemathesis

# CPython 3.11 keeps the AST constructor's recursion depth in state that all threads share, so two workers
# describing a strategy at once (hypothesis parses lambdas' source) can fail with "AST constructor recursion depth
# mismatch" (python/cpython#106905). Parsing one at a time avoids it.
_parse = ast.parse
_parse_lock = threading.Lock()


def _parse_one_at_a_time(*args, **kwargs):
    with _parse_lock:
        return _parse(*args, **kwargs)


ast.parse = _parse_one_at_a_time

REFRESH_SECONDS = 120
BASE = os.environ["MYDAY_SCHEMATHESIS_URL"]
EMAIL = os.environ["MYDAY_SCHEMATHESIS_EMAIL"]
PASSWORD = os.environ["MYDAY_SCHEMATHESIS_PASSWORD"]


def needs_bearer_token(context):
    """Operations the document does not mark `security: []` (sign-in, blobs, health…) take no token."""
    return context.operation.definition.raw.get("security") != []


@schemathesis.auth(refresh_interval=REFRESH_SECONDS, retry_on=[]).apply_to(needs_bearer_token)
class SignedIn:
    def get(self, case, context):
        request = urllib.request.Request(
            f"{BASE}/v1/auth/email/login", method="POST", headers={"Content-Type": "application/json"},
            data=json.dumps({"email": EMAIL, "password": PASSWORD}).encode())
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)["access_token"]

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"

"""The HTTP routes: OpenAI's `POST /v1/audio/transcriptions` and `GET /v1/models`, and `GET /health`.

With `stream=true` a transcription answers as server-sent events, as OpenAI's streamed transcriptions do: a
`transcript.text.delta` after each window of the recording (with `end`, the seconds heard so far, so a client can show
how far it is), then one `transcript.text.done` that holds the whole answer in the format asked for (`text` always),
or an `error` event if the audio turns out to be undecodable part way.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Annotated, Literal

import anyio
from fastapi import FastAPI, Form, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import Receive, Scope, Send

from .audio import AudioError
from .engine import LANGUAGES, Engine, Segment, Stopped, Transcript

log = logging.getLogger("myday_speech")


class OpenAIError(Exception):
    """An error answered in OpenAI's shape: `{"error": {"message", "type", "param", "code"}}`."""

    def __init__(self, status: int, message: str, param: str | None = None, code: str | None = None):
        super().__init__(message)
        self.status, self.message, self.param, self.code = status, message, param, code

    def response(self) -> JSONResponse:
        body = _error_body(self.status, self.message, self.param, self.code)
        return JSONResponse({"error": body}, status_code=self.status)


def _error_body(status: int, message: str, param: str | None, code: str | None) -> dict:
    kind = "invalid_request_error" if status < 500 else "server_error"
    return {"message": message, "type": kind, "param": param, "code": code}


def build_app(engine: Engine) -> FastAPI:
    settings = engine.settings
    app = FastAPI(title="My Day speech service", docs_url=None, redoc_url=None, openapi_url=None)
    # As many transcriptions at once as the model has workers; more wait their turn.
    slots = anyio.CapacityLimiter(settings.concurrency)
    served_names = {settings.model_name, settings.model, "whisper-1"}

    @app.exception_handler(OpenAIError)
    async def openai_error(_request: Request, error: OpenAIError):
        return error.response()

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: RequestValidationError):
        first = error.errors()[0] if error.errors() else {}
        field = ".".join(str(part) for part in first.get("loc", ())[1:]) or None
        message = f"'{field}': {first.get('msg', 'invalid')}." if field else "The request is not valid."
        return OpenAIError(400, message, param=field).response()

    @app.get("/health")
    async def health():
        return {
            "status": "ok",
            "model": settings.model_name,
            "device": settings.device,
            "compute_type": settings.compute_type,
            "concurrency": settings.concurrency,
        }

    @app.get("/v1/models")
    async def models():
        return {"object": "list", "data": [_model(settings.model_name)]}

    @app.get("/v1/models/{model_id:path}")
    async def model(model_id: str):
        if model_id not in served_names:
            raise OpenAIError(404, f"The model '{model_id}' is not served here.", "model", "model_not_found")
        return _model(settings.model_name)

    @app.post("/v1/audio/transcriptions")
    async def transcriptions(
        request: Request,
        file: Annotated[UploadFile, Form()],
        model: Annotated[str, Form()],
        language: Annotated[str | None, Form()] = None,
        prompt: Annotated[str | None, Form()] = None,
        temperature: Annotated[float, Form(ge=0, le=1)] = 0.0,
        response_format: Annotated[Literal["json", "text", "verbose_json"], Form()] = "json",
        granularities: Annotated[
            list[Literal["word", "segment"]] | None, Form(alias="timestamp_granularities[]")
        ] = None,
        stream: Annotated[bool, Form()] = False,
    ):
        if model not in served_names:
            raise OpenAIError(
                404, f"The model '{model}' is not served here; use '{settings.model_name}'.", "model", "model_not_found"
            )
        code = _language_code(language)
        if file.size is not None and file.size > settings.max_upload_bytes:
            raise OpenAIError(413, f"The file is larger than {settings.max_upload_bytes} bytes.", "file")
        if file.size == 0:
            raise OpenAIError(400, "The file is empty.", "file")

        def answer(transcript: Transcript) -> dict | str:
            if response_format == "text":
                return transcript.text
            if response_format == "json":
                return {"text": transcript.text}
            return _verbose(transcript, set(granularities or ["segment"]))

        def transcribe(client_left: threading.Event, heard: Callable[[float, list[Segment]], None]):
            return anyio.to_thread.run_sync(
                lambda: engine.transcribe(
                    file.file,
                    language=code,
                    prompt=prompt,
                    temperature=temperature,
                    should_stop=client_left.is_set,
                    heard=heard,
                ),
                limiter=slots,
            )

        if stream:
            return TranscriptionEvents(transcribe, answer)
        client_left = threading.Event()
        transcript: Transcript | None = None

        async def work():
            nonlocal transcript
            transcript = await transcribe(client_left, lambda _end, _segments: None)

        try:
            await _unless_client_leaves(request.receive, work, client_left)
        except AudioError as error:
            raise OpenAIError(400, str(error), "file", "invalid_audio") from error
        except Stopped:
            log.info("transcription stopped: the client left")
        if transcript is None:
            # Nobody is there to read an answer.
            return Response(status_code=499)
        body = answer(transcript)
        return PlainTextResponse(body) if isinstance(body, str) else body

    return app


class TranscriptionEvents(Response):
    """A transcription answered as server-sent events while it runs (see the module's description)."""

    def __init__(
        self,
        transcribe: Callable[[threading.Event, Callable[[float, list[Segment]], None]], Awaitable[Transcript]],
        answer: Callable[[Transcript], dict | str],
    ):
        super().__init__(media_type="text/event-stream")
        self.transcribe, self.answer = transcribe, answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client_left = threading.Event()
        started = False

        async def emit(event: dict) -> None:
            # The status goes with the first event: a file undecodable from its start is still answered 400.
            nonlocal started
            if not started:
                headers = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")]
                await send({"type": "http.response.start", "status": 200, "headers": headers})
                started = True
            body = f"data: {json.dumps(event, ensure_ascii=False)}\n\n".encode()
            await send({"type": "http.response.body", "body": body, "more_body": True})

        def heard(end: float, segments: list[Segment]) -> None:
            # Called on the engine's thread; a client that left ends the work at the next window.
            delta = {"type": "transcript.text.delta", "delta": "".join(s.text for s in segments), "end": round(end, 3)}
            try:
                anyio.from_thread.run(emit, delta)
            except Exception:
                client_left.set()

        async def work():
            try:
                body = self.answer(await self.transcribe(client_left, heard))
            except AudioError as error:
                if not started:
                    await OpenAIError(400, str(error), "file", "invalid_audio").response()(scope, receive, send)
                    return
                await emit({"type": "error", "error": _error_body(400, str(error), "file", "invalid_audio")})
            except Stopped:
                log.info("transcription stopped: the client left")
                return
            else:
                await emit({"type": "transcript.text.done", **({"text": body} if isinstance(body, str) else body)})
            await send({"type": "http.response.body", "body": b"", "more_body": False})

        await _unless_client_leaves(receive, work, client_left)


async def _unless_client_leaves(
    receive: Callable[[], Awaitable[dict]], work: Callable[[], Awaitable[None]], client_left: threading.Event
) -> None:
    """Runs `work`; if the client disconnects first, sets `client_left` and stops waiting for a free slot."""
    failure: Exception | None = None
    async with anyio.create_task_group() as group:

        async def watch():
            # The body has been read: the next message the server hands over is the disconnect.
            while (await receive())["type"] != "http.disconnect":
                pass
            client_left.set()
            group.cancel_scope.cancel()

        group.start_soon(watch)
        try:
            await work()
        except Exception as error:
            # Raised as itself, not inside the task group's ExceptionGroup.
            failure = error
        group.cancel_scope.cancel()
    if failure:
        raise failure


def _language_code(language: str | None) -> str | None:
    """`fr`, `fr-FR` or `fr_FR` → `fr`; an empty hint is no hint; an unknown one is refused."""
    if not language:
        return None
    code = language.replace("_", "-").split("-")[0].lower()
    if code not in LANGUAGES:
        raise OpenAIError(400, f"'{language}' is not a language this model knows.", "language", "unsupported_language")
    return code


def _model(name: str) -> dict:
    return {"id": name, "object": "model", "created": 0, "owned_by": "myday"}


def _verbose(transcript: Transcript, granularities: set[str]) -> dict:
    answer: dict = {
        "task": "transcribe",
        "language": transcript.language,
        "language_probability": transcript.language_probability,
        "duration": round(transcript.duration, 3),
        "text": transcript.text,
    }
    if "segment" in granularities:
        answer["segments"] = [
            {key: value for key, value in asdict(segment).items() if key != "words"} for segment in transcript.segments
        ]
    if "word" in granularities:
        answer["words"] = [asdict(word) for word in transcript.words]
    return answer

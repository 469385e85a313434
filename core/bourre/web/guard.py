"""The web app's outer guard (pure ASGI): what every request passes before a page is
made, and what every answer carries.

- The ``Host`` must be one the server is reached under (``localhost``,
  ``127.0.0.1``, ``[::1]`` and the names it was told): a page of another site cannot
  reach it through DNS rebinding.
- A ``POST`` from another site (``Origin`` not this one, ``Sec-Fetch-Site`` not
  ``same-origin``) is refused: no cross-site form posts.
- A body is read whole before the page sees it, within :data:`BODY_SECONDS` and at
  most ``max_body`` bytes: a client that promises more than it sends, or trickles, is
  answered 408; one that sends too much, 413.
- Only ``GET``, ``HEAD`` and ``POST``.
- Every answer carries a Content-Security-Policy (nothing but this page's own style,
  and scripts only from this server: the tap page's ``/tap/session.js``, no inline
  script),
  ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff`` and
  ``Referrer-Policy: same-origin`` (nothing sent to another site; the browser then
  names this site as the origin of its own form posts).
- Should a page still fail (a bug), the error is logged and the client gets a plain
  400 page: a request never gets a 500.  (A 503 is the app's own word: the simulating
  pages are busy, :mod:`bourre.web.work`.)
- What the server refuses before the app sees the request (a request line or header
  it cannot parse, an invalid ``Content-Length``) is answered by uvicorn itself, with
  no page and none of these headers: ``docs/security.md`` lists those answers.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import html
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from pathlib import Path
from typing import Any

__all__ = ["BODY_SECONDS", "LOCAL_HOSTS", "Guard", "security_headers"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

BODY_SECONDS = 10.0
"""The time a client has to send a request's whole body."""

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
"""The names the server is always reached under."""

_LOG = logging.getLogger("bourre.web")


def _style_hash() -> str:
    text = (Path(__file__).parent / "templates" / "base.html").read_text(encoding="utf-8")
    m = re.search(r"<style>(.*?)</style>", text, re.S)
    digest = hashlib.sha256((m.group(1) if m else "").encode()).digest()
    return "'sha256-" + base64.b64encode(digest).decode() + "'"


def security_headers() -> list[tuple[bytes, bytes]]:
    """The headers every answer carries."""
    csp = (
        f"default-src 'none'; script-src 'self'; style-src {_style_hash()}; img-src 'self';"
        " form-action 'self';"
        " frame-ancestors 'none'; base-uri 'none'"
    )
    return [
        (b"content-security-policy", csp.encode()),
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
        (b"cache-control", b"no-store"),
    ]


def _hostname(host: str) -> str | None:
    """The name in a ``Host`` header (without its port), or ``None`` if malformed."""
    host = host.strip().lower()
    if host.startswith("["):
        name, bracket, port = host[1:].partition("]")
        if not bracket or (port and not re.fullmatch(r":[0-9]{1,5}", port)):
            return None
        return name
    name, colon, port = host.partition(":")
    if colon and not re.fullmatch(r"[0-9]{1,5}", port):
        return None
    return name or None


class Guard:
    """Wraps an ASGI app (see the module).  ``hosts``: names the server is reached
    under besides :data:`LOCAL_HOSTS`."""

    def __init__(
        self,
        app: App,
        hosts: Iterable[str] = (),
        *,
        max_body: int,
        body_seconds: float = BODY_SECONDS,
    ) -> None:
        self.app, self.max_body, self.body_seconds = app, max_body, body_seconds
        self.hosts = LOCAL_HOSTS | {h.strip("[]").lower() for h in hosts}
        self.headers = security_headers()

    async def _answer(
        self, send: Send, status: int, text: str, *extra: tuple[bytes, bytes]
    ) -> None:
        body = (
            '<!doctype html><html lang="en"><meta charset="utf-8"><title>Bourré referee'
            f'</title><h1>That did not work</h1><p role="alert">{html.escape(text)}</p></html>'
        ).encode()
        headers = [
            (b"content-type", b"text/html; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
            *self.headers,
            *extra,
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        """Why a request is refused before it is read, if it is."""
        headers: dict[bytes, list[bytes]] = {}
        for k, v in scope.get("headers", []):
            headers.setdefault(k.lower(), []).append(v)
        hosts = headers.get(b"host", [])
        if len(hosts) != 1:
            return 400, "the request must name one host"
        host = hosts[0].decode("latin-1")
        if _hostname(host) not in self.hosts:
            return 400, "this referee is not served under that host name"
        method = scope.get("method", "")
        if method not in ("GET", "HEAD", "POST"):
            return 405, "only GET, HEAD and POST are answered"
        if method != "POST":
            return None
        sites = headers.get(b"sec-fetch-site", [])
        for origin in headers.get(b"origin", []):
            scheme = scope.get("scheme", "http")
            if origin == b"null" and sites:  # an opaque origin: the browser's own word decides
                continue
            if origin.decode("latin-1").lower() != f"{scheme}://{host.lower()}":
                return 403, "a form of another site may not post to the referee"
        for site in sites:
            if site.lower() not in (b"same-origin", b"none"):
                return 403, "a form of another site may not post to the referee"
        for length in headers.get(b"content-length", []):
            if not length.isdigit() or len(length) > 12 or int(length) > self.max_body:
                return 413, f"the form is too large (at most {self.max_body // 1024} kB)"
        return None

    async def _body(self, receive: Receive) -> bytes | int | None:
        """The whole body; the status to answer (408, 413) when it cannot be read in
        time or is too large; ``None`` when the client left."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_seconds
        body = bytearray()
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                return 408
            if message["type"] == "http.disconnect":
                return None
            body += message.get("body", b"")
            if len(body) > self.max_body:
                return 413
            if not message.get("more_body", False):
                return bytes(body)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = failed = False

        async def guarded_send(message: Message) -> None:
            nonlocal started, failed
            if failed:
                return  # the body of a server error page, replaced below
            if message["type"] == "http.response.start":
                status = int(message.get("status", 500))
                if status >= 500 and status != 503:  # Starlette's page for a bug (503: busy)
                    failed = True
                    return
                started = True
                names = {k.lower() for k, _ in self.headers}
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": kept + self.headers}
            await send(message)

        refusal = self._refusal(scope)
        if refusal is not None:
            extra = [(b"allow", b"GET, HEAD, POST")] if refusal[0] == 405 else []
            await self._answer(send, *refusal, *extra)
            return
        inner = receive
        if scope["method"] == "POST":
            body = await self._body(receive)
            if body is None:
                return
            if isinstance(body, int):
                words = {408: "the form did not arrive in time", 413: "the form is too large"}
                await self._answer(send, body, words[body], (b"connection", b"close"))
                return
            sent = False

            async def replay() -> Message:
                nonlocal sent
                if not sent:
                    sent = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            inner = replay
        try:
            await self.app(scope, inner, guarded_send)
        except Exception:
            _LOG.exception("bourre serve: a page failed on %s %s", scope["method"], scope["path"])
            failed = True
        if failed and not started:
            await self._answer(send, 400, "this request could not be refereed")

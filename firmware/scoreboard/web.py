"""The web view: a page served on a local port, kept live with server-sent events.

    /                 the table's page (the venue's, in venue mode)
    /table/ID         a table's page (in venue mode, every table of the venue has one)
    /events[?table=]  the event stream: a `table` event per changed table, `broker` events
    /tables.json      the same messages once, for scripts and curl

A `table` event carries the table's `state` and `status` payloads as they arrived, plus the
reason of its last ruling and of its recent rulings rendered in every language
(rules.reasons.render), so the page shows them in the viewer's language without the rules.
Each changed table is sent once per change however many viewers there are: the encoded event
is kept until the table changes again.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from firmware.scoreboard.model import Model, TableView
from firmware.scoreboard.page import render_page
from firmware.scoreboard.payloads import LastRuling, RulingPayload, reason
from rules.reasons import LANGUAGES

log = logging.getLogger(__name__)

Json = dict[str, Any]

DEFAULT_PORT = 8075
# A comment line this often keeps proxies from closing an idle stream and finds dead viewers.
KEEPALIVE_SECONDS = 15.0
# How long a stream waits for news before looking at whether the server is stopping.
POLL_SECONDS = 0.5


def reasons(ruling: LastRuling | RulingPayload) -> dict[str, str]:
    """A ruling's reason in every language, from its code and arguments."""
    return {lang: reason(ruling, lang) for lang in LANGUAGES}


def table_message(view: TableView) -> Json:
    state = view.state
    last = None if state is None else state.get("last_ruling")
    return {
        "table": view.table,
        "state": state,
        "status": view.status,
        "reason": None if last is None else reasons(last),
        "rulings": [
            {"seq": r["seq"], "foul": bool(r.get("foul")), "reason": reasons(r)}
            for r in view.rulings
        ],
    }


class _Encoded:
    """Each table's latest `table` event, encoded once for all viewers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: dict[str, tuple[int, bytes]] = {}

    def event(self, view: TableView) -> bytes:
        with self._lock:
            cached = self._events.get(view.table)
            if cached is not None and cached[0] == view.version:
                return cached[1]
        data = json.dumps(table_message(view), ensure_ascii=False, separators=(",", ":"))
        event = f"event: table\ndata: {data}\n\n".encode()
        with self._lock:
            self._events[view.table] = (view.version, event)
        return event


class WebServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(
        self,
        model: Model,
        *,
        table: str | None,
        address: tuple[str, int] = ("0.0.0.0", DEFAULT_PORT),
    ) -> None:
        """Serve `table`'s page, or with None the venue's (every table in `model`)."""
        self.model = model
        self.table = table
        self.stopping = threading.Event()
        self.encoded = _Encoded()
        super().__init__(address, _Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        shown = "localhost" if host in ("0.0.0.0", "::") else str(host)
        return f"http://{shown}:{port}/"

    def serves(self, table: str) -> bool:
        return self.table is None or table == self.table

    def start(self) -> threading.Thread:
        # A short poll so that stop() (and each test) does not wait half a second.
        thread = threading.Thread(
            target=self.serve_forever, args=(0.1,), name="scoreboard-web", daemon=True
        )
        thread.start()
        return thread

    def stop(self) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: WebServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        path = unquote(url.path)
        table = parse_qs(url.query).get("table", [None])[0]
        page_of = path.removeprefix("/table/") if path.startswith("/table/") else None
        if path == "/":
            venue = self.server.table is None
            self._send(
                "text/html; charset=utf-8", render_page(table=self.server.table, venue=venue)
            )
        elif page_of and self.server.serves(page_of):
            self._send("text/html; charset=utf-8", render_page(table=page_of, venue=False))
        elif path == "/events" and (table is None or self.server.serves(table)):
            self._stream(table or self.server.table)
        elif path == "/tables.json":
            snapshot = self.server.model.snapshot()
            views = [v for v in snapshot.changed_since(0) if self.server.serves(v.table)]
            body = json.dumps([table_message(v) for v in views], ensure_ascii=False)
            self._send("application/json", body.encode())
        else:
            self.send_error(HTTPStatus.NOT_FOUND)

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    def _send(self, content_type: str, body: bytes) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _stream(self, table: str | None) -> None:
        """Every table (or `table`) now, then each change, until the viewer goes away."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")  # nginx: pass events on at once
        self.send_header("Connection", "close")  # the stream ends when the connection does
        self.end_headers()
        server = self.server
        version, connected = 0, None
        quiet_since = time.monotonic()
        try:
            self.wfile.write(b"retry: 2000\n\n")
            while not server.stopping.is_set():
                snapshot = server.model.wait(version, POLL_SECONDS)
                chunks = [
                    server.encoded.event(view)
                    for view in snapshot.changed_since(version)
                    if table is None or view.table == table
                ]
                version = snapshot.version
                if snapshot.connected != connected:
                    connected = snapshot.connected
                    data = json.dumps({"connected": connected})
                    chunks.append(f"event: broker\ndata: {data}\n\n".encode())
                if not chunks and time.monotonic() - quiet_since > KEEPALIVE_SECONDS:
                    chunks.append(b": keepalive\n\n")
                if chunks:
                    self.wfile.write(b"".join(chunks))
                    self.wfile.flush()
                    quiet_since = time.monotonic()
        except OSError:  # the viewer went away: a closed tab, a phone off the Wi-Fi
            log.debug("viewer %s left", self.address_string())
        self.close_connection = True

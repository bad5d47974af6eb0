"""systemd's notify protocol over a plain datagram socket: readiness, status and the watchdog.

No dependency: `systemd-python` builds only from source on PyPI, and the protocol is one
datagram per message to the socket named in ``$NOTIFY_SOCKET``. Outside systemd (no
``$NOTIFY_SOCKET``) every call does nothing, so the loop calls it unconditionally::

    notifier = Notifier.from_environment()
    notifier.ready("refereeing table1")
    for frame in camera:
        notifier.watchdog()   # rate-limited: one datagram per half watchdog interval
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


class Notifier:
    def __init__(
        self,
        address: str | None,
        watchdog_interval: float | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._address = address
        # Ping twice per interval, as sd_watchdog_enabled(3) recommends, so one late frame
        # does not get the service killed.
        self._period = None if watchdog_interval is None else watchdog_interval / 2
        self._clock = clock
        self._last_ping = -float("inf")
        self._socket: socket.socket | None = None
        self._failed = False

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Notifier:
        """The notifier systemd set up for this process, or one that does nothing."""
        address = environ.get("NOTIFY_SOCKET") or None
        interval: float | None = None
        usec = environ.get("WATCHDOG_USEC")
        pid = environ.get("WATCHDOG_PID")
        # WATCHDOG_PID names the process the watchdog is meant for; a child must not ping.
        if usec and usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            interval = int(usec) / 1e6
        return cls(address, interval)

    @property
    def enabled(self) -> bool:
        return self._address is not None

    @property
    def watchdog_interval(self) -> float | None:
        return None if self._period is None else self._period * 2

    def ready(self, status: str = "") -> None:
        self._send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, text: str) -> None:
        self._send(f"STATUS={text}")

    def stopping(self) -> None:
        self._send("STOPPING=1")

    def watchdog(self) -> None:
        """Tell systemd the loop is alive; call it only when a frame has been processed."""
        if self._period is None:
            return
        now = self._clock()
        if now - self._last_ping < self._period:
            return
        self._last_ping = now
        self._send("WATCHDOG=1")

    def _send(self, message: str) -> None:
        if self._address is None:
            return
        # A leading '@' is Linux's abstract socket namespace, spelt with a NUL byte.
        address = "\0" + self._address[1:] if self._address.startswith("@") else self._address
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                # Never block the frame loop: a datagram socket whose reader is behind (a busy
                # systemd; Linux queues 10 datagrams) would block sendto() until it catches up.
                self._socket.setblocking(False)
            self._socket.sendto(message.encode(), address)
        except BlockingIOError:
            pass  # systemd has this kind of message queued already; the next one will do
        except OSError as exc:
            if not self._failed:  # once is enough: the loop calls this every frame
                log.warning("cannot notify systemd at %s: %s", self._address, exc)
                self._failed = True

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None

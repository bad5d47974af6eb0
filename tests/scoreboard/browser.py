"""Headless Chromium driven over its DevTools pipe: load a page, query its DOM, screenshot it.

Debian's `chromium` and nothing downloaded. `--remote-debugging-pipe` speaks the DevTools
protocol as NUL-separated JSON on file descriptors 3 (to Chromium) and 4 (from it), so no
websocket client is needed; one browser serves a whole test module, a page load takes
milliseconds, and a test can wait for the live page to change after it publishes to MQTT —
which `--dump-dom` (one snapshot, after the page is idle, which a live event stream never is)
cannot do.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-color-profile=srgb",
    "--remote-debugging-pipe",
)
Image = npt.NDArray[np.uint8]  # RGB


class BrowserError(RuntimeError):
    pass


def _high(pipe: tuple[int, int]) -> tuple[int, int]:
    """The pipe's ends moved to descriptors above 4, so the shell's `3<&N 4>&M` cannot clash."""
    moved = tuple(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in pipe)
    for fd in pipe:
        os.close(fd)
    return moved[0], moved[1]


class Browser:
    def __init__(self) -> None:
        self.profile = tempfile.mkdtemp(prefix="tenball-chromium-")
        to_chromium, self._to_chromium = _high(os.pipe())
        self._from_chromium, from_chromium = _high(os.pipe())
        # Chromium wants the pipes as descriptors 3 and 4: bash puts them there (dash cannot
        # redirect descriptors above 9; a
        # preexec_fn could too, but is unsafe once the test has paho's threads running).
        script = f'exec "$0" "$@" 3<&{to_chromium} 4>&{from_chromium}'
        self.process = subprocess.Popen(
            ["/bin/bash", "-c", script, CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}"],
            pass_fds=(to_chromium, from_chromium),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_chromium)
        os.close(from_chromium)
        self._buffer = b""
        self._id = 0
        self.session = ""
        self.target = ""

    def open(self, url: str, *, width: int = 1280, height: int = 800, mobile: bool = False) -> None:
        """Load `url` in a fresh tab of that size (a phone: `mobile`, touch and its viewport)."""
        previous = self.target
        self.target = self.call("Target.createTarget", url="about:blank")["targetId"]
        attached = self.call("Target.attachToTarget", targetId=self.target, flatten=True)
        self.session = attached["sessionId"]
        if previous:
            self.call("Target.closeTarget", targetId=previous)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )
        self.call("Page.navigate", url=url)

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 10.0) -> Any:
        """Poll `expression` until it is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression)
            except BrowserError:
                value = None  # the page is still loading
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out waiting for {expression}")
            time.sleep(0.05)

    def text(self, selector: str) -> str | None:
        """The text of the first element `selector` finds; None when there is none."""
        found: str | None = self.evaluate(
            f"(e => e && e.textContent)(document.querySelector({json.dumps(selector)}))"
        )
        return found

    def screenshot(self, path: Path | None = None) -> Image:
        data = base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])
        if path is not None:
            path.write_bytes(data)
        bgr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        assert bgr is not None, "Chromium's screenshot is not a PNG"
        return np.ascontiguousarray(bgr[:, :, ::-1])

    def call(self, method: str, **params: Any) -> Any:
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self._to_chromium, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_chromium, 1 << 16)
            if not chunk:
                raise BrowserError("chromium closed its DevTools pipe")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(line)
        return message

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_chromium)
        os.close(self._from_chromium)
        shutil.rmtree(self.profile, ignore_errors=True)

"""Real parts for the referee-service tests: a recording on disk, the service as a process, and
an MQTT subscriber that sees what a scoreboard would."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from rules import Session
from tests.broker import Broker

REPO = Path(__file__).resolve().parents[2]
TABLE = "t1"
ROOT = f"tenball/v1/{TABLE}"
PLAYERS = {"A": "Ann", "B": "Bob"}

# A short match: a legal break, a called ball made, a foul (wrong ball first), a made call by
# the incoming player, and a miss. Declarations come between the shots, as a panel sends them.
SHOTS: tuple[dict[str, Any], ...] = (
    {
        "first_contact": 1,
        "pocketed": [{"ball": 4, "pocket": "FL"}],
        "rails_after_contact": [
            {"ball": 1, "rail": "foot"},
            {"ball": 5, "rail": "left"},
            {"ball": 7, "rail": "right"},
            {"ball": "cue", "rail": "head"},
        ],
    },
    {"first_contact": 1, "pocketed": [{"ball": 1, "pocket": "SR"}]},
    {"first_contact": 3, "rails_after_contact": [{"ball": 3, "rail": "left"}]},
    {"first_contact": 2, "pocketed": [{"ball": 2, "pocket": "HL"}]},
    {"first_contact": 3, "rails_after_contact": [{"ball": "cue", "rail": "foot"}]},
)
CALLS: tuple[dict[str, Any] | None, ...] = (
    None,
    {"cmd": "call", "ball": 1, "pocket": "SR", "from": "panel"},
    {"cmd": "call", "ball": 2, "pocket": "FR", "from": "panel"},
    {"cmd": "call", "ball": 2, "pocket": "HL", "from": "panel"},
    {"cmd": "call", "ball": 3, "pocket": "FR", "from": "panel"},
)


@dataclass(frozen=True)
class Recording:
    path: Path
    shots: list[dict[str, Any]]
    inputs: list[dict[str, Any]]
    duration: float


def make_recording(
    directory: Path, *, fps: float = 30.0, spacing: float = 1.0, tail: float = 0.5
) -> Recording:
    """A recording directory of contracts §2 (MJPEG video, timestamps, inputs, expected facts)
    holding :data:`SHOTS`, one every ``spacing`` seconds, then ``tail`` seconds of rest."""
    directory.mkdir(parents=True)
    shots: list[dict[str, Any]] = []
    inputs: list[dict[str, Any]] = []
    for number, (facts, call) in enumerate(zip(SHOTS, CALLS, strict=True), start=1):
        t_start = round(0.5 + spacing * (number - 1), 3)
        t_end = round(t_start + 0.6 * spacing, 3)
        if call is not None:
            inputs.append({"t": round(t_start - 0.2 * spacing, 3), "kind": "cmd", "cmd": call})
        for drop in facts.get("pocketed", []):
            inputs.append({"t": round(t_start + 0.3 * spacing, 3), "kind": "pocket", **drop})
        shots.append({"shot": number, "t_start": t_start, "t_end": t_end, **facts})
    for item in inputs:
        if item["kind"] == "pocket":
            del item["ball"]
    duration = shots[-1]["t_end"] + tail
    count = int(duration * fps) + 1
    writer = cv2.VideoWriter(
        str(directory / "video.avi"), cv2.VideoWriter.fourcc(*"MJPG"), fps, (32, 24)
    )
    with (directory / "timestamps.txt").open("w") as stamps:
        for index in range(count):
            image = np.full((24, 32, 3), index % 256, dtype=np.uint8)
            writer.write(image)
            stamps.write(f"{index / fps:.6f}\n")
    writer.release()
    meta = {
        "format": "tenball-recording/1",
        "fps": fps,
        "table": {"size_mm": [2540, 1270], "corners_px": [[0, 0], [31, 0], [31, 23], [0, 23]]},
        "players": PLAYERS,
        "race_to": 2,
    }
    (directory / "recording.json").write_text(json.dumps(meta))
    (directory / "inputs.jsonl").write_text("".join(json.dumps(i) + "\n" for i in inputs))
    (directory / "expected.jsonl").write_text("".join(json.dumps(s) + "\n" for s in shots))
    return Recording(directory, shots, inputs, duration)


def expected_rulings(directory: Path) -> list[dict[str, Any]]:
    """The rulings a recording directory should get, worked out straight from the engine: its
    match set up as contracts §2 says, then its commands and its shots' facts in time order."""
    meta = json.loads((directory / "recording.json").read_text())
    session = Session()
    if "state" in meta:
        state = (
            {"players": meta["players"], **meta["state"]} if "players" in meta else meta["state"]
        )
        session.handle_json({"cmd": "load", "state": state, "ruleset": meta.get("ruleset")})
    else:
        keys = ("players", "race_to", "ruleset", "options", "breaker")
        session.handle_json({"cmd": "new_match", **{k: meta[k] for k in keys if k in meta}})
    inputs = [json.loads(line) for line in (directory / "inputs.jsonl").read_text().splitlines()]
    shots = [json.loads(line) for line in (directory / "expected.jsonl").read_text().splitlines()]
    events: list[tuple[float, dict[str, Any]]] = [
        (item["t"], item["cmd"]) for item in inputs if item["kind"] == "cmd"
    ]
    events += [(shot["t_start"], {**shot, "cmd": "shot"}) for shot in shots]
    rulings = []
    for _, command in sorted(events, key=lambda e: e[0]):
        reply = session.handle_json(command)
        if "seq" in reply:
            rulings.append(reply)
    return rulings


def write_config(path: Path, *, broker: Broker | None, journal: Path, extra: str = "") -> Path:
    mqtt_section = (
        f'[mqtt]\nhost = "{broker.host}"\nport = {broker.port}\n' if broker is not None else ""
    )
    path.write_text(
        f'[table]\nid = "{TABLE}"\n\n{mqtt_section}\n[journal]\npath = "{journal}"\n\n'
        f"[status]\ninterval = 0.5\n{extra}"
    )
    return path


# Until `tenball run` is wired into firmware/cli.py, the module's own entry points.


def service(args: Sequence[str], **kwargs: Any) -> subprocess.Popen[str]:
    """``tenball run ARGS`` as a process of its own.

    These tests are about the service, so on a recording its shots come from the recorded
    truth (``--detector recorded``) unless a test asks otherwise; vision has its own tests.
    """
    if "--source" in args and "--detector" not in args:
        args = [*args, "--detector", "recorded"]
    return subprocess.Popen(
        [sys.executable, "-m", "firmware.cli", "run", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def finish(process: subprocess.Popen[str], timeout: float = 30) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out, err


class Subscriber:
    """A scoreboard's view of the broker: everything under the table's root, QoS 1, with a
    persistent session so that nothing is missed across a broker restart."""

    def __init__(self, broker: Broker, name: str = "watcher", *, clean: bool = False) -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self._arrived = threading.Condition()
        self._subscribed = threading.Event()
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"test-{name}", clean_session=clean
        )
        client.on_connect = self._on_connect
        client.on_message = self._on_message
        client.on_subscribe = lambda *args: self._subscribed.set()
        client.reconnect_delay_set(1, 1)
        client.connect_async(broker.host, broker.port, keepalive=5)
        client.loop_start()
        self.client = client
        if not self._subscribed.wait(10):
            raise RuntimeError("the subscriber could not subscribe")

    def _on_connect(self, client: mqtt.Client, *args: Any) -> None:
        # Without it Nagle's algorithm holds each command back ~40 ms behind our own PUBACKs.
        sock = client.socket()
        if isinstance(sock, socket.socket):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        client.subscribe(f"{ROOT}/#", qos=1)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: Any) -> None:
        with self._arrived:
            self.messages.append((message.topic, bytes(message.payload), bool(message.retain)))
            self._arrived.notify_all()

    def on(self, topic: str) -> list[dict[str, Any]]:
        with self._arrived:
            return [json.loads(p) for t, p, _ in self.messages if t == f"{ROOT}/{topic}"]

    def rulings(self) -> list[dict[str, Any]]:
        return self.on("ruling")

    def wait(self, condition: Callable[[], bool], timeout: float = 20) -> bool:
        """Wait until ``condition()`` holds, checking it whenever a message arrives."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._arrived.wait(min(left, 0.5))
        return True

    def publish(self, topic: str, payload: bytes | str) -> None:
        self.client.publish(f"{ROOT}/{topic}", payload, qos=1).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def without_repeats(rulings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a subscriber keeps when it drops what it has seen by ``seq`` (contracts §6)."""
    kept: list[dict[str, Any]] = []
    for ruling in rulings:
        if not kept or ruling["seq"] > kept[-1]["seq"]:
            kept.append(ruling)
    return kept


def retained_state(broker: Broker, timeout: float = 5) -> dict[str, Any] | None:
    """The retained ``state`` as a scoreboard connecting now gets it."""
    got: list[dict[str, Any]] = []
    done = threading.Event()

    def on_message(client: mqtt.Client, userdata: Any, message: Any) -> None:
        if message.retain:
            got.append(json.loads(message.payload))
        done.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_message = on_message
    client.on_connect = lambda c, *args: c.subscribe(f"{ROOT}/state", qos=1)
    client.connect(broker.host, broker.port)
    client.loop_start()
    done.wait(timeout)
    client.disconnect()
    client.loop_stop()
    return got[0] if got else None

"""A real mosquitto on a free loopback port, for tests (contracts: test with real parts)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Broker:
    host: str
    port: int
    config: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection((self.host, self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"mosquitto did not start on {self.address}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@contextmanager
def running_broker(workdir: Path, *, persistence: bool = True) -> Iterator[Broker]:
    """mosquitto with persistence and raised queue limits, as the shipped config has."""
    port = free_port()
    workdir.mkdir(parents=True, exist_ok=True)
    config = workdir / "mosquitto.conf"
    config.write_text(
        "\n".join(
            [
                f"listener {port} 127.0.0.1",
                "allow_anonymous true",
                f"persistence {'true' if persistence else 'false'}",
                f"persistence_location {workdir}/",
                "autosave_interval 1",
                "max_queued_messages 100000",
                "max_inflight_messages 100",
                "set_tcp_nodelay true",  # as deploy/mosquitto/tenball.conf: no Nagle delays
                # As root mosquitto drops to the `mosquitto` user, which cannot write the
                # persistence file under a root-owned test directory: retained messages and
                # persistent sessions would then silently not survive a broker restart.
                *(["user root"] if os.geteuid() == 0 else []),
                "",
            ]
        )
    )
    broker = Broker("127.0.0.1", port, config)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()

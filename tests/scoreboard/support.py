"""Helpers for the scoreboard tests: waiting for a condition, publishing like a referee."""

from __future__ import annotations

import time
from collections.abc import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware.scoreboard.recorded import Publication
from tests.broker import Broker


def wait_until(condition: Callable[[], object], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s")
        time.sleep(0.01)


class Publisher:
    def __init__(self, broker: Broker) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()

    def send(self, *publications: Publication) -> None:
        for p in publications:
            self.raw(p.topic, p.encoded(), retain=p.retain)

    def raw(self, topic: str, payload: bytes | str, *, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

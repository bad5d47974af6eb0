"""The MQTT side of a scoreboard: subscribe to a table (or all of a venue's) and fill the model.

A scoreboard needs nothing but the contract's topics (contracts.md §6): `state` and `status`
are retained, so it shows the table as soon as it connects; `ruling` adds the recent rulings.
paho's network thread reconnects by itself (1 s, doubling to 30 s) and the subscriptions are
made again on every connect, so a broker restart costs a few seconds of "no connection".
"""

from __future__ import annotations

import logging
import re
import uuid
from dataclasses import dataclass

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from firmware import topics
from firmware.scoreboard import payloads
from firmware.scoreboard.model import Model
from firmware.scoreboard.payloads import PayloadError

log = logging.getLogger(__name__)

DEFAULT_PORT = 1883
KINDS = ("state", "status", "ruling")
# A table id is one topic level: no wildcards, no separators, no control characters.
TABLE_ID = re.compile(r"[^\s/+#]{1,64}")


@dataclass(frozen=True)
class Address:
    host: str
    port: int = DEFAULT_PORT

    @classmethod
    def parse(cls, text: str) -> Address:
        """`HOST`, `HOST:PORT`, or `[IPv6]:PORT`; ValueError with a message otherwise."""
        match = re.fullmatch(r"\[([^\]]+)\](?::(\d+))?|([^:\[\]]+)(?::(\d+))?", text.strip())
        if match is None:
            raise ValueError(f"{text!r} is not HOST[:PORT]")
        host = match.group(1) or match.group(3)
        port = int(match.group(2) or match.group(4) or DEFAULT_PORT)
        if not 0 < port < 65536:
            raise ValueError(f"port {port} is out of range")
        return cls(host, port)

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def check_table_id(table: str) -> str:
    if TABLE_ID.fullmatch(table) is None:
        raise ValueError(f"{table!r} is not a table id (one topic level, no + # / or spaces)")
    return table


def subscriptions(table: str | None) -> list[str]:
    """One table's topics, or with None every table's (a venue)."""
    level = "+" if table is None else table
    return [f"{topics.ROOT}/{level}/{kind}" for kind in KINDS]


class Subscriber:
    """Keeps `model` up to date with `table`'s topics (every table's when `table` is None)."""

    def __init__(self, address: Address, model: Model, *, table: str | None) -> None:
        self.address = address
        self.model = model
        self.table = table
        # A unique id: two scoreboards with the same id would disconnect each other forever.
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"tenball-scoreboard-{uuid.uuid4().hex[:12]}"
        )
        self.client.reconnect_delay_set(1, 30)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def start(self) -> None:
        self.client.connect_async(self.address.host, self.address.port, keepalive=30)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.ConnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason.is_failure:
            log.warning("broker %s refused the connection: %s", self.address, reason)
            return
        log.info("connected to %s", self.address)
        client.subscribe([(topic, 1) for topic in subscriptions(self.table)])
        self.model.set_connected(True)

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.DisconnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        log.info("disconnected from %s (%s); reconnecting", self.address, reason)
        self.model.set_connected(False)

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        # Nothing may escape this callback: an exception here would end paho's thread.
        try:
            self.handle(msg.topic, bytes(msg.payload), retained=bool(msg.retain))
        except PayloadError as exc:
            log.warning("ignored a message on %s: %s", msg.topic, exc)
            self.model.ignore(f"{msg.topic}: {exc}")

    def handle(self, topic: str, payload: bytes, *, retained: bool) -> None:
        """One message into the model; PayloadError when it is malformed."""
        table, kind = topics.table_of(topic), topic.rsplit("/", 1)[-1]
        if table is None or kind not in KINDS or (self.table not in (None, table)):
            raise PayloadError("not a scoreboard topic")
        if kind == "ruling":
            if not self.model.put_ruling(table, payloads.ruling(payloads.decode(payload))):
                log.debug("dropped ruling on %s: already seen", topic)
            return
        # An empty retained payload is the broker's way of deleting the retained message.
        obj = None if payload == b"" else payloads.decode(payload)
        if kind == "status":
            self.model.put_status(table, None if obj is None else payloads.status(obj))
            return
        board = None if obj is None else payloads.state(obj, table=table)
        if not self.model.put_state(table, board, retained=retained):
            log.debug("dropped state on %s: older than the one shown", topic)

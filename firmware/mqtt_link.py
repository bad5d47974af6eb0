"""The table's MQTT connection (paho-mqtt 2): commands in, rulings and state out.

Set up as the platform notes require: callback API version 2; the last will (retained
``status`` ``{"online": false}``) and ``max_inflight_messages_set`` before connecting;
``connect_async`` + ``loop_start`` so the referee loop never waits for the broker; reconnection
backing off from 1 to 30 s. Callbacks run on paho's network thread and only hand data over:

- a message on ``cmd`` becomes an :class:`Inbound` on :attr:`MqttLink.inbound`; a payload over
  the size limit is not kept, only its size (the referee answers ``too_large``);
- a PUBACK becomes its message id on :attr:`MqttLink.acks` (the publisher's, see
  :mod:`firmware.outbox`); paho calls ``on_publish`` holding its own lock, so no lock of ours
  is taken there.

While the broker is away paho keeps the QoS 1 messages already handed to it and resends them, in
order, on reconnecting; everything else waits in the journal's outbox.
"""

from __future__ import annotations

import logging
import queue
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware.config import MqttSettings
from firmware.intake import MAX_COMMAND_BYTES
from firmware.journal import dumps
from firmware.topics import Topics

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Inbound:
    """A command as received: ``t`` on ``time.monotonic()``; ``payload`` None when over the
    size limit."""

    t: float
    origin: str
    payload: bytes | None
    size: int


class MqttLink:
    def __init__(
        self,
        settings: MqttSettings,
        topics: Topics,
        *,
        client_id: str | None = None,
        max_inflight: int = 40,
        inbound: queue.SimpleQueue[Inbound] | None = None,
        status: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self.settings = settings
        self.topics = topics
        self.inbound: queue.SimpleQueue[Inbound] = inbound or queue.SimpleQueue()
        self.acks: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._status = status
        self._connected = threading.Event()
        self._stopping = False
        self._notify: list[Callable[[], None]] = []
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id or f"tenball-{topics.table}-referee",
            clean_session=True,  # a restarted referee must not get commands sent to the last one
            protocol=mqtt.MQTTv311,
        )
        client.will_set(topics.status, dumps({"online": False}), qos=1, retain=True)
        client.max_inflight_messages_set(max_inflight)
        client.reconnect_delay_set(1, 30)
        if settings.username is not None:
            client.username_pw_set(settings.username, settings.password())
        if settings.tls is not None:
            tls = settings.tls
            client.tls_set(
                ca_certs=None if tls.ca_file is None else str(tls.ca_file),
                certfile=None if tls.cert_file is None else str(tls.cert_file),
                keyfile=None if tls.key_file is None else str(tls.key_file),
                cert_reqs=ssl.CERT_REQUIRED,
            )
            client.tls_insecure_set(tls.insecure)
        client.on_connect = self._handle_connect
        client.on_disconnect = self._handle_disconnect
        client.on_message = self._handle_message
        client.on_publish = self._handle_publish
        self._client = client

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def notify(self, callback: Callable[[], None]) -> None:
        """``callback`` runs (on paho's thread, so it must be quick) when the connection comes
        up or goes down and when a PUBACK arrives."""
        self._notify.append(callback)

    def start(self) -> None:
        self._client.connect_async(
            self.settings.host, self.settings.port, keepalive=self.settings.keepalive
        )
        self._client.loop_start()

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> int:
        """Hand a message to paho; returns its message id (its PUBACK comes on :attr:`acks`).
        Not connected, paho queues a QoS 1 message and sends it on reconnecting."""
        info = self._client.publish(topic, payload, qos=qos, retain=retain)
        return int(info.mid)

    def publish_status(self, status: dict[str, Any]) -> None:
        """The retained ``status``, only while connected: a status is news only when fresh."""
        if self.connected:
            self._client.publish(self.topics.status, dumps(status), qos=1, retain=True)

    def stop(self, final_status: dict[str, Any], timeout: float = 2.0) -> None:
        """Say goodbye: a clean disconnect sends no last will, so publish the offline status."""
        self._stopping = True
        if self.connected:
            info = self._client.publish(self.topics.status, dumps(final_status), qos=1, retain=True)
            deadline = time.monotonic() + timeout
            while not info.is_published() and time.monotonic() < deadline and self.connected:
                time.sleep(0.01)
        self._client.disconnect()
        self._client.loop_stop()

    # ----- paho's thread

    def _handle_connect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if reason.is_failure:
            log.warning("broker %s refused the connection: %s", self.settings.host, reason)
            return
        # paho leaves Nagle's algorithm on, which holds a small packet back while an earlier
        # one is unacknowledged: the ruling right after the facts, the state after the ruling.
        sock = client.socket()
        if isinstance(sock, socket.socket) and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        log.info("connected to %s:%d", self.settings.host, self.settings.port)
        self._connected.set()  # first: the status below reports the broker as connected
        client.subscribe(self.topics.cmd, qos=1)
        if self._status is not None:
            client.publish(self.topics.status, dumps(self._status()), qos=1, retain=True)
        for callback in self._notify:
            callback()

    def _handle_disconnect(
        self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if self._connected.is_set() and not self._stopping:
            log.warning("lost the broker (%s); reconnecting", reason)
        self._connected.clear()
        for callback in self._notify:
            callback()

    def _handle_message(self, client: mqtt.Client, userdata: Any, message: Any) -> None:
        if message.topic != self.topics.cmd:
            return
        payload: bytes = message.payload
        size = len(payload)
        kept = payload if size <= MAX_COMMAND_BYTES else None
        self.inbound.put(Inbound(time.monotonic(), "mqtt", kept, size))

    def _handle_publish(
        self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any
    ) -> None:
        self.acks.put(mid)
        for callback in self._notify:
            callback()

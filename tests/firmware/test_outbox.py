"""The publisher against a real mosquitto: the outbox goes out in order, a row leaves the
journal only when the broker has it, and a broken publisher stops the service."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from pathlib import Path

from firmware.config import MqttSettings
from firmware.journal import Entry, Journal, Message
from firmware.mqtt_link import MqttLink
from firmware.outbox import Publisher
from firmware.topics import Topics
from tests.broker import Broker
from tests.firmware.support import Subscriber


def link_to(broker: Broker) -> MqttLink:
    return MqttLink(MqttSettings(host=broker.host, port=broker.port), Topics("t1"))


def test_the_outbox_is_published_in_order_and_emptied(tmp_path: Path, broker: Broker) -> None:
    watcher = Subscriber(broker)
    journal = Journal.open(tmp_path / "journal.sqlite")
    for seq in range(1, 101):  # more than the publisher's window
        message = Message("tenball/v1/t1/ruling", f'{{"seq": {seq}}}'.encode())
        journal.record(Entry("mqtt", "camera", {"cmd": "x"}, {}, True, seq), [message])
    link = link_to(broker)
    publisher = Publisher(journal.path, link, window=7)
    publisher.start()
    link.start()
    try:
        assert publisher.drain(timeout=10)
        assert watcher.wait(lambda: len(watcher.rulings()) == 100)
    finally:
        link.stop({"online": False})
        publisher.stop()
        watcher.close()

    assert [r["seq"] for r in watcher.rulings()] == list(range(1, 101))
    assert journal.queued_count() == 0
    assert publisher.pending == 0
    journal.close()


def test_a_broken_publisher_says_so(tmp_path: Path, broker: Broker) -> None:
    journal = Journal.open(tmp_path / "journal.sqlite")
    with closing(sqlite3.connect(journal.path)) as db, db:
        db.execute("DROP TABLE outbox")
    failures: list[BaseException] = []
    told = threading.Event()

    def on_failure(error: BaseException) -> None:
        failures.append(error)
        told.set()

    link = link_to(broker)
    publisher = Publisher(journal.path, link, on_failure=on_failure)
    publisher.start()
    publisher.wake()

    assert told.wait(5)
    assert isinstance(failures[0], sqlite3.OperationalError)
    assert publisher.failed is failures[0]
    assert not publisher.drain(timeout=1)
    publisher.stop()
    journal.close()

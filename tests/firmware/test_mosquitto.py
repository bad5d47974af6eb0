"""The shipped broker configuration on a real mosquitto: only the table publishes its topics,
only the referee's devices send commands, everyone else reads."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.broker import MOSQUITTO, Broker, free_port
from tests.firmware.support import (
    REPO,
    TABLE,
    Subscriber,
    expected_rulings,
    finish,
    make_recording,
    service,
)

DEPLOY = REPO / "deploy" / "mosquitto"
USERS = {
    "table1": "t1-secret",
    "table2": "t2-secret",
    "referee-tablet": "tablet-secret",
    TABLE: "service-secret",
}


@dataclass
class Venue(Broker):
    tls_port: int = 0


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[Venue]:
    """mosquitto with deploy/mosquitto/ as installed under /etc/mosquitto, on a free port, and
    beside it a TLS listener (``venue.tls_port``) with a CA of the test's own."""
    if not Path(MOSQUITTO).exists():
        pytest.fail("mosquitto is not installed")
    etc = tmp_path / "etc"
    (etc / "conf.d").mkdir(parents=True)
    port, tls_port = free_port(), free_port()
    make_certificates(etc)
    shipped = (DEPLOY / "tenball.conf").read_text()
    assert "\nlistener 1883\n" in shipped
    listeners = (
        f"\nlistener {port} 127.0.0.1\n"
        f"listener {tls_port} 127.0.0.1\n"
        f"cafile {etc}/ca.crt\ncertfile {etc}/server.crt\nkeyfile {etc}/server.key\n"
    )
    (etc / "conf.d" / "tenball.conf").write_text(
        shipped.replace("/etc/mosquitto/", f"{etc}/").replace("\nlistener 1883\n", listeners)
    )
    (etc / "tenball.acl").write_text((DEPLOY / "tenball.acl").read_text())
    for user, password in USERS.items():
        create = [] if (etc / "tenball.passwd").exists() else ["-c"]
        subprocess.run(
            ["mosquitto_passwd", *create, "-b", str(etc / "tenball.passwd"), user, password],
            check=True,
            capture_output=True,
        )
    # Debian's main file, with this directory for its own.
    main = etc / "mosquitto.conf"
    lines = [f"persistence_location {tmp_path}/", f"include_dir {etc}/conf.d"]
    if os.geteuid() == 0:
        lines.insert(0, "user root")
    main.write_text("\n".join(lines) + "\n")
    broker = Venue("127.0.0.1", port, main, tls_port=tls_port)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def make_certificates(directory: Path) -> None:
    """A CA and a server certificate for 127.0.0.1 signed by it (openssl, as an installer
    would)."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=directory)

    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=test CA",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
    )
    openssl(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=127.0.0.1",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
    )
    (directory / "san.ext").write_text("subjectAltName = IP:127.0.0.1\n")
    openssl(
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        "san.ext",
        "-out",
        "server.crt",
    )


class Client:
    def __init__(self, broker: Broker, user: str | None, *, listen: str | None = None) -> None:
        self.received: list[tuple[str, bytes]] = []
        self._ready = threading.Event()
        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        if user is not None:
            client.username_pw_set(user, USERS[user])
        client.on_message = lambda c, u, m: self.received.append((m.topic, bytes(m.payload)))
        client.on_subscribe = lambda *args: self._ready.set()
        client.on_connect = self._on_connect
        self._listen = listen
        client.connect(broker.host, broker.port)
        client.loop_start()
        self.client = client
        assert self._ready.wait(5)

    def _on_connect(self, client: mqtt.Client, *args: Any) -> None:
        if self._listen is None:
            self._ready.set()
        else:
            client.subscribe(self._listen, qos=1)

    def send(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def delivered(listener: Client, sender: Client, topic: str, payload: bytes) -> bool:
    """Whether ``sender``'s message on ``topic`` reaches ``listener`` (mosquitto acknowledges
    a denied publish all the same and drops it)."""
    sender.send(topic, payload)
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:
        if (topic, payload) in listener.received:
            return True
        time.sleep(0.01)
    return False


def test_only_the_table_publishes_its_topics_and_anyone_reads(venue: Broker) -> None:
    board = Client(venue, None, listen="tenball/v1/#")
    table1, table2 = Client(venue, "table1"), Client(venue, "table2")
    tablet, stranger = Client(venue, "referee-tablet"), Client(venue, None)
    try:
        for topic in ("state", "ruling", "facts", "status", "cmd/result"):
            assert delivered(board, table1, f"tenball/v1/table1/{topic}", b"real")
        assert not delivered(board, stranger, "tenball/v1/table1/state", b"forged")
        assert not delivered(board, table2, "tenball/v1/table1/ruling", b"other table")
        assert not delivered(board, tablet, "tenball/v1/table1/state", b"tablet")
    finally:
        for client in (board, table1, table2, tablet, stranger):
            client.close()


def test_only_the_referees_devices_send_commands(venue: Broker) -> None:
    table = Client(venue, "table1", listen="tenball/v1/table1/cmd")
    tablet, stranger, other = (
        Client(venue, "referee-tablet"),
        Client(venue, None),
        Client(venue, "table2"),
    )
    try:
        assert delivered(table, tablet, "tenball/v1/table1/cmd", b'{"cmd": "undo", "id": 1}')
        assert not delivered(table, stranger, "tenball/v1/table1/cmd", b'{"cmd": "undo", "id": 2}')
        assert not delivered(table, other, "tenball/v1/table1/cmd", b'{"cmd": "undo", "id": 3}')
    finally:
        for client in (table, tablet, stranger, other):
            client.close()


def test_a_wrong_password_is_refused(venue: Broker) -> None:
    answers: list[Any] = []
    answered = threading.Event()

    def on_connect(client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        answers.append(reason)
        answered.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.username_pw_set("table1", "guess")
    client.on_connect = on_connect
    client.connect(venue.host, venue.port)
    client.loop_start()
    try:
        assert answered.wait(5)
    finally:
        client.loop_stop()
    assert answers[0].is_failure


def test_the_service_logs_in_over_tls_and_publishes_as_its_table(
    tmp_path: Path, venue: Venue
) -> None:
    watcher = Subscriber(venue)  # anonymous, on the plain listener: it may read
    password = tmp_path / "mqtt.password"
    password.write_text(USERS[TABLE] + "\n")
    config = tmp_path / "tenball.toml"
    config.write_text(
        f'[table]\nid = "{TABLE}"\n\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {venue.tls_port}\nusername = "{TABLE}"\n'
        f'password_file = "{password}"\n\n'
        f'[mqtt.tls]\nca_file = "{tmp_path}/etc/ca.crt"\n\n'
        f'[journal]\npath = "{tmp_path}/journal.sqlite"\n'
    )
    recording = make_recording(tmp_path / "recording")
    try:
        code, _, err = finish(service(["--config", str(config), "--source", str(recording.path)]))
        assert code == 0, err
        assert watcher.wait(lambda: len(watcher.rulings()) >= 5, timeout=10)
    finally:
        watcher.close()
    assert watcher.rulings() == expected_rulings(recording.path)
    assert watcher.on("state")[-1]["seq"] == 5

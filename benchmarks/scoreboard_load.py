"""Club-scale load on the venue view: many tables' MQTT traffic into one broker, sped up.

Each table plays a fixture match (fixtures/matches/*.jsonl, other players per table) through the
real rules engine; its states, rulings and status go to one mosquitto at `--speed` times real
play (shots 20–45 s apart, declarations a few seconds before their shot; tables start up to two
minutes apart, as a venue fills). The venue view runs as the installer runs it, in its own
process (`python -m firmware.scoreboard --venue --view web`), with one viewer on its event
stream; the venue terminal view runs beside it. Reported:

- update latency: from the referee's publish to the event reaching the viewer, for every
  state the view sent (a state superseded before it was sent is counted as coalesced);
- CPU and peak memory of each view process over the run;
- mixing: every state the viewer received belongs to the table it was sent for, and each
  table ends on its own last state.

    .venv/bin/python benchmarks/scoreboard_load.py                 # 64 tables at 10× speed
    .venv/bin/python benchmarks/scoreboard_load.py --speed 0       # as fast as possible
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware.scoreboard.recorded import (
    MATCHES,
    Publication,
    load_commands,
    referee_traffic,
    with_players,
)

ROOT = Path(__file__).resolve().parents[1]
FIRST = ["Ann", "Bob", "Chen", "Dana", "Eli", "Femke", "Gal", "Hugo", "Iris", "Jaap", "Karin"]
Json = dict[str, Any]


@dataclass(frozen=True)
class Scheduled:
    at: float  # seconds after the start of the run, wall clock
    publication: Publication


@dataclass
class Received:
    """What the viewer got: per (table, state) the arrival times; and any state out of place."""

    arrivals: dict[tuple[str, str], float] = field(default_factory=dict)
    events: int = 0
    misplaced: list[str] = field(default_factory=list)
    last: dict[str, str] = field(default_factory=dict)


def canonical(state: Json) -> str:
    return json.dumps(state, sort_keys=True, ensure_ascii=False)


def venue_traffic(tables: int, speed: float, seed: int) -> list[Scheduled]:
    matches = sorted(MATCHES.glob("*.jsonl"))
    rng = random.Random(seed)
    out = []
    for i in range(tables):
        table = f"table{i + 1:03d}"
        names = (f"{FIRST[i % len(FIRST)]} {i + 1}", f"{FIRST[(i + 5) % len(FIRST)]} {i + 1}")
        commands = with_players(load_commands(matches[i % len(matches)]), *names)
        start = rng.uniform(0, 120)
        for p in referee_traffic(commands, table=table, seed=seed):
            out.append(Scheduled((start + p.t) / speed if speed else 0.0, p))
    return sorted(out, key=lambda s: s.at)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_memory_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmHWM:\s+(\d+) kB", status)
    return int(match.group(1)) / 1024 if match else float("nan")


def start_view(address: str, *view: str, stdout: IO[str] | int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "firmware.scoreboard", "--mqtt", address, "--venue", *view],
        cwd=ROOT,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
    )


def watch(url: str, received: Received, published: dict[str, set[str]]) -> None:
    """The viewer: read the event stream, note when each table's state arrives."""
    with urllib.request.urlopen(url + "events") as stream:
        kind = ""
        for raw in stream:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "table":
                now = time.monotonic()
                message = json.loads(line[6:])
                table, state = message["table"], message["state"]
                received.events += 1
                if state is None:
                    continue
                key = canonical(state)
                if state["table"] != table or key not in published.get(table, set()):
                    received.misplaced.append(table)
                received.arrivals.setdefault((table, key), now)
                received.last[table] = key


def publish(address: tuple[str, int], schedule: list[Scheduled]) -> dict[tuple[str, str], float]:
    """Publish on schedule (QoS 1, as the referee does); when each state went out."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="tenball-load-referees")
    client.max_inflight_messages_set(1000)
    client.connect(*address)
    client.loop_start()
    sent: dict[tuple[str, str], float] = {}
    start = time.monotonic()
    infos = []
    for item in schedule:
        delay = start + item.at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        p = item.publication
        if p.topic.endswith("/state"):
            sent.setdefault((p.topic.split("/")[2], canonical(p.payload)), time.monotonic())
        infos.append(client.publish(p.topic, p.encoded(), qos=1, retain=p.retain))
    for info in infos:
        info.wait_for_publish(60)
    client.disconnect()
    client.loop_stop()
    return sent


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000)[round(q * 10) - 1] if len(values) > 1 else values[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--speed", type=float, default=10.0, help="times real play; 0: no waits")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))  # tests.broker: the test suite's mosquitto on a free port
    from tests.broker import running_broker

    schedule = venue_traffic(args.tables, args.speed, args.seed)
    published: dict[str, set[str]] = defaultdict(set)
    final: dict[str, str] = {}
    for item in schedule:
        p = item.publication
        if p.topic.endswith("/state"):
            table = p.topic.split("/")[2]
            published[table].add(canonical(p.payload))
    for item in schedule:  # in publishing order: the last one of a table is where it ends
        if item.publication.topic.endswith("/state"):
            final[item.publication.topic.split("/")[2]] = canonical(item.publication.payload)

    with tempfile.TemporaryDirectory() as tmp, running_broker(Path(tmp)) as broker:
        web = start_view(
            broker.address,
            "--view",
            "web",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            stdout=subprocess.DEVNULL,
        )
        term = start_view(broker.address, "--view", "term", stdout=subprocess.DEVNULL)
        try:
            assert web.stderr is not None
            served = re.search(r"serving (http://\S+)", web.stderr.readline())
            if served is None:
                raise RuntimeError("the venue web view did not start")
            received = Received()
            threading.Thread(
                target=watch, args=(served.group(1), received, published), daemon=True
            ).start()
            time.sleep(1.0)  # both views connected and idle
            cpu_before = {p.pid: cpu_seconds(p.pid) for p in (web, term)}
            started = time.monotonic()
            sent = publish((broker.host, broker.port), schedule)
            deadline = time.monotonic() + 30
            while received.last != final and time.monotonic() < deadline:
                time.sleep(0.05)
            wall = time.monotonic() - started
            cpu = {p.pid: (cpu_seconds(p.pid) - cpu_before[p.pid]) / wall for p in (web, term)}
            memory = {p.pid: peak_memory_mb(p.pid) for p in (web, term)}
        finally:
            for process in (web, term):
                process.terminate()
                process.wait(10)

    latencies = sorted(
        (received.arrivals[key] - at) * 1000 for key, at in sent.items() if key in received.arrivals
    )
    counts: dict[str, int] = defaultdict(int)
    for item in schedule:
        counts[item.publication.topic.rsplit("/", 1)[1]] += 1
    mixed_end = sorted(t for t in final if received.last.get(t) != final[t])
    results = {
        "tables": args.tables,
        "speed": args.speed,
        "messages": dict(counts),
        "publishing_seconds": round(max(s.at for s in schedule), 1),
        "wall_seconds": round(wall, 1),
        "mean_messages_per_second": round(len(schedule) / wall, 1),
        "states_published": len(sent),
        "states_shown": len(latencies),
        "states_coalesced": len(sent) - len(latencies),
        "latency_ms": {
            "p50": round(percentile(latencies, 50), 1),
            "p95": round(percentile(latencies, 95), 1),
            "p99": round(percentile(latencies, 99), 1),
            "max": round(latencies[-1], 1),
        },
        "cpu_percent": {"web": round(100 * cpu[web.pid], 1), "term": round(100 * cpu[term.pid], 1)},
        "peak_memory_mb": {"web": round(memory[web.pid], 1), "term": round(memory[term.pid], 1)},
        "states_in_the_wrong_table": len(received.misplaced),
        "tables_not_ending_on_their_own_last_state": mixed_end,
    }
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:>42}: {value}")
    return 0 if not received.misplaced and not mixed_end else 1


if __name__ == "__main__":
    sys.exit(main())

"""`tenball bench` on one short recording: every number it promises is printed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

RECORDING = Path(__file__).resolve().parents[2] / "fixtures" / "tuning" / "pot_straight"


def test_bench_prints_rates_frames_per_second_and_peak_memory() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "bench", "--seconds", "0.3",
         "--recordings", str(RECORDING)],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert re.search(r"engine \(typed inputs\)\s+[\d,]+ rulings/s", done.stdout)
    (line,) = [ln for ln in done.stdout.splitlines() if ln.strip().startswith("640x360:")]
    numbers = re.findall(r"[\d,.]+(?= frames/s| with decoding| MB)", line)
    vision, decoded, per_frame, peak = (float(n.replace(",", "")) for n in numbers)
    # (No order between the two: they are timed apart, and a loaded machine can flip it.)
    assert vision > 0 and decoded > 0
    assert 0 < per_frame < 1 and 20 < peak < 1000

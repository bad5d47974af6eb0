"""Vision accuracy when another camera (or renderer) takes the same shots.

Every generated recording is exposed the same way (the cloth at a third of full scale) with
the generator's own tone curve and colours; real cameras and other renderers are not. This
re-takes recordings as a camera with another exposure, tone curve, white balance, colour
saturation, noise, focus or compression would (each frame transformed, the video encoded
again), evaluates each set with `tenball evaluate`, and prints how many shots stay exact and
how many rulings change. The first row is the recordings only encoded again: the baseline.

    .venv/bin/python benchmarks/camera_looks.py fixtures/_scratch/heldout --count 12
    .venv/bin/python benchmarks/camera_looks.py fixtures/tuning --looks warm,dark --jobs 2
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
REPO = Path(__file__).resolve().parent.parent


def _curve(power: float) -> Callable[[Image], Image]:
    table = np.clip((np.arange(256) / 255.0) ** power * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return lambda image: np.asarray(cv2.LUT(image, table), np.uint8)


def _gains(b: float, g: float, r: float) -> Callable[[Image], Image]:
    gains = np.array([b, g, r], np.float32)

    def apply(image: Image) -> Image:
        return np.asarray(np.clip(image * gains, 0, 255), np.uint8)

    return apply


def _blur(sigma: float) -> Callable[[Image], Image]:
    return lambda image: np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), np.uint8)


def _saturation(factor: float) -> Callable[[Image], Image]:
    def apply(image: Image) -> Image:
        grey = image.astype(np.float32).mean(axis=2, keepdims=True)
        return np.asarray(np.clip(grey + (image - grey) * factor, 0, 255), np.uint8)

    return apply


def _noise(sigma: float) -> Callable[[Image], Image]:
    rng = np.random.default_rng(7)
    return lambda image: np.asarray(
        np.clip(image + rng.normal(0, sigma, image.shape), 0, 255), np.uint8
    )


def _jpeg(quality: int) -> Callable[[Image], Image]:
    def apply(image: Image) -> Image:
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)

    return apply


LOOKS: dict[str, tuple[str, Callable[[Image], Image]]] = {
    "as_recorded": ("encoded again, nothing else", lambda image: image),
    "dark": ("exposure x0.55", _gains(0.55, 0.55, 0.55)),
    "bright": ("exposure x1.5, whites clipped", _gains(1.5, 1.5, 1.5)),
    "hard_gamma": ("tone curve x^1.5 (darker mid-tones)", _curve(1.5)),
    "soft_gamma": ("tone curve x^0.65 (lighter mid-tones)", _curve(0.65)),
    "warm": ("white balance: red x1.2, blue x0.78", _gains(0.78, 1.0, 1.2)),
    "cool": ("white balance: blue x1.2, red x0.8", _gains(1.2, 1.0, 0.8)),
    "pale": ("colour saturation x0.6", _saturation(0.6)),
    "noisy": ("sensor noise, sigma 7", _noise(7.0)),
    "soft_focus": ("gaussian blur, sigma 1.2 px", _blur(1.2)),
    "blocky": ("JPEG quality 35 per frame", _jpeg(35)),
}


def retake(recording: Path, out: Path, look: Callable[[Image], Image]) -> None:
    """The recording as the other camera takes it: every frame transformed, encoded again."""
    shutil.copytree(recording, out, ignore=shutil.ignore_patterns("video.*"))
    video = next(recording.glob("video.*"))
    capture = cv2.VideoCapture(str(video))
    fps = capture.get(cv2.CAP_PROP_FPS)
    size = (
        int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)),
        int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)),
    )
    # The same container and codec as the original, so only the look differs.
    fourcc = cv2.VideoWriter.fourcc(*("MJPG" if video.suffix == ".avi" else "mp4v"))
    writer = cv2.VideoWriter(str(out / video.name), cv2.CAP_FFMPEG, fourcc, fps, size)
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        writer.write(look(np.asarray(frame, np.uint8)))
    writer.release()
    capture.release()


def evaluate(directory: Path, jobs: int) -> dict[str, int]:
    report = directory / "evaluation.json"
    command = [sys.executable, "-m", "firmware.cli", "evaluate", str(directory)]
    subprocess.run(
        [*command, "--jobs", str(jobs), "--json", str(report)],
        cwd=REPO,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    totals: dict[str, int] = json.loads(report.read_text())["totals"]
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recordings", type=Path, help="a directory of recordings with truth")
    parser.add_argument("--count", type=int, default=12, help="the first N recordings")
    parser.add_argument("--looks", default=",".join(LOOKS), help="comma-separated")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    looks = args.looks.split(",")
    unknown = [name for name in looks if name not in LOOKS]
    if unknown:
        print(f"camera_looks: unknown look(s) {', '.join(unknown)}; "
              f"known: {', '.join(LOOKS)}", file=sys.stderr)  # fmt: skip
        return 2
    recordings = sorted(p for p in args.recordings.iterdir() if (p / "expected.jsonl").is_file())
    recordings = recordings[: args.count]
    if not recordings:
        print(f"camera_looks: no recordings with truth in {args.recordings}", file=sys.stderr)
        return 2
    print(f"{len(recordings)} recordings from {args.recordings}")
    print(f"{'look':<12} {'what':<38} {'found':>7} {'exact':>7} {'rulings changed':>16}")
    with tempfile.TemporaryDirectory(prefix="tenball-looks-") as scratch:
        for name in looks:
            what, look = LOOKS[name]
            target = Path(scratch) / name
            for recording in recordings:
                retake(recording, target / recording.name, look)
            t = evaluate(target, args.jobs)
            found, exact, shots = t["found"], t["exact"], t["shots"]
            print(f"{name:<12} {what:<38} {found:>3}/{shots:<3} {exact:>3}/{shots:<3} "
                  f"{t['rulings_changed']:>16}", flush=True)  # fmt: skip
            shutil.rmtree(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())

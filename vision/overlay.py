"""The replay overlay: ball ids, trails and events drawn on the recording's frames."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration

TRAIL_S = 1.0
EVENT_S = 1.5
WHITE = (255, 255, 255)
YELLOW = (0, 220, 255)


class OverlayWriter:
    """Writes an MP4 (mp4v, which OpenCV always has) of annotated frames."""

    def __init__(
        self, path: Path, fps: float, size: tuple[int, int], calibration: Calibration
    ) -> None:
        self.path = path
        self.calibration = calibration
        self.radius = max(3, round(calibration.ball_radius_px()))
        fourcc = cv2.VideoWriter.fourcc(*"mp4v")
        self.writer = cv2.VideoWriter(str(path), fourcc, fps, size)
        if not self.writer.isOpened():
            raise OSError(f"{path}: OpenCV cannot write an MP4 here")
        self.trails: dict[str, deque[tuple[float, tuple[int, int]]]] = {}
        self.events: deque[tuple[float, str]] = deque()

    def add_facts(self, facts: Sequence[dict[str, Any]]) -> None:
        for shot in facts:
            for event in shot.get("events", []):
                label = event["type"]
                if "balls" in event:
                    label += " " + "-".join(str(b) for b in event["balls"])
                if "ball" in event:
                    label += f" {event['ball']}"
                for key in ("rail", "pocket"):
                    if key in event:
                        label += f" {event[key]}"
                self.events.append((float(event["t"]), label))

    def write(self, t: float, image: NDArray[np.uint8], balls: Sequence[dict[str, Any]]) -> None:
        frame = np.array(image, copy=True)
        if balls:
            xy = np.array([[b["x"], b["y"]] for b in balls], dtype=np.float64)
            pixels = self.calibration.to_image(xy)
            for ball, (px, py) in zip(balls, pixels, strict=True):
                name = "?" if ball["ball"] is None else str(ball["ball"])
                point = (round(px), round(py))
                self.trails.setdefault(name, deque()).append((t, point))
                cv2.circle(frame, point, self.radius + 2, WHITE, 1, cv2.LINE_AA)
                cv2.putText(
                    frame, name, (point[0] + self.radius + 2, point[1] - self.radius),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.4, WHITE, 1, cv2.LINE_AA,
                )  # fmt: skip
        for trail in self.trails.values():
            while trail and trail[0][0] < t - TRAIL_S:
                trail.popleft()
            if len(trail) > 1:
                points = np.array([p for _, p in trail], np.int32)
                cv2.polylines(frame, [points], False, YELLOW, 1, cv2.LINE_AA)
        shown = [label for when, label in self.events if when <= t <= when + EVENT_S]
        for row, label in enumerate(shown[-6:]):
            cv2.putText(
                frame, label, (8, 18 + 16 * row), cv2.FONT_HERSHEY_SIMPLEX, 0.45, YELLOW, 1,
                cv2.LINE_AA,
            )  # fmt: skip
        cv2.putText(
            frame, f"{t:7.3f} s", (8, frame.shape[0] - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.45, WHITE,
            1, cv2.LINE_AA,
        )  # fmt: skip
        self.writer.write(frame)

    def close(self) -> None:
        self.writer.release()

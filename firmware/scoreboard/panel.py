"""Where LED frames go: a HUB75 panel, or PNG files.

A panel is driven by Adafruit Piomatter on a Raspberry Pi 5 or by hzeller's rpi-rgb-led-matrix
on the earlier Pis — whichever is importable, imported only when a panel is asked for, so the
view runs (and is tested) anywhere. `PngOutput` writes each new frame as a numbered PNG and
keeps `latest.png` current.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from firmware.scoreboard.led import Frame

# --led-hardware names: rpi-rgb-led-matrix's `hardware_mapping` and Piomatter's `Pinout`.
HARDWARE = {
    "adafruit-hat": ("adafruit-hat", "AdafruitMatrixHat"),
    "adafruit-hat-pwm": ("adafruit-hat-pwm", "AdafruitMatrixHat"),
    "adafruit-bonnet": ("adafruit-hat", "AdafruitMatrixBonnet"),
    "regular": ("regular", None),
}


class PanelError(RuntimeError):
    """No panel driver can be imported here, or it refused the configuration."""


class Output(Protocol):
    def show(self, frame: Frame) -> None: ...


@dataclass(frozen=True)
class PanelConfig:
    """How the panels are wired: the frame is `panel`-sized panels chained left to right."""

    hardware: str = "adafruit-hat"
    panel: tuple[int, int] | None = None  # one physical panel; default 64 wide, frame-high
    brightness: int = 80
    slowdown: int | None = None  # rpi-rgb-led-matrix's gpio_slowdown (a Pi 4 needs about 4)

    def chain(self, size: tuple[int, int]) -> tuple[int, int, int]:
        """(panel width, panel height, how many chained) for a frame of `size`."""
        width, height = size
        pw, ph = self.panel or (min(64, width), height)
        if width % pw or ph != height:
            raise PanelError(
                f"a {width}x{height} frame is not a row of {pw}x{ph} panels (--led-panel)"
            )
        return pw, ph, width // pw


def parse_pixels(text: str) -> tuple[int, int]:
    """`WxH` in pixels, such as 64x32."""
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit() and int(width) > 0 and int(height) > 0):
        raise ValueError(f"{text!r} is not WIDTHxHEIGHT in pixels")
    return int(width), int(height)


class PngOutput:
    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self.count = 0

    def show(self, frame: Frame) -> None:
        self.count += 1
        bgr = np.ascontiguousarray(frame[:, :, ::-1])
        cv2.imwrite(str(self.directory / f"frame-{self.count:06d}.png"), bgr)
        # Written aside and renamed, so a reader never sees half a file.
        partial = self.directory / "latest.partial.png"
        cv2.imwrite(str(partial), bgr)
        os.replace(partial, self.directory / "latest.png")


class PiomatterOutput:
    def __init__(self, size: tuple[int, int], config: PanelConfig) -> None:
        import adafruit_blinka_raspberry_pi5_piomatter as piomatter

        pinout = HARDWARE[config.hardware][1]
        if pinout is None:
            raise PanelError(f"Piomatter has no pinout for --led-hardware {config.hardware}")
        _, panel_height, _ = config.chain(size)
        width, height = size
        # Panels up to 32 rows are scanned 1:16 (4 address lines), 64-row panels 1:32 (5).
        geometry = piomatter.Geometry(
            width=width,
            height=height,
            n_addr_lines=5 if panel_height > 32 else 4,
            rotation=piomatter.Orientation.Normal,
        )
        self.framebuffer = np.zeros((height, width, 3), dtype=np.uint8)
        self.matrix = piomatter.PioMatter(
            colorspace=piomatter.Colorspace.RGB888Packed,
            pinout=getattr(piomatter.Pinout, pinout),
            framebuffer=self.framebuffer,
            geometry=geometry,
        )

    def show(self, frame: Frame) -> None:
        self.framebuffer[:] = frame
        self.matrix.show()


class RgbMatrixOutput:
    def __init__(self, size: tuple[int, int], config: PanelConfig) -> None:
        from rgbmatrix import RGBMatrix, RGBMatrixOptions

        panel_width, panel_height, chain = config.chain(size)
        options = RGBMatrixOptions()
        options.cols, options.rows, options.chain_length = panel_width, panel_height, chain
        options.hardware_mapping = HARDWARE[config.hardware][0]
        options.brightness = config.brightness
        if config.slowdown is not None:
            options.gpio_slowdown = config.slowdown
        self.matrix = RGBMatrix(options=options)
        self.canvas: Any = self.matrix.CreateFrameCanvas()

    def show(self, frame: Frame) -> None:
        # Per pixel, but only when the board changes: 8192 calls for the largest panel.
        for y, row in enumerate(frame.tolist()):
            for x, (r, g, b) in enumerate(row):
                self.canvas.SetPixel(x, y, r, g, b)
        self.canvas = self.matrix.SwapOnVSync(self.canvas)


def open_panel(size: tuple[int, int], config: PanelConfig) -> Output:
    """The first panel driver that imports here; PanelError when none does."""
    if config.hardware not in HARDWARE:
        raise PanelError(f"--led-hardware must be one of {', '.join(HARDWARE)}")
    for driver in (PiomatterOutput, RgbMatrixOutput):
        try:
            return driver(size, config)
        except ImportError:
            continue
    raise PanelError(
        "no LED panel driver here: install Adafruit Piomatter (Pi 5) or rpi-rgb-led-matrix's "
        "Python bindings, or write PNG frames with --png DIR"
    )

"""tenball's hardware layer: frame sources, pocket sensors, the call panel, the shot recorder.

Each part is a small device with one job; ``firmware/`` wires them together. Pi-only
libraries (picamera2) are imported only when the part that needs them is created.
"""

from hw.frames import BgrImage, CameraError, Frame, FrameSource, GrayImage, Yuv420Image
from hw.panel import CallPanel, Command, PanelStateError
from hw.picamera import PiCamera2Source
from hw.pockets import (
    POCKETS,
    BeamDebouncer,
    PocketPulse,
    PocketSensor,
    PocketSensors,
    SensorEvent,
    SensorFault,
)
from hw.recorder import Recorder
from hw.recording import (
    CommandInput,
    InputEvent,
    PocketInput,
    RecordingError,
    RecordingSource,
    RecordingWriter,
)
from hw.usbcam import OpenCVCaptureSource

__all__ = [
    "POCKETS",
    "BeamDebouncer",
    "BgrImage",
    "CallPanel",
    "CameraError",
    "Command",
    "CommandInput",
    "Frame",
    "FrameSource",
    "GrayImage",
    "InputEvent",
    "OpenCVCaptureSource",
    "PanelStateError",
    "PiCamera2Source",
    "PocketInput",
    "PocketPulse",
    "PocketSensor",
    "PocketSensors",
    "Recorder",
    "RecordingError",
    "RecordingSource",
    "RecordingWriter",
    "SensorEvent",
    "SensorFault",
    "Yuv420Image",
]

"""The device's configuration: one TOML file (default ``/etc/tenball/tenball.toml``).

:func:`load_config` reads and checks the whole file and raises :class:`ConfigError` listing
every problem, each with its key and, where the file shows it, its line, so an installer fixes
them all in one go (``tenball config check F`` prints them). Unknown keys are problems too: on
a device a misspelt key silently ignored is a setting that never took effect. The documented
example is ``deploy/tenball.toml``.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from hw.panel import COMMAND_BUTTONS
from hw.pockets import POCKETS
from rules import LANGUAGES, InputError, resolve_options

DEFAULT_PATH: Final = Path("/etc/tenball/tenball.toml")
DEFAULT_JOURNAL: Final = Path("/var/lib/tenball/journal.sqlite")
TABLE_SIZES: Final = {"9ft": (2540, 1270), "8ft": (2235, 1118), "7ft": (1981, 991)}
CAMERA_KINDS: Final = ("picamera2", "usb")
# Calibration keys `tenball calibrate` writes into [table] (contracts §2), passed on as they are.
CALIBRATION_KEYS: Final[tuple[str, ...]] = (
    "corners_px",
    "camera_matrix",
    "dist_coeffs",
    "camera_height_mm",
)


@dataclass(frozen=True)
class Problem:
    key: str
    message: str
    line: int | None = None

    def format(self, path: Path | str) -> str:
        where = f"{path}:{self.line}" if self.line is not None else str(path)
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class ConfigError(Exception):
    """A configuration file that cannot be used; ``problems`` says everything wrong with it."""

    def __init__(self, path: Path | str, problems: list[Problem]) -> None:
        self.path = path
        self.problems = problems
        super().__init__("\n".join(p.format(path) for p in problems))


@dataclass(frozen=True)
class TableSettings:
    id: str = "table1"
    size_mm: tuple[float, float] = (2540.0, 1270.0)
    calibration: Mapping[str, Any] = field(default_factory=dict)

    def recording_table(self) -> dict[str, Any]:
        """The ``table`` object of a recording made on this table (contracts §2)."""
        return {"size_mm": list(self.size_mm), **self.calibration}


@dataclass(frozen=True)
class CameraSettings:
    kind: str = "picamera2"
    fps: float = 120.0
    lores_width: int = 640
    main_width: int | None = None
    buffer_count: int = 12
    device: int | str = 0
    width: int | None = None
    height: int | None = None
    controls: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TlsSettings:
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    insecure: bool = False


@dataclass(frozen=True)
class MqttSettings:
    host: str
    port: int = 1883
    username: str | None = None
    password_file: Path | None = None
    tls: TlsSettings | None = None
    keepalive: int = 30

    def password(self) -> str | None:
        """The password, read when connecting (the file is the secret; the config is not)."""
        if self.password_file is None:
            return None
        return self.password_file.read_text(encoding="utf-8").strip()


@dataclass(frozen=True)
class RecorderSettings:
    enabled: bool = False
    path: Path = Path("/var/lib/tenball/shots")
    pre_roll: float = 1.0
    post_roll: float = 1.0
    every_nth: int = 1
    disk_budget_gb: float = 8.0


@dataclass(frozen=True)
class PinSettings:
    pockets: Mapping[str, int | str] = field(default_factory=dict)
    buttons: Mapping[str, int | str] = field(default_factory=dict)
    leds: Mapping[str, int | str] = field(default_factory=dict)
    indicator: int | str | None = None


@dataclass(frozen=True)
class RulesSettings:
    ruleset: str = "wpa"
    options: Mapping[str, Any] = field(default_factory=dict)
    lang: str = "en"


@dataclass(frozen=True)
class Config:
    table: TableSettings = field(default_factory=TableSettings)
    camera: CameraSettings = field(default_factory=CameraSettings)
    mqtt: MqttSettings | None = None
    journal: Path = DEFAULT_JOURNAL
    recorder: RecorderSettings = field(default_factory=RecorderSettings)
    pins: PinSettings = field(default_factory=PinSettings)
    rules: RulesSettings = field(default_factory=RulesSettings)
    status_interval: float = 5.0


def load_config(path: Path | str) -> Config:
    """Read and check a configuration file; :class:`ConfigError` lists every problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(path, [Problem("", "no such file")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(path, [Problem("", f"cannot read: {exc}")]) from None
    config, problems = parse_config(text, base=path.parent)
    if problems or config is None:
        raise ConfigError(path, problems)
    return config


_TOML_AT = re.compile(r"\(at line (\d+), column \d+\)")


def parse_config(text: str, *, base: Path = Path(".")) -> tuple[Config | None, list[Problem]]:
    """The configuration in ``text`` and its problems (relative paths are from ``base``)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # Python 3.11's TOMLDecodeError has no line attribute; its message ends with one.
        message = str(exc)
        match = _TOML_AT.search(message)
        line = int(match.group(1)) if match else None
        return None, [Problem("", f"not valid TOML: {_TOML_AT.sub('', message).strip()}", line)]
    checker = _Checker(_key_lines(text), base)
    config = checker.config(data)
    # In file order, as a compiler reports: an editor walks them top to bottom.
    problems = sorted(checker.problems, key=lambda p: (p.line is None, p.line or 0))
    return config, problems


# ----- where keys are -----------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_PART = r"""(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')"""
_KEY = re.compile(rf"^\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")


def _dotted(key: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in key.split("."))


def _key_lines(text: str) -> dict[str, int]:
    """Dotted key → the line defining it (tables' headers included), as far as a line scan sees.

    Keys inside inline tables or multi-line values are not found; their problems are reported
    at the nearest enclosing key that is.
    """
    lines: dict[str, int] = {}
    section = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            section = _dotted(header.group(1))
            lines.setdefault(section, number)
            continue
        key = _KEY.match(line)
        if key:
            name = _dotted(key.group(1))
            lines.setdefault(f"{section}.{name}" if section else name, number)
    return lines


# ----- checking -----------------------------------------------------------------------------

_MISSING: Final = object()
_KIND_NAMES: Final = {
    str: "a string",
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    dict: "a table",
    list: "a list",
}


class _Checker:
    """Collects problems while building the settings; a bad value falls back to its default so
    that checking goes on and every problem is reported."""

    def __init__(self, lines: Mapping[str, int], base: Path) -> None:
        self.problems: list[Problem] = []
        self._lines = lines
        self._base = base

    def problem(self, key: str, message: str) -> None:
        probe = key
        while probe and probe not in self._lines:
            probe = probe.rpartition(".")[0]
        self.problems.append(Problem(key, message, self._lines.get(probe)))

    def table(
        self, parent: Mapping[str, Any], path: str, allowed: tuple[str, ...]
    ) -> dict[str, Any]:
        name = path.rpartition(".")[2]
        value = parent.get(name, {})
        if not isinstance(value, dict):
            self.problem(path, f"expected a table, got {_describe(value)}")
            return {}
        self.unknown(value, path, allowed)
        return value

    def unknown(self, table: Mapping[str, Any], path: str, allowed: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                name = f"{path}.{key}" if path else key
                self.problem(name, f"unknown key (known: {', '.join(allowed)})")

    def value(
        self,
        table: Mapping[str, Any],
        path: str,
        kind: type,
        default: Any = _MISSING,
        *,
        choices: tuple[Any, ...] | None = None,
        lo: float | None = None,
    ) -> Any:
        name = path.rpartition(".")[2]
        if name not in table:
            if default is _MISSING:
                self.problem(path, "required")
                return None
            return default
        value = table[name]
        # TOML has no null; bool is an int in Python but never a count or a port.
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            self.problem(path, f"expected {_KIND_NAMES[kind]}, got {_describe(value)}")
            return None if default is _MISSING else default
        if kind is float and not math.isfinite(value):
            self.problem(path, f"expected a finite number, got {value!r}")
            return None if default is _MISSING else default
        if choices is not None and value not in choices:
            allowed = ", ".join(repr(c) for c in choices)
            self.problem(path, f"expected one of {allowed}, got {value!r}")
            return None if default is _MISSING else default
        if lo is not None and value < lo:
            self.problem(path, f"must be at least {lo:g}, got {value!r}")
            return None if default is _MISSING else default
        return value

    def path(
        self, table: Mapping[str, Any], path: str, default: Path | None, *, must_exist: bool
    ) -> Path | None:
        text = self.value(table, path, str, None if default is None else str(default))
        if text is None:
            return None
        resolved = self._base / Path(text).expanduser()
        if must_exist and not resolved.is_file():
            self.problem(path, f"no such file: {resolved}")
        return resolved

    # ----- sections

    def config(self, data: Mapping[str, Any]) -> Config:
        sections = ("table", "camera", "mqtt", "journal", "recorder", "pins", "rules", "status")
        self.unknown(data, "", sections)
        journal = self.table(data, "journal", ("path",))
        status = self.table(data, "status", ("interval",))
        return Config(
            table=self.table_settings(data),
            camera=self.camera(data),
            mqtt=self.mqtt(data),
            journal=self.path(journal, "journal.path", DEFAULT_JOURNAL, must_exist=False)
            or DEFAULT_JOURNAL,
            recorder=self.recorder(data),
            pins=self.pins(data),
            rules=self.rules(data),
            status_interval=self.value(status, "status.interval", float, 5.0, lo=0.1),
        )

    def table_settings(self, data: Mapping[str, Any]) -> TableSettings:
        t = self.table(data, "table", ("id", "size", "size_mm", *CALIBRATION_KEYS))
        table_id = self.value(t, "table.id", str, "table1")
        if table_id is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", table_id):
            # It is a topic level and an MQTT user name (the ACL's %u): no '/', '+', '#'.
            self.problem("table.id", f"use letters, digits, '-' and '_' only, got {table_id!r}")
        size_mm: tuple[float, float] = TABLE_SIZES["9ft"]
        if "size" in t and "size_mm" in t:
            self.problem("table.size_mm", "give either size or size_mm, not both")
        elif "size" in t:
            size = self.value(t, "table.size", str, choices=tuple(TABLE_SIZES))
            if size is not None:
                size_mm = TABLE_SIZES[size]
        elif "size_mm" in t:
            raw = t["size_mm"]
            if (
                isinstance(raw, list)
                and len(raw) == 2
                and all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw)
                and 0 < raw[1] < raw[0]
            ):
                size_mm = (float(raw[0]), float(raw[1]))
            else:
                self.problem("table.size_mm", f"expected [length, width] in mm, got {raw!r}")
        corners = t.get("corners_px")
        if corners is not None and not (
            isinstance(corners, list)
            and len(corners) == 4
            and all(
                isinstance(c, list)
                and len(c) == 2
                and all(isinstance(v, int | float) and not isinstance(v, bool) for v in c)
                for c in corners
            )
        ):
            self.problem("table.corners_px", "expected four [x, y] points: HL, HR, FR, FL")
        calibration: dict[str, Any] = {k: t[k] for k in CALIBRATION_KEYS if k in t}
        return TableSettings(table_id or "table1", size_mm, calibration)

    def camera(self, data: Mapping[str, Any]) -> CameraSettings:
        keys = (
            "kind",
            "fps",
            "lores_width",
            "main_width",
            "buffer_count",
            "device",
            "width",
            "height",
            "controls",
        )
        c = self.table(data, "camera", keys)
        device = c.get("device", 0)
        if isinstance(device, bool) or not isinstance(device, int | str):
            self.problem("camera.device", f"expected a number or a path, got {_describe(device)}")
            device = 0
        controls = c.get("controls", {})
        if not isinstance(controls, dict):
            self.problem("camera.controls", f"expected a table, got {_describe(controls)}")
            controls = {}
        return CameraSettings(
            kind=self.value(c, "camera.kind", str, "picamera2", choices=CAMERA_KINDS),
            fps=self.value(c, "camera.fps", float, 120.0, lo=1),
            lores_width=self.value(c, "camera.lores_width", int, 640, lo=16),
            main_width=self.value(c, "camera.main_width", int, None, lo=16),
            buffer_count=self.value(c, "camera.buffer_count", int, 12, lo=2),
            device=device,
            width=self.value(c, "camera.width", int, None, lo=16),
            height=self.value(c, "camera.height", int, None, lo=16),
            controls=controls,
        )

    def mqtt(self, data: Mapping[str, Any]) -> MqttSettings | None:
        if "mqtt" not in data:
            return None
        keys = ("host", "port", "username", "password_file", "tls", "keepalive")
        m = self.table(data, "mqtt", keys)
        if not isinstance(data["mqtt"], dict):
            return None  # reported by table(); its keys would only repeat the problem
        host = self.value(m, "mqtt.host", str)
        username = self.value(m, "mqtt.username", str, None)
        password_file = self.path(m, "mqtt.password_file", None, must_exist=True)
        if password_file is not None and username is None:
            self.problem("mqtt.password_file", "a password needs mqtt.username")
        tls: TlsSettings | None = None
        raw_tls = m.get("tls", False)
        if isinstance(raw_tls, bool):
            tls = TlsSettings() if raw_tls else None
        elif isinstance(raw_tls, dict):
            t = self.table(m, "mqtt.tls", ("ca_file", "cert_file", "key_file", "insecure"))
            tls = TlsSettings(
                ca_file=self.path(t, "mqtt.tls.ca_file", None, must_exist=True),
                cert_file=self.path(t, "mqtt.tls.cert_file", None, must_exist=True),
                key_file=self.path(t, "mqtt.tls.key_file", None, must_exist=True),
                insecure=self.value(t, "mqtt.tls.insecure", bool, False),
            )
            if (tls.cert_file is None) != (tls.key_file is None):
                self.problem("mqtt.tls", "cert_file and key_file go together")
        else:
            self.problem("mqtt.tls", f"expected true, false or a table, got {_describe(raw_tls)}")
        port = self.value(m, "mqtt.port", int, 8883 if tls else 1883, lo=1)
        if port is not None and port > 65535:
            self.problem("mqtt.port", f"must be at most 65535, got {port}")
        return MqttSettings(
            host=host or "localhost",
            port=port or 1883,
            username=username,
            password_file=password_file,
            tls=tls,
            keepalive=self.value(m, "mqtt.keepalive", int, 30, lo=5),
        )

    def recorder(self, data: Mapping[str, Any]) -> RecorderSettings:
        keys = ("enabled", "path", "pre_roll", "post_roll", "every_nth", "disk_budget_gb")
        r = self.table(data, "recorder", keys)
        default = RecorderSettings()
        return RecorderSettings(
            enabled=self.value(r, "recorder.enabled", bool, False),
            path=self.path(r, "recorder.path", default.path, must_exist=False) or default.path,
            pre_roll=self.value(r, "recorder.pre_roll", float, 1.0, lo=0),
            post_roll=self.value(r, "recorder.post_roll", float, 1.0, lo=0),
            every_nth=self.value(r, "recorder.every_nth", int, 1, lo=1),
            disk_budget_gb=self.value(r, "recorder.disk_budget_gb", float, 8.0, lo=0.001),
        )

    def pins(self, data: Mapping[str, Any]) -> PinSettings:
        p = self.table(data, "pins", ("pockets", "buttons", "leds", "indicator"))
        used: dict[int | str, str] = {}

        def pin(path: str, value: Any) -> int | str | None:
            # gpiozero takes a BCM number or a name such as "GPIO17" or "BOARD11".
            if isinstance(value, bool) or not isinstance(value, int | str):
                self.problem(path, f"expected a GPIO number or name, got {_describe(value)}")
                return None
            if isinstance(value, int) and not 0 <= value <= 27:
                self.problem(path, f"expected a GPIO number 0–27, got {value}")
                return None
            if value in used:
                self.problem(path, f"pin {value} is already used by {used[value]}")
                return None
            used[value] = path
            return value

        def group(name: str, allowed: tuple[str, ...]) -> dict[str, int | str]:
            table = self.table(p, f"pins.{name}", allowed)
            out: dict[str, int | str] = {}
            for key, value in table.items():
                if key in allowed and (number := pin(f"pins.{name}.{key}", value)) is not None:
                    out[key] = number
            return out

        pockets = group("pockets", POCKETS)
        buttons = group("buttons", (*POCKETS, *COMMAND_BUTTONS))
        leds = group("leds", POCKETS)
        indicator = pin("pins.indicator", p["indicator"]) if "indicator" in p else None
        return PinSettings(pockets, buttons, leds, indicator)

    def rules(self, data: Mapping[str, Any]) -> RulesSettings:
        r = self.table(data, "rules", ("ruleset", "options", "lang"))
        ruleset = self.value(r, "rules.ruleset", str, "wpa")
        options = r.get("options", {})
        if not isinstance(options, dict):
            self.problem("rules.options", f"expected a table, got {_describe(options)}")
            options = {}
        try:
            resolve_options(ruleset, options)
        except InputError as exc:
            # The engine's message names the key: "options.break_order: expected one of …".
            message = str(exc)
            key, _, detail = message.partition(": ")
            self.problem(f"rules.{key}" if detail else "rules", detail or message)
        return RulesSettings(
            ruleset=ruleset or "wpa",
            options=options,
            lang=self.value(r, "rules.lang", str, "en", choices=LANGUAGES),
        )


def _describe(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return f"a list {value!r}"
    if isinstance(value, str):
        return f"the string {value!r}"
    return repr(value)

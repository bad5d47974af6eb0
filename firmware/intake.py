"""Inbound commands from the MQTT ``cmd`` topic: from raw bytes to a command object, or a refusal.

This is the first gate (size, UTF-8, JSON, an object with a ``cmd`` string); the rules engine is
the second (the command's fields) and the third (whether it fits the moment: an option when none
is pending, a call of a ball that is gone). Each gate's refusal becomes one ``cmd/result`` reply
(:func:`result`), and nothing it refuses changes the match.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

MAX_COMMAND_BYTES: Final = 4096
"""The largest command accepted: a full ``load`` state is under 2 KiB."""

Json = dict[str, Any]


class CommandError(Exception):
    """A payload that is not a command; ``code`` goes to ``cmd/result`` as the error."""

    def __init__(self, code: str, message: str, ident: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.ident = ident


def _no_constants(name: str) -> float:
    # Python's json accepts NaN and Infinity, which are not JSON and not a time or a position.
    raise ValueError(f"{name} is not JSON")


def decode(payload: bytes | None, size: int) -> Json:
    """The command object in an MQTT payload (``None`` when it was too large to keep)."""
    if payload is None or size > MAX_COMMAND_BYTES:
        raise CommandError("too_large", f"{size} bytes; commands are at most {MAX_COMMAND_BYTES}")
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        message = f"not UTF-8 text: {exc.reason} at byte {exc.start}"
        raise CommandError("not_utf8", message) from None
    try:
        obj = json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError) as exc:
        # JSONDecodeError is a ValueError; RecursionError: a few KiB of "[[[[" nest too deep.
        raise CommandError("not_json", f"not JSON: {str(exc) or type(exc).__name__}") from None
    if not isinstance(obj, dict):
        raise CommandError("not_object", f"expected a JSON object, got {type(obj).__name__}")
    ident = ident_of(obj)
    name = obj.get("cmd")
    if not isinstance(name, str):
        raise CommandError("bad_command", "cmd: required, a string", ident)
    return obj


def ident_of(command: Mapping[str, Any]) -> str | int | None:
    """The command's ``id``, echoed in its reply so a tablet can match the two."""
    ident = command.get("id")
    if isinstance(ident, bool) or not isinstance(ident, str | int):
        return None
    return ident


def result(command: Mapping[str, Any] | None, reply: Mapping[str, Any]) -> Json:
    """The ``cmd/result`` payload for a command and the session's reply to it."""
    out: Json
    if "error" in reply:
        out = {"ok": False, "error": "bad_command", "message": reply["error"]}
    elif "rejected" in reply:
        out = {"ok": False, "error": reply["rejected"]}
    elif "seq" in reply:
        out = {"ok": True, "seq": reply["seq"], "reason": reply.get("reason")}
    elif command is not None and command.get("cmd") == "state":
        out = {"ok": True, "state": dict(reply)}
    else:
        out = {"ok": True}
    if command is not None:
        name = command.get("cmd")
        if isinstance(name, str):
            out["cmd"] = name
        ident = ident_of(command)
        if ident is not None:
            out["id"] = ident
    return out


def refusal(error: CommandError) -> Json:
    """The ``cmd/result`` payload for a payload that is not a command."""
    out: Json = {"ok": False, "error": error.code, "message": str(error)}
    if error.ident is not None:
        out["id"] = error.ident
    return out

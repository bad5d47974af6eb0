"""The first gate for MQTT commands: size, UTF-8, JSON, an object with a `cmd`."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware.intake import MAX_COMMAND_BYTES, CommandError, decode, result


def refused(payload: bytes) -> CommandError:
    with pytest.raises(CommandError) as caught:
        decode(payload, len(payload))
    return caught.value


def test_a_command_passes() -> None:
    payload = b'{"cmd": "call", "ball": 3, "pocket": "SR", "id": "t2-17"}'
    assert decode(payload, len(payload))["ball"] == 3


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (b"x" * (MAX_COMMAND_BYTES + 1), "too_large"),
        (b"\xff\xfe{}", "not_utf8"),
        (b"{'cmd': 'undo'}", "not_json"),
        (b'{"cmd": "shot", "first_contact": NaN}', "not_json"),
        (b'["cmd", "undo"]', "not_object"),
        (b'{"command": "undo"}', "bad_command"),
        (b'{"cmd": 7}', "bad_command"),
    ],
)
def test_what_is_not_a_command_is_refused_with_a_code(payload: bytes, code: str) -> None:
    assert refused(payload).code == code


def test_deep_nesting_is_refused_however_the_parser_takes_it() -> None:
    # Python 3.11's parser gives up past its recursion limit; 3.13's reads it as a list.
    assert refused(b"[" * 2000 + b"]" * 2000).code in {"not_json", "not_object"}


def test_a_payload_dropped_for_its_size_is_refused_by_its_size() -> None:
    with pytest.raises(CommandError, match="100000 bytes"):
        decode(None, 100_000)


def test_the_id_is_kept_for_the_reply_when_there_is_one() -> None:
    error = refused(b'{"cmd": ["undo"], "id": 42}')
    assert error.ident == 42
    assert refused(b'{"cmd": null, "id": {"x": 1}}').ident is None


@given(st.binary(max_size=2000))
def test_any_bytes_are_a_command_or_a_refusal(payload: bytes) -> None:
    try:
        command = decode(payload, len(payload))
    except CommandError as error:
        assert error.code in {"not_utf8", "not_json", "not_object", "bad_command"}
        return
    assert isinstance(command["cmd"], str)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=30,
)


@given(JSON)
def test_any_json_value_is_a_command_or_a_refusal(value: object) -> None:
    payload = json.dumps(value).encode()
    try:
        command = decode(payload, len(payload))
    except CommandError as error:
        assert error.code in {"too_large", "not_json", "not_object", "bad_command"}
        return
    assert command == value


def test_replies_say_ok_or_why_not() -> None:
    call = {"cmd": "call", "id": "a"}
    assert result(call, {"ok": True}) == {"ok": True, "cmd": "call", "id": "a"}
    assert result(call, {"rejected": "ball_not_on_table"})["error"] == "ball_not_on_table"
    bad = result(call, {"error": "ball: expected an object ball 1–10"})
    assert bad["error"] == "bad_command" and "ball" in bad["message"]
    ruling = result({"cmd": "shot"}, {"seq": 9, "reason": "Foul.", "foul": True})
    assert ruling == {"ok": True, "seq": 9, "reason": "Foul.", "cmd": "shot"}
    state = result({"cmd": "state"}, {"rack": 2})
    assert state == {"ok": True, "state": {"rack": 2}, "cmd": "state"}

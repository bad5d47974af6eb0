"""The engine's input decoding: a wrong value is refused with a message naming its key."""

from __future__ import annotations

import pytest

from rules import InputError, Session


@pytest.mark.parametrize(
    ("table_mm", "accepted"),
    [
        ([2540, 1270], True),
        ([2235, 1118], True),
        ([100, 100.0], False),  # width must be the shorter side
        ([1270, 2540], False),
        ([2540, 0], False),
        ([2540, 1e-308], False),
        ([1e300, 1270], False),
        ([2540], False),
    ],
)
def test_a_table_size_outside_any_real_table_is_refused(
    table_mm: list[float], accepted: bool
) -> None:
    command = {"cmd": "new_match", "players": ["Ann", "Bob"], "table_mm": table_mm}
    if accepted:
        reply = Session().handle_json(command)
        assert reply["state"]["table_mm"] == [float(v) for v in table_mm]
    else:
        with pytest.raises(InputError, match=r"^table_mm: expected"):
            Session().handle_json(command)

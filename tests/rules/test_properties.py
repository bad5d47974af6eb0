"""Property tests: random but well-formed matches never break the engine's invariants."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import MatchState, Session, parse_state, resolve_options, state_json
from rules.model import Phase, Player
from rules.options import OPTION_KEYS, Preset

POCKETS = ["HL", "HR", "SL", "SR", "FL", "FR"]
RAILS = ["head", "foot", "left", "right"]
PLAYERS = ["A", "B"]
RACK_ENDS = {"ten_pocketed", "three_consecutive_fouls", "concession"}
OTHER_FOULS = ["double_hit", "touched_object_ball", "miscue_jump", "balls_moving", "push_shot"]


def _options() -> st.SearchStrategy[Any]:
    from rules.options import _FIELD_TYPES  # the option keys and their value types

    def values(key: str) -> st.SearchStrategy[Any]:
        kind = _FIELD_TYPES[key]
        return st.booleans() if kind is bool else st.sampled_from([m.value for m in kind])  # type: ignore[attr-defined]

    return st.fixed_dictionaries({}, optional={key: values(key) for key in OPTION_KEYS}).map(
        lambda d: d
    )


@st.composite
def shot_command(draw: st.DrawFn, state: MatchState) -> dict[str, Any]:
    # Once the match is over the table may be empty; the shot is then refused anyway.
    table = sorted(state.balls_on_table) or [10]
    gone = draw(st.lists(st.sampled_from(table), unique=True, max_size=3))
    pocketed = [{"ball": b, "pocket": draw(st.sampled_from(POCKETS))} for b in gone]
    if draw(st.integers(0, 9)) == 0:
        pocketed.insert(draw(st.integers(0, len(pocketed))), {"ball": "cue", "pocket": "FR"})
    off_table: list[Any] = []
    if draw(st.integers(0, 14)) == 0:
        rest = [b for b in table if b not in gone]
        if rest:
            off_table.append(draw(st.sampled_from(rest)))
    # Mostly legal first contacts, so that racks get played out.
    first = draw(st.sampled_from([min(table)] * 6 + [None, *table[:3]]))
    rails = draw(
        st.lists(
            st.fixed_dictionaries(
                {"ball": st.sampled_from([*table, "cue"]), "rail": st.sampled_from(RAILS)}
            ),
            min_size=draw(st.sampled_from([0, 1, 1, 2])),
            max_size=5,
        )
    )
    command: dict[str, Any] = {
        "cmd": "shot",
        "first_contact": first,
        "rails_after_contact": rails,
        "pocketed": pocketed,
        "off_table": off_table,
    }
    if draw(st.integers(0, 9)) == 0:
        command["other_fouls"] = [draw(st.sampled_from(OTHER_FOULS))]
    if draw(st.booleans()) and state.phase is not Phase.BREAK:
        command["declared"] = {
            "call": {"ball": draw(st.sampled_from(table)), "pocket": draw(st.sampled_from(POCKETS))}
        }
    return command


@st.composite
def any_command(draw: st.DrawFn, state: MatchState) -> dict[str, Any]:
    if state.pending_option is not None and draw(st.integers(0, 3)) > 0:
        return {
            "cmd": "option",
            "chooser": state.pending_option.chooser.value,
            "choice": draw(st.sampled_from(["play", "pass"])),
        }
    kind = draw(
        st.sampled_from(
            ["shot"] * 10
            + ["call", "call", "safety", "push_out", "option", "foul"]
            + ["referee", "undo"]
        )
    )
    if kind == "shot":
        return draw(shot_command(state))
    if kind == "call":
        return {
            "cmd": "call",
            "ball": draw(st.integers(1, 10)),
            "pocket": draw(st.sampled_from(POCKETS)),
        }
    if kind in ("safety", "push_out", "undo"):
        return {"cmd": kind}
    if kind == "option":
        pending = state.pending_option
        chooser = (
            pending.chooser.value
            if pending and draw(st.booleans())
            else draw(st.sampled_from(PLAYERS))
        )
        return {
            "cmd": "option",
            "chooser": chooser,
            "choice": draw(st.sampled_from(["play", "pass"])),
        }
    if kind == "foul":
        return {
            "cmd": "foul",
            "player": draw(st.sampled_from(PLAYERS)),
            "foul": "touched_object_ball",
        }
    action = draw(
        st.sampled_from(["announce_stalemate"] * 4 + ["declare_stalemate"] * 4 + ["concede"])
    )
    return {
        "cmd": "referee",
        "action": action,
        "player": draw(st.sampled_from(PLAYERS)),
        "both_players_agree": draw(st.booleans()),
    }


def _check_invariants(before: MatchState, reply: dict[str, Any], after: MatchState) -> None:
    # Exactly one player is to shoot unless an option is pending or the match is over.
    if after.phase is Phase.MATCH_OVER:
        assert after.to_shoot is None and after.match_winner is not None
    else:
        assert (after.to_shoot is None) == (after.pending_option is not None)
    if "kind" not in reply or reply["kind"] == "undo":
        return
    rack_over = reply["rack_result"] is not None
    if rack_over:
        result = reply["rack_result"]
        assert result.get("stalemate") is True or result["reason"] in RACK_ENDS
        assert reply["next_shooter"] is None and reply["balls_on_table_after"] is None
    else:
        assert after.rack == before.rack
        # Balls never come back, except the 10 on its spot.
        assert after.balls_on_table <= before.balls_on_table | {10}
        assert max(after.fouls.a, after.fouls.b) <= 2
        assert (reply["next_shooter"] is None) == (reply["option"] is not None)
    # Scores only grow, by one for a won rack.
    gained = (after.score.a - before.score.a, after.score.b - before.score.b)
    winner = (reply["rack_result"] or {}).get("winner")
    expected = {None: (0, 0), "A": (1, 0), "B": (0, 1)}[winner]
    assert gained == expected
    if reply["warn_next_shooter"]:
        assert after.fouls[Player(reply["next_shooter"])] == 2


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    preset=st.sampled_from([p.value for p in Preset]),
    overrides=_options(),
    race_to=st.integers(1, 3),
)
def test_random_matches_keep_the_invariants(
    data: st.DataObject, preset: str, overrides: dict[str, Any], race_to: int
) -> None:
    options = resolve_options(preset, overrides)
    session = Session(MatchState(options=options, race_to=race_to))
    for _ in range(data.draw(st.integers(20, 80))):
        before = session.state
        command = data.draw(any_command(before))
        reply = session.handle_json(command)
        after = session.state
        if "rejected" in reply:
            assert after == before
            continue
        _check_invariants(before, reply, after)
        # The state round-trips through JSON exactly.
        assert parse_state(state_json(after)) == after
        # Undo after any input restores the previous state exactly.
        if command["cmd"] != "undo":
            probe = Session(after, history=[*session.history])
            assert probe.handle_json({"cmd": "undo"})["state"] == state_json(before)
            assert probe.state == before


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_undo_unwinds_a_whole_match(data: st.DataObject) -> None:
    session = Session(MatchState(race_to=2))
    states = [session.state]
    for _ in range(data.draw(st.integers(1, 60))):
        reply = session.handle_json(
            data.draw(any_command(session.state).filter(lambda c: c["cmd"] != "undo"))
        )
        if "rejected" not in reply:
            states.append(session.state)
    while len(states) > 1:
        states.pop()
        session.handle_json({"cmd": "undo"})
        assert session.state == states[-1]
    assert session.handle_json({"cmd": "undo"}) == {"rejected": "nothing_to_undo"}


def test_bare_given_shape_loads_with_defaults() -> None:
    state = parse_state({"phase": "play", "shooter": "B", "balls_on_table": [4, 10]})
    assert state.lowest == 4 and state.to_shoot is Player.B
    assert state.options == resolve_options("wpa")
    assert state.score.a == state.score.b == 0


def test_a_reason_never_fails_on_what_arrives_from_a_network() -> None:
    from rules.reasons import render

    text = render("foul", {"shooter": "Ann", "next": "Bob", "fouls": ["{", "no_contact"]}, "en")
    assert text.startswith("Foul by Ann: { and the cue ball hit no ball.")
    assert render("no_such_code", {"score": "x", "names": None}, "xx") == "no_such_code"


def test_the_winning_ten_leaves_the_table_when_the_match_ends() -> None:
    session = Session(
        parse_state(
            {"phase": "play", "balls_on_table": [10], "score": {"A": 0, "B": 0}, "race_to": 1}
        )
    )
    session.handle_json({"cmd": "call", "ball": 10, "pocket": "FR"})
    reply = session.handle_json(
        {"cmd": "shot", "first_contact": 10, "pocketed": [{"ball": 10, "pocket": "FR"}]}
    )
    assert reply["match_winner"] == "A"
    assert sorted(session.state.balls_on_table) == []

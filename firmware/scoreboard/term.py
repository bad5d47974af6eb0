"""The terminal board: for installers, and for the README's demo."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]

# WPA ball colours as xterm-256 backgrounds; 9 and 10 are the stripes of 1 and 2.
BALL_COLOURS = {1: 220, 2: 21, 3: 196, 4: 91, 5: 208, 6: 28, 7: 88, 8: 16, 9: 220, 10: 21}
CUE_BALL_TEXT = {
    "in_place": "in place",
    "in_hand_anywhere": "IN HAND (anywhere)",
    "in_hand_kitchen": "in hand behind the head string",
}


def _ball(n: int, colour: bool) -> str:
    label = f"{n:>2}"
    if not colour:
        return f"({label})"
    fg = 231 if n in (2, 4, 7, 8, 10) else 16
    stripe = "\x1b[4m" if n >= 9 else ""
    return f"\x1b[48;5;{BALL_COLOURS[n]}m\x1b[38;5;{fg}m{stripe} {label} \x1b[0m"


def render_board(board: Json, *, colour: bool = False) -> str:
    """The board as lines of text (ANSI colours when `colour`)."""
    names, score, fouls = board["players"], board["score"], board["fouls"]
    to_shoot = board["shooter"] if board["option"] is None else None
    ruleset = board.get("preset") or board["ruleset"]
    lines = [
        f"Ten-Ball · {str(ruleset).upper()} · race to {board['race_to']} · rack {board['rack']}"
        f" · table {board['table']}",
        "",
    ]
    width = max(len(names["A"]), len(names["B"]))
    for player in ("A", "B"):
        marker = "▶" if to_shoot == player and board["match_winner"] is None else " "
        foul_marks = "●" * fouls[player] + "·" * (2 - fouls[player])
        warn = "  WARNING: on two fouls" if board["warn"][player] else ""
        breaks = "  (broke)" if board["breaker"] == player else ""
        name = f"{names[player]:<{width}}"
        lines.append(f" {marker} {name}  {score[player]:>2}   fouls {foul_marks}{warn}{breaks}")
    lines.append("")
    if board["match_winner"] is not None:
        lines.append(f" {names[board['match_winner']]} wins the match.")
    else:
        balls = " ".join(_ball(n, colour) for n in board["balls_on_table"])
        lines.append(f" Balls: {balls}")
        status = [f"cue ball {CUE_BALL_TEXT[board['cue_ball']]}"]
        if board["push_out_available"]:
            status.append("push-out available")
        if board["option"] is not None:
            status.append(f"{names[board['option']['chooser']]} to play or pass")
        if board["call"] is not None:
            status.append(f"called: {board['call']['ball']} in {board['call']['pocket']}")
        if board["safety"]:
            status.append("safety declared")
        if board["push_out"]:
            status.append("push-out declared")
        lines.append(" " + " · ".join(status))
    last = board["last_ruling"]
    if last is not None:
        lines += ["", f" #{last['seq']}: {last['reason']}"]
    return "\n".join(lines)

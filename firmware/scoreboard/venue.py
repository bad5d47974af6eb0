"""The venue view: every table of a club at once (tenball/v1/+/…).

The subscriber fills one model with all tables; this module draws the terminal version, one
line per table. The web version is the same page as a table's (firmware.scoreboard.web), in
its venue mode: a card per table, each linking to the table's own page.
"""

from __future__ import annotations

from firmware.scoreboard.model import Snapshot, TableView
from firmware.scoreboard.term import status_line

COLUMNS = ("table", "players", "score", "race", "rack", "at the table", "balls", "fouls", "")


def row(view: TableView) -> tuple[str, ...]:
    board = view.state
    status = "OFFLINE" if view.online is False else ""
    if board is None:
        return (view.table, "(no state yet)", "", "", "", "", "", "", status)
    names = board["players"]
    if board["match_winner"] is not None:
        at_table = f"{names[board['match_winner']]} won"
    elif board["option"] is not None:
        at_table = f"{names[board['option']['chooser']]}: play or pass?"
    else:
        at_table = names[board["shooter"]]
        if board["cue_ball"] != "in_place":
            at_table += " (ball in hand)"
    fouls = f"{board['fouls']['A']}/{board['fouls']['B']}"
    if board["warn"]["A"] or board["warn"]["B"]:
        fouls += " !"
    return (
        view.table,
        f"{names['A']} – {names['B']}",
        f"{board['score']['A']}–{board['score']['B']}",
        str(board["race_to"]),
        str(board["rack"]),
        at_table,
        " ".join(str(n) for n in board["balls_on_table"]),
        fouls,
        status,
    )


def render_venue(snapshot: Snapshot) -> str:
    """All tables that have said anything, sorted by id, as an aligned text table."""
    rows = [COLUMNS, *(row(view) for view in snapshot.changed_since(0) if _present(view))]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(r, widths, strict=True)).rstrip()
        for r in rows
    ]
    lines.insert(1, "-" * len(lines[0]))
    header = [line for line in (status_line(snapshot),) if line]
    count = len(rows) - 1
    footer = [f"{count} table{'s' if count != 1 else ''}"]
    if snapshot.ignored:
        footer.append(f"{snapshot.ignored} malformed message(s) ignored; last: {snapshot.problem}")
    return "\n".join([*header, *lines, "", *footer])


def _present(view: TableView) -> bool:
    # A table whose retained state and status were both cleared has left the venue.
    return view.state is not None or view.status is not None

"""The LED panel view: a table's board drawn into an RGB frame for a HUB75 panel.

Three common sizes, each with its own layout (`LAYOUTS`): two player rows (who is at the table,
name, foul pips with the two-foul warning, score), the balls still on the table in their WPA
colours, the race and the called ball and pocket, and one or two message lines for what the
players must know now (ball in hand, play or pass, table offline…), most important first.
The frame is a numpy array; `firmware.scoreboard.panel` puts it on a panel or into PNG files.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from firmware.scoreboard.font import LARGE, SMALL, Font, Mask
from firmware.scoreboard.model import TableView
from firmware.scoreboard.payloads import PLAYERS, Side, StatePayload

Frame = npt.NDArray[np.uint8]  # (height, width, 3), RGB
Colour = tuple[int, int, int]

BLACK: Colour = (0, 0, 0)
WHITE: Colour = (255, 255, 255)
GOLD: Colour = (255, 190, 0)
GREEN: Colour = (0, 220, 0)
CYAN: Colour = (0, 160, 255)
AMBER: Colour = (255, 140, 0)
RED: Colour = (255, 0, 0)
# The 8 is black, which an LED panel cannot show: it gets a dim ring instead.
RING: Colour = (110, 110, 110)

# WPA colours; the 9 and the 10 are the stripes of the 1 and the 2.
BALL_COLOURS: dict[int, Colour] = {
    1: (255, 210, 0),
    2: (0, 70, 255),
    3: (230, 0, 0),
    4: (140, 0, 210),
    5: (255, 100, 0),
    6: (0, 160, 40),
    7: (150, 20, 20),
    8: BLACK,
    9: (255, 210, 0),
    10: (0, 70, 255),
}
STRIPES = (9, 10)
DARK_BALLS = (2, 3, 4, 6, 7, 8, 10)  # numbered in white, the others in black

PIP = 3  # a foul pip is 3×3 pixels


@dataclass(frozen=True)
class Layout:
    """Where everything goes on one panel size. `rows` are the tops of player A's and B's rows."""

    width: int
    height: int
    rows: tuple[int, int]
    name_font: Font
    name_dy: int  # the name's offset below the top of its row
    name_x: int
    name_width: int
    pips_x: int  # two foul pips, then the warning mark
    score_font: Font
    score_scale: int
    info: tuple[int, int]  # race and rack, SMALL font
    call_y: int  # the called ball and pocket, right-aligned, SMALL font
    call_label: bool
    ball_size: int  # 5 or 9 pixels
    balls: tuple[int, int, int]  # x, y, pitch of the ball row
    messages: tuple[int, ...]  # y of each message line, SMALL font, full width


LAYOUTS: dict[tuple[int, int], Layout] = {
    (64, 32): Layout(
        width=64,
        height=32,
        rows=(0, 6),
        name_font=SMALL,
        name_dy=0,
        name_x=4,
        name_width=39,
        pips_x=44,
        score_font=SMALL,
        score_scale=1,
        info=(0, 20),
        call_y=20,
        call_label=False,
        ball_size=5,
        balls=(2, 13, 6),
        messages=(27,),
    ),
    (128, 32): Layout(
        width=128,
        height=32,
        rows=(0, 9),
        name_font=LARGE,
        name_dy=0,
        name_x=7,
        name_width=89,
        pips_x=98,
        score_font=LARGE,
        score_scale=1,
        info=(64, 18),
        call_y=18,
        call_label=False,
        ball_size=5,
        balls=(0, 18, 6),
        messages=(26,),
    ),
    (128, 64): Layout(
        width=128,
        height=64,
        rows=(1, 17),
        name_font=LARGE,
        name_dy=4,
        name_x=7,
        name_width=83,
        pips_x=92,
        score_font=LARGE,
        score_scale=2,
        info=(0, 34),
        call_y=34,
        call_label=True,
        ball_size=9,
        balls=(5, 42, 12),
        messages=(53, 59),
    ),
}
SIZES = tuple(f"{w}x{h}" for w, h in LAYOUTS)


def parse_size(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    size = (int(width), int(height)) if width.isdigit() and height.isdigit() else None
    if size is None or size not in LAYOUTS:
        raise ValueError(f"{text!r}: the LED view draws {', '.join(SIZES)}")
    return size


def render(view: TableView, size: tuple[int, int], *, connected: bool = True) -> Frame:
    """The frame for one table (`connected`: whether the scoreboard reaches the broker)."""
    layout = LAYOUTS[size]
    frame = np.zeros((layout.height, layout.width, 3), dtype=np.uint8)
    board = view.state
    alerts = _alerts(view, connected)
    if board is None:
        at = (layout.name_x, layout.rows[0] + layout.name_dy)
        _text(frame, at, f"TABLE {view.table}", layout.name_font, WHITE)
        _messages(frame, layout, [*alerts, ("WAITING", AMBER)])
        return frame
    for side, row in zip(PLAYERS, layout.rows, strict=True):
        _player(frame, layout, board, side, row)
    x, y, pitch = layout.balls
    for i, ball in enumerate(board["balls_on_table"]):
        draw_ball(frame, x + i * pitch, y, ball, layout.ball_size)
    _text(frame, layout.info, _race(board, layout), SMALL, CYAN)
    if board["call"] is not None:
        _call(frame, layout, board["call"]["ball"], board["call"]["pocket"])
    _messages(frame, layout, [*alerts, *_board_messages(board)])
    return frame


def draw_ball(frame: Frame, x: int, y: int, ball: int, size: int) -> None:
    """Ball `ball` with its top-left corner at (x, y): 5 pixels, or 9 with its number."""
    disc = _disc(size)
    colour = BALL_COLOURS[ball]
    _paint(frame, (x, y), disc, WHITE if ball in STRIPES else colour)
    if ball in STRIPES:
        band = 2 if size >= 9 else 1  # the white rows above and below the stripe
        stripe = disc.copy()
        stripe[:band] = stripe[size - band :] = False
        _paint(frame, (x, y), stripe, colour)
    if ball == 8:
        inner = np.zeros_like(disc)
        inner[1:-1, 1:-1] = _disc(size - 2)
        _paint(frame, (x, y), disc & ~inner, RING)
    if size >= 9:
        number = str(ball)
        colour = WHITE if ball in DARK_BALLS else BLACK
        nx = x + (size - SMALL.measure(number)) // 2
        _text(frame, (nx, y + (size - SMALL.height) // 2), number, SMALL, colour)


def _player(frame: Frame, layout: Layout, board: StatePayload, side: Side, row: int) -> None:
    font = layout.name_font
    y = row + layout.name_dy
    marker = _marker(board, side)
    if marker is not None:
        _text(frame, (0, y), marker[0], font, marker[1])
    name = font.fit(_name(board, side), layout.name_width)
    _text(frame, (layout.name_x, y), name, font, WHITE)
    fouls = board["fouls"][side]
    pip_y = y + (font.height - PIP) // 2
    for i in range(min(fouls, 2)):
        pip = np.ones((PIP, PIP), dtype=bool)
        at = (layout.pips_x + i * (PIP + 1), pip_y)
        _paint(frame, at, pip, AMBER if fouls == 1 else RED)
    if board["warn"][side]:
        _text(frame, (layout.pips_x + 2 * (PIP + 1), y), "!", font, RED)
    score = str(board["score"][side])
    scale = layout.score_scale
    width = layout.score_font.measure(score) * scale
    _text(frame, (layout.width - width, row), score, layout.score_font, GOLD, scale=scale)


def _marker(board: StatePayload, side: Side) -> tuple[str, Colour] | None:
    """'>' for the player at the table; '?' for a player who must choose to play or pass."""
    if board["match_winner"] is not None:
        return None
    option = board["option"]
    if option is not None:
        return ("?", AMBER) if option["chooser"] == side else None
    return (">", GREEN) if board["shooter"] == side else None


def _name(board: StatePayload, side: Side) -> str:
    # A name in a script the font lacks (Hebrew) would vanish: say whose row it is instead.
    name = board["players"][side]
    return name if SMALL.fold(name).strip() else f"PLAYER {side}"


def _race(board: StatePayload, layout: Layout) -> str:
    if layout.width >= 128 and layout.height >= 64:
        return f"RACE TO {board['race_to']}  RACK {board['rack']}"
    return f"RACE {board['race_to']}"


def _call(frame: Frame, layout: Layout, ball: int, pocket: str) -> None:
    right = layout.width - SMALL.measure(pocket)
    _text(frame, (right, layout.call_y), pocket, SMALL, WHITE)
    ball_x = right - 2 - 5
    draw_ball(frame, ball_x, layout.call_y, ball, 5)
    if layout.call_label:
        label_x = ball_x - 2 - SMALL.measure("CALL")
        _text(frame, (label_x, layout.call_y), "CALL", SMALL, CYAN)


def _alerts(view: TableView, connected: bool) -> list[tuple[str, Colour]]:
    alerts = []
    if view.online is False:
        alerts.append(("TABLE OFFLINE", RED))
    if not connected:
        alerts.append(("NO CONNECTION", RED))
    return alerts


def _board_messages(board: StatePayload) -> list[tuple[str, Colour]]:
    """What the players must know now, most important first; `{}` is a player's name."""
    name = {side: SMALL.fold(_name(board, side)) for side in PLAYERS}
    out: list[tuple[str, Colour]] = []
    winner = board["match_winner"]
    if winner is not None:
        return [(f"{name[winner]} WINS MATCH", GREEN)]
    result = board.get("rack_result")
    if result is not None:
        if result.get("stalemate"):
            out.append(("STALEMATE: REPLAY", GREEN))
        elif result.get("winner") in PLAYERS:
            out.append((f"{name[result['winner']]} WINS RACK", GREEN))
    option = board["option"]
    if option is not None:
        out.append((f"{name[option['chooser']]} PLAY/PASS?", AMBER))
    cue = board["cue_ball"]
    if cue == "in_hand_anywhere" and board.get("phase") != "break":
        out.append(("BALL IN HAND", AMBER))
    elif cue == "in_hand_kitchen" and board.get("phase") != "break":
        out.append(("IN HAND KITCHEN", AMBER))
    for side in PLAYERS:
        if board["warn"][side]:
            out.append((f"{name[side]} ON 2 FOULS", RED))
    if board["push_out"]:
        out.append(("PUSH OUT", AMBER))
    if board["safety"]:
        out.append(("SAFETY", AMBER))
    if board["push_out_available"] and option is None:
        out.append(("PUSH OUT OK", CYAN))
    if board.get("phase") == "break":
        out.append((f"{name[board['shooter']]} TO BREAK", CYAN))
    return out


def _messages(frame: Frame, layout: Layout, messages: list[tuple[str, Colour]]) -> None:
    """As many messages as fit on the message lines, in order, two spaces apart."""
    chars = (layout.width + 1) // SMALL.advance
    queue = [(text[:chars], colour) for text, colour in messages]
    for y in layout.messages:
        x = 0
        while queue and x + SMALL.measure(SMALL.fold(queue[0][0])) <= layout.width:
            text, colour = queue.pop(0)
            _text(frame, (x, y), text, SMALL, colour)
            x += (len(text) + 2) * SMALL.advance  # on the character grid, two spaces apart
        if not queue:
            return


def _text(
    frame: Frame, at: tuple[int, int], text: str, font: Font, colour: Colour, *, scale: int = 1
) -> int:
    """Draw folded `text` with its top-left corner `at` (x, y); returns its width in pixels."""
    x, y = at
    folded = font.fold(text)
    for i, char in enumerate(folded):
        glyph = font.glyphs[char]
        if scale > 1:
            glyph = np.kron(glyph, np.ones((scale, scale), dtype=bool)).astype(bool)
        _paint(frame, (x + i * font.advance * scale, y), glyph, colour)
    return font.measure(folded) * scale


def _paint(frame: Frame, at: tuple[int, int], mask: Mask, colour: Colour) -> None:
    """Set the pixels of `mask` with its top-left corner `at` (x, y), clipped to the frame."""
    x, y = at
    height, width = frame.shape[:2]
    top, left = max(0, -y), max(0, -x)
    bottom = min(mask.shape[0], height - y)
    right = min(mask.shape[1], width - x)
    if bottom <= top or right <= left:
        return
    region = frame[y + top : y + bottom, x + left : x + right]
    region[mask[top:bottom, left:right]] = colour


def _disc(size: int) -> Mask:
    centre = (size - 1) / 2
    yy, xx = np.mgrid[:size, :size]
    return np.asarray((xx - centre) ** 2 + (yy - centre) ** 2 <= (size / 2) ** 2)

"""The LED view, pixel by pixel: real engine states drawn for each panel size, read back."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np
import pytest

from firmware.scoreboard import led
from firmware.scoreboard.font import LARGE, SMALL, Font
from firmware.scoreboard.led import BALL_COLOURS, LAYOUTS, RING, WHITE, Frame
from firmware.scoreboard.model import TableView
from firmware.scoreboard.panel import PanelConfig, PanelError, PngOutput, open_panel
from firmware.scoreboard.payloads import StatePayload
from tests.scoreboard.ledtext import colours, read_right, read_text

Json = dict[str, Any]
SMALL_PANEL, WIDE_PANEL, BIG_PANEL = (64, 32), (128, 32), (128, 64)
# The demo match: state 11 is Bob's foul (Ann has ball in hand, has called the 2 in SL).
BALL_IN_HAND = 11


def _view(state: Json, **status: Any) -> TableView:
    return TableView("t1", cast(StatePayload, state), cast(Any, status) or None)


def _draw(state: Json, size: tuple[int, int], **status: Any) -> Frame:
    return led.render(_view(state, **status), size)


def _message(frame: Frame, size: tuple[int, int], chars: int, line: int = 0) -> str:
    return read_text(frame, (0, LAYOUTS[size].messages[line]), SMALL, chars)


@pytest.mark.parametrize("font", [SMALL, LARGE], ids=["3x5", "5x7"])
def test_every_glyph_is_distinct(font: Font) -> None:
    shapes = [glyph.tobytes() for glyph in font.glyphs.values()]
    assert len(set(shapes)) == len(shapes)
    assert font.fold("Señor Ölund ß") == "SENOR OLUND SS"
    assert font.fold("שרה") == ""


@pytest.mark.parametrize("size", list(LAYOUTS), ids=led.SIZES)
def test_names_scores_and_who_is_at_the_table(states: list[Json], size: tuple[int, int]) -> None:
    layout = LAYOUTS[size]
    state = states[-3]  # rack 3, Ann to shoot, one rack each
    frame = _draw(state, size)
    font, scale = layout.name_font, layout.score_scale
    row_a, row_b = (row + layout.name_dy for row in layout.rows)
    assert read_text(frame, (layout.name_x, row_a), font, 3) == "ANN"
    assert read_text(frame, (layout.name_x, row_b), font, 3) == "BOB"
    for side, row in zip("AB", layout.rows, strict=True):
        assert read_right(frame, (size[0], row), layout.score_font, 1, scale=scale) == str(
            state["score"][side]
        )
    assert read_text(frame, (0, row_a), font, 1) == ">"
    assert colours(frame, (0, row_a, font.width, font.height)) == {led.GREEN}
    assert colours(frame, (0, row_b, font.width, font.height)) == set()
    race = "RACE TO 2  RACK 3" if size == BIG_PANEL else "RACE 2"
    assert read_text(frame, layout.info, SMALL, len(race)) == race


@pytest.mark.parametrize("size", list(LAYOUTS), ids=led.SIZES)
def test_the_balls_on_the_table_in_their_colours(states: list[Json], size: tuple[int, int]) -> None:
    state = states[0]  # the rack before the break: all ten balls
    assert state["balls_on_table"] == list(range(1, 11))
    frame = _draw(state, size)
    x0, y, pitch = LAYOUTS[size].balls
    d = LAYOUTS[size].ball_size
    middle = d // 2
    for i, ball in enumerate(state["balls_on_table"]):
        x = x0 + i * pitch
        left_edge = tuple(frame[y + middle, x])  # clear of the number on the big balls
        top = tuple(frame[y, x + middle])
        if ball == 8:  # black cannot be lit: a dim ring round a dark ball
            assert left_edge == top == RING
            assert tuple(frame[y + middle, x + 1]) == (0, 0, 0)
        elif ball in led.STRIPES:
            assert left_edge == BALL_COLOURS[ball] and top == WHITE
        else:
            assert left_edge == top == BALL_COLOURS[ball]
    # Nothing after the last ball.
    assert colours(frame, (x0 + 10 * pitch, y, size[0] - x0 - 10 * pitch, d)) <= {led.CYAN}


def test_the_big_panel_numbers_its_balls(states: list[Json]) -> None:
    frame = _draw(states[0], BIG_PANEL)
    x0, y, pitch = LAYOUTS[BIG_PANEL].balls
    for i, ball in enumerate(range(1, 11)):
        number = str(ball)
        x = x0 + i * pitch + (9 - SMALL.measure(number)) // 2
        lit = frame[y + 2 : y + 7, x : x + SMALL.measure(number)]
        ink = (255, 255, 255) if ball in led.DARK_BALLS else (0, 0, 0)
        drawn = np.all(lit == ink, axis=2)
        expected = np.hstack([np.pad(SMALL.glyphs[c], ((0, 0), (0, 1))) for c in number])[:, :-1]
        assert np.array_equal(drawn, expected), ball


def test_ball_in_hand_and_the_called_ball_and_pocket(states: list[Json]) -> None:
    state = states[BALL_IN_HAND]
    assert state["cue_ball"] == "in_hand_anywhere" and state["call"] == {"ball": 2, "pocket": "SL"}
    for size in LAYOUTS:
        frame = _draw(state, size)
        layout = LAYOUTS[size]
        assert _message(frame, size, 12) == "BALL IN HAND"
        assert read_right(frame, (size[0], layout.call_y), SMALL, 2) == "SL"
        ball_x = size[0] - SMALL.measure("SL") - 7
        assert tuple(frame[layout.call_y + 2, ball_x + 2]) == BALL_COLOURS[2]
    big = _draw(state, BIG_PANEL)
    assert read_text(big, (size[0] - 7 - 7 - 17, LAYOUTS[BIG_PANEL].call_y), SMALL, 4) == "CALL"


def test_fouls_and_the_two_foul_warning(states: list[Json]) -> None:
    one_foul = states[BALL_IN_HAND]
    assert one_foul["fouls"] == {"A": 0, "B": 1}
    warned = {**one_foul, "fouls": {"A": 0, "B": 2}, "warn": {"A": False, "B": True}}
    for size, layout in LAYOUTS.items():
        font = layout.name_font
        row_a, row_b = (row + layout.name_dy for row in layout.rows)
        pips = (layout.pips_x, row_b, 2 * led.PIP + 1, font.height)
        frame = _draw(one_foul, size)
        assert colours(frame, pips) == {led.AMBER}
        assert np.count_nonzero(frame[row_b : row_b + font.height, layout.pips_x :][..., 0]) > 0
        assert colours(frame, (layout.pips_x, row_a, 2 * led.PIP + 1, font.height)) == set()
        frame = _draw(warned, size)
        assert colours(frame, pips) == {led.RED}
        mark_x = layout.pips_x + 2 * (led.PIP + 1)
        assert read_text(frame, (mark_x, row_b), font, 1) == "!"
    big = _draw(warned, BIG_PANEL)
    assert _message(big, BIG_PANEL, 28) == "BALL IN HAND  BOB ON 2 FOULS"


def test_an_option_pending_marks_the_chooser(states: list[Json]) -> None:
    state = states[3]  # Ann pushed out: Bob to play or pass
    assert state["option"] is not None and state["option"]["chooser"] == "B"
    for size, layout in LAYOUTS.items():
        frame = _draw(state, size)
        row_a, row_b = (row + layout.name_dy for row in layout.rows)
        assert read_text(frame, (0, row_b), layout.name_font, 1) == "?"
        assert read_text(frame, (0, row_a), layout.name_font, 1) == " "
        assert _message(frame, size, 14) == "BOB PLAY/PASS?"


def test_offline_table_and_lost_broker_come_first(states: list[Json]) -> None:
    state = states[BALL_IN_HAND]
    frame = _draw(state, WIDE_PANEL, online=False)
    assert _message(frame, WIDE_PANEL, 29) == "TABLE OFFLINE  BALL IN HAND  "
    assert colours(frame, (0, LAYOUTS[WIDE_PANEL].messages[0], 52, 5)) == {led.RED}
    frame = led.render(_view(state, online=True), SMALL_PANEL, connected=False)
    assert _message(frame, SMALL_PANEL, 13) == "NO CONNECTION"


def test_waiting_for_a_table_that_has_said_nothing() -> None:
    frame = led.render(TableView("t7"), SMALL_PANEL)
    assert read_text(frame, (4, 0), SMALL, 8) == "TABLE T7"
    assert _message(frame, SMALL_PANEL, 7) == "WAITING"


def test_rack_and_match_results(states: list[Json]) -> None:
    rack_won = next(s for s in states if s["rack_result"] and s["rack"] == 2)
    assert _message(_draw(rack_won, WIDE_PANEL), WIDE_PANEL, 13) == "BOB WINS RACK"
    over = states[-1]
    assert over["match_winner"] == "A"
    frame = _draw(over, SMALL_PANEL)
    assert _message(frame, SMALL_PANEL, 14) == "ANN WINS MATCH"
    assert read_text(frame, (0, 0), SMALL, 1) == " "  # nobody is at the table any more


def test_names_are_folded_and_cut_to_fit(states: list[Json]) -> None:
    names = {"A": "Ángel Bermúdez-Villanueva", "B": "שרה"}
    frame = _draw({**states[5], "players": names}, SMALL_PANEL)
    assert read_text(frame, (4, 0), SMALL, 10) == "ANGEL BERM"
    assert read_text(frame, (4, 6), SMALL, 8) == "PLAYER B"  # no Hebrew glyphs on the panel


def test_png_frames_are_the_rendered_pixels(tmp_path: Path, states: list[Json]) -> None:
    output = PngOutput(tmp_path / "frames")
    frames = [_draw(states[i], BIG_PANEL) for i in (1, 2)]
    for frame in frames:
        output.show(frame)
    files = sorted(p.name for p in (tmp_path / "frames").iterdir())
    assert files == ["frame-000001.png", "frame-000002.png", "latest.png"]
    for name, frame in [("frame-000001.png", frames[0]), ("latest.png", frames[1])]:
        image = cv2.imread(str(tmp_path / "frames" / name))
        assert image is not None
        read = image[:, :, ::-1]
        assert np.array_equal(read, frame)


def test_without_a_panel_driver_the_message_says_what_to_do() -> None:
    with pytest.raises(PanelError, match="--png DIR"):
        open_panel(SMALL_PANEL, PanelConfig())


def test_rpi_rgb_led_matrix_gets_the_chain_and_every_pixel(
    monkeypatch: pytest.MonkeyPatch, states: list[Json]
) -> None:
    pixels: dict[tuple[int, int], tuple[int, int, int]] = {}
    made: list[Any] = []

    class Canvas:
        def SetPixel(self, x: int, y: int, r: int, g: int, b: int) -> None:  # noqa: N802
            pixels[(x, y)] = (r, g, b)

    class Matrix:
        def __init__(self, options: Any) -> None:
            made.append(options)

        def CreateFrameCanvas(self) -> Canvas:  # noqa: N802
            return Canvas()

        def SwapOnVSync(self, canvas: Canvas) -> Canvas:  # noqa: N802
            return canvas

    fake = types.ModuleType("rgbmatrix")
    fake.RGBMatrix = Matrix  # type: ignore[attr-defined]
    fake.RGBMatrixOptions = types.SimpleNamespace  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "rgbmatrix", fake)
    panel = open_panel(WIDE_PANEL, PanelConfig(hardware="adafruit-bonnet", slowdown=4))
    frame = _draw(states[BALL_IN_HAND], WIDE_PANEL)
    panel.show(frame)
    options = made[0]
    assert (options.cols, options.rows, options.chain_length) == (64, 32, 2)
    assert (options.hardware_mapping, options.gpio_slowdown) == ("adafruit-hat", 4)
    assert len(pixels) == 128 * 32
    assert all(pixels[(x, y)] == tuple(frame[y, x]) for x, y in [(0, 0), (5, 20), (127, 31)])


def test_piomatter_is_preferred_on_a_pi_5(
    monkeypatch: pytest.MonkeyPatch, states: list[Json]
) -> None:
    shown: list[Frame] = []

    class PioMatter:
        def __init__(self, **kwargs: Any) -> None:
            self.kwargs = kwargs

        def show(self) -> None:
            shown.append(self.kwargs["framebuffer"].copy())

    fake = types.ModuleType("adafruit_blinka_raspberry_pi5_piomatter")
    namespace = types.SimpleNamespace
    fake.PioMatter = PioMatter  # type: ignore[attr-defined]
    fake.Geometry = namespace  # type: ignore[attr-defined]
    fake.Orientation = namespace(Normal="normal")  # type: ignore[attr-defined]
    fake.Colorspace = namespace(RGB888Packed="rgb888")  # type: ignore[attr-defined]
    fake.Pinout = namespace(  # type: ignore[attr-defined]
        AdafruitMatrixHat="hat", AdafruitMatrixBonnet="bonnet"
    )
    monkeypatch.setitem(sys.modules, "adafruit_blinka_raspberry_pi5_piomatter", fake)
    panel = open_panel(BIG_PANEL, PanelConfig())
    frame = _draw(states[BALL_IN_HAND], BIG_PANEL)
    panel.show(frame)
    assert np.array_equal(shown[0], frame)
    matrix = cast(Any, panel).matrix
    assert matrix.kwargs["geometry"].n_addr_lines == 5  # 64-row panels
    assert matrix.kwargs["pinout"] == "hat"


def test_a_frame_is_not_a_row_of_panels() -> None:
    with pytest.raises(PanelError, match="not a row of 48x32 panels"):
        PanelConfig(panel=(48, 32)).chain(WIDE_PANEL)

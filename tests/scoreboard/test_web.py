"""The web view in headless Chromium, fed through a real mosquitto: the DOM and the pixels."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from firmware import topics
from firmware.scoreboard.model import Model
from firmware.scoreboard.recorded import Publication, load_commands, referee_traffic, with_players
from firmware.scoreboard.web import WebServer
from rules.reasons import render
from tests.broker import Broker
from tests.scoreboard.browser import Browser, Image
from tests.scoreboard.support import Publisher, wait_until

Json = dict[str, Any]
Serve = Callable[[str | None], str]
T1 = topics.Topics("t1")
TV, PHONE = (1920, 1080), (390, 844)
BALL_IN_HAND_INDEX = 11
# WPA ball colours (RGB) as a viewer would name them; a drawn ball must be close to its own.
WPA = {
    "cue": (248, 246, 236),
    "1": (247, 198, 0),
    "2": (20, 70, 200),
    "3": (215, 20, 31),
    "4": (106, 44, 145),
    "5": (242, 106, 27),
    "6": (12, 148, 71),
    "7": (123, 30, 36),
    "8": (20, 20, 20),
    "9": (247, 198, 0),
    "10": (20, 70, 200),
}


@pytest.fixture
def serve(subscribe: Callable[[str | None], Model]) -> Iterator[Serve]:
    """Serve the web view of a table (None: the venue) on a free port; its URL."""
    servers: list[WebServer] = []

    def start(table: str | None) -> str:
        server = WebServer(subscribe(table), table=table, address=("127.0.0.1", 0))
        server.start()
        servers.append(server)
        return server.url

    yield start
    for server in servers:
        server.stop()


def _until(traffic: list[Publication], state: Json) -> list[Publication]:
    """The traffic up to and including the publication of `state`."""
    return traffic[: next(i for i, p in enumerate(traffic) if p.payload is state) + 1]


def _open(browser: Browser, url: str, size: tuple[int, int], *, seq: int) -> None:
    browser.open(url, width=size[0], height=size[1], mobile=size == PHONE)
    browser.wait_for(f"document.querySelector('.board[data-seq=\"{seq}\"]') !== null")


def _texts(browser: Browser, selector: str) -> list[str]:
    texts: list[str] = browser.evaluate(
        f"[...document.querySelectorAll({json.dumps(selector)})].map(e => e.textContent)"
    )
    return texts


def _ball_pixels(browser: Browser, image: Image) -> dict[str, tuple[int, int, int]]:
    """Each drawn ball's colour, read from the screenshot inside the ball beside its number."""
    layout = browser.evaluate(
        """(() => { const svg = document.querySelector('.diagram svg');
          const r = svg.getBoundingClientRect(); const v = svg.viewBox.baseVal;
          return {left: r.left, top: r.top, scale: r.width / v.width, x0: v.x, y0: v.y,
                  balls: [...svg.querySelectorAll('g.ball')].map(g =>
                    [g.dataset.ball, Number(g.dataset.x), Number(g.dataset.y)])}; })()"""
    )
    radius = browser.evaluate("BALL_DRAWN_MM") * layout["scale"]
    out = {}
    for ball, x, y in layout["balls"]:
        # Between the white circle of the number (0.45 r) and the outline.
        px = layout["left"] + (x - layout["x0"]) * layout["scale"] + 0.7 * radius
        py = layout["top"] + (y - layout["y0"]) * layout["scale"]
        r, g, b = image[round(py), round(px)]
        out[ball] = (int(r), int(g), int(b))
    return out


def _close(colour: tuple[int, int, int], reference: tuple[int, int, int]) -> bool:
    return bool(np.all(np.abs(np.subtract(colour, reference)) <= 40))


@pytest.fixture
def ball_in_hand(publisher: Publisher, traffic: list[Publication], states: list[Json]) -> Json:
    """The demo match published up to its state 11: Bob fouled, Ann has called the 2 in SL."""
    state = states[BALL_IN_HAND_INDEX]
    publisher.send(*_until(traffic, state))
    return state


@pytest.mark.parametrize("size", [TV, PHONE], ids=["tv", "phone"])
def test_the_page_shows_the_state(
    browser: Browser, serve: Serve, ball_in_hand: Json, size: tuple[int, int]
) -> None:
    state = ball_in_hand
    _open(browser, serve("t1") + "?lang=en", size, seq=6)
    assert _texts(browser, ".player .name") == ["Ann", "Bob"]
    assert _texts(browser, ".player .score") == ["0", "0"]
    assert (
        browser.evaluate("document.querySelector('.player[data-active=true]').dataset.side") == "A"
    )
    assert _texts(browser, ".player[data-side=B] .pip.on") == [""]  # Bob's one foul
    assert browser.evaluate("document.querySelector('.rack').dataset.balls") == "2 3 5 6 7 8 9 10"
    assert _texts(browser, ".chip") == ["Ball in hand", "Called: the 2 in the left side pocket"]
    assert browser.evaluate("document.querySelector('.pocket.called').dataset.pocket") == "SL"
    last = state["last_ruling"]
    assert browser.text(".reason .text") == render(last["reason_code"], last["reason_args"], "en")
    # The diagram: every ball where the state says it rests, in its colour.
    pixels = _ball_pixels(browser, browser.screenshot())
    assert set(pixels) == set(state["positions"])
    wrong = {b: c for b, c in pixels.items() if not _close(c, WPA[b])}
    assert not wrong, wrong
    # Nothing is cut off or scrolls sideways; a phone stacks the diagram under the players.
    assert browser.evaluate("document.documentElement.scrollWidth") <= size[0]
    below = (
        "document.querySelector('.diagram').getBoundingClientRect().top >= "
        "document.querySelector('.players').getBoundingClientRect().bottom"
    )
    assert browser.evaluate(below) is (size == PHONE)


def test_the_page_follows_the_match_live(
    browser: Browser,
    serve: Serve,
    publisher: Publisher,
    traffic: list[Publication],
    states: list[Json],
) -> None:
    publisher.send(*_until(traffic, states[9]))
    _open(browser, serve("t1"), TV, seq=5)
    # Now the next shots are played while the page is open: rulings and states arrive live.
    publisher.send(*traffic[len(_until(traffic, states[9])) : len(_until(traffic, states[20]))])
    browser.wait_for("document.querySelector('.board[data-seq=\"11\"]') !== null")
    assert browser.evaluate("document.querySelector('.rack').dataset.balls") == "6 8 9 10"
    assert _texts(browser, ".chip") == ["Bob: play or pass?"]
    assert (browser.text(".reason .text") or "").startswith("The called shot was not made but")
    earlier = _texts(browser, ".earlier li")
    assert earlier[0] == "Safety played. Ann to shoot."
    assert len(earlier) == 3
    assert browser.evaluate("document.querySelector('.earlier li.foul') !== null") is False


def test_each_viewer_reads_in_their_language(
    browser: Browser, serve: Serve, ball_in_hand: Json
) -> None:
    last = ball_in_hand["last_ruling"]
    url = serve("t1")
    _open(browser, url + "?lang=he", TV, seq=6)
    assert browser.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "he",
        "rtl",
    ]
    assert browser.text(".reason .text") == render(last["reason_code"], last["reason_args"], "he")
    assert _texts(browser, ".chip") == ["כדור ביד", "הכרזה: כדור 2 בכיס האמצע השמאלי"]
    # The diagram is a drawing of the table, not text: it stays left to right.
    assert (
        browser.evaluate("getComputedStyle(document.querySelector('.diagram')).direction") == "ltr"
    )
    browser.evaluate("document.querySelector('#langs [data-lang=nl]').click()")
    browser.wait_for("document.documentElement.lang === 'nl'")
    assert browser.evaluate("document.documentElement.dir") == "ltr"
    assert browser.text(".reason .text") == render(last["reason_code"], last["reason_args"], "nl")
    assert _texts(browser, ".chip")[0] == "Bal in de hand"
    # The choice is remembered for the next visit.
    browser.open(url, width=TV[0], height=TV[1])
    browser.wait_for("document.querySelector('.board') !== null")
    assert browser.evaluate("document.documentElement.lang") == "nl"
    browser.evaluate("localStorage.clear()")


def test_offline_table_and_lost_connection_are_shown(
    browser: Browser,
    serve: Serve,
    broker: Broker,
    publisher: Publisher,
    traffic: list[Publication],
) -> None:
    publisher.send(*traffic[:4])
    _open(browser, serve("t1"), TV, seq=1)
    assert browser.evaluate("document.getElementById('offline')") is None
    publisher.raw(T1.status, json.dumps({"online": False}), retain=True)
    browser.wait_for("document.getElementById('offline') !== null")
    assert browser.text("#offline") == "Table t1 is offline"
    publisher.close()
    broker.stop()
    browser.wait_for("document.getElementById('no-broker') !== null")
    broker.start()
    browser.wait_for("document.getElementById('no-broker') === null", timeout=15)


def test_the_venue_page_shows_every_table(
    browser: Browser, serve: Serve, publisher: Publisher
) -> None:
    cut = {"t1": 12, "t2": 40, "t10": 90}
    for i, table in enumerate(cut):
        traffic = referee_traffic(
            with_players(load_commands(), f"Ann {i}", f"Bob {i}"), table=table, seed=i
        )
        publisher.send(*traffic[: cut[table]])
    publisher.raw(topics.Topics("t2").status, json.dumps({"online": False}), retain=True)
    url = serve(None)
    browser.open(url + "?lang=en", width=TV[0], height=TV[1])
    browser.wait_for("document.body.dataset.tables === '3'")
    assert browser.evaluate(
        "[...document.querySelectorAll('.card')].map(c => c.dataset.table)"
    ) == ["t1", "t2", "t10"]
    assert _texts(browser, ".card[data-table=t10] .who") == ["Ann 2", "Bob 2"]
    assert _texts(browser, ".card[data-table=t10] .pts") == ["2", "1"]
    assert browser.text(".card[data-table=t10] .say") == "Ann 2 wins the match"
    browser.wait_for("document.querySelector('.card[data-table=t2]').dataset.online === 'false'")
    assert (
        browser.evaluate("document.querySelector('.card[data-table=t1]').getAttribute('href')")
        == "/table/t1"
    )
    # Each table's own page is served by the venue too.
    browser.open(url + "table/t2", width=TV[0], height=TV[1])
    browser.wait_for("document.querySelector('.board[data-table=t2]') !== null")
    assert browser.text("#offline") == "Table t2 is offline"


def test_names_are_text_never_markup(browser: Browser, serve: Serve, publisher: Publisher) -> None:
    evil = '<img src=x onerror="document.title=1">'
    traffic = referee_traffic(with_players(load_commands(), evil, "Bob"), table="t1")
    publisher.send(*traffic[:4])
    _open(browser, serve("t1"), TV, seq=1)
    assert _texts(browser, ".player .name")[0] == evil
    assert browser.evaluate("document.querySelectorAll('main img').length") == 0


def test_an_odd_but_valid_state_is_drawn(
    browser: Browser, serve: Serve, publisher: Publisher, states: list[Json]
) -> None:
    odd = {
        **states[BALL_IN_HAND_INDEX],
        "table_mm": [2235, 1118],  # an 8-ft table
        "cue_ball": "in_hand_somewhere_new",  # a value from a later version
        "rack_result": {},
        "players": {"A": "שרה", "B": "Bob"},
        "positions": {"cue": [2000.0, 1000.0]},
        "a_key_from_the_future": [1, {"x": None}],
    }
    url = serve("t1")
    publisher.raw(T1.state, json.dumps(odd), retain=True)
    _open(browser, url, TV, seq=odd["seq"])
    assert browser.evaluate("document.querySelector('.diagram svg').dataset.length") == "2235"
    assert _texts(browser, ".diagram g.ball") == [""]
    assert _texts(browser, ".player .name") == ["שרה", "Bob"]


def test_plain_http_routes(serve: Serve, publisher: Publisher, traffic: list[Publication]) -> None:
    publisher.send(*traffic[:4])
    url = serve("t1")
    wait_until(lambda: json.load(urllib.request.urlopen(url + "tables.json")))
    (message,) = json.load(urllib.request.urlopen(url + "tables.json"))
    assert message["state"] == traffic[3].payload
    assert message["reason"]["nl"].startswith("Geldige break: Ann potte de 4")
    assert message["rulings"] == []  # published before this scoreboard subscribed
    for path in ("table/t2", "events?table=t2", "nope"):
        with pytest.raises(urllib.error.HTTPError, match="404"):
            urllib.request.urlopen(url + path)
    with urllib.request.urlopen(url + "events") as stream:
        assert stream.headers["Content-Type"] == "text/event-stream; charset=utf-8"
        assert stream.readline() == b"retry: 2000\n"
        stream.readline()
        assert stream.readline() == b"event: table\n"
        event = json.loads(stream.readline().removeprefix(b"data: "))
        assert event["table"] == "t1" and event["state"]["seq"] == 1

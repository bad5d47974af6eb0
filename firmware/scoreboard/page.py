"""The web scoreboard's one page (page.html: HTML, CSS and JavaScript in one file, nothing
fetched but the events).

The page draws the board itself from the `state` payloads that arrive as server-sent events
(see firmware.scoreboard.web), so every viewer renders in their own language: English, Hebrew
(the whole page right-to-left) or Dutch. The server sends each ruling's reason rendered in all
three from its `reason_code` and `reason_args`; the page has its own few labels in each. All
text goes in through `textContent`, never as HTML, so a player's name cannot inject anything.

In venue mode the page shows a card per table, each linking to that table's page.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

from rules.messages import CATALOGUES


def render_page(*, table: str | None, venue: bool) -> bytes:
    """The page for one table, or (`venue`) for all of them."""
    words = {
        lang: {"ball": c["ball"], "pockets": c["pockets"], "language": c["language"]}
        for lang, c in CATALOGUES.items()
    }
    config: dict[str, Any] = {"mode": "venue" if venue else "table", "table": table, "words": words}
    # "<" escaped so no string in the JSON can close the script element.
    script = json.dumps(config, ensure_ascii=False).replace("<", "\\u003c")
    return _template().replace("/*CONFIG*/null", script).encode("utf-8")


@cache
def _template() -> str:
    return files(__package__).joinpath("page.html").read_text("utf-8")

"""The shape of a message catalogue (one per language)."""

from typing import TypedDict


class Catalogue(TypedDict):
    language: str
    # The word that joins the last two items of a list ("the 3 and the 7").
    and_: str
    ball: str
    score: str
    pockets: dict[str, str]
    fouls: dict[str, str]
    codes: dict[str, str]
    extra: dict[str, str]

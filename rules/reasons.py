"""Plain-language reasons, rendered from a ruling's `reason_code` and `reason_args`.

The engine never writes sentences itself: a scoreboard in another language renders the same
code and arguments from its own catalogue. Rendering never fails on what arrives from a
network: an unknown code falls back to the code itself, a missing argument to `?`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.messages import CATALOGUES, Catalogue

LANGUAGES: tuple[str, ...] = tuple(CATALOGUES)
DEFAULT_LANGUAGE = "en"


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def _join(items: Sequence[str], catalogue: Catalogue) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {catalogue['and_']} {items[-1]}"


def _ball(value: object, catalogue: Catalogue) -> str:
    return catalogue["ball"].format(n=value) if value is not None else "?"


def _words(args: Mapping[str, Any], catalogue: Catalogue) -> _Lenient:
    words = _Lenient({k: v for k, v in args.items() if isinstance(v, str | int)})
    for key in ("first_contact", "lowest"):
        words[key] = _ball(args.get(key), catalogue)
    pocketed = args.get("pocketed")
    if isinstance(pocketed, list):
        words["pocketed"] = _join([_ball(b, catalogue) for b in pocketed], catalogue)
    call = args.get("call")
    if isinstance(call, Mapping):
        words["call_ball"] = _ball(call.get("ball"), catalogue)
        words["call_pocket"] = catalogue["pockets"].get(str(call.get("pocket")), "?")
    fouls = args.get("fouls")
    if isinstance(fouls, list):
        # An unknown code is shown as it is, never used as a template.
        texts = [
            catalogue["fouls"][str(f)].format_map(words) if str(f) in catalogue["fouls"] else str(f)
            for f in fouls
        ]
        words["fouls"] = _join(texts, catalogue)
    score, names = args.get("score"), args.get("names")
    if isinstance(score, list) and isinstance(names, list) and len(score) == len(names) == 2:
        words["score"] = catalogue["score"].format(na=names[0], a=score[0], b=score[1], nb=names[1])
    return words


def render(code: str, args: Mapping[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    """The ruling's reason as one or a few sentences a player would accept."""
    catalogue = CATALOGUES.get(lang, CATALOGUES[DEFAULT_LANGUAGE])
    words = _words(args, catalogue)
    template = catalogue["codes"].get(code)
    sentences = [template.format_map(words) if template is not None else code]
    extra = catalogue["extra"]
    if args.get("ten_spotted"):
        sentences.append(extra["ten_spotted"])
    if args.get("match_winner"):
        sentences.append(extra["match_won"].format_map(words))
    elif args.get("rack_winner"):
        sentences.append(extra["rack_won"].format_map(words))
        if args.get("next_breaker"):
            sentences.append(extra["next_breaker"].format_map(words))
    if args.get("warn"):
        sentences.append(extra["warn"].format_map(words))
    return " ".join(sentences)

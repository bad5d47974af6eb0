"""Rule-set options (rules.md §3) and the presets that set them.

Every difference between the rule texts is one option key, so a tournament can override any
single point while keeping the rest of a preset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from rules.errors import InputError


class BreakOrder(StrEnum):
    ALTERNATE = "alternate"
    WINNER = "winner"
    LOSER = "loser"
    TRAILING = "trailing"


class TrailingTie(StrEnum):
    LOSER_OF_LAST_RACK = "loser_of_last_rack"


class TenLastMoment(StrEnum):
    SHOT_START = "shot_start"
    AT_POCKETING = "at_pocketing"


class NoRailScope(StrEnum):
    ANY_BALL = "any_ball"
    CUE_OR_FIRST_CONTACTED = "cue_or_first_contacted"


class NoRailExempt(StrEnum):
    ANY_OBJECT_BALL_POCKETED = "any_object_ball_pocketed"
    FIRST_CONTACTED_POCKETED = "first_contacted_pocketed"


class FoulScope(StrEnum):
    ALL_BALLS = "all_balls"
    CUE_BALL_ONLY = "cue_ball_only"


class UnwarnedThirdFoul(StrEnum):
    COUNTS_AS_SECOND = "counts_as_second"
    COUNTS_AS_THIRD = "counts_as_third"


class FoulCountScope(StrEnum):
    RACK = "rack"
    MATCH = "match"


class SplitHitBenefit(StrEnum):
    SHOOTER = "shooter"
    OPPONENT = "opponent"


class CallMode(StrEnum):
    EXPLICIT_OR_OBVIOUS = "explicit_or_obvious"
    EXPLICIT_ONLY = "explicit_only"


class ScoopPolicy(StrEnum):
    FOUL = "foul"
    MISCUE_NO_FOUL = "miscue_no_foul"


class Ruleset(StrEnum):
    WPA = "wpa"
    ISPA = "ispa"


class Preset(StrEnum):
    WPA = "wpa"
    ISPA = "ispa"
    WPA2016 = "wpa2016"
    WPA2025 = "wpa2025"


@dataclass(frozen=True)
class Options:
    """One value per rules.md §3 key; the defaults are the `wpa` preset."""

    ruleset: Ruleset = Ruleset.WPA
    preset: Preset = Preset.WPA
    break_order: BreakOrder = BreakOrder.ALTERNATE
    trailing_tie: TrailingTie = TrailingTie.LOSER_OF_LAST_RACK
    ten_win_requires_last: bool = False
    ten_last_moment: TenLastMoment = TenLastMoment.SHOT_START
    safety_call_allowed: bool = True
    no_rail_scope: NoRailScope = NoRailScope.ANY_BALL
    no_rail_exempt: NoRailExempt = NoRailExempt.ANY_OBJECT_BALL_POCKETED
    bih_may_touch_object_ball: bool = True
    foul_scope: FoulScope = FoulScope.ALL_BALLS
    unwarned_third_foul: UnwarnedThirdFoul = UnwarnedThirdFoul.COUNTS_AS_SECOND
    foul_count_scope: FoulCountScope = FoulCountScope.RACK
    stalemate_skip_by_agreement: bool = True
    split_hit_benefit: SplitHitBenefit = SplitHitBenefit.SHOOTER
    option_if_only_ten_pocketed: bool = True
    call_mode: CallMode = CallMode.EXPLICIT_OR_OBVIOUS
    scoop_policy: ScoopPolicy = ScoopPolicy.FOUL

    def to_json(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}


def _plain(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


_PRESETS: dict[Preset, Options] = {
    Preset.WPA: Options(),
    Preset.ISPA: Options(
        ruleset=Ruleset.ISPA,
        preset=Preset.ISPA,
        break_order=BreakOrder.WINNER,
        no_rail_scope=NoRailScope.CUE_OR_FIRST_CONTACTED,
        bih_may_touch_object_ball=False,
        stalemate_skip_by_agreement=False,
    ),
    Preset.WPA2016: Options(preset=Preset.WPA2016, ten_win_requires_last=True),
    Preset.WPA2025: Options(
        preset=Preset.WPA2025,
        ten_win_requires_last=True,
        safety_call_allowed=False,
        scoop_policy=ScoopPolicy.MISCUE_NO_FOUL,
    ),
}

_FIELD_TYPES: dict[str, type] = {
    "break_order": BreakOrder,
    "trailing_tie": TrailingTie,
    "ten_win_requires_last": bool,
    "ten_last_moment": TenLastMoment,
    "safety_call_allowed": bool,
    "no_rail_scope": NoRailScope,
    "no_rail_exempt": NoRailExempt,
    "bih_may_touch_object_ball": bool,
    "foul_scope": FoulScope,
    "unwarned_third_foul": UnwarnedThirdFoul,
    "foul_count_scope": FoulCountScope,
    "stalemate_skip_by_agreement": bool,
    "split_hit_benefit": SplitHitBenefit,
    "option_if_only_ten_pocketed": bool,
    "call_mode": CallMode,
    "scoop_policy": ScoopPolicy,
}

OPTION_KEYS: tuple[str, ...] = tuple(_FIELD_TYPES)


def _enum_value(kind: type[StrEnum], value: object, where: str) -> Any:
    allowed = [m.value for m in kind]
    if not isinstance(value, str) or value not in allowed:
        raise InputError(f"{where}: expected one of {', '.join(allowed)}, got {value!r}")
    return kind(value)


def resolve_options(ruleset: object = None, overrides: object = None) -> Options:
    """The options for a ruleset name (`wpa`, `ispa`, `wpa2016`, `wpa2025`) plus overrides.

    `overrides` is the JSON `options` object: an optional `preset` and any §3 keys. Unknown
    keys are ignored (forward compatibility); a known key with a bad value is an error.
    """
    base = Preset.WPA if ruleset is None else _enum_value(Preset, ruleset, "ruleset")
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, Mapping):
        raise InputError(f"options: expected an object, got {type(overrides).__name__}")
    if "preset" in overrides and overrides["preset"] is not None:
        base = _enum_value(Preset, overrides["preset"], "options.preset")
    options = _PRESETS[base]
    changes: dict[str, Any] = {}
    for key, kind in _FIELD_TYPES.items():
        if key not in overrides:
            continue
        value = overrides[key]
        if kind is bool:
            if not isinstance(value, bool):
                raise InputError(f"options.{key}: expected true or false, got {value!r}")
            changes[key] = value
        else:
            changes[key] = _enum_value(kind, value, f"options.{key}")
    return replace(options, **changes)

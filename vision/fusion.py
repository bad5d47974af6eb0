"""Pocket-sensor pulses fused with what vision saw drop: which balls went down, where, when.

Used once a table has shown it has sensors. A beam break in a pocket is certain and well
timed; vision knows which ball. So a drop no sensor felt did not happen (the ball was lost
in the mouth's shadow; or, lost there at speed, it flew off the table), a drop vision timed
badly still owns a later pulse from its own pocket, and a pulse no drop explains is the ball
last lost from sight in that pocket's mouth (even if the tracker later "found" it on another
ball) or, lost nowhere near a pocket, the one ball the shot lost from sight and never found
again: some ball dropped there, and no other is missing. With none such, it is the one ball
out of sight the whole shot (under a bystander) and not found at its end.
"""

from __future__ import annotations

from collections.abc import Sequence

from vision.events import BallKey, Disappearance, Path, lost_at_pocket
from vision.geometry import Table

PULSE_MATCH_S = (-0.2, 1.0)  # a sensor pulse this long before/after vision saw the drop
# A ball falls from a pocket's mouth to the beam in its throat in this (some 20 cm down, and
# the roll there): a drop's pulse comes this long after the ball leaves the cloth.
BEAM_LAG_S = 0.3
# A ball may rattle between a pocket's jaws, out of sight in its mouth, this long before it
# drops or comes back out...
POCKET_RATTLE_S = 1.0
# ...so the pulse of one lost in a mouth comes no later than this after it was lost.
FELT_AFTER_LOST_S = POCKET_RATTLE_S + BEAM_LAG_S
# A ball lost in a pocket's mouth this fast, and felt by no sensor, did not come to rest in
# the mouth's shadow: it left the table over the pocket's jaws.
FLEW_MM_S = 1500.0


def fuse_pulses(
    drops: Sequence[Disappearance],
    pulses: Sequence[tuple[float, str]],
    paths: Sequence[Path],
    table: Table,
    missing: Sequence[BallKey] = (),
    hidden: Sequence[BallKey] = (),
) -> list[Disappearance]:
    """The shot's drops, confirmed, corrected and completed by its pulses (time, pocket);
    `missing` are the balls lost from sight in the shot and not found at its end, `hidden`
    those out of sight the whole shot and not found at its end."""
    lo, hi = PULSE_MATCH_S
    out: list[Disappearance] = []
    unmatched: list[Disappearance] = []
    unused = list(pulses)
    for drop in sorted(drops, key=lambda d: d.t):
        match = next(
            (
                (t, pocket)
                for t, pocket in unused
                if drop.t + lo <= t <= drop.t + hi and drop.pocket in (None, pocket)
            ),
            None,
        )
        if match is not None:
            unused.remove(match)
            out.append(Disappearance(drop.key, match[0], match[1]))
        elif drop.pocket is None:
            out.append(drop)  # off the table: no sensor sees that
        else:
            unmatched.append(drop)
    for drop in unmatched:
        match = next(((t, p) for t, p in unused if p == drop.pocket and t >= drop.t + lo), None)
        if match is not None:
            unused.remove(match)
            out.append(Disappearance(drop.key, match[0], match[1]))
        elif drop.speed >= FLEW_MM_S:
            # Lost at speed in a mouth no ball dropped into: it flew off the table there.
            out.append(Disappearance(drop.key, drop.t, None, drop.speed))
    dropped = {d.key for d in out}
    for t, pocket in unused:
        lost = [
            (abs(t - when), path.key)
            for path in paths
            if path.key not in dropped
            for when in lost_at_pocket(path, table, pocket)
            if when + lo <= t <= when + FELT_AFTER_LOST_S
        ]
        if lost:
            key = min(lost, key=lambda item: item[0])[1]
        else:
            # Lost far from the pocket (a dark ball rolling on unseen, off another ball): by
            # elimination, when only one is missing and it was lost before the pulse.
            gone = [
                path.key
                for path in paths
                if path.key in missing
                and path.key not in dropped
                and (last := path.last_seen()) is not None
                and path.t[last] < t
            ]
            if not gone:
                gone = [key for key in hidden if key not in dropped]
            if len(gone) != 1:
                continue
            key = gone[0]
        dropped.add(key)
        out.append(Disappearance(key, t, pocket))
    return out

"""The Hungarian method against brute force."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.assignment import assign


@settings(max_examples=200, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 6), seed=st.integers(0, 2**31))
def test_assign_finds_the_least_total_cost(rows: int, cols: int, seed: int) -> None:
    cost = np.random.default_rng(seed).random((rows, cols))
    pairs = assign(cost)
    assert len(pairs) == min(rows, cols)
    assert len({r for r, _ in pairs}) == len({c for _, c in pairs}) == len(pairs)
    if rows <= cols:
        best = min(
            sum(cost[i, p[i]] for i in range(rows))
            for p in itertools.permutations(range(cols), rows)
        )
    else:
        best = min(
            sum(cost[p[j], j] for j in range(cols))
            for p in itertools.permutations(range(rows), cols)
        )
    assert sum(cost[r, c] for r, c in pairs) == __import__("pytest").approx(best)


def test_pairs_over_the_limit_and_forbidden_ones_are_dropped() -> None:
    cost = np.array([[1.0, np.inf], [np.inf, 50.0]])
    assert assign(cost, max_cost=10.0) == [(0, 0)]

"""The Hungarian method against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
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
    assert sum(cost[r, c] for r, c in pairs) == pytest.approx(best)


def test_pairs_over_the_limit_and_forbidden_ones_are_dropped() -> None:
    cost = np.array([[1.0, np.inf], [np.inf, 50.0]])
    assert assign(cost, max_cost=10.0) == [(0, 0)]


def test_two_dear_pairs_do_not_outbid_a_cheap_one() -> None:
    # Least total over all finite pairs would take the two 100s and drop both.
    cost = np.array([[1.0, 100.0], [100.0, np.inf]])
    assert assign(cost, max_cost=50.0) == [(0, 0)]


@settings(max_examples=200, deadline=None)
@given(rows=st.integers(1, 5), cols=st.integers(1, 5), seed=st.integers(0, 2**31))
def test_with_a_limit_as_many_pairs_as_can_be_then_the_least_cost(
    rows: int, cols: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    cost = rng.random((rows, cols)) * 100
    cost[rng.random((rows, cols)) < 0.2] = np.inf
    limit = 50.0
    pairs = assign(cost, max_cost=limit)
    assert all(cost[r, c] <= limit for r, c in pairs)
    k = min(rows, cols)
    options = []
    for chosen_rows in itertools.permutations(range(rows), k):
        for chosen_cols in itertools.permutations(range(cols), k):
            kept = [
                (r, c) for r, c in zip(chosen_rows, chosen_cols, strict=True) if cost[r, c] <= limit
            ]
            options.append((-len(kept), sum(cost[r, c] for r, c in kept)))
    most, least = min(options)
    assert len(pairs) == -most
    assert sum(cost[r, c] for r, c in pairs) == pytest.approx(least)

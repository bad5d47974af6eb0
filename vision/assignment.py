"""Minimum-cost assignment (the Hungarian method), for matching balls to tracks and ids.

At most eleven balls meet here, so an O(n³) method in plain numpy is plenty and saves a
dependency on SciPy.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def assign(cost: NDArray[np.float64], max_cost: float = np.inf) -> list[tuple[int, int]]:
    """Pairs (row, column) of least total cost; pairs costing more than `max_cost` are dropped.

    Rows and columns may differ in number: the larger side keeps some unpaired.
    """
    rows, cols = cost.shape
    if rows == 0 or cols == 0:
        return []
    transposed = rows > cols
    matrix = cost.T if transposed else cost
    n, m = matrix.shape  # n <= m
    # Pairs over `max_cost` are as forbidden as infinite ones, and each forbidden pair costs
    # more than any n allowed ones together: the least total then pairs as many as can be.
    # (Left at their own cost, two dear pairs could outbid one cheap one and both be dropped.)
    allowed = np.isfinite(matrix) & (matrix <= max_cost)
    dearest = float(np.max(matrix, where=allowed, initial=0.0))
    # (Plain Python numbers from here on: the loops below index one number at a time, which
    # costs several times more on numpy arrays.)
    a: list[list[float]] = np.where(allowed, matrix, (n + 1) * (dearest + 1.0)).tolist()
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    owner = [0] * (m + 1)  # owner[j]: row (1-based) holding column j
    way = [0] * (m + 1)
    inf = float("inf")
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            row, ui = a[i0 - 1], u[i0]
            delta = inf
            j1 = 0
            for j in range(1, m + 1):
                if used[j]:
                    continue
                cur = row[j - 1] - ui - v[j]
                if cur < minv[j]:
                    minv[j] = cur
                    way[j] = j0
                if minv[j] < delta:
                    delta = minv[j]
                    j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while True:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
            if j0 == 0:
                break
    pairs = []
    for j in range(1, m + 1):
        if owner[j] == 0:
            continue
        r, c = owner[j] - 1, j - 1
        if matrix[r, c] <= max_cost:
            pairs.append((c, r) if transposed else (r, c))
    return sorted(pairs)

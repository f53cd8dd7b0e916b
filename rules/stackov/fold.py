# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: recursion folded into a cycle of up to MAX_PERIOD functions.
# crash-scripts/fold.c.

from stackov.target import MAX_PERIOD

def fold_cycle(fr):
    """The longest run of frames that repeats with a period of 1..8 names:
    (start, period, repetitions, bytes per turn or -1)."""
    best = start = period = reps = 0
    for p in range(1, MAX_PERIOD + 1):
        i = 0
        while i + p < len(fr):
            j = i
            while j + p < len(fr) and fr[j].name == fr[j + p].name:
                j += 1
            if (j - i + p) // p >= 3 and j - i + p > best:
                best = j - i + p
                start, period, reps = i, p, best // p
            if j > i:
                i = j - 1
            i += 1
    nbytes = 0
    for i in range(period if reps else 0):
        f = fr[start + period + i]
        if f.bytes < 0:
            return start, period, reps, -1
        nbytes += f.bytes
    return start, period, reps, nbytes

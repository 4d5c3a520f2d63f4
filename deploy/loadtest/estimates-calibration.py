#!/usr/bin/env python3
"""Reads the rehearsal's estimates.csv (every range an admitted visitor was shown) and prints, per caveat: how many
ranges held the real wait, were early or late; where in the range the real wait fell (0 = min, 1 = max) for waits of
30 s or more; the median width over the wait for waits of a minute or more; and how many would still hold if every
range were shrunk around its middle; over all ranges, the verdict's share inside and median width over max(wait, 60 s)
(docs/design/estimates.md).

  python3 deploy/loadtest/estimates-calibration.py deploy/loadtest/target/onsale-verdict/estimates.csv
"""
import csv
import statistics
import sys

groups = {}
for row in csv.DictReader(open(sys.argv[1])):
    wait = (int(row["offeredAtMillis"]) - int(row["shownAtMillis"])) / 1000
    groups.setdefault(row["caveat"] or "none", []).append((wait, int(row["minSeconds"]), int(row["maxSeconds"])))
every = [r for ranges in groups.values() for r in ranges]
if every:
    # the verdict's two musts (issue #26): share inside, median (max - min) / max(wait, 60 s)
    held = sum(1 for w, lo, hi in every if lo <= w <= hi)
    print(f"all: {len(every)} ranges, {held / len(every):.3f} inside, median width over max(wait, 60 s) "
          f"{statistics.median((hi - lo) / max(w, 60) for w, lo, hi in every):.2f}")
for caveat, ranges in sorted(groups.items()):
    inside = sum(1 for w, lo, hi in ranges if lo <= w <= hi)
    early = sum(1 for w, lo, hi in ranges if w < lo)
    print(f"{caveat}: {len(ranges)} ranges, {inside / len(ranges):.3f} inside, {early} early, "
          f"{len(ranges) - inside - early} late")
    where = [(w - lo) / (hi - lo) for w, lo, hi in ranges if hi > lo and w >= 30]
    if len(where) >= 20:
        q = statistics.quantiles(where, n=20)
        print(f"  where the wait fell (waits >= 30 s): 5 % {q[0]:.2f}, median {statistics.median(where):.2f}, "
              f"95 % {q[-1]:.2f}")
    wide = [(hi - lo) / w for w, lo, hi in ranges if w >= 60]
    if wide:
        print(f"  width over wait (waits >= 60 s): median {statistics.median(wide):.2f}")
    long_waits = [(w, lo, hi) for w, lo, hi in ranges if w >= 30]
    for scale in (0.5, 0.8):
        if long_waits:
            held = sum(1 for w, lo, hi in long_waits
                       if (lo + hi) / 2 - (hi - lo) / 2 * scale <= w <= (lo + hi) / 2 + (hi - lo) / 2 * scale)
            print(f"  shrunk to {scale:.0%} of its width: {held / len(long_waits):.3f} of {len(long_waits)} hold")

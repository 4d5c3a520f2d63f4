#!/usr/bin/env python3
"""Replays the rehearsal's estimates.csv with only part of each range's spread shown (WaitBand.SHOWN_SPREAD): for
each share, the verdict's two musts over the ranges shown at a steady rate (issue #26): the share of real waits inside
and the median (upper - lower) / max(real wait, 60 s). A range shown does not change when its visitor is offered, so
the replay is exact for the ranges that were shown. The steady selection is the verdict's (Verdict.overlapsSlowdown):
a range counts unless it was shown before the slowdown's end plus 30 s and its visitor was offered after the slowdown
began; the csv does not carry the slowdown, so give its start in seconds after the first range shown (the full
profile's 20 s slowdown of 2026-12-01 began 187.75 s after it: 23,351 of the verdict's 23,354 steady ranges, the same 257 late).

  python3 deploy/loadtest/estimates-replay.py deploy/loadtest/target/onsale-verdict/estimates.csv 187.75
"""
import csv
import statistics
import sys

rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["offeredAtMillis"]]
slow_for_ms, settle_ms = 20_000, 30_000
first = min(int(r["shownAtMillis"]) for r in rows)
start = first + float(sys.argv[2]) * 1000 if len(sys.argv) > 2 else None
steady = []
for r in rows:
    shown, offered = int(r["shownAtMillis"]), int(r["offeredAtMillis"])
    if start is not None and shown < start + slow_for_ms + settle_ms and offered > start:
        continue
    steady.append(((offered - shown) / 1000, int(r["minSeconds"]), int(r["maxSeconds"])))
print(f"{len(steady)} ranges shown at a steady rate")
for share in (1.0, 0.9, 0.8, 0.75):
    inside = late = 0
    widths = []
    for wait, lo, hi in steady:
        top = lo + share * (hi - lo)
        inside += lo <= wait <= top
        late += wait > top
        widths.append((top - lo) / max(wait, 60))
    print(f"shown share {share:.2f}: {inside / len(steady):.3f} inside, {late} late, "
          f"median width over max(wait, 60 s) {statistics.median(widths):.2f}")

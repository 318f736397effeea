#!/usr/bin/env python3
"""Reads the decision thresholds off a development set's decision measures, the way the defaults were chosen.

  make-devset.py OUT flights.txt airlines.tsv 160
  flightvoice eval OUT/manifest.tsv --features features.tsv
  choose-thresholds.py features.tsv [MAX_WRONG_PERCENT]

Per band of estimated signal-to-noise ratio (clean: at least 30 dB), prints the loosest fit-score threshold at which
at most MAX_WRONG_PERCENT (default 5) of the band's clips would be answered with a wrong flight, and the reject
threshold: the highest below which at most one answer in ten names the right flight, read on the fit score without the
rival margin's share (that lead says which of today's flights, not whether one was said). The flite-voiced clips
(make-devset.py names them g* and m*) are left out: they are kept apart to check the choice on. Use it on clips of your
own, never on the corpus you report.
"""
import csv, os, sys

def chosen_from(row):
    return not os.path.basename(row["path"]).startswith(("g", "m"))

def snr(row):
    return float(row["snr_db"]) if row["snr_db"] else None

def main():
    path = sys.argv[1]
    limit = float(sys.argv[2]) / 100 if len(sys.argv) > 2 else 0.05
    rows = [r for r in csv.DictReader(open(path), delimiter="\t") if chosen_from(r)]
    # (expected, heard, fit score, snr, fit score without the rival's share) of every clip the grammar heard a flight in.
    clips = [(r["expected"], r["heard_flight"], float(r["fit_score"]), snr(r), float(r["fit_without_rival"]))
             for r in rows if r["fit_score"] and r["heard_flight"]]
    bands = [("clean (>= 30 dB)", lambda s: s is not None and s >= 30), ("noisier", lambda s: s is None or s < 30)]
    for name, member in bands:
        band = [c for c in clips if member(c[3])]
        total = sum(1 for r in rows if member(snr(r)))
        best = None
        for threshold in sorted({c[2] for c in band}, reverse=True):
            accepted = [c for c in band if c[2] >= threshold]
            wrong = sum(1 for c in accepted if c[0] != c[1])
            if wrong > limit * total:
                break
            best = (threshold, len(accepted) - wrong, wrong)
        if best:
            print(f"{name}: accept at fit score >= {best[0]:.1f}: {best[1]} right, {best[2]} wrong of {total} clips")
    reject = None
    for threshold in sorted({c[4] for c in clips}):
        below = [c for c in clips if c[4] < threshold]
        right = sum(1 for c in below if c[0] == c[1])
        if len(below) >= 10 and right <= 0.1 * len(below):
            reject = (threshold, len(below), right)
    if reject:
        print(f"reject below fit score {reject[0]:.1f}: {reject[1]} clips below, {reject[2]} of them named the right flight")

main()

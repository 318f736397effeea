#!/usr/bin/env python3
"""Fits the recognizer's decision model: a logistic regression from an utterance's decision measures to the
probability that the flight heard is the flight said, and the two probabilities it decides on.

  flightvoice eval TRAIN.tsv --rival --features train-features.tsv      (training voices only)
  fit-decision-model.py train-features.tsv [--check NAME=held-out-features.tsv ...] [--swift OUT.swift]

Fits on the clips of the first file in which a flight was heard (label: it is the flight said), standardizing each
input; L2-regularized, by Newton's method (plain Python, no packages). Chooses on the same training clips:
- the accept probability: the lowest at which flights answered wrongly stay at most MAX_WRONG (1%) of all clips and
  no clip without a flight is answered;
- the confirm probability: the highest below which at most one clip in ten heard the right flight (offering it
  would mostly offer a wrong one).
Then prints, for each --check file (voices held out of training), a reliability table (predicted against observed
probability per bin) and what would be decided. --swift writes the coefficients as Swift source
(Sources/Recognizer/Decision/DecisionModel+Fitted.swift). Never give it features of the corpus you report on.

The inputs must match `DecisionModel.inputs` in Swift, name for name.
"""
import csv, math, sys

NAMES = ["flight_fit", "open_gap", "open_missing", "squeeze", "rival_lead", "rival_missing", "grammars_agree",
         "open_other_today", "snr", "unexplained", "lowest_word", "all_words", "carrier_words"]
NATURAL_FRAMES_PER_PHONE, MARGIN_LIMIT, SNR_LIMIT, UNEXPLAINED_LIMIT = 10.0, 20.0, 40.0, 2.0
UNEXPLAINED_CONFIRM_SECONDS = 0.15   # RecognitionThresholds.unexplainedSpeechSeconds: above it, at best a confirmation
MAX_WRONG = 0.01
RIDGE = 1.0

def number(text, default=None):
    return float(text) if text not in ("", None) else default

def inputs(row):
    gap = number(row["open_fit_difference"])
    margin = number(row["rival_margin"])
    pace = number(row["shortest_flight_word_frames_per_phone"], NATURAL_FRAMES_PER_PHONE)
    heard = row["heard_today"]
    open_other = row["open_flight_today"] == "1" and row["open_flight"] != "" and row["open_flight"] != heard
    return [
        number(row["phone_loop_ratio"], 0.0),
        gap if gap is not None else 0.0,
        1.0 if gap is None else 0.0,
        max(0.0, NATURAL_FRAMES_PER_PHONE - pace),
        min(max(margin if margin is not None else 0.0, -MARGIN_LIMIT), MARGIN_LIMIT),
        1.0 if margin is None else 0.0,
        1.0 if row["grammars_agree"] == "1" else 0.0,
        1.0 if open_other else 0.0,
        min(max(number(row["snr_db"], 0.0), 0.0), SNR_LIMIT),
        min(number(row["unexplained_speech_s"], 0.0), UNEXPLAINED_LIMIT),
        number(row["lowest_word_ratio"], 0.0),
        number(row["all_words_ratio"], 0.0),
        float(int(row["word_count"] or 0) - int(row["flight_word_count"] or 0)),
    ]

def load(path):
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    for row in rows:
        row["heard"] = row["heard_today"] != ""
        row["right"] = row["heard"] and row["heard_today"] == row["expected"]
    return rows

def solve(matrix, vector):
    n = len(vector)
    a = [matrix[i][:] + [vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[col][col] != 0:
                f = a[r][col] / a[col][col]
                for c in range(col, n + 1): a[r][c] -= f * a[col][c]
    return [a[i][n] / a[i][i] for i in range(n)]

def fit(xs, ys):
    """L2-regularized logistic regression (intercept unpenalized) by Newton's method; returns (intercept, weights)."""
    k = len(xs[0]) + 1
    beta = [0.0] * k
    for _ in range(50):
        gradient = [0.0] * k
        hessian = [[0.0] * k for _ in range(k)]
        for x, y in zip(xs, ys):
            z = [1.0] + x
            p = 1 / (1 + math.exp(-max(-30, min(30, sum(b * v for b, v in zip(beta, z))))))
            w = p * (1 - p)
            for i in range(k):
                gradient[i] += (y - p) * z[i]
                for j in range(k): hessian[i][j] += w * z[i] * z[j]
        for i in range(1, k):
            gradient[i] -= RIDGE * beta[i]
            hessian[i][i] += RIDGE
        step = solve(hessian, gradient)
        beta = [b + s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-8: break
    return beta[0], beta[1:]

class Model:
    def __init__(self, rows):
        raw = [inputs(r) for r in rows if r["heard"]]
        n = len(raw)
        self.means = [sum(c) / n for c in zip(*raw)]
        self.scales = [math.sqrt(sum((v - m) ** 2 for v in c) / n) or 1.0 for c, m in zip(zip(*raw), self.means)]
        xs = [self.standardize(x) for x in raw]
        self.intercept, self.weights = fit(xs, [1.0 if r["right"] else 0.0 for r in rows if r["heard"]])

    def standardize(self, x):
        return [(v - m) / s for v, m, s in zip(x, self.means, self.scales)]

    def probability(self, row):
        z = self.intercept + sum(w * v for w, v in zip(self.weights, self.standardize(inputs(row))))
        return 1 / (1 + math.exp(-max(-30, min(30, z))))

def decide(row, p, accept, confirm):
    """What the Swift Decider decides (n-best off): accept, confirm or reject."""
    if not row["heard"]: return "reject"
    if p < confirm: return "reject"
    open_other = row["open_flight_today"] == "1" and row["open_flight"] not in ("", row["heard_today"])
    if open_other: return "confirm"
    if p >= accept and number(row["unexplained_speech_s"], 0.0) < UNEXPLAINED_CONFIRM_SECONDS: return "accept"
    return "confirm"

def outcomes(rows, model, accept, confirm):
    counts = {"right": 0, "wrong": 0, "confirm_right": 0, "confirm_other": 0, "unanswered": 0, "noflight_answered": 0}
    for row in rows:
        d = decide(row, model.probability(row) if row["heard"] else 0.0, accept, confirm)
        if d == "accept":
            counts["right" if row["right"] else "wrong"] += 1
            if not row["expected"]: counts["noflight_answered"] += 1
        elif d == "confirm":
            counts["confirm_right" if row["right"] else "confirm_other"] += 1
        else:
            counts["unanswered"] += 1
    return counts

def choose(rows, model):
    grid = [i / 100 for i in range(30, 100)] + [0.995, 0.999]
    accept = grid[-1]
    for a in grid:
        c = outcomes(rows, model, a, 0.0)
        if c["wrong"] <= MAX_WRONG * len(rows) and c["noflight_answered"] == 0:
            accept = a
            break
    heard = sorted(((model.probability(r), r["right"]) for r in rows if r["heard"]))
    confirm = 0.0
    for c in [i / 100 for i in range(1, int(accept * 100))]:
        below = [right for p, right in heard if p < c]
        if below and sum(below) / len(below) <= 0.10: confirm = c
    return accept, min(confirm, accept)

def reliability(rows, model):
    bins = [[] for _ in range(10)]
    for row in rows:
        if row["heard"]:
            p = model.probability(row)
            bins[min(9, int(p * 10))].append((p, row["right"]))
    lines = ["| predicted | clips | mean predicted | observed right |", "|---|---|---|---|"]
    for i, b in enumerate(bins):
        if b:
            lines.append(f"| {i / 10:.1f}–{(i + 1) / 10:.1f} | {len(b)} | {sum(p for p, _ in b) / len(b):.2f} | {sum(r for _, r in b) / len(b):.2f} |")
    n = sum(len(b) for b in bins)
    brier = sum((p - r) ** 2 for b in bins for p, r in b) / max(1, n)
    ece = sum(abs(sum(p for p, _ in b) - sum(r for _, r in b)) for b in bins) / max(1, n)
    lines.append(f"\nBrier score {brier:.3f}, expected calibration error {ece:.3f} over {n} clips with a flight heard")
    return "\n".join(lines)

def swift(model, accept, confirm, source):
    def numbers(values): return ", ".join(f"{v:.6g}" for v in values)
    return f"""// Written by scripts/decision-model/fit-decision-model.py from {source}; do not edit by hand.

extension DecisionModel {{
    /// The model fitted on the training voices (see `DecisionModel`).
    public static let fitted = DecisionModel(
        inputNames: {NAMES!r},
        means: [{numbers(model.means)}],
        scales: [{numbers(model.scales)}],
        weights: [{numbers(model.weights)}],
        intercept: {model.intercept:.6g},
        acceptProbability: {accept:.3g},
        confirmProbability: {confirm:.3g})
}}
""".replace("'", '"')

def main():
    args = sys.argv[1:]
    train_path = args.pop(0)
    checks, out = [], None
    while args:
        flag = args.pop(0)
        if flag == "--check": name, path = args.pop(0).split("=", 1); checks.append((name, path))
        elif flag == "--swift": out = args.pop(0)
        else: sys.exit(f"unknown argument {flag}")
    train = load(train_path)
    model = Model(train)
    accept, confirm = choose(train, model)
    print(f"fitted on {sum(r['heard'] for r in train)} of {len(train)} training clips; accept at p >= {accept}, confirm at p >= {confirm}")
    for name, w in zip(NAMES, model.weights): print(f"  {name:18s} {w:+.3f}")
    for name, rows in [("training", train)] + [(n, load(p)) for n, p in checks]:
        c = outcomes(rows, model, accept, confirm)
        total = len(rows)
        print(f"\n## {name}: {total} clips\n")
        print(f"right {c['right']} ({100 * c['right'] / total:.1f}%), wrong {c['wrong']} ({100 * c['wrong'] / total:.1f}%), "
              f"did-you-mean with the flight said {c['confirm_right']}, other did-you-mean {c['confirm_other']}, "
              f"not answered {c['unanswered']}, no-flight clips answered {c['noflight_answered']}\n")
        print(reliability(rows, model))
    if out:
        open(out, "w").write(swift(model, accept, confirm, train_path.split("/")[-1]))

if __name__ == "__main__":
    main()

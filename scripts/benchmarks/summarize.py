#!/usr/bin/env python3
"""Turns `flightvoice eval --rival --features` tables into the accuracy part of BENCHMARKS.md.

  summarize.py --model-file MODEL/decision-model.json --set NAME=FEATURES.tsv:MANIFEST.tsv [--set ...] [--reliability NAME ...]
  summarize.py --model-from TRAIN_FEATURES.tsv ...     (refits the stock decision from training features instead, with
                                                        its probabilities and cross-check chosen on the dev decodes
                                                        beside them, as DecisionModel+Fitted.swift was: `refit`)

For each set: right / wrong / "did you mean" with the flight said / not answered, per condition, per kind and per
spoken form (the manifest's columns), under two decisions taken on the same decodes:
- "hand thresholds": the fit-score thresholds of `RecognitionThresholds` (the decision before the model);
- "calibrated" (the default): the logistic model the acoustic model that decoded the sets carries in its folder
  (`decision-model.json`, written by `scripts/decision-model/fit-decision-model.py --model-file`), with its thresholds.
Both are replayed from each clip's measures exactly as the Swift `Decider` takes them (n-best off). "Right" is a
direct answer with the flight said (for a clip naming no flight: no flight answered); "wrong" a direct answer with
another flight, or any flight where none was said.
"""
import csv, json, math, os, sys, wave
from collections import Counter, defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "decision-model"))
fit = __import__("fit-decision-model")

# AudioBand.telephoneSampleRate: clips recorded at this rate or less are decoded by the telephone model.
TELEPHONE_RATE = 8000
# RecognitionThresholds' defaults.
ACCEPT, ACCEPT_CLEAN, CLEAN_SNR, REJECT, UNEXPLAINED = -57.5, -59.0, 30.0, -89.6, 0.15

def number(text):
    return float(text) if text not in ("", None) else None

def offers(row, extra):
    return [f for f in [row["heard_today"], extra] if f]

def open_other(row):
    return row["open_flight_today"] == "1" and row["open_flight"] not in ("", row["heard_today"])

def threshold_decision(row):
    """(decision, flights offered) as the hand-threshold Decider takes it."""
    if row["decision"] == "no_speech" or not row["heard_today"]: return "reject", []
    without = number(row["fit_without_rival"])
    if without is not None and without < REJECT: return "reject", []
    if open_other(row): return "confirm", offers(row, row["open_flight"])
    snr = number(row["snr_db"])
    accept_at = REJECT if row["grammars_agree"] == "1" else (ACCEPT_CLEAN if snr is not None and snr >= CLEAN_SNR else ACCEPT)
    score = number(row["fit_score"])
    if score is not None and score >= accept_at and (number(row["unexplained_speech_s"]) or 0) < UNEXPLAINED:
        return "accept", [row["heard_today"]]
    return "confirm", offers(row, row["rival_flight"])

def model_decision(model, accept, confirm, agreement=None, cross=None, neural=None):
    """(decision, flights offered) as the calibrated Decider takes it: the fitting script's decision (rows from
    `fit.load`), with what a "did you mean" offers. With `cross` ((own, other) probabilities), as `--cross-check`
    decides, on rows that carry the second model's decision (`with_cross_check`); with `neural` (`fit.NeuralCheck`,
    `DecisionModel.neuralCheck`), with the neural check, on rows that carry the neural model's reading
    (`eval --neural`)."""
    def decide(row):
        if row["decision"] == "no_speech": return "reject", []
        kind = fit.decide(row, fit.probability(model, row), accept, confirm, agreement, cross, neural)
        if kind == "accept": return "accept", [row["heard_today"]]
        if kind == "accept_neural": return "accept", [row["neural"][0]]
        if kind == "dispute": return "confirm", [row["neural"][0], row["heard_today"]]
        if kind == "dispute_tuned": return "confirm", [row["neural"][5][0], row["heard_today"]]
        if kind == "offer": return "confirm", [row["neural"][0]]
        if kind == "confirm": return "confirm", offers(row, row["open_flight"] if open_other(row) else row["rival_flight"])
        return "reject", []
    return decide

def neural_only(row):
    """(decision, flights offered) answering the neural model's top flight wherever it read the clip (the neural pass
    alone, without the grammar's decision); a clip it did not read is refused."""
    reading = row.get("neural")
    if row["decision"] == "no_speech" or reading is None or not reading[0]: return "reject", []
    return "accept", [reading[0]]

def clip_band(path, folder):
    """"telephone" for a clip recorded at 8 kHz or less (how `AudioBand` routes every telephone clip of our sets), else
    "wide"; the clip's WAV header says."""
    try:
        with wave.open(os.path.join(folder, path)) as clip:
            return "telephone" if clip.getframerate() <= TELEPHONE_RATE else "wide"
    except (OSError, wave.Error, EOFError):
        return "wide"

def as_routed(wide_rows, telephone_rows, folder):
    """The decodes the default recognizer decides on: a telephone clip's from the telephone model (`telephone_rows`,
    matched by the clip's file; their paths may be absolute), every other clip's from the main model (`wide_rows`). A
    telephone row keeps the main model's as `main_row`, which the hand thresholds (they never route) decide on; each
    row's `band` says which."""
    def clip(row): return os.path.normpath(os.path.join(folder, row["path"]))
    telephone = {clip(row): row for row in telephone_rows}
    routed = []
    for row in wide_rows:
        band = clip_band(row["path"], folder)
        chosen = dict(telephone[clip(row)], path=row["path"], main_row=row) if band == "telephone" and clip(row) in telephone else row
        chosen["band"] = band
        routed.append(chosen)
    return routed

def with_cross_check(rows, other_rows, other_model):
    """Copies of `rows` that each carry the second model's own decision on the same clip (`other_rows`, its decodes of
    the same clips), as `--cross-check` reads it (`fit.pair_cross_check`)."""
    paired = [dict(row) for row in rows]
    fit.pair_cross_check(paired, other_rows, other_model)
    return paired

def by_band(deciders):
    """A decider taking each row's decision with `deciders[row["band"]]`."""
    return lambda row: deciders[row.get("band", "wide")](row)

def on_main_model(decide):
    """A decider reading the main model's decode of a routed row (see `as_routed`)."""
    return lambda row: decide(row.get("main_row", row))

class BandProbability:
    """The calibrated probability of a routed row: the model of the band that decoded it."""
    def __init__(self, models):
        self.models = models
    def probability(self, row):
        return self.models[row.get("band", "wide")].probability(row)

class AnswerConfidence:
    """The confidence of a routed row's answer, as the Swift `Decider` reports it: the neural decision model's
    probability where the neural check answered, else the calibrated probability of the band's decision."""
    def __init__(self, calibrated):
        self.calibrated = calibrated
    def probability(self, row):
        c = self.calibrated[row.get("band", "wide")]
        p = fit.probability(c.model, row)
        grammar = fit.grammar_decision(row, p, c.accept, c.confirm, c.agreement)
        return c.neural.model.probability(row) if grammar != "accept" and fit.neural_answer(row, p, c.neural, grammar) else p

def outcome(row, decision):
    kind, offered = decision
    expected = row["expected"]
    if kind == "accept": return "right" if offered[0] == expected else "wrong"
    if kind == "confirm": return "confirm_right" if expected and expected in offered else "confirm_other"
    return "unanswered" if expected else "right"

def outcome_cells(outcomes):
    """A list of outcomes (`outcome`) as the tables' cells: right, wrong (with the count) and "did you mean" with the
    flight said, each a share of the clips."""
    c, n = Counter(outcomes), len(outcomes)
    if not n: return ["–", "–", "–"]
    return [f"{100 * c['right'] / n:.1f}%", f"{100 * c['wrong'] / n:.1f}% ({c['wrong']})", f"{100 * c['confirm_right'] / n:.1f}%"]

def with_manifest(rows, manifest):
    """Gives each row the manifest's columns for its clip (condition, kind, form, speaker, ...) where it has none; a
    row's path may be relative to the manifest's folder or absolute."""
    folder = os.path.dirname(os.path.abspath(manifest))
    def clip(path): return os.path.normpath(os.path.join(folder, path))
    meta = {clip(r["path"]): r for r in csv.DictReader(open(manifest), delimiter="\t")}
    for row in rows:
        for key, value in meta.get(clip(row["path"]), {}).items():
            if key not in row: row[key] = value
    return rows

def speakers(row):
    """The kind of speaker of a clip: its voice's source before the colon (`speaker` in the training and human sets:
    espeak, flite, an4; `source` in the corpus: espeak-ng, an4, qspi, noise); "no voice" for a clip of noise alone."""
    voice = (row.get("speaker") or row.get("source") or "").split(":")[0]
    return "no voice" if voice in ("", "-") else voice

def table(rows, column, deciders):
    groups = defaultdict(list)
    for row in rows:
        groups["all"].append(row)
        if column: groups[row.get(column, "") or "-"].append(row)
    names = list(deciders)
    head = "| " + (column or "set") + " | clips | " + " | ".join(f"{n}: right | {n}: wrong | {n}: did you mean ✓" for n in names) + " |"
    lines = [head, "|" + "---|" * (2 + 3 * len(names))]
    for group in ["all"] + sorted(g for g in groups if g != "all"):
        members = groups[group]
        cells = [group, str(len(members))]
        for name in names:
            cells += outcome_cells([outcome(r, deciders[name](r)) for r in members])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)

def frequencies(rows, deciders):
    lines = ["| decision | " + " | ".join(deciders) + " |", "|---|" + "---|" * len(deciders)]
    counts = {n: Counter(d(r)[0] for r in rows) for n, d in deciders.items()}
    for kind, label in [("accept", "answered"), ("confirm", "did you mean"), ("reject", "not understood / no speech")]:
        lines.append(f"| {label} | " + " | ".join(f"{counts[n][kind]} ({100 * counts[n][kind] / len(rows):.1f}%)" for n in deciders) + " |")
    return "\n".join(lines)

CONDITIONS = ["clean", "snr15", "snr10", "snr5", "8k"]

def ablation(sets, variants):
    """The ablation table: for each set [(name, {variant: features file or rows}, manifest)], each variant [(label, variant,
    decider)] as right / wrong / "did you mean" ✓ / no-flight clips answered, overall and right per condition."""
    head = ("| set | acoustic model, decision | right | wrong | did you mean ✓ | answered where none of today's flights was said | "
            + " | ".join(f"right, {c}" for c in CONDITIONS) + " |")
    lines = [head, "|" + "---|" * (6 + len(CONDITIONS))]
    for name, features, manifest in sets:
        for label, variant, decide in variants:
            if variant not in features: continue
            rows = with_manifest(fit.load(features[variant]) if isinstance(features[variant], str) else features[variant], manifest)
            outcomes = [(row, outcome(row, decide(row))) for row in rows]
            no_flight = [row for row in rows if not row["expected"]]
            answered_none = sum(1 for row in no_flight if decide(row)[0] == "accept")
            cells = [name, label, *outcome_cells([o for _, o in outcomes]), f"{answered_none} of {len(no_flight)}"]
            for condition in CONDITIONS:
                group = [o for row, o in outcomes if row.get("condition") == condition]
                cells.append(f"{100 * group.count('right') / len(group):.1f}%" if group else "–")
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)

def grouped(rows, column, variants):
    """A table of `rows` grouped by `column` (a row key, or a function of the row) with one column per variant
    [(label, decider)]: each cell "right / wrong / did you mean ✓" as `ablation` counts them."""
    key = column if callable(column) else (lambda row: row.get(column) or "-")
    groups = defaultdict(list)
    for row in rows: groups[key(row)].append(row)
    name = getattr(column, "__name__", column)
    lines = [f"| {name} | clips | " + " | ".join(label for label, _ in variants) + " |", "|" + "---|" * (2 + len(variants))]
    for group, members in [("all", rows)] + sorted(groups.items()):
        cells = [" / ".join(outcome_cells([outcome(row, decide(row)) for row in members])) for _, decide in variants]
        lines.append(f"| {group} | {len(members)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)

def neural_section(sets, variants, fused_decide, probability, fused_name="fused decision"):
    """Prints the neural pass's ablation for `sets` [(name, rows with the manifest's columns)]: `variants` [(label,
    decider)] per condition and per kind of speaker, and the reliability of the answers `fused_decide` (called
    `fused_name`) gives (`probability`: each answer's confidence, an `AnswerConfidence`)."""
    for name, rows in sets:
        read = sum(1 for row in rows if row.get("neural") is not None)
        print(f"### {name} ({len(rows)} clips, {read} read by the neural model)\n")
        if not read:
            print("No neural readings in these decodes (`flightvoice eval --neural`): skipped.\n")
            continue
        for column in ["condition", speakers]:
            print(grouped(rows, column, variants) + "\n")
        answered = [row for row in rows if fused_decide(row)[0] == "accept"]
        print(f"Reliability of the answers of the {fused_name} (each answered clip's confidence, the neural decision "
              "model's probability where the neural check answered, against how often the flight answered was the flight "
              "said):\n\n" + fit.reliability(answered, probability, lambda row: fused_decide(row)[1][0] == row["expected"]) + "\n")

class Calibrated:
    """A calibrated decision: the model, its probabilities (`agreement` and `cross` None where it has none) and where
    they come from."""
    def __init__(self, model, accept, confirm, agreement, cross, description, neural=None):
        self.model, self.accept, self.confirm, self.agreement, self.cross = model, accept, confirm, agreement, cross
        self.description = description
        # The neural check (`fit.NeuralCheck`), None where the decision has none.
        self.neural = neural

    def decision(self, cross_checking=False, neural_checking=True):
        """The decider; with `cross_checking`, as `--cross-check` decides (off by default); without `neural_checking`,
        without the neural check (which the default decision takes where it has one)."""
        return model_decision(self.model, self.accept, self.confirm, self.agreement, self.cross if cross_checking else None,
                              self.neural if neural_checking else None)

# The committed decodes the stock decision is fitted and chosen on (docs/accuracy-and-decisions.md, "A second model's decision"), beside the
# training features: each dev set's features, its manifest, and the adapted model's decodes of it for the cross-check.
STOCK_DEV_SETS = [("dev-human-features.tsv", "adapted-dev-human-manifest.tsv", "adapted-dev-human-features.tsv"),
                  ("dev-synthetic-features.tsv", "adapted-dev-synthetic-manifest.tsv", "adapted-dev-synthetic-features.tsv")]
# Decodes with the neural model's readings (`eval --neural`, committed-decodes.py) of the training clips, on which the
# neural decision model is fitted, and of the dev clips, on which the neural check is chosen.
STOCK_NEURAL_SETS = ["neural-training-features.tsv", "neural-dev-human-features.tsv", "neural-dev-synthetic-features.tsv"]
# The tuned decoder's readings of the same clips (`fit.pair_tuned`; the training clips' cross-fitted), one per set above.
STOCK_TUNED_SETS = ["neural-tuned-training-features.tsv", "neural-tuned-dev-human-features.tsv", "neural-tuned-dev-synthetic-features.tsv"]
ADAPTED_DECISION = os.path.join(os.path.dirname(__file__), "..", "..", "models", "en-us-flightvoice", "decision-model.json")
def refit(train_path):
    """The stock model's calibrated decision refitted from training features and chosen on the committed dev decodes
    beside them, with the command in docs/accuracy-and-decisions.md (`DecisionModel+Fitted.swift` holds the same); its
    neural check fitted on the committed decodes with the neural model's readings (`STOCK_NEURAL_SETS`), and the tuned
    decoder's where they are committed too (`STOCK_TUNED_SETS`)."""
    train = fit.load(train_path)
    model = fit.Model(train)
    folder = os.path.dirname(train_path)
    devs = []
    if all(os.path.exists(os.path.join(folder, name)) for names in STOCK_DEV_SETS for name in names):
        cross_model = fit.Model.from_file(ADAPTED_DECISION)[0]
        for features, manifest, adapted in STOCK_DEV_SETS:
            rows = fit.load(os.path.join(folder, features), os.path.join(folder, manifest))
            fit.pair_cross_check(rows, fit.load(os.path.join(folder, adapted)), cross_model)
            devs.append(rows)
    accept, confirm, agreement, cross = fit.choose(devs or [train], model)
    neural = None
    if devs and all(os.path.exists(os.path.join(folder, name)) for name in STOCK_NEURAL_SETS):
        training, *dev_sets = [fit.load(os.path.join(folder, name)) for name in STOCK_NEURAL_SETS]
        tuned = all(os.path.exists(os.path.join(folder, name)) for name in STOCK_TUNED_SETS)
        if tuned:
            for rows, name in zip([training] + dev_sets, STOCK_TUNED_SETS):
                fit.pair_tuned(rows, fit.load(os.path.join(folder, name)))
        neural = fit.choose_neural(dev_sets, model, fit.NeuralModel(training, model, tuned), accept, confirm, agreement, None)
    return Calibrated(model, accept, confirm, agreement, cross,
                      f"fitted on {len(train)} training clips; `scripts/decision-model/fit-decision-model.py`", neural)

def committed(model_path):
    """The calibrated decision an acoustic model's decision-model.json holds."""
    model, accept, confirm, agreement = fit.Model.from_file(model_path)
    check = json.load(open(model_path)).get("neuralCheck")
    neural = None if check is None else fit.NeuralCheck.from_json(check, model)
    return Calibrated(model, accept, confirm, agreement, None,
                      f"`{os.path.relpath(model_path)}`, written by `scripts/decision-model/fit-decision-model.py`", neural)

def describe(calibrated):
    agreement = calibrated.agreement
    agreeing = "" if agreement is None else f", and at p ≥ {agreement} when Debian's stock model heard the same flight"
    return (f"answer at p ≥ {calibrated.accept}{agreeing}{describe_neural(calibrated.neural)}, \"did you mean\" at p ≥ "
            f"{calibrated.confirm} ({calibrated.description})")

def describe_neural(neural):
    """The neural check in words (after a comma), or nothing where there is none."""
    if neural is None: return ""
    guard = "" if not math.isfinite(neural.off_list) else (f" and it scores at most {-neural.off_list:g} nats per token below the "
                                                           "flights one digit or letter away that do not fly today")
    dispute = "" if neural.dispute == neural.accept else (f"; it asks which where the grammar answers another flight and the "
                                                          f"neural decision model gives its own ≥ {neural.dispute:g}")
    return (f", and the neural model's first flight where p ≥ {neural.probability:g} (or nothing of today's was heard) when "
            f"the neural decision model gives it ≥ {neural.accept:g}{guard}{dispute}")

def report(calibrated, sets, reliable, telephone=None):
    """Prints the accuracy sections for `sets` [(name, features, manifest)], with reliability tables for `reliable`;
    `calibrated` is what `refit` or `committed` returns. With `telephone` ((that, {set name: the telephone model's
    features})), telephone clips are decided on that model's decodes with its decision, as the default recognizer does."""
    model = calibrated.model
    calibrated_decision = calibrated.decision()
    deciders = {"hand thresholds": threshold_decision, "calibrated": calibrated_decision}
    print(f"Calibrated decision: {describe(calibrated)}.\n")
    if telephone:
        deciders = {"hand thresholds": on_main_model(threshold_decision),
                    "calibrated": by_band({"wide": calibrated_decision, "telephone": telephone[0].decision()})}
        model = BandProbability({"wide": model, "telephone": telephone[0].model})
        print(f"Telephone audio (recorded at 8 kHz), as the recognizer routes it: decoded by the adapted model and decided "
              f"on with its own decision: {describe(telephone[0])}.\n")
    for name, features, manifest in sets:
        rows = fit.load(features)
        if telephone and name in telephone[1]:
            rows = as_routed(rows, fit.load(telephone[1][name]), os.path.dirname(manifest))
        with_manifest(rows, manifest)
        print(f"### {name} ({len(rows)} clips)\n")
        for column in ["condition", "kind", "form"]:
            if any(column in r for r in rows):
                print(table(rows, column, deciders) + "\n")
        print("How often each decision was taken:\n\n" + frequencies(rows, deciders) + "\n")
        if name in reliable:
            print("Reliability of the calibrated probability (clips in which a flight was heard):\n\n" + fit.reliability(rows, model) + "\n")

def main():
    args = sys.argv[1:]
    sets, reliable, calibrated = [], set(), None
    while args:
        flag = args.pop(0)
        if flag == "--model-file": calibrated = committed(args.pop(0))
        elif flag == "--model-from": calibrated = refit(args.pop(0))
        elif flag == "--set":
            name, paths = args.pop(0).split("=", 1)
            features, manifest = paths.split(":")
            sets.append((name, features, manifest))
        elif flag == "--reliability": reliable.add(args.pop(0))
    if calibrated is None: sys.exit(__doc__)
    report(calibrated, sets, reliable)

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Fits the recognizer's decision model: a logistic regression from an utterance's decision measures to the
probability that the flight heard is the flight said, and the two probabilities it decides on.

  flightvoice eval TRAIN.tsv --rival --features train-features.tsv      (training voices only)
  flightvoice eval DEV.tsv --rival --features dev-features.tsv          (voices held out of training)
  fit-decision-model.py train-features.tsv[,TRAIN.tsv] [--dev NAME=dev-features.tsv[,DEV.tsv] ...]
                        [--check NAME=held-out-features.tsv[,MANIFEST.tsv] ...] [--swift OUT.swift] [--model-file OUT.json]

Fits on the clips of the first file in which a flight was heard (label: it is the flight said), standardizing each
input; L2-regularized, by Newton's method (plain Python, no packages). Chooses on the --dev files (on the training
clips when none is given):
- the accept probability: the lowest at which, in every dev file, flights answered wrongly stay at most MAX_WRONG
  (1%) of its clips and no clip that names no flight is answered;
- the confirm probability: the one at which the flight said is answered or offered (or, for a clip that expects no
  flight, nothing is answered or offered) most often, averaged over the dev files.
A manifest after a comma gives each clip's `kind` (noflight, noise, offlist, flight), so that a query for a flight
that does not fly today is told from a clip that names none; without it every clip expecting none counts as naming
none. Then prints, for the training, dev and --check files, what would be decided and a reliability table (predicted
against observed probability per bin). The coefficients belong to the acoustic model the features were decoded
with: --model-file writes them as the JSON the recognizer reads from that model's folder
(models/en-us-flightvoice/decision-model.json, the default model's); --swift writes them as Swift source for Debian's
stock model, whose folder is not ours (Sources/Recognizer/Decision/DecisionModel+Fitted.swift, `DecisionModel.stock`).
Never give it features of the corpus you report on. Where every dev file has the second acoustic model's flight
(`second_opinion_flight`, measured by `eval --rival` with a model other than Debian's stock one), it also chooses the
agreement probability, from which a flight both models heard is answered (see `choose`). Where every dev file has a
second model's own decision (`cross_check_flight`/`cross_check_probability`, written by `eval --rival --cross-check`
or paired from that model's own dev decodes with --cross-check), it also chooses the
cross-check: from which of this model's probabilities the second model is asked (the lowest at which it is asked on at
most CROSS_CHECK_SHARE of each dev file's clips: its whole decode is the cost), and from which of the second model's
probabilities a flight both heard is answered (the one that answers the flight said most often, within the limits).

  --cross-check-model OTHER/decision-model.json --cross-check NAME=other-model-features.tsv ...
      pairs each clip of the dev or check file NAME with the second model's decode of it (by file name), its probability
      from that model's decision model.
  --neural NAME=neural-features.tsv ...
      pairs each clip of the dev or check file NAME (or of the training file, NAME `training`) with the neural model's
      reading of it (by file name; `flightvoice eval --neural --features`). With readings of the training clips, also
      fits the neural decision model (`NeuralModel`: the probability that the neural model's first flight is the flight
      said) on them; where every dev file has readings too, chooses the neural check (`choose_neural`), where it
      disputes the grammar's answers (`choose_dispute`) and where a surer reading answers (`choose_surer_answers`);
      the check then offers its first flight where it may answer from OFFER_PROBABILITY.
  --neural-tuned NAME=tuned-features.tsv ...
      pairs each clip of the --neural file NAME with the tuned decoder's reading of it (by file name): the reading of
      a decode with the tuned decoder in place of the stock one (`pair_tuned`); a --neural file whose own decodes read it
      (`neural_tuned_*`, `flightvoice eval --neural`) needs none. With the training clips' tuned readings, the neural
      decision model judges them too (TUNED_NAMES: whether the tuned decoder's first flight is the neural model's, its
      lead, its score), and every --neural set must have them.
  --neural-prompt TEXT
      the prompt the neural readings were made after (`DecisionModel.NeuralCheck.prompt`; none by default): written
      into the check, whose readings the recognizer then makes after it.

The inputs must match `DecisionModel.inputs` (and `neural_inputs` `NeuralDecisionModel.inputs`) in Swift, name for name. They use only columns every features file has
(see `inputs`); the flight words and the open grammar's reading of the same audio, never the count of carrier words.
"""
import bisect, csv, json, math, os, sys

NAMES = ["flight_fit", "open_gap", "open_missing", "squeeze", "rival_lead", "rival_missing", "grammars_agree", "snr",
         "unexplained", "lowest_word", "all_words", "open_offlist", "open_other_length", "fit_low_snr", "gap_low_snr",
         "digits", "open_distance", "open_digit_distance", "open_airline_differs", "open_near"]
NATURAL_FRAMES_PER_PHONE, MARGIN_LIMIT, SNR_LIMIT, UNEXPLAINED_LIMIT = 10.0, 20.0, 40.0, 2.0
LOW_SNR = 20.0          # dB below which the fit and gap count again, scaled by how far below (fit_low_snr, gap_low_snr)
DISTANCE_LIMIT = 4      # edits between the flight heard and the open grammar's beyond this count as this
UNEXPLAINED_CONFIRM_SECONDS = 0.15   # RecognitionThresholds.unexplainedSpeechSeconds: above it, at best a confirmation
MAX_WRONG = 0.01        # wrong answers allowed per dev (or training) set when choosing the accept probability
CROSS_CHECK_SHARE = 0.15   # the second model's whole decode may run on at most this share of each dev set's clips
RIDGE = 3.0

def number(text, default=None):
    return float(text) if text not in ("", None) else default

def edits(a, b):
    """Levenshtein distance between two strings (as `DecisionModel.edits` in Swift)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]

def inputs(row):
    gap = number(row["open_fit_difference"])
    margin = number(row["rival_margin"])
    pace = number(row["shortest_flight_word_frames_per_phone"], NATURAL_FRAMES_PER_PHONE)
    heard, opened = row["heard_today"], row["open_flight"]
    # A canonical flight is a two-character airline code and the number (FlightNumber).
    heard_airline, heard_number, open_airline, open_number = heard[:2], heard[2:], opened[:2], opened[2:]
    snr = min(max(number(row["snr_db"], 0.0), 0.0), SNR_LIMIT)
    fit = number(row["phone_loop_ratio"], 0.0)
    low_snr = max(0.0, LOW_SNR - snr) / LOW_SNR
    distance = min(edits(heard, opened), DISTANCE_LIMIT) if opened else 0
    return [
        fit,
        gap if gap is not None else 0.0,
        1.0 if gap is None else 0.0,
        max(0.0, NATURAL_FRAMES_PER_PHONE - pace),
        min(max(margin if margin is not None else 0.0, -MARGIN_LIMIT), MARGIN_LIMIT),
        1.0 if margin is None else 0.0,
        1.0 if row["grammars_agree"] == "1" else 0.0,
        snr,
        min(number(row["unexplained_speech_s"], 0.0), UNEXPLAINED_LIMIT),
        number(row["lowest_word_ratio"], 0.0),
        number(row["all_words_ratio"], 0.0),
        1.0 if opened and row["open_flight_today"] != "1" and opened != heard else 0.0,
        1.0 if opened and len(open_number) != len(heard_number) else 0.0,
        fit * low_snr,
        (gap if gap is not None else 0.0) * low_snr,
        float(len(heard_number)),
        float(distance),
        float(min(edits(heard_number, open_number), DISTANCE_LIMIT)) if opened else 0.0,
        1.0 if opened and open_airline != heard_airline else 0.0,
        1.0 if opened and distance <= 1 else 0.0,
    ]

def load(path, manifest=None):
    """Rows of a features file; `manifest` (the one it was made from) or the file's own `kind` column supplies each
    clip's kind, so that clips naming no flight (noflight, noise) can be told from queries for flights that do not fly
    today (offlist); both expect none."""
    rows = list(csv.DictReader(open(path), delimiter="\t"))
    kinds = {}
    if manifest:
        kinds = {os.path.basename(r["path"]): r.get("kind", "") for r in csv.DictReader(open(manifest), delimiter="\t")}
    for row in rows:
        row["heard"] = row["heard_today"] != ""
        row["right"] = row["heard"] and row["heard_today"] == row["expected"]
        # Without a manifest every clip that expects no flight counts as naming none (stricter).
        kind = kinds.get(os.path.basename(row["path"])) or row.get("kind") or "noflight"
        row["names_no_flight"] = not row["expected"] and kind in ("noflight", "noise")
        # The second acoustic model's flight (`eval --rival` reads it for every clip heard as a flight); None in files
        # written before it was measured.
        row["second_opinion"] = row.get("second_opinion_flight")
        # A second model's own decision (flight, probability); None where it was not decoded.
        probability = row.get("cross_check_probability")
        row["cross_check"] = (row.get("cross_check_flight", ""), float(probability)) if probability not in (None, "") else None
        row["neural"] = neural_reading(row)
    return rows

def neural_reading(row):
    """The neural model's reading of a clip (flight, margin or None, score, off-list margin or None, the free
    transcript's flight, the tuned decoder's reading or None: `tuned_reading`), None where it was not read."""
    if row.get("neural_score") in (None, ""): return None
    return (row.get("neural_flight", ""), number(row.get("neural_margin")), float(row["neural_score"]),
            number(row.get("neural_off_list_margin")), row.get("neural_free_flight", ""), tuned_reading(row, "neural_tuned_"))

def tuned_reading(row, prefix):
    """The tuned decoder's reading in `row`'s columns PREFIXflight, PREFIXmargin, PREFIXscore (flight, margin or None,
    score), None where it was not read."""
    if row.get(prefix + "score") in (None, ""): return None
    return (row.get(prefix + "flight", ""), number(row.get(prefix + "margin")), float(row[prefix + "score"]))

def pair_tuned(rows, tuned_rows):
    """Gives each row that the neural model read the tuned decoder's reading of the same clip (by file name) from
    `tuned_rows`: decodes with the tuned decoder in place of the stock one (`eval --neural` of a build whose
    models/whisper-tiny.en holds the merged weights), so their own reading (`neural_flight`, …) is the tuned one. The
    training clips' come from decoders tuned without their speakers (cross-fitted), as the dev clips' come from one tuned
    without theirs."""
    tuned = {os.path.basename(r["path"]): tuned_reading(r, "neural_") for r in tuned_rows}
    for row in rows:
        if row["neural"] is None: continue
        name = os.path.basename(row["path"])
        if name not in tuned: sys.exit(f"{row['path']}: not in the tuned decoder's decodes")
        row["neural"] = row["neural"][:5] + (tuned[name],)

def pair_cross_check(rows, other_rows, other_model):
    """Gives each row the second model's decision on the same clip (matched by file name): its flight and probability."""
    other = {os.path.basename(r["path"]): r for r in other_rows}
    for row in rows:
        o = other.get(os.path.basename(row["path"]))
        if o is None: sys.exit(f"{row['path']}: not in the second model's decodes")
        row["cross_check"] = (o["heard_today"], other_model.probability(o) if o["heard"] else 0.0)

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
    """A logistic regression over `features(row)` of the rows `use` selects, labelled by `label`; the grammar's decision
    model by default: the probability that the flight heard is the one said."""
    names = NAMES

    def __init__(self, rows):
        used = [r for r in rows if self.use(r)]
        raw = [self.features(r) for r in used]
        n = len(raw)
        self.means = [sum(c) / n for c in zip(*raw)]
        self.scales = [math.sqrt(sum((v - m) ** 2 for v in c) / n) or 1.0 for c, m in zip(zip(*raw), self.means)]
        xs = [self.standardize(x) for x in raw]
        self.intercept, self.weights = fit(xs, [1.0 if self.label(r) else 0.0 for r in used])

    def features(self, row): return inputs(row)
    def use(self, row): return row["heard"]
    def label(self, row): return row["right"]

    @classmethod
    def from_file(cls, path):
        """(model, accept, confirm, agreement) from a file `--model-file` wrote (an acoustic model's decision-model.json)."""
        data = json.load(open(path))
        if data["inputNames"] != NAMES: sys.exit(f"{path}: its inputs are not this script's; refit it")
        model = cls.__new__(cls)
        model.means, model.scales, model.weights, model.intercept = data["means"], data["scales"], data["weights"], data["intercept"]
        return model, data["acceptProbability"], data["confirmProbability"], data.get("agreementProbability")

    def standardize(self, x):
        return [(v - m) / s for v, m, s in zip(x, self.means, self.scales)]

    def probability(self, row):
        z = self.intercept + sum(w * v for w, v in zip(self.weights, self.standardize(self.features(row))))
        return 1 / (1 + math.exp(-max(-30, min(30, z))))

NEURAL_NAMES = ["score", "margin", "off_list_margin", "grammar_agrees", "grammar_logit", "grammar_other", "open_agrees",
                "free_agrees", "snr"]
# The tuned decoder's inputs (`NeuralDecisionModel.tunedInputNames`), after NEURAL_NAMES where its readings are given.
TUNED_NAMES = ["tuned_agrees", "tuned_margin", "tuned_score"]
NEURAL_SCORE_FLOOR, NEURAL_MARGIN_LIMIT, OFF_LIST_LIMIT, LOGIT_LIMIT = -10.0, 3.0, 1.0, 6.0

def neural_inputs(row, p, tuned=False):
    """The neural decision model's inputs (as `NeuralDecisionModel.inputs` in Swift): how sure the neural model is of its
    first flight (its score, its lead over today's next flight and over its own off-list neighbours), and whether the
    grammar (with the grammar's decision model's probability `p`), the open grammar and the free transcript heard it;
    with `tuned`, whether the tuned decoder put the same flight first, its lead there and its score."""
    flight, margin, score, off_list, free_flight, tuned_read = row["neural"]
    agrees = row["heard"] and flight == row["heard_today"]
    logit = math.log(p / (1 - p)) if 0 < p < 1 else (LOGIT_LIMIT if p >= 1 else -LOGIT_LIMIT)
    return [
        max(score, NEURAL_SCORE_FLOOR),
        min(margin if margin is not None else NEURAL_MARGIN_LIMIT, NEURAL_MARGIN_LIMIT),
        min(max(off_list if off_list is not None else OFF_LIST_LIMIT, -OFF_LIST_LIMIT), OFF_LIST_LIMIT),
        1.0 if agrees else 0.0,
        min(max(logit, -LOGIT_LIMIT), LOGIT_LIMIT) if agrees else 0.0,
        1.0 if row["heard"] and not agrees else 0.0,
        1.0 if row["open_flight"] == flight else 0.0,
        1.0 if free_flight == flight else 0.0,
        min(max(number(row["snr_db"], 0.0), 0.0), SNR_LIMIT),
    ] + (tuned_inputs(tuned_read, flight) if tuned else [])

def tuned_inputs(tuned_read, flight):
    """(as `NeuralDecisionModel.tunedInputs`) whether the tuned decoder's first flight is `flight`, its lead where it is
    (else 0), its score (the floor where it read none)."""
    if tuned_read is None or not tuned_read[0]: return [0.0, 0.0, NEURAL_SCORE_FLOOR]
    tuned_flight, margin, score = tuned_read
    agrees = tuned_flight == flight
    return [1.0 if agrees else 0.0, min(margin if margin is not None else NEURAL_MARGIN_LIMIT, NEURAL_MARGIN_LIMIT) if agrees else 0.0,
            max(score, NEURAL_SCORE_FLOOR)]

class NeuralModel(Model):
    """The neural decision model: the probability that the neural model's first flight is the flight said, fitted on
    every training clip it read a flight on (clips naming none and queries for flights not flying today count as wrong);
    with `tuned`, on the tuned decoder's readings too (TUNED_NAMES)."""
    def __init__(self, rows, grammar_model, tuned=False):
        self.grammar_model, self.tuned = grammar_model, tuned
        super().__init__(rows)

    @property
    def names(self): return NEURAL_NAMES + (TUNED_NAMES if self.tuned else [])

    def features(self, row): return neural_inputs(row, probability(self.grammar_model, row), self.tuned)
    def use(self, row): return row["neural"] is not None and row["neural"][0] != ""
    def label(self, row): return row["neural"][0] == row["expected"]

    def probability(self, row):
        cached = row.get("_neural_probability")
        if cached is None or cached[0] is not self:
            cached = (self, super().probability(row))
            row["_neural_probability"] = cached
        return cached[1]

class NeuralCheck:
    """Where the neural model is asked to answer (where the grammar's decision does not answer, from the grammar's
    `probability`, or where nothing of today's was heard; it also disputes the grammar's answers, `decide`), from which
    of the neural decision `model`'s probabilities its first flight is answered, and the lead that flight must keep over
    its off-list neighbours (`off_list`, nats per token; -inf: none asked). With `asks_over_runner_up`, it asks
    instead of answering where the grammar would offer a flight the neural model ranks next (`decide`). It disputes
    the grammar's answer of another flight from `dispute` (default: `accept`; `choose_dispute`). Where the grammar heard
    a flight at a probability below `probability`, it answers from `below_floor` (None: it is not asked there); where
    it would ask over the runner-up, it answers instead from `over_runner_up` (None: it always asks there): both
    chosen by `choose_surer_answers`. Where it is asked to answer but is not sure enough, it offers its first flight
    from `offer` (None: it offers none; `OFFER_PROBABILITY`)."""
    def __init__(self, probability, model, accept, off_list=-math.inf, asks_over_runner_up=False, dispute=None,
                 below_floor=None, over_runner_up=None, offer=None):
        self.probability, self.model, self.accept, self.off_list = probability, model, accept, off_list
        self.asks_over_runner_up = asks_over_runner_up
        self.dispute = accept if dispute is None else dispute
        self.below_floor, self.over_runner_up, self.offer = below_floor, over_runner_up, offer

    def replacing(self, **changes):
        """This check with the attributes `changes` names (`dispute`, `below_floor`, `over_runner_up`, `offer`) changed."""
        values = {"dispute": self.dispute, "below_floor": self.below_floor, "over_runner_up": self.over_runner_up,
                  "offer": self.offer, **changes}
        return NeuralCheck(self.probability, self.model, self.accept, self.off_list, self.asks_over_runner_up, **values)

    def probability_to_change(self, grammar, row, p):
        """The neural decision model's probability from which the first flight changes the `grammar`'s decision
        (`NeuralCheck.probabilityToChange`): `dispute` where the grammar answers a flight, `below_floor` where it heard
        one at a probability `p` below the check's own, else `accept`."""
        if grammar == "accept": return self.dispute
        return self.below_floor if row["heard"] and p < self.probability else self.accept

    @classmethod
    def from_json(cls, data, grammar_model):
        """The check a decision-model.json holds (`model_file`'s "neuralCheck"), judging with `grammar_model`'s probability."""
        names = data["model"]["inputNames"]
        if names not in (NEURAL_NAMES, NEURAL_NAMES + TUNED_NAMES): sys.exit("the neural check's inputs are not this script's; refit it")
        neural_model = NeuralModel.__new__(NeuralModel)
        neural_model.grammar_model, neural_model.tuned = grammar_model, names != NEURAL_NAMES
        for key in ("means", "scales", "weights", "intercept"): setattr(neural_model, key, data["model"][key])
        return cls(data["probability"], neural_model, data["acceptProbability"], data.get("offListMargin", -math.inf),
                   data.get("asksOverRunnerUp", False), dispute=data.get("disputeProbability"),
                   below_floor=data.get("belowFloorProbability"), over_runner_up=data.get("overRunnerUpProbability"),
                   offer=data.get("offerProbability"))

def open_grammar_doubts(row):
    """True where the open grammar, unforced, read another of today's flights than the one heard (`Decider.doubtingFlights`)."""
    return row["open_flight_today"] == "1" and row["open_flight"] not in ("", row["heard_today"])

def wants_cross_check(row, p, accept, cross):
    """True where the Swift Decider asks the second model (`Decider.wantsCrossCheck`)."""
    return (cross is not None and row["heard"] and cross[0] <= p < accept and not open_grammar_doubts(row)
            and number(row["unexplained_speech_s"], 0.0) < UNEXPLAINED_CONFIRM_SECONDS)

def cross_check_share(rows, model, accept, cross):
    """The share of `rows` on which the second model is asked (its whole decode is the cost)."""
    return sum(wants_cross_check(r, probability(model, r), accept, cross) for r in rows) / len(rows)

def wants_neural(row, p, neural, grammar):
    """True where the Swift Decider asks the neural model to answer (`Decider.neuralCheckAnswers`): where today's grammar
    heard nothing, or the `grammar`'s decision (`grammar_decision`) does not answer and `p` is at least the check's
    probability (or at any `p`, where the check answers below it too: `below_floor`). Speech the grammar's words leave
    unexplained is no reason not to: the neural model reads it too."""
    if neural is None: return False
    return not row["heard"] or (grammar != "accept" and (p >= neural.probability or neural.below_floor is not None))

def neural_probability(row, p, neural, grammar):
    """The neural decision model's probability for the neural model's first flight where it was asked (`wants_neural`,
    or, to dispute it, where the `grammar`'s decision answers a flight) and it keeps the check's lead over its off-list
    neighbours (`Decider.neuralProbability`), else None."""
    if neural is None or row["neural"] is None or not row["neural"][0]: return None
    if not (grammar == "accept" or wants_neural(row, p, neural, grammar)): return None
    # A flight that does not fly today explaining the audio better: the traveller may have asked for it.
    if row["neural"][3] is not None and row["neural"][3] < neural.off_list: return None
    return neural.model.probability(row)

def neural_answer(row, p, neural, grammar):
    """The neural model's first flight where the neural decision model is sure of it (`neural_probability`; to dispute,
    from the check's `dispute`), whatever flight (if any) today's grammar heard."""
    likely = neural_probability(row, p, neural, grammar)
    if likely is None: return None
    bar = neural.probability_to_change(grammar, row, p)
    return row["neural"][0] if bar is not None and likely >= bar else None

def neural_offer(row, p, neural, grammar):
    """The neural model's first flight where the check would answer it but for its probability and offers it
    (`Decider.offering`: from the check's `offer`), and the grammar does not offer it first; else None."""
    if neural is None or neural.offer is None or not wants_neural(row, p, neural, grammar): return None
    likely = neural_probability(row, p, neural, grammar)
    if likely is None or likely < neural.offer: return None
    return None if grammar == "confirm" and row["heard_today"] == row["neural"][0] else row["neural"][0]

def grammar_decision(row, p, accept, confirm, agreement=None, cross=None):
    """What the Swift Decider decides on today's grammar and the second models that confirm its flight
    (`Decider.grammarDecision`): accept, confirm or reject."""
    if not row["heard"]: return "reject"
    checked = wants_cross_check(row, p, accept, cross) and row["cross_check"] is not None and \
        row["cross_check"][0] == row["heard_today"] and row["cross_check"][1] >= cross[1]
    if p < confirm and not checked: return "reject"
    if open_grammar_doubts(row): return "confirm"
    agreed = agreement is not None and p >= agreement and row["second_opinion"] == row["heard_today"]
    if (p >= accept or agreed or checked) and number(row["unexplained_speech_s"], 0.0) < UNEXPLAINED_CONFIRM_SECONDS: return "accept"
    return "confirm"

def decide(row, p, accept, confirm, agreement=None, cross=None, neural=None):
    """What the Swift Decider decides (n-best off): accept, confirm or reject on today's grammar (`grammar_decision`);
    with a neural check, "accept_neural" where the neural model is asked and its decision model is sure of another
    flight than the grammar's (or of one where the grammar heard none), and "dispute" (a "did you mean" offering the
    neural model's flight, then the grammar's) where the neural decision model gives another flight than the one the
    grammar answers the check's dispute probability, or (`asks_over_runner_up`) is sure of another than the one the
    grammar offers when that flight is the neural model's next (unless it is as sure as the check's `over_runner_up`),
    or, where it is asked but less sure, from the check's `offer`, offers another than the grammar offers first; and
    "offer" (a "did you mean" offering the neural model's flight alone) where it offers one and the grammar offers none."""
    key = (p, accept, confirm, agreement, cross)
    cached = row.get("_grammar")
    if cached is None or cached[0] != key:
        cached = (key, grammar_decision(row, p, accept, confirm, agreement, cross))
        row["_grammar"] = cached
    grammar = cached[1]
    if disputed_by_tuned(row, neural, grammar): return "dispute_tuned"
    sure = neural_answer(row, p, neural, grammar)
    if sure is None:
        # Offered before the grammar's offered flights (as a dispute asks) or alone where the grammar offers none.
        if neural_offer(row, p, neural, grammar) is None: return grammar
        return "dispute" if grammar == "confirm" else "offer"
    if sure == row["heard_today"]: return "accept"
    # The grammar would offer its flight and the neural model ranks it next: they disagree by a hair, so it may ask.
    if grammar == "accept" or (neural.asks_over_runner_up and grammar == "confirm" and number(row.get("neural_grammar_rank")) == 1
                               and (neural.over_runner_up is None or neural.model.probability(row) < neural.over_runner_up)):
        return "dispute"
    return "accept_neural"

def disputed_by_tuned(row, neural, grammar):
    """True where the grammar's decision answers a flight that neither the tuned decoder, judged by the check's model,
    nor the stock decoder puts first (`Decider.decision`): both readings of the audio disagree with it, so it asks
    which, the tuned decoder's flight first. On the dev voices wrong flights 11 -> 11 (human) and 12 -> 10
    (synthetic), right answers 1046 -> 1048 and 834 -> 840 (stop 70; asking wherever the tuned decoder alone
    disagreed: 10 and 9 wrong, but 1047 and 832 right, and "Swiss forty" asked as "LX 43 or LX 40?")."""
    if neural is None or not neural.model.tuned or grammar != "accept" or row["neural"] is None: return False
    tuned = row["neural"][5]
    stock = row["neural"][0]
    return bool(tuned and tuned[0] and tuned[0] != row["heard_today"] and stock and stock != row["heard_today"])

OUTCOMES = ("right", "wrong", "confirm_right", "confirm_other", "unanswered", "noflight_answered")

def outcome(row, d):
    """The counts (as `outcomes` keys) that decision `d` on `row` adds to."""
    if d == "accept":
        return ("right" if row["right"] else "wrong",) + (("noflight_answered",) if row["names_no_flight"] else ())
    if d == "accept_neural":  # the neural model's own flight, another than the grammar's (or none) heard
        return ("right" if row["neural"][0] == row["expected"] else "wrong",) + (("noflight_answered",) if row["names_no_flight"] else ())
    if d == "confirm": return ("confirm_right" if row["right"] else "confirm_other",)
    if d == "dispute": return ("confirm_right" if row["right"] or row["neural"][0] == row["expected"] else "confirm_other",)
    if d == "dispute_tuned": return ("confirm_right" if row["right"] or row["neural"][5][0] == row["expected"] else "confirm_other",)
    if d == "offer": return ("confirm_right" if row["neural"][0] == row["expected"] else "confirm_other",)
    return ("unanswered",) + (("right",) if not row["expected"] else ())

def outcomes(rows, model, accept, confirm, agreement=None, cross=None, neural=None):
    """Counted as `flightvoice eval` counts: "right" is the flight said answered, or, for a clip that expects none, no
    flight answered and none offered."""
    counts = dict.fromkeys(OUTCOMES, 0)
    for row in rows:
        for key in outcome(row, decide(row, probability(model, row), accept, confirm, agreement, cross, neural)): counts[key] += 1
    return counts

def probability(model, row):
    """The model's probability for a row (0 when no flight was heard), computed once per model and row."""
    if not row["heard"]: return 0.0
    cached = row.get("_probability")
    if cached is None or cached[0] is not model:
        cached = (model, model.probability(row))
        row["_probability"] = cached
    return cached[1]

def choose(dev_sets, model):
    """The accept probability: the lowest at which every dev set has at most MAX_WRONG wrong answers and no clip naming
    no flight answered. Where every dev set has the second opinion measured, the accept and agreement probabilities
    together: the pair within the same limits that answers the flight said most often (averaged over the dev sets).
    The confirm probability: the one that offers or answers the flight said (or refuses a clip that names none) most
    often, averaged over the dev sets."""
    if dev_sets and isinstance(dev_sets[0], dict): dev_sets = [dev_sets]
    grid = [i / 200 for i in range(60, 200)] + [0.995, 0.999]
    def tally(accept, agreement, cross=None):
        """(within the limits on every dev set, the share answered right averaged over them)"""
        counts = [(outcomes(rows, model, accept, 0.0, agreement, cross), len(rows)) for rows in dev_sets]
        return (all(c["wrong"] <= MAX_WRONG * n and c["noflight_answered"] == 0 for c, n in counts),
                round(sum(c["right"] / n for c, n in counts), 9))
    accept = next((a for a in grid if tally(a, None)[0]), grid[-1])
    agreement = None
    # Files of the stock model carry the column too, always empty: it has no second model to ask.
    if all(row["second_opinion"] is not None for rows in dev_sets for row in rows) and any(
            row["second_opinion"] for rows in dev_sets for row in rows):
        allowed = [(right, a, g) for a in grid if a >= accept for g in grid if g <= a for ok, right in [tally(a, g)] if ok]
        if allowed:
            _, accept, agreement = max(allowed)
    cross = None
    if all(row["cross_check"] is not None for rows in dev_sets for row in rows if row["heard"]):
        def asked(own):
            return max(cross_check_share(rows, model, accept, (own, 0)) for rows in dev_sets)
        own = next((o for o in [i / 20 for i in range(0, 20)] if o < accept and asked(o) <= CROSS_CHECK_SHARE), None)
        if own is not None:
            allowed = [(right, other) for other in [i / 20 for i in range(0, 21)] for ok, right in [tally(accept, agreement, (own, other))] if ok]
            if allowed: cross = (own, max(allowed)[1])
    def useful(confirm):
        return sum((c["right"] + c["confirm_right"]) / len(rows) for rows in dev_sets for c in [outcomes(rows, model, accept, confirm, agreement, cross)])
    candidates = [i / 100 for i in range(5, int(round(min(accept, agreement or 1) * 100)) + 1)]
    confirm = max(candidates, key=lambda c: (round(useful(c), 9), -c)) if candidates else accept
    return accept, confirm, agreement, cross

def neural_share(rows, model, accept, confirm, agreement, neural):
    """The share of `rows` on which the neural model is asked to answer."""
    def asked(row):
        p = probability(model, row)
        return wants_neural(row, p, neural, grammar_decision(row, p, accept, confirm, agreement))
    return sum(asked(r) for r in rows) / len(rows)

def answers_by_bar(rows, model, neural_model, accept, confirm, agreement, cross, own, off_list, asks):
    """For the check asked from `own`, within `off_list` and with `asks_over_runner_up` `asks`, whose answer and dispute
    probabilities are one bar: a function from that bar to (right, wrong, naming no flight answered) on `rows`. A clip's
    decision is one of two, that of a check sure of every flight where the neural decision model gives its flight at
    least the bar, else that of one sure of none; so each clip is decided twice, not once per bar."""
    keys = ("right", "wrong", "noflight_answered")
    surest, unsure = NeuralCheck(own, neural_model, 0.0, off_list, asks), NeuralCheck(own, neural_model, math.inf, off_list, asks)
    base, changes = [0, 0, 0], []  # counts when sure of none; (-probability, what sure of its flight changes)
    for r in rows:
        p = probability(model, r)
        sure_of_all, sure_of_none = (outcome(r, decide(r, p, accept, confirm, agreement, cross, check)) for check in (surest, unsure))
        base = [b + sure_of_none.count(k) for b, k in zip(base, keys)]
        if sure_of_all != sure_of_none:
            changes.append((-neural_model.probability(r), [sure_of_all.count(k) - sure_of_none.count(k) for k in keys]))
    changes.sort(key=lambda c: c[0])
    cumulative = [base]
    for _, change in changes: cumulative.append([a + b for a, b in zip(cumulative[-1], change)])
    probabilities = [c[0] for c in changes]
    return lambda bar: tuple(cumulative[bisect.bisect_right(probabilities, -bar)])

def choose_neural(dev_sets, model, neural_model, accept, confirm, agreement, cross):
    """The neural check, where every dev set has the neural model's readings: the grammar's probability from which it is
    asked, the lead over the off-list neighbours and the neural decision model's probability from which its first
    flight is answered, and whether it asks where the grammar would offer the neural model's next flight
    (`asks_over_runner_up`), the four that answer the flight said most often within the limits of `choose` (at most
    MAX_WRONG wrong, no clip naming no flight answered). Ties go to the surer answer, then to the check asked less.
    With the tuned decoder's readings the check always keeps a lead over the off-list neighbours: where both decoders
    put today's nearest flight first for a query of one that does not fly today, their agreement is no evidence that
    it was said; on the dev sets no lead answered no more (stop 70, docs/accuracy-and-decisions.md).
    (Until stop 65 also with no more wrong flights on any dev set than the disputes alone gave: a count of rare
    events that only climbs as a dev set grows, where the limit is a share; docs/experiments.md, 2026-12-07.)
    Where it is asked does not bound its cost: to dispute the grammar's answers the pass runs on nearly every clip
    heard. Then where it disputes the grammar's answers (`choose_dispute`). None when nothing answers more than without
    it."""
    if not all(row["neural"] is not None for rows in dev_sets for row in rows if row["heard"]): return None
    baseline = round(sum(outcomes(rows, model, accept, confirm, agreement, cross)["right"] / len(rows) for rows in dev_sets), 9)
    sures = [i / 200 for i in range(100, 200)] + [0.995, 0.999]
    best = None
    for own in [i / 20 for i in range(0, 20)]:
        if own >= accept: break
        for off_list in ([] if neural_model.tuned else [-math.inf]) + [i / 10 for i in range(-8, 3)]:
            for asks in (False, True):
                by_bar = [(answers_by_bar(rows, model, neural_model, accept, confirm, agreement, cross, own, off_list, asks), len(rows))
                          for rows in dev_sets]
                for sure in sures:
                    counts = [(at(sure), n) for at, n in by_bar]
                    ok = all(wrong <= MAX_WRONG * n and noflight == 0 for (_, wrong, noflight), n in counts)
                    right = round(sum(r / n for (r, _, _), n in counts), 9)
                    if ok and (best is None or (right, off_list, sure, own, asks) > best[0]):
                        best = ((right, off_list, sure, own, asks), NeuralCheck(own, neural_model, sure, off_list, asks))
    if best is None or best[0][0] <= baseline: return None
    neural = choose_dispute(dev_sets, model, best[1], accept, confirm, agreement, cross)
    return choose_surer_answers(dev_sets, model, neural, accept, confirm, agreement, cross).replacing(offer=OFFER_PROBABILITY)

DISPUTE_FLOOR = 0.5
# From where the check offers the flight it would answer but for its probability: from 0.5 the offer is more likely the
# flight said than not, and a refusal costs the traveller a retry (a "did you mean" of another costs no more). Offers
# are no answers, so they leave the choice of the rest, made before it, as it is.
OFFER_PROBABILITY = 0.5

def choose_surer_answers(dev_sets, model, neural, accept, confirm, agreement, cross):
    """Where the check does not answer, two places where a surer reading may: where the grammar heard a flight at a
    probability below the check's own (`below_floor`: it heard little that is today's, and the neural model may be
    sure of a flight on its own, as where the grammar heard none), and where it asks over the runner-up
    (`over_runner_up`: a disagreement by a hair for the grammar is none for a neural model that sure). Each the lowest
    probability from the check's accept probability up at which no dev set answers more wrong flights than without it
    (nor any clip naming no flight), kept where it answers the flight said more often."""
    def tally(check):
        counts = [outcomes(rows, model, accept, confirm, agreement, cross, check) for rows in dev_sets]
        return [c["wrong"] for c in counts], [c["noflight_answered"] for c in counts], sum(c["right"] for c in counts)
    grid = [i / 200 for i in range(int(math.ceil(neural.accept * 200)), 200)] + [0.995, 0.999]
    for name in ("below_floor", "over_runner_up"):
        if name == "over_runner_up" and not neural.asks_over_runner_up: continue
        wrong, noflight, right = tally(neural)
        for bar in grid:
            candidate = neural.replacing(**{name: bar})
            w, n, r = tally(candidate)
            if all(a <= b for a, b in zip(w, wrong)) and all(a <= b for a, b in zip(n, noflight)):
                if r > right: neural = candidate
                break
    return neural

def choose_dispute(dev_sets, model, neural, accept, confirm, agreement, cross):
    """The neural decision model's probability from which the check disputes the grammar's answer of another flight:
    the lowest from DISPUTE_FLOOR up to the check's own accept probability at which disputing costs no dev set a right
    answer. From 0.5 the neural model's flight is more likely the one said than not, so the grammar's other flight is
    more likely wrong than right: asking is the better bet wherever no right answer on the dev voices says otherwise."""
    def rights(check): return [outcomes(rows, model, accept, confirm, agreement, cross, check)["right"] for rows in dev_sets]
    at_accept = rights(neural)
    for dispute in [DISPUTE_FLOOR + i / 20 for i in range(0, 20)]:
        if dispute >= neural.accept: break
        candidate = neural.replacing(dispute=dispute)
        if rights(candidate) == at_accept: return candidate
    return neural

def reliability(rows, model, label=None):
    """Predicted against observed: `model.probability` of each row `model` judges (`use`; else the rows that heard a
    flight) against `label(row)`, else its own `label`, else whether the flight heard is the one said."""
    label = label or getattr(model, "label", None) or (lambda row: row["right"])
    bins = [[] for _ in range(10)]
    for row in rows:
        if getattr(model, "use", lambda r: r["heard"])(row):
            p = model.probability(row)
            bins[min(9, int(p * 10))].append((p, label(row)))
    lines = ["| predicted | clips | mean predicted | observed right |", "|---|---|---|---|"]
    for i, b in enumerate(bins):
        if b:
            lines.append(f"| {i / 10:.1f}–{(i + 1) / 10:.1f} | {len(b)} | {sum(p for p, _ in b) / len(b):.2f} | {sum(r for _, r in b) / len(b):.2f} |")
    n = sum(len(b) for b in bins)
    brier = sum((p - r) ** 2 for b in bins for p, r in b) / max(1, n)
    ece = sum(abs(sum(p for p, _ in b) - sum(r for _, r in b)) for b in bins) / max(1, n)
    lines.append(f"\nBrier score {brier:.3f}, expected calibration error {ece:.3f} over {n} clips with a flight "
                 + ("read by the neural model" if isinstance(model, NeuralModel) else "heard"))
    return "\n".join(lines)

def swift(model, accept, confirm, agreement, cross, source, chosen_on, neural=None, prompt=""):
    def numbers(values): return ", ".join(f"{v:.6g}" for v in values)
    cross_check = "" if cross is None else (",\n        crossCheck: CrossCheck(probability: "
                                            f"{cross[0]:.3g}, otherModelProbability: {cross[1]:.3g})")
    if neural is not None:
        m = neural.model
        off_list = "" if not math.isfinite(neural.off_list) else f", offListMargin: {neural.off_list:.3g}"
        prompted = f",\n            prompt: {json.dumps(prompt)}" if prompt else ""
        asks = ", asksOverRunnerUp: true" if neural.asks_over_runner_up else ""
        dispute = "" if neural.dispute == neural.accept else f", disputeProbability: {neural.dispute:.3g}"
        below = "" if neural.below_floor is None else f", belowFloorProbability: {neural.below_floor:.3g}"
        over = "" if neural.over_runner_up is None else f", overRunnerUpProbability: {neural.over_runner_up:.3g}"
        offer = "" if neural.offer is None else f", offerProbability: {neural.offer:.3g}"
        cross_check += (f",\n        neuralCheck: NeuralCheck(probability: {neural.probability:.3g}, acceptProbability: {neural.accept:.3g}{dispute}{below}{off_list}{asks}{over}{offer}{prompted}, model: NeuralDecisionModel(\n"
                        f"            inputNames: {json.dumps(m.names)},\n"
                        f"            means: [{numbers(m.means)}],\n            scales: [{numbers(m.scales)}],\n"
                        f"            weights: [{numbers(m.weights)}],\n            intercept: {m.intercept:.6g}))")
    return f"""// Written by scripts/decision-model/fit-decision-model.py from {source} (thresholds chosen on {chosen_on}); do not edit by hand.

extension DecisionModel {{
    /// The model fitted on Debian's stock acoustic model's decodes of the training voices (see `DecisionModel`).
    public static let stock = DecisionModel(
        inputNames: {json.dumps(NAMES)},
        means: [{numbers(model.means)}],
        scales: [{numbers(model.scales)}],
        weights: [{numbers(model.weights)}],
        intercept: {model.intercept:.6g},
        acceptProbability: {accept:.3g},
        confirmProbability: {confirm:.3g}{"" if agreement is None else f", agreementProbability: {agreement:.3g}"}{cross_check})
}}
"""

def model_file(model, accept, confirm, agreement, cross, source, chosen_on, neural=None, prompt=""):
    """The JSON `DecisionModel(contentsOf:)` reads (its Codable keys; `source` is for people and ignored)."""
    return json.dumps({**{
        "source": f"scripts/decision-model/fit-decision-model.py from {source} (thresholds chosen on {chosen_on}); do not edit by hand",
        "inputNames": NAMES,
        "means": [float(f"{v:.6g}") for v in model.means],
        "scales": [float(f"{v:.6g}") for v in model.scales],
        "weights": [float(f"{v:.6g}") for v in model.weights],
        "intercept": float(f"{model.intercept:.6g}"),
        "acceptProbability": float(f"{accept:.3g}"),
        "confirmProbability": float(f"{confirm:.3g}"),
    }, **({} if agreement is None else {"agreementProbability": float(f"{agreement:.3g}")}),
        **({} if cross is None else {"crossCheck": {"probability": float(f"{cross[0]:.3g}"), "otherModelProbability": float(f"{cross[1]:.3g}")}}),
        **({} if neural is None else {"neuralCheck": {
            "probability": float(f"{neural.probability:.3g}"), "acceptProbability": float(f"{neural.accept:.3g}"),
            **({} if neural.dispute == neural.accept else {"disputeProbability": float(f"{neural.dispute:.3g}")}),
            **({"offListMargin": float(f"{neural.off_list:.3g}")} if math.isfinite(neural.off_list) else {}),
            **({} if neural.below_floor is None else {"belowFloorProbability": float(f"{neural.below_floor:.3g}")}),
            **({"asksOverRunnerUp": True} if neural.asks_over_runner_up else {}),
            **({} if neural.over_runner_up is None else {"overRunnerUpProbability": float(f"{neural.over_runner_up:.3g}")}),
            **({} if neural.offer is None else {"offerProbability": float(f"{neural.offer:.3g}")}),
            **({"prompt": prompt} if prompt else {}),
            "model": {"inputNames": neural.model.names, "means": [float(f"{v:.6g}") for v in neural.model.means],
                      "scales": [float(f"{v:.6g}") for v in neural.model.scales],
                      "weights": [float(f"{v:.6g}") for v in neural.model.weights],
                      "intercept": float(f"{neural.model.intercept:.6g}")}}})},
        indent=1) + "\n"

def parse_named(text):
    """NAME=FEATURES.tsv[,MANIFEST.tsv]"""
    name, paths = text.split("=", 1)
    features, _, manifest = paths.partition(",")
    return name, load(features, manifest or None)

def summary(name, rows, model, accept, confirm, agreement, cross, neural=None):
    c = outcomes(rows, model, accept, confirm, agreement, cross, neural)
    total = len(rows)
    return (f"\n## {name}: {total} clips\n\n"
            f"right {c['right']} ({100 * c['right'] / total:.1f}%), wrong {c['wrong']} ({100 * c['wrong'] / total:.1f}%), "
            f"did-you-mean with the flight said {c['confirm_right']} ({100 * c['confirm_right'] / total:.1f}%), "
            f"other did-you-mean {c['confirm_other']}, not answered {c['unanswered']}, no-flight clips answered {c['noflight_answered']}\n\n"
            + reliability(rows, model))

def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"): sys.exit(__doc__)
    train_path = args.pop(0)
    devs, checks, out, json_out = [], [], None, None
    cross_model, cross_files, neural_files, prompt, tuned_files = None, [], [], "", []
    while args:
        flag = args.pop(0)
        if flag == "--dev": devs.append(parse_named(args.pop(0)))
        elif flag == "--check": checks.append(parse_named(args.pop(0)))
        elif flag == "--swift": out = args.pop(0)
        elif flag == "--model-file": json_out = args.pop(0)
        elif flag == "--cross-check-model": cross_model = Model.from_file(args.pop(0))[0]
        elif flag == "--cross-check": cross_files.append(args.pop(0).split("=", 1))
        elif flag == "--neural": neural_files.append(args.pop(0).split("=", 1))
        elif flag == "--neural-prompt": prompt = args.pop(0)
        elif flag == "--neural-tuned": tuned_files.append(args.pop(0).split("=", 1))
        else: sys.exit(f"unknown argument {flag}")
    train_path, _, train_manifest = train_path.partition(",")
    train = load(train_path, train_manifest or None)
    named = dict(devs + checks)
    for name, path in cross_files:
        if cross_model is None: sys.exit("--cross-check needs --cross-check-model")
        if name not in named: sys.exit(f"--cross-check {name}: no --dev or --check of that name")
        pair_cross_check(named[name], load(path), cross_model)
    neural_sets = {}
    for name, path in neural_files:
        if name != "training" and name not in named: sys.exit(f"--neural {name}: no --dev or --check of that name (or training)")
        neural_sets[name] = load(path)
    for name, path in tuned_files:
        if name not in neural_sets: sys.exit(f"--neural-tuned {name}: no --neural of that name")
        pair_tuned(neural_sets[name], load(path))
    model = Model(train)
    accept, confirm, agreement, cross = choose([rows for _, rows in devs] or [train], model)
    # The tuned decoder's readings are judged where the training clips have them; then every dev set must have them too.
    tuned = "training" in neural_sets and any(r["neural"] and r["neural"][5] for r in neural_sets["training"])
    if tuned and not all(r["neural"] is None or r["neural"][5] is not None for rows in neural_sets.values() for r in rows):
        sys.exit("the tuned decoder's readings are given for the training clips but not for every clip of every --neural set (--neural-tuned)")
    neural_model = NeuralModel(neural_sets["training"], model, tuned) if "training" in neural_sets else None
    neural = None
    if neural_model and devs and all(name in neural_sets for name, _ in devs):
        neural = choose_neural([neural_sets[name] for name, _ in devs], model, neural_model, accept, confirm, agreement, None)
    chosen_on = ", ".join(name for name, _ in devs) or "the training clips"
    print(f"fitted on {sum(r['heard'] for r in train)} of {len(train)} training clips; chosen on {chosen_on}: "
          f"accept at p >= {accept}, confirm at p >= {confirm}"
          + ("" if agreement is None else f", accept at p >= {agreement} when the second opinion heard the same flight")
          + ("" if cross is None else f", accept at p >= {cross[0]} when the second model's own decision heard the same flight at p >= {cross[1]}")
          + ("" if neural is None else f", and the neural model's first flight where p >= {neural.probability} (or nothing "
             f"of today's was heard) when the neural decision model gives it >= {neural.accept}"
             + ("" if not math.isfinite(neural.off_list) else f" and it leads its off-list neighbours by >= {neural.off_list}")
             + ("" if neural.below_floor is None else f" (where p < {neural.probability}, from {neural.below_floor})")
             + (", asking where the grammar would offer the neural model's next flight" if neural.asks_over_runner_up else "")
             + ("" if neural.over_runner_up is None else f" unless it gives its own >= {neural.over_runner_up}")
             + f"; it disputes the grammar's answer of another flight from {neural.dispute}"
             + ("" if neural.offer is None else f" and offers its first flight where it may answer from {neural.offer}")))
    for name, w in zip(NAMES, model.weights): print(f"  {name:20s} {w:+.3f}")
    if neural_model:
        print(f"neural decision model, fitted on the {sum(neural_model.use(r) for r in neural_sets['training'])} training clips "
              "the neural model read a flight on:")
        for name, w in zip(neural_model.names, neural_model.weights): print(f"  {name:20s} {w:+.3f}")
    for name, rows in [("training", train)] + devs + checks:
        print(summary(name, rows, model, accept, confirm, agreement, cross))
        if cross is not None:
            print(f"\nthe second model decoded {100 * cross_check_share(rows, model, accept, cross):.1f}% of the clips")
        if neural is not None and name in neural_sets:
            rows = neural_sets[name]
            print(summary(f"{name}, decoded with the neural model's readings, with the neural check", rows, model, accept, confirm, agreement, None, neural)
                  + f"\n\nthe neural model was asked on {100 * neural_share(rows, model, accept, confirm, agreement, neural):.1f}% of the clips; "
                  f"the neural decision model's reliability on every clip it read a flight on:\n\n" + reliability(rows, neural.model))
    if out:
        open(out, "w").write(swift(model, accept, confirm, agreement, cross, os.path.basename(train_path), chosen_on, neural, prompt))
    if json_out:
        open(json_out, "w").write(model_file(model, accept, confirm, agreement, cross, os.path.basename(train_path), chosen_on, neural, prompt))

if __name__ == "__main__":
    main()

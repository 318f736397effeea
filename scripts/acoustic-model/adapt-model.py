#!/usr/bin/env python3
"""Adapts PocketSphinx's en-us acoustic model to FlightVoice's queries, voices, noise and channels.

    nice -n 10 scripts/acoustic-model/adapt-model.py TRAINING_SET OUT_MODEL [--method mllr+map] [--band wide|telephone]
                                                     [--work DIR] [--jobs N]
                                                     [--stock /usr/share/pocketsphinx/model/en-us/en-us]

TRAINING_SET is a folder made by scripts/training-data/make-training-set.py; only its `train.tsv` rows are used
(never dev or check, never ../shared/corpus). OUT_MODEL receives a complete model folder for `flightvoice --model`.

How (the CMU Sphinx adaptation recipe, with Debian's sphinxtrain in /usr/lib/sphinxtrain):
 1. Copy the stock model; write its mixture weights as `mixture_weights` (Debian ships only `sendump`, see
    sendump.py) and its model definition as text (pocketsphinx_mdef_convert), which bw and map_adapt need.
 2. Bring every clip to what the recognizer decodes: 16 kHz mono (telephone clips are upsampled, as AudioInput does).
    `--band telephone` instead band-limits every clip to 300-3400 Hz at 8 kHz first, for a telephone model.
 3. Features with sphinx_fe and the model's own feat.params (the decoder reads the same file), no silence removal
    (the recognizer decodes with -remove_silence no).
 4. bw collects statistics of the training clips against their transcripts (cmudict, plus extra.dict for airline
    callsigns the dictionary lacks; a clip with any other unknown word is left out and counted).
 5. mllr: one global MLLR transform of the means (mllr_solve, mllr_transform) — robust with little data;
    map: MAP re-estimation of means, variances, mixture weights and transitions (map_adapt);
    mllr+map: MLLR first, then bw again on the transformed model, then MAP.
 6. mk_s2sendump writes the adapted mixture weights back as `sendump`; the binary mdef, noisedict and feat.params are
    the stock model's (with `-upperf 3500` for the telephone band).
Deterministic for the same training set. Needs sphinxtrain, sphinxbase-utils (sphinx_fe), pocketsphinx
(pocketsphinx_mdef_convert), sox and numpy: `make training-tools`.
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sendump  # noqa: E402

SPHINXTRAIN = "/usr/lib/sphinxtrain"
STOCK = "/usr/share/pocketsphinx/model/en-us/en-us"
STOCK_DICTIONARY = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"
RATE = 16000
# The telephone model's filter bank stops below the line's 3.4 kHz edge (TECH-NOTES: 8 kHz audio).
TELEPHONE_UPPER_FREQUENCY = 3500
# The smallest mixture weight kept. The stock sendump holds weights down to ~1e-7; sphinxtrain's default floor (1e-5)
# would raise 15% of them.
MIXTURE_WEIGHT_FLOOR = "1e-8"
# PocketSphinx's PTM en-us model: one codebook per base phone (.ptm.), three streams.
MODEL_ARGUMENTS = ["-ts2cbfn", ".ptm.", "-feat", "1s_c_d_dd", "-svspec", "0-12/13-25/26-38", "-cmn", "batch",
                   "-agc", "none"]


def run(*args, log=None):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if log:
        with open(log, "a") as out: out.write(" ".join(map(str, args)) + "\n" + result.stdout + result.stderr)
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, args))}\n{result.stderr[-3000:]}")
    return result


def read_dictionary(*paths):
    words = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            parts = line.split()
            if parts and "(" not in parts[0]: words.setdefault(parts[0], " ".join(parts[1:]))
    return words


def prepare_model(stock, model, band):
    os.makedirs(model, exist_ok=True)
    for name in ("mdef", "means", "variances", "transition_matrices", "noisedict", "feat.params"):
        shutil.copy(os.path.join(stock, name), model)
    if band == "telephone":
        params = open(os.path.join(model, "feat.params")).read()
        params = re.sub(r"-upperf\s+\S+", f"-upperf {TELEPHONE_UPPER_FREQUENCY}", params)
        open(os.path.join(model, "feat.params"), "w").write(params)
    sendump.write_mixture_weights(os.path.join(model, "mixture_weights"),
                                  sendump.read_sendump(os.path.join(stock, "sendump")))
    run("pocketsphinx_mdef_convert", "-text", os.path.join(stock, "mdef"), os.path.join(model, "mdef.txt"))


def prepare_audio(training_set, work, band, words):
    """Writes 16 kHz clips, fileids, transcription and dictionary for the train rows; returns the fileids count."""
    wav_dir = os.path.join(work, "wav")
    os.makedirs(wav_dir, exist_ok=True)
    rows = list(csv.DictReader(open(os.path.join(training_set, "train.tsv")), delimiter="\t"))
    used, skipped, vocabulary = [], {}, set()
    for row in rows:
        if row["split"] != "train":
            sys.exit(f"{row['path']}: split {row['split']} in train.tsv — only training speakers may be used")
        tokens = row["text"].split()
        if not tokens: continue
        unknown = [t for t in tokens if t not in words]
        if unknown:
            for t in unknown: skipped[t] = skipped.get(t, 0) + 1
            continue
        fileid = os.path.splitext(os.path.basename(row["path"]))[0]
        target = os.path.join(wav_dir, fileid + ".wav")
        source = os.path.join(training_set, row["path"])
        if band == "telephone":
            run("sox", "-R", source, "-r", "8000", os.path.join(work, "tmp.wav"), "sinc", "300-3400")
            source = os.path.join(work, "tmp.wav")
        run("sox", "-R", source, "-r", str(RATE), "-c", "1", "-b", "16", target)
        used.append((fileid, tokens))
        vocabulary.update(tokens)
    if skipped: print(f"left out clips with unknown words: {skipped}", file=sys.stderr)
    with open(os.path.join(work, "train.fileids"), "w") as fileids, \
            open(os.path.join(work, "train.transcription"), "w") as transcription:
        for fileid, tokens in used:
            fileids.write(fileid + "\n")
            transcription.write(f"<s> {' '.join(tokens)} </s> ({fileid})\n")
    with open(os.path.join(work, "train.dict"), "w") as dictionary:
        for word in sorted(vocabulary): dictionary.write(f"{word} {words[word]}\n")
    return len(used)


def features(model, work):
    run("sphinx_fe", "-argfile", os.path.join(model, "feat.params"), "-samprate", RATE, "-remove_silence", "no",
        "-c", os.path.join(work, "train.fileids"), "-di", os.path.join(work, "wav"), "-do", os.path.join(work, "feat"),
        "-ei", "wav", "-eo", "mfc", "-mswav", "yes", log=os.path.join(work, "sphinx_fe.log"))


def collect(model, work, accumulators, jobs):
    """bw: statistics of the training clips aligned to their transcripts under `model`, in `jobs` parts at once (one
    accumulator folder each; mllr_solve and map_adapt add them up). Returns the folders."""
    folders = [accumulators] if jobs == 1 else [f"{accumulators}.{part}" for part in range(1, jobs + 1)]
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    arguments = ["-hmmdir", model, "-moddeffn", os.path.join(model, "mdef.txt"), *MODEL_ARGUMENTS,
                 "-dictfn", os.path.join(work, "train.dict"), "-fdictfn", os.path.join(model, "noisedict"),
                 "-ctlfn", os.path.join(work, "train.fileids"), "-lsnfn", os.path.join(work, "train.transcription"),
                 "-cepdir", os.path.join(work, "feat"), "-cepext", "mfc", "-timing", "no"]
    if jobs == 1:
        run(f"{SPHINXTRAIN}/bw", *arguments, "-accumdir", accumulators, log=os.path.join(work, "bw.log"))
        return folders
    parts = []
    for part, folder in enumerate(folders, start=1):
        log = open(os.path.join(work, f"bw.{part}.log"), "w")
        parts.append((subprocess.Popen([f"{SPHINXTRAIN}/bw", *map(str, arguments), "-accumdir", folder,
                                        "-part", str(part), "-npart", str(jobs)], stdout=log, stderr=log), log))
    for process, log in parts:
        process.wait()
        log.close()
        if process.returncode != 0: sys.exit(f"failed: bw part, see {log.name}")
    return folders


def mllr(model, work, accumulators, out_model):
    matrix = os.path.join(work, "mllr_matrix")
    run(f"{SPHINXTRAIN}/mllr_solve", "-meanfn", os.path.join(model, "means"), "-varfn", os.path.join(model, "variances"),
        "-outmllrfn", matrix, "-accumdir", ",".join(accumulators), log=os.path.join(work, "mllr.log"))
    run(f"{SPHINXTRAIN}/mllr_transform", "-inmeanfn", os.path.join(model, "means"),
        "-outmeanfn", os.path.join(out_model, "means"), "-mllrmat", matrix, log=os.path.join(work, "mllr.log"))


def map_adapt(model, accumulators, out_model, work):
    run(f"{SPHINXTRAIN}/map_adapt", "-moddeffn", os.path.join(model, "mdef.txt"), "-ts2cbfn", ".ptm.",
        "-meanfn", os.path.join(model, "means"), "-varfn", os.path.join(model, "variances"),
        "-mixwfn", os.path.join(model, "mixture_weights"), "-tmatfn", os.path.join(model, "transition_matrices"),
        "-accumdir", ",".join(accumulators), "-mwfloor", MIXTURE_WEIGHT_FLOOR, "-mapmeanfn", os.path.join(out_model, "means"),
        "-mapvarfn", os.path.join(out_model, "variances"), "-mapmixwfn", os.path.join(out_model, "mixture_weights"),
        "-maptmatfn", os.path.join(out_model, "transition_matrices"), log=os.path.join(work, "map.log"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("training_set")
    parser.add_argument("out_model")
    parser.add_argument("--method", choices=["mllr", "map", "mllr+map"], default="mllr+map")
    parser.add_argument("--band", choices=["wide", "telephone"], default="wide")
    parser.add_argument("--work", help="scratch folder (default: OUT_MODEL.work)")
    parser.add_argument("--stock", default=STOCK)
    parser.add_argument("--jobs", type=int, default=1, help="bw processes at once, each on its share of the clips")
    args = parser.parse_args()
    work = os.path.abspath(args.work or args.out_model.rstrip("/") + ".work")
    stock_copy, out_model = os.path.join(work, "stock"), os.path.abspath(args.out_model)
    os.makedirs(work, exist_ok=True)
    for stale in ("wav", "feat", "sphinx_fe.log", "bw.log", "mllr.log", "map.log"):   # never mix two runs' clips
        path = os.path.join(work, stale)
        shutil.rmtree(path) if os.path.isdir(path) else os.path.exists(path) and os.remove(path)
    prepare_model(args.stock, stock_copy, args.band)
    words = read_dictionary(STOCK_DICTIONARY, os.path.join(HERE, "extra.dict"))
    count = prepare_audio(args.training_set, work, args.band, words)
    print(f"{count} training clips; features", file=sys.stderr)
    features(stock_copy, work)
    accumulators = os.path.join(work, "accumulators")
    print("bw", file=sys.stderr)
    accumulators = collect(stock_copy, work, accumulators, args.jobs)
    staged = os.path.join(work, "staged")
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(stock_copy, staged)
    if args.method in ("mllr", "mllr+map"):
        print("mllr", file=sys.stderr)
        mllr(stock_copy, work, accumulators, staged)
    if args.method in ("map", "mllr+map"):
        prior = stock_copy
        if args.method == "mllr+map":
            print("bw on the MLLR-transformed model", file=sys.stderr)
            accumulators = collect(staged, work, os.path.join(work, "accumulators-after-mllr"), args.jobs)
            prior = staged
        print("map", file=sys.stderr)
        mapped = os.path.join(work, "mapped")
        os.makedirs(mapped, exist_ok=True)
        map_adapt(prior, accumulators, mapped, work)
        for name in ("means", "variances", "mixture_weights", "transition_matrices"):
            shutil.copy(os.path.join(mapped, name), staged)
    run(f"{SPHINXTRAIN}/mk_s2sendump", "-pocketsphinx", "yes", "-moddeffn", os.path.join(staged, "mdef.txt"),
        "-mixwfn", os.path.join(staged, "mixture_weights"), "-mwfloor", MIXTURE_WEIGHT_FLOOR, "-sendumpfn", os.path.join(staged, "sendump"),
        log=os.path.join(work, "map.log"))
    os.makedirs(out_model, exist_ok=True)
    for name in ("mdef", "means", "variances", "transition_matrices", "sendump", "noisedict", "feat.params"):
        shutil.copy(os.path.join(staged, name), out_model)
    # The old model's decision coefficients do not fit the new one's scores: the recognizer refuses the folder until
    # they are refitted on its decodes (docs/training-and-measurement.md, "The adapted acoustic model").
    stale_decision = os.path.join(out_model, "decision-model.json")
    if os.path.exists(stale_decision):
        os.remove(stale_decision)
        print(f"removed {stale_decision}: refit it on this model's decodes (scripts/decision-model/fit-decision-model.py --model-file)", file=sys.stderr)
    with open(os.path.join(out_model, "README"), "w") as readme:
        readme.write(f"PocketSphinx en-us (Debian pocketsphinx-en-us) adapted for FlightVoice by "
                     f"scripts/acoustic-model/adapt-model.py: method {args.method}, band {args.band}, "
                     f"{count} training clips of {os.path.basename(os.path.abspath(args.training_set))}.\n"
                     f"Same licence as the stock model (BSD-style, CMU).\n")
    print(f"adapted model written to {out_model}", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Makes flight queries in real human voices, from the recorded words of the CMU AN4 (census) database, split by speaker.

    nice -n 10 scripts/training-data/make-human-set.py OUT_DIR --human-audio AN4_DIR [--train 1200] [--dev 240]
                                                       [--check 100] [--jobs 2] [--seed 20261201]
                                                       [--noise-from TRAINING_SET] [--combine-with TRAINING_SET]

AN4_DIR is a copy of the AN4 database as CMU Sphinx publishes it (etc/an4_train.transcription,
etc/an4_test.transcription, wav/an4_clstk/SPEAKER/*.wav, wav/an4test_clstk/SPEAKER/*.wav); SOURCES.md says where it
came from. Nothing is fetched and nothing of it is committed.

Writes OUT_DIR/manifest.tsv, train.tsv, dev.tsv and check.tsv (the columns of make-training-set.py, for
`flightvoice eval` and for model adaptation), OUT_DIR/speakers.tsv (the split, per speaker), OUT_DIR/alignments.tsv
(the word times every query is cut from) and the clips under OUT_DIR/clips/.

Speakers. AN4's 84 speakers (CMU staff and students, 1991, close-talking microphone, 16 kHz) said spelled names,
letter-and-digit strings and numbers. Speaker `fbbh` is left out: its recordings are in ../shared/corpus. The split
is by speaker: AN4's own ten test speakers and ten more (by seed) are `dev`, ten more are `check`, the rest `train`.
A speaker is in one split only; OUT_DIR/speakers.tsv lists it.

What is said. Each AN4 utterance is aligned word by word against its transcript (pocketsphinx_continuous with a
grammar of exactly that transcript and the stock en-us model). A flight query is then assembled from ONE speaker's
own recorded words: the airline code spelled with that speaker's letters ("l x"), the number in any form the
normalizer reads that the speaker's words cover (digit by digit, with "oh", paired number words "forty", "nineteen
sixty", hundreds, leading zeros), each word a different recording where the speaker has several, with natural short
gaps (30-250 ms) over the speaker's own room tone and +-3 dB of level variation word to word. There are no human
NATO words, airline names or carrier phrases in AN4, so those forms stay synthetic (make-training-set.py); no
synthesized word is mixed into a human query. Kinds as in make-training-set.py: today's flights (`flight`), flights
that do not fly today (`offlist`), speech that names no flight (`noflight`: whole AN4 utterances without a number,
such as a spelled name, "yes", "stop", "repeat"), and, in dev and check, noise alone (`noise`).

Conditions are make-training-set.py's: dev and check clean, at 15, 10 and 5 dB SNR and as 8 kHz telephone audio;
train one drawn condition per clip (clean, noise at 0-20 dB, telephone). The noise is the synthesized noise of
make-training-set.py (its banks are reused from --noise-from, or made in OUT_DIR), dev/check and train from separate
banks.

--combine-with TRAINING_SET also writes OUT_DIR/combined/train.tsv: this set's train rows and TRAINING_SET's
(synthetic) train rows, paths relative to that folder, for fitting the decision and adapting the acoustic model on
both (`--combine-synthetic N` caps the synthetic rows, `--combine-human N` the human ones, for a bounded adaptation).

Needs pocketsphinx (the en-us model), sox, espeak-ng (for babble noise) and numpy: `make training-tools`.
Deterministic for a given seed and sizes, whatever --jobs is.
"""
import argparse
import csv
import importlib.util
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from multiprocessing import Pool

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("make_training_set", os.path.join(HERE, "make-training-set.py"))
synthetic = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(synthetic)

RATE = synthetic.RATE
MODEL = "/usr/share/pocketsphinx/model/en-us"
# fbbh's recordings are in ../shared/corpus, which is for measuring only.
EXCLUDED_SPEAKERS = {"fbbh"}
DEV_EXTRA_SPEAKERS = 10      # beside AN4's own ten test speakers
CHECK_SPEAKERS = 10
LETTERS = set("abcdefghijklmnopqrstuvwxyz")
NUMBER_WORDS = set(synthetic.DIGITS + synthetic.TEENS + synthetic.TENS + ["oh", "hundred", "thousand"])
KIND_WEIGHTS = [("flight", 0.75), ("offlist", 0.12), ("noflight", 0.13)]
WORD_GAP_RANGE = (0.03, 0.25)
WORD_LEVEL_DB = 3.0
# A cut word keeps this much of the recording on either side of the aligned span, then fades in and out.
WORD_MARGIN = 0.02
FADE = 0.008


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True)


# ------------------------------------------------------------------------------------------------------------------
# AN4 and its word times
# ------------------------------------------------------------------------------------------------------------------
def read_an4(root):
    """Utterances: dict(id, speaker, words, path), from AN4's transcriptions."""
    utterances = []
    for listing, folder in (("an4_train.transcription", "an4_clstk"), ("an4_test.transcription", "an4test_clstk")):
        for line in open(os.path.join(root, "etc", listing), encoding="ascii"):
            match = re.match(r"\s*(?:<s>)?(.*?)(?:</s>)?\s*\((\S+)\)\s*$", line)
            if not match: continue
            words, utterance = match.group(1).lower().split(), match.group(2)
            speaker = utterance.split("-")[1]
            path = os.path.join(root, "wav", folder, speaker, utterance + ".wav")
            if speaker in EXCLUDED_SPEAKERS or not os.path.exists(path) or not words: continue
            utterances.append(dict(id=utterance, speaker=speaker, words=words, path=path, test=folder == "an4test_clstk"))
    return utterances


def align(utterance):
    """[(word, start, end)] of one utterance, forced onto its transcript; None when the decoder finds no path."""
    with tempfile.TemporaryDirectory() as work:
        grammar = os.path.join(work, "utterance.gram")
        with open(grammar, "w") as out:
            out.write("#JSGF V1.0;\ngrammar align;\npublic <utterance> = " + " ".join(utterance["words"]) + ";\n")
        result = subprocess.run(["pocketsphinx_continuous", "-infile", utterance["path"], "-hmm", MODEL + "/en-us",
                                 "-dict", MODEL + "/cmudict-en-us.dict", "-jsgf", grammar, "-time", "yes",
                                 "-remove_silence", "no"], capture_output=True, text=True)
    segments = []
    for line in result.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and re.match(r"^\d+\.\d+$", parts[1]):
            segments.append((re.sub(r"\(\d+\)$", "", parts[0]), float(parts[1]), float(parts[2])))
    words = [s for s in segments if not s[0].startswith("<") and not s[0].startswith("[")]
    if [w for w, _, _ in words] != utterance["words"]: return None
    silence = [s for s in segments if s[0] == "<sil>"]
    return dict(id=utterance["id"], words=words, silence=silence)


def alignments(utterances, out_dir, jobs):
    """Word times of every utterance, cached in OUT_DIR/alignments.tsv."""
    path = os.path.join(out_dir, "alignments.tsv")
    cached = {}
    if os.path.exists(path):
        for row in csv.DictReader(open(path), delimiter="\t"):
            if row["word"] == "-":
                cached[row["utterance"]] = None; continue
            cached.setdefault(row["utterance"], dict(id=row["utterance"], words=[], silence=[]))
            entry = (row["word"], float(row["start"]), float(row["end"]))
            cached[row["utterance"]]["silence" if row["word"] == "<sil>" else "words"].append(entry)
    missing = [u for u in utterances if u["id"] not in cached]
    if missing:
        with Pool(jobs) as pool:
            for utterance, result in zip(missing, pool.map(align, missing, chunksize=8)):
                cached[utterance["id"]] = result
        with open(path, "w") as out:
            out.write("utterance\tword\tstart\tend\n")
            for utterance in utterances:
                result = cached.get(utterance["id"])
                if result is None:
                    out.write(f"{utterance['id']}\t-\t\t\n"); continue
                for word, start, end in sorted(result["words"] + result["silence"], key=lambda s: s[1]):
                    out.write(f"{utterance['id']}\t{word}\t{start:.3f}\t{end:.3f}\n")
    return cached


# ------------------------------------------------------------------------------------------------------------------
# Speakers, their words and the split
# ------------------------------------------------------------------------------------------------------------------
def make_speakers(utterances, aligned, rng):
    speakers = {}
    for utterance in utterances:
        speaker = speakers.setdefault(utterance["speaker"], dict(id="an4:" + utterance["speaker"], name=utterance["speaker"],
                                                                 gender=utterance["speaker"][0], test=utterance["test"],
                                                                 words={}, room=[], whole=[], utterances=0))
        result = aligned.get(utterance["id"])
        if not result: continue
        speaker["utterances"] += 1
        for word, start, end in result["words"]:
            if word in LETTERS or word in NUMBER_WORDS:
                speaker["words"].setdefault(word, []).append((utterance["path"], start, end))
        for _, start, end in result["silence"]:
            if end - start >= 0.12: speaker["room"].append((utterance["path"], start + 0.02, end - 0.02))
        if not any(w in NUMBER_WORDS for w in utterance["words"]):
            speaker["whole"].append((utterance["path"], result["words"][0][1], result["words"][-1][2], " ".join(utterance["words"])))
    names = sorted(speakers)
    outside_test = [n for n in names if not speakers[n]["test"]]
    chosen = rng.sample(outside_test, DEV_EXTRA_SPEAKERS + CHECK_SPEAKERS)
    for name in names:
        speaker = speakers[name]
        speaker["split"] = ("dev" if speaker["test"] or name in chosen[:DEV_EXTRA_SPEAKERS] else
                            "check" if name in chosen[DEV_EXTRA_SPEAKERS:] else "train")
    return [speakers[n] for n in names if speakers[n]["words"]]


def sayable(words, speaker):
    return all(w in speaker["words"] for w in words)


def query_words(flight, speaker, rng):
    """(words, form) of `flight` said with the speaker's own words, or None when the speaker lacks some."""
    code, number = flight[:2], int(flight[2:])
    said = []
    for character in code:
        if character.isdigit(): said.append(synthetic.DIGITS[int(character)])
        else: said.append(character.lower())
    if not sayable(said, speaker): return None
    forms = [(form, words) for form, words in synthetic.number_forms(number, rng) if sayable(words, speaker)]
    if not forms: return None
    form, words = rng.choice(forms)
    return said + words, "letters_" + form


# ------------------------------------------------------------------------------------------------------------------
# Plan and render
# ------------------------------------------------------------------------------------------------------------------
def plan(args, airlines, flights, speakers):
    rng = random.Random(args.seed)
    items = []
    for split, count in (("train", args.train), ("dev", args.dev), ("check", args.check)):
        pool = [s for s in speakers if s["split"] == split]
        rng.shuffle(pool)
        index, attempts = 0, 0
        while index < count and attempts < count * 50:
            attempts += 1
            speaker = pool[attempts % len(pool)]
            kind = rng.choices([k for k, _ in KIND_WEIGHTS], [w for _, w in KIND_WEIGHTS])[0]
            if kind == "noflight":
                if not speaker["whole"]: continue
                source = rng.choice(speaker["whole"])
                words, form, flight, pieces = source[3].split(), "noflight", "", [source[:3]]
            else:
                found = None
                for _ in range(60):
                    target = rng.choice(flights) if kind == "flight" else synthetic.offlist_flight(flights, airlines, rng)
                    found = query_words(target, speaker, rng)
                    if found: break
                if not found: continue
                words, form = found
                flight = target if kind == "flight" else ""
                pieces = [rng.choice(speaker["words"][w]) for w in words]
            item = dict(name=f"human-{split}-{index:05d}", split=split, speaker=speaker["id"], flight=flight,
                        text=" ".join(words), form=form, kind=kind, pieces=pieces, seed=rng.randrange(2 ** 31),
                        room=rng.choice(speaker["room"]) if speaker["room"] else None,
                        gaps=[rng.uniform(*WORD_GAP_RANGE) for _ in pieces],
                        levels=[rng.uniform(-WORD_LEVEL_DB, WORD_LEVEL_DB) for _ in pieces],
                        pads=(rng.uniform(*synthetic.PAD_RANGE), rng.uniform(*synthetic.PAD_RANGE)))
            if split == "train":
                condition = rng.choices([c for c, _ in synthetic.TRAIN_CONDITIONS], [w for _, w in synthetic.TRAIN_CONDITIONS])[0]
                snr = round(rng.uniform(*synthetic.TRAIN_SNR_RANGE), 1)
                item["conditions"] = [(condition if condition != "noise" else f"snr{int(5 * round(snr / 5))}",
                                       snr if condition == "noise" or (condition == "8k" and rng.random() < 0.4) else None)]
            else:
                item["conditions"] = synthetic.DEV_CONDITIONS
            items.append(item)
            index += 1
        if split != "train":
            for noise_index in range(max(2, count // 30)):
                items.append(dict(name=f"human-{split}-noise-{noise_index:03d}", split=split, speaker="-", flight="",
                                  text="", form="noise", kind="noise", pieces=[], seed=rng.randrange(2 ** 31),
                                  conditions=[("snr5", 5)]))
    return items


_AUDIO = {}


def recording(path):
    if path not in _AUDIO:
        samples, rate = synthetic.read_wav(path)
        assert rate == RATE, path
        _AUDIO[path] = samples
    return _AUDIO[path]


def cut(path, start, end):
    samples = recording(path)
    first, last = max(0, int((start - WORD_MARGIN) * RATE)), min(len(samples), int((end + WORD_MARGIN) * RATE))
    piece = samples[first:last].copy()
    fade = min(int(FADE * RATE), len(piece) // 4)
    if fade:
        ramp = np.linspace(0, 1, fade)
        piece[:fade] *= ramp; piece[-fade:] *= ramp[::-1]
    return piece


def room_tone(item, length, rng):
    """The speaker's own background, as long as the clip: a stretch of one of their pauses, looped with cross-fades."""
    if not item["room"]: return np.zeros(length)
    path, start, end = item["room"]
    tone = recording(path)[int(start * RATE):int(end * RATE)]
    tone = tone - np.mean(tone)
    reps = [np.roll(tone, rng.randrange(len(tone))) * np.hanning(len(tone)) for _ in range(length * 2 // len(tone) + 2)]
    out, hop = np.zeros(length + len(tone)), len(tone) // 2
    for index, rep in enumerate(reps):
        position = index * hop
        if position >= length: break
        out[position:position + len(tone)] += rep
    return out[:length]


def render(item):
    rng = random.Random(item["seed"])
    bank = synthetic.BANKS["train" if item["split"] == "train" else "dev"]
    rows = []
    with tempfile.TemporaryDirectory() as work:
        if item["pieces"]:
            parts = [np.zeros(int(item["pads"][0] * RATE))]
            for index, (piece, level) in enumerate(zip(item["pieces"], item["levels"])):
                parts.append(cut(*piece) * 10 ** (level / 20))
                if index + 1 < len(item["pieces"]): parts.append(np.zeros(int(item["gaps"][index] * RATE)))
            parts.append(np.zeros(int(item["pads"][1] * RATE)))
            words = np.concatenate(parts)
            clean = words + room_tone(item, len(words), rng)
            clean *= 10 ** (rng.uniform(-8, 3) / 20)
        else:
            clean = np.zeros(int(RATE * rng.uniform(1.5, 3))) + 1.0
        for condition, snr in item["conditions"]:
            path = os.path.join("clips", f"{item['name']}__{condition}.wav")
            samples, noise_kind = synthetic.noisy_copy(clean, bank, snr, rng, has_speech=bool(item["pieces"]))
            if condition == "8k":
                synthetic.telephone(samples, os.path.join(synthetic.OUT, path), work)
            else:
                synthetic.write_wav(os.path.join(synthetic.OUT, path), samples)
            rows.append(dict(path=path, flight=item["flight"], text=item["text"], speaker=item["speaker"],
                             split=item["split"], condition=condition, snr="" if snr is None else f"{snr:g}",
                             noise=noise_kind, form=item["form"], kind=item["kind"],
                             voice="human:" + item["speaker"] if item["pieces"] else "-"))
    return rows


def write_manifest(path, rows):
    with open(path, "w") as out:
        out.write("\t".join(synthetic.COLUMNS) + "\n")
        for row in rows: out.write("\t".join(row[c] for c in synthetic.COLUMNS) + "\n")


def combine(out_dir, synthetic_dir, human_cap, synthetic_cap, seed):
    """OUT_DIR/combined/train.tsv: human and synthetic training rows, paths relative to that folder."""
    folder = os.path.join(out_dir, "combined")
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(seed)
    rows = []
    for source, cap in ((out_dir, human_cap), (synthetic_dir, synthetic_cap)):
        selected = list(csv.DictReader(open(os.path.join(source, "train.tsv")), delimiter="\t"))
        if cap is not None and cap < len(selected): selected = rng.sample(selected, cap)
        for row in selected:
            row["path"] = os.path.relpath(os.path.join(source, row["path"]), folder)
            rows.append(row)
    rng.shuffle(rows)
    write_manifest(os.path.join(folder, "train.tsv"), rows)
    return len(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--human-audio", required=True, help="the AN4 folder (etc/ and wav/)")
    parser.add_argument("--train", type=int, default=1200, help="training utterances (one clip each)")
    parser.add_argument("--dev", type=int, default=240, help="dev utterances (five conditions each)")
    parser.add_argument("--check", type=int, default=100, help="check utterances (five conditions each)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--seed-sql", default=os.path.join(synthetic.ROOT, "data", "flights.sql"))
    parser.add_argument("--noise-from", help="a make-training-set.py folder whose noise/ banks to reuse")
    parser.add_argument("--combine-with", help="a make-training-set.py folder: also write combined/train.tsv")
    parser.add_argument("--combine-human", type=int, help="at most this many human rows in combined/train.tsv")
    parser.add_argument("--combine-synthetic", type=int, help="at most this many synthetic rows in combined/train.tsv")
    args = parser.parse_args()
    for tool in ("pocketsphinx_continuous", "sox", "espeak-ng"):
        if not shutil.which(tool): sys.exit(f"{tool} is missing: run `make training-tools`")
    for required in ("etc/an4_train.transcription", "etc/an4_test.transcription", "wav"):
        if not os.path.exists(os.path.join(args.human_audio, required)):
            sys.exit(f"{args.human_audio}: no {required}; give the AN4 folder (see SOURCES.md)")
    os.makedirs(os.path.join(args.out, "clips"), exist_ok=True)
    utterances = read_an4(args.human_audio)
    aligned = alignments(utterances, args.out, args.jobs)
    speakers = make_speakers(utterances, aligned, random.Random(args.seed))
    airlines, flights = synthetic.read_seed_day(args.seed_sql)
    counts = ", ".join(f"{sum(s['split'] == split for s in speakers)} {split}" for split in ("train", "dev", "check"))
    print(f"{len(utterances)} AN4 utterances, {sum(1 for u in utterances if aligned.get(u['id']))} aligned; "
          f"{len(speakers)} speakers ({counts})", file=sys.stderr)
    voices = synthetic.make_speakers(random.Random(args.seed))
    noise_dir = args.noise_from or args.out
    banks = {split: synthetic.noise_bank(split, args.seed, [s["voice"] for s in voices if s["split"] == split and s["engine"] == "espeak"],
                                         noise_dir) for split in ("train", "dev")}
    items = plan(args, airlines, flights, speakers)
    synthetic.initialise(args.out, banks)
    rows = []
    with Pool(args.jobs, initializer=synthetic.initialise, initargs=(args.out, banks)) as pool:
        for item_rows in pool.imap(render, items, chunksize=4):
            rows += item_rows
    write_manifest(os.path.join(args.out, "manifest.tsv"), rows)
    for split in ("train", "dev", "check"):
        write_manifest(os.path.join(args.out, f"{split}.tsv"), [r for r in rows if r["split"] == split])
    with open(os.path.join(args.out, "speakers.tsv"), "w") as listing:
        listing.write("speaker\tsplit\tgender\tan4_set\taligned_utterances\tutterances_made\tletters\tnumber_words\n")
        made = {}
        for item in items: made[item["speaker"]] = made.get(item["speaker"], 0) + 1
        for s in speakers:
            listing.write(f"{s['id']}\t{s['split']}\t{s['gender']}\t{'test' if s['test'] else 'train'}\t{s['utterances']}\t"
                          f"{made.get(s['id'], 0)}\t{''.join(sorted(w for w in s['words'] if w in LETTERS))}\t"
                          f"{' '.join(sorted(w for w in s['words'] if w in NUMBER_WORDS))}\n")
    if args.combine_with:
        count = combine(args.out, args.combine_with, args.combine_human, args.combine_synthetic, args.seed)
        print(f"{count} rows in {os.path.join(args.out, 'combined', 'train.tsv')}", file=sys.stderr)
    print(f"{len(rows)} clips from {len({r['speaker'] for r in rows if r['speaker'] != '-'})} human speakers written to "
          f"{args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

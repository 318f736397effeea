#!/usr/bin/env python3
"""Makes multi-condition training and development audio for FlightVoice, split by speaker.

    nice -n 10 scripts/training-data/make-training-set.py OUT_DIR [--train 2000] [--dev 240] [--check 60]
                                                             [--jobs 1] [--seed 20261201] [--seed-sql data/flights.sql]

Writes OUT_DIR/manifest.tsv (the columns `flightvoice eval` reads, path and flight, plus text, speaker, split,
condition, snr, noise, form, kind, voice), OUT_DIR/train.tsv, dev.tsv and check.tsv (the same rows per split, for
`flightvoice eval` and for model adaptation), OUT_DIR/speakers.tsv, and the clips under OUT_DIR/clips/.

Speakers. A speaker is one synthetic voice family: an espeak-ng English voice with one of its variants ("+f2",
"+klatt3", ...) and that speaker's own perturbation: pitch (espeak-ng -p), speaking rate, and a vocal-tract-length
factor (sox `speed F tempo 1/F` scales every formant and the pitch by F while keeping the duration). Every clip of a
speaker keeps its family and jitters around it. The split is by speaker, and stricter than that: the variants chosen
for `dev` (a fifth of them, by seed) and the whole en-029 voice never occur in `train`, so a dev speaker is a voice
the training never heard in any perturbation. flite's voices (built from recordings of real speakers) form the
`check` split and never enter training; so would festival's, if `text2wave` is installed.

What is said. Queries for today's flights (the seed day, data/flights.sql, operating and codeshare numbers) in every
spoken form the normalizer reads (see SpokenVocabulary and SpokenNumberForms in Sources/): letters with number words,
digit by digit (with "oh"), NATO words, airline names and radio callsigns, ICAO codes, carrier phrases ("what's the
gate for ..."), leading zeros, "double"/"triple", hundreds and thousands, "zed"/"zee"; queries for flights that do
NOT fly today (near misses of today's numbers and other numbers; kind `offlist`, no expected flight); sentences that
name no flight (kind `noflight`); and, in dev, noise alone (kind `noise`). `text` is the word transcript in the
recognizer's dictionary spelling ("x-ray", "what's"), for adaptation.

Conditions. dev and check: every utterance clean, at 15, 10 and 5 dB SNR and as 8 kHz telephone audio (the
corpus's conditions, so figures compare). train: each utterance once, in a condition drawn per clip: clean, noise at
0-20 dB, or telephone (8 kHz, 300-3400 Hz, mu-law, sometimes noisy first), some with a little room reverb.
Noise is made here, never cut from recordings: babble of 6-12 overlapping espeak-ng voices, pink and brown noise,
a PA-announcement-like channel (band-limited, reverberant speech over chimes and hum) and clatter (decaying
bursts, rolling wheels, footsteps over a floor); train and dev draw from separate noise banks. See SOURCES.md.

Needs espeak-ng, sox, flite and numpy (`make training-tools` installs them). Deterministic for a given seed and
sizes, whatever --jobs is: every random choice is planned up front from the seed, then clips render in parallel.
Default size (2000 + 5 x 240 + 5 x 60 clips and a few noise-only ones: 3,510 clips, 380 MB) took 3 minutes here.
"""
import argparse
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import wave
import zlib
from multiprocessing import Pool

import numpy as np

RATE = 16000
TELEPHONE_RATE = 8000
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# ------------------------------------------------------------------------------------------------------------------
# Spoken forms (mirrors Sources/FlightCore/SpokenVocabulary.swift and Sources/FlightCore/SpokenNumberForms.swift)
# ------------------------------------------------------------------------------------------------------------------
NATO = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima "
                "mike november oscar papa quebec romeo sierra tango uniform victor whiskey x-ray yankee zulu".split()))
DIGITS = "zero one two three four five six seven eight nine".split()
TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
# Carrier phrases of the grammar (grammar/flight-query.jsgf): before and after the flight number.
REQUESTS = ["what's the gate for", "what is the gate for", "which gate for", "which gate is", "where is", "where's",
            "what about", "when does", "when is", "status of", "gate for", "the gate for", "i'm on", "i am on",
            "my flight is", "i'm flying", "what's the gate for flight", "where is flight", "um", "uh"]
CLOSINGS = ["please", "thanks", "thank you"]
NOFLIGHT = ["where are the toilets", "can i get a taxi to the city", "my bag did not arrive", "how much is a coffee",
            "i need a wheelchair please", "is there free wifi here", "what time does the lounge open",
            "the train to bern", "hello can you hear me", "i would like to change my seat", "where do i check in",
            "how long is the walk", "is the pharmacy open", "thank you very much", "sorry wrong button",
            "which terminal is this", "where can i buy a ticket", "do you have a map", "one moment please",
            "let me think about it", "where is the lost and found", "is this the line for security",
            "can you help me", "i lost my passport", "where can i charge my phone", "how do i get to the hotel",
            "is there a pharmacy near the gates", "what is the weather in london", "my daughter is waiting outside",
            "where is the bus stop", "i am looking for my wife", "how far is the train station",
            "can i smoke somewhere", "is breakfast included", "where is the information desk",
            "do you speak german", "i want to speak to a person", "the machine ate my card", "nothing thank you",
            "where is the exit"]
# Words of PA announcements and babble: ordinary airport talk, never a query of ours.
ANNOUNCEMENTS = ["ladies and gentlemen welcome to zurich airport", "passengers are kindly reminded not to leave "
                 "their baggage unattended", "this is the final call for all passengers", "boarding will begin "
                 "shortly please have your boarding pass ready", "smoking is not permitted anywhere in the terminal",
                 "the shuttle train to the gates leaves every two minutes", "would the passenger travelling to "
                 "paris please contact the information desk", "we apologise for the delay"]

# Speed (words per minute) of a speaker's family; each clip jitters around it.
SPEAKER_RATE_RANGE = (120, 175)
CLIP_RATE_JITTER = 12
# espeak-ng pitch (0-99, 50 is the voice's own) of a speaker's family.
SPEAKER_PITCH_RANGE = (25, 75)
# Vocal-tract-length factor of a speaker's family (sox speed + tempo); each clip jitters by a percent or two.
SPEAKER_VTL_RANGE = (0.88, 1.12)
CLIP_VTL_JITTER = 0.015
# Silence around the speech, seconds.
PAD_RANGE = (0.15, 0.8)
DEV_CONDITIONS = [("clean", None), ("snr15", 15), ("snr10", 10), ("snr5", 5), ("8k", None)]
NOISE_KINDS = ["babble", "pink", "brown", "pa", "clatter", "hall"]
NOISE_SECONDS = 24
NOISES_PER_KIND = 3
# Base voices that are only in dev (a whole accent the training never hears).
DEV_ONLY_VOICES = {"en-029"}
DEV_VARIANT_FRACTION = 0.2
CHECK_VOICES = ["flite:awb", "flite:rms", "flite:slt", "flite:kal16"]
FESTIVAL_VOICES = ["festival:voice_kal_diphone", "festival:voice_rab_diphone", "festival:voice_ked_diphone"]
# Query mix: today's flights, flights not flying today, sentences without a flight.
KIND_WEIGHTS = [("flight", 0.68), ("offlist", 0.17), ("noflight", 0.15)]
# Training conditions, drawn per clip.
TRAIN_CONDITIONS = [("clean", 0.25), ("noise", 0.55), ("8k", 0.2)]
TRAIN_SNR_RANGE = (0, 20)
REVERB_PROBABILITY = 0.15


def run(*args, **kwargs):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)


# ------------------------------------------------------------------------------------------------------------------
# The seed day
# ------------------------------------------------------------------------------------------------------------------
def read_seed_day(path):
    """Airlines {iata: (iata, icao, name, callsign, [spoken names])} and today's flight numbers (operating and codeshare)."""
    sql = open(path, encoding="utf-8").read()

    def rows(table):
        start = sql.index(f"INSERT INTO {table} ")
        end = sql.index(";\n", start)
        return [re.findall(r"'((?:[^']|'')*)'|(NULL)|(-?\d+)", row) for row in
                re.findall(r"^\s*\((.*)\),?\s*$", sql[sql.index("VALUES", start):end], re.M)]

    def value(field):
        text, null, number = field
        return None if null else (number if number else text.replace("''", "'"))

    airlines = {}
    for row in rows("airlines"):
        iata, icao, name, callsign, spoken = [value(f) for f in row]
        airlines[iata] = (iata, icao, name, callsign, [s for s in (spoken or "").split("|") if s])
    flights = set()
    for row in rows("flights"):
        fields = [value(f) for f in row]
        flights.add(fields[1] + str(int(fields[2])))
    for row in rows("codeshares"):
        fields = [value(f) for f in row]
        flights.add(fields[1] + str(int(fields[2])))
    return airlines, sorted(flights)


# ------------------------------------------------------------------------------------------------------------------
# Sentences: (transcript words, text for the synthesizer, form)
# ------------------------------------------------------------------------------------------------------------------
def letter_words(code, rng, british):
    """A code spelled by letter names: transcript words and what to make the synthesizer say."""
    said, spoken = [], []
    for character in code:
        if character.isdigit():
            said.append(DIGITS[int(character)]); spoken.append(DIGITS[int(character)])
        elif character == "Z":
            word = "zed" if british or rng.random() < 0.3 else "z"
            said.append(word); spoken.append("zed" if word == "zed" else "zee")
        elif character == "A":
            said.append("a"); spoken.append("ay")      # a lone "A" is read as the article
        else:
            said.append(character.lower()); spoken.append(character)
    return said, spoken


def nato_words(code):
    words = [NATO[c] if c.isalpha() else DIGITS[int(c)] for c in code]
    return words, words


def pair(n):
    if n < 10: return [DIGITS[n]]
    if n < 20: return [TEENS[n - 10]]
    return [TENS[n // 10 - 2]] + ([] if n % 10 == 0 else [DIGITS[n % 10]])


def hundreds(first, rest):
    words = [DIGITS[first], "hundred"]
    return words + (pair(rest) if rest else [])


def digit_words(digits, rng, oh):
    return ["oh" if d == "0" and oh else DIGITS[int(d)] for d in digits]


def repeated_digits(digits):
    """'double four', 'triple seven' where digits repeat; None when none do."""
    words, i, used = [], 0, False
    while i < len(digits):
        run_length = 1
        while i + run_length < len(digits) and digits[i + run_length] == digits[i] and run_length < 3:
            run_length += 1
        if run_length >= 2:
            words += ["double" if run_length == 2 else "triple", DIGITS[int(digits[i])]]; used = True
        else:
            words.append(DIGITS[int(digits[i])])
        i += run_length
    return words if used else None


def number_forms(number, rng):
    """(form, words) for every way of saying `number` (see SpokenNumberForms)."""
    digits = str(number)
    forms = [("digits", digit_words(digits, rng, False))]
    if "0" in digits: forms.append(("digits_oh", digit_words(digits, rng, True)))
    if len(digits) < 4:
        padded = "0" * rng.randint(1, 4 - len(digits)) + digits
        forms.append(("leading_zeros", digit_words(padded, rng, rng.random() < 0.3)))
    repeated = repeated_digits(digits)
    if repeated: forms.append(("double_triple", repeated))
    if len(digits) == 2:
        forms.append(("numwords", pair(number)))
    elif len(digits) == 3:
        if digits[1] != "0": forms.append(("numwords", [DIGITS[int(digits[0])]] + pair(int(digits[1:]))))
        forms.append(("hundreds", hundreds(int(digits[0]), int(digits[1:]))))
    elif len(digits) == 4:
        if digits[2] != "0" or digits[3] == "0":
            forms.append(("numwords", pair(int(digits[:2])) + (pair(int(digits[2:])) if digits[2:] != "00" else ["hundred"])))
        elif digits[1] != "0":
            forms.append(("numwords", pair(int(digits[:2])) + ["oh", DIGITS[int(digits[3])]]))
        rest = int(digits[2:])
        thousands = [DIGITS[int(digits[0])], "thousand"]
        if digits[1] != "0": thousands += hundreds(int(digits[1]), rest)
        elif rest: thousands += pair(rest)
        forms.append(("thousands", thousands))
    else:
        forms.append(("numwords", [DIGITS[number]]))
    return forms


def airline_forms(code, airline, rng, british):
    """(form, transcript words, synthesizer words) for the ways of naming the airline."""
    said, spoken = letter_words(code, rng, british)
    forms = [("letters", said, spoken), ("letters", said, spoken), ("nato", *nato_words(code))]
    if airline:
        _, icao, name, callsign, spoken_names = airline
        # An all-capital name ("KLM") is spelled; its spelled form is among the spoken names already.
        names = {n.lower() for n in [name, callsign, *spoken_names] if n and not (n.isupper() and len(n) <= 3)}
        for name in sorted(names):
            words = re.sub(r"[^a-z0-9' ]", " ", name.lower().replace("easyjet", "easy jet")).split()
            forms.append(("airline", words, words))
        if icao and rng.random() < 0.3:
            said, spoken = letter_words(icao, rng, british)
            forms.append(("icao", said, spoken))
    return forms


def query_sentence(flight, airlines, rng, british):
    """(transcript, synthesizer text, form) of one spoken query for `flight` (e.g. 'LX40')."""
    code, number = flight[:2], int(flight[2:])
    airline_form, said, spoken = rng.choice(airline_forms(code, airlines.get(code), rng, british))
    number_form, number_words = rng.choice(number_forms(number, rng))
    said, spoken = list(said) + number_words, list(spoken) + number_words
    form = airline_form + "_" + number_form
    if rng.random() < 0.3:
        request = rng.choice(REQUESTS).split()
        said, spoken, form = request + said, request + spoken, "carrier_" + form
    if rng.random() < 0.08:
        closing = rng.choice(CLOSINGS).split()
        said, spoken = said + closing, spoken + closing
    return " ".join(said), " ".join(spoken), form


def offlist_flight(flights, airlines, rng):
    """A flight number that does not fly today: half near misses of today's, half other numbers."""
    today = set(flights)
    while True:
        flight = rng.choice(flights)
        code, digits = flight[:2], flight[2:]
        if rng.random() < 0.5:
            position = rng.randrange(len(digits) + 1)
            digits = rng.choice([digits[:position] + str(rng.randrange(10)) + digits[position:], digits[:-1] or digits,
                                 digits[:position] + str(rng.randrange(10)) + digits[position + 1:]])
        else:
            code = rng.choice(sorted(airlines))
            digits = str(rng.randrange(1, 10 ** rng.randint(1, 4)))
        digits = digits.lstrip("0")
        if digits and len(digits) <= 4 and code + digits not in today:
            return code + digits


# ------------------------------------------------------------------------------------------------------------------
# Speakers and the split
# ------------------------------------------------------------------------------------------------------------------
def espeak_voices():
    """English espeak-ng voices this installation can speak (no MBROLA), and its variant names."""
    listing = subprocess.run(["espeak-ng", "--voices=en"], capture_output=True, text=True, check=True).stdout
    voices = sorted({line.split()[1] for line in listing.splitlines()[1:]
                     if len(line.split()) > 4 and line.split()[1].startswith("en")
                     and not line.split()[4].startswith("mb/")})
    listing = subprocess.run(["espeak-ng", "--voices=variant"], capture_output=True, text=True, check=True).stdout
    variants = sorted({line.split()[4].split("/")[-1] for line in listing.splitlines()[1:] if len(line.split()) > 4})
    return voices, variants


def make_speakers(rng):
    """Every (voice, variant) family with its perturbation, and the split it belongs to."""
    voices, variants = espeak_voices()
    dev_variants = set(rng.sample(variants, max(1, round(len(variants) * DEV_VARIANT_FRACTION))))
    speakers = []
    for voice in voices:
        for variant in [""] + variants:
            split = "dev" if voice in DEV_ONLY_VOICES or variant in dev_variants else "train"
            if not variant and voice not in DEV_ONLY_VOICES:
                split = "train"          # the plain voices: the model ought to know the stock accents
            speakers.append(dict(id=f"espeak:{voice}{'+' + variant if variant else ''}", engine="espeak",
                                 voice=voice + ("+" + variant if variant else ""), split=split,
                                 british=voice.startswith("en-gb"),
                                 rate=rng.randint(*SPEAKER_RATE_RANGE), pitch=rng.randint(*SPEAKER_PITCH_RANGE),
                                 vtl=round(rng.uniform(*SPEAKER_VTL_RANGE), 3)))
    check = CHECK_VOICES + ([v for v in FESTIVAL_VOICES] if shutil.which("text2wave") else [])
    for voice in check:
        speakers.append(dict(id=voice, engine=voice.split(":")[0], voice=voice.split(":")[1], split="check",
                             british=voice in ("flite:awb", "festival:voice_rab_diphone"),
                             rate=rng.randint(*SPEAKER_RATE_RANGE), pitch=50, vtl=1.0))
    return speakers


# ------------------------------------------------------------------------------------------------------------------
# Audio
# ------------------------------------------------------------------------------------------------------------------
def read_wav(path):
    with wave.open(path) as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1, path
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64), w.getframerate()


def write_wav(path, samples, rate=RATE):
    peak = np.max(np.abs(samples)) if len(samples) else 0
    if peak > 32000: samples = samples * (32000 / peak)       # keep clipping out of the training audio
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate)
        w.writeframes(np.round(samples).astype("<i2").tobytes())


def synthesize(speaker, text, rate, pitch, path):
    engine, voice = speaker["engine"], speaker["voice"]
    if engine == "espeak":
        run("espeak-ng", "-v", voice, "-s", str(rate), "-p", str(pitch), text, "-w", path)
    elif engine == "flite":
        run("flite", "-voice", voice, "--setf", f"duration_stretch={145 / rate:.3f}", "-t", text, "-o", path)
    else:
        run("text2wave", "-eval", f"({voice})", "-o", path, input=text.encode())


def speech(speaker, text, rate, pitch, vtl, reverb, pads, work):
    """The utterance at 16 kHz: synthesized, its vocal tract scaled by `vtl`, padded with silence."""
    raw, out = os.path.join(work, "tts.wav"), os.path.join(work, "speech.wav")
    synthesize(speaker, text, rate, pitch, raw)
    effects = []
    if abs(vtl - 1) > 1e-3: effects += ["speed", f"{vtl:.4f}", "tempo", "-s", f"{1 / vtl:.4f}"]
    if reverb: effects += ["reverb", str(reverb), "50", "40"]
    run("sox", "-R", raw, "-r", str(RATE), "-c", "1", "-b", "16", out, *effects, "pad", f"{pads[0]:.2f}", f"{pads[1]:.2f}")
    samples, _ = read_wav(out)
    return samples


def active_rms(samples):
    """RMS over the 20 ms frames within 30 dB of the loudest: the level of the speech, not of the pauses."""
    frame = RATE // 50
    frames = samples[: len(samples) // frame * frame].reshape(-1, frame)
    energy = np.mean(frames ** 2, axis=1)
    active = energy[energy > np.max(energy) * 10 ** -3]
    return math.sqrt(np.mean(active)) if len(active) else 0.0


def noisy_copy(clean, bank, snr, rng, has_speech):
    """The clip in one noise of `bank` at `snr` dB (None: clean), and that noise's kind ("-" for none). A clip without
    speech becomes a quiet stretch of noise alone, at -36 to -20 dBFS."""
    if snr is None:
        return clean, "-"
    if not has_speech:
        noise = rng.choice(bank)
        start = rng.randrange(len(noise["samples"]) - len(clean))
        return noise["samples"][start:start + len(clean)] * 10 ** (rng.uniform(-36, -20) / 20) * 32768, noise["kind"]
    choice = rng.randrange(len(bank))
    return mix(clean, [bank[choice]], snr, rng), bank[choice]["kind"]


def mix(speech_samples, noise_bank, snr, rng):
    noise = rng.choice(noise_bank)["samples"]
    start = rng.randrange(0, len(noise) - len(speech_samples))
    noise = noise[start:start + len(speech_samples)]
    gain = active_rms(speech_samples) / (math.sqrt(np.mean(noise ** 2)) * 10 ** (snr / 20))
    return speech_samples + gain * noise


def telephone(samples, path, work):
    """300-3400 Hz, 8 kHz, mu-law: what a phone line delivers; written as 16-bit PCM at 8 kHz."""
    wide, ulaw = os.path.join(work, "wide.wav"), os.path.join(work, "ulaw.wav")
    write_wav(wide, samples)
    run("sox", "-R", wide, "-r", str(TELEPHONE_RATE), "-e", "u-law", ulaw, "sinc", "300-3400")
    run("sox", "-R", ulaw, "-e", "signed-integer", "-b", "16", path)


# ------------------------------------------------------------------------------------------------------------------
# Noise made here (never cut from recordings)
# ------------------------------------------------------------------------------------------------------------------
def coloured_noise(length, exponent, rng):
    """Noise with power falling as 1/f^exponent (1: pink, 2: brown), unit RMS."""
    spectrum = np.fft.rfft(np.random.default_rng(rng.randrange(2 ** 32)).standard_normal(length))
    frequencies = np.maximum(np.fft.rfftfreq(length, 1 / RATE), 20.0)
    samples = np.fft.irfft(spectrum / frequencies ** (exponent / 2), length)
    return samples / np.sqrt(np.mean(samples ** 2))


def talk(voices, sentences, seconds, rng, work, rate_range=(150, 200)):
    """Continuous speech of random voices for `seconds`, unit RMS."""
    out, parts, total = os.path.join(work, "talk.wav"), [], 0
    while total < seconds * RATE:
        path = os.path.join(work, "part.wav")
        run("espeak-ng", "-v", rng.choice(voices), "-s", str(rng.randint(*rate_range)), "-p", str(rng.randint(20, 80)),
            ". ".join(rng.sample(sentences, 3)), "-w", path)
        run("sox", "-R", path, "-r", str(RATE), "-c", "1", "-b", "16", out)
        samples, _ = read_wav(out)
        parts.append(samples); total += len(samples)
    samples = np.concatenate(parts)[: seconds * RATE]
    return samples / max(1e-9, math.sqrt(np.mean(samples ** 2)))


def babble(voices, seconds, rng, work, talkers=None):
    talkers = talkers or rng.randint(6, 12)
    total = sum(np.roll(talk(voices, NOFLIGHT + ANNOUNCEMENTS, seconds, rng, work), rng.randrange(seconds * RATE))
                for _ in range(talkers))
    return total / math.sqrt(np.mean(total ** 2))


def sox_filter(samples, work, *effects):
    source, out = os.path.join(work, "in.wav"), os.path.join(work, "out.wav")
    write_wav(source, samples / np.max(np.abs(samples)) * 16000)
    run("sox", "-R", source, out, *effects)
    filtered, _ = read_wav(out)
    filtered = filtered[: len(samples)]
    return filtered / max(1e-9, math.sqrt(np.mean(filtered ** 2)))


def pa_announcements(voices, seconds, rng, work):
    """Announcements through a loudspeaker in a big hall: chime, band-limited reverberant speech, hum."""
    length = seconds * RATE
    t = np.arange(length) / RATE
    out = 0.05 * np.sin(2 * np.pi * rng.choice([50, 60]) * t) + 0.3 * coloured_noise(length, 2, rng)
    position = 0
    while position < length:
        chime = np.concatenate([np.sin(2 * np.pi * f * np.arange(int(0.45 * RATE)) / RATE) * np.exp(-np.arange(int(0.45 * RATE)) / (0.2 * RATE))
                                for f in rng.sample([523.3, 659.3, 784.0, 1046.5], 3)])
        voice = talk([rng.choice(voices)], ANNOUNCEMENTS, rng.randint(4, 8), rng, work, (140, 170))
        segment = np.concatenate([chime * 2, np.zeros(RATE // 4), voice])
        segment = sox_filter(segment, work, "sinc", f"{rng.randint(250, 450)}-{rng.randint(2800, 4000)}",
                             "reverb", str(rng.randint(60, 95)), "50", "100")
        end = min(length, position + len(segment))
        out[position:end] += segment[: end - position]
        position = end + rng.randint(RATE, 3 * RATE)
    return out / math.sqrt(np.mean(out ** 2))


def clatter(seconds, rng):
    """Dishes and cutlery, footsteps, a rolling suitcase, over a pink floor."""
    length = seconds * RATE
    generator = np.random.default_rng(rng.randrange(2 ** 32))
    out = 0.2 * coloured_noise(length, 1, rng)
    for _ in range(int(seconds * rng.uniform(3, 9))):          # clinks and knocks: decaying resonant bursts
        size = int(RATE * rng.uniform(0.02, 0.25))
        burst = generator.standard_normal(size) * np.exp(-np.arange(size) / (size / rng.uniform(3, 8)))
        burst += np.sin(2 * np.pi * rng.uniform(1500, 6000) * np.arange(size) / RATE) * np.exp(-np.arange(size) / (size / 4)) * rng.uniform(0, 3)
        start = rng.randrange(length - size)
        out[start:start + size] += burst * rng.uniform(0.3, 3)
    step, position = int(RATE * rng.uniform(0.45, 0.6)), rng.randrange(RATE)
    while position < length - 800:                               # footsteps
        out[position:position + 800] += coloured_noise(800, 2, rng) * np.exp(-np.arange(800) / 150) * 1.5
        position += step + rng.randrange(-400, 400)
    t = np.arange(length) / RATE
    start, duration = rng.randrange(length // 2), rng.randint(4, 10) * RATE
    wheels = coloured_noise(length, 2, rng) * (1 + np.sin(2 * np.pi * rng.uniform(8, 16) * t)) * 0.8
    window = np.zeros(length); window[start:start + duration] = 1
    out += wheels * window
    return out / math.sqrt(np.mean(out ** 2))


def make_noise(kind, voices, rng, work):
    if kind == "babble": return babble(voices, NOISE_SECONDS, rng, work)
    if kind == "pink": return coloured_noise(NOISE_SECONDS * RATE, 1, rng)
    if kind == "brown": return coloured_noise(NOISE_SECONDS * RATE, 2, rng)
    if kind == "pa": return pa_announcements(voices, NOISE_SECONDS, rng, work)
    if kind == "clatter": return clatter(NOISE_SECONDS, rng)
    # A departure hall: far babble, announcements, clatter, ventilation.
    parts = [babble(voices, NOISE_SECONDS, rng, work, talkers=16), pa_announcements(voices, NOISE_SECONDS, rng, work),
             clatter(NOISE_SECONDS, rng), coloured_noise(NOISE_SECONDS * RATE, 2, rng)]
    total = sum(part * weight for part, weight in zip(parts, [1.0, 0.5, 0.5, 0.4]))
    return total / math.sqrt(np.mean(total ** 2))


def noise_bank(split, seed, voices, out_dir):
    """NOISES_PER_KIND clips of each noise kind for one split, cached as WAVs in OUT_DIR/noise/."""
    bank, folder = [], os.path.join(out_dir, "noise")
    os.makedirs(folder, exist_ok=True)
    for kind in NOISE_KINDS:
        for index in range(NOISES_PER_KIND):
            path = os.path.join(folder, f"{split}-{kind}-{index}.wav")
            if not os.path.exists(path):
                rng = random.Random(f"{seed}/{split}/{kind}/{index}")
                with tempfile.TemporaryDirectory() as work:
                    samples = make_noise(kind, voices, rng, work)
                write_wav(path, samples / np.max(np.abs(samples)) * 20000)
            samples, _ = read_wav(path)
            bank.append(dict(kind=kind, samples=samples / math.sqrt(np.mean(samples ** 2))))
    return bank


# ------------------------------------------------------------------------------------------------------------------
# Plan and render
# ------------------------------------------------------------------------------------------------------------------
def plan(args, airlines, flights, speakers):
    """Every utterance to make, with all its random choices, in a fixed order."""
    rng = random.Random(args.seed)
    by_split = {split: [s for s in speakers if s["split"] == split] for split in ("train", "dev", "check")}
    items = []
    for split, count in (("train", args.train), ("dev", args.dev), ("check", args.check)):
        pool = by_split[split]
        rng.shuffle(pool)
        for index in range(count):
            speaker = pool[index % len(pool)]
            kind = rng.choices([k for k, _ in KIND_WEIGHTS], [w for _, w in KIND_WEIGHTS])[0]
            if kind == "noflight":
                said, form, flight = rng.choice(NOFLIGHT), "noflight", ""
                spoken = said
            else:
                target = rng.choice(flights) if kind == "flight" else offlist_flight(flights, airlines, rng)
                said, spoken, form = query_sentence(target, airlines, rng, speaker["british"])
                flight = target if kind == "flight" else ""
            vtl = speaker["vtl"] * (1 + rng.uniform(-CLIP_VTL_JITTER, CLIP_VTL_JITTER)) if speaker["engine"] == "espeak" else 1.0
            item = dict(name=f"{split}-{index:05d}", split=split, speaker=speaker, flight=flight, text=said,
                        spoken=spoken, form=form, kind=kind, seed=rng.randrange(2 ** 31),
                        rate=speaker["rate"] + rng.randint(-CLIP_RATE_JITTER, CLIP_RATE_JITTER),
                        pitch=min(99, max(0, speaker["pitch"] + rng.randint(-5, 5))), vtl=vtl,
                        pads=(rng.uniform(*PAD_RANGE), rng.uniform(*PAD_RANGE)))
            if split == "train":
                condition = rng.choices([c for c, _ in TRAIN_CONDITIONS], [w for _, w in TRAIN_CONDITIONS])[0]
                snr = round(rng.uniform(*TRAIN_SNR_RANGE), 1)
                # The condition names the nearest 5 dB step, so `--by condition` groups train clips; `snr` is exact.
                item["conditions"] = [(condition if condition != "noise" else f"snr{int(5 * round(snr / 5))}",
                                       snr if condition == "noise" or (condition == "8k" and rng.random() < 0.4) else None)]
                item["reverb"] = rng.randint(10, 50) if rng.random() < REVERB_PROBABILITY else 0
            else:
                item["conditions"] = DEV_CONDITIONS
                item["reverb"] = 0
            items.append(item)
        if split != "train":
            for index in range(max(2, count // 30)):            # noise alone: must never get an answer
                items.append(dict(name=f"{split}-noise-{index:03d}", split=split, speaker=None, flight="", text="",
                                  spoken="", form="noise", kind="noise", seed=rng.randrange(2 ** 31),
                                  conditions=[("snr5", 5)], reverb=0))
    return items


BANKS = {}


def render(item):
    """Writes the item's clips; returns their manifest rows."""
    rng = random.Random(item["seed"])
    clips_dir = os.path.join(OUT, "clips")
    bank = BANKS["train" if item["split"] == "train" else "dev"]
    rows = []
    with tempfile.TemporaryDirectory() as work:
        if item["speaker"]:
            speaker = item["speaker"]
            clean = speech(speaker, item["spoken"], item["rate"], item["pitch"], item["vtl"], item["reverb"], item["pads"], work)
            clean *= 10 ** (rng.uniform(-8, 3) / 20)               # talkers and microphones differ in level
            speaker_id, voice = speaker["id"], speaker["voice"]
        else:
            clean = np.zeros(int(RATE * rng.uniform(1.5, 3))) + 1.0
            speaker_id, voice = "-", "-"
        for condition, snr in item["conditions"]:
            path = os.path.join("clips", f"{item['name']}__{condition}.wav")
            snr_text = "" if snr is None else f"{snr:g}"
            samples, noise_kind = noisy_copy(clean, bank, snr, rng, has_speech=item["speaker"] is not None)
            if condition == "8k":
                telephone(samples, os.path.join(OUT, path), work)
            else:
                write_wav(os.path.join(OUT, path), samples)
            rows.append(dict(path=path, flight=item["flight"], text=item["text"], speaker=speaker_id, split=item["split"],
                             condition=condition, snr=snr_text, noise=noise_kind,
                             form=item["form"], kind=item["kind"], voice=voice))
    return rows


COLUMNS = ["path", "flight", "text", "speaker", "split", "condition", "snr", "noise", "form", "kind", "voice"]


def initialise(out, banks):
    global OUT
    OUT = out
    BANKS.update(banks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--train", type=int, default=2000, help="training utterances (one clip each)")
    parser.add_argument("--dev", type=int, default=240, help="dev utterances (five conditions each)")
    parser.add_argument("--check", type=int, default=60, help="flite/festival utterances (five conditions each)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--seed-sql", default=os.path.join(ROOT, "data", "flights.sql"))
    args = parser.parse_args()
    for tool in ("espeak-ng", "sox", "flite"):
        if not shutil.which(tool): sys.exit(f"{tool} is missing: run `make training-tools`")
    airlines, flights = read_seed_day(args.seed_sql)
    speakers = make_speakers(random.Random(args.seed))
    os.makedirs(os.path.join(args.out, "clips"), exist_ok=True)
    print(f"{len(flights)} flights today, {len(speakers)} speakers "
          f"({sum(s['split'] == 'train' for s in speakers)} train, {sum(s['split'] == 'dev' for s in speakers)} dev, "
          f"{sum(s['split'] == 'check' for s in speakers)} check); making noise", file=sys.stderr)
    # Babble and announcements speak in the split's own voices, so no dev voice is heard in training, even as noise.
    banks = {split: noise_bank(split, args.seed, [s["voice"] for s in speakers if s["split"] == split and s["engine"] == "espeak"],
                               args.out) for split in ("train", "dev")}
    items = plan(args, airlines, flights, speakers)
    initialise(args.out, banks)
    rows = []
    with Pool(args.jobs, initializer=initialise, initargs=(args.out, banks)) as pool:
        for index, item_rows in enumerate(pool.imap(render, items, chunksize=4)):
            rows += item_rows
            if index % 200 == 0: print(f"{index}/{len(items)} utterances", file=sys.stderr)
    for name, selected in (("manifest", rows), *((split, [r for r in rows if r["split"] == split]) for split in ("train", "dev", "check"))):
        with open(os.path.join(args.out, f"{name}.tsv"), "w") as manifest:
            manifest.write("\t".join(COLUMNS) + "\n")
            for row in selected: manifest.write("\t".join(row[c] for c in COLUMNS) + "\n")
    with open(os.path.join(args.out, "speakers.tsv"), "w") as listing:
        listing.write("speaker\tsplit\tvoice\trate_wpm\tpitch\tvocal_tract_factor\n")
        for s in speakers: listing.write(f"{s['id']}\t{s['split']}\t{s['voice']}\t{s['rate']}\t{s['pitch']}\t{s['vtl']}\n")
    used = {r["speaker"]: r["split"] for r in rows if r["speaker"] != "-"}
    print(f"{len(rows)} clips from {len(used)} speakers written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

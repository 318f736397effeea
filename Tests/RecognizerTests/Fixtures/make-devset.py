#!/usr/bin/env python3
"""Synthesizes a development set for choosing the recognizer's thresholds on principle, not on the corpus.

  make-devset.py OUT_DIR FLIGHTS.txt AIRLINES.tsv [COUNT]

FLIGHTS.txt: one canonical flight number a line (today's flights). AIRLINES.tsv: iata, icao, name, callsign,
spoken names separated by '|'. Writes OUT_DIR/manifest.tsv (path, flight, text, voice, condition, kind) and WAVs:
flight queries in several spoken forms and espeak-ng voices, no-flight sentences, and noise alone, each clean, mixed
with pink noise or synthetic babble at 20, 10 and 5 dB SNR, and through a telephone channel (300-3400 Hz, 8 kHz).
Then half as many queries again in flite's voices: those are built from recordings of real speakers (one Scottish),
so they sound nearer to people than espeak-ng's formant voices. They come last, from their own random generator,
so the espeak-ng clips stay the same. Last, from a third generator, queries for flights that do not fly today, in
espeak-ng's voices (kind "offlist", no expected flight): half are near misses of today's numbers (a digit dropped,
added or changed), half other airlines' or other numbers. Answering any flight to those is a wrong answer.
Needs espeak-ng, flite and sox. Deterministic (seeded).
"""
import os, random, subprocess, sys

NATO = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey x-ray yankee zulu".split()))
DIGITS = "zero one two three four five six seven eight nine".split()
TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
VOICES = ["en-gb-x-rp", "en-029", "en-us-nyc", "en-gb-x-gbclan", "en-us+f2", "en-us+m3", "en-gb-x-gbcwmd+f4",
          "en-gb-x-rp+f3", "en-029+m1", "en-us-nyc+f1", "en-gb-x-gbclan+m2"]
NOFLIGHT = ["where are the toilets", "can I get a taxi to the city", "my bag did not arrive", "how much is a coffee",
            "I need a wheelchair please", "is there free wifi here", "what time does the lounge open", "the train to Bern",
            "hello can you hear me", "I would like to change my seat", "where do I check in", "how long is the walk",
            "is the pharmacy open", "thank you very much", "sorry wrong button", "which terminal is this",
            "where can I buy a ticket", "do you have a map", "one moment please", "let me think about it"]
FLITE_VOICES = ["flite:awb", "flite:rms", "flite:slt", "flite:kal16"]
CARRIERS = ["", "", "", "what's the gate for ", "flight ", "I'm on ", "where is "]

def pair(n):
    if n < 10: return DIGITS[n]
    if n < 20: return TEENS[n - 10]
    return TENS[n // 10 - 2] + ("" if n % 10 == 0 else " " + DIGITS[n % 10])

def number_text(n, rng):
    s = str(n)
    forms = [" ".join(DIGITS[int(c)] for c in s), " ".join("oh" if c == "0" else DIGITS[int(c)] for c in s)]
    if len(s) == 2: forms.append(pair(n))
    if len(s) == 3: forms += [DIGITS[int(s[0])] + " " + pair(int(s[1:])) if s[1] != "0" else forms[1]]
    if len(s) == 4 and s[2] != "0": forms.append(pair(int(s[:2])) + " " + pair(int(s[2:])))
    return rng.choice(forms)

def airline_text(code, airline, rng):
    letters = " ".join(c if c.isdigit() is False else DIGITS[int(c)] for c in code)
    nato = " ".join(NATO.get(c, DIGITS[int(c)] if c.isdigit() else c) for c in code)
    forms = [letters, nato]
    if airline and airline[2]: forms.append(airline[2])
    return rng.choice(forms)

def synthesize(voice, text, speed, path):
    """espeak-ng speed is words per minute; flite stretches its natural duration by the same ratio to 145."""
    if voice.startswith("flite:"):
        run("flite", "-voice", voice[len("flite:"):], "--setf", f"duration_stretch={145 / int(speed):.3f}", "-t", text, "-o", path)
    else:
        run("espeak-ng", "-v", voice, "-s", speed, text, "-w", path)

# Without -R sox dithers and synthesizes noise from a new random seed on every run.
SOX = ("sox", "-R")

def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def main():
    out, flights_path, airlines_path = sys.argv[1:4]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 60
    rng = random.Random(20261130)
    os.makedirs(out, exist_ok=True)
    flights = [l.strip() for l in open(flights_path) if l.strip()]
    airlines = {f[0]: f for f in (l.rstrip("\n").split("\t") for l in open(airlines_path)) if f}
    rows = []
    rows += synthesize_items(queries("f", "n", count, flights, airlines, rng), VOICES, rng, out)
    for i in range(10):
        noise = os.path.join(out, f"z{i:03d}__noise.wav")
        make_noise(noise, 2.5, rng, out, level=rng.choice([-30, -24, -18]))
        rows.append((os.path.basename(noise), "", "(noise)", "-", "noise", "noise"))
    flite_rng = random.Random(20261201)
    rows += synthesize_items(queries("g", "m", count // 2, flights, airlines, flite_rng), FLITE_VOICES, flite_rng, out)
    offlist_rng = random.Random(20261202)
    rows += synthesize_items(offlist_queries("o", count // 4, flights, airlines, offlist_rng), VOICES, offlist_rng, out)
    with open(os.path.join(out, "manifest.tsv"), "w") as manifest:
        manifest.write("path\tflight\ttext\tvoice\tcondition\tkind\n")
        for row in rows: manifest.write("\t".join(row) + "\n")

def queries(flight_prefix, noflight_prefix, count, flights, airlines, rng):
    """(name, flight, text, kind) of `count` flight queries and the no-flight sentences."""
    items = []
    for i in range(count):
        flight = rng.choice(flights)
        code, number = flight[:2], int(flight[2:])
        text = rng.choice(CARRIERS) + airline_text(code, airlines.get(code), rng) + " " + number_text(number, rng)
        items.append((f"{flight_prefix}{i:03d}", flight, text, "flight"))
    for i, sentence in enumerate(NOFLIGHT):
        items.append((f"{noflight_prefix}{i:03d}", "", sentence, "noflight"))
    return items

def offlist_queries(prefix, count, flights, airlines, rng):
    """(name, "", text, "offlist") of `count` queries for flights not among `flights`."""
    today = set(flights)
    items = []
    while len(items) < count:
        flight = rng.choice(flights)
        code, digits = flight[:2], flight[2:]
        if len(items) % 2 == 0:
            position = rng.randrange(len(digits) + 1)
            changes = [digits[:position] + str(rng.randrange(10)) + digits[position:], digits[:-1] or digits,
                       digits[:position] + str(rng.randrange(10)) + digits[position + 1:]]
            digits = rng.choice(changes)
        else:
            code = rng.choice(sorted(airlines))
            digits = str(rng.randrange(1, 10 ** rng.randint(1, 4)))
        digits = digits.lstrip("0")
        if not digits or len(digits) > 4 or code + digits in today:
            continue
        text = rng.choice(CARRIERS) + airline_text(code, airlines.get(code), rng) + " " + number_text(int(digits), rng)
        items.append((f"{prefix}{len(items):03d}", "", text, "offlist"))
    return items

def synthesize_items(items, voices, rng, out):
    """Each item clean, in noise at 20/10/5 dB and through a telephone channel; manifest rows."""
    rows = []
    for index, (name, flight, text, kind) in enumerate(items):
        voice = voices[index % len(voices)]
        speed = str(rng.choice([130, 145, 160]))
        raw = os.path.join(out, name + "_tts.wav")
        clean = os.path.join(out, name + "__clean.wav")
        synthesize(voice, text, speed, raw)
        run(*SOX, raw, "-r", "16000", "-c", "1", "-b", "16", clean, "pad", "0.3", "0.4")
        os.remove(raw)
        rows.append((os.path.basename(clean), flight, text, voice, "clean", kind))
        for snr in (20, 10, 5):
            noisy = os.path.join(out, f"{name}__snr{snr}.wav")
            mix_noise(clean, noisy, snr, rng, out)
            rows.append((os.path.basename(noisy), flight, text, voice, f"snr{snr}", kind))
        phone = os.path.join(out, f"{name}__8k.wav")
        run(*SOX, clean, "-r", "8000", phone, "sinc", "300-3400")
        rows.append((os.path.basename(phone), flight, text, voice, "8k", kind))
    return rows

def make_noise(path, seconds, rng, out, level):
    """Pink noise or babble (several voices at once), normalized to `level` dBFS RMS."""
    tmp = os.path.join(out, "_noise.wav")
    if rng.random() < 0.5:
        run(*SOX, "-n", "-r", "16000", "-c", "1", "-b", "16", tmp, "synth", str(seconds), "pinknoise")
    else:
        parts = []
        for j in range(4):
            part = os.path.join(out, f"_b{j}.wav")
            run("espeak-ng", "-v", rng.choice(VOICES), "-s", "170", " ".join(rng.sample(NOFLIGHT, 3)), "-w", part + ".raw.wav")
            run(*SOX, part + ".raw.wav", "-r", "16000", "-c", "1", "-b", "16", part, "trim", "0", str(seconds), "pad", "0", str(seconds))
            os.remove(part + ".raw.wav")
            parts.append(part)
        run(*SOX, "-m", *parts, tmp, "trim", "0", str(seconds))
        for part in parts: os.remove(part)
    rms = float(subprocess.run(["sox", tmp, "-n", "stat"], capture_output=True, text=True).stderr.split("RMS     amplitude:")[1].split()[0])
    import math
    gain = level - 20 * math.log10(max(rms, 1e-9))
    run(*SOX, tmp, path, "gain", f"{gain:.2f}")
    os.remove(tmp)

def mix_noise(clean, path, snr, rng, out):
    import math
    stat = subprocess.run(["sox", clean, "-n", "stat"], capture_output=True, text=True).stderr
    rms = float(stat.split("RMS     amplitude:")[1].split()[0])
    seconds = float(subprocess.run(["soxi", "-D", clean], capture_output=True, text=True).stdout)
    noise = os.path.join(out, "_mix.wav")
    # Speech is active about half the clip, so its RMS over the clip understates speech level by ~3 dB.
    make_noise(noise, seconds, rng, out, level=20 * math.log10(rms) + 3 - snr)
    run(*SOX, "-m", clean, noise, path)
    os.remove(noise)

if __name__ == "__main__":
    main()

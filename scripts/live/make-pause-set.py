#!/usr/bin/env python3
"""Makes clips of travellers who hesitate mid-number, to check that the live endpointer does not cut them short.

  scripts/live/make-pause-set.py OUT_DIR FLIGHTS.sqlite [COUNT]

Today's flights from the database (`flightvoice db`'s SQLite file), said letter by letter and digit by digit by
espeak-ng voices with a 0.45-0.8 s pause inside the number or after the airline ("l x one five ... nine six"), in
faint pink room noise; 16 kHz mono WAVs and OUT_DIR/manifest.tsv (path, flight, text, condition) for
`flightvoice eval --live`. The expected answer is the whole flight. Needs espeak-ng and sox. Deterministic (seeded).
"""
import os, random, sqlite3, subprocess, sys

DIGITS = "zero one two three four five six seven eight nine".split()
VOICES = ["en-us", "en-gb", "en-us+m3", "en-gb-x-rp", "en-us+f2"]


def run(*arguments):
    subprocess.run([str(a) for a in arguments], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    out, database = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    os.makedirs(out, exist_ok=True)
    rng = random.Random(11)
    flights = sorted(set(sqlite3.connect(database).execute("select airline, number from flights where number >= 10")))
    rows = ["path\tflight\ttext\tcondition"]
    for index, (airline, number) in enumerate(rng.sample(flights, count)):
        letters = " ".join(airline.lower())
        digits = [DIGITS[int(d)] for d in str(number)]
        cut = rng.randint(0, len(digits) - 1)  # 0: the pause comes after the airline
        first = letters + (" " + " ".join(digits[:cut]) if cut else "")
        second = " ".join(digits[cut:])
        pause = round(rng.uniform(0.45, 0.8), 2)
        voice = rng.choice(VOICES)
        work = os.path.join(out, f".work{index}")
        run("espeak-ng", "-v", voice, "-s", 150, "-w", work + "a.wav", first)
        run("espeak-ng", "-v", voice, "-s", 150, "-w", work + "b.wav", second)
        # espeak-ng puts silence before and after its words: trimmed, so that the pause is the one chosen.
        for part in ["a", "b"]:
            run("sox", "-R", work + part + ".wav", "-r", 16000, "-c", 1, "-b", 16, work + part + "16.wav",
                "silence", 1, 0.01, "-50d", "reverse", "silence", 1, 0.01, "-50d", "reverse")
        run("sox", "-R", "-n", "-r", 16000, "-c", 1, "-b", 16, work + "gap.wav", "trim", "0", pause)
        run("sox", "-R", work + "a16.wav", work + "gap.wav", work + "b16.wav", work + "words.wav")
        run("sox", "-R", work + "words.wav", work + "pad.wav", "pad", 0.6, 0.8)
        duration = float(subprocess.run(["soxi", "-D", work + "pad.wav"], capture_output=True, text=True).stdout)
        run("sox", "-R", "-n", "-r", 16000, "-c", 1, "-b", 16, work + "room.wav", "synth", duration, "pinknoise", "vol", 0.002)
        name = f"pause{index:02d}.wav"
        run("sox", "-R", "-m", work + "pad.wav", work + "room.wav", os.path.join(out, name))
        for part in ["a", "b", "a16", "b16", "gap", "words", "pad", "room"]:
            os.remove(work + part + ".wav")
        rows.append(f"{name}\t{airline}{number}\t{first} ... {second}\tcut{cut}")
    with open(os.path.join(out, "manifest.tsv"), "w") as manifest:
        manifest.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()

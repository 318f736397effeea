#!/usr/bin/env python3
"""Regenerates BENCHMARKS.md: accuracy on the corpus and on held-out voices, each decision's contribution, how often
each decision is taken, the decision model's calibration, and speed. `make benchmarks` runs it.

  make-benchmarks.py [--corpus DIR] [--training-set DIR] [--every N] [--out BENCHMARKS.md]

--corpus: a folder with manifest.tsv and schedule.csv (default ../shared/corpus); its schedule is imported into a
fresh database that also holds the seeded day, as the README says. It is only measured, never fitted on.
--training-set: the output of `make training-set` (scripts/training-data/make-training-set.py); every N-th clip of its
dev split (voices held out of training) and of its check split (flite voices, never in training) is measured.
Sets that are missing are skipped with a note. Needs a release build (`make release`).
"""
import argparse, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.path.join(ROOT, ".build", "release", "flightvoice")
TRAINING_FEATURES = os.path.join(ROOT, "scripts", "decision-model", "training-features.tsv")
sys.path.insert(0, os.path.dirname(__file__))
summarize = __import__("summarize")

def run(args, env=None, timed=False):
    """Runs a command; returns (stdout, seconds of CPU, peak RSS in MB) when `timed`."""
    if timed: args = ["/usr/bin/time", "-f", "TIME %U %S %M"] + args
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    if done.returncode != 0: sys.exit(f"{' '.join(args)} failed:\n{done.stderr[-2000:]}")
    if not timed: return done.stdout
    user, system, rss = re.search(r"TIME (\S+) (\S+) (\S+)", done.stderr).groups()
    return done.stdout, float(user) + float(system), int(rss) / 1024

def subset(manifest, every, out):
    lines = open(manifest).read().splitlines()
    with open(out, "w") as f:
        f.write("\n".join([lines[0]] + [l for i, l in enumerate(lines[1:]) if i % every == 0]) + "\n")
    # Paths stay relative to the original manifest's folder.
    return out

def evaluate(manifest, database, features, jobs=2, extra=()):
    env = dict(os.environ, FLIGHTVOICE_DB=database)
    text = run(["nice", "-n", "10", BINARY, "eval", manifest, "--jobs", str(jobs), "--rival", "--features", features, *extra], env=env)
    return text

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    parser.add_argument("--training-set", default=os.path.join(ROOT, ".build", "training-set"))
    parser.add_argument("--human-set", default=os.path.join(ROOT, ".build", "human-set"),
                        help="a make-human-set.py folder (held-out human voices); skipped when it has no dev.tsv")
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--out", default=os.path.join(ROOT, "BENCHMARKS.md"))
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="flightvoice-benchmarks-")
    seed = os.path.join(work, "seed.sqlite")
    run([BINARY, "db", "status", "--db", seed])
    sets, notes = [], []

    if os.path.exists(os.path.join(options.corpus, "manifest.tsv")):
        corpus_db = os.path.join(work, "corpus.sqlite")
        shutil.copy(seed, corpus_db)
        run([BINARY, "db", "import", os.path.join(options.corpus, "schedule.csv"), "--db", corpus_db])
        features = os.path.join(work, "corpus.tsv")
        evaluate(os.path.join(options.corpus, "manifest.tsv"), corpus_db, features, extra=("--calibrated-decision",))
        sets.append(("corpus (../shared/corpus)", features, os.path.join(options.corpus, "manifest.tsv")))
    else:
        notes.append(f"No corpus at {options.corpus}: skipped.")
    for folder, split, label, maker in [(options.training_set, "dev", "held-out espeak-ng voices (dev split)", "make training-set"),
                                        (options.training_set, "check", "held-out flite voices (check split)", "make training-set"),
                                        (options.human_set, "dev", "held-out human voices (AN4 dev split)", "make human-set")]:
        manifest = os.path.join(folder, f"{split}.tsv")
        if not os.path.exists(manifest):
            notes.append(f"No {manifest} (run `{maker}`): {label} skipped.")
            continue
        part = subset(manifest, options.every, os.path.join(folder, f"{split}-benchmark.tsv"))
        features = os.path.join(work, f"{os.path.basename(os.path.normpath(folder))}-{split}.tsv")
        evaluate(part, seed, features, extra=("--calibrated-decision",))
        sets.append((f"{label}, every {options.every}. clip", features, manifest))

    # Speed: the held-out dev part (or the samples) with one and with two workers.
    speed_manifest = os.path.join(ROOT, "Samples", "manifest.tsv")
    for name, _, manifest in sets:
        if name.startswith("held-out espeak"): speed_manifest = os.path.join(options.training_set, "dev-benchmark.tsv")
    speed = []
    for jobs in (1, 2):
        out, cpu, rss = run(["nice", "-n", "10", BINARY, "eval", speed_manifest, "--jobs", str(jobs), "--db", seed], timed=True)
        audio, wall, rtf = re.search(r"speed: ([\d.]+) s of audio decoded in ([\d.]+) s on \d+ workers; real-time factor ([\d.]+)", out).groups()
        speed.append((jobs, float(audio), float(wall), float(rtf), cpu, rss))
    _, startup_cpu, startup_rss = run([BINARY, "recognize", os.path.join(ROOT, "Samples", "no-flight.wav"), "--db", seed], timed=True)

    with open(options.out, "w") as out:
        sys.stdout = out
        print("# FlightVoice benchmarks\n")
        print(f"Regenerated by `make benchmarks` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
              f"{os.cpu_count()} cores, release build). Every figure below comes from `flightvoice eval --rival --features` "
              "on the named set; the two decisions are replayed on the same decodes by `scripts/benchmarks/summarize.py`.\n")
        for note in notes: print(f"- {note}")
        print("\n## Speed\n")
        print("| workers | audio (s) | wall (s) | real-time factor per worker | CPU s per audio s | peak RSS (MB) |\n|---|---|---|---|---|---|")
        for jobs, audio, wall, rtf, cpu, rss in speed:
            print(f"| {jobs} | {audio:.1f} | {wall:.1f} | {rtf:.3f} | {cpu / audio:.3f} | {rss:.0f} |")
        print(f"\nStart-up (load four models and today's grammar, answer one short clip): {startup_cpu:.2f} s of CPU, "
              f"peak RSS {startup_rss:.0f} MB (`flightvoice recognize Samples/no-flight.wav`). Clips: `{os.path.relpath(speed_manifest, ROOT)}`.")
        print("\n## Accuracy\n")
        summarize.report(TRAINING_FEATURES, sets, {name for name, _, _ in sets if name.startswith("held-out")})
        sys.stdout = sys.__stdout__
    print(f"wrote {options.out}")

if __name__ == "__main__":
    main()

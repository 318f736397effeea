#!/usr/bin/env python3
"""Regenerates BENCHMARKS.md: accuracy on the corpus and on held-out voices, each decision's contribution, how often
each decision is taken, the decision model's calibration, and speed. `make benchmarks` runs it.

  make-benchmarks.py [--corpus DIR] [--training-set DIR] [--human-set DIR] [--every N] [--out BENCHMARKS.md]
                     [--speed-only | --neural-cost-only] [--speed-manifest TSV] [--speed-clips N] [--neural-clips N] [--jobs N]

--corpus: a folder with manifest.tsv and schedule.csv (default ../shared/corpus); its schedule is imported into a
fresh database that also holds the seeded day, as docs/accuracy-and-decisions.md says. It is only measured, never fitted on.
--training-set: the output of `make training-set` (scripts/training-data/make-training-set.py); every N-th clip of its
dev split (voices held out of training) and of its check split (flite voices, never in training) is measured.
Sets that are missing are skipped with a note. Needs a release build (`make release`).
Speed (the `## Speed` section): the first N clips (--speed-clips, default 40) of --speed-manifest (default: the held-out
dev split, else the samples), decoded with today's grammar alone by `pocketsphinx_batch` (Debian's `pocketsphinx`) and
by our pass (`decoder-benchmark`) on the same 16 kHz samples and the same grammar and dictionary
(`flightvoice recognize --write-grammar`), then by the whole recognizer (`flightvoice eval`) with 1 and 2 workers:
CPU seconds (user + system, `/usr/bin/time`) per second of audio, start-up CPU and peak RSS. --speed-only measures just
that and replaces the `## Speed` section of --out, keeping the rest of the file.
Neural pass (the `## Neural pass` section): every decode also reads each clip heard with the neural model (`eval
--neural`); the section replays grammar only (the default decision without its neural check), neural only (the neural
model's top flight answered wherever it read the clip) and fused (the default decision), per condition and per kind of
speaker, with the fused decision's reliability; then the pass's own cost on the first --neural-clips clips naming a
flight of the speed manifest: `whisper-benchmark` (a release build) against `scripts/neural-model/ctranslate2-benchmark.py`
in .build/whisper-reference-venv (made as Tests/WhisperTests make it when missing: pip installs CTranslate2), and
`flightvoice eval --jobs 1` without and with `--neural`. --neural-cost-only measures just that and replaces its
section of --out.
"""
import argparse, atexit, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.path.join(ROOT, ".build", "release", "flightvoice")
# This machine's /etc/flightvoice/flightvoice.conf (an installed package) must not choose the database or the model:
# the benchmarks name their own, and an empty settings file leaves every other setting at its default.
os.environ["FLIGHTVOICE_CONFIG"] = os.devnull
# Debian's stock acoustic model, the default; its decision is refitted from the committed training features (the same
# coefficients and thresholds as DecisionModel+Fitted.swift). Another model (--model) carries its decision-model.json.
STOCK_ACOUSTIC_MODEL = "/usr/share/pocketsphinx/model/en-us/en-us"
# What the binary decodes with unless --model says otherwise (RecognizerConfiguration): the stock model, and for
# telephone audio the adapted one.
DEFAULT_MODEL = "routed"
TRAINING_FEATURES = os.path.join(ROOT, "scripts", "decision-model", "training-features.tsv")
sys.path.insert(0, os.path.dirname(__file__))
summarize = __import__("summarize")
fit = summarize.fit

def run(args, env=None, timed=False):
    """Runs a command; returns (stdout, seconds of CPU, peak RSS in MB) when `timed`."""
    if timed: args = ["/usr/bin/time", "-f", "TIME %U %S %M"] + args
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    if done.returncode != 0: sys.exit(f"{' '.join(args)} failed:\n{done.stderr[-2000:]}")
    if not timed: return done.stdout
    user, system, rss = re.search(r"TIME (\S+) (\S+) (\S+)", done.stderr).groups()
    return done.stdout, float(user) + float(system), int(rss) / 1024

NEURAL_COST_HEADING = "### The neural pass's cost"
DECODER_BENCHMARK = os.path.join(ROOT, ".build", "release", "decoder-benchmark")
MODEL = "/usr/share/pocketsphinx/model/en-us"
ACOUSTIC_MODEL, MODEL_FLAGS = STOCK_ACOUSTIC_MODEL, []
RESUMING = False

def load_average():
    return os.getloadavg()[0]

def speed_section(manifest, clips, seed, work):
    """The `## Speed` section's lines: today's grammar alone against pocketsphinx_batch, then the whole recognizer."""
    for tool in ("pocketsphinx_batch", "sox"):
        if shutil.which(tool) is None: sys.exit(f"{tool} is missing: make benchmarks installs it (Debian's pocketsphinx, sox)")
    folder = os.path.dirname(os.path.abspath(manifest))
    lines = open(manifest).read().splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"))) for line in lines[1:] if line.strip()][:clips]
    speed_dir = os.path.join(work, "speed")
    raw_dir = os.path.join(speed_dir, "raw")
    shutil.rmtree(speed_dir, ignore_errors=True)  # an earlier run's, when resuming
    os.makedirs(raw_dir)
    chosen = os.path.join(speed_dir, "clips.tsv")
    with open(chosen, "w") as f:
        f.write(lines[0] + "\n")
        for row in rows:
            row["path"] = os.path.join(folder, row["path"])
            f.write("\t".join(row.get(column, "") for column in header) + "\n")
    names, audio = [], 0.0
    for index, row in enumerate(rows):
        name = f"clip{index:04d}"
        raw = os.path.join(raw_dir, name + ".raw")
        run(["sox", "-D", row["path"], "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-L", "-t", "raw", raw])
        audio += os.path.getsize(raw) / 2 / 16000
        names.append(name)
    # One instant for every run, so that all decode the same grammar of today's flights.
    env = dict(os.environ, FLIGHTVOICE_DB=seed, FLIGHTVOICE_NOW=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    grammar = os.path.join(speed_dir, "grammar")
    run([BINARY, "recognize", "--write-grammar", grammar], env=env)
    dictionary = os.path.join(grammar, "full.dict")
    with open(dictionary, "w") as f:
        f.write(open(os.path.join(MODEL, "cmudict-en-us.dict")).read() + open(os.path.join(grammar, "added.dict")).read())
    for listing, entries in [("empty", []), ("ctl", names)]:
        with open(os.path.join(speed_dir, listing + ".txt"), "w") as f: f.write("".join(e + "\n" for e in entries))
    with open(os.path.join(speed_dir, "raw.txt"), "w") as f: f.write("".join(os.path.join(raw_dir, n + ".raw\n") for n in names))
    # Today's grammar at RecognizerConfiguration's beams: the default, and `--hand-thresholds`' wide ones.
    comparisons = []
    loads = [load_average()]
    for label, beams, flags in [("default", ("1e-60", "1e-60", "1e-45"), []),
                                ("`--hand-thresholds`", ("1e-80", "1e-80", "1e-60"), ["--hand-thresholds"])]:
        # The library's automaton of the JSGF file, and the minimized one our passes search (today.fsg).
        runs = []
        for grammar_flag, grammar_file in [("-jsgf", "today.jsgf"), ("-fsg", "today.fsg")]:
            batch = ["nice", "-n", "10", "pocketsphinx_batch", "-hmm", STOCK_ACOUSTIC_MODEL, "-dict", dictionary,
                     grammar_flag, os.path.join(grammar, grammar_file), "-samprate", "16000", "-beam", beams[0], "-pbeam", beams[1],
                     "-wbeam", beams[2], "-lw", "6.5", "-wip", "0.65", "-topn", "4", "-remove_silence", "no",
                     "-adcin", "yes", "-adchdr", "0", "-cepdir", raw_dir, "-cepext", ".raw", "-logfn", "/dev/null"]
            _, c_start, c_start_rss = run(batch + ["-ctl", os.path.join(speed_dir, "empty.txt"), "-hyp", os.path.join(speed_dir, "empty.hyp")], timed=True)
            _, c_all, c_rss = run(batch + ["-ctl", os.path.join(speed_dir, "ctl.txt"), "-hyp", os.path.join(speed_dir, grammar_file + ".hyp")], timed=True)
            runs.append((f"`pocketsphinx_batch {grammar_flag} {grammar_file}`", c_start, c_all, c_start_rss, c_rss))
        ours = ["nice", "-n", "10", DECODER_BENCHMARK] + flags + [grammar]
        _, o_start, o_start_rss = run(ours + [os.path.join(speed_dir, "empty.txt")], timed=True)
        _, o_all, o_rss = run(ours + [os.path.join(speed_dir, "raw.txt"), os.path.join(speed_dir, "ours.hyp")], timed=True)
        runs.append(("our today's-grammar pass (`decoder-benchmark`)", o_start, o_all, o_start_rss, o_rss))
        loads.append(load_average())
        def words(path): return [re.sub(r"\s*\([^()]*\)$", "", line) for line in open(path).read().splitlines()]
        same = sum(a == b for a, b in zip(words(os.path.join(speed_dir, "today.fsg.hyp")), words(os.path.join(speed_dir, "ours.hyp"))))
        comparisons.append((label, "/".join(beams), runs, same))
    whole = []
    for jobs in range(1, JOBS + 1):
        out, cpu, rss = run(["nice", "-n", "10", BINARY, "eval", chosen, "--jobs", str(jobs), *MODEL_FLAGS], env=env, timed=True)
        _, wall, rtf = re.search(r"speed: ([\d.]+) s of audio decoded in ([\d.]+) s on \d+ workers; real-time factor ([\d.]+)", out).groups()
        whole.append((jobs, cpu, rss, float(wall), float(rtf)))
        loads.append(load_average())
    _, startup_cpu, startup_rss = run([BINARY, "recognize", os.path.join(ROOT, "Samples", "no-flight.wav")], env=env, timed=True)
    relative = os.path.relpath(manifest, ROOT) if os.path.abspath(manifest).startswith(ROOT) else manifest
    # `--speed-only` replaces this section alone, possibly on another machine than the rest of the file: its own date,
    # and Debian's pocketsphinx_batch in the same table as the machine-independent yardstick.
    text = [f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on the first {len(rows)} clips of `{relative}` "
            f"({audio:.1f} s of audio), {os.cpu_count()} cores, load average "
            f"{min(loads):.1f}–{max(loads):.1f} while measuring: CPU time (user + system, `/usr/bin/time`) is what the load "
            "inflates least; wall-clock figures are only meaningful on idle cores. Machines differ: compare our figures "
            "with Debian's `pocketsphinx_batch` in the same table, not with another machine's.\n",
            "Today's grammar alone, on the same 16 kHz samples (`sox -D CLIP -r 16000`), the same grammar and dictionary "
            "(`flightvoice recognize --write-grammar DIR`, Debian's dictionary plus the words it adds) and the same "
            "decoder settings (`-lw 6.5 -wip 0.65 -topn 4 -remove_silence no`, at the default's beams and at "
            "`--hand-thresholds`' wide ones); CPU per audio second is (CPU of the run − CPU of a run without clips) / audio seconds:\n",
            "| beams | decoder (grammar automaton) | CPU s per audio s | start-up CPU (s) | peak RSS, start-up only (MB) | peak RSS (MB) | same words as `pocketsphinx_batch -fsg` |",
            "|---|---|---|---|---|---|---|"]
    for label, beams, runs, same in comparisons:
        for index, (decoder, start, total, start_rss, rss) in enumerate(runs):
            agreement = f"{same} of {len(rows)}" if index == len(runs) - 1 else ""
            text.append(f"| {label} ({beams}) | {decoder} | {(total - start) / audio:.3f} | {start:.2f} | {start_rss:.0f} | {rss:.0f} | {agreement} |")
    text += ["",
            "`today.jsgf` is searched on the automaton the library builds from it; `today.fsg` is that automaton minimized, "
            "as our passes search it (`WordGraph`: the same word sequences in fewer states). "
            "Commands: `pocketsphinx_batch -hmm MODEL -dict DICT "
            "-jsgf today.jsgf|-fsg today.fsg -beam B -pbeam P -wbeam W -adcin yes -adchdr 0 -cepdir RAW -cepext .raw -ctl LIST …` and "
            "`decoder-benchmark [--hand-thresholds] DIR LIST`, each under `/usr/bin/time` (scripts/benchmarks/make-benchmarks.py).\n",
            "The whole recognizer (audio preparation, today's grammar, phone loop, open grammar, the rival where it can "
            "change the decision, the decision), `flightvoice eval CLIPS --jobs N` (process CPU includes start-up):\n",
            "| workers | CPU s per audio s (all passes) | peak RSS (MB) | wall (s) | real-time factor per worker (wall) |",
            "|---|---|---|---|---|"]
    for jobs, cpu, rss, wall, rtf in whole:
        text.append(f"| {jobs} | {cpu / audio:.3f} | {rss:.0f} | {wall:.1f} | {rtf:.3f} |")
    text.append(f"\nStart-up of the whole recognizer (load its decoders and today's grammar, answer one 1.6 s clip, "
                f"`flightvoice recognize Samples/no-flight.wav`): {startup_cpu:.2f} s of CPU, peak RSS {startup_rss:.0f} MB.")
    return text

WHISPER_BENCHMARK = os.path.join(ROOT, ".build", "release", "whisper-benchmark")
WHISPER_MODEL = os.path.join(ROOT, "models", "whisper-tiny.en")
CTRANSLATE2_BENCHMARK = os.path.join(ROOT, "scripts", "neural-model", "ctranslate2-benchmark.py")
# The reference environment Tests/WhisperTests makes (WhisperReferenceTests.python), made here the same way when missing.
REFERENCE_ENVIRONMENT = os.path.join(ROOT, ".build", "whisper-reference-venv")
REFERENCE_PACKAGES = [["ctranslate2==4.8.5", "numpy"], ["--no-deps", "faster-whisper==1.2.1"]]

def reference_python():
    """The reference environment's python, created with CTranslate2 and faster-whisper's feature extractor if missing."""
    python = os.path.join(REFERENCE_ENVIRONMENT, "bin", "python")
    check = "import ctranslate2, numpy, importlib.util, sys; sys.exit(importlib.util.find_spec('faster_whisper') is None)"
    if os.access(python, os.X_OK) and subprocess.run([python, "-c", check], capture_output=True).returncode == 0: return python
    run(["/usr/bin/python3", "-m", "venv", REFERENCE_ENVIRONMENT])
    for packages in REFERENCE_PACKAGES:
        run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *packages])
    return python

def milliseconds(pattern, text):
    """The figure `pattern` (one group) finds in a benchmark's output, as a float."""
    found = re.search(pattern, text)
    if found is None: sys.exit(f"the benchmark's output has no {pattern!r}:\n{text[-2000:]}")
    return float(found.group(1))

def neural_cost_section(manifest, clips, seed, work, repeats=3):
    """The neural pass's own cost, as lines: each stage's CPU on one thread against CTranslate2's on the same clips
    (`whisper-benchmark`, `ctranslate2-benchmark.py`), and what `flightvoice eval --neural` adds per clip."""
    python = reference_python()
    folder = os.path.dirname(os.path.abspath(manifest))
    lines = open(manifest).read().splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"))) for line in lines[1:] if line.strip()]
    # Clips that name a flight, so that the free decode has a transcript of the usual length; 16 kHz ones, the only
    # rate the CTranslate2 reference reads (a telephone clip would stop the whole run after its hour of decoding).
    rows = [row for row in rows if row.get("flight") and summarize.clip_band(row["path"], folder) == "wide"][:clips]
    chosen = os.path.join(work, "neural-clips.tsv")
    with open(chosen, "w") as f:
        f.write(lines[0] + "\n")
        for row in rows: f.write("\t".join(os.path.join(folder, row[c]) if c == "path" else row.get(c, "") for c in header) + "\n")
    ours, reference, audio, loads = [], {"float32": [], "int8": []}, 0.0, [load_average()]
    for row in rows:
        clip = os.path.join(folder, row["path"])
        out, _, rss = run(["nice", "-n", "10", WHISPER_BENCHMARK, "--model", WHISPER_MODEL, "--threads", "1", "--repeat", str(repeats), clip], timed=True)
        audio += milliseconds(r"clip: .*, ([\d.]+) s;", out)
        ours.append({"encoder": milliseconds(r"encoder, \d+ frames: ([\d.]+) ms", out),
                     "encoder 30 s": milliseconds(r"encoder, 3000 frames: ([\d.]+) ms", out),
                     "scoring": milliseconds(r"one-pass scoring of 64 candidates.*?: ([\d.]+) ms", out),
                     "free decode": milliseconds(r"greedy decode, clip \+ 1 s window: ([\d.]+) ms", out),
                     "free decode 30 s": milliseconds(r"greedy decode, 30 s window: ([\d.]+) ms", out),
                     "load": milliseconds(r"model load: [\d.]+ ms wall, ([\d.]+) ms CPU", out), "rss": rss})
        out, _, rss = run(["nice", "-n", "10", python, CTRANSLATE2_BENCHMARK, WHISPER_MODEL, clip, "--repeat", str(repeats)], timed=True)
        for compute_type in reference:
            reference[compute_type].append({
                "encoder 30 s": milliseconds(rf"{compute_type}: .*?encoder 3000 frames ([\d.]+) ms", out),
                "scoring": milliseconds(rf"{compute_type}: .*?align 64 candidates x 6 tokens ([\d.]+) ms", out),
                "free decode 30 s": milliseconds(rf"{compute_type}: .*?greedy decode ([\d.]+) ms", out),
                "load": milliseconds(rf"{compute_type}: load ([\d.]+) ms", out), "rss": rss})
        loads.append(load_average())
    # The pass in the product: the whole recognizer on the same clips on one worker, without and with the neural pass.
    env = dict(os.environ, FLIGHTVOICE_DB=seed)
    whole = []
    for flags in (["--no-neural-check"], ["--neural"]):
        out, cpu, rss = run(["nice", "-n", "10", BINARY, "eval", chosen, "--jobs", "1", "--telephone-model", "none", *MODEL_FLAGS, *flags], env=env, timed=True)
        wall = float(re.search(r"decoded in ([\d.]+) s", out).group(1))
        whole.append((cpu, wall, rss))
        loads.append(load_average())
    def mean(measures, key):
        values = [m[key] for m in measures if key in m]
        return f"{sum(values) / len(values):.1f}" if values else "–"
    def peak(measures): return f"{max(m['rss'] for m in measures):.0f}"
    relative = os.path.relpath(manifest, ROOT) if os.path.abspath(manifest).startswith(ROOT) else manifest
    text = [f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {len(rows)} clips naming a flight (the first of `{relative}`, {audio / max(1, len(rows)):.1f} s "
            f"each on average), one thread, load average {min(loads):.1f}–{max(loads):.1f}. Each stage is the best of "
            f"{repeats} runs in CPU milliseconds (`whisper-benchmark` times its free decodes once and its 30 s encoder "
            f"{'once' if repeats // 2 <= 1 else f'{repeats // 2} times'}), averaged over the clips; on one idle core the wall time of a one-thread stage is its CPU time. Ours is `Benchmarks/whisper-benchmark --threads 1` (the model file's float16 weights, float32 arithmetic, our own product kernel); "
            "CTranslate2 4.8.5 is `scripts/neural-model/ctranslate2-benchmark.py` on the same model, which accepts only "
            "the 30 s window. The pass in the product encodes the clip plus 1 s (`--neural-margin-seconds`), scores "
            "today's flights in one batch and decodes freely on that window. Peak RSS is the benchmark process's (the "
            "CTranslate2 process loads the model in both compute types).\n",
            "| implementation | encoder, clip + 1 s (ms) | encoder, 30 s window (ms) | scoring 64 candidates × 6 tokens (ms) "
            "| free decode, clip + 1 s (ms) | free decode, 30 s window (ms) | model load (ms CPU) | peak RSS (MB) |",
            "|---|---|---|---|---|---|---|---|",
            f"| ours (`whisper-benchmark`, float16 weights) | {mean(ours, 'encoder')} | {mean(ours, 'encoder 30 s')} | {mean(ours, 'scoring')} "
            f"| {mean(ours, 'free decode')} | {mean(ours, 'free decode 30 s')} | {mean(ours, 'load')} | {peak(ours)} |"]
    for compute_type, measures in reference.items():
        text.append(f"| CTranslate2, {compute_type} | – | {mean(measures, 'encoder 30 s')} | {mean(measures, 'scoring')} "
                    f"| – | {mean(measures, 'free decode 30 s')} | {mean(measures, 'load')} | {peak(measures)} |")
    (cpu, wall, rss), (neural_cpu, neural_wall, neural_rss) = whole
    count = max(1, len(rows))
    text += ["",
             "The neural pass in the product: the whole recognizer on the same clips on one worker, `flightvoice eval "
             "CLIPS --jobs 1` with `--no-neural-check` and with `--neural` (which reads every clip heard; the default "
             "decision reads only the clips its neural check asks about). Process CPU (`/usr/bin/time`, start-up included) and the "
             "decoding wall time `eval` reports, per clip:\n",
             "| run | CPU s per clip | wall s per clip, one worker | peak RSS (MB) |",
             "|---|---|---|---|",
             f"| without the neural pass | {cpu / count:.2f} | {wall / count:.2f} | {rss:.0f} |",
             f"| with `--neural` | {neural_cpu / count:.2f} | {neural_wall / count:.2f} | {neural_rss:.0f} |",
             f"| the neural pass | {(neural_cpu - cpu) / count:+.2f} | {(neural_wall - wall) / count:+.2f} | {neural_rss - rss:+.0f} |"]
    return text

def replace_section(path, heading, lines):
    """Replaces the section under `heading` (up to the next heading of its level or above) in the file at `path` with `lines`."""
    text = open(path).read()
    start = text.index(heading + "\n")
    level = len(heading.split(" ")[0])
    following = re.compile(r"\n#{1,%d} " % level).search(text, start + len(heading))
    end = following.start() + 1 if following else len(text)
    with open(path, "w") as f:
        f.write(text[:start] + heading + "\n\n" + "\n".join(lines) + "\n\n" + text[end:])

def subset(manifest, every, out):
    """Writes every `every`-th clip of `manifest` to `out` (in the work folder: nothing is written beside the data
    set), each clip's path made absolute; returns `out`."""
    folder = os.path.dirname(os.path.abspath(manifest))
    lines = open(manifest).read().splitlines()
    column = lines[0].split("\t").index("path")
    chosen = []
    for line in [l for i, l in enumerate(lines[1:]) if i % every == 0]:
        cells = line.split("\t")
        cells[column] = os.path.join(folder, cells[column])
        chosen.append("\t".join(cells))
    with open(out, "w") as f:
        f.write("\n".join([lines[0]] + chosen) + "\n")
    return out

# Workers of every decode (--jobs).
JOBS = 2

def evaluate(manifest, database, features, extra=()):
    """Decodes `manifest` with one acoustic model throughout (telephone clips are not routed to another; the report
    replays the routing from each model's decodes), with the neural model's reading of every clip heard (`--neural`:
    the report replays the decision with and without its check)."""
    if RESUMING and os.path.exists(features):
        print(f"kept: {features}", file=sys.stderr)
        return
    env = dict(os.environ, FLIGHTVOICE_DB=database)
    decoding = features + ".decoding"
    run(["nice", "-n", "10", BINARY, "eval", manifest, "--jobs", str(JOBS), "--rival", "--neural", "--features", decoding,
         "--telephone-model", "none", *MODEL_FLAGS, *extra], env=env)
    os.replace(decoding, features)

def print_neural_section(calibrated, telephone, sets, cost):
    """Prints the `## Neural pass` section: the ablation grammar only / neural only / fused on every set (as the
    default recognizer routes telephone clips when `telephone` is given: see `summarize.report`), the reliability of the
    fused decision, and the pass's own cost (`cost`, from `neural_cost_section`)."""
    deciders = {"wide": calibrated}
    if telephone: deciders["telephone"] = telephone[0]
    grammar = summarize.by_band({band: decision.decision(neural_checking=False) for band, decision in deciders.items()})
    fused = summarize.by_band({band: decision.decision() for band, decision in deciders.items()})
    checks = [(band, decision.neural) for band, decision in deciders.items() if decision.neural is not None]
    variants = [("grammar only", grammar), ("neural only (its top flight)", summarize.neural_only)]
    print("\n## Neural pass\n")
    print("The neural acoustic model (Whisper tiny.en, `NeuralPass`) scores today's flights on the clip and decodes it "
          "freely; `flightvoice eval --neural` reads every clip heard with it. Each cell is right / wrong (count) / "
          "\"did you mean\" with the flight said, as in the Ablation section, on the same decodes: **grammar only** is "
          "the default decision without the neural check; **neural only** answers the neural model's top flight on "
          "every clip it read (it offers nothing: a clip it did not read is refused); **fused** is the default "
          "decision with its neural check.\n")
    if checks:
        variants.append(("**fused (default)**", fused))
        for band, neural in checks:
            print(f"The neural check ({'telephone audio' if band == 'telephone' else 'wideband audio'}): "
                  f"the grammar's decision{summarize.describe_neural(neural)}.\n")
    else:
        print("No neural check is chosen yet (`DecisionModel.neuralCheck` is absent from the stock decision and from "
              "models/en-us-flightvoice/decision-model.json), so the default decision does not ask the neural model and "
              "there is no fused row; grammar only is the default, and the reliability below is its answers'.\n")
    print("Telephone audio (8 kHz) is decoded by the adapted model, as the recognizer routes it. \"Right\" includes "
          "refusing a clip that names no flight.\n")
    routed = []
    for name, features, manifest in sets:
        rows = summarize.fit.load(features)
        if telephone and name in telephone[1]:
            rows = summarize.as_routed(rows, summarize.fit.load(telephone[1][name]), os.path.dirname(manifest))
        routed.append((name, summarize.with_manifest(rows, manifest)))
    summarize.neural_section(routed, variants, fused if checks else grammar, summarize.AnswerConfidence(deciders),
                             "fused decision" if checks else "default decision (grammar only)")
    print(NEURAL_COST_HEADING + "\n")
    print("\n".join(cost))

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    parser.add_argument("--training-set", default=os.path.join(ROOT, ".build", "training-set"))
    parser.add_argument("--human-set", default=os.path.join(ROOT, ".build", "human-set"),
                        help="a make-human-set.py folder (held-out human voices); skipped when it has no dev.tsv")
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--out", default=os.path.join(ROOT, "BENCHMARKS.md"))
    parser.add_argument("--speed-only", action="store_true", help="measure speed only and replace the Speed section of --out")
    parser.add_argument("--neural-cost-only", action="store_true", help="measure the neural pass's cost only and replace its section of --out")
    parser.add_argument("--speed-manifest", help="clips for speed (default: the held-out dev split, else the samples)")
    parser.add_argument("--speed-clips", type=int, default=40)
    parser.add_argument("--neural-clips", type=int, default=5, help="clips on which the neural pass's cost is measured (the Neural pass section)")
    parser.add_argument("--jobs", type=int, default=2, help="workers of every decode (default 2; the Speed section measures 1 to this many)")
    parser.add_argument("--no-ablation", action="store_true", help="skip the Ablation section (which decodes every set again with the adapted model)")
    parser.add_argument("--model", help="acoustic model folder for every decode (default: Debian's stock model); it must hold its decision-model.json")
    parser.add_argument("--resume", metavar="DIR", help="the folder of decodes an earlier run kept (it prints it when it fails): decode only "
                        "the sets it lacks, measure speed and cost again and write the report (same options, same binary's decodes)")
    options = parser.parse_args()
    if options.jobs < 1: parser.error("--jobs takes a positive whole number")
    if options.resume and not os.path.isdir(options.resume): parser.error(f"--resume: no folder {options.resume}")
    global ACOUSTIC_MODEL, MODEL_FLAGS, JOBS, RESUMING
    JOBS, RESUMING = options.jobs, options.resume is not None
    # Before the hour of decoding: every program the sections run.
    needed = [BINARY] + ([] if options.neural_cost_only else [DECODER_BENCHMARK]) + ([] if options.speed_only else [WHISPER_BENCHMARK])
    missing = [path for path in needed if not os.access(path, os.X_OK)]
    if missing: sys.exit(f"{', '.join(missing)} missing: `make release` (swift build -c release) builds them")
    if not options.speed_only: reference_python()
    if options.model:
        ACOUSTIC_MODEL, MODEL_FLAGS = os.path.abspath(options.model), ["--model", os.path.abspath(options.model)]
    work = os.path.abspath(options.resume) if options.resume else tempfile.mkdtemp(prefix="flightvoice-benchmarks-")
    # An hour of decodes is not thrown away with a report that fails: the folder goes only once --out is written.
    atexit.register(lambda: print(f"the decodes are kept in {work}: `make benchmarks RESUME={work}` goes on from them",
                                  file=sys.stderr) if os.path.isdir(work) else None)
    seed = os.path.join(work, "seed.sqlite")
    if not os.path.exists(seed): run([BINARY, "db", "init", "--db", seed])
    speed_manifest = options.speed_manifest
    if speed_manifest is None:
        dev = os.path.join(options.training_set, "dev.tsv")
        speed_manifest = dev if os.path.exists(dev) else os.path.join(ROOT, "Samples", "manifest.tsv")
    if options.speed_only:
        replace_section(options.out, "## Speed", speed_section(speed_manifest, options.speed_clips, seed, work))
        shutil.rmtree(work, ignore_errors=True)
        print(f"updated the Speed section of {options.out}")
        return
    if options.neural_cost_only:
        replace_section(options.out, NEURAL_COST_HEADING, neural_cost_section(speed_manifest, options.neural_clips, seed, work))
        shutil.rmtree(work, ignore_errors=True)
        print(f"updated the neural pass's cost in {options.out}")
        return
    sets, notes, ablation_sets = [], [], []
    adapted = os.path.join(ROOT, "models", "en-us-flightvoice")
    # Telephone clips: the default recognizer decodes them with the adapted model (RecognizerConfiguration.telephoneAcousticModel).
    telephone_features = {}
    def decode_adapted(manifest, database, name):
        features = os.path.join(work, f"adapted-{name}.tsv")
        evaluate(manifest, database, features, extra=("--model", adapted))
        return features
    def decode_telephone(manifest, database, name, label):
        """The adapted model's decodes of the set's telephone clips (all of it when the ablation decodes every clip)."""
        if not options.no_ablation:
            telephone_features[label] = decode_adapted(manifest, database, name)
            return telephone_features[label]
        folder = os.path.dirname(os.path.abspath(manifest))
        lines = open(manifest).read().splitlines()
        header = lines[0].split("\t")
        column = header.index("path")
        telephone = []
        for line in lines[1:]:
            cells = line.split("\t")
            if line.strip() and summarize.clip_band(cells[column], folder) == "telephone":
                cells[column] = os.path.join(folder, cells[column])
                telephone.append("\t".join(cells))
        part = os.path.join(work, f"{name}-telephone.tsv")
        with open(part, "w") as f: f.write("\n".join([lines[0]] + telephone) + "\n")
        telephone_features[label] = decode_adapted(part, database, name)
        return None

    if os.path.exists(os.path.join(options.corpus, "manifest.tsv")):
        corpus_db = os.path.join(work, "corpus.sqlite")
        if not os.path.exists(corpus_db):
            shutil.copy(seed, corpus_db)
            run([BINARY, "db", "import", os.path.join(options.corpus, "schedule.csv"), "--db", corpus_db])
        features = os.path.join(work, "corpus.tsv")
        evaluate(os.path.join(options.corpus, "manifest.tsv"), corpus_db, features)
        sets.append(("corpus (../shared/corpus)", features, os.path.join(options.corpus, "manifest.tsv")))
        if not MODEL_FLAGS:
            adapted_features = decode_telephone(os.path.join(options.corpus, "manifest.tsv"), corpus_db, "corpus", sets[-1][0])
            if adapted_features:
                ablation_sets.append(("corpus", {"stock": features, "adapted": adapted_features}, os.path.join(options.corpus, "manifest.tsv")))
    else:
        notes.append(f"No corpus at {options.corpus}: skipped.")
    for folder, split, label, maker in [(options.training_set, "dev", "held-out espeak-ng voices (dev split)", "make training-set"),
                                        (options.training_set, "check", "held-out flite voices (check split)", "make training-set"),
                                        (options.human_set, "dev", "held-out human voices (AN4 dev split)", "make human-set")]:
        manifest = os.path.join(folder, f"{split}.tsv")
        if not os.path.exists(manifest):
            notes.append(f"No {manifest} (run `{maker}`): {label} skipped.")
            continue
        part = subset(manifest, options.every, os.path.join(work, f"{os.path.basename(os.path.normpath(folder))}-{split}-benchmark.tsv"))
        features = os.path.join(work, f"{os.path.basename(os.path.normpath(folder))}-{split}.tsv")
        evaluate(part, seed, features)
        sets.append((f"{label}, every {options.every}. clip", features, manifest))
        if not MODEL_FLAGS:
            adapted_features = decode_telephone(part, seed, f"{os.path.basename(os.path.normpath(folder))}-{split}", sets[-1][0])
            if adapted_features:
                ablation_sets.append((label.split(" (")[0], {"stock": features, "adapted": adapted_features}, manifest))

    speed = speed_section(speed_manifest, options.speed_clips, seed, work)
    neural_cost = neural_cost_section(speed_manifest, options.neural_clips, seed, work)

    partial = options.out + ".partial"
    with open(partial, "w") as out:
        sys.stdout = out
        print("# FlightVoice benchmarks\n")
        print(f"Regenerated by `make benchmarks` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
              f"{os.cpu_count()} cores, release build). Every figure below comes from `flightvoice eval --rival --neural --features` "
              "on the named set; the two decisions are replayed on the same decodes by `scripts/benchmarks/summarize.py`.\n")
        for note in notes: print(f"- {note}")
        print("\n## Speed\n")
        print("\n".join(speed))
        if ablation_sets:
            stock = summarize.refit(TRAINING_FEATURES)
            adapted_decision = summarize.committed(os.path.join(adapted, "decision-model.json"))
            def label(text, model): return f"**{text} (default)**" if model == DEFAULT_MODEL else text
            shares = []
            for name, features, manifest in ablation_sets:
                folder = os.path.dirname(manifest)
                stock_rows, adapted_rows = fit.load(features["stock"]), fit.load(features["adapted"])
                features["routed"] = summarize.as_routed(stock_rows, adapted_rows, folder)
                checked = summarize.with_cross_check(stock_rows, adapted_rows, adapted_decision.model)
                features["cross-checked"] = summarize.as_routed(checked, adapted_rows, folder)
                wide = [row for row in features["cross-checked"] if row["band"] == "wide"]
                shares.append(f"{name} {100 * fit.cross_check_share(wide, stock.model, stock.accept, stock.cross):.1f}%")
            print("\n## Ablation\n")
            print("Each set decoded twice, with Debian's stock acoustic model and with the adapted one, each decision "
                  "replayed on the same decodes (the hand thresholds at the calibrated decision's beams; each model's "
                  f"calibrated decision with its own coefficients and probabilities: stock answers at p ≥ {stock.accept}, "
                  f"adapted at p ≥ {adapted_decision.accept}, or at p ≥ {adapted_decision.agreement} when the stock model's reading of today's grammar "
                  "(measured in the adapted decodes) heard the same flight). `--cross-check` (off by default) asks the "
                  f"adapted model's own decision where the stock model's probability is from {stock.cross[0]} to {stock.accept} and "
                  f"nothing else doubts the flight, and answers a flight both heard at an adapted probability of at least {stock.cross[1]} "
                  "(docs/accuracy-and-decisions.md, \"A second model's decision\"); it decodes the clip again, with every pass, on "
                  + ", ".join(shares) + " of the wideband clips. Noise suppression (`--denoise`) is off in every "
                  "row: it cost right answers on our dev split (docs/experiments.md, \"Noise suppression\"). \"Right\" includes "
                  "refusing a clip that names no flight.\n")
            telephone_decision = adapted_decision.decision()
            print(summarize.ablation(ablation_sets, [
                ("stock, hand thresholds", "stock", summarize.threshold_decision),
                ("stock, calibrated", "stock", stock.decision()),
                (label("stock, calibrated; telephone audio: adapted, calibrated, with the stock model's second opinion", "routed"), "routed",
                 summarize.by_band({"wide": stock.decision(), "telephone": telephone_decision})),
                ("the default with `--cross-check`", "cross-checked",
                 summarize.by_band({"wide": stock.decision(cross_checking=True), "telephone": telephone_decision})),
                ("adapted, hand thresholds", "adapted", summarize.threshold_decision),
                ("adapted, its own calibrated decision alone", "adapted", summarize.model_decision(adapted_decision.model, adapted_decision.accept, adapted_decision.confirm)),
                (label("adapted, calibrated, with the stock model's second opinion", "adapted"), "adapted", telephone_decision),
            ]))
        calibrated = summarize.committed(os.path.join(ACOUSTIC_MODEL, "decision-model.json")) if MODEL_FLAGS else summarize.refit(TRAINING_FEATURES)
        telephone = None if MODEL_FLAGS else (summarize.committed(os.path.join(adapted, "decision-model.json")), telephone_features)
        print_neural_section(calibrated, telephone, sets, neural_cost)
        print("\n## Accuracy\n")
        summarize.report(calibrated, sets, {name for name, _, _ in sets if name.startswith("held-out")}, telephone)
        sys.stdout = sys.__stdout__
    os.replace(partial, options.out)
    shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {options.out}")

if __name__ == "__main__":
    main()

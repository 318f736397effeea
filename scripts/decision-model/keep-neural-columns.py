#!/usr/bin/env python3
"""keep-neural-columns.py EVAL-FEATURES.tsv OUT.tsv: the neural model's readings of an `eval --neural --features` file,
as committed in neural-dev-*-features.tsv (each clip as clips/NAME, the flight expected, the neural_* columns), so that
a refit pairs them with the committed decodes by file name."""
import csv, os, sys

COLUMNS = ["path", "expected", "neural_flight", "neural_margin", "neural_score", "neural_grammar_rank", "neural_text",
           "neural_free_transcript", "neural_free_flight", "neural_off_list_flight", "neural_off_list_margin"]

if len(sys.argv) != 3: sys.exit(__doc__)
source, destination = sys.argv[1:]
with open(source, newline="") as f:
    rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
with open(destination, "w", newline="") as f:
    writer = csv.writer(f, delimiter="\t", quoting=csv.QUOTE_NONE, escapechar="\\", lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow(["clips/" + os.path.basename(row["path"])] + [row.get(column, "") for column in COLUMNS[1:]])
print(f"{destination}: {len(rows)} clips")

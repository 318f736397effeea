#!/usr/bin/env python3
"""committed-decodes.py EVAL-FEATURES.tsv MANIFEST.tsv OUT.tsv: an `eval --neural --features` file as committed beside
the fitting script (neural-training-features.tsv, neural-dev-*-features.tsv): each clip as clips/NAME, with every
column the decode wrote and the clip's `kind` from the manifest it was decoded from (a query for a flight that does not
fly today is told from a clip naming none by it), so that a refit needs neither the clips nor the manifest."""
import csv, os, sys

if len(sys.argv) != 4: sys.exit(__doc__)
source, manifest, destination = sys.argv[1:]
kinds = {os.path.basename(r["path"]): r.get("kind", "") for r in csv.DictReader(open(manifest), delimiter="\t", quoting=csv.QUOTE_NONE)}
with open(source, newline="") as f:
    reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
    rows, columns = list(reader), reader.fieldnames
with open(destination, "w", newline="") as f:
    writer = csv.writer(f, delimiter="\t", quoting=csv.QUOTE_NONE, escapechar="\\", lineterminator="\n")
    writer.writerow(columns + ["kind"])
    for row in rows:
        name = os.path.basename(row["path"])
        if name not in kinds: sys.exit(f"{row['path']}: not in {manifest}")
        writer.writerow(["clips/" + name] + [row[column] for column in columns[1:]] + [kinds[name]])
print(f"{destination}: {len(rows)} clips")

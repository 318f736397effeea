"""A training clip's spoken text written as the neural pass writes its candidates, the text the tuned decoder learns
to score: "l x forty" -> " L X 40.", "lima x-ray seven two eight" -> " Lima X-ray 728.", "what's the gate for swiss
forty" -> " What's the gate for Swiss 40?" (Sources/NeuralFlightScoring/WrittenFlightCandidates.swift writes the
candidates; fillers such as "uh" and "thank you" are dropped). Airline names, callsigns and other spoken names come from
data/flights.sql, the table the grammar is built from.

  written_targets.py MANIFEST.tsv ...   prints the clips whose text it cannot write, counted by form
"""
import collections
import csv
import os
import re
import sys

NATO = {w: ("X-ray" if w == "x-ray" else w.capitalize()) for w in
        "alpha bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima mike november oscar papa quebec "
        "romeo sierra tango uniform victor whiskey x-ray yankee zulu".split()}
UNITS = {"zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "niner": 9}
TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
         "eighteen": 18, "nineteen": 19}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
NUMBER_WORDS = set(UNITS) | set(TEENS) | set(TENS) | {"hundred", "thousand", "double", "triple"}
QUESTIONS = ["what's the gate for", "what is the gate for", "which gate for", "which gate is", "where is", "where's",
             "what about", "when does", "when is", "is", "status of", "gate for", "the gate for"]
SUBJECTS = ["i'm on", "i am on", "my flight is", "i'm flying", "i am flying"]
FILLERS_BEFORE = ["uh", "um"]
FILLERS_AFTER = [["thank", "you"], ["thanks"], ["please"]]
SEED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "data", "flights.sql")


def airlines(path=SEED):
    """(spoken name -> written name, airline codes) from the seed's `INSERT INTO airlines` rows."""
    names, codes, inside = {}, set(), False
    for line in open(path):
        if line.startswith("INSERT INTO airlines"):
            inside = True
            continue
        if inside:
            fields = re.findall(r"'((?:[^']|'')*)'", line)
            if len(fields) != 5:
                break
            iata, icao, name, callsign, spoken = fields
            codes |= {iata, icao}
            for written in [name, callsign] + [s for s in spoken.split("|") if s]:
                names.setdefault(written.lower(), written if written != written.lower() else " ".join(w.capitalize() for w in written.split()))
    return names, codes


NAMES, CODES = airlines()


def sentence(words):
    text = " ".join("I" + w[1:] if (w == "i" or w.startswith("i'")) else w for w in words)
    return text[:1].upper() + text[1:]


def number(words):
    """Number words as written ("nineteen oh six" -> "1906", "one two three" -> "1 2 3"); "double"/"triple" kept; None
    when they are not a number."""
    if "hundred" in words or "thousand" in words:
        total, current = 0, 0
        for w in words:
            if w in UNITS: current += UNITS[w]
            elif w in TEENS: current += TEENS[w]
            elif w in TENS: current += TENS[w]
            elif w == "hundred": current *= 100
            elif w == "thousand": total, current = total + current * 1000, 0
            else: return None
        return str(total + current)
    if len(words) > 1 and all(w in UNITS for w in words):
        return " ".join(str(UNITS[w]) for w in words)
    if ("double" in words or "triple" in words) and all(w in UNITS or w in ("double", "triple") for w in words):
        return " ".join(w if w in ("double", "triple") else str(UNITS[w]) for w in words)
    out, i = [], 0
    while i < len(words):
        w = words[i]
        if w in ("double", "triple"):
            out += ([" "] if out else []) + [w + " "]
        elif w in UNITS: out.append(str(UNITS[w]))
        elif w in TEENS: out.append(str(TEENS[w]))
        elif w in TENS:
            if i + 1 < len(words) and words[i + 1] in UNITS and UNITS[words[i + 1]] > 0 and words[i + 1] != "oh":
                out.append(str(TENS[w] + UNITS[words[i + 1]]))
                i += 1
            else:
                out.append(str(TENS[w]))
        else:
            return None
        i += 1
    return re.sub(r"(double|triple) (\d)(\d)", r"\1 \2 \3", "".join(out)).strip()


def airline(words):
    """The words before the number as written ("l x" -> "L X", "lima x-ray" -> "Lima X-ray", "swiss air" -> "Swiss
    Air", "u two" -> "U2"); None when they are none of those."""
    text = " ".join(words)
    if text in NAMES: return NAMES[text]
    if all(len(w) == 1 and w.isalpha() for w in words):
        return "".join(w.upper() for w in words) if len(words) == 3 else " ".join(w.upper() for w in words)
    if all(w in NATO or w in UNITS for w in words):
        return " ".join(NATO.get(w, str(UNITS.get(w))) for w in words)
    if all((len(w) == 1 and w.isalpha()) or w in UNITS for w in words):
        return "".join(str(UNITS[w]) if w in UNITS else w.upper() for w in words)
    return None


def write(text, kind, flight=""):
    """`text` (a manifest's spoken words) written as a candidate; None where it cannot be (the clip is left out)."""
    words = ["z" if w == "zed" else w for w in text.split()]
    while words and words[0] in FILLERS_BEFORE: words = words[1:]
    trimmed = True
    while trimmed:
        trimmed = False
        for filler in FILLERS_AFTER:
            if len(words) > len(filler) and words[-len(filler):] == filler:
                words, trimmed = words[:-len(filler)], True
    if not words: return None
    if kind == "noflight":
        if all(len(w) == 1 for w in words): return " " + " ".join(w.upper() for w in words) + "."
        return " " + sentence(words) + ("?" if any(" ".join(words).startswith(q + " ") for q in QUESTIONS) else ".")
    phrase, ending = [], "."
    for question in sorted(QUESTIONS, key=len, reverse=True):
        if " ".join(words).startswith(question + " "):
            phrase, ending = question.split(), "?"
            words = words[len(phrase):]
            break
    for subject in sorted(SUBJECTS, key=len, reverse=True):
        if " ".join(words).startswith(subject + " "):
            phrase += subject.split()
            words = words[len(subject.split()):]
            break
    if words and words[0] == "flight":
        phrase.append("flight")
        words = words[1:]
    # The number is the longest tail of number words that parses after an airline.
    cut = len(words)
    while cut > 0 and words[cut - 1] in NUMBER_WORDS: cut -= 1
    for start in range(cut, len(words)):
        head, tail = words[:start], words[start:]
        written_number, written_airline = number(tail), airline(head) if head else None
        if written_number is None or written_airline is None: continue
        digits = re.sub(r"triple (\d)", r"\1\1\1", re.sub(r"double (\d)", r"\1\1", written_number)).replace(" ", "")
        if flight and digits.lstrip("0") != re.sub(r"^[A-Z0-9]{2}", "", flight): continue
        code = written_airline.replace(" ", "")
        if not flight and code.isalnum() and code.upper() == code and code not in CODES: continue
        lead = "Flight " if phrase == ["flight"] else (sentence(phrase) + " " if phrase else "")
        return " " + lead + written_airline + " " + written_number + ending
    return None


if __name__ == "__main__":
    if len(sys.argv) < 2: sys.exit(__doc__)
    misses = collections.Counter()
    for path in sys.argv[1:]:
        for row in csv.DictReader(open(path), delimiter="\t"):
            if row["text"] and write(row["text"], row["kind"], row["flight"]) is None:
                misses[row["form"]] += 1
                print("cannot write", row["form"], "|", row["text"])
    print(dict(misses))

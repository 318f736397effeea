#!/usr/bin/env python3
"""Writes tokenizer-golden.json: the ids Hugging Face's `tokenizers` gives for a table of texts with Whisper tiny.en's
tokenizer.json, for WhisperTokenizerTests. Run once, by hand, when the table changes; the tests never run Python.

    python3 -m venv /tmp/tokvenv && /tmp/tokvenv/bin/pip install tokenizers==0.23.3
    /tmp/tokvenv/bin/python Tests/NeuralFlightScoringTests/Golden/make-tokenizer-golden.py \
        models/whisper-tiny.en/tokenizer.json > Tests/NeuralFlightScoringTests/Golden/tokenizer-golden.json
"""
import json
import sys

import tokenizers

TEXTS = [
    # The forms of TECH-NOTES and the candidates' forms
    " LX 40.", " Lima X-ray 40.", " EY 536.", " L X 40.", " Swiss 40.", " Speedbird 287.", " BA 287.",
    " U2 1234.", " 4U 812.", " 2L 7.", " Uniform 2 1234.", " 2 Lima 7.", " SWR 40.", " LH 400.", " LH four hundred.",
    " LX 0040.", " LX 040.", " Echo Yankee 536.", " Etihad 536.", " British Airways 287.", " easyJet 1234.",
    " easyJet Switzerland 1043.", " KLM 1001.", " K L M 1001.", " Swiss flight 40.", " Flight LX 40.",
    " What's the gate for LX 40?", " I'm on Swiss 40.", " Where is Air France 1?", " AF 1.", " TAP Air Portugal 9.",
    " Aer Lingus 345.", " JetBlue 12.", " IndiGo 9999.", " Wizz Air 4400.", " Whiskey Zulu Zulu 1.",
    " Papa Charlie 2001.", " Quebec Romeo 93.", " X-ray Quebec 1.", " Sierra Kilo 1550.", " L.X. 40.", " B.A. 287.",
    " What is the gate for flight U2 1234?", " Um Lufthansa four thousand four hundred.",
    # Free decodes
    "Alex 40", "An age 1495", "L.A.H. for 100", "LX 40.", "lx forty", "L-X-4-0", "L.X. 40!", "Swiss 40, please.",
    # Digits, long numbers, number words
    "1", "12", "123", "1234", "12345", "123456789", " 0", " 007", "3.14", "1,000", "40s", "forty-two", "two eight seven",
    # White space, contractions, apostrophes, punctuation
    "", " ", "  ", "   LX", "LX  40", "a\tb", "line\nbreak\n", "  \n  x", "it's", "IT'S", "we'll they've I'd you're",
    "'tis", "rock 'n' roll", "don't!", "Hello, world?!", "(LX) [40] {x}", "a--b", "...", " ...?", "#hash @at $5 %6",
    # Beyond ASCII
    "Zürich", " Genève", "naïve café", "Ålesund", "東京", "emoji 🛫 ok", "non\u00a0break", "en–dash", "“quoted”",
]

tokenizer = tokenizers.Tokenizer.from_file(sys.argv[1])
table = [{"text": text, "ids": tokenizer.encode(text, add_special_tokens=False).ids} for text in TEXTS]
# One case a line, so a change shows as the lines of the texts it touches.
print('{"made_by": %s,\n "cases": [' % json.dumps(f"tokenizers {tokenizers.__version__}, make-tokenizer-golden.py"))
print(",\n".join("  " + json.dumps(case, ensure_ascii=False) for case in table))
print(" ]}")

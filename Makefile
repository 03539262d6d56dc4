# ptxlitmus — GNU make build.  `make` builds ./ptxlitmus and nothing else; `make deps` installs the
# Debian packages (scripts/deps.sh); `make check` (deps, then every test: unit tests with Check,
# CLI and suite tests, layers, coverage, the quality gates, the same tests under ASan+UBSan) and
# `make demo` (deps, then a bundled example) are the README's two commands; `make bench` runs
# the benchmarks.
#
# Libraries: build/libptxexec.a is the executor (base/ ptx/ frontend/ptx_* exec/) and needs
# nothing but libm (include/ptxexec.h; checked by check-lib); build/libptxlitmus.a is the rest
# (litmus checker, CLI) and needs Z3, cJSON and libyaml.

CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
# the test programs' own code (tests/test_*.c) after CFLAGS: -O1 keeps gcc's warnings that need
# data flow at a third less compile time than -O2; the code under test keeps CFLAGS
TEST_OPT ?= -O1
override CFLAGS += -std=c17 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -I.
LDLIBS  += -lz3 -lcjson -lyaml -lm -lpthread
BUILD   ?= build

EXEC_SRC := $(wildcard base/*.c ptx/*.c frontend/ptx_*.c exec/*.c)
LIT_SRC  := $(filter-out cli/main.c $(EXEC_SRC), \
              $(wildcard frontend/*.c model/*.c solver/*.c check/*.c kcheck/*.c report/*.c \
                         suite/*.c hw/*.c cli/*.c))
EXEC_OBJ := $(EXEC_SRC:%.c=$(BUILD)/%.o)
LIT_OBJ  := $(LIT_SRC:%.c=$(BUILD)/%.o) $(BUILD)/model_bundled.o
LIBS     := $(BUILD)/libptxlitmus.a $(BUILD)/libptxexec.a
MODELS   := $(wildcard model/*.cat)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || \
                echo -lcheck -lsubunit -lrt -lpthread -lm)

# `make` builds the program (the provenance rules below would otherwise be the first target)
.DEFAULT_GOAL := all

# provenance (report/provenance.c): the git hash, rebuilt only when it changes
GIT_HASH := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
$(shell mkdir -p $(BUILD); [ "$$(cat $(BUILD)/git-hash 2>/dev/null)" = "$(GIT_HASH)" ] || \
        echo "$(GIT_HASH)" > $(BUILD)/git-hash)
$(BUILD)/report/provenance.o: $(BUILD)/git-hash
# the compiler and flags: a build folder built with others (gcc or clang, sanitizers or not) is
# recompiled instead of mixing objects.  The executor's objects are position-independent (they
# also make libptxexec.so, see install below).
EXEC_PIC := -fPIC -fno-semantic-interposition
BUILD_FLAGS := $(CC) $(CFLAGS) / $(EXEC_PIC) / $(TEST_OPT) $(SAN_BUILD)
$(shell [ "$$(cat $(BUILD)/cflags 2>/dev/null)" = "$(BUILD_FLAGS)" ] || \
        echo "$(BUILD_FLAGS)" > $(BUILD)/cflags)
$(EXEC_OBJ) $(LIT_OBJ) $(BUILD)/cli/main.o: $(BUILD)/cflags
$(EXEC_OBJ): override CFLAGS += $(EXEC_PIC)
$(BUILD)/report/provenance.o: override CFLAGS += -DPTX_GIT_HASH='"$(GIT_HASH)"'

.PHONY: all deps check check-all install install-libs uninstall check-unit check-cli check-suites check-asan asan-run demo bench clean \
        check-lib check-layers check-calls coverage check-coverage
all: ptxlitmus

deps:
	@bash scripts/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# the bundled cat models, compiled into the program (scripts/embed.c)
$(BUILD)/embed: scripts/embed.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -o $@ $<

$(BUILD)/model_bundled.c: $(MODELS) $(BUILD)/embed
	$(BUILD)/embed $@ $(MODELS)

$(BUILD)/model_bundled.o: $(BUILD)/model_bundled.c
	$(CC) $(CFLAGS) -c $< -o $@

# (the Makefile is a prerequisite: when the object lists change, the archives are rebuilt
# without stale members)
$(BUILD)/libptxexec.a: $(EXEC_OBJ) Makefile
	@rm -f $@
	ar rcs $@ $(EXEC_OBJ)

$(BUILD)/libptxlitmus.a: $(LIT_OBJ) Makefile
	@rm -f $@
	ar rcs $@ $(LIT_OBJ)

ptxlitmus: $(BUILD)/cli/main.o $(LIBS)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(LIBS) tests/check_main.h $(BUILD)/cflags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TEST_OPT) -pthread -DTEST_FILE='"$<"' -MMD -MP $< $(LIBS) -o $@ \
	  $(LDLIBS) $(CHECK_LIBS)

# The executor library alone: a small C program linked with libptxexec.a and -lm only.
$(BUILD)/tests/exec_standalone: tests/exec_standalone.c $(BUILD)/libptxexec.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(BUILD)/libptxexec.a -o $@ -lm

check-lib: $(BUILD)/tests/exec_standalone
	@$(BUILD)/tests/exec_standalone

# Folders are layers; an include against the layer table of the script fails, and so does a
# call (an undefined symbol of an object) into a folder the table does not allow (objects first);
# inside a folder, no call loop (from the objects' symbols) or include loop among its files, and
# no function over 150 lines without a stated reason (scripts/check_calls.sh; alone: check-calls).
check-layers: $(LIBS) $(BUILD)/cli/main.o
	@bash scripts/check_layers.sh
	@BUILD=$(BUILD) bash scripts/check_calls.sh
	@bash scripts/check_columns.sh

check-calls: $(LIBS) $(BUILD)/cli/main.o
	@BUILD=$(BUILD) bash scripts/check_calls.sh

# docs/coverage.md from the opcode table (ptx/opcodes.def) and the test evidence: every unit
# test binary, run with PTX_EVIDENCE=FILE, appends the opcode-table rows its PTX uses
# (tests/evidence.h: test_isa, test_exec_insn and the executor tests that launch kernels);
# tools/gen_coverage.c writes the page.  check-unit collects the evidence as it runs, so
# `make check` runs the tests once; check-coverage fails when the committed page differs from a
# fresh one.  (tests/run_units.sh runs each binary in one process, CK_FORK=no, with a timeout.)
UNIT_RUN = rm -f $(BUILD)/evidence.txt && PTX_EVIDENCE=$(abspath $(BUILD)/evidence.txt) \
           bash tests/run_units.sh $(TEST_BIN)
COVERAGE_GEN = $(BUILD)/tools/gen_coverage $(BUILD)/evidence.txt > $(BUILD)/coverage.md.tmp && \
               mv $(BUILD)/coverage.md.tmp $(BUILD)/coverage.md
$(BUILD)/tools/gen_coverage: tools/gen_coverage.c $(BUILD)/libptxexec.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(BUILD)/libptxexec.a -o $@ -lm

$(BUILD)/coverage.md: $(BUILD)/tools/gen_coverage $(TEST_BIN)
	@$(UNIT_RUN) > $(BUILD)/coverage-units.log 2>&1 || { cat $(BUILD)/coverage-units.log; exit 1; }
	@$(COVERAGE_GEN)

coverage: $(BUILD)/coverage.md
	@cp $(BUILD)/coverage.md docs/coverage.md
	@echo "docs/coverage.md: $$(tail -n 1 docs/coverage.md)"

check-coverage: $(BUILD)/coverage.md
	@if cmp -s $(BUILD)/coverage.md docs/coverage.md; then \
	  echo "check-coverage: docs/coverage.md is up to date"; \
	else diff -u docs/coverage.md $(BUILD)/coverage.md | head -n 40; \
	  echo "check-coverage: docs/coverage.md is stale: run make coverage and commit it"; \
	  exit 1; fi

# Unit and integration tests; each binary prints Check's summary line.
check-unit: $(TEST_BIN) ptxlitmus $(BUILD)/tools/gen_coverage
	@$(UNIT_RUN)
	@$(COVERAGE_GEN)

# the unit tests, then the page from the evidence they collected (not a second run)
check-unit-coverage: check-unit
	@$(MAKE) --no-print-directory check-coverage

check-cli: ptxlitmus
	@bash tests/cli/run.sh ./ptxlitmus

# Every suite under suites/ against its manifest (the ISA examples, hand-written tests, the
# generated family): exit 0 only when every verdict agrees.
check-suites: ptxlitmus
	@mkdir -p build
	@./ptxlitmus suite --jobs 2 --junit build/suites.xml --json build/suites.json

# The same tests built with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/
# (SAN_MAKE below).
check-asan:
	@$(SAN_MAKE) asan-run

asan-run: $(TEST_BIN) $(BUILD)/ptxlitmus
	@ASAN_OPTIONS=detect_leaks=1 UNIT_LABEL=unit-asan bash tests/run_units.sh $(TEST_BIN)

$(BUILD)/ptxlitmus: $(BUILD)/cli/main.o $(LIBS)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# deps first, alone: nothing is compiled before the packages are there.  Then two halves side by
# side (-j2, one slot per core of the CI machine; -Otarget prints each test family's output
# whole): check-plain, every test against the -O2 build in build/, and check-sanitized, every
# sanitized run against the one ASan+UBSan build in build-asan/.  Make also runs the families
# of each half two at a time when a slot is free.  scripts/check_summary.sh runs check-all with
# TMPDIR under build/ (nothing is left in /tmp), keeps the log in build/check.log and ends with
# one summary line.
check:
	@bash scripts/check_summary.sh $(MAKE)

check-all:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory -j2 -Otarget check-plain check-sanitized

.PHONY: check-plain check-sanitized check-unit-coverage
check-plain:
	@$(MAKE) --no-print-directory check-errors check-atomic check-unit-coverage check-lib \
	  check-cli check-suites check-layers

check-sanitized:
	@$(SAN_MAKE) FUZZ_SMOKE_SECONDS=$(CHECK_FUZZ_SECONDS) run-fuzz-regress run-errors-asan asan-run \
	  fuzz-smoke-run

demo:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory ptxlitmus
	./ptxlitmus verify suites/isa/MP.litmus

# make install PREFIX=/usr/local (DESTDIR for staging): the program, its man page, the
# executor's C API (include/ptxexec.h) as static and shared library, and ptxlitmus.pc
# (pkg-config --cflags --libs ptxlitmus).  The shared library is linked from the objects of
# libptxexec.a: the executor is always compiled position-independent, with
# -fno-semantic-interposition so that calls inside the library are still inlined and direct
# (a second -fPIC compilation of the executor cost 17 s of CPU in every make check).
PREFIX  ?= /usr/local
DESTDIR ?=

$(BUILD)/libptxexec.so: $(BUILD)/libptxexec.a
	$(CC) -shared -Wl,-soname,libptxexec.so -o $@ -Wl,--whole-archive $< \
	  -Wl,--no-whole-archive -lm

$(BUILD)/ptxlitmus.pc: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include' 'libdir=$${prefix}/lib' '' \
	  'Name: ptxlitmus' 'Description: PTX executor C API of ptxlitmus (ptxexec.h)' \
	  'Version: $(shell sed -n 's/.*PTXLITMUS_VERSION "\(.*\)"/\1/p' base/version.h)' \
	  'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lptxexec' 'Libs.private: -lm' > $@

install: ptxlitmus $(LIBS) $(BUILD)/libptxexec.so $(BUILD)/ptxlitmus.pc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 ptxlitmus $(DESTDIR)$(PREFIX)/bin/ptxlitmus
	install -m 644 docs/ptxlitmus.1 $(DESTDIR)$(PREFIX)/share/man/man1/ptxlitmus.1
	install -m 644 include/ptxexec.h $(DESTDIR)$(PREFIX)/include/ptxexec.h
	install -m 644 $(BUILD)/libptxexec.a $(BUILD)/libptxlitmus.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libptxexec.so $(DESTDIR)$(PREFIX)/lib/libptxexec.so
	install -m 644 $(BUILD)/ptxlitmus.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/ptxlitmus.pc

FORCE:

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ptxlitmus $(DESTDIR)$(PREFIX)/share/man/man1/ptxlitmus.1 \
	  $(DESTDIR)$(PREFIX)/include/ptxexec.h $(DESTDIR)$(PREFIX)/lib/libptxexec.a \
	  $(DESTDIR)$(PREFIX)/lib/libptxlitmus.a $(DESTDIR)$(PREFIX)/lib/libptxexec.so \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig/ptxlitmus.pc

bench: ptxlitmus
	@bash bench/run.sh

clean:
	rm -rf build build-asan ptxlitmus

-include $(EXEC_OBJ:.o=.d) $(LIT_OBJ:.o=.d) $(BUILD)/cli/main.d $(TEST_BIN:=.d)

# --- quality gates ---------------------------------------------------------------------------
# Error catalogue, fuzzing, fuzz regressions and valgrind (docs/reliability.md).
#   make check-errors            the error catalogue tests/errors/ against ./ptxlitmus
#   make check-fuzz-regress      replay fuzz/regressions/<target>/ under ASan+UBSan
#   make check-atomic            killed runs leave no truncated output file (tests/cli/atomic.sh)
#   make check-quality           all of these, the catalogue also against the ASan+UBSan binary,
#                                and fuzz-smoke-ci (all of them are part of `make check`)
#   make fuzz [FUZZ_SECONDS=60]  run every libFuzzer target (clang) for FUZZ_SECONDS each
#   make fuzz-smoke              every target for FUZZ_SMOKE_SECONDS (CI: fuzz-smoke-ci, in
#                                make check, says it is skipped where clang lacks libFuzzer)
#   make check-valgrind          the CLI on the bundled suites under valgrind (no invalid access,
#                                no definitely-lost memory)
QG_CFLAGS   := -std=c17 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -I.
SAN_FLAGS   := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
FUZZ_CC     ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5
# the smoke run's budget per target inside make check (make fuzz-smoke: FUZZ_SMOKE_SECONDS):
# every target runs its first 32 seeds (before the budget counts), then mutates for 1 s
CHECK_FUZZ_SECONDS ?= 1
FUZZ_TARGETS := litmus litmus_parse cond manifest spec ptx exec cat frontends
FUZZ_OUT    := fuzz/out
VALGRIND    ?= valgrind

# One sanitizer build, build-asan/, serves every sanitized run (line tables only: a report's
# stack names files and lines, and the build is a fifth cheaper than with full -g): the unit
# tests (check-asan), the error catalogue (check-errors-asan), the fuzz regressions and the
# libFuzzer targets.  -O1, not -O0: -O0 compiles the libraries in half the CPU time (35 s
# against 68 s), but its ASan frames are so large that the 1 000 nesting levels the cat parser
# accepts overflow the 8 MB stack (fuzz/regressions/cat).  Where clang has libFuzzer it is
# clang with -fsanitize=fuzzer-no-link (a program with its own main() links those objects as
# well as a libFuzzer target does); elsewhere gcc, and the libFuzzer targets are skipped.
# SAN_FUZZ=yes tells the sub-make which.
HAVE_LIBFUZZER = $(shell printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) \
                   { return 0; }\n' | $(FUZZ_CC) -fsanitize=fuzzer -x c - -o /dev/null \
                   2>/dev/null && echo yes)
SAN_MAKE = $(MAKE) --no-print-directory BUILD=build-asan SAN_BUILD=yes TEST_OPT=-O0 \
             $(if $(HAVE_LIBFUZZER), \
             CC=$(FUZZ_CC) SAN_FUZZ=yes \
             CFLAGS="-O1 -gline-tables-only -fsanitize=fuzzer-no-link $(SAN_FLAGS) $(QG_CFLAGS)", \
             CFLAGS="-O1 -g1 $(SAN_FLAGS) $(QG_CFLAGS)")
# In the sanitizer build, the code off the hot paths and away from deep recursion is compiled at
# -O0 (the same checks, at a quarter of the compile time of -O1): the test programs' own code
# (TEST_OPT) and the folders above the checker (check report suite hw cli).  The libraries below
# them (base ptx frontend exec model solver) stay at -O1: the executor's and the solver's loops
# run in every sanitized test, and the parsers and the cat evaluator recurse 1 000 levels deep.
# (private: the objects of a test program's prerequisites keep their own flags.)
ifeq ($(SAN_BUILD),yes)
SAN_O0_OBJ := $(filter $(foreach d,check report suite hw cli,$(BUILD)/$(d)/%),$(LIT_OBJ)) \
              $(BUILD)/cli/main.o
$(SAN_O0_OBJ): private override CFLAGS += -O0
endif

.PHONY: check-quality check-errors check-errors-asan check-fuzz-regress fuzz-replay-bins \
        fuzz fuzz-build fuzz-bins fuzz-smoke fuzz-smoke-ci check-valgrind check-atomic \
        run-fuzz-regress run-errors-asan fuzz-smoke-run

check-quality: ptxlitmus
	@$(MAKE) --no-print-directory check-errors
	@$(MAKE) --no-print-directory check-atomic
	@$(SAN_MAKE) run-fuzz-regress run-errors-asan fuzz-smoke-run

check-atomic: ptxlitmus
	@bash tests/cli/atomic.sh ./ptxlitmus

check-errors: ptxlitmus
	@bash tests/cli/errors.sh ./ptxlitmus

check-errors-asan:
	@$(SAN_MAKE) run-errors-asan

check-fuzz-regress:
	@$(SAN_MAKE) run-fuzz-regress

# CI: the smoke run of every fuzz target where clang has libFuzzer, a notice otherwise
fuzz-smoke-ci:
	@$(SAN_MAKE) fuzz-smoke-run

# (the run-* targets are made by SAN_MAKE: $(BUILD) is build-asan there)
run-errors-asan: $(BUILD)/ptxlitmus
	@ASAN_OPTIONS=detect_leaks=1 CHECK_LABEL=errors-asan ERRORS_LITMUS_BATCH_ONLY=1 \
	  bash tests/cli/errors.sh $(BUILD)/ptxlitmus

# (with libFuzzer the libFuzzer targets replay the folder themselves: -runs=0 runs each input
# once and fuzzes nothing; without, the targets linked with fuzz/replay.c)
run-fuzz-regress: $(if $(SAN_FUZZ),fuzz-bins,fuzz-replay-bins)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p fuzz/regressions/$$t; \
	  printf 'fuzz-regress %-7s ' $$t; \
	  if [ -n "$(SAN_FUZZ)" ]; then \
	    ASAN_OPTIONS=detect_leaks=1 $(FUZZ_OUT)/fuzz_$$t -runs=0 fuzz/regressions/$$t \
	      > $(BUILD)/fuzz-regress-$$t.log 2>&1 || { cat $(BUILD)/fuzz-regress-$$t.log; exit 1; }; \
	    echo "replay: $$(ls fuzz/regressions/$$t | wc -l) inputs, no crash"; \
	  else ASAN_OPTIONS=detect_leaks=1 $(BUILD)/fuzz/replay_$$t fuzz/regressions/$$t; fi; \
	done

# every target for FUZZ_SMOKE_SECONDS, two at a time (one per core: run alone at the end of
# check-sanitized, one after the other left a core idle for half a minute); each prints one line
FUZZ_SMOKE_ALL = printf '%s\n' $(FUZZ_TARGETS) | xargs -P 2 -I{} env FUZZ_BUDGET_CHECK=1 \
                   bash fuzz/run.sh {} $(FUZZ_SMOKE_SECONDS) -seed=1
fuzz-smoke-run: $(if $(SAN_FUZZ),fuzz-bins)
	@if [ -n "$(SAN_FUZZ)" ]; then $(FUZZ_SMOKE_ALL); \
	else echo "fuzz-smoke: skipped ($(FUZZ_CC) with -fsanitize=fuzzer not available)"; fi

fuzz-replay-bins: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)

$(BUILD)/fuzz/replay_%: fuzz/fuzz_%.c fuzz/replay.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) fuzz/fuzz_$*.c fuzz/replay.c $(LIBS) -o $@ $(LDLIBS)

# libFuzzer binaries in fuzz/out/, linked with the libraries of build-asan/
fuzz-build:
	@if [ -z "$(HAVE_LIBFUZZER)" ]; then \
	  echo "fuzz-build: $(FUZZ_CC) with -fsanitize=fuzzer not available (make deps)"; exit 1; fi
	@$(SAN_MAKE) fuzz-bins

fuzz-bins: $(FUZZ_TARGETS:%=$(FUZZ_OUT)/fuzz_%)

$(FUZZ_OUT)/fuzz_%: fuzz/fuzz_%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer fuzz/fuzz_$*.c $(LIBS) -o $@ $(LDLIBS)

fuzz: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do bash fuzz/run.sh $$t $(FUZZ_SECONDS); done

fuzz-smoke: fuzz-build
	@$(FUZZ_SMOKE_ALL)

check-valgrind: ptxlitmus
	@bash tests/cli/valgrind.sh $(VALGRIND) ./ptxlitmus
# --- end of quality gates --------------------------------------------------------------------

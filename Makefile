# ptxlitmus — GNU make build.  `make` builds ./ptxlitmus, `make check` runs every test
# (unit tests with Check, CLI and suite tests; the same tests again under ASan+UBSan),
# `make demo` verifies a bundled example, `make bench` runs the benchmarks.

CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
override CFLAGS += -std=c17 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -I.
LDLIBS  += -lz3 -lcjson -lyaml -lm
BUILD   ?= build

SRC_DIRS := base ptx frontend model solver litmus exec cli
LIB_SRC  := $(filter-out litmus/main.c,$(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c)))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lpthread -lm)

.PHONY: all deps check check-unit check-cli check-suites check-asan asan-run demo bench clean
all: deps ptxlitmus

deps:
	@bash scripts/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libptxlitmus.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

ptxlitmus: $(BUILD)/litmus/main.o $(BUILD)/libptxlitmus.a
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(BUILD)/libptxlitmus.a tests/check_main.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DTEST_FILE='"$<"' -MMD -MP $< $(BUILD)/libptxlitmus.a -o $@ $(LDLIBS) $(CHECK_LIBS)

# Unit and integration tests; each binary prints Check's summary line.
check-unit: $(TEST_BIN) ptxlitmus
	@bash tests/run_units.sh $(TEST_BIN)

check-cli: ptxlitmus
	@bash tests/cli/run.sh ./ptxlitmus

# Every suite under suites/ against its manifest (the ISA examples, hand-written tests, the
# generated family): exit 0 only when every verdict agrees.
check-suites: ptxlitmus
	@mkdir -p build
	@./ptxlitmus suite --jobs 2 --junit build/suites.xml --json build/suites.json

# The same tests built with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/.
check-asan:
	@$(MAKE) --no-print-directory BUILD=build-asan OPT=-O1 \
	  CFLAGS="-O1 -g $(SAN_FLAGS) $(QG_CFLAGS)" \
	  LDFLAGS="-fsanitize=address,undefined" PTX_BIN=build-asan/ptxlitmus asan-run

asan-run: $(TEST_BIN) $(BUILD)/ptxlitmus
	@CK_FORK=no ASAN_OPTIONS=detect_leaks=1 bash tests/run_units.sh $(TEST_BIN)

$(BUILD)/ptxlitmus: $(BUILD)/litmus/main.o $(BUILD)/libptxlitmus.a
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

check: deps check-quality
	@$(MAKE) --no-print-directory check-unit check-cli check-suites
	@$(MAKE) --no-print-directory check-asan

demo: all
	./ptxlitmus verify suites/isa/MP.litmus

bench: all
	@bash bench/run.sh

clean:
	rm -rf build build-asan ptxlitmus

-include $(LIB_OBJ:.o=.d) $(BUILD)/litmus/main.d

# --- quality gates ---------------------------------------------------------------------------
# Error catalogue, fuzzing, fuzz regressions and valgrind (docs/reliability.md).
#   make check-errors            the error catalogue tests/errors/ against ./ptxlitmus
#   make check-fuzz-regress      replay fuzz/regressions/<target>/ under gcc ASan+UBSan (no clang)
#   make check-atomic            killed runs leave no truncated output file (tests/cli/atomic.sh)
#   make check-quality           all of these, the catalogue also against the ASan+UBSan binary,
#                                and fuzz-smoke-ci (part of `make check`)
#   make fuzz [FUZZ_SECONDS=60]  run every libFuzzer target (clang) for FUZZ_SECONDS each
#   make fuzz-smoke              every target for FUZZ_SMOKE_SECONDS (CI: fuzz-smoke-ci, in
#                                check-quality, skips it where clang lacks libFuzzer)
#   make check-valgrind          the CLI on the bundled suites under valgrind (no invalid access,
#                                no definitely-lost memory)
QG_CFLAGS   := -std=c17 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -I.
SAN_FLAGS   := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
FUZZ_CC     ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_TARGETS := litmus litmus_parse cond manifest spec ptx exec
FUZZ_OUT    := fuzz/out
VALGRIND    ?= valgrind

.PHONY: check-quality check-errors check-errors-asan check-fuzz-regress fuzz-replay-bins \
        fuzz fuzz-build fuzz-bins fuzz-smoke fuzz-smoke-ci check-valgrind check-atomic

# one after another: check-fuzz-regress and check-errors-asan both build in build-asan/
check-quality: ptxlitmus
	@$(MAKE) --no-print-directory check-errors
	@$(MAKE) --no-print-directory check-atomic
	@$(MAKE) --no-print-directory check-fuzz-regress
	@$(MAKE) --no-print-directory check-errors-asan
	@$(MAKE) --no-print-directory fuzz-smoke-ci

check-atomic: ptxlitmus
	@bash tests/cli/atomic.sh ./ptxlitmus

# CI: the smoke run of every fuzz target where clang has libFuzzer, a notice otherwise
fuzz-smoke-ci:
	@if printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' | \
	    $(FUZZ_CC) -fsanitize=fuzzer -x c - -o /dev/null 2>/dev/null; then \
	  $(MAKE) --no-print-directory fuzz-smoke; \
	else echo "fuzz-smoke: skipped ($(FUZZ_CC) with -fsanitize=fuzzer not available)"; fi

check-errors: ptxlitmus
	@bash tests/cli/errors.sh ./ptxlitmus

check-errors-asan:
	@$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="-O1 -g $(SAN_FLAGS) $(QG_CFLAGS)" build-asan/ptxlitmus
	@ASAN_OPTIONS=detect_leaks=1 bash tests/cli/errors.sh build-asan/ptxlitmus

check-fuzz-regress:
	@$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="-O1 -g $(SAN_FLAGS) $(QG_CFLAGS)" fuzz-replay-bins
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p fuzz/regressions/$$t; \
	  printf 'fuzz-regress %-7s ' $$t; \
	  ASAN_OPTIONS=detect_leaks=1 build-asan/fuzz/replay_$$t fuzz/regressions/$$t; \
	done

fuzz-replay-bins: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)

$(BUILD)/fuzz/replay_%: fuzz/fuzz_%.c fuzz/replay.c $(BUILD)/libptxlitmus.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) fuzz/fuzz_$*.c fuzz/replay.c $(BUILD)/libptxlitmus.a -o $@ $(LDLIBS)

# libFuzzer binaries: the library built with clang + coverage in fuzz/out/build
fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_OUT)/build CC=$(FUZZ_CC) \
	  CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined $(QG_CFLAGS)" fuzz-bins

fuzz-bins: $(FUZZ_TARGETS:%=$(FUZZ_OUT)/fuzz_%)

$(FUZZ_OUT)/fuzz_%: fuzz/fuzz_%.c $(BUILD)/libptxlitmus.a
	$(CC) $(CFLAGS) -fsanitize=fuzzer fuzz/fuzz_$*.c $(BUILD)/libptxlitmus.a -o $@ $(LDLIBS)

fuzz: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do bash fuzz/run.sh $$t $(FUZZ_SECONDS); done

fuzz-smoke: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do bash fuzz/run.sh $$t $(FUZZ_SMOKE_SECONDS) -seed=1; done

check-valgrind: ptxlitmus
	@bash tests/cli/valgrind.sh $(VALGRIND) ./ptxlitmus
# --- end of quality gates --------------------------------------------------------------------

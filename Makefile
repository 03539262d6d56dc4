# ptxlitmus — GNU make build.  `make` builds ./ptxlitmus, `make check` runs every test
# (unit tests with Check, CLI and suite tests; the same tests again under ASan+UBSan),
# `make demo` verifies a bundled example, `make bench` runs the benchmarks.

CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
CFLAGS  += -std=c17 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -I. 
LDLIBS  += -lz3 -lcjson -lyaml -lm
BUILD   ?= build

SRC_DIRS := frontend model solver litmus exec
LIB_SRC  := $(filter-out litmus/main.c,$(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c)))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lpthread -lm)

.PHONY: all deps check check-unit check-cli check-asan demo bench clean
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

# The same tests built with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/.
check-asan:
	@$(MAKE) --no-print-directory BUILD=build-asan OPT=-O1 \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" PTX_BIN=build-asan/ptxlitmus asan-run

asan-run: $(TEST_BIN) $(BUILD)/ptxlitmus
	@CK_FORK=no ASAN_OPTIONS=detect_leaks=1 bash tests/run_units.sh $(TEST_BIN)

$(BUILD)/ptxlitmus: $(BUILD)/litmus/main.o $(BUILD)/libptxlitmus.a
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

check: deps
	@$(MAKE) --no-print-directory check-unit check-cli
	@$(MAKE) --no-print-directory check-asan

demo: all
	./ptxlitmus verify suites/isa/MP.litmus

bench: all
	@bash bench/run.sh

clean:
	rm -rf build build-asan ptxlitmus

-include $(LIB_OBJ:.o=.d) $(BUILD)/litmus/main.d

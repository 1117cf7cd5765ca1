# ocsolve - GNU Make build. `make help` lists the targets.
# Dependencies are Debian packages; `make deps` installs what is missing
# (as root), and every target that compiles runs it first.

CC       := gcc
CPPFLAGS := -D_GNU_SOURCE
WARN     := -Wall -Wextra -Werror
CFLAGS   := -std=c11 -O3 -march=native -fopenmp $(WARN)
SANFLAGS := -std=c11 -O1 -g -fopenmp -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all $(WARN)
TSANFLAGS := -std=c11 -O1 -g -fopenmp -fsanitize=thread $(WARN)
DEB_PKGS := libxxhash-dev libcriterion-dev

# engine -> tables -> solver: the library every program links.
LIB_SRC  := $(wildcard engine/*.c) $(wildcard tables/*.c) $(filter-out solver/main.c,$(wildcard solver/*.c))
TEST_SRC := $(wildcard tests/*.c)
HEADERS  := $(wildcard engine/*.h tables/*.h solver/*.h tests/*.h)

B := build
S := build/san

.PHONY: all deps test solve bench sanitize help clean

all: $(B)/ocsolve

help:
	@echo "make            build build/ocsolve (runs deps first)"
	@echo "make deps       install missing Debian packages: $(DEB_PKGS)"
	@echo "make test       build and run the Criterion tests"
	@echo "make solve      the main job: solve the empty board, all cores, checkpointed and resumed"
	@echo "                (SOLVE_THREADS, SOLVE_TT_MB, SOLVE_SECONDS, SOLVE_CKPT override the defaults)"
	@echo "make bench      the benchmark"
	@echo "make sanitize   build with ASan+UBSan and run the tests against it"
	@echo "make clean      remove build/"

deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "make deps: installing$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 2; \
	  else echo "make deps: missing Debian packages:$$missing; run 'sudo make deps'" >&2; exit 2; fi; \
	fi

# --- release build ---
$(B)/%.o: %.c $(HEADERS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/libocsolve.a: $(LIB_SRC:%.c=$(B)/%.o)
	ar rcs $@ $^

$(B)/ocsolve: $(B)/solver/main.o $(B)/libocsolve.a
	$(CC) $(CFLAGS) $^ -lm -o $@

$(B)/tests/%.o: CPPFLAGS += -DOCSOLVE_BIN='"$(abspath $(B)/ocsolve)"'
$(B)/run-tests: $(TEST_SRC:%.c=$(B)/%.o) $(B)/libocsolve.a
	$(CC) $(CFLAGS) $^ -lcriterion -pthread -lm -o $@

test: $(B)/ocsolve $(B)/run-tests
	$(B)/run-tests --jobs 2

# --- sanitizer build: the same tests against an ASan+UBSan ocsolve ---
$(S)/%.o: %.c $(HEADERS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(SANFLAGS) -c $< -o $@

$(S)/libocsolve.a: $(LIB_SRC:%.c=$(S)/%.o)
	ar rcs $@ $^

$(S)/ocsolve: $(S)/solver/main.o $(S)/libocsolve.a
	$(CC) $(SANFLAGS) $^ -lm -o $@

$(S)/tests/%.o: CPPFLAGS += -DOCSOLVE_BIN='"$(abspath $(S)/ocsolve)"' -DOCS_SANITIZE
$(S)/run-tests: $(TEST_SRC:%.c=$(S)/%.o) $(S)/libocsolve.a
	$(CC) $(SANFLAGS) $^ -lcriterion -pthread -lm -o $@

# ThreadSanitizer on standalone threaded programs (Criterion cannot run under TSan).
TSAN_SRC := $(wildcard tests/tsan/*.c)
$(S)/tsan/%: tests/tsan/%.c $(LIB_SRC) $(HEADERS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(TSANFLAGS) $< $(LIB_SRC) -pthread -lm -o $@

sanitize: $(S)/ocsolve $(S)/run-tests $(TSAN_SRC:tests/tsan/%.c=$(S)/tsan/%)
	LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp) $(S)/run-tests --jobs 2
	@for t in $(TSAN_SRC:tests/tsan/%.c=$(S)/tsan/%); do echo "TSan: $$t"; TSAN_OPTIONS=halt_on_error=1 $$t || exit 1; done

# --- jobs ---
# The main job: the empty 6x6 board under the original rules, on every core,
# with half the machine's memory (at most 16 GiB) for the table, progress on
# stderr and in a CSV log, and a checkpoint every 5 minutes (and on Ctrl-C)
# that the next `make solve` resumes. SOLVE_SECONDS bounds one run (empty:
# until solved).
SOLVE_THREADS ?= $(shell nproc)
SOLVE_TT_MB   ?= $(shell awk '/MemTotal/ { m = int($$2 / 2048); print (m > 16384 ? 16384 : m) }' /proc/meminfo)
SOLVE_SECONDS ?=
SOLVE_CKPT    ?= results/solve-empty.ckpt
solve: $(B)/ocsolve
	@mkdir -p results
	$(B)/ocsolve solve --threads $(SOLVE_THREADS) --tt-mb $(SOLVE_TT_MB) $(if $(SOLVE_SECONDS),--time-limit $(SOLVE_SECONDS)) \
	  --checkpoint $(SOLVE_CKPT) $(if $(wildcard $(SOLVE_CKPT)),--resume $(SOLVE_CKPT)) \
	  --log results/solve-empty-progress.csv --json > results/solve-empty-latest.json; \
	  rc=$$?; cat results/solve-empty-latest.json; exit $$rc

bench: $(B)/ocsolve
	@echo "The bench workload is issue #5; for now: the full-visit hot path, perft 5."
	$(B)/ocsolve perft --method full 5

clean:
	rm -rf $(B)

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
	@echo "make solve      the main job: solve the empty board (SOLVE_SECONDS=600, SOLVE_TT_MB=4096)"
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
# The main job: the empty 6x6 board under the original rules. Parallel
# search, checkpoints and resume are issue #4; until then one bounded run.
SOLVE_SECONDS ?= 600
SOLVE_TT_MB   ?= 4096
solve: $(B)/ocsolve
	@mkdir -p results
	$(B)/ocsolve solve --tt-mb $(SOLVE_TT_MB) --time-limit $(SOLVE_SECONDS) --json | tee results/solve-empty-latest.json

bench: $(B)/ocsolve
	@echo "The bench workload is issue #5; for now: the full-visit hot path, perft 5."
	$(B)/ocsolve perft --method full 5

clean:
	rm -rf $(B)

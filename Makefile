# ocsolve - GNU Make build. `make help` lists the targets.
# Dependencies are Debian packages; `make deps` installs what is missing
# (as root), and every target that compiles runs it first.

CC       := gcc
CPPFLAGS := -D_GNU_SOURCE
WARN     := -Wall -Wextra -Werror
# ARCH: the CPU the build is for. native (the default) uses every
# instruction this machine has, and the binary may not run on another CPU;
# on a cluster of mixed machines build once with a portable level that
# every node has, e.g. make ARCH=x86-64-v2 B=build-v2 (SSE4.2 and POPCNT,
# any x86-64 since about 2009); results/jobs/mpi-cluster.md measures its cost.
# TUNE (optional) is gcc's -mtune: which CPU to schedule the code for,
# without using its instructions, so the binary still runs on every
# ARCH machine (e.g. ARCH=x86-64-v2 TUNE=znver3 for a cluster of mostly
# AMD Zen 3 nodes with a few older ones).
ARCH     ?= native
TUNE     ?=
ifeq ($(shell echo '$(ARCH)' | grep -Ex '[A-Za-z0-9_.-]+'),)
$(error ARCH '$(ARCH)': a gcc -march value such as native, x86-64-v2 or x86-64-v3)
endif
ifneq ($(TUNE),)
ifeq ($(shell echo '$(TUNE)' | grep -Ex '[A-Za-z0-9_.-]+'),)
$(error TUNE '$(TUNE)': a gcc -mtune value such as generic or znver3)
endif
endif
CFLAGS   := -std=c11 -O3 -march=$(ARCH) $(if $(TUNE),-mtune=$(TUNE)) -fopenmp $(WARN)
SANFLAGS := -std=c11 -O1 -g -fopenmp -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all $(WARN)
TSANFLAGS := -std=c11 -O1 -g -fopenmp -fsanitize=thread $(WARN)
O0FLAGS  := -std=c11 -O0 -fopenmp $(WARN)
# Libraries every program links: LMDB for the store of decided positions (tables/store.h).
LIBS     := -llmdb -lm
# iproute2: ip netns, for the namespace cluster of tests/test_netns.c (scripts/netns-cluster).
DEB_PKGS := libxxhash-dev libcriterion-dev gnuplot-nox liblmdb-dev openmpi-bin libopenmpi-dev iproute2
# ocsolve serve: libmicrohttpd (the HTTP server); curl and chromium for its
# tests (the API through a real client, the page in a real headless browser).
DEB_PKGS += libmicrohttpd-dev curl chromium
# What the ocsolve command links besides LIBS: the HTTP server of ocsolve serve.
SERVE_LIBS := -lmicrohttpd -pthread
# build/ocsolve-mpi (jobs across machines) is compiled with the MPI wrapper (gcc underneath).
MPICC    := mpicc

# The library every program links: engine -> tables -> solver, the verifier
# (verify/, apart from the solver) and the bench's measurements (bench/).
# No option parsing, no printing for people, no exit: that is app/.
LIB_SRC  := $(wildcard engine/*.c tables/*.c solver/*.c verify/*.c bench/*.c)
LIB_SRC  += $(wildcard jobs/*.c)
# The MPI parts go only into build/ocsolve-mpi: build/ocsolve must not need MPI.
MPI_SRC  := jobs/mpi_transport.c app/main_mpi.c
LIB_SRC  := $(filter-out $(MPI_SRC),$(LIB_SRC))
# The ocsolve command: main.c, option handling and one cmd_*.c per subcommand.
CMD_SRC  := $(wildcard app/*.c)
CMD_SRC  := $(filter-out $(MPI_SRC),$(CMD_SRC))
# ocsolve serve's parts, kept out of build/ocsolve-mpi (which runs jobs only),
# and its page (web/), embedded into the binary: scripts/embed-web writes
# BUILD/gen/web_assets.c (app/serve_assets.h).
SERVE_SRC := $(wildcard app/serve_*.c) app/cmd_serve.c
WEB_SRC  := web/index.html web/board.css web/board.js
TEST_SRC := $(wildcard tests/*.c)
HEADERS  := $(wildcard engine/*.h tables/*.h solver/*.h verify/*.h bench/*.h app/*.h tests/*.h)
HEADERS  += $(wildcard jobs/*.h)
# Each object depends on the headers it includes, as gcc lists them
# (-MMD: FILE.d beside FILE.o; -MP: a header removed is no error), so
# touching a header rebuilds only what includes it. The TSan programs,
# built in one step from every source, still depend on every header.
DEPFLAGS := -MMD -MP
# What the tests need to know about the tree.
TEST_DEFS := -DOCS_SIGNATURE_FILE='"$(abspath bench/signature.txt)"'

B := build
S := build/san
O := build/o0

.PHONY: serve serve-screenshot bench-opening all deps test layout-check solve solve-search solve-opening solve-within solve-monolithic solve-tt-mb bench bench-check bench-check-quick sanitize help clean

all: $(B)/ocsolve $(B)/ocsolve-mpi

help:
	@echo "make            build build/ocsolve and build/ocsolve-mpi (runs deps first)"
	@echo "                ocsolve-mpi: 'ocsolve jobs' across machines, mpirun -np N build/ocsolve-mpi jobs ..."
	@echo "make ARCH=x86-64-v2 B=build-v2  a portable build for mixed clusters (default ARCH=native)"
	@echo "make deps       install missing Debian packages: $(DEB_PKGS)"
	@echo "make test       build and run the Criterion tests (.ci/run: make test, then make bench-check-quick)"
	@echo "make solve      the main job: decide the empty 6x6 board (RULES=original|exact|exact-end),"
	@echo "                write and verify its certificate, print the verdict (scripts/solve-claim);"
	@echo "                into work/runs/ (RECORD=1: into results/claims/, earlier runs kept)"
	@echo "make solve-search  pure search (no lemma) from the empty board: job-level search with a"
	@echo "                store and certificates in work/search-RULES, resumed by running it again"
	@echo "                (SOLVE_THREADS, SOLVE_SECONDS, SEARCH_TT_MB, SEARCH_DIR; scripts/solve-search);"
	@echo "                its report in SEARCH_DIR (RECORD=1: results/search/search-RULES.md, earlier runs kept)"
	@echo "make solve-opening MOVE=Xa1  one opening by the job-level search, resumable on another machine:"
	@echo "                store and journal snapshots in results/openings/RULES-MOVE/ (commit them),"
	@echo "                certificates made at the end (SOLVE_SECONDS; scripts/solve-opening)"
	@echo "make solve-within D=15 [MOVE=Xa1]  can Order force a line within D plies (jobs --within D),"
	@echo "                resumable the same way: snapshots in results/openings/RULES[-MOVE]-within-D/"
	@echo "make solve-monolithic  the same by one df-pn with a checkpoint (SOLVE_TT_MB, SOLVE_CKPT)"
	@echo "make bench      the benchmark, with BENCH_THREADS=$(BENCH_THREADS) threads for the parallel figures"
	@echo "make bench-check the bench signature of an -O0 build (build/o0/ocsolve) and of the -O3"
	@echo "                build, both against bench/signature.txt (the solver part only, ~2 min)"
	@echo "make bench-check-quick  the quick workload's signature of the -O0 build (CI runs it)"
	@echo "make bench-opening  the harder opening tier (positions 2-6 plies from the empty board,"
	@echo "                1 GiB table, ~10 min), checked against its signature in bench/signature.txt"
	@echo "make layout-check  the folders' include and no-exit rules, the README's layout, results/ rooms,"
	@echo "                no name defined twice (scripts/check-layout, check-names; make test runs it first)"
	@echo "make sanitize   build with ASan+UBSan and run the tests against it"
	@echo "make serve      the analysis board: build/ocsolve serve (SERVE_ARGS='--port P --think S --store DIR')"
	@echo "make serve-screenshot  the browser test, saving its screenshots into results/serve/"
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
$(B)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/libocsolve.a: $(LIB_SRC:%.c=$(B)/%.o)
	rm -f $@ && ar rcs $@ $^

# The page, embedded (one rule per build folder: the flags differ).
%/gen/web_assets.c: $(WEB_SRC) scripts/embed-web
	@mkdir -p $(dir $@)
	scripts/embed-web $(WEB_SRC) > $@.tmp && mv $@.tmp $@

$(B)/gen/web_assets.o: $(B)/gen/web_assets.c
	$(CC) $(CPPFLAGS) -I. $(CFLAGS) -c $< -o $@

$(B)/ocsolve: $(CMD_SRC:%.c=$(B)/%.o) $(B)/gen/web_assets.o $(B)/libocsolve.a
	$(CC) $(CFLAGS) $^ $(LIBS) $(SERVE_LIBS) -o $@

$(B)/tests/%.o: CPPFLAGS += -DOCSOLVE_BIN='"$(abspath $(B)/ocsolve)"' $(TEST_DEFS)
$(B)/tests/%.o: CPPFLAGS += -DOCSOLVE_MPI_BIN='"$(abspath $(B)/ocsolve-mpi)"' -DOCS_HOSTILE_RANK0='"$(abspath $(B)/hostile_rank0)"'
$(B)/tests/%.o: CPPFLAGS += -DOCS_SCREENSHOT_DIR_DEFAULT='"$(abspath $(B))"'
$(B)/tests/%.o: CPPFLAGS += -DOCS_NETWIRE_BIN='"$(abspath $(B)/netwire)"' -DOCS_NETNS_CLUSTER='"$(abspath scripts/netns-cluster)"'
$(B)/run-tests: $(TEST_SRC:%.c=$(B)/%.o) $(B)/libocsolve.a
	$(CC) $(CFLAGS) $^ -lcriterion -pthread $(LIBS) -o $@

# The build runs on every core (the README's `make test` has no -j, and a
# fresh clone's serial build took about two of its minutes); the tests run
# two at a time.
NPROC := $(shell nproc 2>/dev/null || echo 2)
test: layout-check
	$(MAKE) -j$(NPROC) $(B)/ocsolve $(B)/ocsolve-mpi $(B)/hostile_rank0 $(B)/netwire $(B)/run-tests
	$(B)/run-tests --jobs 2

# The slow, lossy cable of the namespace cluster (scripts/netns-cluster
# --lossy; tests/net/netwire.c): a test tool, linked with nothing of ours.
$(B)/netwire: tests/net/netwire.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $< -o $@

# --- build/ocsolve-mpi: the same command objects but main.o, the MPI
# objects, the library ---
$(MPI_SRC:%.c=$(B)/%.o): $(B)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(MPICC) $(CPPFLAGS) $(DEPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/ocsolve-mpi: $(MPI_SRC:%.c=$(B)/%.o) $(filter-out $(B)/app/main.o $(SERVE_SRC:%.c=$(B)/%.o),$(CMD_SRC:%.c=$(B)/%.o)) $(B)/libocsolve.a
	$(MPICC) $(CFLAGS) $^ $(LIBS) -pthread -o $@

# A rank 0 that breaks the protocol, for the worker loop (test_mpi.c).
$(B)/hostile_rank0: tests/mpi/hostile_rank0.c $(B)/jobs/mpi_transport.o $(B)/libocsolve.a | deps
	$(MPICC) $(CPPFLAGS) $(CFLAGS) $^ $(LIBS) -pthread -o $@

# The folders' rules (README, Layout): who may include whom, that nothing
# below app/ exits, parses options or prints for people, that the README
# names every source file and results/ holds rooms (scripts/check-layout);
# and one meaning per name: no file-scope name defined twice (scripts/check-names).
layout-check:
	@scripts/check-layout
	@scripts/check-names
	@scripts/claims-variants --check

# --- sanitizer build: the same tests against an ASan+UBSan ocsolve ---
$(S)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(SANFLAGS) -c $< -o $@

$(S)/libocsolve.a: $(LIB_SRC:%.c=$(S)/%.o)
	rm -f $@ && ar rcs $@ $^

$(S)/gen/web_assets.o: $(S)/gen/web_assets.c
	$(CC) $(CPPFLAGS) -I. $(SANFLAGS) -c $< -o $@

$(S)/ocsolve: $(CMD_SRC:%.c=$(S)/%.o) $(S)/gen/web_assets.o $(S)/libocsolve.a
	$(CC) $(SANFLAGS) $^ $(LIBS) $(SERVE_LIBS) -o $@

$(S)/tests/%.o: CPPFLAGS += -DOCSOLVE_BIN='"$(abspath $(S)/ocsolve)"' -DOCS_SANITIZE $(TEST_DEFS)
$(S)/tests/%.o: CPPFLAGS += -DOCSOLVE_MPI_BIN='"$(abspath $(S)/ocsolve-mpi)"' -DOCS_HOSTILE_RANK0='"$(abspath $(S)/hostile_rank0)"'
$(S)/tests/%.o: CPPFLAGS += -DOCS_SCREENSHOT_DIR_DEFAULT='"$(abspath $(S))"'
$(S)/tests/%.o: CPPFLAGS += -DOCS_NETWIRE_BIN='"$(abspath $(S)/netwire)"' -DOCS_NETNS_CLUSTER='"$(abspath scripts/netns-cluster)"'
$(S)/netwire: tests/net/netwire.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(SANFLAGS) $< -o $@
$(S)/run-tests: $(TEST_SRC:%.c=$(S)/%.o) $(S)/libocsolve.a
	$(CC) $(SANFLAGS) $^ -lcriterion -pthread $(LIBS) -o $@

$(MPI_SRC:%.c=$(S)/%.o): $(S)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(MPICC) $(CPPFLAGS) $(DEPFLAGS) $(SANFLAGS) -c $< -o $@

$(S)/ocsolve-mpi: $(MPI_SRC:%.c=$(S)/%.o) $(filter-out $(S)/app/main.o $(SERVE_SRC:%.c=$(S)/%.o),$(CMD_SRC:%.c=$(S)/%.o)) $(S)/libocsolve.a
	$(MPICC) $(SANFLAGS) $^ $(LIBS) -pthread -o $@
$(S)/hostile_rank0: tests/mpi/hostile_rank0.c $(S)/jobs/mpi_transport.o $(S)/libocsolve.a | deps
	$(MPICC) $(CPPFLAGS) $(SANFLAGS) $^ $(LIBS) -pthread -o $@

# ThreadSanitizer on standalone threaded programs (Criterion cannot run under TSan).
TSAN_SRC := $(wildcard tests/tsan/*.c)
$(S)/tsan/%: tests/tsan/%.c $(LIB_SRC) $(HEADERS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(TSANFLAGS) $< $(LIB_SRC) -pthread $(LIBS) -o $@

sanitize:
	$(MAKE) -j$(NPROC) $(S)/ocsolve $(S)/ocsolve-mpi $(S)/hostile_rank0 $(S)/netwire $(S)/run-tests $(TSAN_SRC:tests/tsan/%.c=$(S)/tsan/%)
	LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp) $(S)/run-tests --jobs 2
	@for t in $(TSAN_SRC:tests/tsan/%.c=$(S)/tsan/%); do echo "TSan: $$t"; TSAN_OPTIONS=halt_on_error=1 $$t || exit 1; done

# --- jobs ---
# The main job: decide the empty 6x6 board under RULES (original, the
# default; exact; exact-end), write the certificate, verify it with the
# independent verifier and print one verdict line (scripts/solve-claim).
# CLAIM_SECONDS bounds the search (default 600), CLAIM_TT_MB its table.
RULES         ?= original
ifneq ($(filter solve solve-search solve-opening solve-within solve-monolithic,$(MAKECMDGOALS)),)
ifeq ($(filter $(RULES),original exact exact-end),)
$(error unknown RULES '$(RULES)' (original, exact or exact-end))
endif
endif
CLAIM_SECONDS ?= 600
CLAIM_TT_MB   ?= 2048
# RECORD=1 records the run under results/ (earlier runs kept); by default
# a run writes only under work/, so a reproduction leaves the clone clean.
RECORD        ?= 0
solve: $(B)/ocsolve
	@SOLVE_SECONDS=$(CLAIM_SECONDS) SOLVE_TT_MB=$(CLAIM_TT_MB) SOLVE_THREADS=$(SOLVE_THREADS) SOLVE_RECORD=$(RECORD) \
	  scripts/solve-claim $(RULES)

# Pure search, no lemma: the empty board by the job-level search
# (scripts/solve-search; ocsolve jobs) on every core, every decided
# position kept in an LMDB store with its certificate under
# work/search-RULES/, so a run killed or stopped by SOLVE_SECONDS goes on
# from the store the next time; when decided, the certificate is verified
# and (RECORD=1) results/search/search-RULES.md written. SOLVE_THREADS, SEARCH_TT_MB,
# SEARCH_DIR and the top tree's settings (scripts/solve-search) override.
SOLVE_THREADS ?= $(shell nproc)
SOLVE_SECONDS ?=
solve-search: $(B)/ocsolve
	@SOLVE_THREADS=$(SOLVE_THREADS) SOLVE_SECONDS=$(SOLVE_SECONDS) SEARCH_DIR=$(SEARCH_DIR) SEARCH_TT_MB=$(SEARCH_TT_MB) \
	  SOLVE_RECORD=$(RECORD) scripts/solve-search $(RULES)

# One opening (MOVE: a first move, or a few moves, e.g. MOVE=Xa1) by the
# job-level search, as a run that outlives a machine: its store and journal
# are snapshotted into results/openings/RULES-MOVE/ (commit them), a fresh
# clone resumes from there, and the certificates are made at the end
# (scripts/solve-opening; SOLVE_SECONDS bounds one run).
MOVE          ?=
solve-opening: $(B)/ocsolve
	@SOLVE_THREADS=$(SOLVE_THREADS) SOLVE_SECONDS=$(SOLVE_SECONDS) scripts/solve-opening "$(MOVE)" $(RULES)

# The bounded question "can Order force a line within D plies?" after MOVE
# (none: the empty board) by `jobs --within D`, resumable the same way:
# `make solve-within D=15 [MOVE=Xa1] [RULES=original]`.
solve-within: $(B)/ocsolve
	@SOLVE_THREADS=$(SOLVE_THREADS) SOLVE_SECONDS=$(SOLVE_SECONDS) OPENING_WITHIN=$(D) scripts/solve-opening "$(MOVE)" $(RULES)

# The one monolithic df-pn of the empty board (the first wave's job, kept
# for comparison): half the machine's memory (at most 16 GiB) for one
# table, a checkpoint every 5 minutes and on Ctrl-C that the next run resumes.
SOLVE_TT_MB   ?= $(shell awk '/MemTotal/ { m = int($$2 / 2048); print (m > 16384 ? 16384 : m) }' /proc/meminfo)
SOLVE_CKPT    ?= results/search/solve-empty.ckpt
solve-monolithic: $(B)/ocsolve
	@mkdir -p results/search
	$(B)/ocsolve solve --rules $(RULES) --no-centre --threads $(SOLVE_THREADS) --tt-mb $(SOLVE_TT_MB) $(if $(SOLVE_SECONDS),--time-limit $(SOLVE_SECONDS)) \
	  --checkpoint $(SOLVE_CKPT) $(if $(wildcard $(SOLVE_CKPT)),--resume $(SOLVE_CKPT)) \
	  --log results/search/solve-empty-progress.csv --json > results/search/solve-empty-latest.json; \
	  rc=$$?; cat results/search/solve-empty-latest.json; exit $$rc

# The analysis board (ocsolve serve): prints the URL to open; Ctrl-C stops it.
SERVE_ARGS ?=
serve: $(B)/ocsolve
	$(B)/ocsolve serve $(SERVE_ARGS)

# The browser test alone, its screenshots kept as results/serve/board.png
# and pairing.png (commit them); make test writes them into the build folder.
serve-screenshot: $(B)/ocsolve $(B)/run-tests
	@mkdir -p results/serve
	OCS_SCREENSHOT_DIR=$(abspath results/serve) $(B)/run-tests --filter 'browser/*'

# The table size make solve uses, for scripts (scripts/table-size-rate).
solve-tt-mb:
	@echo $(SOLVE_TT_MB)

# --- unoptimised build: the bench signature must not depend on the optimiser ---
$(O)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(O0FLAGS) -c $< -o $@

$(O)/gen/web_assets.o: $(O)/gen/web_assets.c
	$(CC) $(CPPFLAGS) -I. $(O0FLAGS) -c $< -o $@

$(O)/ocsolve: $(CMD_SRC:%.c=$(O)/%.o) $(O)/gen/web_assets.o $(LIB_SRC:%.c=$(O)/%.o)
	$(CC) $(O0FLAGS) $^ $(LIBS) $(SERVE_LIBS) -o $@

BENCH_THREADS ?= 2
bench: $(B)/ocsolve
	$(B)/ocsolve bench --threads $(BENCH_THREADS)

# The solver part of the bench at -O0 and -O3: both signatures must be the
# recorded one (bench/signature.txt, line 'full N').
bench-check: $(B)/ocsolve $(O)/ocsolve
	@want=$$(sed -n 's/^full //p' bench/signature.txt); \
	for bin in $(O)/ocsolve $(B)/ocsolve; do \
	  got=$$($$bin bench --solver-only | sed -n 's/^bench signature: //p'); \
	  echo "$$bin: bench signature $$got (recorded: $$want)"; \
	  [ -n "$$got" ] && [ "$$got" = "$$want" ] || { echo "make bench-check: signature mismatch" >&2; exit 1; }; \
	done

# The quick workload's signature at -O0 (a few seconds): what CI adds to
# the tests, since an optimiser-dependent search would show here first.
bench-check-quick: $(O)/ocsolve
	@want=$$(sed -n 's/^quick //p' bench/signature.txt); \
	got=$$($(O)/ocsolve bench --quick --solver-only | sed -n 's/^bench signature: //p'); \
	echo "$(O)/ocsolve: quick bench signature $$got (recorded: $$want)"; \
	[ -n "$$got" ] && [ "$$got" = "$$want" ] || { echo "make bench-check-quick: signature mismatch" >&2; exit 1; }

# The opening tier (ocsolve bench --opening; minutes): its signature must
# be the recorded one (bench/signature.txt, line 'opening N').
bench-opening: $(B)/ocsolve
	@want=$$(sed -n 's/^opening //p' bench/signature.txt); \
	got=$$($(B)/ocsolve bench --opening | tee /dev/stderr | sed -n 's/^opening signature: //p'); \
	echo "$(B)/ocsolve: opening signature $$got (recorded: $$want)"; \
	[ -n "$$got" ] && [ "$$got" = "$$want" ] || { echo "make bench-opening: signature mismatch" >&2; exit 1; }

clean:
	rm -rf $(B)

# The headers each object included when it was last built (DEPFLAGS).
-include $(shell find $(B) -name '*.d' 2>/dev/null)

# libFuzzer harnesses (qa/fuzz/fuzz_*.c), included by the top GNUmakefile.
#
#   make fuzz-build     every harness, in build-fuzz/
#   make fuzz-regress   each harness once over its seeds and regression inputs
#   make fuzz           each harness for FUZZ_SECONDS over a working corpus
#
# The library is compiled again here with coverage and ASan+UBSan.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 55
FUZZ_SAN = -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror $(SRC_INCLUDES) -Ibuild -Iqa/fuzz \
	$(FUZZ_SAN)
FUZZ_NAMES = $(patsubst qa/fuzz/fuzz_%.c,%,$(wildcard qa/fuzz/fuzz_*.c))
FUZZ_BINS = $(FUZZ_NAMES:%=build-fuzz/fuzz_%)
FUZZ_LIB_OBJS = $(patsubst %.c,build-fuzz/lib/%.o,$(notdir $(LIB_SRCS)))
FUZZ_WORK = qa/work/fuzz
FUZZ_OPTS = -rss_limit_mb=2048 -timeout=10 -max_len=262144

.PHONY: fuzz fuzz-build fuzz-regress fuzz-seeds

# (the library's folders are on vpath: see the top GNUmakefile)
build-fuzz/lib/%.o: %.c $(shell find src -name '*.h') build/sched_purr.skel.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build-fuzz/libsmtcpu.a: $(FUZZ_LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

# The reports' readers of pmproxy's answers (fuzz_pmproxy), as the library is.
build-fuzz/report/%.o: report/%.c report/%.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Ireport -fsanitize=fuzzer-no-link -c -o $@ $<

build-fuzz/fuzz_pmproxy: build-fuzz/report/pmproxy_json.o build-fuzz/report/pmproxy_values.o

build-fuzz/fuzz_%: qa/fuzz/fuzz_%.c qa/fuzz/fuzz.h qa/fuzz/tree.h build-fuzz/libsmtcpu.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Ireport -fsanitize=fuzzer -o $@ $< $(filter %.o,$^) build-fuzz/libsmtcpu.a \
		-lpfm -lbpf -lm

fuzz-build: $(FUZZ_BINS)

# Seeds from the fixtures: made once per work tree (qa/fuzz/seeds).
$(FUZZ_WORK)/seeds/.made: qa/fuzz/seeds qa/fuzz/tree-encode qa/fixtures/mkfixture \
		qa/fixtures/mkpurr qa/fixtures/mkamd qa/lib/mktrace
	sh qa/fuzz/seeds $(FUZZ_WORK)/seeds
	touch $@

fuzz-seeds: $(FUZZ_WORK)/seeds/.made

# Every input once, no new fuzzing: what make check runs.
fuzz-regress: fuzz-build fuzz-seeds
	@failed=0; for n in $(FUZZ_NAMES); do \
		mkdir -p $(FUZZ_WORK)/seeds/$$n qa/fuzz/regress/$$n; \
		if build-fuzz/fuzz_$$n $(FUZZ_OPTS) -runs=0 $(FUZZ_WORK)/seeds/$$n \
			qa/fuzz/regress/$$n >$(FUZZ_WORK)/$$n.log 2>&1; then \
			echo "fuzz/$$n: ok ($$(ls $(FUZZ_WORK)/seeds/$$n qa/fuzz/regress/$$n | grep -vc ':$$\|^$$') inputs)"; \
		else \
			failed=1; echo "fuzz/$$n: FAILED"; tail -30 $(FUZZ_WORK)/$$n.log; \
		fi; \
	done; exit $$failed

# Fuzzing proper, one harness after another (the machine has 2 CPUs).
fuzz: fuzz-build fuzz-seeds
	@mkdir -p $(FUZZ_WORK)/artifacts; found=0; for n in $(FUZZ_NAMES); do \
		c=$(FUZZ_WORK)/corpus/$$n; mkdir -p $$c; \
		cp -n $(FUZZ_WORK)/seeds/$$n/* qa/fuzz/regress/$$n/* $$c/ 2>/dev/null; \
		if build-fuzz/fuzz_$$n $(FUZZ_OPTS) -max_total_time=$(FUZZ_SECONDS) \
			-artifact_prefix=$(FUZZ_WORK)/artifacts/$$n- -print_final_stats=1 \
			$$c >$(FUZZ_WORK)/$$n.fuzz.log 2>&1; then r="no finding"; \
		else r="FINDING: see $(FUZZ_WORK)/$$n.fuzz.log"; found=1; fi; \
		echo "fuzz/$$n: $$(sed -n 's/^stat::number_of_executed_units: *//p' \
			$(FUZZ_WORK)/$$n.fuzz.log) executions in $(FUZZ_SECONDS) s, $$r"; \
	done; exit $$found

# Where libFuzzer is not at hand (a cross build, qa/cross/build): each
# harness with qa/fuzz/standalone.c as its main, built by $(CC) with the
# build's own flags against its library, and run once over the same inputs.
# FUZZ_RUN runs a foreign program (qemu-user).
FUZZ_STANDALONE_BINS = $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)

$(BUILD)/fuzz/fuzz_pmproxy: $(BUILD)/report/pmproxy_json.o $(BUILD)/report/pmproxy_values.o

$(BUILD)/fuzz/fuzz_%: qa/fuzz/fuzz_%.c qa/fuzz/standalone.c qa/fuzz/fuzz.h qa/fuzz/tree.h $(LIB) $(BIN_FLAVOUR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -Iqa/fuzz -Ireport -o $@ $< qa/fuzz/standalone.c $(filter %.o,$^) $(LIB) \
		$(LIB_LIBS)

.PHONY: fuzz-standalone fuzz-regress-standalone
fuzz-standalone: $(FUZZ_STANDALONE_BINS)

fuzz-regress-standalone: fuzz-standalone fuzz-seeds
	@failed=0; for n in $(FUZZ_NAMES); do \
		mkdir -p $(FUZZ_WORK)/seeds/$$n qa/fuzz/regress/$$n; \
		if $(FUZZ_RUN) $(BUILD)/fuzz/fuzz_$$n $(FUZZ_WORK)/seeds/$$n qa/fuzz/regress/$$n \
			>$(FUZZ_WORK)/$$n.standalone.log 2>&1; then \
			echo "fuzz/$$n: ok ($$(cat $(FUZZ_WORK)/$$n.standalone.log))"; \
		else \
			failed=1; echo "fuzz/$$n: FAILED"; tail -30 $(FUZZ_WORK)/$$n.standalone.log; \
		fi; \
	done; exit $$failed

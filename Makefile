# sagen: build, run, test.  `make run` and `make test` are the two commands of the README.
CC      ?= cc
CFLAGS  ?= -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L
LDLIBS  := -lyaml -ldl -lm
B       := build

# Host C sources (everything but main): generator, driver, golden model, tensor I/O.
GEN_SRCS := $(filter-out gen/main.c,$(wildcard gen/*.c))
TB_SRCS  := $(wildcard tb/*.c)
HOST_SRCS := $(GEN_SRCS) $(TB_SRCS)
HOST_OBJS := $(HOST_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/embedded_rtl.o $(B)/obj/embedded_sim.o

# The RTL templates and the simulation files travel inside ./sagen.
RTL_TEMPLATES := $(sort $(wildcard rtl_templates/*.v))
SIM_FILES := sim/shim.cpp sim/sagen_sim.h sim/sagen_replay_tb.v
$(B)/embed: gen/tools/embed.c
	@mkdir -p $(B)
	$(CC) $(CFLAGS) -o $@ $<
$(B)/gen/embedded_rtl.c: $(RTL_TEMPLATES) $(B)/embed
	@mkdir -p $(dir $@)
	$(B)/embed $@ templates $(RTL_TEMPLATES)
$(B)/gen/embedded_sim.c: $(SIM_FILES) $(B)/embed
	@mkdir -p $(dir $@)
	$(B)/embed $@ sim_files $(SIM_FILES)
$(B)/obj/embedded_%.o: $(B)/gen/embedded_%.c gen/templates.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Igen -c $< -o $@

.PHONY: all
all: sagen

$(B)/obj/%.o: %.c $(wildcard gen/*.h tb/*.h sim/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Igen -Itb -Isim -c $< -o $@

sagen: $(B)/obj/gen/main.o $(HOST_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# C unit tests: tests/test_*.c, each linked with the host objects.
UNIT_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/test_*.c))
$(B)/tests/%: tests/%.c $(HOST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Igen -Itb -Isim -o $@ $^ $(LDLIBS)

.PHONY: unit
unit: $(UNIT_TESTS)

.PHONY: clean
clean:
	rm -rf $(B) sagen

# ---- the README's commands ------------------------------------------------------------------
# make run: the default configuration's RTL, then ResNet-50 conv3_x (28x28x128, 3x3, stride 1,
# pad 1, 128 filters) with random int8 data, every element checked, and the report.
RUN_LAYER ?= 1,128,28,28:128,3,3
# ---- robustness: fuzzing, sanitizers, X values, bad input ------------------------------------
FUZZ_SECONDS ?= 60
.PHONY: fuzz fuzz-regress test-asan test-valgrind test-xcheck test-errors test-robust
fuzz:
	tests/fuzz/run.sh $(FUZZ_SECONDS)
fuzz-regress:
	tests/fuzz/run.sh --regress
test-asan: deps
	tests/asan.sh
test-valgrind: deps sagen
	tests/valgrind.sh
test-xcheck: deps sagen
	tests/xcheck.sh
test-errors: deps sagen
	tests/test_errors.sh
test-robust: test-errors fuzz-regress test-asan test-valgrind test-xcheck

SWEEP_SIZES  ?= 4,8,16,32
SWEEP_LAYERS ?= scripts/layers/resnet50.csv
SWEEP_OUT    ?= build/sweep-$(basename $(notdir $(SWEEP_LAYERS)))
.PHONY: sweep test-sweep
sweep: deps sagen
	scripts/sweep --rows $(SWEEP_SIZES) --square --layers $(SWEEP_LAYERS) -o $(SWEEP_OUT)
test-sweep: deps sagen
	tests/test_sweep.sh

# make fpga: Fmax and area of each configuration on an ECP5 (LFE5U-85F) with the open tools from
# PyPI (scripts/fpga-deps.sh installs them into build/fpga-venv; make test does not need them),
# into build/fpga/<config>/, and docs/fpga.md from those runs. FPGA_ARGS go to scripts/fpga.sh.
FPGA_CONFIGS ?= yaml/small8x8.yaml yaml/default.yaml
FPGA_ARGS    ?= --jobs 2
.PHONY: fpga fpga-deps
fpga-deps:
	@scripts/fpga-deps.sh
fpga: deps sagen fpga-deps
	@status=0; outs=""; \
	for c in $(FPGA_CONFIGS); do \
	  o=$(B)/fpga/$$(basename $$c .yaml); outs="$$outs $$o"; \
	  scripts/fpga.sh $$c -o $$o $(FPGA_ARGS) || status=1; \
	done; \
	mkdir -p docs; scripts/fpga.sh --markdown $$outs >docs/fpga.md.tmp && mv docs/fpga.md.tmp docs/fpga.md \
	  && echo "make fpga: docs/fpga.md written" >&2 || status=1; \
	[ $$status -eq 0 ] || echo "make fpga: some blocks failed (docs/fpga.md says which and why)" >&2; \
	exit $$status

.PHONY: deps run test test-long bench bench-bp lint
bench-bp: deps sagen
	@scripts/bench_bp.sh
lint: deps sagen
	tests/lint_synth.sh
bench: deps sagen
	@scripts/bench.sh
deps:
	@scripts/deps.sh
run: deps sagen
	./sagen gen yaml/default.yaml -o build/rtl/default
	./sagen sim yaml/default.yaml conv2d --random $(RUN_LAYER) --padding 1,1 --seed 1 --check

test: deps sagen unit $(B)/cosim_random
	@tests/run_all.sh

test-long: deps sagen unit $(B)/cosim_random
	@SAGEN_TEST_DEPTH=long tests/run_all.sh

# Randomized co-simulation (in-process: one Verilated model per configuration).
$(B)/cosim_random: tests/cosim_random.c $(HOST_OBJS)
	$(CC) $(CFLAGS) -Igen -Itb -Isim -o $@ $^ $(LDLIBS)

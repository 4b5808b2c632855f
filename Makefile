# sagen: build, run, test.  `make run` and `make test` are the two commands of the README.
CC      ?= cc
AR      ?= ar
CFLAGS  ?= -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L
LDLIBS  := -lyaml -ldl -lm
B       := build
INCS    := -Igen -Itb -Itb/host -Isim -I$(B)/gen

# The layers, each a static library build/lib/libsagen_<layer>.a, linked in this order (each
# uses only the layers after it, so none links against one before it):
#   cli     the command line of `sagen sim` (tb/cosim.c) and the SCALE-Sim topology reader
#   driver  the host driver, tb/host/ (views, cost model, tiling, planning, run engine, ops)
#   golden  the golden model, tb/golden.c: uses nothing of the driver's or the generator's
#           (tests/check_structure.sh checks the symbols; its unit test links it alone)
#   sim     the simulator adapters, sim/*.c: the Verilated model, its builder, Icarus
#   gen     the generator, gen/ (all but main.c) and the embedded templates
#   tensor  tensors and their .npy files
CLI_SRCS    := tb/cosim.c tb/cosim_fp.c tb/topology.c
DRIVER_SRCS := $(sort $(wildcard tb/host/*.c))
GOLDEN_SRCS := tb/golden.c tb/golden_fp.c
SIM_SRCS    := $(sort $(wildcard sim/*.c))
GEN_SRCS    := $(sort $(filter-out gen/main.c,$(wildcard gen/*.c)))
TENSOR_SRCS := tb/tensor.c tb/npy.c tb/fpnum.c
LAYERS      := cli driver golden sim gen tensor
LIBS        := $(LAYERS:%=$(B)/lib/libsagen_%.a)
obj = $(1:%.c=$(B)/obj/%.o)

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

# The register map: one table (gen/regmap.c); build/regmap writes the C header the host driver
# includes and the Verilog include the block tests compile the templates with (`sagen gen`
# inlines it into the RTL it writes). make regmap-doc writes docs/regmap.md from it.
$(B)/regmap: gen/tools/regmap.c gen/regmap.c gen/regmap.h
	@mkdir -p $(B)
	$(CC) $(CFLAGS) -Igen -o $@ gen/tools/regmap.c gen/regmap.c
$(B)/gen/sagen_regmap.h: $(B)/regmap
	@mkdir -p $(dir $@)
	$(B)/regmap c $@
$(B)/gen/sagen_regmap.vh: $(B)/regmap
	@mkdir -p $(dir $@)
	$(B)/regmap verilog $@
REGMAP := $(B)/gen/sagen_regmap.h $(B)/gen/sagen_regmap.vh
.PHONY: regmap-doc
regmap-doc: $(B)/regmap
	$(B)/regmap markdown docs/regmap.md

.PHONY: all
all: sagen

$(B)/obj/%.o: %.c $(wildcard gen/*.h tb/*.h tb/host/*.h sim/*.h) $(REGMAP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INCS) -c $< -o $@

# lib NAME, OBJECTS: the archive, rebuilt from scratch so that a removed source leaves nothing
define lib
$(B)/lib/libsagen_$(1).a: $(2)
	@mkdir -p $$(dir $$@)
	rm -f $$@ && $$(AR) rcs $$@ $$^
endef
$(eval $(call lib,cli,$(call obj,$(CLI_SRCS))))
$(eval $(call lib,driver,$(call obj,$(DRIVER_SRCS))))
$(eval $(call lib,golden,$(call obj,$(GOLDEN_SRCS))))
$(eval $(call lib,sim,$(call obj,$(SIM_SRCS))))
$(eval $(call lib,gen,$(call obj,$(GEN_SRCS)) $(B)/obj/embedded_rtl.o $(B)/obj/embedded_sim.o))
$(eval $(call lib,tensor,$(call obj,$(TENSOR_SRCS))))
.PHONY: libs
libs: $(LIBS)

sagen: $(B)/obj/gen/main.o $(LIBS)
	$(CC) $(CFLAGS) -o $@ $< $(LIBS) $(LDLIBS)

# C unit tests: tests/test_*.c, each linked with the layers' libraries; the golden model's
# with its own library alone (it needs nothing else).
UNIT_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/test_*.c))
$(B)/tests/%: tests/%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INCS) -o $@ $< $(LIBS) $(LDLIBS)
$(B)/tests/test_golden: tests/test_golden.c $(B)/lib/libsagen_golden.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INCS) -o $@ $< $(B)/lib/libsagen_golden.a -lm

.PHONY: unit
unit: $(UNIT_TESTS)

# function and file sizes, and the golden model apart from the driver (see the script)
.PHONY: check-structure
check-structure: libs
	tests/check_structure.sh

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
test-xcheck: deps sagen $(B)/xcheck_run
	tests/xcheck.sh
test-errors: deps sagen
	tests/test_errors.sh
test-robust: test-errors fuzz-regress test-asan test-valgrind test-xcheck

# suites of make test on their own: the command line by feature, the cost model against runs
.PHONY: test-cli test-cost-model
test-cli: deps sagen
	@status=0; for t in tests/cli/*.sh; do echo "## $$t"; $$t || status=1; done; exit $$status
test-cost-model: deps sagen
	tests/cost_model_runs.sh

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
# into build/fpga/<config>/, and their sections of docs/fpga.md (the other configurations'
# sections stay: FPGA_CONFIGS=yaml/small8x8.yaml rewrites small8x8's alone). FPGA_ARGS go to
# scripts/fpga.sh.
# A configuration CONFIG@BLOCKS measures only those blocks (fpga.sh --blocks): the float
# datapath's, of a design too large to place and route whole.
FPGA_CONFIGS ?= yaml/small8x8.yaml yaml/default.yaml \
  yaml/bf16.yaml@pe_fp,fp_add,fp_mul,psum_manager yaml/fornt_fp16.yaml@pe_fp,fp_add,fp_mul
FPGA_ARGS    ?= --jobs 2
.PHONY: fpga fpga-deps
fpga-deps:
	@scripts/fpga-deps.sh
fpga: deps sagen fpga-deps
	@status=0; outs=""; \
	for e in $(FPGA_CONFIGS); do \
	  c=$${e%%@*}; b=; case $$e in *@*) b="--blocks $${e#*@}";; esac; \
	  o=$(B)/fpga/$$(basename $$c .yaml); outs="$$outs $$o"; \
	  scripts/fpga.sh $$c -o $$o $(FPGA_ARGS) $$b || status=1; \
	done; \
	mkdir -p docs; scripts/fpga.sh --markdown-into docs/fpga.md $$outs \
	  && echo "make fpga: docs/fpga.md: the sections of$$outs written" >&2 || status=1; \
	[ $$status -eq 0 ] || echo "make fpga: some blocks failed (docs/fpga.md says which and why)" >&2; \
	exit $$status

# make bench, make bench-bp: figures (nothing asserted), printed and written into
# docs/performance.md, each its own section. make readme-keys: the README's table of YAML keys
# from the validator's own table (`sagen keys`; tests/cli/usage.sh checks the two agree).
.PHONY: deps run test test-long bench bench-bp lint readme-keys
bench-bp: deps sagen
	@scripts/bench_bp.sh
lint: deps sagen
	tests/lint_synth.sh yaml/*.yaml
bench: deps sagen
	@scripts/bench.sh
readme-keys: sagen
	./sagen keys | scripts/doc_section.sh README.md keys
deps:
	@scripts/deps.sh
run: deps sagen
	./sagen gen yaml/default.yaml -o build/rtl/default
	./sagen sim yaml/default.yaml conv2d --random $(RUN_LAYER) --padding 1,1 --seed 1 --check

test: deps sagen unit $(B)/cosim_random
	@tests/run_all.sh

test-long: deps sagen unit $(B)/cosim_random
	@SAGEN_TEST_DEPTH=long tests/run_all.sh

# Randomized co-simulation (in-process: one Verilated model per configuration), and the X check
# of one configuration (tests/xcheck.sh runs it): both draw their layers from tests/lib/random_layer.c.
$(B)/cosim_random $(B)/xcheck_run: $(B)/%: tests/%.c tests/lib/random_layer.c tests/lib/random_layer.h $(LIBS)
	$(CC) $(CFLAGS) $(INCS) -o $@ $< tests/lib/random_layer.c $(LIBS) $(LDLIBS)

# stackov-lab: the entry points. Each target is a line or two that calls a
# script in vm/, tests/ or bench/; the scripts say what they do.
#
#   make overflow-demo [SCENARIO=NAME] [VARIANT=vmap|novmap] [APPEND="..."]
#   make overflow-demo MODULE=dir [MODULE_ARGS="a=1 b=2"] [MODULE_WAIT=s]
#   make test          every test; ends with "N passed, N failed"
#   make list          the scenarios, with one-line descriptions
#   make selftest-lkdtm  the kernel's own LKDTM selftest, in the guest
#   make vm            interactive guest shell, gdbstub on 127.0.0.1
#   make gdb           gdb attached to the running `make vm` guest
#                      (GDB_CMDS=file: those commands, in batch)
#   make gdb-catch [SCENARIO=NAME]  boot, stop at the overflow in gdb, go on
#   make crash [DUMP=out/<run>] [CRASH_ARGS="-s -i cmds.crash"]
#   make build         kernel, module and initramfs only
#   make bench-build   time a cold kernel build (both variants, own cache)
#   make bench-boot    time boots to init under the chosen accelerator
#   make bench-kdump   panic-to-vmcore time and dump sizes
#   make bench-crashkernel   the smallest crashkernel= that works
#   make bench-crash   time crash's cold build, the lab's gdb flags and stock
#   make bench         the series' pthread_create+join table, repeatably:
#                      out/bench/table.md, plot.svg, highwater.md
#   make bench-latency no-op build, accelerator probe, make crash refusals

VARIANT  ?= vmap
SCENARIO ?= RECURSE_TASK
APPEND   ?=
DUMP     ?= out/latest
ACCEL    ?= auto
export VARIANT ACCEL APPEND

.PHONY: all deps kernel module initramfs build overflow-demo list selftest-lkdtm vm gdb gdb-catch \
	crash crash-tool test bench-build bench-boot bench-kdump bench-crashkernel bench-crash bench bench-latency clean

all: build

deps:
	@vm/deps.sh

kernel: deps
	@vm/kernel.sh $(VARIANT)

module: kernel
	@vm/module.sh $(VARIANT)

initramfs: module
	@vm/initramfs.sh $(VARIANT)

build: initramfs

overflow-demo: deps
	@SCENARIO=$(SCENARIO) vm/prepare.sh $(VARIANT) -- vm/demo.sh

list:
	@vm/list.sh

selftest-lkdtm: build
	@vm/selftest-lkdtm.sh

vm: build
	@INTERACTIVE=1 GDB=1 LAB_MODE=shell vm/qemu.sh

gdb: deps
	@vm/gdb.sh

gdb-catch: build
	@SCENARIO=$(SCENARIO) vm/gdb-catch.sh

crash-tool: deps
	@vm/crash.sh >/dev/null

crash: crash-tool
	@vm/crash-open.sh "$(DUMP)"

test: deps
	@tests/run.sh

bench-build: deps
	@bench/build-time.sh

bench-boot: build
	@bench/boot-time.sh

bench-kdump: build crash-tool
	@bench/kdump.sh

bench-crashkernel: build
	@bench/crashkernel.sh

bench-crash: deps
	@bench/crash-build.sh

bench: deps
	@bench/stackbench.sh

bench-latency: build crash-tool
	@bench/latency.sh

clean:
	rm -rf out

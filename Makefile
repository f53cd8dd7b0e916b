# stackov-lab: the entry points. Each target is a line or two that calls a
# script; the scripts say what they do. The rooms of vm/:
#   vm/kernels/   what each kernel is (KERNEL=lab LINUX=6.1: lab-6.1.sh)
#   vm/builders/  deps, kernel, module, initramfs, the readers (crash, gdb,
#                 drgn: READERS=trixie|sid|host) and crash's extension
#   vm/guest/     what runs inside the guest
#   vm/boot/      QEMU, the accelerator probe, kdump's and QEMU's dumps
#   vm/read/      crash, gdb and drgn on a dump, and the report
#   vm/*.sh       the front doors below
#
#   make overflow-demo [SCENARIO=NAME] [VARIANT=vmap|novmap|orc] [APPEND="..."]
#   make overflow-demo KERNEL=debian [SCENARIO=NAME]   Debian's own kernel (VARIANT=stock)
#   make overflow-demo MODULE=dir [MODULE_ARGS="a=1 b=2"] [MODULE_WAIT=s]
#   make check         the fast tier: every test that needs no guest
#                      (tests/c-*), in a few minutes
#   make test          make check, then every test; ends with
#                      "N passed, N failed, N skipped"
#   make test-full     make test, then the rest of the 6.12 line (tests/x-*)
#   make list          the scenarios, with one-line descriptions
#   make selftest-lkdtm  the kernel's own LKDTM selftest, in the guest
#   make vm            interactive guest shell, gdbstub on 127.0.0.1
#   make gdb           gdb attached to the running `make vm` guest
#                      (GDB_CMDS=file: those commands, in batch)
#   make gdb-catch [SCENARIO=NAME]  boot, stop at the overflow in gdb, go on
#   make crash [DUMP=out/<run>] [CRASH_ARGS="-s -i cmds.crash"]
#   make report [DUMP=out/<run>]    the post-mortem of a run, again
#   make postmortem VMCORE=path [VMLINUX=path] [MODULES=dir] [LOG=path]
#                      the same post-mortem of a dump from elsewhere (a
#                      kdump-tools dump.STAMP, a virsh or QEMU ELF dump)
#   make deb           the readers as a Debian package, built and
#                      lintian-checked in a trixie root: out/deb/*.deb
#   make readers       the dump readers of READERS (default trixie: Debian's
#                      crash, gdb and drgn; sid: the newest; host: this
#                      machine's, crash built from source), and their versions
#   make explain LOG=file [VMLINUX=path] [MODULES=dir]  a log's overflows,
#                      explained from the log alone (stackov-log/)
#   make build         kernel, module and initramfs only
#   make bench         the series' pthread_create+join table, repeatably
#   make bench-build | bench-cold | bench-crash | bench-boot | bench-kdump |
#        bench-crashkernel | bench-latency | bench-explain | bench-logs   one measurement each
#   make bench-peers   every fatal scenario of vmap and orc read by trixie's
#                      and sid's readers: each peer's status, as a table
#   make bench-doc     bench/README.md's tables, from the last measurements
#   make soak [SCENARIO=a,b] [N=10]   each scenario N times in a row, a table
#                      of what each run said (default: every fatal scenario);
#                      make bench-soak keeps that table for bench/README.md
# Every target takes KERNEL= and LINUX= (vm/kernels/KERNEL-LINUX.sh),
# VARIANT= (the description's variants; its first by default) and
# READERS= (trixie, sid or host: whose crash, gdb and drgn read the dumps).

KERNEL   ?= lab
LINUX    ?= 6.1
VARIANT  ?=
SCENARIO ?= RECURSE_TASK
# make soak: the SCENARIO given on the command line or in the environment,
# else every fatal one (vm/soak.sh), not the default above.
SOAK_SCENARIO = $(if $(filter file,$(origin SCENARIO)),,$(SCENARIO))
APPEND   ?=
DUMP     ?= out/latest
ACCEL    ?= auto
# The dump readers: Debian trixie's (default), sid's, or host (vm/builders/readers.sh).
READERS  ?= trixie
export KERNEL LINUX VARIANT ACCEL APPEND READERS

# A measurement: its output is shown and kept for make bench-doc.
BENCH = bench/record.sh

.PHONY: all deps kernel module initramfs build overflow-demo list selftest-lkdtm vm gdb gdb-catch \
	crash readers readers-made report postmortem deb explain check deps-check test test-full bench bench-build bench-cold bench-crash bench-boot bench-kdump \
	bench-crashkernel bench-latency bench-explain bench-logs bench-peers bench-doc soak bench-soak clean

all: build

deps:
	@vm/builders/deps.sh

kernel: deps
	@vm/builders/kernel.sh $(VARIANT)

module: kernel
	@vm/builders/module.sh $(VARIANT)

initramfs: module
	@vm/builders/initramfs.sh $(VARIANT)

build: initramfs

overflow-demo: deps
	@SCENARIO=$(SCENARIO) vm/builders/prepare.sh $(VARIANT) -- vm/demo.sh

list:
	@vm/list.sh

selftest-lkdtm: build
	@vm/selftest-lkdtm.sh

vm: build
	@INTERACTIVE=1 GDB=1 LAB_MODE=shell vm/boot/qemu.sh

gdb: deps
	@vm/gdb.sh

gdb-catch: build
	@SCENARIO=$(SCENARIO) vm/gdb-catch.sh

readers: deps
	@vm/builders/readers.sh

# The readers made, quietly: what make crash and make report need.
readers-made: deps
	@vm/builders/readers.sh >/dev/null

crash: readers-made
	@vm/read/crash-open.sh "$(DUMP)"

report: readers-made
	@vm/read/report.sh "$(DUMP)"

deb: deps
	@vm/builders/deb.sh

postmortem: readers-made
	@VMCORE="$(VMCORE)" VMLINUX="$(VMLINUX)" MODULES="$(MODULES)" LOG="$(LOG)" vm/postmortem.sh

explain: deps
	@LOG="$(LOG)" VMLINUX="$(VMLINUX)" MODULES="$(MODULES)" vm/explain.sh

deps-check:
	@vm/builders/deps.sh check

check: deps-check
	@tests/run.sh --check

test: deps
	@tests/run.sh

test-full: deps
	@FULL=1 tests/run.sh

bench: deps
	@$(BENCH) $@ bench/stackbench.sh

bench-build: deps
	@$(BENCH) $@ bench/build-time.sh

bench-cold: deps
	@$(BENCH) $@ bench/cold-start.sh

bench-crash: deps
	@$(BENCH) $@ bench/crash-build.sh

bench-boot: build
	@$(BENCH) $@ bench/boot-time.sh

bench-kdump: build readers-made
	@$(BENCH) $@ bench/kdump.sh

bench-crashkernel: build
	@$(BENCH) $@ bench/crashkernel.sh

bench-latency: build readers-made
	@$(BENCH) $@ bench/latency.sh

bench-peers: deps
	@FULL=1 OTHER_SCENARIOS=all tests/run.sh t-30-catalogue-vmap t-33-catalogue-orc
	@$(BENCH) $@ bench/peers-table.sh

bench-logs: deps-check
	@$(BENCH) $@ bench/logs-read.sh $(BEFORE)

bench-explain: deps-check
	@$(BENCH) $@ bench/explain-size.sh

soak: deps
	@SCENARIO=$(SOAK_SCENARIO) vm/builders/prepare.sh $(VARIANT) -- vm/soak.sh

bench-soak: deps
	@SCENARIO=$(SOAK_SCENARIO) vm/builders/prepare.sh $(VARIANT) -- $(BENCH) $@ vm/soak.sh

bench-doc:
	@bench/doc.sh

clean:
	rm -rf out

#!/bin/sh
# tests/normalise.sh - what changes from run to run, made the same, so that
# a walkthrough's shown output can be compared with what its commands print
# now (stdin to stdout). One set of rules for every walkthrough:
#   printk timestamps [    2.662505]    -> (nothing: a line shown with or
#                                        without one is the same line)
#   run directories 20261203-160333-RECURSE_TASK-vmap-YF4K -> RUN
#   hexadecimal numbers of 6 digits or more, and any with 0x
#                                        -> HEX
#   pids and cpus ("pid 61", "PID: 61", "cpu 0", "CPU: 1", "cpu=1")
#                                        -> pid N, PID: N, cpu N, CPU: N
#   the lab kernel's build count ("6.1.192-stackov+ #10", which grows
#   with each rebuild of the cache)      -> #N
#   decimal fractions (times: 6.265 s)   -> F
#   runs of spaces                       -> one space
# Carriage returns go; trailing spaces go.
exec sed -E \
	-e 's/\r$//' \
	-e 's/^\[ *[0-9]+\.[0-9]+\] ?//' \
	-e 's/[0-9]{8}-[0-9]{6}-[A-Za-z0-9_+.-]+-(vmap|novmap)-[A-Za-z0-9]{4}/RUN/g' \
	-e 's/0x[0-9a-f]+\b/HEX/g' \
	-e 's/\b[0-9a-f]{6,16}\b/HEX/g' \
	-e 's/\b(pid|PID|cpu|CPU)([:=]? *)[0-9]+/\1\2N/g' \
	-e 's/(-stackov\+?) #[0-9]+/\1 #N/g' \
	-e 's/\b[0-9]+\.[0-9]+\b/F/g' \
	-e 's/  +/ /g' \
	-e 's/ +$//'

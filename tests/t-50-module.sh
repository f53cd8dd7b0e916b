#!/bin/sh
# make overflow-demo MODULE=dir: a module the lab has never seen, whose
# overflow the report names by its function and context (and a mutual
# recursion crash's stackov folds as one cycle); one that does not
# compile and one whose init fails each get a one-line reason, and neither
# becomes out/latest.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
m=tests/modules
start=$(date +%s)
rc=0
make -s overflow-demo MODULE=$m/deep_parse LAB_SHOW=0 >"$LAB_OUT/mod-deep.out" 2>&1 || rc=$?
took=$(($(date +%s) - start))
echo "one MODULE= run: ${took} s wall"
check "MODULE=deep_parse: make overflow-demo exits 0" [ $rc = 0 ]
run=$LAB_OUT/$(readlink "$LAB_OUT/latest")
check "out/latest is the MODULE run" sh -c "echo '$run' | grep -q 'MODULE-deep_parse-vmap'"
armed_and_loaded() { has '^lab: kdump armed' && has '^lab: usermod: loading deep_parse\.ko'; }
check "it was loaded by insmod with kdump armed" armed_and_loaded
check "the kernel reports the overflow" grep -q 'BUG: TASK stack guard page was hit at' "$run/vmcore.dmesg"
check "the oops names deep_parse_node [deep_parse]" grep -Eq 'deep_parse_node\+0x[0-9a-f]+/0x[0-9a-f]+ \[deep_parse\]' "$run/vmcore.dmesg"
check "crash: the panic task is insmod" grep -Eq '^PID: [0-9]+ +TASK: .*COMMAND: "insmod"' "$run/reader-crash-vmcore.out"
check "crash: its bt has deep_parse_node [deep_parse]" grep -Eq 'deep_parse_node at [0-9a-f]+ \[deep_parse\]' "$run/reader-crash-vmcore.out"
check "drgn: the crashed thread is insmod" grep -q '^crashed thread: insmod pid' "$run/reader-drgn-vmcore.out"
check "drgn: with the module's source lines" grep -Eq 'deep_parse_node at deep_parse\.c:[0-9]+' "$run/reader-drgn-vmcore.out"
check "gdb: frame #0 is deep_parse_node" grep -Eq '^#0 +(0x[0-9a-f]+ in )?deep_parse_node \(.*deep_parse\.c' "$run/reader-gdb-vmcore.out"
# the log alone, given vmlinux and the module's .ko, says what crash's
# stackov says on the dump (stack, task, entry, per-frame bytes)
readers_agree deep_parse "$run" deep_parse_node yes vmcore
svg_agrees deep_parse "$run"
dbytes=$(jq -r .cycle "$run/stackov-crash-vmcore.json" | sed -n 's/.*(\([0-9]*\) bytes per cycle)$/\1/p')
check "deep_parse: its bytes per cycle (${dbytes:-none}) are the compiler's frame size of deep_parse_node ($(su_bytes "$run" deep_parse_node))" \
	[ "$dbytes" = "$(su_bytes "$run" deep_parse_node)" ]
explain_agrees deep_parse "$run"

# A mutual recursion through three functions (tests/modules/mutual_recursion):
# crash's stackov folds it as one cycle, in call order, whose bytes cover
# the three buffers (64 + 160 + 96 = 320) and a few words of each frame;
# drgn unwinds as many of those frames as the cycle holds.
rc=0
make -s overflow-demo MODULE=$m/mutual_recursion QEMU_DUMP=0 LAB_SHOW=0 >"$LAB_OUT/mod-mutual.out" 2>&1 || rc=$?
check "MODULE=mutual_recursion: make overflow-demo exits 0" [ $rc = 0 ]
mrun=$LAB_OUT/$(readlink "$LAB_OUT/latest")
cyc=$(jq -r .cycle "$mrun/stackov-crash-vmcore.json" |
	sed -n 's/^mr_term -> mr_factor -> mr_expr x\([0-9]*\) (\([0-9]*\) bytes per cycle)$/\1 \2/p')
reps=${cyc% *} bytes=${cyc#* }
echo "stackov's cycle: ${reps:-?} times, ${bytes:-?} bytes per cycle"
check "stackov folds mr_term -> mr_factor -> mr_expr into one cycle" [ -n "$cyc" ]
check "its bytes per cycle (${bytes:-?}) cover the three buffers, plus at most 64 per frame" \
	sh -c "[ ${bytes:-0} -ge 320 ] && [ ${bytes:-999} -lt $((320 + 3 * 64)) ]"
# The compiler's own frame sizes (-fstack-usage), which include the return
# address and the saved registers: one turn is the three frames.
check "its bytes per cycle (${bytes:-?}) are the compiler's frame sizes of mr_term, mr_factor and mr_expr ($(su_cycle "$mrun/stackov-crash-vmcore.json" "$mrun"))" \
	[ "${bytes:-}" = "$(su_cycle "$mrun/stackov-crash-vmcore.json" "$mrun")" ]
n=$(sed -n '/^stack trace (/,/^$/p' "$mrun/reader-drgn-vmcore.out" | grep -cE ' mr_(expr|term|factor) at ')
check "drgn unwinds as many mr_* frames as the cycle holds ($n for ${reps:-?} x 3)" \
	sh -c "[ $n -ge $((${reps:-0} * 3)) ] && [ $n -lt $((${reps:-0} * 3 + 3)) ]"

readers_agree mutual_recursion "$mrun" mr_expr yes vmcore
svg_agrees mutual_recursion "$mrun"
explain_agrees mutual_recursion "$mrun"
check "mutual_recursion: gdb's stackov frames, in order, are drgn's own unwinder's" \
	gdb_frames_in "$mrun" vmcore drgn
# Not against crash's bt here: it drops the frame of the module's init
# function (text it names _MODULE_INIT_START_mutual_recursion), which gdb,
# drgn and crash's stackov all list; readers_agree compares stackov's.

# A kthread whose name has a byte past ASCII (0xe9) and a control
# character (0x01): every reader gives valid JSON, the same JSON, and the
# comm is the name's bytes, each past ASCII as the code point of its value.
rc=0
make -s overflow-demo MODULE=$m/odd_comm QEMU_DUMP=0 LAB_SHOW=0 >"$LAB_OUT/mod-odd.out" 2>&1 || rc=$?
check "MODULE=odd_comm: make overflow-demo exits 0" [ $rc = 0 ]
orun=$LAB_OUT/$(readlink "$LAB_OUT/latest")
for r in crash gdb drgn; do
	check "odd_comm: $r's stackov -j is valid JSON" jq -e .comm "$orun/stackov-$r-vmcore.json"
done
want=$(printf 'odd\351\001comm' | iconv -f latin1 -t utf-8)
check "odd_comm: the comm, read back from JSON, is the kthread's name" \
	[ "$(jq -r .comm "$orun/stackov-crash-vmcore.json")" = "$want" ]
check "odd_comm: the text names it odd\\xe9\\x01comm" grep -qF 'odd\xe9\x01comm' "$orun/stackov-crash-vmcore.txt"
readers_agree odd_comm "$orun" odd_comm_dive yes vmcore
explain_agrees odd_comm "$orun"
check "odd_comm: the log alone's JSON is valid, with the same comm" \
	[ "$(jq -r .comm "$orun/explain-vmcore.json")" = "$want" ]

good=$(readlink "$LAB_OUT/latest")

# one_line NAME OUTFILE PATTERN: failed with one error line (make's own aside)
one_line() {
	grep -vE '^make(\[[0-9]+\])?: \*\*\*|^==> ' "$2" >"$2.msg" || true
	sed 's/^/    /' "$2.msg"
	check "$1: one line names the problem: $3" grep -Eq -- "$3" "$2.msg"
	check "$1: out/latest is still the last good run" [ "$(readlink "$LAB_OUT/latest")" = "$good" ]
}
rc=0
make -s overflow-demo MODULE=$m/init_einval LAB_SHOW=0 >"$LAB_OUT/mod-einval.out" 2>&1 || rc=$?
check "MODULE=init_einval: make fails" [ $rc != 0 ]
one_line init_einval "$LAB_OUT/mod-einval.out" \
	"init_einval.ko did not load: insmod: can't insert .*: Invalid argument; kernel: init_einval: refusing to load"
rc=0
make -s overflow-demo MODULE=$m/syntax_error LAB_SHOW=0 >"$LAB_OUT/mod-syntax.out" 2>&1 || rc=$?
check "MODULE=syntax_error: make fails" [ $rc != 0 ]
check "the compiler's error is shown, at the user's path" \
	grep -q "^$LAB_ROOT/$m/syntax_error/syntax_error.c:[0-9]*:[0-9]*: error: expected" "$LAB_OUT/mod-syntax.out"
check "then one line says why" grep -q "^user-module.sh: error: MODULE=$m/syntax_error does not build against the vmap kernel" "$LAB_OUT/mod-syntax.out"
check "out/latest is still the last good run" [ "$(readlink "$LAB_OUT/latest")" = "$good" ]
rc=0
make -s overflow-demo MODULE=$m/no_such_dir >"$LAB_OUT/mod-missing.out" 2>&1 || rc=$?
one_line missing "$LAB_OUT/mod-missing.out" "MODULE=$m/no_such_dir: no such directory"
finish

#!/bin/sh
# make deb, and the package as a user has it. stackov-tools_VERSION_amd64.deb
# is built by dpkg-buildpackage in a trixie build root and must be lintian
# clean; it is installed with apt into a clean trixie root (debootstrap
# minbase with Debian's own crash, gdb and python3-drgn; made once in the
# cache, copied fresh here). There, with no make, no lab and no out/, its
# readers read a KERNEL=debian dump given as the file alone, with the -dbg
# vmlinux where linux-image-RELEASE-dbg puts it: crash (extend stackov.so;
# stackov), gdb (the script sourced, on the same boot's ELF dump), drgn
# (stackov-drgn, and the script under drgn -c), and stackov-log on the
# dump's dmesg. Each must give the lab's own report of the same dump,
# word for word: the lab's readers are its peers here.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
rc=0
deb=$(make -s deb 2>"$LAB_OUT/deb-make.log") || rc=$?
sed 's/^/    /' "$LAB_OUT/deb-make.log" | tail -12
check "make deb exits 0 and names the .deb" sh -c "[ $rc = 0 ] && [ -f '$deb' ]"
[ -f "${deb:-/nonexistent}" ] || finish
check "lintian: no error and no warning (out/deb/lintian.txt)" sh -c "! grep -q '^[EW]: ' '$LAB_OUT/deb/lintian.txt'"
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's,^\./,/,' >"$LAB_OUT/deb-files.txt"
for f in /usr/lib/stackov-tools/libstackov.so /usr/lib/crash/extensions/stackov.so /usr/bin/stackov-log \
	/usr/bin/stackov-drgn /usr/share/stackov-tools/gdb-scripts/stackov-gdb.py \
	/usr/share/stackov-tools/drgn-scripts/stackov_drgn.py /usr/share/stackov-tools/libstackov/stackov.py \
	/usr/share/man/man1/stackov-log.1.gz /usr/share/man/man1/stackov-drgn.1.gz /usr/share/man/man7/stackov.7.gz; do
	check "the package holds $f" grep -qx "$f" "$LAB_OUT/deb-files.txt"
done
croot=$("$LAB_ROOT/vm/builders/chroot.sh" deb-clean minbase crash,gdb,python3-drgn) ||
	{ fail "no clean trixie root"; finish; }
crashv=$(chroot_run "$croot" dpkg-query -W -f='${Version}' crash)
check "the package recommends the crash it was built for (crash (= $crashv))" \
	sh -c "dpkg-deb -f '$deb' Recommends | grep -qF 'crash (= $crashv)'"

# The dump: a KERNEL=debian run's (t-62 leaves its run), else a new one.
run=''
# shellcheck disable=SC2045 # newest first; run names hold no spaces
for r in $(ls -dt "$LAB_OUT"/*-RECURSE_TASK-stock-* 2>/dev/null); do
	if [ -s "$r/stackov-crash-vmcore.json" ] && [ -s "$r/stackov-gdb-vmcore.json" ] && [ -f "$r/vmcore.elf" ] &&
		jq -e '.kernel.description == "debian-6.1"' "$r/run.json" >/dev/null 2>&1; then
		run=$r
		break
	fi
done
if [ -z "$run" ]; then
	make -s overflow-demo KERNEL=debian SCENARIO=RECURSE_TASK QEMU_DUMP=0 LAB_SHOW=0 >"$LAB_OUT/deb-demo.out" 2>&1 || true
	run=$(readlink -f "$LAB_OUT/latest")
fi
[ -s "$run/stackov-crash-vmcore.json" ] || { fail "no KERNEL=debian run with a verdict ($run)"; finish; }
echo "    the dump: $run/vmcore"
rel=$("$("$LAB_ROOT/vm/builders/host-tools.sh" vmcore-check)" -i "$run/vmcore" | sed -n 's/^release=//p')

# A fresh copy of the clean root; the package installed by apt.
R=$LAB_OUT/deb-root
rm -rf "$R"
cp -a "$croot" "$R"
cp "$deb" "$R/tmp/"
rc=0
# Today's lists (the cached root's may name versions the mirror dropped).
chroot_run "$R" apt-get update -q >"$LAB_OUT/deb-install.log" 2>&1 || rc=$?
chroot_run "$R" apt-get install -y -q "/tmp/${deb##*/}" >>"$LAB_OUT/deb-install.log" 2>&1 || rc=$?
tail -3 "$LAB_OUT/deb-install.log" | sed 's/^/    /'
st=$(chroot_run "$R" dpkg-query -W -f='${db:Status-Status}' stackov-tools 2>/dev/null || true)
check "apt installs the .deb into a clean trixie root (dpkg: $st)" sh -c "[ $rc = 0 ] && [ '$st' = installed ]"
check "the root has no make, no lab" sh -c "[ ! -e '$R/usr/bin/make' ] && ! ls '$R' | grep -q 'out\|stackov-lab'"

# The user's files: the dump alone, the -dbg vmlinux, the module's .ko.
put() { ln "$(readlink -f "$1")" "$R$2" 2>/dev/null || cp "$1" "$R$2"; }
mkdir -p "$R/usr/lib/debug/boot" "$R/var/crash/1" "$R/srv/modules"
put "$run/vmlinux" "/usr/lib/debug/boot/vmlinux-$rel"
put "$run/vmcore" /var/crash/1/dump.1
put "$run/vmcore.elf" /srv/dump.elf
put "$run/vmcore.dmesg" /var/crash/1/dmesg.1
put "$run/lkdtm_ext.ko" /srv/modules/lkdtm_ext.ko
vml=/usr/lib/debug/boot/vmlinux-$rel
o=$LAB_OUT/deb-readers
rm -rf "$o" && mkdir -p "$o"

# same WHAT OUT LAB: the verdict in OUT (its JSON line and its text) is
# the lab's LAB.json and LAB.txt, word for word.
same() {
	grep -a -m1 '^{"stack":\|^{"kind":' "$2" | jq -c . >"$2.json" 2>/dev/null || true
	verdict_text "$2" >"$2.txt"
	check "$1 gives the lab's verdict, word for word (JSON and text)" \
		sh -c "[ -s '$2.json' ] && cmp -s '$2.json' '$3.json' && cmp -s '$2.txt' '$3.txt'"
}
printf '%s\n' "mod -s lkdtm_ext /srv/modules/lkdtm_ext.ko" "extend stackov.so" stackov "stackov -j" mod q >"$R/srv/crash.cmds"
chroot_run "$R" timeout 300 crash -s -i /srv/crash.cmds "$vml" /var/crash/1/dump.1 >"$o/crash.out" 2>&1 </dev/null || true
same "crash's extend stackov.so (from /usr/lib/crash/extensions)" "$o/crash.out" "$run/stackov-crash-vmcore"

at=$(sed -n 's/^[0-9a-f]\{16\}  *lkdtm_ext  *\([0-9a-f]\{16\}\) .*/0x\1/p' "$o/crash.out" | head -1)
check "crash's mod gives the module's address, for gdb" [ -n "$at" ]
chroot_run "$R" timeout 300 gdb -q -batch -nx "$vml" /srv/dump.elf \
	-ex 'source /usr/share/stackov-tools/gdb-scripts/stackov-gdb.py' \
	-ex "add-symbol-file /srv/modules/lkdtm_ext.ko -s .text $at" \
	-ex stackov-select -ex stackov -ex 'stackov -j' >"$o/gdb.out" 2>&1 </dev/null || true
same "gdb, with stackov-gdb.py sourced," "$o/gdb.out" "$run/stackov-gdb-vmcore"

chroot_run "$R" sh -c "timeout 300 stackov-drgn /var/crash/1/dump.1 $vml /srv/modules/lkdtm_ext.ko &&
	timeout 300 stackov-drgn -j /var/crash/1/dump.1 $vml /srv/modules/lkdtm_ext.ko" >"$o/drgn.out" 2>&1 </dev/null || true
same "stackov-drgn" "$o/drgn.out" "$run/stackov-drgn-vmcore"
chroot_run "$R" timeout 300 drgn -q -c /var/crash/1/dump.1 -s "$vml" -s /srv/modules/lkdtm_ext.ko \
	/usr/share/stackov-tools/drgn-scripts/stackov_drgn.py -j >"$o/drgn-c.out" 2>&1 </dev/null || true
grep -a -m1 '^{' "$o/drgn-c.out" | jq -c . >"$o/drgn-c.json" 2>/dev/null || true
check "drgn -c VMCORE -s VMLINUX stackov_drgn.py -j gives the lab's JSON" \
	sh -c "[ -s '$o/drgn-c.json' ] && cmp -s '$o/drgn-c.json' '$run/stackov-drgn-vmcore.json'"

# stackov-log on the dump's dmesg, against the lab's stackov-log on it.
chroot_run "$R" stackov-log -v "$vml" -m /srv/modules /var/crash/1/dmesg.1 >"$o/log.txt" 2>&1 || true
if [ "$(jq -r .log "$run/explain.json")" = vmcore.dmesg ]; then
	check "stackov-log on the dump's dmesg gives the lab's explanation, word for word" \
		sh -c "[ -s '$o/log.txt' ] && cmp -s '$o/log.txt' '$run/explain.txt'"
else
	"$("$LAB_ROOT/vm/builders/host-tools.sh" stackov-log)" -v "$run/vmlinux" -m "$run" "$run/vmcore.dmesg" >"$o/log-lab.txt" 2>&1 || true
	check "stackov-log on the dump's dmesg gives the lab's stackov-log's explanation, word for word" \
		sh -c "[ -s '$o/log.txt' ] && cmp -s '$o/log.txt' '$o/log-lab.txt'"
fi
check "stackov-log's verdict names the TASK stack" grep -q '^stack overflow: TASK stack' "$o/log.txt"
for f in crash gdb drgn; do sed -n '/stack overflow: /{p;q}' "$o/$f.out" | sed "s/^/    $f: /"; done
[ "$failed" = 0 ] && [ "${KEEP:-0}" != 1 ] && rm -rf "$R"
finish

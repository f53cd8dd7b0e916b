#!/bin/sh
# A second build with nothing changed does no kernel work; the initramfs
# is reproducible (same inputs, same bytes).
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

v=vmap
vml=$(kernel_vmlinux $v)
before=$(stat -c %Y "$vml")
start=$(date +%s)
out=$("$LAB_ROOT/vm/kernel.sh" $v 2>&1)
took=$(($(date +%s) - start))
says_up_to_date() { echo "$out" | grep -q "kernel $v is up to date"; }
check "no-op kernel build says up to date" says_up_to_date
check "no-op kernel build took ${took}s (< 5 s)" [ "$took" -lt 5 ]
check "vmlinux not rewritten" [ "$(stat -c %Y "$vml")" = "$before" ]

img=$(initramfs_image $v)
a=$(sha256sum "$img" | cut -d' ' -f1)
LAB_FORCE=1 "$LAB_ROOT/vm/initramfs.sh" $v 2>/dev/null
b=$(sha256sum "$img" | cut -d' ' -f1)
check "initramfs rebuilt from the same inputs is byte-identical" [ "$a" = "$b" ]
check "initramfs holds init, busybox, labtrig and the module" sh -c \
	"zcat '$img' | cpio -t --quiet | grep -cxE 'init|bin/busybox|bin/labtrig|lib/modules/lkdtm_ext.ko' | grep -qx 4"
finish

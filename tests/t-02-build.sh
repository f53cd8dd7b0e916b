#!/bin/sh
# Both kernel variants, the module and the initramfs build; the kernel has
# what the lab needs (DWARF, gdb scripts, the stack options) and the module
# matches the kernel it was built for.
# shellcheck source=tests/lib.sh
. "$(dirname -- "$0")/lib.sh"

cd "$LAB_ROOT" || exit 1
for v in vmap novmap; do
	o=$(kbuild_dir $v)
	if ! make -s build VARIANT=$v >"$LAB_OUT/build-$v.log" 2>&1; then
		tail -20 "$LAB_OUT/build-$v.log"
		fail "$v: make build failed (log: $LAB_OUT/build-$v.log)"
		continue
	fi
	pass "$v: make build"
	check "$v: bzImage" [ -s "$(kernel_image $v)" ]
	check "$v: vmlinux has DWARF" sh -c "readelf -S '$o/vmlinux' | grep -q '\.debug_info'"
	check "$v: vmlinux-gdb.py" [ -e "$o/vmlinux-gdb.py" ]
	missing=''
	for opt in DEBUG_INFO_DWARF5 FRAME_POINTER GDB_SCRIPTS KEXEC CRASH_DUMP \
		DEBUG_FS DEBUG_STACK_USAGE SCHED_STACK_END_CHECK DEBUG_SG \
		DMA_API_DEBUG STACKPROTECTOR_STRONG VIRTIO_BLK SERIAL_8250_CONSOLE; do
		grep -qx "CONFIG_$opt=y" "$o/.config" || missing="$missing CONFIG_$opt"
	done
	check "$v: config has the lab's debug and kdump options${missing:+ (missing:$missing)}" [ -z "$missing" ]
	check "$v: KASLR is off" sh -c "! grep -q '^CONFIG_RANDOMIZE_BASE=y' '$o/.config'"
	ko=$(module_dir $v)/lkdtm_ext.ko
	check "$v: lkdtm_ext.ko vermagic matches the kernel" \
		[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$(cat "$o/include/config/kernel.release")" ]
done
check "vmap: CONFIG_VMAP_STACK=y" grep -qx 'CONFIG_VMAP_STACK=y' "$(kbuild_dir vmap)/.config"
check "novmap: CONFIG_VMAP_STACK unset" \
	grep -qx '# CONFIG_VMAP_STACK is not set' "$(kbuild_dir novmap)/.config"
bid() { readelf -n "$(kernel_vmlinux "$1")" | sed -n 's/.*Build ID: //p'; }
# shellcheck disable=SC2016 # expanded by the inner shell
check "vmap and novmap are two kernels (build IDs $(bid vmap) and $(bid novmap))" \
	sh -c '[ -n "$1" ] && [ -n "$2" ] && [ "$1" != "$2" ]' - "$(bid vmap)" "$(bid novmap)"
# The two configs differ in VMAP_STACK and what follows from it, nothing else.
cfgdiff() {
	diff "$(kbuild_dir vmap)/.config" "$(kbuild_dir novmap)/.config" | grep '^[<>]' |
		grep -v 'VMAP_STACK' | grep . && return 1
	return 0
}
check "the variants' configs differ only in CONFIG_VMAP_STACK" cfgdiff
finish

#!/bin/sh
# vm/builders/kernel.sh [VARIANT] - make VARIANT of the kernel that KERNEL and
# LINUX choose (vm/kernels/), by the recipe its description names:
# vm/builders/kernel-$KERNEL_RECIPE.sh. Prints nothing but progress.
set -eu
# shellcheck source=vm/lib.sh
. "$(dirname -- "$0")/../lib.sh"

recipe=$LAB_ROOT/vm/builders/kernel-$KERNEL_RECIPE.sh
[ -f "$recipe" ] || die "kernel $LAB_KERNEL: no recipe '$KERNEL_RECIPE' ($recipe)"
exec "$recipe" "$@"

# SPDX-License-Identifier: GPL-2.0
#
# stackov-lab: what an ELF file's notes say, for readers that must be told:
# a dump's VMCOREINFO (KERNELOFFSET, the KASLR offset; BUILD-ID and
# OSRELEASE, which kernel it was), and a vmlinux's GNU build id. gdb reads
# an ELF vmcore at vmlinux's link addresses unless it is told the offset;
# drgn and crash read VMCOREINFO themselves.

import struct

PT_NOTE = 4
NT_GNU_BUILD_ID = 3


def _notes(path):
    """(name, type, desc) of every note in @path's PT_NOTE segments."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2:
            raise ValueError("%s is not a 64-bit ELF file" % path)
        phoff, = struct.unpack_from("<Q", head, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", head, 0x36)
        f.seek(phoff)
        phdrs = f.read(phentsize * phnum)
        for i in range(phnum):
            ptype, _, off, _, _, filesz = struct.unpack_from("<IIQQQQ", phdrs, i * phentsize)
            if ptype != PT_NOTE or filesz > 1 << 24:
                continue
            f.seek(off)
            data = f.read(filesz)
            pos = 0
            while pos + 12 <= len(data):
                namesz, descsz, ntype = struct.unpack_from("<III", data, pos)
                pos += 12
                name = data[pos:pos + namesz].rstrip(b"\0").decode("ascii", "replace")
                pos += (namesz + 3) & ~3
                yield name, ntype, data[pos:pos + descsz]
                pos += (descsz + 3) & ~3


def _kdump_vmcoreinfo(path):
    """VMCOREINFO's text from a kdump-compressed dump (makedumpfile's
    format, QEMU's kdump-zlib too): its sub header, one block into the
    file, gives where it is (makedumpfile's diskdump_mod.h)."""
    with open(path, "rb") as f:
        head = f.read(432)
        block_size, = struct.unpack_from("<i", head, 428)
        if not 0 < block_size <= 1 << 20:
            return None
        f.seek(block_size + 32)
        off, size = struct.unpack("<QQ", f.read(16))
        if not off or not 0 < size < 1 << 20:
            return None
        f.seek(off)
        return f.read(size)


def vmcoreinfo(path):
    """The dump's VMCOREINFO as a dict, {} when it has none: an ELF dump's
    note, or a kdump-compressed dump's copy."""
    with open(path, "rb") as f:
        magic = f.read(8)
    if magic == b"KDUMP   ":
        data = _kdump_vmcoreinfo(path)
    else:
        data = None
        for name, _, desc in _notes(path):
            if name == "VMCOREINFO":
                data = desc
                break
    if not data:
        return {}
    text = data.rstrip(b"\0").decode("ascii", "replace")
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def kaslr_offset(info):
    """KERNELOFFSET, the distance the kernel was moved by KASLR (0 without)."""
    return int(info.get("KERNELOFFSET", "0"), 16)


def build_id(path):
    """vmlinux's GNU build id in hex, or None."""
    for name, ntype, desc in _notes(path):
        if name == "GNU" and ntype == NT_GNU_BUILD_ID:
            return desc.hex()
    return None


def mismatch(dump, vmlinux):
    """One line when @vmlinux is not the kernel that wrote @dump (their
    build ids differ), else None. A dump without VMCOREINFO is one too:
    nothing in it says where the kernel was."""
    info = vmcoreinfo(dump)
    if not info:
        return "%s has no VMCOREINFO note: its kernel's offset cannot be known" % dump
    want, have = info.get("BUILD-ID"), build_id(vmlinux)
    if want and have and not have.startswith(want):
        return ("%s is not the kernel of this dump: the dump's build id is %s (%s), "
                "vmlinux's %s" % (vmlinux, want, info.get("OSRELEASE", "?"), have))
    return None

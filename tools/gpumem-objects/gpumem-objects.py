#!/usr/bin/env python3
"""gpumem-objects: look inside the gpu.binary ops of an MLIR file.

  gpumem-objects ptx  FILE          print the PTX of every `format=isa` object
  gpumem-objects smem FILE          print each kernel's shared memory bytes
  gpumem-objects extract FILE DIR   write every object to DIR
  gpumem-objects spirv FILE DIR     write the SPIR-V module of every vulkan
                                    image to DIR (NAME.spv; for spirv-val)

FILE may be '-' for standard input. `smem` asks `ptxas -v` (from $CUDA_HOME,
/usr/local/cuda or $PATH) when it exists and says so; without ptxas it sums
the `.shared` declarations of the PTX, which is a module-wide upper bound.
"""
import os
import re
import struct
import shutil
import subprocess
import sys
import tempfile

OBJECT = re.compile(
    r'#gpu\.object<#(?P<dialect>\w+)\.(?P<attr>\w+)(?:<(?P<target>[^>]*)>)?\s*,\s*'
    r'(?:properties\s*=\s*\{[^}]*\}\s*,\s*)?'
    r'(?:(?P<kind>assembly|bin|offload)\s*=\s*)?"(?P<data>(?:[^"\\]|\\.)*)"')
BINARY = re.compile(r'gpu\.binary\s+@(?P<name>[\w$.]+)')
EXTENSION = {'assembly': 'ptx', 'bin': 'cubin', 'offload': 'llvm', None: 'fatbin'}


def unescape(text):
    """Undoes MLIR's string escaping: \\\\, \\" and two hex digits."""
    out = bytearray()
    i = 0
    raw = text.encode('utf-8')
    while i < len(raw):
        c = raw[i]
        if c == 0x5C and i + 1 < len(raw):
            nxt = raw[i + 1]
            if nxt in (0x5C, 0x22):
                out.append(nxt)
                i += 2
                continue
            out.append(int(raw[i + 1:i + 3], 16))
            i += 3
            continue
        out.append(c)
        i += 1
    return bytes(out)


def objects(text):
    """Yields (binary name, chip, kind, bytes) for every object."""
    starts = [(m.start(), m.group('name')) for m in BINARY.finditer(text)]
    for index, (start, name) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(text)
        for obj in OBJECT.finditer(text, start, end):
            chip = re.search(r'chip\s*=\s*"([^"]*)"', obj.group('target') or '')
            if obj.group('dialect') == 'gpumem':
                chip = None
                label = obj.group('attr')  # the cpu target
            else:
                label = chip.group(1) if chip else 'unknown'
            yield (name, label, obj.group('kind'), unescape(obj.group('data')))


def find_ptxas():
    for variable in ('CUDA_HOME', 'CUDA_PATH'):
        root = os.environ.get(variable)
        if root and os.access(os.path.join(root, 'bin', 'ptxas'), os.X_OK):
            return os.path.join(root, 'bin', 'ptxas')
    if os.access('/usr/local/cuda/bin/ptxas', os.X_OK):
        return '/usr/local/cuda/bin/ptxas'
    return shutil.which('ptxas')


def ptxas_smem(ptxas, ptx, chip):
    """Runs ptxas -v; returns [(kernel, bytes)] in the order ptxas reports."""
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, 'module.ptx')
        with open(source, 'wb') as f:
            f.write(ptx)
        run = subprocess.run([ptxas, '-v', '-arch=' + chip, source, '-o',
                              os.path.join(tmp, 'module.cubin')],
                             capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit('gpumem-objects: ptxas failed:\n' + run.stderr)
    result, kernel = [], None
    for line in run.stderr.splitlines():
        entry = re.search(r"Compiling entry function '([^']+)'", line)
        if entry:
            kernel = entry.group(1)
        # The "Used N registers" line closes an entry; it omits smem when 0.
        if kernel and re.search(r'Used \d+ registers', line):
            usage = re.search(r'(\d+) bytes smem', line)
            result.append((kernel, int(usage.group(1)) if usage else 0))
            kernel = None
    return result


def declared_smem(ptx):
    """Sums the static .shared declarations of a PTX module."""
    total = 0
    for m in re.finditer(rb'\.shared\s+\.align\s+\d+\s+\.(\w)(\d+)\s+[\w$]+\[(\d+)\]', ptx):
        total += int(m.group(2)) // 8 * int(m.group(3))
    return total


VULKAN_IMAGE_MAGIC = 0x4b564d47  # include/gpumem/Runtime/VulkanKernelABI.h


def vulkan_spirv(image):
    """The SPIR-V bytes of a vulkan-target image, or None."""
    if len(image) < 16:
        return None
    magic, _, _, words = struct.unpack_from('<4I', image)
    if magic != VULKAN_IMAGE_MAGIC or 16 + 4 * words > len(image):
        return None
    return image[16:16 + 4 * words]


def main(argv):
    if len(argv) < 3 or argv[1] not in ('ptx', 'smem', 'extract', 'spirv'):
        sys.exit(__doc__)
    text = sys.stdin.read() if argv[2] == '-' else open(argv[2]).read()
    found = list(objects(text))
    if not found:
        sys.exit('gpumem-objects: no gpu.binary object in ' + argv[2])
    if argv[1] == 'ptx':
        for name, chip, kind, data in found:
            if kind == 'assembly':
                sys.stdout.write('// gpu.binary @%s (%s)\n' % (name, chip))
                sys.stdout.write(data.decode())
        return
    if argv[1] == 'spirv':
        os.makedirs(argv[3], exist_ok=True)
        for name, label, kind, data in found:
            spirv = vulkan_spirv(data) if label == 'vulkan' else None
            if spirv is None:
                continue
            path = os.path.join(argv[3], '%s.spv' % name)
            with open(path, 'wb') as f:
                f.write(spirv)
            print(path)
        return
    if argv[1] == 'extract':
        os.makedirs(argv[3], exist_ok=True)
        for name, chip, kind, data in found:
            # A cpu-target binary is a host shared object.
            extension = 'so' if chip == 'cpu' and kind == 'bin' \
                else EXTENSION[kind]
            path = os.path.join(argv[3], '%s.%s.%s' % (name, chip, extension))
            with open(path, 'wb') as f:
                f.write(data)
            print(path)
        return
    ptxas = find_ptxas()
    for name, chip, kind, data in found:
        if kind != 'assembly':
            sys.exit('gpumem-objects: smem needs format=isa objects')
        if ptxas:
            for kernel, size in ptxas_smem(ptxas, data, chip):
                print('%s::%s: %d bytes shared memory (ptxas -v, %s)' %
                      (name, kernel, size, chip))
        else:
            print('%s: %d bytes of .shared declared in PTX (ptxas not found)' %
                  (name, declared_smem(data)))


if __name__ == '__main__':
    try:
        main(sys.argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # A reader that stops early (grep -q) is not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)

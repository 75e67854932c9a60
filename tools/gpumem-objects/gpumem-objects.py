#!/usr/bin/env python3
"""gpumem-objects: look inside the gpu.binary ops of an MLIR file.

  gpumem-objects ptx  FILE          print the PTX of every `format=isa` object
  gpumem-objects smem FILE          print each kernel's shared memory bytes
  gpumem-objects extract FILE DIR   write every object to DIR (NAME.CHIP.cubin,
                                    .hsaco for AMD code objects, .s for AMD
                                    assembly, .ptx, ...)
  gpumem-objects spirv FILE DIR     write the SPIR-V module of every vulkan
                                    image to DIR (NAME.spv; for spirv-val)
  gpumem-objects --version          print gpumem's version
  gpumem-objects chips FILE         list every object with its chip, kind
                                    and size, and what each NVIDIA fatbin
                                    (a cubin per chip, PTX) or AMD offload
                                    bundle (a code object per chip) holds;
                                    FILE may also be an executable
                                    gpumem-compile made: its fatbins and
                                    bundles are listed

FILE may be '-' for standard input. `smem` asks `ptxas -v` when it finds
ptxas and says so; without ptxas it sums the `.shared` declarations of the
PTX, which is a module-wide upper bound. The ptxas is the one of $CUDA_HOME
or $CUDA_PATH when set, else the one `gpumem-run --list-targets` reports
when a gpumem-run is installed next to this script, else the one of
/usr/local/cuda or $PATH.

Every failure is one line, `gpumem-objects: error: ...`, on stderr: exit
status 2 for a wrong command line, 1 for anything else (an input that
cannot be read or holds no gpu.binary object, a DIR that cannot be
written, ptxas failing).
"""
import os
import re
import struct
import shutil
import subprocess
import sys
import tempfile

# gpumem's version, written in by CMake when it copies this script next to
# the other tools.
VERSION = '@PROJECT_VERSION@'

OBJECT = re.compile(
    r'#gpu\.object<#(?P<dialect>\w+)\.(?P<attr>\w+)(?:<(?P<target>[^>]*)>)?\s*,\s*'
    r'(?:properties\s*=\s*\{[^}]*\}\s*,\s*)?'
    r'(?:(?P<kind>assembly|bin|offload)\s*=\s*)?"(?P<data>(?:[^"\\]|\\.)*)"')
BINARY = re.compile(r'gpu\.binary\s+@(?P<name>[\w$.]+)')
EXTENSION = {'assembly': 'ptx', 'bin': 'cubin', 'offload': 'llvm', None: 'fatbin'}
# Each subcommand and the arguments it takes after FILE.
COMMANDS = {'ptx': [], 'smem': [], 'extract': ['DIR'], 'spirv': ['DIR'],
            'chips': []}


class Failure(Exception):
    """A failure reported as one line; `status` is the exit status."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


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
            try:
                out.append(int(raw[i + 1:i + 3], 16))
            except ValueError:
                raise Failure('malformed escape in a gpu.object string: %r'
                              % raw[i:i + 3].decode('utf-8', 'replace'))
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


def gpumem_run_ptxas():
    """The ptxas that `gpumem-run --list-targets` names on its cuda line,
    asking the gpumem-run installed next to this script (symbolic links
    resolved: build/bin in a build tree, bin/ in an install prefix); None
    when there is no such gpumem-run, it fails, or it names no ptxas. The
    line ends in `; ptxas PATH (CUDA MAJOR.MINOR)` when it names one
    (gpumem::printTargets, lib/Tools/ToolSupport.cpp)."""
    here = os.path.dirname(os.path.realpath(__file__))
    tool = os.path.join(here, 'gpumem-run')
    if not os.access(tool, os.X_OK):
        return None
    try:
        run = subprocess.run([tool, '--list-targets'], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, errors='replace',
                             timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    if run.returncode != 0:
        return None
    for line in run.stdout.splitlines():
        if line.split(' ', 1)[0] != 'cuda':
            continue
        # The last "; ptxas " of the line: the driver's message before it
        # is free text.
        found = re.match(r'.*; ptxas (.+) \(CUDA \d+\.\d+\)$', line)
        if found and os.access(found.group(1), os.X_OK):
            return found.group(1)
        return None
    return None


def find_ptxas():
    """The ptxas to ask: that of $CUDA_HOME or $CUDA_PATH when it exists
    (the user's explicit choice, used and its failure reported even when it
    cannot say its release, which gpumem's own search skips); else the one
    gpumem-run reports, so that the tools' one search (findCudaToolkit,
    lib/Support/NVIDIATarget.cpp) decides; else, for a copy installed
    without gpumem-run or a gpumem-run that names none, the rest of that
    search's order: /usr/local/cuda, then $PATH."""
    for variable in ('CUDA_HOME', 'CUDA_PATH'):
        root = os.environ.get(variable)
        if root and os.access(os.path.join(root, 'bin', 'ptxas'), os.X_OK):
            return os.path.join(root, 'bin', 'ptxas')
    reported = gpumem_run_ptxas()
    if reported:
        return reported
    if os.access('/usr/local/cuda/bin/ptxas', os.X_OK):
        return '/usr/local/cuda/bin/ptxas'
    return shutil.which('ptxas')


def ptxas_smem(ptxas, ptx, chip):
    """Runs ptxas -v; returns [(kernel, bytes)] in the order ptxas reports."""
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, 'module.ptx')
        with open(source, 'wb') as f:
            f.write(ptx)
        try:
            run = subprocess.run([ptxas, '-v', '-arch=' + chip, source, '-o',
                                  os.path.join(tmp, 'module.cubin')],
                                 capture_output=True, text=True)
        except OSError as error:
            raise Failure('cannot run %s: %s' % (ptxas, error.strerror))
    if run.returncode != 0:
        # ptxas's first error says why; the rest is its summary.
        lines = [line.strip() for line in run.stderr.splitlines()
                 if line.strip()]
        first = next((line for line in lines if 'error' in line),
                     lines[0] if lines else 'exit status %d' % run.returncode)
        raise Failure('ptxas failed for %s: %s' % (chip, first))
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


def read_bytes(path):
    """The bytes of FILE ('-': standard input)."""
    try:
        if path == '-':
            return sys.stdin.buffer.read()
        with open(path, 'rb') as f:
            return f.read()
    except OSError as error:
        raise Failure('cannot read %s: %s' % (path, error.strerror))


def read_input(path, data=None):
    """The text of FILE ('-': standard input), or of `data` read from it."""
    try:
        return (read_bytes(path) if data is None else data).decode('utf-8')
    except UnicodeDecodeError:
        raise Failure('%s is not MLIR text (not UTF-8)' %
                      ('standard input' if path == '-' else path))
    except OSError as error:
        raise Failure('cannot read %s: %s' % (path, error.strerror))


FATBIN_MAGIC = 0xBA55ED50
FATBIN_KINDS = {1: 'ptx', 2: 'cubin'}


def fatbin_entries(data):
    """(kind, sm) of every entry of an NVIDIA fatbin, or None when `data` is
    not one. The container: a 16-byte header (u32 magic, u16 version, u16
    header size, u64 size of the entries), then entries each with a header
    (u16 kind: 1 PTX, 2 ELF; u16 version; u32 header size; u64 payload size;
    ...; u32 sm at byte 28) and its payload."""
    if len(data) < 16:
        return None
    magic, _, header, size = struct.unpack_from('<IHHQ', data, 0)
    if magic != FATBIN_MAGIC:
        return None
    entries = []
    offset, end = header, min(len(data), header + size)
    while offset + 32 <= end:
        kind, _, entry_header, payload = struct.unpack_from('<HHIQ', data, offset)
        sm = struct.unpack_from('<I', data, offset + 28)[0]
        entries.append((FATBIN_KINDS.get(kind, 'kind %d' % kind), sm))
        if entry_header == 0:
            break
        offset += entry_header + payload
    return entries


BUNDLE_MAGIC = b'__CLANG_OFFLOAD_BUNDLE__'
AMDGPU_ENTRY = re.compile(r'^hip(?:v4)?-amdgcn-amd-amdhsa--(?P<target>.+)$')


def bundle_entries(data):
    """(target id, size) of every AMD code object of a clang offload bundle
    (runtime's OffloadBundle.h has the layout), or None when `data` is not
    one or is cut short."""
    if not data.startswith(BUNDLE_MAGIC) or len(data) < 32:
        return None
    count = struct.unpack_from('<Q', data, 24)[0]
    entries, offset = [], 32
    for _ in range(count):
        if offset + 24 > len(data):
            return None
        _, size, length = struct.unpack_from('<QQQ', data, offset)
        entry = data[offset + 24:offset + 24 + length].decode('ascii', 'replace')
        offset += 24 + length
        match = AMDGPU_ENTRY.match(entry)
        if match:
            entries.append((match.group('target'), size))
    return entries


def describe_bundle(entries):
    return ', '.join('%s code object (%d bytes)' % entry for entry in entries)


def list_executable_fatbins(path, data):
    """Prints what every NVIDIA fatbin and AMD offload bundle embedded in an
    executable holds."""
    magic = struct.pack('<I', FATBIN_MAGIC)
    found = 0
    offset = data.find(magic)
    while offset >= 0:
        entries = fatbin_entries(data[offset:])
        if entries:
            found += 1
            print('fatbin at offset %d: %s' % (offset, ', '.join(
                'sm_%d %s' % (sm, what) for what, sm in entries)))
        offset = data.find(magic, offset + 4)
    offset = data.find(BUNDLE_MAGIC)
    while offset >= 0:
        entries = bundle_entries(data[offset:])
        if entries:
            found += 1
            print('offload bundle at offset %d: %s' %
                  (offset, describe_bundle(entries)))
        offset = data.find(BUNDLE_MAGIC, offset + len(BUNDLE_MAGIC))
    if not found:
        raise Failure('no NVIDIA fatbin or AMD offload bundle in ' + path)


def object_kind(chip, kind):
    """What an object is, as `chips` and `extract` name it."""
    if chip == 'cpu' and kind == 'bin':
        return 'so'
    if chip.startswith('gfx'):
        return {'bin': 'hsaco', None: 'hipfb'}.get(kind, 's')
    return EXTENSION[kind]


def parse_command_line(argv):
    """Checks the command line; returns (command, FILE, DIR or None)."""
    if len(argv) < 2:
        raise Failure('no subcommand; expected ptx, smem, extract, spirv or '
                      'chips (gpumem-objects --help)', 2)
    command = argv[1]
    if command not in COMMANDS:
        raise Failure("unknown subcommand '%s'; expected ptx, smem, extract, "
                      "spirv or chips (gpumem-objects --help)" % command, 2)
    wanted = ['FILE'] + COMMANDS[command]
    given = argv[2:]
    if len(given) != len(wanted):
        raise Failure('%s takes %s, got %d argument%s' %
                      (command, ' and '.join(wanted), len(given),
                       '' if len(given) == 1 else 's'), 2)
    return command, given[0], given[1] if len(given) > 1 else None


def make_directory(path):
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise Failure('cannot create directory %s: %s' %
                      (path, error.strerror))


def write_file(path, data):
    try:
        with open(path, 'wb') as f:
            f.write(data)
    except OSError as error:
        raise Failure('cannot write %s: %s' % (path, error.strerror))


def main(argv):
    if len(argv) == 2 and argv[1] in ('-h', '--help'):
        sys.stdout.write(__doc__)
        return
    if len(argv) == 2 and argv[1] == '--version':
        sys.stdout.write('gpumem-objects %s\n' % VERSION)
        return
    command, path, directory = parse_command_line(argv)
    argv = [argv[0], command, path] + ([directory] if directory else [])
    data = read_bytes(path)
    if command == 'chips' and data.startswith(b'\x7fELF'):
        return list_executable_fatbins(path, data)
    text = read_input(path, data)
    found = list(objects(text))
    if not found:
        raise Failure('no gpu.binary object in ' +
                      ('standard input' if path == '-' else path))
    if argv[1] == 'ptx':
        for name, chip, kind, data in found:
            if kind == 'assembly':
                sys.stdout.write('// gpu.binary @%s (%s)\n' % (name, chip))
                sys.stdout.write(data.decode('utf-8', 'replace'))
        return
    if argv[1] == 'spirv':
        make_directory(argv[3])
        for name, label, kind, data in found:
            spirv = vulkan_spirv(data) if label == 'vulkan' else None
            if spirv is None:
                continue
            path = os.path.join(argv[3], '%s.spv' % name)
            write_file(path, spirv)
            print(path)
        return
    if argv[1] == 'chips':
        for name, chip, kind, data in found:
            line = '%s: %s %s, %d bytes' % (name, chip, object_kind(chip, kind),
                                            len(data))
            bundle = bundle_entries(data) if kind is None else None
            entries = fatbin_entries(data) if kind is None else None
            if bundle is not None:
                line += ': ' + describe_bundle(bundle)
            elif entries is not None:
                line += ': ' + ', '.join('sm_%d %s' % (sm, what)
                                         for what, sm in entries)
            print(line)
        return
    if argv[1] == 'extract':
        make_directory(argv[3])
        for name, chip, kind, data in found:
            # A cpu-target binary is a host shared object, an AMD one
            # (chip gfxN) an HSA code object, and AMD assembly is not PTX.
            extension = object_kind(chip, kind)
            path = os.path.join(argv[3], '%s.%s.%s' % (name, chip, extension))
            write_file(path, data)
            print(path)
        return
    ptxas = find_ptxas()
    for name, chip, kind, data in found:
        if kind != 'assembly':
            raise Failure('smem needs format=isa objects; gpu.binary @%s '
                          'holds %s' % (name, {
                              'bin': 'a binary (format=bin)',
                              'offload': 'LLVM IR (format=offload)',
                              None: 'a fatbin (format=fatbin)'}[kind]))
        if ptxas:
            if chip in ('unknown', 'cpu', 'vulkan'):
                raise Failure('smem needs NVIDIA objects; gpu.binary @%s '
                              'is for %s' % (name, chip))
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
    except Failure as failure:
        sys.stderr.write('gpumem-objects: error: %s\n' % failure)
        sys.exit(failure.status)
    except KeyboardInterrupt:
        sys.stderr.write('gpumem-objects: error: interrupted\n')
        sys.exit(130)
    except BrokenPipeError:
        # A reader that stops early (grep -q) is not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)

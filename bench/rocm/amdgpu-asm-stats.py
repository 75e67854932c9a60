#!/usr/bin/env python3
"""amdgpu-asm-stats: static figures of the kernels in AMDGPU assembly files.

  amdgpu-asm-stats.py [--kernels a,b,c] NAME=FILE [NAME=FILE ...]

Each FILE is the textual assembly LLVM's AMDGPU backend prints (`clang -S`,
`llc`, `gpu-module-to-binary{format=isa}`); NAME labels its rows (a
compiler; a NAME given for several files gathers their kernels). Prints two markdown tables, one row per kernel and compiler:

  resources   instructions, code bytes, VGPRs, SGPRs, AGPRs, spills, LDS and
              scratch bytes
  inner loop  the back-edge loops and the largest innermost one's mix

How the figures are read:
- A kernel is the `.amdhsa_kernel NAME` block; its code runs from the label
  `NAME:` to `.Lfunc_end` or the next `.section`, whichever comes first.
- An instruction is a line of that code that is neither a label, a directive
  nor a comment (`;`), e.g. `s_waitcnt`, `s_nop` and branches count.
- A loop is a branch (`s_cbranch_*` or `s_branch`) to a label defined
  earlier in the kernel: its instructions are those from the label to the
  branch, the branch included. Several back-edges to one label are one loop.
  An innermost loop contains no other; the table shows the largest one.
- VGPRs, SGPRs and AGPRs are the code object metadata's `.vgpr_count`,
  `.sgpr_count` (VCC, FLAT_SCRATCH and the XNACK mask included) and
  `.agpr_count`; without metadata, `.amdhsa_next_free_vgpr` less the AGPRs
  and `.amdhsa_next_free_sgpr`, and AGPRs from `.amdhsa_accum_offset`.
  LDS and scratch bytes are `.amdhsa_group_segment_fixed_size` and
  `.amdhsa_private_segment_fixed_size`; code bytes the function symbol's
  size once the file is assembled by llvm-mc ($LLVM_BIN, else LLVM 22's,
  else PATH), else the backend's `; codeLenInByte` comment.

Figures only: the exit status is 0 unless a file cannot be read or holds no
kernel (then 1, with one `amdgpu-asm-stats: error: ...` line on stderr).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MNEMONIC = re.compile(r'^[a-z_][a-z0-9_]*$')
BRANCH = re.compile(r'^(s_cbranch_\w+|s_branch)\s+(\S+)')
DIRECTIVE = re.compile(r'^\s*\.amdhsa_(\w+)\s+(-?\d+)', re.M)


class Failure(Exception):
    pass


def llvm_tool(name):
    """$LLVM_BIN/NAME, else LLVM 22's, else NAME on PATH; None if absent."""
    for directory in (os.environ.get('LLVM_BIN'), '/usr/lib/llvm-22/bin'):
        if directory and os.access(os.path.join(directory, name), os.X_OK):
            return os.path.join(directory, name)
    return shutil.which(name)


def code_sizes(path, text):
    """{function: bytes} from assembling `path` with llvm-mc and reading
    the symbol sizes with llvm-readelf; {} when either is missing or fails."""
    mc, readelf = llvm_tool('llvm-mc'), llvm_tool('llvm-readelf')
    target = re.search(r'\.amdgcn_target\s+"amdgcn-amd-amdhsa--(gfx\w+)', text)
    if not mc or not readelf or not target:
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, 'code.o')
        run = subprocess.run([mc, '-triple=amdgcn-amd-amdhsa',
                              '-mcpu=' + target.group(1), '-filetype=obj',
                              path, '-o', obj], capture_output=True)
        if run.returncode != 0:
            return {}
        symbols = subprocess.run([readelf, '-s', '-W', obj],
                                 capture_output=True, text=True).stdout
    sizes = {}
    for line in symbols.splitlines():
        fields = line.split()
        if len(fields) >= 8 and fields[3] == 'FUNC':
            sizes[fields[7]] = int(fields[2], 0)
    return sizes


def strip(line):
    """The line without its `;` comment, stripped."""
    return line.split(';', 1)[0].strip()


def is_vmem(op):
    return op.startswith(('global_', 'buffer_', 'flat_', 'scratch_'))


def kernel_code(lines, name):
    """The instruction mnemonics and label positions of kernel `name`:
    ([(mnemonic, operands)], {label: index of the next instruction}), and
    the index of the line after the code."""
    start = None
    for i, line in enumerate(lines):
        if strip(line) == name + ':':
            start = i + 1
            break
    if start is None:
        raise Failure('no code label %s: in the assembly' % name)
    code, labels = [], {}
    i = start
    while i < len(lines):
        text = strip(lines[i])
        if text.startswith('.Lfunc_end') or text.startswith('.section'):
            break
        if text.endswith(':'):
            labels[text[:-1]] = len(code)
        elif text and not text.startswith('.'):
            parts = text.split(None, 1)
            if MNEMONIC.match(parts[0]):
                code.append((parts[0], parts[1] if len(parts) > 1 else ''))
        i += 1
    return code, labels, i


def loops(code, labels):
    """[(first, last)] instruction indices of the back-edge loops."""
    by_header = {}
    for index, (op, operands) in enumerate(code):
        match = BRANCH.match(op + ' ' + operands)
        if not match:
            continue
        target = match.group(2)
        if target in labels and labels[target] <= index:
            first = labels[target]
            by_header[first] = max(by_header.get(first, index), index)
    return sorted(by_header.items())


def innermost(spans):
    return [s for s in spans
            if not any(o != s and s[0] <= o[0] and o[1] <= s[1] for o in spans)]


def mix(ops):
    """Instruction classes of a list of mnemonics."""
    return {
        'insts': len(ops),
        'ds': sum(op.startswith('ds_') for op in ops),
        'vmem': sum(is_vmem(op) for op in ops),
        'smem': sum(op.startswith('s_load_') or op.startswith('s_buffer_load')
                    for op in ops),
        'valu': sum(op.startswith('v_') for op in ops),
        'salu': sum(op.startswith('s_') and not op.startswith(
            ('s_load_', 's_buffer_load', 's_waitcnt', 's_barrier',
             's_cbranch', 's_branch')) for op in ops),
        'waitcnt': sum(op.startswith('s_waitcnt') for op in ops),
        'barrier': sum(op == 's_barrier' for op in ops),
    }


def metadata(text):
    """{kernel: {key: int}} from the `.amdgpu_metadata` YAML."""
    block = re.search(r'\.amdgpu_metadata\s*\n(.*?)\.end_amdgpu_metadata',
                      text, re.S)
    result = {}
    if not block:
        return result
    # Each kernel is a list item of amdhsa.kernels at two spaces; its keys
    # at four. Nested lists (.args) are deeper and skipped.
    current = {}
    for line in block.group(1).splitlines():
        item = re.match(r'^  - (\.\w+):\s*(.*)$', line)
        key = re.match(r'^    (\.\w+):\s*(.*)$', line)
        if item:
            if '.name' in current:
                result[current['.name']] = current
            current = {}
            key = item
        if key:
            value = key.group(2).strip()
            if key.group(1) == '.name':
                current['.name'] = value
            elif re.match(r'^-?\d+$', value):
                current[key.group(1)] = int(value)
    if '.name' in current:
        result[current['.name']] = current
    return result


def analyse(path):
    """{kernel: figures} of one assembly file."""
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError as error:
        raise Failure('cannot read %s: %s' % (path, error.strerror))
    lines = text.splitlines()
    meta = metadata(text)
    sizes = code_sizes(path, text)
    kernels = {}
    for match in re.finditer(r'^\s*\.amdhsa_kernel\s+(\S+)\s*\n(.*?)'
                             r'\.end_amdhsa_kernel', text, re.S | re.M):
        name = match.group(1)
        directives = {m.group(1): int(m.group(2))
                      for m in DIRECTIVE.finditer(match.group(2))}
        code, labels, end = kernel_code(lines, name)
        ops = [op for op, _ in code]
        spans = loops(code, labels)
        inner = innermost(spans)
        hot = max(inner, key=lambda s: s[1] - s[0]) if inner else None
        # The assembled size, else the backend's "; Kernel info:" comment
        # after the function (only in verbose assembly).
        length = sizes.get(name)
        for line in lines[end:] if length is None else []:
            found = re.search(r';\s*codeLenInByte\s*=\s*(\d+)', line)
            if found:
                length = int(found.group(1))
                break
        m = meta.get(name, {})
        accum = directives.get('accum_offset')
        next_vgpr = directives.get('next_free_vgpr')
        agprs = m.get('.agpr_count')
        if agprs is None and accum is not None and next_vgpr is not None:
            agprs = max(next_vgpr - accum, 0)
        vgprs = m.get('.vgpr_count')
        if vgprs is None and next_vgpr is not None:
            vgprs = next_vgpr - (agprs or 0)
        kernels[name] = {
            'total': mix(ops),
            'bytes': length,
            'vgpr': vgprs,
            'sgpr': m.get('.sgpr_count', directives.get('next_free_sgpr')),
            'agpr': agprs,
            'spills': (m.get('.vgpr_spill_count', 0) +
                       m.get('.sgpr_spill_count', 0)) if m else None,
            'lds': directives.get('group_segment_fixed_size'),
            'scratch': directives.get('private_segment_fixed_size'),
            'loops': len(spans),
            'loop': mix(ops[hot[0]:hot[1] + 1]) if hot else None,
        }
    if not kernels:
        raise Failure('%s holds no .amdhsa_kernel' % path)
    return kernels


def cell(value):
    return '-' if value is None else str(value)


def main(argv):
    kernels_wanted = None
    if argv[:1] == ['--kernels'] and len(argv) > 1:
        kernels_wanted = argv[1].split(',')
        argv = argv[2:]
    if not argv or any('=' not in a for a in argv):
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    # A NAME given twice gathers the kernels of both files.
    figures = []
    for name, path in (a.split('=', 1) for a in argv):
        found = analyse(path)
        for known, kernels in figures:
            if known == name:
                kernels.update(found)
                break
        else:
            figures.append((name, found))
    names = kernels_wanted or sorted({k for _, f in figures for k in f})

    print('| kernel | compiler | instructions | code bytes | VGPRs | SGPRs | '
          'AGPRs | spills | LDS bytes | scratch bytes |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    for kernel in names:
        for compiler, f in figures:
            k = f.get(kernel)
            if k is None:
                print('| %s | %s | (absent) |  |  |  |  |  |  |  |'
                      % (kernel, compiler))
                continue
            print('| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |' % (
                kernel, compiler, k['total']['insts'], cell(k['bytes']),
                cell(k['vgpr']), cell(k['sgpr']), cell(k['agpr']),
                cell(k['spills']), cell(k['lds']), cell(k['scratch'])))
    print()
    print('| kernel | compiler | loops | inner loop instructions | LDS ops | '
          'global ops | VALU | SALU | s_waitcnt | s_barrier | '
          'kernel: LDS ops | global ops | s_waitcnt |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    for kernel in names:
        for compiler, f in figures:
            k = f.get(kernel)
            if k is None:
                continue
            loop = k['loop']
            t = k['total']
            if loop:
                body = '%d | %d | %d | %d | %d | %d | %d' % (
                    loop['insts'], loop['ds'], loop['vmem'], loop['valu'],
                    loop['salu'], loop['waitcnt'], loop['barrier'])
            else:
                body = 'none | - | - | - | - | - | -'
            print('| %s | %s | %d | %s | %d | %d | %d |' % (
                kernel, compiler, k['loops'], body, t['ds'], t['vmem'],
                t['waitcnt']))
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as failure:
        print('amdgpu-asm-stats: error: %s' % failure, file=sys.stderr)
        sys.exit(1)

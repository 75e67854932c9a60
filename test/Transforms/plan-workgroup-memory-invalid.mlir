// Wrong options of the planner are errors that say what is expected.

// RUN: not gpumem-opt %s --gpumem-plan-workgroup-memory=report=xml 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: unknown workgroup memory report format 'xml'; expected text or json

// RUN: not gpumem-opt %s --gpumem-plan-workgroup-memory=chip=sm_1 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: unknown NVIDIA chip 'sm_1'; gpumem knows sm_70, {{.*}}sm_90

// RUN: not gpumem-opt %s --gpumem-plan-workgroup-memory="report=text report-file=%t.missing/report.txt" 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: error: cannot write the workgroup memory report: cannot open output file '{{.*}}report.txt'

gpu.module @m {
  gpu.func @k() kernel {
    gpu.return
  }
}

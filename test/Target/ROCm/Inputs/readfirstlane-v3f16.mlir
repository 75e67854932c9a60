// A readfirstlane of vector<3xf16>, which the AMDGPU backend of LLVM 22
// cannot legalize (backend-errors.mlir).
module attributes {gpu.container_module} {
gpu.module @kernels {
  llvm.func @k(%out: !llvm.ptr) attributes {gpu.kernel, rocdl.kernel} {
    %h = llvm.load %out : !llvm.ptr -> vector<3xf16>
    %r = rocdl.readfirstlane %h : vector<3xf16>
    llvm.store %r, %out : vector<3xf16>, !llvm.ptr
    llvm.return
  }
}
}

// The bench/cpu kernels on a plain Vulkan host:
//   plain-kernels NAME KERNEL.spv [glsl|gpumem]
// NAME is elementwise, reduction, matmul or transpose. KERNEL.spv is either
// the kernel written in GLSL (bench/vulkan/NAME.comp, glslangValidator -V;
// entry "main", the elementwise kernel's `a` its only push constant) or,
// with `gpumem`, the SPIR-V gpumem made of bench/cpu/NAME.mlir (entry
// "main_kernel", push constants as gpumem's kernel ABI lays them out: the
// block size, the dynamic shared bytes, then the launch's arguments as
// 32-bit values, each memref as offset, sizes, strides; the values below
// are those the MLIR program passes). Same sizes, inputs,
// grid and block as bench/cpu/NAME.mlir. The descriptor set is written once;
// each timed launch resets and records one command buffer (bind pipeline,
// bind set, push constants, dispatch, compute-to-host barrier), submits it
// with a fence and waits: the wall time of that, best of 10 launches (5 for
// the matmul, as the MLIR programs do). Prints the best time in seconds and
// the same checksum as the MLIR program.
#include "plain-vk.h"

#include <algorithm>

namespace {

struct Problem {
  std::vector<size_t> sizes; ///< floats per binding
  uint32_t grid[3], block[3];
  int runs;
  std::vector<uint32_t> gpumemPush; ///< after the 16-byte header
};

constexpr uint32_t two = 0x40000000u; // 2.0f

Problem problem(const std::string &name) {
  // The vulkan pipeline sinks the launch's constants into the kernel, so
  // gpumem's kernels take only their memrefs.
  if (name == "elementwise")
    return {{4194304, 4194304},
            {16384, 1, 1},
            {256, 1, 1},
            10,
            {0, 4194304, 1, 0, 4194304, 1}};
  if (name == "reduction")
    return {{4194304, 4096},
            {4096, 1, 1},
            {256, 1, 1},
            10,
            {0, 4194304, 1, 0, 4096, 1}};
  if (name == "matmul")
    return {{65536, 65536, 65536},
            {16, 16, 1},
            {16, 16, 1},
            5,
            {0, 256, 256, 256, 1, 0, 256, 256, 256, 1, 0, 256, 256, 256, 1}};
  if (name == "transpose")
    return {{1048576, 1048576},
            {64, 64, 1},
            {16, 16, 1},
            10,
            {0, 1024, 1024, 1024, 1, 0, 1024, 1024, 1024, 1}};
  die("unknown kernel (elementwise, reduction, matmul, transpose)");
}

void initialize(const std::string &name, std::vector<Buffer> &buffers) {
  auto fill = [](Buffer &buffer, size_t n, float value) {
    std::fill(buffer.data, buffer.data + n, value);
  };
  if (name == "elementwise") {
    fill(buffers[0], 4194304, 1.0f);
    fill(buffers[1], 4194304, 0.0f);
  } else if (name == "reduction") {
    fill(buffers[0], 4194304, 1.0f);
  } else if (name == "matmul") {
    fill(buffers[0], 65536, 1.0f);
    fill(buffers[1], 65536, 1.0f);
  } else {
    for (size_t i = 0; i < 1024; ++i)
      for (size_t j = 0; j < 1024; ++j)
        buffers[0].data[i * 1024 + j] = float(j);
  }
}

float checksum(const std::string &name, const std::vector<Buffer> &buffers) {
  if (name == "elementwise")
    return buffers[1].data[4194303];
  if (name == "reduction") {
    float total = 0.0f;
    for (size_t i = 0; i < 4096; ++i)
      total += buffers[1].data[i];
    return total;
  }
  if (name == "matmul")
    return buffers[2].data[255 * 256 + 255];
  return buffers[1].data[1 * 1024 + 0];
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3)
    die("usage: plain-kernels NAME KERNEL.spv [glsl|gpumem]");
  std::string name = argv[1];
  bool gpumem = argc > 3 && std::strcmp(argv[3], "gpumem") == 0;
  Problem p = problem(name);
  Context context = createContext();
  std::fprintf(stderr, "device: %s\n", context.name.c_str());
  std::vector<uint32_t> push;
  if (gpumem) {
    push = {p.block[0], p.block[1], p.block[2], 0};
    push.insert(push.end(), p.gpumemPush.begin(), p.gpumemPush.end());
  } else if (name == "elementwise") {
    push = {two};
  }
  uint32_t pushBytes = uint32_t(push.size() * 4);
  Pipeline pipeline =
      createPipeline(context, argv[2], gpumem ? "main_kernel" : "main",
                     uint32_t(p.sizes.size()), pushBytes, p.block);
  std::vector<Buffer> buffers;
  std::vector<VkBuffer> handles;
  for (size_t floats : p.sizes) {
    buffers.push_back(createBuffer(context, floats));
    handles.push_back(buffers.back().buffer);
  }
  initialize(name, buffers);
  VkDescriptorSet set;
  allocateSet(context, pipeline, uint32_t(handles.size()), set);
  writeSet(context, set, handles);
  VkCommandBuffer commands = allocateCommands(context);
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  check(vkCreateFence(context.device, &fenceInfo, nullptr, &fence),
        "vkCreateFence");
  double best = 1e30;
  for (int run = 0; run < p.runs; ++run) {
    double start = now();
    check(vkResetCommandBuffer(commands, 0), "vkResetCommandBuffer");
    recordDispatch(commands, pipeline, set, push.data(), pushBytes, p.grid);
    submitAndWait(context, commands, fence);
    best = std::min(best, now() - start);
    check(vkResetFences(context.device, 1, &fence), "vkResetFences");
  }
  std::printf("%g\n%g\n", best, checksum(name, buffers));
  return 0;
}

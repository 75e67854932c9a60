// Launch overhead of a plain Vulkan host, the counterpart of launch.mlir:
//   plain-launch KERNEL.spv [reuse|per-launch]
// KERNEL.spv is launch.mlir's kernel as gpumem compiles it (entry
// "main_kernel", one storage buffer of 32 floats, 32 bytes of push
// constants laid out as gpumem's kernel ABI says, block size by
// specialization constants). 6 runs of 10000 launches of 1 block x 32
// threads, each synchronous: record, submit, wait. Prints the
// best run in microseconds per launch, then buf[0] (60000, as launch.mlir
// prints). Per launch:
//   reuse       reset and re-record one command buffer (bind pipeline, bind
//               the one descriptor set written at start, push constants,
//               dispatch, compute-to-host barrier), submit with one fence,
//               wait, reset the fence;
//   per-launch  the Vulkan calls gpumem's runtime makes: create a
//               descriptor pool, allocate and write the set, allocate a
//               command buffer, record it with the same barrier, submit
//               signalling the next value of the stream's timeline
//               semaphore (recycled from launch to launch, as the runtime
//               recycles them), wait for it, read the counter, then free
//               the command buffer and destroy the pool.
#include "plain-vk.h"

namespace {

struct Push {
  uint32_t block[3] = {32, 1, 1};
  uint32_t dynamicSharedBytes = 0;
  uint32_t offset = 0, size = 32, stride = 1;
  float increment = 1.0f;
};

struct Launcher {
  const Context &context;
  const Pipeline &pipeline;
  Buffer buffer;
  Push push;
  const uint32_t grid[3] = {1, 1, 1};
  VkDescriptorSet set;
  VkCommandBuffer commands;
  VkFence fence;
  VkSemaphore stream; ///< per-launch: the stream's timeline
  uint64_t streamValue = 0;

  Launcher(const Context &c, const Pipeline &p, Buffer b)
      : context(c), pipeline(p), buffer(b) {
    allocateSet(context, pipeline, 1, set);
    writeSet(context, set, {buffer.buffer});
    commands = allocateCommands(context);
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vkCreateFence(context.device, &info, nullptr, &fence),
          "vkCreateFence");
    VkSemaphoreTypeCreateInfo type{
        VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo timeline{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    timeline.pNext = &type;
    check(vkCreateSemaphore(context.device, &timeline, nullptr, &stream),
          "vkCreateSemaphore");
  }

  void reuse() {
    check(vkResetCommandBuffer(commands, 0), "vkResetCommandBuffer");
    recordDispatch(commands, pipeline, set, &push, sizeof push, grid);
    submitAndWait(context, commands, fence);
    check(vkResetFences(context.device, 1, &fence), "vkResetFences");
  }

  void perLaunch() {
    VkDescriptorSet fresh;
    VkDescriptorPool pool = allocateSet(context, pipeline, 1, fresh);
    writeSet(context, fresh, {buffer.buffer});
    VkCommandBuffer buffer = allocateCommands(context);
    recordDispatch(buffer, pipeline, fresh, &push, sizeof push, grid);
    uint64_t value = ++streamValue;
    VkTimelineSemaphoreSubmitInfo timeline{
        VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    timeline.signalSemaphoreValueCount = 1;
    timeline.pSignalSemaphoreValues = &value;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.pNext = &timeline;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &buffer;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &stream;
    check(vkQueueSubmit(context.queue, 1, &submit, VK_NULL_HANDLE),
          "vkQueueSubmit");
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &stream;
    wait.pValues = &value;
    check(vkWaitSemaphoresKHR(context.device, &wait, UINT64_MAX),
          "vkWaitSemaphoresKHR");
    uint64_t reached = 0;
    check(vkGetSemaphoreCounterValueKHR(context.device, stream, &reached),
          "vkGetSemaphoreCounterValueKHR");
    vkFreeCommandBuffers(context.device, context.commandPool, 1, &buffer);
    vkDestroyDescriptorPool(context.device, pool, nullptr);
  }
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    die("usage: plain-launch KERNEL.spv [reuse|per-launch]");
  bool perLaunch = argc > 2 && std::strcmp(argv[2], "per-launch") == 0;
  Context context = createContext();
  std::fprintf(stderr, "device: %s\n", context.name.c_str());
  const uint32_t block[3] = {32, 1, 1};
  Pipeline pipeline =
      createPipeline(context, argv[1], "main_kernel", 1, sizeof(Push), block);
  Buffer buffer = createBuffer(context, 32);
  for (int i = 0; i < 32; ++i)
    buffer.data[i] = 0.0f;
  Launcher launcher(context, pipeline, buffer);
  auto launch = [&] { perLaunch ? launcher.perLaunch() : launcher.reuse(); };
  const int launches = 10000;
  double best = 1e30;
  for (int run = 0; run < 6; ++run) {
    double start = now();
    for (int i = 0; i < launches; ++i)
      launch();
    best = std::min(best, now() - start);
  }
  std::printf("%g\n%g\n", best / launches * 1e6, buffer.data[0]);
  return 0;
}

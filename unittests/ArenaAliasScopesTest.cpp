//===----------------------------------------------------------------------===//
// The cpu target's arena alias scopes (lib/Target/CPU/ArenaAliasScopes.cpp)
// on hand-written run_blocks functions: which accesses get !alias.scope,
// which !noalias, and when the pass must leave a function alone.
//===----------------------------------------------------------------------===//

#include "../lib/Target/CPU/ArenaAliasScopes.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace llvm;

namespace {

/// What the pass left on each load and store of `function` in `ir`, in
/// order: "arena" (!alias.scope), "other" (!noalias) or "none".
std::vector<std::string> annotate(const char *ir, StringRef function) {
  LLVMContext context;
  SMDiagnostic error;
  std::unique_ptr<Module> module = parseAssemblyString(ir, error, context);
  if (!module) {
    ADD_FAILURE() << error.getMessage().str();
    return {};
  }
  PassBuilder builder;
  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager sccs;
  ModuleAnalysisManager modules;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  Function *target = module->getFunction(function);
  gpumem::cpu::ArenaAliasScopesPass().run(*target, functions);
  std::vector<std::string> kinds;
  for (Instruction &instruction : instructions(*target)) {
    if (!isa<LoadInst, StoreInst>(instruction))
      continue;
    bool scoped = instruction.getMetadata(LLVMContext::MD_alias_scope);
    bool excluded = instruction.getMetadata(LLVMContext::MD_noalias);
    kinds.push_back(scoped ? (excluded ? "both" : "arena")
                           : (excluded ? "other" : "none"));
  }
  return kinds;
}

// A run_blocks function whose entry loads a kernel buffer (%in) from the
// params and the arena (%arena) from the context, where sharedMemory is
// at offset 96; `body` follows.
std::string runBlocks(const std::string &body,
                      const std::string &name = "__gpumem_run_blocks_k") {
  return "define void @" + name +
         "(ptr %params, ptr noalias %ctx, i64 %first, i64 %last) {\n"
         "  %slot = load ptr, ptr %params\n"
         "  %in = load ptr, ptr %slot\n"
         "  %arenaField = getelementptr i8, ptr %ctx, i64 96\n"
         "  %arena = load ptr, ptr %arenaField\n" +
         body + "  ret void\n}\n";
}

// Copies a float of the buffer into the arena, then one of the dynamic
// part of the arena (offset 104) into a private variable.
const char *copyIntoTile = R"(
  %dynamicField = getelementptr i8, ptr %ctx, i64 104
  %dynamic = load ptr, ptr %dynamicField
  %from = getelementptr float, ptr %in, i64 %first
  %value = load float, ptr %from
  %to = getelementptr float, ptr %arena, i64 %first
  store float %value, ptr %to
  %back = load float, ptr %dynamic
  %private = alloca float
  store float %back, ptr %private
)";

TEST(ArenaAliasScopes, SeparatesArenaFromEverythingElse) {
  // Context and params loads, the buffer load, the arena store, the dynamic
  // arena load, the private store.
  EXPECT_EQ(annotate(runBlocks(copyIntoTile).c_str(), "__gpumem_run_blocks_k"),
            (std::vector<std::string>{"other", "other", "other", "other",
                                      "other", "arena", "arena", "other"}));
}

TEST(ArenaAliasScopes, LeavesOtherFunctionsAlone) {
  EXPECT_EQ(annotate(runBlocks(copyIntoTile, "__gpumem_kernel_k").c_str(),
                     "__gpumem_kernel_k"),
            std::vector<std::string>(8, "none"));
}

TEST(ArenaAliasScopes, LeavesFunctionsThatLetTheArenaEscape) {
  // The arena's address stored into a kernel buffer: a pointer loaded from
  // memory may then point into the arena.
  const char *escapes = R"(
  store ptr %arena, ptr %in
  %again = load ptr, ptr %in
  store float 1.0, ptr %again
)";
  EXPECT_EQ(annotate(runBlocks(escapes).c_str(), "__gpumem_run_blocks_k"),
            std::vector<std::string>(6, "none"));
}

TEST(ArenaAliasScopes, LeavesAccessesOfUnknownOrigin) {
  // A select between the arena and a buffer may be either.
  const char *either = R"(
  %odd = icmp eq i64 %first, 1
  %where = select i1 %odd, ptr %arena, ptr %in
  store float 1.0, ptr %where
  store float 2.0, ptr %arena
)";
  EXPECT_EQ(
      annotate(runBlocks(either).c_str(), "__gpumem_run_blocks_k"),
      (std::vector<std::string>{"other", "other", "other", "none", "arena"}));
}

// A call of the service at `offset` of ctx->services (at 120) with the
// arena's address, as a pointer and as an integer, then a store to the
// arena and one through a pointer loaded from memory.
std::string callService(int offset) {
  return "  %servicesField = getelementptr i8, ptr %ctx, i64 120\n"
         "  %services = load ptr, ptr %servicesField\n"
         "  %slotOf = getelementptr i8, ptr %services, i64 " +
         std::to_string(offset) +
         "\n"
         "  %service = load ptr, ptr %slotOf\n"
         "  %address = ptrtoint ptr %arena to i64\n"
         "  %shifted = add i64 %address, 4\n"
         "  %again = inttoptr i64 %shifted to ptr\n"
         "  call void %service(ptr %ctx, ptr %arena, ptr %again)\n"
         "  store float 1.0, ptr %arena\n"
         "  %other = load ptr, ptr %in\n"
         "  store float 2.0, ptr %other\n";
}

TEST(ArenaAliasScopes, LetsReportingServicesSeeTheArena) {
  // accessError (offset 80 of the services) only reports the address it
  // gets: the arena does not escape. Context, params, buffer, services and
  // service loads, then the arena store, the load and store elsewhere.
  EXPECT_EQ(
      annotate(runBlocks(callService(80)).c_str(), "__gpumem_run_blocks_k"),
      (std::vector<std::string>{"other", "other", "other", "other", "other",
                                "arena", "other", "other"}));
}

TEST(ArenaAliasScopes, LeavesFunctionsThatHandTheArenaToOtherServices) {
  // asyncCopy (offset 128) keeps the destination for a later wait.
  EXPECT_EQ(
      annotate(runBlocks(callService(128)).c_str(), "__gpumem_run_blocks_k"),
      std::vector<std::string>(8, "none"));
}

} // namespace

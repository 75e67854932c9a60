//===----------------------------------------------------------------------===//
// Sanitizer reports (Sanitizer.h).
//
// An error site is the pair of strings an instrumented access passes (its
// description and location), kept as copies: the kernel's module may be
// unloaded before the summary. Its first error prints a report on stderr: the
// kind, kernel, block and thread, the location with its source line (read
// from the file the location names, when it can be read), and what was out
// of bounds; later ones only count. The first error also registers an exit
// handler that prints, after everything the program printed, how often
// each site erred when more than once and "ERROR SUMMARY: N errors" (as
// compute-sanitizer does), then ends the process with status 1. A mutex
// guards the sites: workers report concurrently.
//===----------------------------------------------------------------------===//

#include "Sanitizer.h"
#include "SchedulingMessages.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unistd.h>
#include <vector>

using namespace gpumem::cpu;

namespace {

/// Copies of the strings: the kernel's module may be unloaded before the
/// summary.
struct Site {
  std::string what;
  std::string location;
  unsigned long long count;
};

struct Sites {
  std::mutex mutex;
  std::vector<Site> sites;
  unsigned long long errors = 0;
};
Sites &sites() {
  static Sites *all = new Sites;
  return *all;
}

/// Line `line` of `path`, without its newline; empty when unreadable.
std::string sourceLine(const std::string &path, long line) {
  FILE *file = std::fopen(path.c_str(), "r");
  if (!file)
    return "";
  std::string text;
  long current = 1;
  for (int c; (c = std::fgetc(file)) != EOF;) {
    if (c == '\n') {
      if (current++ == line)
        break;
      continue;
    }
    if (current == line)
      text.push_back(char(c));
  }
  std::fclose(file);
  size_t first = text.find_first_not_of(" \t");
  return first == std::string::npos ? "" : text.substr(first);
}

/// The source line a "file:line:col" location names; empty if none.
std::string sourceLineOf(const char *location) {
  std::string where = location ? location : "";
  size_t column = where.rfind(':');
  if (column == std::string::npos || column == 0)
    return "";
  size_t line = where.rfind(':', column - 1);
  if (line == std::string::npos)
    return "";
  return sourceLine(where.substr(0, line),
                    std::strtol(where.c_str() + line + 1, nullptr, 10));
}

void summarize() {
  Sites &all = sites();
  std::lock_guard<std::mutex> lock(all.mutex);
  std::fflush(stdout);
  for (const Site &site : all.sites)
    if (site.count > 1)
      std::fprintf(stderr,
                   "gpumem: sanitizer: the out-of-bounds %s at %s happened "
                   "%llu times\n",
                   site.what.c_str(), site.location.c_str(), site.count);
  std::fprintf(stderr, "gpumem: sanitizer: ERROR SUMMARY: %llu error%s\n",
               all.errors, all.errors == 1 ? "" : "s");
  std::fflush(stderr);
  _exit(1);
}

} // namespace

void gpumem::cpu::accessErrorService(GPUMemThreadContext *ctx, const char *what,
                                     const char *location, int64_t dim,
                                     int64_t index, int64_t size) {
  Sites &all = sites();
  std::lock_guard<std::mutex> lock(all.mutex);
  if (all.errors++ == 0)
    std::atexit(summarize);
  what = what ? what : "access";
  location = location ? location : "?";
  for (Site &site : all.sites)
    if (site.what == what && site.location == location) {
      ++site.count;
      return;
    }
  all.sites.push_back({what, location, 1});
  std::fflush(stdout);
  std::string line = sourceLineOf(location);
  std::fprintf(stderr,
               "gpumem: sanitizer: out-of-bounds %s in kernel '%s', block %s "
               "thread %s\n"
               "  at %s%s%s\n"
               "  index %lld of dimension %lld is outside 0..%lld\n",
               what, ctx->kernelName, coords(ctx->blockId).text,
               coords(ctx->threadId).text, location, line.empty() ? "" : ": ",
               line.c_str(), (long long)index, (long long)dim,
               (long long)size - 1);
}

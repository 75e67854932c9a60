//===----------------------------------------------------------------------===//
// The sanitizer's reports (SanitizerReports.h).
//
// A site is an error kind at one location (the strings an instrumented
// access passes, kept as copies: the kernel's module may be unloaded before
// the summary). Its first error prints a report on stderr: the kind, kernel,
// block and thread, the location with its source line (read from the file
// the location names, when it can be read), and the details; later ones
// only count. The first error also registers an exit handler that prints,
// after everything the program printed, how often each site erred when more
// than once and "ERROR SUMMARY: N errors" (as compute-sanitizer does), then
// ends the process with status 1. A mutex guards the sites: workers report
// concurrently.
//
// A device log is read as the services would have been called: its records
// are merged by site (two threads may have taken a slot for one site),
// sorted by the first thread that erred at each, and each site reported
// once with its count; the thread is found again from its linear ids and
// the launch's grid and block.
//===----------------------------------------------------------------------===//

#include "SanitizerReports.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>

using namespace gpumem::runtime;

namespace {

struct Site {
  std::string kind;
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

/// Line `line` of `path`, without its newline and indentation; empty when
/// unreadable.
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

void summarize() {
  Sites &all = sites();
  std::lock_guard<std::mutex> lock(all.mutex);
  std::fflush(stdout);
  for (const Site &site : all.sites)
    if (site.count > 1)
      std::fprintf(stderr,
                   "gpumem: sanitizer: the %s at %s happened %llu times\n",
                   site.kind.c_str(), site.location.c_str(), site.count);
  std::fprintf(stderr, "gpumem: sanitizer: ERROR SUMMARY: %llu error%s\n",
               all.errors, all.errors == 1 ? "" : "s");
  std::fflush(stderr);
  _exit(1);
}

std::string coordinates(const int64_t v[3]) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," +
         std::to_string(v[2]) + ")";
}

} // namespace

std::string gpumem::runtime::withSource(const char *location) {
  std::string where = location ? location : "?";
  size_t column = where.rfind(':');
  if (column == std::string::npos || column == 0)
    return where;
  size_t line = where.rfind(':', column - 1);
  if (line == std::string::npos)
    return where;
  std::string text =
      sourceLine(where.substr(0, line),
                 std::strtol(where.c_str() + line + 1, nullptr, 10));
  return text.empty() ? where : where + ": " + text;
}

bool gpumem::runtime::firstAtSite(std::unique_lock<std::mutex> &lock,
                                  const std::string &kind,
                                  const char *location) {
  Sites &all = sites();
  lock = std::unique_lock<std::mutex>(all.mutex);
  if (all.errors++ == 0)
    std::atexit(summarize);
  std::string where = location ? location : "?";
  for (Site &site : all.sites)
    if (site.kind == kind && site.location == where) {
      ++site.count;
      return false;
    }
  all.sites.push_back({kind, where, 1});
  std::fflush(stdout);
  return true;
}

void gpumem::runtime::countAtSite(const std::string &kind, const char *location,
                                  unsigned long long more) {
  if (!more)
    return;
  Sites &all = sites();
  std::lock_guard<std::mutex> lock(all.mutex);
  std::string where = location ? location : "?";
  all.errors += more;
  for (Site &site : all.sites)
    if (site.kind == kind && site.location == where) {
      site.count += more;
      return;
    }
  all.sites.push_back({kind, where, more});
}

void gpumem::runtime::countErrors(unsigned long long errors) {
  if (!errors)
    return;
  Sites &all = sites();
  std::lock_guard<std::mutex> lock(all.mutex);
  if (all.errors == 0)
    std::atexit(summarize);
  all.errors += errors;
}

void gpumem::runtime::printReportHeading(const std::string &kind,
                                         const char *kernel,
                                         const int64_t block[3],
                                         const int64_t thread[3],
                                         const char *location) {
  if (!block) {
    std::fprintf(stderr, "gpumem: sanitizer: %s in host code\n  at %s\n",
                 kind.c_str(), withSource(location).c_str());
    return;
  }
  std::fprintf(stderr,
               "gpumem: sanitizer: %s in kernel '%s', block %s thread %s\n"
               "  at %s\n",
               kind.c_str(), kernel ? kernel : "?", coordinates(block).c_str(),
               coordinates(thread).c_str(), withSource(location).c_str());
}

void gpumem::runtime::reportAccessError(const ReportingThread &by,
                                        const char *what, const char *location,
                                        int64_t dim, int64_t index,
                                        int64_t size, const std::string &buffer,
                                        unsigned long long more) {
  std::string kind = std::string("out-of-bounds ") + (what ? what : "access");
  {
    std::unique_lock<std::mutex> lock;
    if (firstAtSite(lock, kind, location)) {
      printReportHeading(kind, by.kernel, by.block, by.thread, location);
      if (dim < 0)
        std::fprintf(stderr,
                     "  element %lld of the buffer the view was made from (by "
                     "memref.reinterpret_cast) is outside 0..%lld: the view "
                     "lies outside its buffer\n",
                     (long long)index, (long long)size - 1);
      else
        std::fprintf(stderr,
                     "  index %lld of dimension %lld is outside 0..%lld\n",
                     (long long)index, (long long)dim, (long long)size - 1);
      if (!buffer.empty())
        std::fprintf(stderr, "  the memref views %s\n", buffer.c_str());
    }
  }
  countAtSite(kind, location, more);
}

std::string gpumem::runtime::describeWorkgroupBytes(uint64_t offset) {
  return "the block's workgroup memory from byte " + std::to_string(offset);
}

void gpumem::runtime::reportDivisionError(const ReportingThread &by,
                                          bool overflow, const char *what,
                                          const char *location,
                                          unsigned long long more) {
  std::string kind =
      overflow ? "integer division overflow" : "integer division by zero";
  {
    std::unique_lock<std::mutex> lock;
    if (firstAtSite(lock, kind, location)) {
      printReportHeading(kind, by.kernel, by.block, by.thread, location);
      std::fprintf(stderr,
                   "  %s: %s, which traps on a CPU and gives an unspecified "
                   "value on a GPU; the division was made by 1 instead\n",
                   what ? what : "",
                   overflow ? "the smallest signed value divided by -1"
                            : "the divisor is 0");
    }
  }
  countAtSite(kind, location, more);
}

namespace {

/// One site of a device log: its records merged.
struct LoggedSite {
  const GPUMemDeviceSanitizerRecord *record;
  uint64_t first;
  unsigned long long hits;
};

/// A record's text field, cut at its size whatever the device wrote.
std::string textOf(const char *field, size_t bytes) {
  return std::string(field, strnlen(field, bytes));
}

} // namespace

void gpumem::runtime::reportDeviceSanitizerLog(
    const GPUMemDeviceSanitizerLog &log, const char *kernel,
    const int64_t grid[3], const int64_t block[3],
    const DescribeDeviceAddress &describe) {
  uint32_t taken =
      std::min<uint32_t>(log.count, GPUMEM_DEVICE_SANITIZER_RECORDS);
  std::vector<LoggedSite> logged;
  for (uint32_t i = 0; i < taken; ++i) {
    const GPUMemDeviceSanitizerRecord &record = log.records[i];
    // A slot whose writer had not published its kind: nothing to report
    // (a launch is over when the log is read, so this is not expected).
    if (record.kind == 0)
      continue;
    auto same =
        std::find_if(logged.begin(), logged.end(), [&](const LoggedSite &site) {
          const auto &other = *site.record;
          return other.kind == record.kind &&
                 std::strncmp(other.what, record.what, sizeof(record.what)) ==
                     0 &&
                 std::strncmp(other.location, record.location,
                              sizeof(record.location)) == 0;
        });
    if (same == logged.end()) {
      logged.push_back({&record, record.first, record.hits});
      continue;
    }
    same->hits += record.hits;
    if (record.first < same->first) {
      same->first = record.first;
      same->record = &record;
    }
  }
  std::stable_sort(logged.begin(), logged.end(),
                   [](const LoggedSite &a, const LoggedSite &b) {
                     return a.first < b.first;
                   });
  for (const LoggedSite &site : logged) {
    const GPUMemDeviceSanitizerRecord &record = *site.record;
    ReportingThread by{kernel, {0, 0, 0}, {0, 0, 0}};
    uint64_t thread =
        site.first & ((uint64_t(1) << GPUMEM_DEVICE_SANITIZER_THREAD_BITS) - 1);
    uint64_t blockId = site.first >> GPUMEM_DEVICE_SANITIZER_THREAD_BITS;
    auto split = [](uint64_t id, const int64_t dims[3], int64_t out[3]) {
      uint64_t x = dims[0] > 0 ? uint64_t(dims[0]) : 1;
      uint64_t y = dims[1] > 0 ? uint64_t(dims[1]) : 1;
      out[0] = int64_t(id % x);
      out[1] = int64_t(id / x % y);
      out[2] = int64_t(id / (x * y));
    };
    split(blockId, grid, by.block);
    split(thread, block, by.thread);
    std::string what = textOf(record.what, sizeof(record.what));
    std::string location = textOf(record.location, sizeof(record.location));
    unsigned long long more = site.hits > 1 ? site.hits - 1 : 0;
    if (record.kind == GPUMEM_DEVICE_REPORT_DIVISION) {
      reportDivisionError(by, record.detail != 0, what.c_str(),
                          location.c_str(), more);
      continue;
    }
    std::string buffer = record.kind == GPUMEM_DEVICE_REPORT_SHARED_ACCESS
                             ? describeWorkgroupBytes(record.base)
                         : describe ? describe(record.base)
                                    : std::string();
    reportAccessError(by, what.c_str(), location.c_str(), record.detail,
                      record.index, record.size, buffer, more);
  }
  if (log.dropped) {
    std::fprintf(stderr,
                 "gpumem: sanitizer: kernel '%s' erred at more sites than "
                 "its log in device memory holds (%d): %u more errors were "
                 "counted but not recorded\n",
                 kernel ? kernel : "?", GPUMEM_DEVICE_SANITIZER_RECORDS,
                 log.dropped);
    countErrors(log.dropped);
  }
}

/// memcheck of host code (gpumem-check-host-memref-accesses): the access
/// `what` at `location` was skipped, index `index` of dimension `dim` being
/// outside its `size`.
extern "C" __attribute__((visibility("default"))) void
gpumemMemHostAccessError(const char *what, const char *location, int64_t dim,
                         int64_t index, int64_t size) {
  std::unique_lock<std::mutex> lock;
  std::string kind = std::string("out-of-bounds ") + (what ? what : "access");
  if (gpumem::runtime::firstAtSite(lock, kind, location)) {
    gpumem::runtime::printReportHeading(kind, nullptr, nullptr, nullptr,
                                        location);
    std::fprintf(stderr, "  index %lld of dimension %lld is outside 0..%lld\n",
                 (long long)index, (long long)dim, (long long)size - 1);
  }
}

//===----------------------------------------------------------------------===//
// The sanitizer's reports, shared by the runtimes (SanitizerReports.cpp):
// errors counted per site, the heading every report starts with, the words
// of memcheck's out-of-bounds and division reports, the summary that fails
// the program at its end, and the reading of the log that device code
// writes (DeviceSanitizerLog.h) on the cuda target and on cuda-emu with
// the device's log.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_COMMON_SANITIZERREPORTS_H
#define GPUMEM_RUNTIME_COMMON_SANITIZERREPORTS_H

#include "gpumem/Runtime/DeviceSanitizerLog.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace gpumem::runtime {

/// Counts an error of `kind` at `location`; true when it is the site's
/// first, which the caller then prints while holding `lock`. The first
/// error of the process registers the summary: at exit, how often each
/// site erred when more than once and "ERROR SUMMARY: N errors", then exit
/// status 1.
bool firstAtSite(std::unique_lock<std::mutex> &lock, const std::string &kind,
                 const char *location);
/// Counts `more` further errors at a site firstAtSite has seen.
void countAtSite(const std::string &kind, const char *location,
                 unsigned long long more);

/// Counts `errors` errors of no known site (they fail the program and count
/// in the summary).
void countErrors(unsigned long long errors);

/// "LOCATION: source line" of a "file:line:col" location.
std::string withSource(const char *location);

/// The first two lines of a report of `kind` by thread `thread` of block
/// `block` of `kernel`: "gpumem: sanitizer: KIND in kernel 'K', block B
/// thread T", then the location with its source line. Without a block:
/// "gpumem: sanitizer: KIND in host code".
void printReportHeading(const std::string &kind, const char *kernel,
                        const int64_t block[3], const int64_t thread[3],
                        const char *location);

/// Where a report was made: the kernel and the erring thread.
struct ReportingThread {
  const char *kernel;
  int64_t block[3];
  int64_t thread[3];
};

/// memcheck's report of an access out of bounds (services->accessError's
/// arguments), with `buffer` describing the memref's memory ("device
/// memory of 64 bytes from byte 0, ..."; empty when unknown); `more`
/// further errors at the site are counted.
void reportAccessError(const ReportingThread &by, const char *what,
                       const char *location, int64_t dim, int64_t index,
                       int64_t size, const std::string &buffer,
                       unsigned long long more = 0);

/// memcheck's report of an integer division by zero or overflow
/// (services->divisionError's arguments).
void reportDivisionError(const ReportingThread &by, bool overflow,
                         const char *what, const char *location,
                         unsigned long long more = 0);

/// The report's words for the workgroup memory a memref views from byte
/// `offset` of the block's shared memory.
std::string describeWorkgroupBytes(uint64_t offset);

/// What a device log's `base`, an address of global memory, points at, for
/// the report's last line; empty when nothing is known.
using DescribeDeviceAddress = std::function<std::string(uint64_t address)>;

/// Reports every record of `log`, written by a launch of `kernel` with
/// grid `grid` and blocks `block`, as the runtime services would have:
/// records of one site merged, sites in the order of the first thread that
/// erred at each (linear block, then linear thread). Errors the log had no
/// room for are counted and named. Does not clear the log.
void reportDeviceSanitizerLog(const GPUMemDeviceSanitizerLog &log,
                              const char *kernel, const int64_t grid[3],
                              const int64_t block[3],
                              const DescribeDeviceAddress &describe);

} // namespace gpumem::runtime

#endif // GPUMEM_RUNTIME_COMMON_SANITIZERREPORTS_H

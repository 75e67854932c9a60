//===----------------------------------------------------------------------===//
// How the CPU runtime's scheduling errors name threads, masks and places.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_SCHEDULINGMESSAGES_H
#define GPUMEM_RUNTIME_CPU_SCHEDULINGMESSAGES_H

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace gpumem::cpu {

/// "(x,y,z)" for messages.
struct Coords {
  char text[72];
};
inline Coords coords(const int64_t v[3]) {
  Coords c;
  std::snprintf(c.text, sizeof(c.text), "(%lld,%lld,%lld)", (long long)v[0],
                (long long)v[1], (long long)v[2]);
  return c;
}

inline bool sameLocation(const char *a, const char *b) {
  return a == b || (a && b && std::strcmp(a, b) == 0);
}

/// "0x0000ffff" for messages; a mask past 32 bits (a 64-lane warp's) as
/// "0x00000001ffffffff".
struct Hex {
  char text[24];
};
inline Hex hex(uint64_t v) {
  Hex h;
  if (v >> 32)
    std::snprintf(h.text, sizeof(h.text), "0x%016llx", (unsigned long long)v);
  else
    std::snprintf(h.text, sizeof(h.text), "0x%08x", unsigned(v));
  return h;
}

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_SCHEDULINGMESSAGES_H

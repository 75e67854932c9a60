//===----------------------------------------------------------------------===//
// PTX's warp-level matrix instructions on the CPU (cuda-emu): wmma.load,
// wmma.store, wmma.mma, mma.sync and ldmatrix, executed once for the whole
// warp when its 32 lanes have reached the instruction (services->warpSync
// with GPUMEM_WARP_MATRIX; the records and descriptors are
// include/gpumem/Runtime/PTXMatrix.h's).
//
// Algorithm: every lane's input registers are scattered into whole
// matrices A (m x k), B (k x n) and C (m x n) by the fragment layout below,
// D = A * B + C is computed, and D's elements are gathered back into each
// lane's output registers by the same layout (loads and stores do only the
// scatter or the gather, against memory).
//
// Fragment layouts, in one place (fragmentElement). PTX ISA 9.7.14.5
// ("Matrix Fragments for mma.m16n8k*", ".m8n8k4" with .f64, ".m16n8k8",
// ".m16n8k16", ".m16n8k32") gives each lane's elements exactly; they are
// all one rule: the operand is seen as rows x columns (A: m x k; B as its
// transpose, n x k, since the ISA lists B's elements by column; C and D:
// m x n) and cut into atoms of 8 rows by 4q columns, where q is the
// elements of one 32-bit register for A and B (2 for .f16/.bf16, 4 for
// .s8/.u8, 1 for .tf32 and .f64) and 2 for C and D. In an atom, lane l
// holds row l/4, columns (l%4)*q .. (l%4)*q+q-1; a lane's elements list
// the atoms with the row-atom index fastest. ldmatrix (9.7.9.25) hands lane
// l row l/4, elements 2*(l%4) and 2*(l%4)+1 of each 8x8 matrix (.trans:
// rows 2*(l%4) and 2*(l%4)+1 of column l/4), rows addressed by lanes
// 8i..8i+7 for matrix i.
// For wmma the ISA leaves the layout unspecified (9.7.14.3: "the
// distribution of fragments ... is unspecified and target architecture
// dependent"); cuda-emu uses the same rule, and where wmma's fragment has
// more registers than it has distinct elements per lane (.f16 A and B, 16
// halves for 8 or 4 elements) the list repeats (docs/decisions.md).
//
// Arithmetic: products of .f16, .bf16 and .tf32 (inputs truncated to tf32's
// 19 bits) are exact in binary32; they are accumulated in binary32 in k
// order from C, and an .f16 D is rounded to nearest even once at the end;
// .f64 uses fused multiply-adds in k order; .s8/.u8 accumulate in 32-bit
// integers, wrapping, or with mma.sync's .satfinite clamped to them.
//===----------------------------------------------------------------------===//

#include "PTXWarpOps.h"

#include "gpumem/Runtime/PTXMatrix.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace gpumem::cpu;

namespace {

struct Element {
  int row, col;
};

/// The rule of the file comment: element `index` of lane `lane` in an
/// operand of `rows` rows whose atoms are 8 x 4q.
Element fragmentElement(int rows, int q, int lane, int index) {
  int atom = index / q, within = index % q;
  int rowAtoms = rows / 8;
  return {(atom % rowAtoms) * 8 + lane / 4,
          (atom / rowAtoms) * 4 * q + (lane % 4) * q + within};
}

int bitsOf(int type) {
  switch (type) {
  case GPUMEM_MATRIX_F16:
  case GPUMEM_MATRIX_BF16:
    return 16;
  case GPUMEM_MATRIX_S8:
  case GPUMEM_MATRIX_U8:
    return 8;
  case GPUMEM_MATRIX_F64:
    return 64;
  default:
    return 32;
  }
}

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15) << 31, exp = (h >> 10) & 31,
           mant = h & 1023, bits;
  if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else {
    float f = std::ldexp(float(mant), -24);
    return sign ? -f : f;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// binary32 to binary16, rounding to nearest even.
uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  uint32_t abs = bits & 0x7fffffffu;
  if (abs > 0x7f800000u)
    return sign | 0x7e00;
  if (abs >= 0x477ff000u) // rounds to infinity
    return sign | 0x7c00;
  if (abs < 0x38800000u) { // subnormal or zero: multiples of 2^-24
    float scaled = std::nearbyint(std::ldexp(std::fabs(f), 24));
    return sign | uint16_t(scaled);
  }
  uint32_t exp = (abs >> 23) - 112, mant = abs & 0x7fffffu;
  uint32_t half = (exp << 10) | (mant >> 13), rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
    ++half;
  return sign | uint16_t(half);
}

float bitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint32_t floatToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

/// One lane's record: its address and register words.
struct Record {
  explicit Record(uint64_t address) : base(reinterpret_cast<char *>(address)) {}
  void *address() const {
    void *p;
    std::memcpy(&p, base, sizeof p);
    return p;
  }
  char *word(int index) const {
    return base + GPUMEM_MATRIX_RECORD_HEADER + 4 * index;
  }
  char *base;
};

/// Reads or writes slot `slot` of a fragment of `type` starting at word
/// `first`, as a double (exact for every type here).
double readSlot(const Record &r, int first, int type, int slot) {
  int bits = bitsOf(type);
  const char *at = r.word(first) + slot * bits / 8;
  switch (type) {
  case GPUMEM_MATRIX_F16: {
    uint16_t h;
    std::memcpy(&h, at, 2);
    return halfToFloat(h);
  }
  case GPUMEM_MATRIX_BF16: {
    uint16_t h;
    std::memcpy(&h, at, 2);
    return bitsToFloat(uint32_t(h) << 16);
  }
  case GPUMEM_MATRIX_TF32: {
    uint32_t w;
    std::memcpy(&w, at, 4);
    return bitsToFloat(w & ~0x1fffu);
  }
  case GPUMEM_MATRIX_F32: {
    uint32_t w;
    std::memcpy(&w, at, 4);
    return bitsToFloat(w);
  }
  case GPUMEM_MATRIX_F64: {
    double d;
    std::memcpy(&d, at, 8);
    return d;
  }
  case GPUMEM_MATRIX_S8:
    return double(int8_t(*at));
  case GPUMEM_MATRIX_U8:
    return double(uint8_t(*at));
  default: {
    int32_t i;
    std::memcpy(&i, at, 4);
    return double(i);
  }
  }
}

void writeSlot(const Record &r, int first, int type, int slot, double value) {
  char *at = r.word(first) + slot * bitsOf(type) / 8;
  switch (type) {
  case GPUMEM_MATRIX_F16: {
    uint16_t h = floatToHalf(float(value));
    std::memcpy(at, &h, 2);
    return;
  }
  case GPUMEM_MATRIX_F64:
    std::memcpy(at, &value, 8);
    return;
  case GPUMEM_MATRIX_S32: {
    int32_t i = int32_t(int64_t(value));
    std::memcpy(at, &i, 4);
    return;
  }
  default: {
    uint32_t w = floatToBits(float(value));
    std::memcpy(at, &w, 4);
    return;
  }
  }
}

/// An operand's fragment: its view (rows x cols), atom width q, element
/// type, and slots per lane (registers' elements, with wmma's repeats).
struct Fragment {
  int rows, cols, q, type, slots, distinct;
  int words() const { return (slots * bitsOf(type) + 31) / 32; }
};

enum Operand { OperandA, OperandB, OperandC };

Fragment fragmentOf(int descriptor, Operand operand) {
  int m = GPUMEM_MATRIX_M(descriptor), n = GPUMEM_MATRIX_N(descriptor),
      k = GPUMEM_MATRIX_K(descriptor);
  bool wmma = GPUMEM_MATRIX_INSTRUCTION(descriptor) != GPUMEM_MATRIX_MMA_SYNC;
  Fragment f{};
  if (operand == OperandC) {
    f = {m, n, 2, GPUMEM_MATRIX_TYPE_CD(descriptor), m * n / 32, m * n / 32};
    return f;
  }
  int type = GPUMEM_MATRIX_TYPE_AB(descriptor);
  int q = bitsOf(type) >= 32 ? 1 : 32 / bitsOf(type);
  if (operand == OperandA)
    f = {m, k, q, type, m * k / 32, m * k / 32};
  else
    f = {n, k, q, type, n * k / 32, n * k / 32};
  if (wmma && type == GPUMEM_MATRIX_F16)
    f.slots = 16; // eight .f16x2 registers (PTX ISA 9.7.14.3)
  return f;
}

/// The (row, column) in the operand's own matrix (B: k x n) of `slot`.
Element matrixElement(const Fragment &f, Operand operand, int lane, int slot) {
  Element e = fragmentElement(f.rows, f.q, lane, slot % f.distinct);
  if (operand == OperandB)
    return {e.col, e.row};
  return e;
}

/// wmma.load / wmma.store: each lane's elements from or to memory.
void loadOrStore(int descriptor, Operand operand, bool store,
                 const WarpOperands lanes[],
                 const MatrixAccessObserver *observer) {
  Fragment f = fragmentOf(descriptor, operand);
  bool colMajor = GPUMEM_MATRIX_COL_A(descriptor);
  size_t bytes = size_t(bitsOf(f.type) / 8);
  std::string what = std::string(store ? "wmma.store" : "wmma.load") + " of " +
                     std::to_string(bytes) + " bytes";
  for (int lane = 0; lane < GPUMEM_WARP_SIZE; ++lane) {
    Record r(lanes[lane].value);
    char *memory = static_cast<char *>(r.address());
    int64_t stride = lanes[lane].c;
    for (int slot = 0; slot < f.slots; ++slot) {
      Element e = matrixElement(f, operand, lane, slot);
      int64_t index = colMajor ? int64_t(e.col) * stride + e.row
                               : int64_t(e.row) * stride + e.col;
      char *reg = r.word(0) + slot * bytes;
      if (observer)
        observer->access(observer->user, uint32_t(lane), memory + index * bytes,
                         int64_t(bytes), store, what.c_str());
      if (store)
        std::memcpy(memory + index * bytes, reg, bytes);
      else
        std::memcpy(reg, memory + index * bytes, bytes);
    }
  }
}

/// wmma.mma / mma.sync: D = A * B + C for the warp.
void multiply(int descriptor, const WarpOperands lanes[]) {
  int m = GPUMEM_MATRIX_M(descriptor), n = GPUMEM_MATRIX_N(descriptor),
      k = GPUMEM_MATRIX_K(descriptor);
  Fragment fa = fragmentOf(descriptor, OperandA),
           fb = fragmentOf(descriptor, OperandB),
           fc = fragmentOf(descriptor, OperandC);
  int typeAB = fa.type, typeCD = fc.type;
  std::vector<double> a(size_t(m * k)), b(size_t(k * n)), c(size_t(m * n));
  int firstB = fa.words(), firstC = firstB + fb.words();
  for (int lane = 0; lane < GPUMEM_WARP_SIZE; ++lane) {
    Record r(lanes[lane].value);
    for (int s = 0; s < fa.distinct; ++s) {
      Element e = matrixElement(fa, OperandA, lane, s);
      a[size_t(e.row * k + e.col)] = readSlot(r, 0, typeAB, s);
    }
    for (int s = 0; s < fb.distinct; ++s) {
      Element e = matrixElement(fb, OperandB, lane, s);
      b[size_t(e.row * n + e.col)] = readSlot(r, firstB, typeAB, s);
    }
    for (int s = 0; s < fc.distinct; ++s) {
      Element e = matrixElement(fc, OperandC, lane, s);
      c[size_t(e.row * n + e.col)] = readSlot(r, firstC, typeCD, s);
    }
  }
  std::vector<double> d(size_t(m * n));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      size_t at = size_t(i * n + j);
      if (typeCD == GPUMEM_MATRIX_F64) {
        double acc = c[at];
        for (int kk = 0; kk < k; ++kk)
          acc = std::fma(a[size_t(i * k + kk)], b[size_t(kk * n + j)], acc);
        d[at] = acc;
      } else if (typeCD == GPUMEM_MATRIX_S32) {
        int64_t acc = int64_t(c[at]);
        for (int kk = 0; kk < k; ++kk)
          acc +=
              int64_t(a[size_t(i * k + kk)]) * int64_t(b[size_t(kk * n + j)]);
        if (descriptor & GPUMEM_MATRIX_SATFINITE)
          acc = std::min<int64_t>(std::max<int64_t>(acc, INT32_MIN), INT32_MAX);
        d[at] = double(int32_t(uint32_t(uint64_t(acc))));
      } else {
        float acc = float(c[at]);
        for (int kk = 0; kk < k; ++kk)
          acc += float(a[size_t(i * k + kk)]) * float(b[size_t(kk * n + j)]);
        d[at] = acc;
      }
    }
  for (int lane = 0; lane < GPUMEM_WARP_SIZE; ++lane) {
    Record r(lanes[lane].value);
    int firstD = lanes[lane].c;
    for (int s = 0; s < fc.slots; ++s) {
      Element e = matrixElement(fc, OperandC, lane, s);
      writeSlot(r, firstD, typeCD, s, d[size_t(e.row * n + e.col)]);
    }
  }
}

/// ldmatrix: matrix i's rows are addressed by lanes 8i..8i+7; lane l gets
/// one .b16x2 register per matrix.
void loadMatrices(int descriptor, const WarpOperands lanes[],
                  const MatrixAccessObserver *observer) {
  int count = GPUMEM_MATRIX_M(descriptor);
  bool trans = GPUMEM_MATRIX_COL_A(descriptor);
  uint16_t values[4][8][8];
  for (int i = 0; i < count; ++i)
    for (int row = 0; row < 8; ++row) {
      const void *address = Record(lanes[8 * i + row].value).address();
      if (observer)
        observer->access(observer->user, uint32_t(8 * i + row), address, 16,
                         false, "ldmatrix of 16 bytes");
      std::memcpy(values[i][row], address, 16);
    }
  for (int lane = 0; lane < GPUMEM_WARP_SIZE; ++lane) {
    Record r(lanes[lane].value);
    int g = lane / 4, t = lane % 4;
    for (int i = 0; i < count; ++i) {
      uint16_t pair[2];
      for (int h = 0; h < 2; ++h)
        pair[h] = trans ? values[i][2 * t + h][g] : values[i][g][2 * t + h];
      std::memcpy(r.word(i), pair, 4);
    }
  }
}

} // namespace

void gpumem::cpu::ptxMatrixOp(int32_t descriptor, const WarpOperands lanes[],
                              const MatrixAccessObserver *observer) {
  switch (GPUMEM_MATRIX_INSTRUCTION(descriptor)) {
  case GPUMEM_MATRIX_LOAD_A:
    return loadOrStore(descriptor, OperandA, false, lanes, observer);
  case GPUMEM_MATRIX_LOAD_B:
    return loadOrStore(descriptor, OperandB, false, lanes, observer);
  case GPUMEM_MATRIX_LOAD_C:
    return loadOrStore(descriptor, OperandC, false, lanes, observer);
  case GPUMEM_MATRIX_STORE_D:
    return loadOrStore(descriptor, OperandC, true, lanes, observer);
  case GPUMEM_MATRIX_LDMATRIX:
    return loadMatrices(descriptor, lanes, observer);
  default:
    return multiply(descriptor, lanes);
  }
}

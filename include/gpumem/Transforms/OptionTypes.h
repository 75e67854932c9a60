//===----------------------------------------------------------------------===//
// The types of gpumem's enumerated options, shared by the passes, the
// pipelines and the tools: each value's name is written once (in the
// option's cl::values), and a bad value is an error that names what is
// expected ("unknown host-buffers mode 'x'; expected copy, managed,
// register or none") when the option is parsed, before anything runs.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_OPTIONTYPES_H
#define GPUMEM_TRANSFORMS_OPTIONTYPES_H

#include "gpumem/Runtime/CPUKernelABI.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace gpumem {

/// How host memrefs that kernels use reach the device
/// (gpumem-host-buffers-to-device, docs/memory.md).
enum class HostBufferMode { None, Copy, Managed, Register };

/// The form of the workgroup memory and register reports.
enum class ReportFormat { None, Text, JSON };

/// What an NVIDIA gpu.binary holds: PTX, a cubin or a fatbin; Default lets
/// the cuda pipeline choose (bin when ptxas is found, else isa).
enum class BinaryFormat { Default, ISA, Bin, Fatbin };

/// The name gpu-module-to-binary and the IR use for `format` ("isa", "bin",
/// "fatbin"; "" for Default).
inline llvm::StringRef stringifyBinaryFormat(BinaryFormat format) {
  switch (format) {
  case BinaryFormat::Default:
    return "";
  case BinaryFormat::ISA:
    return "isa";
  case BinaryFormat::Bin:
    return "bin";
  case BinaryFormat::Fatbin:
    return "fatbin";
  }
  llvm_unreachable("unknown binary format");
}

/// "a, b or c" from the non-empty names.
inline std::string joinExpectedNames(llvm::ArrayRef<llvm::StringRef> names) {
  llvm::SmallVector<llvm::StringRef> named;
  for (llvm::StringRef name : names)
    if (!name.empty())
      named.push_back(name);
  std::string text;
  for (size_t i = 0; i < named.size(); ++i) {
    if (i)
      text += i + 1 == named.size() ? " or " : ", ";
    text += named[i].str();
  }
  return text;
}

/// The check names of --sanitize, with their GPUMemCheck flags.
struct SanitizerCheckName {
  const char *name;
  int32_t flag;
};
inline constexpr SanitizerCheckName kSanitizerCheckNames[] = {
    {"memcheck", GPUMEM_CHECK_MEMCHECK},
    {"racecheck", GPUMEM_CHECK_RACECHECK},
    {"initcheck", GPUMEM_CHECK_INITCHECK},
    {"synccheck", GPUMEM_CHECK_SYNCCHECK}};

/// "memcheck, racecheck, initcheck or synccheck".
inline constexpr const char *kExpectedSanitizerChecks =
    "memcheck, racecheck, initcheck or synccheck";

/// --sanitize's checks, parsed once where the option enters (the tools, the
/// pipelines, the sanitizer passes): GPUMemCheck flags
/// (include/gpumem/Runtime/CPUKernelABI.h), written as comma-separated
/// names.
struct SanitizerChecks {
  int32_t flags = 0;

  bool empty() const { return flags == 0; }
  bool has(int32_t flag) const { return flags & flag; }
  bool operator==(const SanitizerChecks &other) const {
    return flags == other.flags;
  }
  bool operator!=(const SanitizerChecks &other) const {
    return flags != other.flags;
  }

  /// Every check (--sanitize alone).
  static SanitizerChecks all() {
    SanitizerChecks checks;
    for (const SanitizerCheckName &check : kSanitizerCheckNames)
      checks.flags |= check.flag;
    return checks;
  }

  /// `text`'s comma-separated check names (blanks around a name are
  /// ignored); false with the first unknown name in `unknown`.
  static bool parse(llvm::StringRef text, SanitizerChecks &checks,
                    std::string &unknown) {
    llvm::SmallVector<llvm::StringRef> names;
    text.split(names, ',', -1, /*KeepEmpty=*/false);
    SanitizerChecks parsed;
    for (llvm::StringRef name : names) {
      name = name.trim();
      const SanitizerCheckName *check = llvm::find_if(
          kSanitizerCheckNames,
          [&](const SanitizerCheckName &known) { return name == known.name; });
      if (check == std::end(kSanitizerCheckNames)) {
        unknown = name.str();
        return false;
      }
      parsed.flags |= check->flag;
    }
    checks = parsed;
    return true;
  }

  /// The names, comma-separated, in the order of kSanitizerCheckNames.
  std::string str() const {
    std::string text;
    for (const SanitizerCheckName &check : kSanitizerCheckNames)
      if (has(check.flag))
        text += (text.empty() ? "" : ",") + std::string(check.name);
    return text;
  }
};

/// The noun an enumerated option's error names its value by: "unknown
/// <noun> 'x'; expected ...".
template <typename Enum> struct OptionNoun;
template <> struct OptionNoun<HostBufferMode> {
  static constexpr const char *value = "host-buffers mode";
};
template <> struct OptionNoun<ReportFormat> {
  static constexpr const char *value = "workgroup memory report format";
};
template <> struct OptionNoun<BinaryFormat> {
  static constexpr const char *value = "output format";
};

/// llvm::cl::parser's enum parser, with gpumem's message for a bad value.
/// Options of the types above get it through the cl::parser
/// specializations below, so that MLIR's pass options (which print values
/// through `Values`) use it too.
template <typename Enum>
class EnumOptionParser : public llvm::cl::generic_parser_base {
protected:
  class OptionInfo : public GenericOptionInfo {
  public:
    OptionInfo(llvm::StringRef name, Enum v, llvm::StringRef helpStr)
        : GenericOptionInfo(name, helpStr), V(v) {}
    llvm::cl::OptionValue<Enum> V;
  };
  llvm::SmallVector<OptionInfo, 8> Values;

public:
  EnumOptionParser(llvm::cl::Option &option) : generic_parser_base(option) {}

  using parser_data_type = Enum;

  unsigned getNumOptions() const override { return unsigned(Values.size()); }
  llvm::StringRef getOption(unsigned n) const override {
    return Values[n].Name;
  }
  llvm::StringRef getDescription(unsigned n) const override {
    return Values[n].HelpStr;
  }
  const llvm::cl::GenericOptionValue &
  getOptionValue(unsigned n) const override {
    return Values[n].V;
  }

  /// The value named `arg`, or false.
  bool lookup(llvm::StringRef arg, Enum &value) const {
    for (const OptionInfo &info : Values)
      if (info.Name == arg) {
        value = info.V.getValue();
        return true;
      }
    return false;
  }

  /// "copy, managed, register or none": the names a value may have.
  std::string expectedNames() const {
    llvm::SmallVector<llvm::StringRef> names;
    for (const OptionInfo &info : Values)
      names.push_back(info.Name);
    return joinExpectedNames(names);
  }

  /// Returns true on error, after "error: unknown <noun> '<arg>'; expected
  /// ..." on stderr.
  bool parse(llvm::cl::Option &, llvm::StringRef, llvm::StringRef arg,
             Enum &value) {
    if (lookup(arg, value))
      return false;
    llvm::errs() << "error: unknown " << OptionNoun<Enum>::value << " '" << arg
                 << "'; expected " << expectedNames() << "\n";
    return true;
  }

  template <class DT>
  void addLiteralOption(llvm::StringRef name, const DT &v,
                        llvm::StringRef helpStr) {
    Values.push_back(OptionInfo(name, static_cast<Enum>(v), helpStr));
    llvm::cl::AddLiteralOption(Owner, name);
  }

  void removeLiteralOption(llvm::StringRef name) {
    unsigned n = findOption(name);
    assert(n != Values.size() && "option not found");
    Values.erase(Values.begin() + n);
  }
};

} // namespace gpumem

namespace llvm::cl {
template <>
class parser<gpumem::HostBufferMode>
    : public gpumem::EnumOptionParser<gpumem::HostBufferMode> {
public:
  using EnumOptionParser::EnumOptionParser;
};
template <>
class parser<gpumem::ReportFormat>
    : public gpumem::EnumOptionParser<gpumem::ReportFormat> {
public:
  using EnumOptionParser::EnumOptionParser;
};
template <>
class parser<gpumem::BinaryFormat>
    : public gpumem::EnumOptionParser<gpumem::BinaryFormat> {
public:
  using EnumOptionParser::EnumOptionParser;
};

/// --sanitize's and the passes' `checks`: comma-separated check names.
template <>
class parser<gpumem::SanitizerChecks>
    : public basic_parser<gpumem::SanitizerChecks> {
public:
  parser(Option &option) : basic_parser(option) {}

  /// Returns true on error, after "error: unknown sanitizer check 'x';
  /// expected ..." on stderr.
  bool parse(Option &, StringRef, StringRef arg,
             gpumem::SanitizerChecks &value) {
    std::string unknown;
    if (gpumem::SanitizerChecks::parse(arg, value, unknown))
      return false;
    llvm::errs() << "error: unknown sanitizer check '" << unknown
                 << "'; expected " << gpumem::kExpectedSanitizerChecks << "\n";
    return true;
  }
  StringRef getValueName() const override { return "checks"; }
  static void print(raw_ostream &os, const gpumem::SanitizerChecks &value) {
    os << value.str();
  }
  void printOptionDiff(const Option &option, gpumem::SanitizerChecks value,
                       const OptionValue<gpumem::SanitizerChecks> &,
                       size_t globalWidth) const {
    printOptionName(option, globalWidth);
    outs() << "= " << value.str() << "\n";
  }
  void anchor() override {}
};
} // namespace llvm::cl

#endif // GPUMEM_TRANSFORMS_OPTIONTYPES_H

//===----------------------------------------------------------------------===//
// A comma-separated list of chips ("sm_80,sm_90", "gfx90a,gfx942") read
// against a vendor's chip table, shared by the NVIDIA and AMD tables: the
// chips in the table's order (oldest first), each once.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_SUPPORT_CHIPLIST_H
#define GPUMEM_SUPPORT_CHIPLIST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace gpumem {

/// The chips of `table` (each with a `name`) that `list` names, in the
/// table's order and each once; or none, with the first name the table
/// does not have in `unknown`.
template <typename Chip>
llvm::SmallVector<const Chip *> parseChipList(llvm::StringRef list,
                                              llvm::ArrayRef<Chip> table,
                                              std::string &unknown) {
  llvm::SmallVector<llvm::StringRef> names;
  list.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  llvm::SmallVector<bool> named(table.size(), false);
  for (llvm::StringRef name : names) {
    const Chip *chip = llvm::find_if(
        table, [&](const Chip &entry) { return entry.name == name.trim(); });
    if (chip == table.end()) {
      unknown = name.trim().str();
      return {};
    }
    named[chip - table.begin()] = true;
  }
  llvm::SmallVector<const Chip *> chips;
  for (auto [index, chip] : llvm::enumerate(table))
    if (named[index])
      chips.push_back(&chip);
  return chips;
}

/// The names of `chips`, comma separated: "sm_80,sm_90".
template <typename Chip>
std::string joinChipNames(llvm::ArrayRef<const Chip *> chips) {
  return llvm::join(
      llvm::map_range(chips, [](const Chip *chip) { return chip->name.str(); }),
      ",");
}

} // namespace gpumem

#endif // GPUMEM_SUPPORT_CHIPLIST_H

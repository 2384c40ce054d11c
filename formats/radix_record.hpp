// The radixes of the radix-k families in one text form, read and written in one place: what
// TUWCOLL_RADIX sets (libtuwcoll), what irrbench records (tuwcoll_radix) and what irrmodel prices.
// "4" sets every family; "TUWk=4 Binomialk=9 TUWk_init=9 TUWk_Gatherv=5" (words separated by
// spaces or commas, in any order) sets each family it names.
#pragma once

#include <string>

namespace irr::formats {

// TUWk: TUWk_Scatterv, and TUWk_Gatherv where TUWk_Gatherv is not named (one family before
// TUWk_Gatherv's carried tree had a radix of its own, so older records and settings mean both);
// TUWk_Gatherv: TUWk_Gatherv's plain calls on an intracommunicator (the tree whose construction
// carries small cubes' data); Binomialk: the k-nomial trees; TUWk_init: the persistent forms'
// trees built at init.
enum class RadixFamily { kTuwk, kTuwkGatherv, kBinomialk, kTuwkInit };
constexpr int kRadixFamilies = 4;
const char* RadixFamilyName(RadixFamily family);

struct RadixRecord {
  int named[kRadixFamilies] = {0, 0, 0, 0};  // 0: the family is not named
  // The family's radix, 0 where the record does not set it (TUWk_Gatherv: TUWk's where it is
  // not named itself).
  int Of(RadixFamily family) const;
};

// False where `text` is neither one whole number from 2 to max_radix nor a list of Family=R words
// with such numbers and the four families' names (an empty word between separators is allowed).
bool ParseRadixRecord(const std::string& text, int max_radix, RadixRecord* record);
// irrbench's record of the radixes a run's -k trees ran with: every family, in the order
// "TUWk=… Binomialk=… TUWk_init=… TUWk_Gatherv=…" (the last added when it got its own).
std::string RadixRecordText(int tuwk, int binomialk, int tuwk_init, int tuwk_gatherv);

}  // namespace irr::formats

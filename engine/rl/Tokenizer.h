#pragma once
// Byte-level tokenizer: ids 0..255 are the bytes themselves, then three specials. Qt-free.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cohort::rl {

struct ByteTokenizer {
    static constexpr int32_t kBos = 256;
    static constexpr int32_t kEos = 257;
    static constexpr int32_t kPad = 258;
    static constexpr int32_t kVocabSize = 259;

    // The bytes of `text` as ids; with addBos a leading kBos.
    static std::vector<int32_t> encode(std::string_view text, bool addBos = false);
    // Byte ids back to bytes; specials are dropped (decoding stops at nothing: callers cut at kEos themselves).
    static std::string decode(std::span<const int32_t> ids);
    static bool isValid(int32_t id) { return id >= 0 && id < kVocabSize; }
};

} // namespace cohort::rl

#include "rl/Tokenizer.h"

namespace cohort::rl {

std::vector<int32_t> ByteTokenizer::encode(std::string_view text, bool addBos)
{
    std::vector<int32_t> ids;
    ids.reserve(text.size() + (addBos ? 1 : 0));
    if (addBos)
        ids.push_back(kBos);
    for (char c : text)
        ids.push_back(int32_t(static_cast<unsigned char>(c)));
    return ids;
}

std::string ByteTokenizer::decode(std::span<const int32_t> ids)
{
    std::string out;
    out.reserve(ids.size());
    for (int32_t id : ids) {
        if (id >= 0 && id < 256) // specials and anything invalid carry no bytes
            out.push_back(static_cast<char>(static_cast<unsigned char>(id)));
    }
    return out;
}

} // namespace cohort::rl

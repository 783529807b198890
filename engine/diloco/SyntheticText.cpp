#include "diloco/SyntheticText.h"

#include "rl/Tokenizer.h"

#include <array>
#include <string_view>

namespace cohort::diloco {

uint64_t SplitMix64::next()
{
    uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

namespace {

template <size_t N>
std::string_view pick(SplitMix64 &rng, const std::array<std::string_view, N> &words)
{
    return words[rng.below(uint32_t(N))];
}

constexpr std::array<std::string_view, 10> kAdjectives{"quiet", "red",   "small", "old",  "bright",
                                                       "lazy",  "green", "happy", "cold", "tall"};
constexpr std::array<std::string_view, 10> kAnimals{"fox",   "cat",  "dog", "bird", "horse",
                                                    "mouse", "bear", "owl", "frog", "goat"};
constexpr std::array<std::string_view, 8> kThings{"apples", "stones", "books", "shells",
                                                  "coins",  "leaves", "cups",  "keys"};
constexpr std::array<std::string_view, 8> kVerbs{"finds",   "sees",  "keeps", "counts",
                                                 "carries", "hides", "wants", "drops"};
constexpr std::array<std::string_view, 8> kPlaces{"the river", "the hill", "the barn", "the road",
                                                  "the lake",  "the wood", "the gate", "the field"};
constexpr std::array<std::string_view, 4> kPrepositions{"near", "under", "behind", "beside"};

} // namespace

std::string SyntheticText::paragraph(uint64_t seed, uint64_t index)
{
    SplitMix64 rng(seed * 0x9E3779B97F4A7C15ull ^ (index + 0x632BE59BD9B4E019ull));
    std::string text;
    const int sentences = 2 + int(rng.below(3));
    for (int s = 0; s < sentences; ++s) {
        const std::string_view animal = pick(rng, kAnimals);
        text += "the ";
        text += pick(rng, kAdjectives);
        text += ' ';
        text += animal;
        text += ' ';
        switch (rng.below(3)) {
        case 0: { // counting: the number and the noun agree ("1 red apple" is never written, numbers start at 2)
            text += pick(rng, kVerbs);
            text += ' ';
            text += std::to_string(2 + rng.below(8));
            text += ' ';
            text += pick(rng, kAdjectives);
            text += ' ';
            text += pick(rng, kThings);
            break;
        }
        case 1: // a place
            text += "sleeps ";
            text += pick(rng, kPrepositions);
            text += ' ';
            text += pick(rng, kPlaces);
            break;
        default: // a repeated name: the model can learn to copy it
            text += "meets the ";
            text += pick(rng, kAnimals);
            text += " and the ";
            text += animal;
            text += " is glad";
            break;
        }
        text += ". ";
    }
    return text;
}

std::vector<std::vector<int32_t>> SyntheticText::batch(uint64_t seed, uint64_t step, int batch, int length)
{
    std::vector<std::vector<int32_t>> out;
    out.reserve(size_t(batch > 0 ? batch : 0));
    SplitMix64 rng(seed ^ (step * 0xD1B54A32D192ED03ull));
    for (int b = 0; b < batch; ++b) {
        // Text from a random place in the stream, long enough for the window and a random offset into it.
        std::string text;
        uint64_t index = rng.next() >> 16;
        while (text.size() < size_t(length) + 64)
            text += paragraph(seed, index++);
        const size_t offset = rng.below(48);
        out.push_back(rl::ByteTokenizer::encode(std::string_view(text).substr(offset, size_t(length))));
    }
    return out;
}

} // namespace cohort::diloco

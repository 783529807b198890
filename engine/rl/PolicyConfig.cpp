#include "rl/PolicyConfig.h"

#include "rl/Tokenizer.h"

#include <charconv>
#include <cmath>

namespace cohort::rl {

namespace {

constexpr const char *kArchKey = "cohort.model.arch";
constexpr const char *kArch = "cohort-gpt-1";
// A hostile checkpoint must not make us allocate terabytes before the tensors are even checked.
constexpr double kMaxParameters = 1e9;

std::string fmtFloat(float v)
{
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v); // shortest text that reads back to the same float
    return std::string(buf, r.ptr);
}

// Whole-string parse: "12x", " 12", "" are all refused.
bool parseInt(const std::string &s, int &out)
{
    if (s.empty())
        return false;
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}
bool parseFloat(const std::string &s, float &out)
{
    if (s.empty())
        return false;
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

} // namespace

long long PolicyConfig::parameterCount() const
{
    const long long d = dModel, f = dFF, v = vocabSize, t = maxSeqLen;
    const long long perLayer = 2 * d + (3 * d * d + 3 * d) + (d * d + d) + 2 * d + (f * d + f) + (d * f + d);
    return v * d + t * d + nLayers * perLayer + 2 * d + v * d;
}

std::string PolicyConfig::validate() const
{
    if (vocabSize < ByteTokenizer::kVocabSize || vocabSize > (1 << 20))
        return "vocab_size must be in [" + std::to_string(ByteTokenizer::kVocabSize) + ", 1048576]";
    if (dModel < 1 || dModel > 65536)
        return "d_model must be in [1, 65536]";
    if (nLayers < 1 || nLayers > 1024)
        return "n_layers must be in [1, 1024]";
    if (nHeads < 1 || nHeads > dModel)
        return "n_heads must be in [1, d_model]";
    if (dModel % nHeads != 0)
        return "d_model must be a multiple of n_heads";
    if (dFF < 1 || dFF > (1 << 20))
        return "d_ff must be in [1, 1048576]";
    if (maxSeqLen < 2 || maxSeqLen > (1 << 20))
        return "max_seq_len must be in [2, 1048576]";
    if (!std::isfinite(normEps) || normEps <= 0.0f || normEps >= 1.0f)
        return "norm_eps must be in (0, 1)";
    // Computed in double: the integer formula cannot overflow within the ranges above, but stay safe anyway.
    const double d = dModel, f = dFF, v = vocabSize, t = maxSeqLen;
    const double params = 2 * v * d + t * d + nLayers * (4 * d * d + 2 * d * f + 9 * d + f) + 2 * d;
    if (params > kMaxParameters)
        return "model too large (" + std::to_string(static_cast<long long>(params)) + " parameters, limit 1e9)";
    return {};
}

std::map<std::string, std::string> PolicyConfig::toMetadata() const
{
    return {
        {kArchKey, kArch},
        {"cohort.model.vocab_size", std::to_string(vocabSize)},
        {"cohort.model.d_model", std::to_string(dModel)},
        {"cohort.model.n_layers", std::to_string(nLayers)},
        {"cohort.model.n_heads", std::to_string(nHeads)},
        {"cohort.model.d_ff", std::to_string(dFF)},
        {"cohort.model.max_seq_len", std::to_string(maxSeqLen)},
        {"cohort.model.norm_eps", fmtFloat(normEps)},
    };
}

Result<PolicyConfig> PolicyConfig::fromMetadata(const std::map<std::string, std::string> &metadata)
{
    auto arch = metadata.find(kArchKey);
    if (arch == metadata.end())
        return Result<PolicyConfig>::failure(std::string("metadata lacks ") + kArchKey);
    if (arch->second != kArch)
        return Result<PolicyConfig>::failure("unsupported model architecture \"" + arch->second + "\"");

    PolicyConfig c;
    const std::pair<const char *, int *> ints[] = {
        {"cohort.model.vocab_size", &c.vocabSize},
        {"cohort.model.d_model", &c.dModel},
        {"cohort.model.n_layers", &c.nLayers},
        {"cohort.model.n_heads", &c.nHeads},
        {"cohort.model.d_ff", &c.dFF},
        {"cohort.model.max_seq_len", &c.maxSeqLen},
    };
    for (const auto &[key, field] : ints) {
        auto it = metadata.find(key);
        if (it == metadata.end())
            return Result<PolicyConfig>::failure(std::string("metadata lacks ") + key);
        if (!parseInt(it->second, *field))
            return Result<PolicyConfig>::failure(std::string(key) + " is not an integer: \"" + it->second + "\"");
    }
    auto eps = metadata.find("cohort.model.norm_eps");
    if (eps == metadata.end())
        return Result<PolicyConfig>::failure("metadata lacks cohort.model.norm_eps");
    if (!parseFloat(eps->second, c.normEps))
        return Result<PolicyConfig>::failure("cohort.model.norm_eps is not a number: \"" + eps->second + "\"");
    if (std::string why = c.validate(); !why.empty())
        return Result<PolicyConfig>::failure("bad model config: " + why);
    return Result<PolicyConfig>::success(c);
}

} // namespace cohort::rl

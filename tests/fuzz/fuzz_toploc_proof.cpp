// TOPLOC proofs arrive from untrusted nodes: decode must refuse anything malformed with a reason, never crash, and
// whatever it accepts must re-serialize to the same bytes; verifying any accepted proof against the hub's own hidden
// states must also never crash and must report sane statistics.
//
// Input layout: byte 0 picks the chunk count the decoder expects (a multiple of 4: byte/4, anything else: what the
// length implies, so the accepting path is reachable), byte 1 trims that many tokens off the last chunk, the rest is
// the proof.
#include "toploc/Gf65497.h"
#include "toploc/Proof.h"
#include "toploc/Verify.h"

#include <cstdint>
#include <string_view>
#include <vector>

using namespace cohort::toploc;

namespace {

void check(bool condition)
{
    if (!condition)
        __builtin_trap();
}

constexpr size_t kDim = 16;
constexpr size_t kMaxChunks = 8;

// A fixed, deterministic stand-in for the verifier's hidden states (no RNG state shared between runs).
const std::vector<float> &hiddenStates()
{
    static const std::vector<float> h = [] {
        std::vector<float> v(kMaxChunks * kChunkTokens * kDim);
        uint32_t x = 0x12345678u;
        for (float &f : v) {
            x = x * 1664525u + 1013904223u;
            f = float(int32_t(x >> 8) - (1 << 23)) / float(1 << 22); // roughly uniform in [-2, 2)
        }
        return v;
    }();
    return h;
}

void checkVerdict(const ChunkVerdict &v)
{
    check(v.points >= 0 && v.points <= kTopK);
    check(v.expMatches >= 0 && v.expMatches <= v.points);
    if (v.expMatches == 0) {
        check(v.mantissaMean == kNoMatchError && v.mantissaMedian == kNoMatchError && !v.accepted);
    } else {
        check(v.mantissaMean >= 0 && v.mantissaMean <= 127 && v.mantissaMedian >= 0 && v.mantissaMedian <= 127);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const std::string_view bytes(reinterpret_cast<const char *>(data + 2), size - 2);
    const size_t expected = data[0] % 4 == 0 ? size_t(data[0] / 4) : bytes.size() / kProofBytes;
    const auto decoded = decode(bytes, expected);
    if (!decoded) {
        check(!decoded.error.empty());
        return 0;
    }
    check(decoded.error.empty());
    const std::vector<ChunkProof> &proofs = *decoded;
    check(proofs.size() == expected && bytes.size() == expected * kProofBytes);
    for (const ChunkProof &p : proofs) {
        check(p.modulus > 0 && p.modulus <= kMaxModulus);
        for (const uint16_t c : p.coefficients)
            check(c < gf::kP);
    }
    check(serialize(proofs) == bytes);

    const std::vector<float> &hidden = hiddenStates();
    if (proofs.empty() || proofs.size() > kMaxChunks) {
        for (const ChunkProof &p : proofs)
            checkVerdict(verifyChunk(p, hidden.data(), kChunkTokens, kDim));
        return 0;
    }
    const size_t trim = data[1] % kChunkTokens;
    const size_t tokens = proofs.size() * kChunkTokens - trim;
    const VerifyReport report = verifyProofs(proofs, hidden.data(), tokens, kDim);
    check(report.error.empty() && report.chunks.size() == proofs.size());
    bool all = true;
    for (const ChunkVerdict &v : report.chunks) {
        checkVerdict(v);
        all = all && v.accepted;
    }
    check(report.accepted == all);
    // The honest proof of the same states always passes, whatever the fuzzer sent.
    check(verifyProofs(buildProofs(hidden.data(), tokens, kDim), hidden.data(), tokens, kDim).accepted);
    return 0;
}

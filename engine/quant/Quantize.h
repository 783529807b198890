#pragma once
// Min-max quantization of float32 spans to uint8 / uint16 codes: the CPU reference that the collectives use and that
// the CUDA kernels (engine/cuda) reproduce bit for bit. C++ standard library only (no Qt, no LibTorch); nothing throws.
//
// A span is sent as a header (QuantParams: min and scale, 8 bytes on the wire) plus one code per value;
// value = min + code * scale. The exact arithmetic is in QuantMath.h; in words:
//   * computeParams: lo/hi = the smallest and largest value (exact, order-independent; a zero is taken as +0),
//     min = lo, scale = (hi - lo) / L in float (L = 255 or 65535), raised by an ulp while L * scale < hi - lo (so
//     the top code reaches hi; this matters for subnormal steps). hi == lo (a constant span, or an empty one:
//     lo = hi = 0) gives scale 0, and only then. NaN or +-inf anywhere is refused (ErrorCode::NonFinite), as is a range
//     whose width overflows float (ErrorCode::RangeTooLarge).
//   * quantize: code = round((x - min) / scale), halves away from zero, clamped to [0, L].
//   * dequantize: min + code * scale; dequantizeAccumulate: dst += that, with the product, the sum with min and
//     the sum with dst each rounded separately.
// Round-trip error for x in [lo, hi]: |dequantize(quantize(x)) - x| <= scale / 2 + 2^-21 * (|lo| + |hi|) (half a
// step, plus float rounding of the subtraction, the division and the two sums).
//
// Collectives (../shared/reference/prime-stack.md §1.4): the owner of a chunk quantizes it once and replaces its own
// copy with the de-quantized values (requantize), so every peer ends with identical bits.
#include "base/Result.h"
#include "quant/QuantMath.h"

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

namespace cohort::quant {

// The code types: unsigned 8- and 16-bit integers.
template <typename Q>
concept Word = std::same_as<Q, uint8_t> || std::same_as<Q, uint16_t>;

// The largest code: 255 or 65535.
template <Word Q>
inline constexpr uint32_t kLevels = std::numeric_limits<Q>::max();

struct QuantParams {
    float min = 0.0f;   // the value of code 0
    float scale = 0.0f; // the step between codes, >= 0; 0 decodes every code to min
    bool operator==(const QuantParams &) const = default;
};

// Failures are the engine's error codes (base/Result.h): NonFinite (NaN or +-inf in the input), RangeTooLarge (max -
// min overflows float), SizeMismatch (source and destination spans differ in length), BadParams (min not finite, scale
// negative / not finite, or the top code would decode to +-inf); None is success. A bare code: the inner loops return
// it without building a message, and describe() gives the words when a caller needs them.
const char *describe(ErrorCode code); // short English words ("ok", "input holds NaN or infinity", ...)

struct [[nodiscard]] ParamsResult {
    QuantParams params; // meaningful only when code == None
    ErrorCode code = ErrorCode::None;
    bool ok() const { return code == ErrorCode::None; }
    explicit operator bool() const { return ok(); }
};

// The header for a span whose smallest value is lo and largest is hi (lo <= hi, both finite), for codes up to
// `levels` (255 or 65535). This is the one place the scale is computed: the CUDA path reduces min/max on the device
// and calls this on the host.
ParamsResult paramsFromRange(float lo, float hi, uint32_t levels);

// Whether (min, scale) is usable for codes up to `levels` (finite min, finite scale >= 0, min + levels * scale
// finite). Every function below checks it; use it on a header that came over the network.
bool validParams(const QuantParams &params, uint32_t levels);

// The header for `src` (see above). Empty span: {0, 0}.
template <Word Q>
ParamsResult computeParams(std::span<const float> src);

// dst[i] = code of src[i]. src and dst must have the same length. A non-finite src[i] is written as code 0 and the
// call returns NonFinite after writing every element; values outside [min, min + L * scale] clamp to 0 or L.
template <Word Q>
ErrorCode quantize(std::span<const float> src, const QuantParams &params, std::span<Q> dst);

// dst[i] = min + src[i] * scale.
template <Word Q>
ErrorCode dequantize(std::span<const Q> src, const QuantParams &params, std::span<float> dst);

// dst[i] = dst[i] + (min + src[i] * scale): a received quantized chunk reduced into the local one.
template <Word Q>
ErrorCode dequantizeAccumulate(std::span<const Q> src, const QuantParams &params, std::span<float> dst);

// computeParams + quantize into `codes` + replace `values` by their de-quantized copy: what the owner of a chunk
// does before forwarding it, so that its own copy equals every receiver's. On failure `values` is unchanged.
template <Word Q>
ParamsResult requantize(std::span<float> values, std::span<Q> codes);

// Wire form of the header: min then scale, each as its IEEE-754 bits, big-endian (8 bytes).
inline constexpr size_t kParamsWireBytes = 8;
std::array<uint8_t, kParamsWireBytes> encodeParams(const QuantParams &params);
// Inverse of encodeParams; refuses (BadParams) a header that validParams rejects for `levels`.
ParamsResult decodeParams(std::span<const uint8_t, kParamsWireBytes> bytes, uint32_t levels);

} // namespace cohort::quant

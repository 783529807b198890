// Checkpoint files arrive from the network: parseHeader must refuse anything malformed with an error, never crash,
// and whatever it accepts must satisfy the format's invariants and survive serialize -> parse unchanged.
#include "store/safetensors/Safetensors.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

using namespace cohort::safetensors;

namespace {

void check(bool condition)
{
    if (!condition)
        __builtin_trap();
}

// product(shape) * dtypeSize, computed independently of the library (128-bit); nullopt if over 64 bits.
std::optional<uint64_t> expectedBytes(const TensorInfo &t)
{
    for (const int64_t dim : t.shape) {
        check(dim >= 0);
        if (dim == 0)
            return 0;
    }
    unsigned __int128 total = dtypeSize(t.dtype);
    for (const int64_t dim : t.shape) {
        total *= uint64_t(dim);
        if (total > std::numeric_limits<uint64_t>::max())
            return std::nullopt;
    }
    return uint64_t(total);
}

std::vector<TensorView> viewsOf(const Header &h, const uint8_t *file)
{
    std::vector<TensorView> views;
    for (const TensorInfo &t : h.tensors)
        views.push_back(
            {t.name, t.dtype, t.shape, std::span<const uint8_t>(file + h.dataOffset + t.begin, t.byteSize())});
    return views;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const auto parsed = parseHeader(data, size, size);
    if (!parsed) {
        check(!parsed.error.empty());
        return 0;
    }
    const Header &h = *parsed;
    check(parsed.error.empty());
    check(h.headerSize >= 2 && h.headerSize <= kMaxHeaderSize);
    check(h.dataOffset == 8 + h.headerSize && h.fileSize() == size);

    // Sorted by offset, the tensors tile the data buffer exactly.
    uint64_t cursor = 0;
    for (const TensorInfo &t : h.tensors) {
        check(!t.name.empty() && t.name != kMetadataKey);
        check(dtypeSize(t.dtype) > 0);
        check(t.begin == cursor && t.begin <= t.end && t.end <= h.dataSize);
        const auto bytes = expectedBytes(t);
        check(bytes && *bytes == t.byteSize());
        check(h.find(t.name) == &t);
        cursor = t.end;
    }
    check(cursor == h.dataSize);

    // serialize(parse(x)) parses back to the same tensors, bytes and metadata ...
    const auto written = serialize(viewsOf(h, data), h.metadata);
    check(written.ok());
    const auto reparsed = parseHeader(written->data(), written->size(), written->size());
    check(reparsed.ok());
    check(reparsed->metadata == h.metadata);
    check(reparsed->tensors.size() == h.tensors.size());
    check(reparsed->dataSize == h.dataSize);
    check(reparsed->dataOffset % 8 == 0);
    for (const TensorInfo &t : reparsed->tensors) {
        const TensorInfo *original = h.find(t.name);
        check(original != nullptr);
        check(original->dtype == t.dtype && original->shape == t.shape && original->byteSize() == t.byteSize());
        check(t.begin % dtypeSize(t.dtype) == 0);
        if (t.byteSize() > 0)
            check(std::memcmp(written->data() + reparsed->dataOffset + t.begin, data + h.dataOffset + original->begin,
                              t.byteSize()) == 0);
    }
    // ... and the writer's output is a fixed point.
    const auto again = serialize(viewsOf(*reparsed, written->data()), reparsed->metadata);
    check(again.ok() && *again == *written);
    return 0;
}

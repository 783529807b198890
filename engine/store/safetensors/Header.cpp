// Header parsing and validation: everything that can be checked without the tensor contents.
#include "store/safetensors/HeaderInternal.h"
#include "store/safetensors/JsonCursor.h"
#include "store/safetensors/Safetensors.h"

#include <algorithm>
#include <array>
#include <limits>
#include <new>

namespace cohort::safetensors {

namespace {

struct DTypeEntry {
    DType dtype;
    std::string_view name;
    size_t size;
};

constexpr std::array<DTypeEntry, 15> kDTypes{{
    {DType::BOOL, "BOOL", 1},
    {DType::U8, "U8", 1},
    {DType::I8, "I8", 1},
    {DType::F8_E5M2, "F8_E5M2", 1},
    {DType::F8_E4M3, "F8_E4M3", 1},
    {DType::I16, "I16", 2},
    {DType::U16, "U16", 2},
    {DType::F16, "F16", 2},
    {DType::BF16, "BF16", 2},
    {DType::I32, "I32", 4},
    {DType::U32, "U32", 4},
    {DType::F32, "F32", 4},
    {DType::F64, "F64", 8},
    {DType::I64, "I64", 8},
    {DType::U64, "U64", 8},
}};

const DTypeEntry &entryOf(DType dtype)
{
    static constexpr DTypeEntry kInvalid{DType::BOOL, "", 0};
    const auto index = static_cast<size_t>(dtype);
    return index < kDTypes.size() ? kDTypes[index] : kInvalid;
}

using detail::JsonCursor;

// Bit flags for the three fields of a tensor entry.
enum : unsigned { kSeenDType = 1, kSeenShape = 2, kSeenOffsets = 4 };

bool readShape(JsonCursor &c, std::vector<int64_t> &shape)
{
    if (!c.consume('['))
        return c.failType("\"shape\" must be an array of integers");
    if (c.consume(']'))
        return true;
    do {
        uint64_t magnitude = 0;
        bool negative = false;
        if (!c.readInteger(magnitude, negative))
            return false;
        if (negative)
            return c.fail("\"shape\" has a negative dimension");
        if (magnitude > uint64_t(std::numeric_limits<int64_t>::max()))
            return c.fail("\"shape\" dimension does not fit in int64");
        shape.push_back(int64_t(magnitude));
    } while (c.consume(','));
    return c.expect(']', "',' or ']' in \"shape\"");
}

bool readOffsets(JsonCursor &c, uint64_t &begin, uint64_t &end)
{
    if (!c.consume('['))
        return c.failType("\"data_offsets\" must be an array of two integers");
    uint64_t values[2] = {0, 0};
    size_t count = 0;
    if (!c.consume(']')) {
        do {
            uint64_t magnitude = 0;
            bool negative = false;
            if (!c.readInteger(magnitude, negative))
                return false;
            if (negative)
                return c.fail("\"data_offsets\" has a negative offset");
            if (count >= 2)
                return c.fail("\"data_offsets\" must have exactly two entries");
            values[count++] = magnitude;
        } while (c.consume(','));
        if (!c.expect(']', "',' or ']' in \"data_offsets\""))
            return false;
    }
    if (count != 2)
        return c.fail("\"data_offsets\" must have exactly two entries");
    begin = values[0];
    end = values[1];
    return true;
}

bool readEntry(JsonCursor &c, TensorInfo &info)
{
    if (!c.consume('{'))
        return c.failType("entry must be an object");
    unsigned seen = 0;
    std::string field;
    if (!c.consume('}')) {
        do {
            if (!c.readString(field, 64))
                return false;
            if (!c.expect(':', "':'"))
                return false;
            unsigned bit = 0;
            if (field == "dtype") {
                bit = kSeenDType;
            } else if (field == "shape") {
                bit = kSeenShape;
            } else if (field == "data_offsets") {
                bit = kSeenOffsets;
            } else {
                return c.fail("unexpected key \"" + field + "\" (allowed: dtype, shape, data_offsets)");
            }
            if (seen & bit)
                return c.fail("duplicate key \"" + field + "\"");
            seen |= bit;
            if (bit == kSeenDType) {
                std::string name;
                if (c.peek() != '"')
                    return c.failType("\"dtype\" must be a string");
                if (!c.readString(name, 32))
                    return false;
                const auto dtype = parseDType(name);
                if (!dtype)
                    return c.fail("unknown dtype \"" + name + "\"");
                info.dtype = *dtype;
            } else if (bit == kSeenShape) {
                if (!readShape(c, info.shape))
                    return false;
            } else if (!readOffsets(c, info.begin, info.end)) {
                return false;
            }
        } while (c.consume(','));
        if (!c.expect('}', "',' or '}' in tensor entry"))
            return false;
    }
    if (!(seen & kSeenDType))
        return c.fail("missing \"dtype\"");
    if (!(seen & kSeenShape))
        return c.fail("missing \"shape\"");
    if (!(seen & kSeenOffsets))
        return c.fail("missing \"data_offsets\"");
    return true;
}

bool readMetadata(JsonCursor &c, std::map<std::string, std::string> &metadata)
{
    if (!c.consume('{'))
        return c.failType("\"__metadata__\" must be an object of strings");
    if (c.consume('}'))
        return true;
    std::string key, value;
    do {
        if (!c.readString(key, kMaxNameLength) || !c.expect(':', "':'"))
            return false;
        if (c.peek() != '"')
            return c.failType("\"__metadata__\" value for " + detail::quoteName(key) + " must be a string");
        if (!c.readString(value, kMaxHeaderSize))
            return false;
        if (!metadata.emplace(key, value).second)
            return c.fail("duplicate \"__metadata__\" key " + detail::quoteName(key));
    } while (c.consume(','));
    return c.expect('}', "',' or '}' in \"__metadata__\"");
}

std::string checkTensors(std::vector<TensorInfo> &tensors, uint64_t dataSize)
{
    using detail::quoteName;
    for (const TensorInfo &t : tensors) {
        if (t.begin > t.end)
            return "tensor " + quoteName(t.name) + ": data_offsets begin " + std::to_string(t.begin) + " > end " +
                   std::to_string(t.end);
        const auto bytes = detail::byteSizeOf(t.dtype, t.shape);
        if (!bytes)
            return "tensor " + quoteName(t.name) + ": shape is too large (byte size overflows 64 bits)";
        if (t.end - t.begin != *bytes)
            return "tensor " + quoteName(t.name) + ": data_offsets span " + std::to_string(t.end - t.begin) +
                   " bytes but dtype and shape need " + std::to_string(*bytes);
        if (t.end > dataSize)
            return "tensor " + quoteName(t.name) + ": data_offsets end " + std::to_string(t.end) +
                   " is beyond the data buffer of " + std::to_string(dataSize) + " bytes (truncated file?)";
    }
    std::sort(tensors.begin(), tensors.end(), [](const TensorInfo &a, const TensorInfo &b) {
        if (a.begin != b.begin)
            return a.begin < b.begin;
        if (a.end != b.end)
            return a.end < b.end;
        return a.name < b.name;
    });
    uint64_t cursor = 0;
    const TensorInfo *previous = nullptr;
    for (const TensorInfo &t : tensors) {
        if (t.begin < cursor)
            return "tensor " + quoteName(t.name) + " overlaps tensor " + quoteName(previous->name);
        if (t.begin > cursor)
            return "gap of " + std::to_string(t.begin - cursor) + " unused bytes before tensor " + quoteName(t.name);
        cursor = t.end;
        previous = &t;
    }
    if (cursor != dataSize)
        return std::to_string(dataSize - cursor) + " trailing bytes after the last tensor in the data buffer";
    return {};
}

Result<Header> parseHeaderUnchecked(const uint8_t *data, size_t size, uint64_t fileSize)
{
    using R = Result<Header>;
    auto length = peekHeaderSize(data, size);
    if (!length)
        return R::failure(length.error);
    const uint64_t n = *length;
    if (size > fileSize)
        return R::failure("safetensors: " + std::to_string(size) + " bytes given for a file of " +
                          std::to_string(fileSize) + " bytes");
    if (n > fileSize - 8)
        return R::failure("safetensors: header length " + std::to_string(n) + " exceeds the file (" +
                          std::to_string(fileSize) + " bytes)");
    if (size - 8 < n)
        return R::failure("safetensors: header needs " + std::to_string(8 + n) + " bytes, only " +
                          std::to_string(size) + " given");

    Header header;
    header.headerSize = n;
    header.dataOffset = 8 + n;
    header.dataSize = fileSize - 8 - n;
    JsonCursor c(data + 8, size_t(n));
    bool seenMetadata = false;
    std::string key;
    // "safetensors header: [tensor "x": ]<problem> (at file offset <n>)"
    const auto bad = [&c](const std::string &context = {}) {
        return R::failure("safetensors header: " + context + c.error() + " (at file offset " +
                          std::to_string(8 + c.errorOffset()) + ")");
    };
    if (!c.consume('{')) {
        if (!c.failed())
            c.failType("the header must be a JSON object");
        return bad();
    }
    if (!c.consume('}')) {
        do {
            if (!c.readString(key, kMaxNameLength) || !c.expect(':', "':'"))
                return bad();
            if (key == kMetadataKey) {
                if (seenMetadata) {
                    c.fail("duplicate key \"__metadata__\"");
                    return bad();
                }
                seenMetadata = true;
                if (!readMetadata(c, header.metadata))
                    return bad();
                continue;
            }
            if (key.empty()) {
                c.fail("empty tensor name");
                return bad();
            }
            TensorInfo info;
            info.name = key;
            if (!readEntry(c, info))
                return bad("tensor " + detail::quoteName(key) + ": ");
            header.tensors.push_back(std::move(info));
        } while (c.consume(','));
        if (!c.expect('}', "',' or '}' after a header entry"))
            return bad();
    }
    if (!c.atEnd()) {
        c.fail("unexpected bytes after the header object");
        return bad();
    }

    std::vector<const std::string *> names;
    names.reserve(header.tensors.size());
    for (const TensorInfo &t : header.tensors)
        names.push_back(&t.name);
    std::sort(names.begin(), names.end(), [](const std::string *a, const std::string *b) { return *a < *b; });
    const auto dup = std::adjacent_find(names.begin(), names.end(),
                                        [](const std::string *a, const std::string *b) { return *a == *b; });
    if (dup != names.end())
        return R::failure("safetensors header: duplicate tensor name " + detail::quoteName(**dup));

    const std::string problem = checkTensors(header.tensors, header.dataSize);
    if (!problem.empty())
        return R::failure("safetensors header: " + problem);
    return R::success(std::move(header));
}

} // namespace

namespace detail {

std::optional<uint64_t> byteSizeOf(DType dtype, const std::vector<int64_t> &shape)
{
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    uint64_t count = 1;
    for (const int64_t dim : shape) {
        if (dim < 0)
            return std::nullopt;
        if (dim == 0)
            return 0; // an empty tensor, however large its other dimensions
    }
    for (const int64_t dim : shape) {
        if (count > kMax / uint64_t(dim))
            return std::nullopt;
        count *= uint64_t(dim);
    }
    const uint64_t size = dtypeSize(dtype);
    if (size == 0 || count > kMax / size)
        return std::nullopt;
    return count * size;
}

std::string quoteName(std::string_view name)
{
    constexpr size_t kShown = 80;
    std::string out;
    appendJsonString(out, name.substr(0, kShown));
    if (name.size() > kShown)
        out.insert(out.size() - 1, "...");
    return out;
}

} // namespace detail

size_t dtypeSize(DType dtype)
{
    return entryOf(dtype).size;
}

std::string_view dtypeName(DType dtype)
{
    return entryOf(dtype).name;
}

std::optional<DType> parseDType(std::string_view name)
{
    for (const DTypeEntry &e : kDTypes) {
        if (e.name == name)
            return e.dtype;
    }
    return std::nullopt;
}

uint64_t TensorInfo::elementCount() const
{
    uint64_t count = 1;
    for (const int64_t dim : shape)
        count *= uint64_t(dim);
    return count;
}

const TensorInfo *Header::find(std::string_view name) const
{
    for (const TensorInfo &t : tensors) {
        if (t.name == name)
            return &t;
    }
    return nullptr;
}

Result<uint64_t> peekHeaderSize(const uint8_t *data, size_t size)
{
    using R = Result<uint64_t>;
    if (data == nullptr || size < 8)
        return R::failure("safetensors: need the 8-byte header length, got " + std::to_string(size) + " bytes");
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | data[i];
    if (n < 2)
        return R::failure("safetensors: header length " + std::to_string(n) + " is too small (minimum 2)");
    if (n > kMaxHeaderSize)
        return R::failure("safetensors: header length " + std::to_string(n) + " exceeds the limit of " +
                          std::to_string(kMaxHeaderSize) + " bytes");
    return R::success(n);
}

Result<Header> parseHeader(const uint8_t *data, size_t size, uint64_t fileSize)
{
    try {
        return parseHeaderUnchecked(data, size, fileSize);
    } catch (const std::bad_alloc &) {
        return Result<Header>::failure("safetensors: out of memory while parsing the header");
    } catch (const std::exception &e) {
        return Result<Header>::failure(std::string("safetensors: ") + e.what());
    }
}

} // namespace cohort::safetensors

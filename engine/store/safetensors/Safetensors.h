#pragma once
// Cohort's own safetensors reader and writer (https://github.com/huggingface/safetensors describes the format).
// Standard library only: no Qt, no LibTorch, no third-party JSON, so it builds on a bare GPU machine.
//
// File layout: an 8-byte little-endian unsigned header length N, then N bytes of UTF-8 JSON, then the data buffer.
// The JSON is one object: every key except "__metadata__" names a tensor,
//     "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}
// with offsets relative to the start of the data buffer; the optional "__metadata__" maps strings to strings
// (Cohort carries the model config as a JSON string under "cohort.config").
//
// Checkpoints arrive from the network, so parsing is strict and every problem is an error value naming it:
//  - 2 <= N <= kMaxHeaderSize and 8 + N <= file size;
//  - the header is RFC 8259 JSON (valid UTF-8, no lone surrogates, no duplicate keys, nothing after the object
//    but JSON whitespace); the reader is schema-directed, so it never builds a generic tree and its memory stays
//    proportional to what it keeps;
//  - each entry has exactly dtype / shape / data_offsets, a known dtype, non-negative integer dimensions whose
//    byte size does not overflow 64 bits and equals end - begin, begin <= end, and a non-empty name;
//  - the tensors, sorted by offset, tile the data buffer [0, file size - 8 - N) exactly: no overlap, no gap,
//    nothing past the end (a truncated file fails here), no trailing bytes.
// Nothing in this API throws: failures, including std::bad_alloc, come back as error strings.
//
// The writer is deterministic (SHARDCAST hashes whole files): tensors are laid out by DType in descending enum order
// (which is descending element size), then by name, so every tensor is naturally aligned; the header is compact
// JSON, "__metadata__" first (omitted when empty) with its keys sorted, then the tensors in data order, padded with
// spaces so the data buffer starts at a multiple of 8. This is the reference implementation's layout rule.
// writeFile is atomic: it writes <path>.tmp-<random> in the same directory, flushes it to disk, then renames it
// over the target, so the target is either the old file or the complete new one.
#include "base/Result.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cohort::safetensors {

// Largest accepted JSON header (the reference implementation's limit).
inline constexpr uint64_t kMaxHeaderSize = 100ull * 1024 * 1024;
// Longest accepted tensor name or metadata key, in bytes of UTF-8.
inline constexpr size_t kMaxNameLength = 64 * 1024;
inline constexpr std::string_view kMetadataKey = "__metadata__";

// The enumerator order is part of the writer's layout rule (see above) and sorts by element size: do not reorder.
enum class DType : uint8_t { BOOL, U8, I8, F8_E5M2, F8_E4M3, I16, U16, F16, BF16, I32, U32, F32, F64, I64, U64 };

// Bytes per element: 1, 2, 4 or 8 (0 for a value outside the enumeration).
size_t dtypeSize(DType dtype);
// The format's spelling: "F32", "BF16", "BOOL", ... ("" for a value outside the enumeration).
std::string_view dtypeName(DType dtype);
// Exact, case-sensitive inverse of dtypeName; nullopt for anything else.
std::optional<DType> parseDType(std::string_view name);

// Errors are values (base/Result.h): exactly one of `value` and `error` is set.

struct TensorInfo {
    std::string name;
    DType dtype = DType::U8;
    std::vector<int64_t> shape; // empty for a 0-d scalar
    uint64_t begin = 0;         // offsets into the data buffer, end exclusive
    uint64_t end = 0;

    uint64_t byteSize() const { return end - begin; }
    uint64_t elementCount() const; // product of shape (1 for a scalar)
    bool operator==(const TensorInfo &) const = default;
};

struct Header {
    std::vector<TensorInfo> tensors; // sorted by (begin, end, name): the order of the data buffer
    std::map<std::string, std::string> metadata;
    uint64_t headerSize = 0; // N, the JSON length (padding included)
    uint64_t dataOffset = 0; // 8 + N: where the data buffer starts in the file
    uint64_t dataSize = 0;   // bytes in the data buffer

    uint64_t fileSize() const { return dataOffset + dataSize; }
    const TensorInfo *find(std::string_view name) const; // nullptr if absent
};

// Reads the 8-byte length prefix; checks 2 <= N <= kMaxHeaderSize. A downloader reads 8 + N bytes next.
Result<uint64_t> peekHeaderSize(const uint8_t *data, size_t size);

// Validates a header from the first bytes of a file: `data` must hold at least 8 + N bytes (more is ignored);
// fileSize is the size of the whole file, which fixes the data buffer the tensors must tile.
Result<Header> parseHeader(const uint8_t *data, size_t size, uint64_t fileSize);

// A whole file in memory.
struct File {
    Header header;
    std::vector<uint8_t> bytes; // the entire file, header included (hash it as is)

    // The tensor's bytes inside `bytes`; `info` must come from `header`.
    std::span<const uint8_t> tensorData(const TensorInfo &info) const;
};

// Paths are UTF-8. readHeaderFromFile reads only 8 + N bytes but checks the tensors against the real file size,
// so it validates everything but the tensor contents.
Result<Header> readHeaderFromFile(const std::string &path);
Result<File> readFile(const std::string &path);
// Reads one tensor's bytes from disk; fails if the file no longer has the size `header` describes.
Result<std::vector<uint8_t>> tensorBytes(const std::string &path, const Header &header, std::string_view name);

// Writer input. TensorView borrows the bytes (e.g. from a torch tensor's storage); TensorData owns them.
struct TensorView {
    std::string name;
    DType dtype = DType::U8;
    std::vector<int64_t> shape;
    std::span<const uint8_t> bytes; // exactly product(shape) * dtypeSize(dtype) bytes
};
struct TensorData {
    std::string name;
    DType dtype = DType::U8;
    std::vector<int64_t> shape;
    std::vector<uint8_t> bytes;

    TensorView view() const { return TensorView{name, dtype, shape, bytes}; }
};

using Metadata = std::map<std::string, std::string>;

// The whole file in memory. Names must be unique, non-empty, valid UTF-8 and not "__metadata__"; metadata keys and
// values must be valid UTF-8; each tensor's byte count must match its dtype and shape.
Result<std::vector<uint8_t>> serialize(const std::vector<TensorView> &tensors, const Metadata &metadata = {});
Result<std::vector<uint8_t>> serialize(const std::vector<TensorData> &tensors, const Metadata &metadata = {});

// Atomic write (see above). Returns "" on success, otherwise an error naming the problem; on failure the target
// is untouched and no temporary file is left behind.
std::string writeFile(const std::string &path, const std::vector<TensorView> &tensors, const Metadata &metadata = {});
std::string writeFile(const std::string &path, const std::vector<TensorData> &tensors, const Metadata &metadata = {});

} // namespace cohort::safetensors

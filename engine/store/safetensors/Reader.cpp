// Reading safetensors files from disk. The header is read and validated first, so a damaged or hostile file is
// refused before any large allocation.
#include "store/safetensors/HeaderInternal.h"
#include "store/safetensors/Safetensors.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <limits>
#include <new>
#include <system_error>

namespace cohort::safetensors {

namespace {

namespace fs = std::filesystem;

struct OpenFile {
    std::ifstream in;
    uint64_t size = 0;
};

std::string where(const std::string &path)
{
    return "safetensors: " + detail::quoteName(path) + ": ";
}

// Opens a regular file for reading; returns "" or an error.
std::string openForReading(const std::string &path, OpenFile &file)
{
    const fs::path p(std::u8string(path.begin(), path.end()));
    std::error_code ec;
    const fs::file_status status = fs::status(p, ec);
    if (ec)
        return where(path) + "cannot open: " + ec.message();
    if (!fs::is_regular_file(status))
        return where(path) + "not a regular file";
    file.size = fs::file_size(p, ec);
    if (ec)
        return where(path) + "cannot read its size: " + ec.message();
    errno = 0;
    file.in.open(p, std::ios::binary);
    if (!file.in)
        return where(path) + "cannot open" + (errno ? ": " + std::generic_category().message(errno) : std::string());
    return {};
}

bool readExact(std::ifstream &in, uint8_t *data, uint64_t size)
{
    if (size == 0)
        return true;
    in.read(reinterpret_cast<char *>(data), std::streamsize(size));
    return in && uint64_t(in.gcount()) == size;
}

// Reads and validates the header; leaves `prefix` holding the first 8 + N bytes of the file.
Result<Header> readHeader(const std::string &path, OpenFile &file, std::vector<uint8_t> &prefix)
{
    using R = Result<Header>;
    const std::string problem = openForReading(path, file);
    if (!problem.empty())
        return R::failure(problem);
    prefix.resize(size_t(std::min<uint64_t>(file.size, 8)));
    if (!readExact(file.in, prefix.data(), prefix.size()))
        return R::failure(where(path) + "read failed");
    const auto length = peekHeaderSize(prefix.data(), prefix.size());
    if (!length)
        return R::failure(where(path) + length.error);
    if (*length <= file.size - 8) {
        prefix.resize(size_t(8 + *length));
        if (!readExact(file.in, prefix.data() + 8, *length))
            return R::failure(where(path) + "read failed (file shrank while reading?)");
    }
    // With too short a file, parseHeader names the problem from the first 8 bytes.
    auto header = parseHeader(prefix.data(), prefix.size(), file.size);
    if (!header)
        return R::failure(where(path) + header.error);
    return header;
}

} // namespace

std::span<const uint8_t> File::tensorData(const TensorInfo &info) const
{
    const uint64_t begin = header.dataOffset + info.begin;
    if (info.begin > info.end || begin < header.dataOffset || header.dataOffset + info.end > bytes.size())
        return {};
    return std::span<const uint8_t>(bytes.data() + begin, size_t(info.end - info.begin));
}

Result<Header> readHeaderFromFile(const std::string &path)
{
    try {
        OpenFile file;
        std::vector<uint8_t> prefix;
        return readHeader(path, file, prefix);
    } catch (const std::bad_alloc &) {
        return Result<Header>::failure(where(path) + "out of memory");
    } catch (const std::exception &e) {
        return Result<Header>::failure(where(path) + e.what());
    }
}

Result<File> readFile(const std::string &path)
{
    using R = Result<File>;
    try {
        OpenFile file;
        File out;
        auto header = readHeader(path, file, out.bytes);
        if (!header)
            return R::failure(header.error);
        if (file.size > std::numeric_limits<size_t>::max())
            return R::failure(where(path) + "file too large for memory");
        const size_t have = out.bytes.size();
        out.bytes.resize(size_t(file.size));
        if (!readExact(file.in, out.bytes.data() + have, file.size - have))
            return R::failure(where(path) + "read failed (file shrank while reading?)");
        if (file.in.peek() != std::ifstream::traits_type::eof())
            return R::failure(where(path) + "file grew while reading");
        out.header = std::move(*header);
        return R::success(std::move(out));
    } catch (const std::bad_alloc &) {
        return R::failure(where(path) + "out of memory");
    } catch (const std::exception &e) {
        return R::failure(where(path) + e.what());
    }
}

Result<std::vector<uint8_t>> tensorBytes(const std::string &path, const Header &header, std::string_view name)
{
    using R = Result<std::vector<uint8_t>>;
    try {
        const TensorInfo *info = header.find(name);
        if (!info)
            return R::failure(where(path) + "no tensor named " + detail::quoteName(name));
        OpenFile file;
        const std::string problem = openForReading(path, file);
        if (!problem.empty())
            return R::failure(problem);
        if (file.size != header.fileSize())
            return R::failure(where(path) + "the file has " + std::to_string(file.size) +
                              " bytes but its header describes " + std::to_string(header.fileSize()) +
                              " (changed or truncated?)");
        if (info->end > header.dataSize || info->begin > info->end ||
            info->byteSize() > std::numeric_limits<size_t>::max())
            return R::failure(where(path) + "tensor " + detail::quoteName(name) + " lies outside the data buffer");
        std::vector<uint8_t> bytes(size_t(info->byteSize()));
        file.in.seekg(std::streamoff(header.dataOffset + info->begin));
        if (!file.in || !readExact(file.in, bytes.data(), bytes.size()))
            return R::failure(where(path) + "read failed");
        return R::success(std::move(bytes));
    } catch (const std::bad_alloc &) {
        return R::failure(where(path) + "out of memory");
    } catch (const std::exception &e) {
        return R::failure(where(path) + e.what());
    }
}

} // namespace cohort::safetensors

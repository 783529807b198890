// Deterministic serialization and the atomic file writer.
#include "store/safetensors/HeaderInternal.h"
#include "store/safetensors/JsonCursor.h"
#include "store/safetensors/Safetensors.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <new>
#include <random>
#include <system_error>

#ifdef _WIN32
#  include <fcntl.h>
#  include <io.h>
#  include <sys/stat.h>
#else
#  include <fcntl.h>
#  include <unistd.h>
#endif

namespace cohort::safetensors {

namespace {

namespace fs = std::filesystem;
using detail::quoteName;

struct Plan {
    std::string header;                    // JSON plus padding; 8 + header.size() is a multiple of 8
    std::vector<const TensorView *> order; // data buffer order
    uint64_t dataSize = 0;
};

void appendUInt(std::string &out, uint64_t value)
{
    out += std::to_string(value);
}

Result<Plan> makePlan(const std::vector<TensorView> &tensors, const Metadata &metadata)
{
    using R = Result<Plan>;
    Plan plan;
    plan.order.reserve(tensors.size());
    for (const TensorView &t : tensors) {
        if (t.name.empty())
            return R::failure("safetensors writer: empty tensor name");
        if (t.name == kMetadataKey)
            return R::failure("safetensors writer: \"__metadata__\" cannot name a tensor");
        if (t.name.size() > kMaxNameLength || !detail::isValidUtf8(t.name))
            return R::failure("safetensors writer: tensor name " + quoteName(t.name) +
                              " is not valid UTF-8 or is too long");
        if (dtypeSize(t.dtype) == 0)
            return R::failure("safetensors writer: tensor " + quoteName(t.name) + " has an invalid dtype");
        const auto bytes = detail::byteSizeOf(t.dtype, t.shape);
        if (!bytes)
            return R::failure("safetensors writer: tensor " + quoteName(t.name) +
                              " has a negative dimension or a shape too large");
        if (*bytes != t.bytes.size())
            return R::failure("safetensors writer: tensor " + quoteName(t.name) + " has " +
                              std::to_string(t.bytes.size()) + " bytes but dtype and shape need " +
                              std::to_string(*bytes));
        if (plan.dataSize > std::numeric_limits<uint64_t>::max() - *bytes)
            return R::failure("safetensors writer: total data size overflows");
        plan.dataSize += *bytes;
        plan.order.push_back(&t);
    }
    std::sort(plan.order.begin(), plan.order.end(), [](const TensorView *a, const TensorView *b) {
        if (a->dtype != b->dtype)
            return a->dtype > b->dtype;
        return a->name < b->name;
    });
    for (size_t i = 1; i < plan.order.size(); ++i) {
        if (plan.order[i - 1]->name == plan.order[i]->name)
            return R::failure("safetensors writer: duplicate tensor name " + quoteName(plan.order[i]->name));
    }
    for (const auto &[key, value] : metadata) {
        if (key.size() > kMaxNameLength || !detail::isValidUtf8(key) || !detail::isValidUtf8(value))
            return R::failure("safetensors writer: metadata key " + quoteName(key) +
                              ": key or value is not valid UTF-8, or the key is too long");
    }

    std::string &h = plan.header;
    h.push_back('{');
    if (!metadata.empty()) {
        detail::appendJsonString(h, kMetadataKey);
        h += ":{";
        bool first = true;
        for (const auto &[key, value] : metadata) {
            if (!first)
                h.push_back(',');
            first = false;
            detail::appendJsonString(h, key);
            h.push_back(':');
            detail::appendJsonString(h, value);
        }
        h.push_back('}');
    }
    uint64_t offset = 0;
    for (const TensorView *t : plan.order) {
        if (h.size() > 1)
            h.push_back(',');
        detail::appendJsonString(h, t->name);
        h += ":{\"dtype\":";
        detail::appendJsonString(h, dtypeName(t->dtype));
        h += ",\"shape\":[";
        for (size_t i = 0; i < t->shape.size(); ++i) {
            if (i > 0)
                h.push_back(',');
            appendUInt(h, uint64_t(t->shape[i]));
        }
        h += "],\"data_offsets\":[";
        appendUInt(h, offset);
        h.push_back(',');
        offset += t->bytes.size();
        appendUInt(h, offset);
        h += "]}";
    }
    h.push_back('}');
    h.append((8 - h.size() % 8) % 8, ' ');
    if (h.size() > kMaxHeaderSize)
        return R::failure("safetensors writer: header of " + std::to_string(h.size()) + " bytes exceeds the limit");
    return R::success(std::move(plan));
}

void lengthPrefix(uint64_t n, uint8_t out[8])
{
    for (int i = 0; i < 8; ++i)
        out[i] = uint8_t(n >> (8 * i));
}

std::vector<TensorView> viewsOf(const std::vector<TensorData> &tensors)
{
    std::vector<TensorView> views;
    views.reserve(tensors.size());
    for (const TensorData &t : tensors)
        views.push_back(t.view());
    return views;
}

std::string errnoText(int error)
{
    return std::generic_category().message(error);
}

#ifdef _WIN32
int openExclusive(const fs::path &p)
{
    return _wopen(p.c_str(), _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE);
}
bool writeChunk(int fd, const uint8_t *data, size_t size, size_t &written)
{
    const unsigned chunk = unsigned(std::min<size_t>(size, 1u << 30));
    const int n = _write(fd, data, chunk);
    if (n < 0)
        return false;
    written = size_t(n);
    return true;
}
int syncFile(int fd)
{
    return _commit(fd);
}
int closeFile(int fd)
{
    return _close(fd);
}
void syncDirectory(const fs::path &)
{} // NTFS metadata is journaled; there is no portable directory flush
#else
int openExclusive(const fs::path &p)
{
    return ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
}
bool writeChunk(int fd, const uint8_t *data, size_t size, size_t &written)
{
    const ssize_t n = ::write(fd, data, std::min<size_t>(size, size_t(1) << 30));
    if (n < 0)
        return errno == EINTR ? (written = 0, true) : false;
    written = size_t(n);
    return true;
}
int syncFile(int fd)
{
    return ::fsync(fd);
}
int closeFile(int fd)
{
    return ::close(fd);
}
void syncDirectory(const fs::path &dir)
{
    // Makes the rename itself durable; best effort (some filesystems refuse to open or fsync a directory).
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
}
#endif

// Owns the temporary file until commit(): closes and deletes it on every failure path.
class TempFile {
public:
    ~TempFile()
    {
        if (m_fd >= 0)
            closeFile(m_fd);
        if (!m_path.empty()) {
            std::error_code ec;
            fs::remove(m_path, ec);
        }
    }
    std::string create(const fs::path &target)
    {
        std::random_device device;
        std::mt19937_64 random((uint64_t(device()) << 32) ^ device());
        for (int attempt = 0; attempt < 16; ++attempt) {
            static const char hex[] = "0123456789abcdef";
            std::string suffix = ".tmp-";
            uint64_t bits = random();
            for (int i = 0; i < 12; ++i, bits >>= 4)
                suffix.push_back(hex[bits & 0xF]);
            fs::path candidate = target;
            candidate += suffix;
            m_fd = openExclusive(candidate);
            if (m_fd >= 0) {
                m_path = candidate;
                return {};
            }
            if (errno != EEXIST)
                return "cannot create a temporary file next to it: " + errnoText(errno);
        }
        return "cannot create a temporary file next to it";
    }
    std::string write(const uint8_t *data, size_t size)
    {
        while (size > 0) {
            size_t written = 0;
            if (!writeChunk(m_fd, data, size, written))
                return "write failed: " + errnoText(errno);
            data += written;
            size -= written;
        }
        return {};
    }
    std::string commit(const fs::path &target)
    {
        if (syncFile(m_fd) != 0)
            return "flush to disk failed: " + errnoText(errno);
        const int closed = closeFile(m_fd);
        m_fd = -1;
        if (closed != 0)
            return "close failed: " + errnoText(errno);
        std::error_code ec;
        fs::rename(m_path, target, ec);
        if (ec)
            return "cannot replace it: " + ec.message();
        m_path.clear();
        return {};
    }

private:
    int m_fd = -1;
    fs::path m_path;
};

std::string writeAtomically(const std::string &path, const std::vector<TensorView> &tensors, const Metadata &metadata)
{
    auto plan = makePlan(tensors, metadata);
    if (!plan)
        return plan.error;
    const fs::path target(std::u8string(path.begin(), path.end()));
    const std::string where = "safetensors writer: " + quoteName(path) + ": ";
    if (!target.has_filename())
        return where + "not a file path";

    TempFile temp;
    std::string problem = temp.create(target);
    uint8_t prefix[8];
    lengthPrefix(plan->header.size(), prefix);
    if (problem.empty())
        problem = temp.write(prefix, 8);
    if (problem.empty())
        problem = temp.write(reinterpret_cast<const uint8_t *>(plan->header.data()), plan->header.size());
    for (const TensorView *t : plan->order) {
        if (!problem.empty())
            break;
        problem = temp.write(t->bytes.data(), t->bytes.size());
    }
    if (problem.empty())
        problem = temp.commit(target);
    if (!problem.empty())
        return where + problem;
    fs::path dir = target.parent_path();
    syncDirectory(dir.empty() ? fs::path(".") : dir);
    return {};
}

} // namespace

Result<std::vector<uint8_t>> serialize(const std::vector<TensorView> &tensors, const Metadata &metadata)
{
    using R = Result<std::vector<uint8_t>>;
    try {
        auto plan = makePlan(tensors, metadata);
        if (!plan)
            return R::failure(plan.error);
        const uint64_t total = 8 + plan->header.size() + plan->dataSize;
        if (total > std::numeric_limits<size_t>::max() || plan->dataSize > total)
            return R::failure("safetensors writer: file too large for memory");
        std::vector<uint8_t> out(static_cast<size_t>(total));
        lengthPrefix(plan->header.size(), out.data());
        std::memcpy(out.data() + 8, plan->header.data(), plan->header.size());
        size_t at = 8 + plan->header.size();
        for (const TensorView *t : plan->order) {
            if (!t->bytes.empty())
                std::memcpy(out.data() + at, t->bytes.data(), t->bytes.size());
            at += t->bytes.size();
        }
        return R::success(std::move(out));
    } catch (const std::bad_alloc &) {
        return R::failure("safetensors writer: out of memory");
    } catch (const std::exception &e) {
        return R::failure(std::string("safetensors writer: ") + e.what());
    }
}

Result<std::vector<uint8_t>> serialize(const std::vector<TensorData> &tensors, const Metadata &metadata)
{
    try {
        return serialize(viewsOf(tensors), metadata);
    } catch (const std::exception &) {
        return Result<std::vector<uint8_t>>::failure("safetensors writer: out of memory");
    }
}

std::string writeFile(const std::string &path, const std::vector<TensorView> &tensors, const Metadata &metadata)
{
    try {
        return writeAtomically(path, tensors, metadata);
    } catch (const std::bad_alloc &) {
        return "safetensors writer: out of memory";
    } catch (const std::exception &e) {
        return std::string("safetensors writer: ") + e.what();
    }
}

std::string writeFile(const std::string &path, const std::vector<TensorData> &tensors, const Metadata &metadata)
{
    try {
        return writeAtomically(path, viewsOf(tensors), metadata);
    } catch (const std::exception &) {
        return "safetensors writer: out of memory";
    }
}

} // namespace cohort::safetensors

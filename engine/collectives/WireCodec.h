#pragma once
// The byte-level reader and writer behind the collectives' wire format (Wire.h): big-endian integers, raw bytes and
// bounded UTF-8 text. Internal to engine/collectives (Wire.cpp's frames, WireSigning.cpp's signed messages).
#include "collectives/Wire.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace cohort::collectives::wire {

// Appends big-endian integers and raw bytes to a QByteArray.
class Writer {
public:
    void u8(uint8_t v) { m_out.append(char(v)); }
    void u16(uint16_t v)
    {
        uint8_t b[2];
        putU16(b, v);
        raw(b, 2);
    }
    void u32(uint32_t v)
    {
        uint8_t b[4];
        putU32(b, v);
        raw(b, 4);
    }
    void u64(uint64_t v)
    {
        uint8_t b[8];
        putU64(b, v);
        raw(b, 8);
    }
    void raw(const void *p, size_t n) { m_out.append(static_cast<const char *>(p), qsizetype(n)); }
    void bytes(QByteArrayView b) { m_out.append(b); }
    void text(const QString &s)
    {
        QByteArray utf8 = s.toUtf8();
        if (size_t(utf8.size()) > kMaxReasonBytes)
            utf8.truncate(qsizetype(kMaxReasonBytes));
        u16(uint16_t(utf8.size()));
        bytes(utf8);
    }
    QByteArray take() { return std::move(m_out); }

private:
    QByteArray m_out;
};

// Bounds-checked big-endian reader; any overrun latches `bad`.
class Reader {
public:
    explicit Reader(QByteArrayView v)
        : m_p(reinterpret_cast<const uint8_t *>(v.data())),
          m_n(size_t(v.size()))
    {}
    bool take(size_t n, const uint8_t **out)
    {
        if (m_bad || m_n - m_at < n) {
            m_bad = true;
            return false;
        }
        *out = m_p + m_at;
        m_at += n;
        return true;
    }
    uint8_t u8()
    {
        const uint8_t *p;
        return take(1, &p) ? p[0] : 0;
    }
    uint16_t u16()
    {
        const uint8_t *p;
        return take(2, &p) ? getU16(p) : 0;
    }
    uint32_t u32()
    {
        const uint8_t *p;
        return take(4, &p) ? getU32(p) : 0;
    }
    uint64_t u64()
    {
        const uint8_t *p;
        return take(8, &p) ? getU64(p) : 0;
    }
    QByteArray bytes(size_t n)
    {
        const uint8_t *p;
        return take(n, &p) ? QByteArray(reinterpret_cast<const char *>(p), qsizetype(n)) : QByteArray();
    }
    std::optional<QString> text()
    {
        const size_t n = u16();
        if (n > kMaxReasonBytes) {
            m_bad = true;
            return std::nullopt;
        }
        const uint8_t *p;
        if (!take(n, &p))
            return std::nullopt;
        return QString::fromUtf8(reinterpret_cast<const char *>(p), qsizetype(n));
    }
    // True when everything was read and nothing is left over.
    bool done() const { return !m_bad && m_at == m_n; }
    bool bad() const { return m_bad; }

private:
    const uint8_t *m_p;
    size_t m_n;
    size_t m_at = 0;
    bool m_bad = false;
};

} // namespace cohort::collectives::wire

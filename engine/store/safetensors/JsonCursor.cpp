#include "store/safetensors/JsonCursor.h"

#include <limits>

namespace cohort::safetensors::detail {

namespace {

// Length of the well-formed UTF-8 sequence starting at p (lead byte >= 0x80), or 0 if it is malformed.
// Follows the Unicode table of well-formed byte sequences (no overlongs, no surrogates, max U+10FFFF).
size_t utf8SequenceLength(const uint8_t *p, size_t available)
{
    const uint8_t lead = p[0];
    size_t length = 0;
    uint8_t lo = 0x80, hi = 0xBF; // allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0)
            lo = 0xA0;
        else if (lead == 0xED)
            hi = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0)
            lo = 0x90;
        else if (lead == 0xF4)
            hi = 0x8F;
    } else {
        return 0;
    }
    if (available < length || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < length; ++i) {
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    }
    return length;
}

void appendCodePoint(std::string &out, uint32_t cp)
{
    if (cp < 0x80) {
        out.push_back(char(cp));
    } else if (cp < 0x800) {
        out.push_back(char(0xC0 | (cp >> 6)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(char(0xE0 | (cp >> 12)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (cp >> 18)));
        out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(char(0x80 | (cp & 0x3F)));
    }
}

bool isDigit(uint8_t c)
{
    return c >= '0' && c <= '9';
}

} // namespace

bool JsonCursor::fail(const std::string &message)
{
    if (m_error.empty()) {
        m_error = message.empty() ? std::string("error") : message;
        m_errorOffset = m_pos;
    }
    return false;
}

bool JsonCursor::failSyntax(const std::string &message)
{
    return fail("invalid JSON: " + message);
}

bool JsonCursor::failType(const std::string &message)
{
    return atEnd() ? failSyntax("unexpected end of header") : fail(message);
}

uint8_t JsonCursor::peek()
{
    while (m_pos < m_size) {
        const uint8_t c = m_data[m_pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            return c;
        ++m_pos;
    }
    return 0;
}

bool JsonCursor::consume(char c)
{
    if (failed() || peek() != uint8_t(c) || m_pos >= m_size)
        return false;
    ++m_pos;
    return true;
}

bool JsonCursor::expect(char c, const char *what)
{
    if (consume(c))
        return true;
    if (failed())
        return false;
    return failSyntax(m_pos >= m_size ? std::string("unexpected end, expected ") + what
                                      : std::string("expected ") + what);
}

bool JsonCursor::readHex4(uint32_t &value)
{
    if (m_size - m_pos < 4)
        return failSyntax("truncated \\u escape");
    value = 0;
    for (int i = 0; i < 4; ++i) {
        const uint8_t c = m_data[m_pos++];
        uint32_t digit;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (c >= 'a' && c <= 'f')
            digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            digit = c - 'A' + 10;
        else
            return failSyntax("invalid hex digit in \\u escape");
        value = value * 16 + digit;
    }
    return true;
}

bool JsonCursor::readEscape(std::string &out)
{
    // m_pos is just past the backslash.
    if (m_pos >= m_size)
        return failSyntax("unterminated string");
    const uint8_t c = m_data[m_pos++];
    switch (c) {
    case '"': out.push_back('"'); return true;
    case '\\': out.push_back('\\'); return true;
    case '/': out.push_back('/'); return true;
    case 'b': out.push_back('\b'); return true;
    case 'f': out.push_back('\f'); return true;
    case 'n': out.push_back('\n'); return true;
    case 'r': out.push_back('\r'); return true;
    case 't': out.push_back('\t'); return true;
    case 'u': break;
    default: return failSyntax("invalid escape sequence");
    }
    uint32_t cp;
    if (!readHex4(cp))
        return false;
    if (cp >= 0xDC00 && cp <= 0xDFFF)
        return failSyntax("unpaired low surrogate in \\u escape");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        uint32_t low;
        if (m_size - m_pos < 2 || m_data[m_pos] != '\\' || m_data[m_pos + 1] != 'u')
            return failSyntax("unpaired high surrogate in \\u escape");
        m_pos += 2;
        if (!readHex4(low))
            return false;
        if (low < 0xDC00 || low > 0xDFFF)
            return failSyntax("unpaired high surrogate in \\u escape");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    appendCodePoint(out, cp);
    return true;
}

bool JsonCursor::readUtf8Sequence(std::string &out)
{
    const size_t length = utf8SequenceLength(m_data + m_pos, m_size - m_pos);
    if (length == 0)
        return failSyntax("invalid UTF-8 in string");
    out.append(reinterpret_cast<const char *>(m_data + m_pos), length);
    m_pos += length;
    return true;
}

bool JsonCursor::readString(std::string &out, size_t maxLength)
{
    out.clear();
    if (!expect('"', "a string"))
        return false;
    while (true) {
        if (m_pos >= m_size)
            return failSyntax("unterminated string");
        const uint8_t c = m_data[m_pos];
        if (c == '"') {
            ++m_pos;
            return true;
        }
        if (c < 0x20)
            return failSyntax("unescaped control character in string");
        if (c == '\\') {
            ++m_pos;
            if (!readEscape(out))
                return false;
        } else if (c >= 0x80) {
            if (!readUtf8Sequence(out))
                return false;
        } else {
            out.push_back(char(c));
            ++m_pos;
        }
        if (out.size() > maxLength)
            return fail("string longer than " + std::to_string(maxLength) + " bytes");
    }
}

bool JsonCursor::readInteger(uint64_t &magnitude, bool &negative)
{
    const uint8_t first = peek();
    if (failed())
        return false;
    if (first != '-' && !isDigit(first))
        return failType("expected an integer");
    const size_t start = m_pos;
    negative = first == '-';
    if (negative)
        ++m_pos;
    if (m_pos >= m_size || !isDigit(m_data[m_pos]))
        return failSyntax("invalid number");
    bool overflow = false;
    magnitude = 0;
    if (m_data[m_pos] == '0') {
        ++m_pos;
        if (m_pos < m_size && isDigit(m_data[m_pos]))
            return failSyntax("number with a leading zero");
    } else {
        while (m_pos < m_size && isDigit(m_data[m_pos])) {
            const uint64_t digit = m_data[m_pos++] - '0';
            if (magnitude > (std::numeric_limits<uint64_t>::max() - digit) / 10)
                overflow = true;
            else
                magnitude = magnitude * 10 + digit;
        }
    }
    bool fractional = false;
    if (m_pos < m_size && m_data[m_pos] == '.') {
        ++m_pos;
        if (m_pos >= m_size || !isDigit(m_data[m_pos]))
            return failSyntax("invalid number");
        while (m_pos < m_size && isDigit(m_data[m_pos]))
            ++m_pos;
        fractional = true;
    }
    if (m_pos < m_size && (m_data[m_pos] == 'e' || m_data[m_pos] == 'E')) {
        ++m_pos;
        if (m_pos < m_size && (m_data[m_pos] == '+' || m_data[m_pos] == '-'))
            ++m_pos;
        if (m_pos >= m_size || !isDigit(m_data[m_pos]))
            return failSyntax("invalid number");
        while (m_pos < m_size && isDigit(m_data[m_pos]))
            ++m_pos;
        fractional = true;
    }
    if (fractional) {
        m_pos = start;
        return fail("expected an integer, not a fraction or exponent");
    }
    if (overflow) {
        m_pos = start;
        return fail("integer does not fit in 64 bits");
    }
    return true;
}

void appendJsonString(std::string &out, std::string_view s)
{
    static const char hex[] = "0123456789abcdef";
    out.push_back('"');
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out.push_back(hex[c >> 4]);
                out.push_back(hex[c & 0xF]);
            } else {
                out.push_back(ch);
            }
        }
    }
    out.push_back('"');
}

bool isValidUtf8(std::string_view s)
{
    const auto *p = reinterpret_cast<const uint8_t *>(s.data());
    size_t i = 0;
    while (i < s.size()) {
        if (p[i] < 0x80) {
            ++i;
            continue;
        }
        const size_t length = utf8SequenceLength(p + i, s.size() - i);
        if (length == 0)
            return false;
        i += length;
    }
    return true;
}

} // namespace cohort::safetensors::detail

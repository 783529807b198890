#pragma once
// Internal: a strict RFC 8259 JSON lexer over a byte range, for the schema-directed safetensors header reader.
// The caller walks the structure it expects (it never needs more than three levels of nesting, so depth is bounded
// by construction) and the cursor reads the tokens. The first failure is kept with its byte offset; every later
// call then fails too, so callers may check once.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cohort::safetensors::detail {

class JsonCursor {
public:
    JsonCursor(const uint8_t *data, size_t size)
        : m_data(data),
          m_size(size)
    {}

    // Skips JSON whitespace (space, tab, LF, CR) and returns the next byte, or 0 at the end.
    uint8_t peek();
    bool atEnd() { return peek() == 0 && m_pos >= m_size; }
    // Skips whitespace; consumes `c` if it is next.
    bool consume(char c);
    // Like consume, but records "expected <what>" when `c` is not next.
    bool expect(char c, const char *what);

    // Reads a string (the next token must be one), unescaping into UTF-8. Raw bytes must be valid UTF-8 (no
    // overlong forms, no surrogates, nothing above U+10FFFF), control characters must be escaped, \u escapes must
    // pair surrogates. Fails when the decoded string exceeds maxLength bytes.
    bool readString(std::string &out, size_t maxLength);

    // Reads a number token that must be an integer literal ("-"? digits, no fraction or exponent) whose magnitude
    // fits in 64 bits. Well-formed JSON numbers with a fraction or exponent fail as "not an integer".
    bool readInteger(uint64_t &magnitude, bool &negative);

    // Records an error at the current offset (only the first one is kept) and returns false. failSyntax prefixes
    // "invalid JSON: "; plain fail is for well-formed JSON that breaks the schema.
    bool fail(const std::string &message);
    bool failSyntax(const std::string &message);
    // For a value of the wrong type: "invalid JSON: unexpected end" if nothing is left, else fail(message).
    bool failType(const std::string &message);
    bool failed() const { return !m_error.empty(); }
    const std::string &error() const { return m_error; }
    size_t errorOffset() const { return m_errorOffset; }
    size_t offset() const { return m_pos; }

private:
    bool readEscape(std::string &out);
    bool readHex4(uint32_t &value);
    bool readUtf8Sequence(std::string &out);

    const uint8_t *m_data;
    size_t m_size;
    size_t m_pos = 0;
    std::string m_error;
    size_t m_errorOffset = 0;
};

// Appends `s` as a JSON string literal (quotes included): escapes '"', '\\' and control characters, keeps other
// bytes as they are (the writer has checked they are UTF-8).
void appendJsonString(std::string &out, std::string_view s);
// True if `s` is well-formed UTF-8 by the same rules readString applies to raw bytes.
bool isValidUtf8(std::string_view s);

} // namespace cohort::safetensors::detail

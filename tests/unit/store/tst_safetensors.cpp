// engine/store/safetensors: round trips, deterministic bytes, the atomic writer, and every malformed header the
// strict reader must refuse (the bytes are crafted by hand, since checkpoint files arrive from the network).
#include "store/safetensors/Safetensors.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstring>
#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace cohort::safetensors;

namespace {

std::vector<uint8_t> vec(const QByteArray &b)
{
    return {b.begin(), b.end()};
}
QByteArray qba(const std::vector<uint8_t> &v)
{
    return QByteArray(reinterpret_cast<const char *>(v.data()), qsizetype(v.size()));
}
std::string str(const QString &s)
{
    return s.toStdString();
}

// 8-byte little-endian length, then `rest` (which need not be that long).
QByteArray withLength(quint64 n, const QByteArray &rest)
{
    QByteArray out(8, '\0');
    for (int i = 0; i < 8; ++i)
        out[i] = char((n >> (8 * i)) & 0xFF);
    return out + rest;
}
// A file whose header is `json` followed by dataSize zero bytes.
QByteArray fileOf(const QByteArray &json, qsizetype dataSize = 0)
{
    return withLength(quint64(json.size()), json) + QByteArray(dataSize, '\0');
}
QByteArray entry(const char *name, const char *dtype, const char *shape, const char *offsets)
{
    return QByteArray("\"") + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape +
           ",\"data_offsets\":" + offsets + "}";
}
const QByteArray kGood = entry("a", "U8", "[4]", "[0,4]"); // fits 4 data bytes

cohort::Result<Header> parse(const QByteArray &file)
{
    return parseHeader(reinterpret_cast<const uint8_t *>(file.constData()), size_t(file.size()), uint64_t(file.size()));
}

std::vector<uint8_t> pattern(size_t n, uint8_t seed)
{
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = uint8_t(seed * 31 + i * 7);
    return v;
}

std::vector<TensorData> sampleTensors()
{
    return {
        {"layer.0.weight", DType::F32, {2, 3}, pattern(24, 1)},
        {"f64", DType::F64, {3}, pattern(24, 2)},
        {"f16", DType::F16, {5}, pattern(10, 3)},
        {"bf16", DType::BF16, {2, 2}, {0x80, 0x3F, 0x00, 0x40, 0x80, 0xBF, 0x00, 0x00}}, // 1, 2, -1, 0
        {"i64", DType::I64, {2}, pattern(16, 4)},
        {"i32", DType::I32, {1, 1, 1}, pattern(4, 5)},
        {"i16", DType::I16, {3}, pattern(6, 6)},
        {"i8", DType::I8, {7}, pattern(7, 7)},
        {"u8", DType::U8, {5}, pattern(5, 8)},
        {"mask", DType::BOOL, {3}, {0, 1, 1}},
        {"step", DType::I64, {}, pattern(8, 9)}, // 0-d scalar
        {"empty", DType::F32, {3, 0}, {}},       // a zero dimension
        {"e4m3", DType::F8_E4M3, {2}, pattern(2, 10)},
    };
}

QStringList entriesOf(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeRaw(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

} // namespace

class TestSafetensors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dtypes()
    {
        const std::pair<DType, size_t> expected[] = {
            {DType::BOOL, 1}, {DType::U8, 1},  {DType::I8, 1},  {DType::F8_E5M2, 1}, {DType::F8_E4M3, 1},
            {DType::I16, 2},  {DType::U16, 2}, {DType::F16, 2}, {DType::BF16, 2},    {DType::I32, 4},
            {DType::U32, 4},  {DType::F32, 4}, {DType::F64, 8}, {DType::I64, 8},     {DType::U64, 8}};
        for (const auto &[dtype, size] : expected) {
            QCOMPARE(dtypeSize(dtype), size);
            QCOMPARE(parseDType(dtypeName(dtype)), std::optional<DType>(dtype));
        }
        QCOMPARE(dtypeName(DType::BF16), std::string_view("BF16"));
        QVERIFY(!parseDType("f32"));
        QVERIFY(!parseDType(""));
        QVERIFY(!parseDType("F32 "));
    }

    // The exact bytes of a tiny file, written by hand from the format description (irregular whitespace,
    // escapes, offsets not in name order).
    void knownGoodVector()
    {
        const QByteArray json =
            "{ \"__metadata__\" : {\"format\":\"pt\"},\n"
            "\t\"w\\u00e9\\ud83d\\ude00\":{\"shape\":[2],\"dtype\":\"I16\",\"data_offsets\":[0,4]},\r\n"
            "\"a\\/b\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[4,8]} }   ";
        const QByteArray data("\x01\x00\xFE\xFF\x00\x00\xC0\x3F", 8); // I16 {1, -2}; F32 1.5
        QByteArray file = withLength(quint64(json.size()), json) + data;
        QCOMPARE(file.size(), qsizetype(8 + json.size() + 8));
        auto header = parse(file);
        QVERIFY2(header.ok(), header.error.c_str());
        QCOMPARE(header->headerSize, uint64_t(json.size()));
        QCOMPARE(header->dataOffset, uint64_t(8 + json.size()));
        QCOMPARE(header->dataSize, uint64_t(8));
        QCOMPARE(header->metadata, (Metadata{{"format", "pt"}}));
        QCOMPARE(header->tensors.size(), size_t(2));
        const TensorInfo &w = header->tensors[0];
        QCOMPARE(w.name, std::string("w\xC3\xA9\xF0\x9F\x98\x80"));
        QCOMPARE(w.dtype, DType::I16);
        QCOMPARE(w.shape, std::vector<int64_t>{2});
        QCOMPARE(w.begin, uint64_t(0));
        QCOMPARE(w.end, uint64_t(4));
        const TensorInfo *ab = header->find("a/b");
        QVERIFY(ab);
        QCOMPARE(ab->dtype, DType::F32);
        QVERIFY(ab->shape.empty());
        QCOMPARE(ab->elementCount(), uint64_t(1));
        File whole{*header, vec(file)};
        const auto bytes = whole.tensorData(*ab);
        float value = 0;
        QCOMPARE(bytes.size(), sizeof value);
        std::memcpy(&value, bytes.data(), sizeof value);
        QCOMPARE(value, 1.5f);
    }

    // The writer's exact output for one tensor, spelled out byte by byte.
    void writerGoldenBytes()
    {
        auto bytes = serialize(std::vector<TensorData>{{"x", DType::U8, {2}, {1, 2}}});
        QVERIFY2(bytes.ok(), bytes.error.c_str());
        const QByteArray expected = QByteArray("\x38\0\0\0\0\0\0\0", 8) +
                                    "{\"x\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]}}   " + "\x01\x02";
        QCOMPARE(qba(*bytes), expected);

        auto empty = serialize(std::vector<TensorData>{});
        QVERIFY(empty.ok());
        QCOMPARE(qba(*empty), QByteArray("\x08\0\0\0\0\0\0\0{}      ", 16));
        QVERIFY(parse(qba(*empty)).ok());
    }

    void roundTrip()
    {
        const auto tensors = sampleTensors();
        auto bytes = serialize(tensors);
        QVERIFY2(bytes.ok(), bytes.error.c_str());
        auto header = parse(qba(*bytes));
        QVERIFY2(header.ok(), header.error.c_str());
        QCOMPARE(header->tensors.size(), tensors.size());
        QCOMPARE(header->dataOffset % 8, uint64_t(0));
        const QByteArray headerText = qba(*bytes).mid(8, qsizetype(header->headerSize));
        const qsizetype close = headerText.lastIndexOf('}'); // then fewer than 8 spaces of padding
        QVERIFY(close > 0 && headerText.size() - close - 1 < 8);
        QCOMPARE(headerText.mid(close + 1), QByteArray(headerText.size() - close - 1, ' '));
        File whole{*header, *bytes};
        for (const TensorData &t : tensors) {
            const TensorInfo *info = header->find(t.name);
            QVERIFY2(info, t.name.c_str());
            QCOMPARE(info->dtype, t.dtype);
            QCOMPARE(info->shape, t.shape);
            QCOMPARE(info->begin % dtypeSize(t.dtype), uint64_t(0)); // natural alignment
            const auto data = whole.tensorData(*info);
            QCOMPARE(std::vector<uint8_t>(data.begin(), data.end()), t.bytes);
        }
        QCOMPARE(header->find("empty")->byteSize(), uint64_t(0));
        QCOMPARE(header->find("step")->byteSize(), uint64_t(8));

        QTemporaryDir dir;
        const std::string path = str(dir.filePath(QStringLiteral("model.safetensors")));
        QCOMPARE(writeFile(path, tensors), std::string());
        auto file = readFile(path);
        QVERIFY2(file.ok(), file.error.c_str());
        QCOMPARE(file->bytes, *bytes);
        auto onlyHeader = readHeaderFromFile(path);
        QVERIFY2(onlyHeader.ok(), onlyHeader.error.c_str());
        QCOMPARE(onlyHeader->tensors, header->tensors);
        for (const TensorData &t : tensors) {
            auto one = tensorBytes(path, *onlyHeader, t.name);
            QVERIFY2(one.ok(), one.error.c_str());
            QCOMPARE(*one, t.bytes);
        }
        QVERIFY(!tensorBytes(path, *onlyHeader, "missing").ok());
    }

    void metadataRoundTrip()
    {
        const Metadata metadata{
            {"cohort.config", "{\"hidden\": 64, \"name\": \"tiny \\\"model\\\"\\n\", \"path\": \"C:\\\\x\"}"},
            {"unicode", "h\xC3\xA9llo \xF0\x9F\x98\x80"},
            {"control", std::string("\x01\x1f\t\0z", 5)},
            {"", "empty key"},
            {"empty", ""}};
        auto bytes = serialize(std::vector<TensorData>{{"t", DType::U8, {1}, {7}}}, metadata);
        QVERIFY2(bytes.ok(), bytes.error.c_str());
        auto header = parse(qba(*bytes));
        QVERIFY2(header.ok(), header.error.c_str());
        QCOMPARE(header->metadata, metadata);
        auto metaOnly = serialize(std::vector<TensorData>{}, {{"k", "v"}});
        QVERIFY(metaOnly.ok());
        QCOMPARE(parse(qba(*metaOnly))->metadata, (Metadata{{"k", "v"}}));
    }

    void deterministicBytes()
    {
        auto tensors = sampleTensors();
        const Metadata metadata{{"b", "2"}, {"a", "1"}};
        auto first = serialize(tensors, metadata);
        std::reverse(tensors.begin(), tensors.end());
        auto second = serialize(tensors, metadata);
        QVERIFY(first.ok() && second.ok());
        QCOMPARE(*first, *second);
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.safetensors")),
                      b = dir.filePath(QStringLiteral("b.safetensors"));
        QCOMPARE(writeFile(str(a), tensors, metadata), std::string());
        QCOMPARE(writeFile(str(b), sampleTensors(), metadata), std::string());
        QCOMPARE(readAll(a), qba(*first));
        QCOMPARE(readAll(b), qba(*first));
        // Re-serializing what was parsed gives the same bytes.
        auto file = readFile(str(a));
        QVERIFY(file.ok());
        std::vector<TensorView> views;
        for (const TensorInfo &t : file->header.tensors)
            views.push_back({t.name, t.dtype, t.shape, file->tensorData(t)});
        auto again = serialize(views, file->header.metadata);
        QVERIFY(again.ok());
        QCOMPARE(*again, *first);
    }

    void writerRefusesBadInput_data()
    {
        QTest::addColumn<int>("which");
        const char *names[] = {"duplicate name", "empty name",         "__metadata__ name",      "byte count",
                               "negative dim",   "invalid UTF-8 name", "invalid UTF-8 metadata", "invalid dtype value"};
        for (int i = 0; i < 8; ++i)
            QTest::newRow(names[i]) << i;
    }
    void writerRefusesBadInput()
    {
        QFETCH(int, which);
        std::vector<TensorData> t{{"a", DType::U8, {1}, {1}}};
        Metadata metadata;
        switch (which) {
        case 0: t.push_back(t[0]); break;
        case 1: t[0].name.clear(); break;
        case 2: t[0].name = "__metadata__"; break;
        case 3: t[0].bytes.push_back(2); break;
        case 4: t[0].shape = {-1}; break;
        case 5: t[0].name = "\xC0\xAF"; break;
        case 6: metadata["k"] = "\xFF"; break;
        case 7: t[0].dtype = DType(200); break;
        }
        auto bytes = serialize(t, metadata);
        QVERIFY(!bytes.ok());
        QVERIFY(!bytes.error.empty());
        QTemporaryDir dir;
        QVERIFY(!writeFile(str(dir.filePath(QStringLiteral("x"))), t, metadata).empty());
        QVERIFY(entriesOf(dir.path()).isEmpty());
    }

    void atomicWrite()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("ckpt.safetensors"));
        const std::vector<TensorData> v1{{"w", DType::F32, {2}, pattern(8, 1)}};
        const std::vector<TensorData> v2{{"w", DType::F32, {3}, pattern(12, 2)}};
        QCOMPARE(writeFile(str(target), v1), std::string());
        const QByteArray old = readAll(target);
        QCOMPARE(entriesOf(dir.path()), QStringList{QStringLiteral("ckpt.safetensors")});
        QCOMPARE(writeFile(str(target), v2), std::string()); // replaces
        QCOMPARE(readAll(target), qba(*serialize(v2)));
        QVERIFY(writeRaw(target, old));

        // Bad input after an existing file: refused, old file intact, nothing else left.
        std::vector<TensorData> bad = v2;
        bad[0].bytes.pop_back();
        QVERIFY(!writeFile(str(target), bad).empty());
        QCOMPARE(readAll(target), old);

        // The target is a directory: the rename fails, the temporary file is removed, the directory survives.
        const QString asDir = dir.filePath(QStringLiteral("taken"));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("taken/inner")));
        const std::string error = writeFile(str(asDir), v1);
        QVERIFY(!error.empty());
        QVERIFY2(error.find("taken") != std::string::npos, error.c_str());
        QVERIFY(QFileInfo(asDir + QStringLiteral("/inner")).isDir());

        // The parent directory does not exist.
        QVERIFY(!writeFile(str(dir.filePath(QStringLiteral("no/such/dir/x.safetensors"))), v1).empty());
        QCOMPARE(entriesOf(dir.path()), (QStringList{QStringLiteral("ckpt.safetensors"), QStringLiteral("taken")}));
    }

    void atomicWriteReadOnlyDirectory()
    {
        QTemporaryDir dir;
        const QString sub = dir.filePath(QStringLiteral("ro"));
        QVERIFY(QDir().mkpath(sub));
        const QString target = sub + QStringLiteral("/ckpt.safetensors");
        QCOMPARE(writeFile(str(target), std::vector<TensorData>{{"w", DType::U8, {1}, {1}}}), std::string());
        const QByteArray old = readAll(target);
        // Root ignores directory permissions, so as root the write is tried by a child that gave up its privileges
        // (the user "nobody"); the folders are opened to it for reading and traversal only.
        const bool asRoot = ::geteuid() == 0;
        QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                      QFile::ReadOther | QFile::ExeOther));
        QVERIFY(QFile::setPermissions(sub, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther));
        std::string error;
        if (asRoot) {
            const pid_t child = ::fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                const bool dropped = ::setgroups(0, nullptr) == 0 && ::setgid(65534) == 0 && ::setuid(65534) == 0;
                if (!dropped || ::geteuid() == 0)
                    ::_exit(3);
                const std::string e = writeFile(str(target), std::vector<TensorData>{{"w", DType::U8, {2}, {1, 2}}});
                ::_exit(e.empty() ? 1 : 0);
            }
            int status = 0;
            QCOMPARE(::waitpid(child, &status, 0), child);
            QVERIFY(WIFEXITED(status));
            QVERIFY2(WEXITSTATUS(status) != 3, "the child could not drop root's privileges");
            QVERIFY2(WEXITSTATUS(status) == 0, "a write into a read-only folder succeeded");
        } else {
            error = writeFile(str(target), std::vector<TensorData>{{"w", DType::U8, {2}, {1, 2}}});
        }
        QFile::setPermissions(sub, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (!asRoot)
            QVERIFY(!error.empty());
        QCOMPARE(readAll(target), old);
        QCOMPARE(entriesOf(sub), QStringList{QStringLiteral("ckpt.safetensors")});
    }

    // A downloader validates from the first bytes, before the data has arrived.
    void headerFromPrefix()
    {
        auto bytes = serialize(sampleTensors());
        QVERIFY(bytes.ok());
        const uint64_t fileSize = bytes->size();
        auto n = peekHeaderSize(bytes->data(), 8);
        QVERIFY(n.ok());
        auto tooShort = parseHeader(bytes->data(), 8, fileSize);
        QVERIFY(!tooShort.ok());
        QVERIFY2(tooShort.error.find("header needs") != std::string::npos, tooShort.error.c_str());
        auto header = parseHeader(bytes->data(), size_t(8 + *n), fileSize);
        QVERIFY2(header.ok(), header.error.c_str());
        QCOMPARE(header->fileSize(), fileSize);
        QVERIFY(!parseHeader(bytes->data(), size_t(8 + *n), fileSize - 1).ok()); // one byte short of the data
        QVERIFY(!peekHeaderSize(bytes->data(), 7).ok());
    }

    void truncatedFile_data()
    {
        QTest::addColumn<int>("cut"); // bytes removed from the end; negative: bytes appended
        for (int cut : {1, 8, 200, 300, -1, -8})
            QTest::newRow(qPrintable(QString::number(cut))) << cut;
    }
    void truncatedFile()
    {
        QFETCH(int, cut);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.safetensors"));
        QCOMPARE(writeFile(str(path), sampleTensors()), std::string());
        auto header = readHeaderFromFile(str(path));
        QVERIFY(header.ok());
        QByteArray bytes = readAll(path);
        QVERIFY(bytes.size() > 300);
        bytes = cut > 0 ? bytes.left(bytes.size() - cut) : bytes + QByteArray(-cut, '\0');
        QVERIFY(writeRaw(path, bytes));
        auto again = readHeaderFromFile(str(path));
        QVERIFY(!again.ok());
        QVERIFY(!again.error.empty());
        QVERIFY(!readFile(str(path)).ok());
        auto stale = tensorBytes(str(path), *header, "f64");
        QVERIFY(!stale.ok());
        QVERIFY2(stale.error.find("changed or truncated") != std::string::npos, stale.error.c_str());
        QVERIFY(!readFile(str(dir.filePath(QStringLiteral("absent")))).ok());
        QVERIFY(!readHeaderFromFile(str(dir.path())).ok());
    }

    void malformedHeader_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("expected");
        const auto row = [](const char *name, const QByteArray &file, const char *expected) {
            QTest::newRow(name) << file << QString::fromUtf8(expected);
        };
        const auto obj = [](const QByteArray &body) -> QByteArray { return "{" + body + "}"; };
        row("empty file", QByteArray(), "8-byte header length");
        row("short length field", QByteArray("\x02\0\0", 3), "8-byte header length");
        row("length 0", withLength(0, ""), "too small");
        row("length 1", withLength(1, "{"), "too small");
        row("length over 100 MiB", withLength(100ull * 1024 * 1024 + 1, "{}"), "exceeds the limit");
        row("length huge", withLength(~0ull, "{}"), "exceeds the limit");
        row("length beyond file", withLength(1000, "{}"), "exceeds the file");
        row("only whitespace", fileOf("  "), "unexpected end");
        row("open brace only", fileOf("{ "), "unexpected end");
        row("top-level array", fileOf("[]"), "must be a JSON object");
        row("top-level string", fileOf("\"ab\""), "must be a JSON object");
        row("top-level number", fileOf("12"), "must be a JSON object");
        row("byte order mark", fileOf("\xEF\xBB\xBF{}"), "must be a JSON object");
        row("truncated entry", fileOf("{\"a\":"), "unexpected end");
        row("unterminated string", fileOf("{\"ab"), "unterminated string");
        row("missing colon", fileOf("{\"a\" {}}"), "expected ':'");
        row("single quotes", fileOf("{'a':1}"), "expected a string");
        row("non-string key", fileOf(obj("\"a\":{1:2}")), "expected a string");
        row("trailing comma", fileOf("{\"__metadata__\":{},}"), "expected a string");
        row("missing comma", fileOf(obj(kGood + " " + entry("b", "U8", "[0]", "[4,4]")), 4), "expected ',' or '}'");
        row("trailing garbage", fileOf("{} x"), "unexpected bytes after");
        row("two objects", fileOf("{}{}"), "unexpected bytes after");
        row("NUL padding", fileOf(QByteArray("{}\0\0", 4)), "unexpected bytes after");
        row("invalid escape", fileOf("{\"a\\x\":1}"), "invalid escape");
        row("control character", fileOf("{\"a\tb\":1}"), "unescaped control character");
        row("invalid UTF-8 byte", fileOf("{\"\xFF\":1}"), "invalid UTF-8");
        row("overlong UTF-8", fileOf("{\"\xC0\xAF\":1}"), "invalid UTF-8");
        row("UTF-8 surrogate", fileOf("{\"\xED\xA0\x80\":1}"), "invalid UTF-8");
        row("truncated UTF-8", fileOf("{\"\xE2\x82\":1}"), "invalid UTF-8");
        row("above U+10FFFF", fileOf("{\"\xF4\x90\x80\x80\":1}"), "invalid UTF-8");
        row("lone high surrogate", fileOf("{\"\\ud800x\":1}"), "unpaired high surrogate");
        row("lone low surrogate", fileOf("{\"\\udc00\":1}"), "unpaired low surrogate");
        row("bad hex escape", fileOf("{\"\\u12g4\":1}"), "invalid hex digit");
        row("name too long", fileOf("{\"" + QByteArray(int(kMaxNameLength) + 1, 'n') + "\":1}"), "string longer than");
        row("duplicate tensor", fileOf(obj(kGood + "," + kGood), 4), "duplicate tensor name \"a\"");
        row("duplicate __metadata__", fileOf(obj("\"__metadata__\":{},\"__metadata__\":{}")),
            "duplicate key \"__metadata__\"");
        row("duplicate field",
            fileOf("{\"a\":{\"dtype\":\"U8\",\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[0,1]}}", 1),
            "duplicate key \"dtype\"");
        row("duplicate metadata key", fileOf("{\"__metadata__\":{\"k\":\"1\",\"k\":\"2\"}}"),
            "duplicate \"__metadata__\" key \"k\"");
        row("empty tensor name", fileOf(obj(entry("", "U8", "[1]", "[0,1]")), 1), "empty tensor name");
        row("entry not an object", fileOf("{\"a\":[]}"), "entry must be an object");
        row("missing dtype", fileOf("{\"a\":{\"shape\":[1],\"data_offsets\":[0,1]}}", 1), "missing \"dtype\"");
        row("missing shape", fileOf("{\"a\":{\"dtype\":\"U8\",\"data_offsets\":[0,1]}}", 1), "missing \"shape\"");
        row("missing data_offsets", fileOf("{\"a\":{\"dtype\":\"U8\",\"shape\":[1]}}", 1), "missing \"data_offsets\"");
        row("extra key", fileOf("{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":0}}", 1),
            "unexpected key \"x\"");
        row("dtype not a string", fileOf("{\"a\":{\"dtype\":4,\"shape\":[1],\"data_offsets\":[0,1]}}", 1),
            "\"dtype\" must be a string");
        row("unknown dtype", fileOf(obj(entry("a", "F128", "[1]", "[0,1]")), 1), "unknown dtype \"F128\"");
        row("lowercase dtype", fileOf(obj(entry("a", "f32", "[1]", "[0,4]")), 4), "unknown dtype");
        row("shape not an array", fileOf(obj(entry("a", "U8", "4", "[0,4]")), 4), "\"shape\" must be an array");
        row("shape of strings", fileOf(obj(entry("a", "U8", "[\"4\"]", "[0,4]")), 4), "expected an integer");
        row("negative dimension", fileOf(obj(entry("a", "U8", "[-4]", "[0,4]")), 4), "negative dimension");
        row("fractional dimension", fileOf(obj(entry("a", "U8", "[1.5]", "[0,4]")), 4), "expected an integer");
        row("exponent dimension", fileOf(obj(entry("a", "U8", "[4e0]", "[0,4]")), 4), "expected an integer");
        row("leading zero", fileOf(obj(entry("a", "U8", "[04]", "[0,4]")), 4), "leading zero");
        row("dimension over int64", fileOf(obj(entry("a", "U8", "[9223372036854775808]", "[0,4]")), 4),
            "does not fit in int64");
        row("dimension over uint64", fileOf(obj(entry("a", "U8", "[18446744073709551616]", "[0,4]")), 4),
            "does not fit in 64 bits");
        row("element count overflow", fileOf(obj(entry("a", "U8", "[4294967296,4294967296,16]", "[0,0]"))),
            "overflows 64 bits");
        row("byte size overflow", fileOf(obj(entry("a", "F64", "[2305843009213693952]", "[0,0]"))),
            "overflows 64 bits");
        row("offsets not an array", fileOf(obj(entry("a", "U8", "[4]", "4")), 4), "\"data_offsets\" must be an array");
        row("one offset", fileOf(obj(entry("a", "U8", "[4]", "[4]")), 4), "exactly two entries");
        row("three offsets", fileOf(obj(entry("a", "U8", "[4]", "[0,4,4]")), 4), "exactly two entries");
        row("no offsets", fileOf(obj(entry("a", "U8", "[0]", "[]"))), "exactly two entries");
        row("negative offset", fileOf(obj(entry("a", "U8", "[4]", "[-1,3]")), 4), "negative offset");
        row("begin after end", fileOf(obj(entry("a", "U8", "[4]", "[8,4]")), 8), "begin 8 > end 4");
        row("size mismatch", fileOf(obj(entry("a", "F32", "[2]", "[0,4]")), 4), "need 8");
        row("beyond the buffer", fileOf(obj(entry("a", "F32", "[2]", "[0,8]")), 4), "beyond the data buffer");
        row("offset near 2^64", fileOf(obj(entry("a", "U8", "[1]", "[18446744073709551614,18446744073709551615]")), 1),
            "beyond the data buffer");
        row("overlap", fileOf(obj(entry("a", "F32", "[2]", "[0,8]") + "," + entry("b", "F32", "[2]", "[4,12]")), 12),
            "overlaps");
        row("empty tensor inside another",
            fileOf(obj(entry("a", "F32", "[2]", "[0,8]") + "," + entry("z", "F32", "[0]", "[4,4]")), 8), "overlaps");
        row("gap", fileOf(obj(entry("a", "U8", "[4]", "[0,4]") + "," + entry("b", "U8", "[4]", "[8,12]")), 12),
            "gap of 4");
        row("gap at start", fileOf(obj(entry("a", "U8", "[4]", "[4,8]")), 8), "gap of 4");
        row("trailing data", fileOf(obj(kGood), 6), "2 trailing bytes");
        row("data without tensors", fileOf("{}", 3), "3 trailing bytes");
        row("truncated data", fileOf(obj(kGood), 2), "beyond the data buffer");
        row("metadata array", fileOf("{\"__metadata__\":[]}"), "must be an object of strings");
        row("metadata string", fileOf("{\"__metadata__\":\"x\"}"), "must be an object of strings");
        row("metadata null", fileOf("{\"__metadata__\":null}"), "must be an object of strings");
        row("metadata number value", fileOf("{\"__metadata__\":{\"k\":1}}"), "value for \"k\" must be a string");
        row("metadata nested value", fileOf("{\"__metadata__\":{\"k\":" + QByteArray(5000, '[') + "}}"),
            "must be a string");
    }
    void malformedHeader()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, expected);
        auto header = parse(file);
        QVERIFY(!header.ok());
        QVERIFY2(header.error.find(str(expected)) != std::string::npos, header.error.c_str());
        // The same bytes on disk are refused by the file readers with the same reason.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.safetensors"));
        QVERIFY(writeRaw(path, file));
        auto fromDisk = readHeaderFromFile(str(path));
        QVERIFY(!fromDisk.ok());
        QVERIFY2(fromDisk.error.find(str(expected)) != std::string::npos, fromDisk.error.c_str());
        QVERIFY(!readFile(str(path)).ok());
    }
};

QTEST_GUILESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"

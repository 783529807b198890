#pragma once
// SHA-256 through OpenSSL EVP: ~10x faster than QCryptographicHash on these machines (see ARCHITECTURE.md).
#include <QByteArray>
#include <memory>

namespace cohort {

class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void addData(const char *data, qsizetype size);
    void addData(const QByteArray &data) { addData(data.constData(), data.size()); }
    QByteArray result(); // 32 raw bytes; the object is reset afterwards

    static QByteArray hash(const QByteArray &data);
    static QByteArray hashHex(const QByteArray &data) { return hash(data).toHex(); }

private:
    struct Ctx;
    std::unique_ptr<Ctx> m_ctx;
};

} // namespace cohort

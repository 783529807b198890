#include "core/Sha256.h"

#include <openssl/evp.h>

namespace cohort {

struct Sha256::Ctx {
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    ~Ctx() { EVP_MD_CTX_free(md); }
};

Sha256::Sha256()
    : m_ctx(std::make_unique<Ctx>())
{
    EVP_DigestInit_ex(m_ctx->md, EVP_sha256(), nullptr);
}

Sha256::~Sha256() = default;

void Sha256::addData(const char *data, qsizetype size)
{
    EVP_DigestUpdate(m_ctx->md, data, static_cast<size_t>(size));
}

QByteArray Sha256::result()
{
    QByteArray out(32, Qt::Uninitialized);
    unsigned int len = 0;
    EVP_DigestFinal_ex(m_ctx->md, reinterpret_cast<unsigned char *>(out.data()), &len);
    EVP_DigestInit_ex(m_ctx->md, EVP_sha256(), nullptr);
    return out;
}

QByteArray Sha256::hash(const QByteArray &data)
{
    Sha256 h;
    h.addData(data);
    return h.result();
}

} // namespace cohort

#include "TestCertificates.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdio>

namespace cohort::test {

namespace {
EVP_PKEY *newKey()
{
    return EVP_EC_gen("P-256");
}

bool writePem(const QString &path, EVP_PKEY *key, X509 *cert)
{
    FILE *f = std::fopen(QFile::encodeName(path).constData(), "wb");
    if (!f)
        return false;
    const bool ok =
        key ? PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr) == 1 : PEM_write_X509(f, cert) == 1;
    std::fclose(f);
    return ok;
}

void addExtension(X509 *cert, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    if (X509_EXTENSION *ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value)) {
        X509_add_ext(cert, ext, -1);
        X509_EXTENSION_free(ext);
    }
}

X509 *newCertificate(EVP_PKEY *key, const char *commonName, long serial, long notBeforeS, long notAfterS)
{
    X509 *cert = X509_new();
    X509_set_version(cert, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), serial);
    X509_gmtime_adj(X509_getm_notBefore(cert), notBeforeS);
    X509_gmtime_adj(X509_getm_notAfter(cert), notAfterS);
    X509_set_pubkey(cert, key);
    X509_NAME *name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char *>(commonName), -1, -1,
                               0);
    return cert;
}
} // namespace

TestCertificates::TestCertificates(QString directory)
    : m_dir(std::move(directory))
{
    QDir().mkpath(m_dir);
    EVP_PKEY *key = newKey();
    X509 *ca = newCertificate(key, "Cohort test CA", 1, -3600, 30L * 24 * 3600);
    X509_set_issuer_name(ca, X509_get_subject_name(ca));
    addExtension(ca, ca, NID_basic_constraints, "critical,CA:TRUE");
    addExtension(ca, ca, NID_key_usage, "critical,keyCertSign,cRLSign");
    addExtension(ca, ca, NID_subject_key_identifier, "hash");
    m_ok = X509_sign(ca, key, EVP_sha256()) > 0 && writePem(caFile(), nullptr, ca) &&
           writePem(QDir(m_dir).filePath(QStringLiteral("ca.key")), key, nullptr);
    m_caKey = key;
    m_caCert = ca;
}

TestCertificates::~TestCertificates()
{
    X509_free(static_cast<X509 *>(m_caCert));
    EVP_PKEY_free(static_cast<EVP_PKEY *>(m_caKey));
}

QString TestCertificates::caFile() const
{
    return QDir(m_dir).filePath(QStringLiteral("ca.pem"));
}

PemPair TestCertificates::leaf(const QString &baseName, const QStringList &names, int validDays, long serial)
{
    auto *ca = static_cast<X509 *>(m_caCert);
    EVP_PKEY *key = newKey();
    const long day = 24L * 3600;
    // Expired: valid from (validDays - 2) days until validDays days from now, both in the past.
    const long notBefore = validDays > 0 ? -3600 : (validDays - 2) * day;
    const long notAfter = validDays * day;
    X509 *cert = newCertificate(key, qPrintable(names.value(0)), serial, notBefore, notAfter);
    X509_set_issuer_name(cert, X509_get_subject_name(ca));
    QStringList san;
    for (const QString &n : names)
        san << (QHostAddress(n).isNull() ? QStringLiteral("DNS:") : QStringLiteral("IP:")) + n;
    addExtension(cert, ca, NID_subject_alt_name, qPrintable(san.join(QLatin1Char(','))));
    addExtension(cert, ca, NID_basic_constraints, "critical,CA:FALSE");
    addExtension(cert, ca, NID_ext_key_usage, "serverAuth");
    PemPair out{QDir(m_dir).filePath(baseName + QStringLiteral(".pem")),
                QDir(m_dir).filePath(baseName + QStringLiteral(".key"))};
    const bool ok = X509_sign(cert, static_cast<EVP_PKEY *>(m_caKey), EVP_sha256()) > 0 &&
                    writePem(out.certificateFile, nullptr, cert) && writePem(out.keyFile, key, nullptr);
    X509_free(cert);
    EVP_PKEY_free(key);
    if (!ok)
        return {};
    return out;
}

} // namespace cohort::test

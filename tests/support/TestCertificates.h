#pragma once
// Certificates made on the spot for TLS tests (OpenSSL's C API, no files fetched): a test CA, and leaf certificates
// it signs for given names, valid now, expired, or for another host. PEM files in a folder of the test's.
#include <QString>
#include <QStringList>

namespace cohort::test {

struct PemPair {
    QString certificateFile;
    QString keyFile;
};

class TestCertificates {
public:
    explicit TestCertificates(QString directory); // makes the CA (ca.pem, ca.key)
    ~TestCertificates();
    bool ok() const { return m_ok; }
    QString caFile() const;
    // A leaf signed by the CA, for `names` ("127.0.0.1" as an IP SAN, others as DNS), valid from now-1h for
    // validDays (negative: it expired that many days ago). serial: to tell a renewed certificate apart.
    PemPair leaf(const QString &baseName, const QStringList &names, int validDays, long serial);

private:
    QString m_dir;
    void *m_caKey = nullptr;  // EVP_PKEY
    void *m_caCert = nullptr; // X509
    bool m_ok = false;
};

} // namespace cohort::test

#include "net/Tls.h"

#include "core/Logging.h"

#include <QFile>
#include <QFileInfo>
#include <QSslKey>
#include <QSslSocket>

namespace cohort {

namespace {
Expected<QSslKey> loadKey(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read the TLS key %1: %2").arg(path, file.errorString()));
    const QByteArray pem = file.read(1 << 20);
    for (QSsl::KeyAlgorithm algorithm : {QSsl::Ec, QSsl::Rsa, QSsl::Dsa}) {
        QSslKey key(pem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            return key;
    }
    return fail(QStringLiteral("%1 holds no PEM private key (RSA or EC, unencrypted)").arg(path));
}
} // namespace

QTcpSocket *newServerSocket(qintptr descriptor, const ServerTls *tls, QObject *parent)
{
    QTcpSocket *socket = tls ? new QSslSocket(parent) : new QTcpSocket(parent);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return nullptr;
    }
    return socket;
}

void startServerHandshake(QTcpSocket *socket, const ServerTls *tls)
{
    if (!tls)
        return;
    auto *ssl = static_cast<QSslSocket *>(socket);
    ssl->setSslConfiguration(tls->configuration());
    QObject::connect(ssl, &QSslSocket::sslErrors, ssl, [ssl](const QList<QSslError> &errors) {
        qCInfo(lcNet) << "TLS handshake with" << ssl->peerAddress().toString() << "failed:" << tlsProblemText(errors);
    });
    ssl->startServerEncryption();
}

Expected<QList<QSslCertificate>> loadCertificates(const QString &pemFile)
{
    QFile file(pemFile);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read the certificate %1: %2").arg(pemFile, file.errorString()));
    const QList<QSslCertificate> certificates = QSslCertificate::fromData(file.read(4 << 20), QSsl::Pem);
    if (certificates.isEmpty())
        return fail(QStringLiteral("%1 holds no PEM certificate").arg(pemFile));
    return certificates;
}

ServerTls::ServerTls(QString certificateFile, QString keyFile, QObject *parent)
    : QObject(parent),
      m_certificateFile(std::move(certificateFile)),
      m_keyFile(std::move(keyFile))
{}

Expected<ServerTls *> ServerTls::create(const QString &certificateFile, const QString &keyFile, int checkEverySeconds,
                                        QObject *parent)
{
    auto *tls = new ServerTls(certificateFile, keyFile, parent);
    if (Status loaded = tls->load(); !loaded) {
        delete tls;
        return fail(loaded.error());
    }
    tls->m_check.setInterval(std::max(1, checkEverySeconds) * 1000);
    connect(&tls->m_check, &QTimer::timeout, tls, &ServerTls::reloadIfChanged);
    tls->m_check.start();
    return tls;
}

Status ServerTls::load()
{
    auto chain = loadCertificates(m_certificateFile);
    if (!chain)
        return fail(chain.error());
    auto key = loadKey(m_keyFile);
    if (!key)
        return fail(key.error());
    const QSslCertificate &leaf = chain->first();
    if (key->algorithm() != leaf.publicKey().algorithm())
        return fail(
            QStringLiteral("the key in %1 does not belong to the certificate in %2").arg(m_keyFile, m_certificateFile));
    if (leaf.expiryDate() < QDateTime::currentDateTimeUtc())
        qCWarning(lcNet) << "the TLS certificate" << m_certificateFile << "expired on"
                         << leaf.expiryDate().toString(Qt::ISODate) << "- nodes will refuse it";
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificateChain(*chain);
    configuration.setPrivateKey(*key);
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone); // nodes prove who they are by signatures, not certificates
    configuration.setProtocol(QSsl::TlsV1_2OrLater);
    m_configuration = configuration;
    m_certificateStamp = QFileInfo(m_certificateFile).lastModified();
    m_keyStamp = QFileInfo(m_keyFile).lastModified();
    return {};
}

bool ServerTls::reloadIfChanged()
{
    if (QFileInfo(m_certificateFile).lastModified() == m_certificateStamp &&
        QFileInfo(m_keyFile).lastModified() == m_keyStamp)
        return false;
    const QSslConfiguration before = m_configuration;
    if (Status loaded = load(); !loaded) {
        qCWarning(lcNet) << "the renewed TLS files do not load, keeping the certificate in use:" << loaded.error();
        m_configuration = before;
        m_certificateStamp = QFileInfo(m_certificateFile).lastModified(); // say it once per change, not every minute
        m_keyStamp = QFileInfo(m_keyFile).lastModified();
        return false;
    }
    qCInfo(lcNet) << "TLS certificate reloaded:" << certificate().subjectDisplayName() << "valid until"
                  << certificate().expiryDate().toString(Qt::ISODate);
    return true;
}

Status trustHubCertificates(const QString &pemFile)
{
    auto certificates = loadCertificates(pemFile);
    if (!certificates)
        return fail(certificates.error());
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.addCaCertificates(*certificates);
    QSslConfiguration::setDefaultConfiguration(configuration);
    return {};
}

QString tlsProblemText(const QList<QSslError> &errors)
{
    QStringList out;
    for (const QSslError &e : errors) {
        QString text;
        switch (e.error()) {
        case QSslError::CertificateExpired:
            text = QStringLiteral("the hub's certificate has expired (%1)")
                       .arg(e.certificate().expiryDate().toString(Qt::ISODate));
            break;
        case QSslError::CertificateNotYetValid:
            text = QStringLiteral("the hub's certificate is not valid yet; check this computer's clock");
            break;
        case QSslError::HostNameMismatch:
            text = QStringLiteral("the hub's certificate is for another name (%1)")
                       .arg(e.certificate().subjectInfo(QSslCertificate::CommonName).join(QStringLiteral(", ")));
            break;
        case QSslError::SelfSignedCertificate:
        case QSslError::SelfSignedCertificateInChain:
        case QSslError::UnableToGetLocalIssuerCertificate:
        case QSslError::UnableToGetIssuerCertificate:
        case QSslError::UnableToVerifyFirstCertificate:
        case QSslError::CertificateUntrusted:
            text = QStringLiteral("the hub's certificate is not signed by an authority this computer trusts "
                                  "(pin it with the hub certificate setting, or --hub-certificate)");
            break;
        default: text = e.errorString();
        }
        if (!out.contains(text))
            out << text;
    }
    return out.join(QStringLiteral("; "));
}

} // namespace cohort

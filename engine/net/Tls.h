#pragma once
// TLS for the hub's listeners and the node's trust in a hub.
//
// Server side: a certificate chain and key in PEM files (what certbot and every CA hand out). ServerTls loads them,
// and looks at the files again every `checkEverySeconds`: a renewed certificate is used for new connections
// without a restart; files that do not load keep the working ones (and say why). Node side: trustHubCertificates()
// adds a PEM file's certificates (a private CA, or the hub's self-signed certificate) to what the process trusts,
// on top of the system CAs; tlsProblemText() turns QSslErrors into one sentence for people.
#include "core/Expected.h"

#include <QDateTime>
#include <QList>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslError>
#include <QTimer>

namespace cohort {

class ServerTls : public QObject {
public:
    static Expected<ServerTls *> create(const QString &certificateFile, const QString &keyFile,
                                        int checkEverySeconds = 60, QObject *parent = nullptr);
    QSslConfiguration configuration() const { return m_configuration; }
    QSslCertificate certificate() const { return m_configuration.localCertificate(); }
    // Loads the files again if they changed; true when a new certificate is in use.
    bool reloadIfChanged();

private:
    ServerTls(QString certificateFile, QString keyFile, QObject *parent);
    Status load();

    QString m_certificateFile;
    QString m_keyFile;
    QDateTime m_certificateStamp;
    QDateTime m_keyStamp;
    QSslConfiguration m_configuration;
    QTimer m_check;
};

// A listener's socket for an accepted descriptor: a QSslSocket when tls is set (its handshake starts with
// startServerHandshake(), once the connection was admitted), else a QTcpSocket. nullptr if the descriptor is bad.
class QTcpSocket *newServerSocket(qintptr descriptor, const ServerTls *tls, QObject *parent);
void startServerHandshake(class QTcpSocket *socket, const ServerTls *tls);

// Certificates of a PEM file (one or more), or why not.
Expected<QList<QSslCertificate>> loadCertificates(const QString &pemFile);
// Adds the file's certificates to the CAs every TLS connection of this process trusts (QNetworkAccessManager and
// QSslSocket take the default configuration).
Status trustHubCertificates(const QString &pemFile);
// "the hub's certificate has expired", "the certificate is for another host name (…)", …; empty list: empty text.
QString tlsProblemText(const QList<QSslError> &errors);

} // namespace cohort

#pragma once
// A stock nginx serving a folder on a loopback port, with a temporary config: proof that any static web server
// is a valid SHARDCAST relay. Skips (isAvailable() false) where nginx is not installed.
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace cohort::test {

class NginxRelay {
public:
    static QString binary();
    bool isAvailable() const { return !binary().isEmpty(); }
    // Starts nginx serving `root`; returns an error message or an empty string.
    QString start(const QString &root);
    // Starts nginx terminating TLS (cert, key: PEM files) in front of `upstream` (http://127.0.0.1:port), as the
    // README's "Running a public hub" configures it: Host and X-Forwarded-For passed on.
    QString startTlsProxy(const QString &upstream, const QString &certificateFile, const QString &keyFile);
    QString url() const
    {
        return QStringLiteral("%1://127.0.0.1:%2")
            .arg(m_tls ? QStringLiteral("https") : QStringLiteral("http"))
            .arg(m_port);
    }
    QString accessLog() const;
    ~NginxRelay();

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
    bool m_tls = false;
    QString startWith(const QString &server); // server: the body of the server block after "listen"
};

} // namespace cohort::test

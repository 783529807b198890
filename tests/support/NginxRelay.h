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
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }
    QString accessLog() const;
    ~NginxRelay();

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
};

} // namespace cohort::test

#pragma once
// Which names a listener answers to. A web page can make a browser send requests to 127.0.0.1 under its own name
// (DNS rebinding) or from its own origin; neither may drive a hub, relay or control API. A listener configured
// with names answers only a Host header naming one of them (421 otherwise), and any request that carries an
// Origin (nodes never send one; browsers always do for such requests) only when the Origin's host is one of them.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

namespace cohort {

class HostCheck {
public:
    struct Refusal {
        int status;
        QString code;
        QString message;
    };

    HostCheck() = default;           // any Host; every Origin refused
    static HostCheck loopbackOnly(); // 127.0.0.1, localhost, ::1 (the embedded hub, relay and control API)

    // Adds a name (host name or IP literal, without port); also turns off "any Host".
    void allow(const QString &name);
    bool answersAnyHost() const { return m_names.isEmpty(); }
    QStringList names() const { return m_names; }

    std::optional<Refusal> check(const QByteArray &hostHeader, const QByteArray &originHeader) const;

    // "Example.org:8420" -> "example.org", "[::1]:80" -> "::1"; empty for something that is no host.
    static QString hostOf(const QByteArray &hostHeader);

private:
    QStringList m_names; // lower case
};

} // namespace cohort

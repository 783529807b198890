#pragma once
// The head of an HTTP/1.x message (start line and header fields), read the same way by the hub's request guard,
// the relay server and the shard fetcher. Names are lower-cased and values trimmed; lines without a colon are skipped.
#include <QByteArray>
#include <QList>
#include <QPair>

namespace cohort {

struct HttpHead {
    QList<QByteArray> startLine; // "GET /x HTTP/1.1" or "HTTP/1.1 206 Partial Content", split on spaces
    QList<QPair<QByteArray, QByteArray>> fields;

    QByteArray value(const QByteArray &lowerName) const;         // the first one; empty if absent
    QList<QByteArray> values(const QByteArray &lowerName) const; // every occurrence (smuggling checks)
};

// `head`: everything before the blank line that ends the head.
HttpHead parseHttpHead(const QByteArray &head);

} // namespace cohort

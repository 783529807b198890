#include "core/HttpHead.h"

namespace cohort {

HttpHead parseHttpHead(const QByteArray &head)
{
    HttpHead out;
    const QList<QByteArray> lines = head.split('\n');
    out.startLine = lines.value(0).trimmed().split(' ');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        out.fields.append({line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
    }
    return out;
}

QByteArray HttpHead::value(const QByteArray &lowerName) const
{
    for (const auto &[name, value] : fields)
        if (name == lowerName)
            return value;
    return {};
}

QList<QByteArray> HttpHead::values(const QByteArray &lowerName) const
{
    QList<QByteArray> out;
    for (const auto &[name, value] : fields)
        if (name == lowerName)
            out.append(value);
    return out;
}

} // namespace cohort

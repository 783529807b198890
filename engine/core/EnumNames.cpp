#include "core/EnumNames.h"

namespace cohort::detail {

QString kebabCase(const char *key)
{
    QString out;
    for (const char *c = key; *c; ++c) {
        const QChar ch = QLatin1Char(*c);
        if (ch.isUpper()) {
            if (c != key)
                out += QLatin1Char('-');
            out += ch.toLower();
        } else {
            out += ch;
        }
    }
    return out;
}

QByteArray camelCase(QStringView name)
{
    QByteArray out;
    bool upperNext = true;
    bool sawLetter = false;
    for (const QChar ch : name) {
        if (ch == QLatin1Char('-')) {
            upperNext = true;
            continue;
        }
        if (ch.unicode() > 0x7f)
            return {}; // keys are ASCII: nothing else can name a value
        sawLetter = sawLetter || ch.isLetter();
        out += char(upperNext ? ch.toUpper().unicode() : ch.unicode());
        upperNext = false;
    }
    return sawLetter ? out : QByteArray();
}

} // namespace cohort::detail

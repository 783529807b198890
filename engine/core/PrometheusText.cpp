#include "core/PrometheusText.h"

#include <QLocale>
#include <cmath>

namespace cohort::prometheus {

namespace {
bool isLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
} // namespace

void Writer::refuse(const QString &problem)
{
    m_problems.append(problem);
}

bool isValidMetricName(const QByteArray &name)
{
    if (name.isEmpty() || !(isLetter(name[0]) || name[0] == ':'))
        return false;
    for (char c : name)
        if (!isLetter(c) && !isDigit(c) && c != ':')
            return false;
    return true;
}

bool isValidLabelName(const QByteArray &name)
{
    if (name.isEmpty() || !isLetter(name[0]) || name.startsWith("__"))
        return false;
    for (char c : name)
        if (!isLetter(c) && !isDigit(c))
            return false;
    return true;
}

QByteArray escapeLabelValue(const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    QByteArray out;
    out.reserve(utf8.size());
    for (char c : utf8) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '"': out += "\\\""; break;
        case '\n': out += "\\n"; break;
        default: out += c;
        }
    }
    return out;
}

QByteArray escapeHelp(const QString &help)
{
    const QByteArray utf8 = help.toUtf8();
    QByteArray out;
    out.reserve(utf8.size());
    for (char c : utf8) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        default: out += c;
        }
    }
    return out;
}

QByteArray formatValue(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    // Counters of bytes are whole numbers; "%g" would print 1234567 as 1.234567e+06, correct but hard to read.
    constexpr double kExact = 9007199254740992.0; // 2^53: every whole double below it is exact
    if (std::trunc(value) == value && std::fabs(value) < kExact)
        return QByteArray::number(qint64(value));
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
}

void Writer::family(const QByteArray &name, Type type, const QString &help)
{
    m_name.clear();
    m_header.clear();
    m_labelSets.clear();
    if (!isValidMetricName(name))
        return refuse(QStringLiteral("'%1' is not a metric name").arg(QString::fromLatin1(name)));
    if (m_families.contains(name))
        return refuse(QStringLiteral("the family '%1' is written twice").arg(QString::fromLatin1(name)));
    if (type == Type::Counter && !name.endsWith("_total"))
        return refuse(QStringLiteral("the counter '%1' does not end in _total").arg(QString::fromLatin1(name)));
    m_families.insert(name);
    m_name = name;
    m_header = "# HELP " + name + ' ' + escapeHelp(help) + "\n# TYPE " + name +
               (type == Type::Counter ? " counter\n" : " gauge\n");
}

void Writer::add(double value, const Labels &labels)
{
    if (m_name.isEmpty())
        return refuse(QStringLiteral("a sample without a family"));
    QByteArray line = m_name;
    if (!labels.isEmpty()) {
        QSet<QByteArray> names;
        line += '{';
        for (qsizetype i = 0; i < labels.size(); ++i) {
            const Label &label = labels[i];
            if (!isValidLabelName(label.name) || names.contains(label.name))
                return refuse(QStringLiteral("%1: '%2' is not a label name, or repeated")
                                  .arg(QString::fromLatin1(m_name), QString::fromLatin1(label.name)));
            names.insert(label.name);
            line += (i ? "," : "") + label.name + "=\"" + escapeLabelValue(label.value) + '"';
        }
        line += '}';
    }
    // The same series twice in one scrape is an error to Prometheus; the label part identifies it.
    const QByteArray series = line.mid(m_name.size());
    if (m_labelSets.contains(series))
        return refuse(QStringLiteral("the series %1 is written twice").arg(QString::fromUtf8(line)));
    m_labelSets.insert(series);
    m_text += m_header;
    m_header.clear();
    m_text += line + ' ' + formatValue(value) + '\n';
}

} // namespace cohort::prometheus

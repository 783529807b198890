#include "core/LogBudget.h"

#include <algorithm>

namespace cohort {

LogBudget::LogBudget(int linesPerWindow, qint64 windowMs)
    : m_lines(std::max(1, linesPerWindow)),
      m_windowMs(std::max<qint64>(1, windowMs))
{}

bool LogBudget::admit(const QString &kind, qint64 nowMs)
{
    QString key = kind;
    if (!m_windows.contains(key) && m_windows.size() >= kMaxKinds)
        key = QStringLiteral("other"); // a stream of ever-new kinds must not grow the table without bound
    Window &w = m_windows[key];
    if (w.printed == 0 && w.held == 0)
        w.startMs = nowMs;
    if (nowMs - w.startMs >= m_windowMs && w.held == 0) { // a quiet window ended: start a new one with this line
        w.startMs = nowMs;
        w.printed = 0;
    }
    if (w.printed < m_lines) {
        ++w.printed;
        return true;
    }
    ++w.held;
    return false;
}

QList<LogBudget::Suppressed> LogBudget::takeEnded(qint64 nowMs)
{
    QList<Suppressed> ended;
    for (auto it = m_windows.begin(); it != m_windows.end();) {
        Window &w = it.value();
        if (nowMs - w.startMs < m_windowMs) {
            ++it;
            continue;
        }
        if (w.held > 0)
            ended.append({it.key(), w.held});
        it = m_windows.erase(it); // the kind starts a fresh window with its next line
    }
    std::sort(ended.begin(), ended.end(), [](const Suppressed &a, const Suppressed &b) { return a.kind < b.kind; });
    return ended;
}

QList<LogBudget::Suppressed> LogBudget::takeAll()
{
    QList<Suppressed> held;
    for (auto it = m_windows.cbegin(); it != m_windows.cend(); ++it)
        if (it.value().held > 0)
            held.append({it.key(), it.value().held});
    m_windows.clear();
    std::sort(held.begin(), held.end(), [](const Suppressed &a, const Suppressed &b) { return a.kind < b.kind; });
    return held;
}

} // namespace cohort

#include "node/ActivitySummary.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

namespace cohort {

QString activitySummaryText(int accepted, int rejected, qint64 tokens, double meanReward, double credits,
                            int windowSeconds)
{
    const QString window =
        windowSeconds == 60 ? QStringLiteral("the last minute") : QStringLiteral("the last %1 s").arg(windowSeconds);
    const QLocale c(QLocale::English, QLocale::UnitedStates); // C omits the group separator; log lines stay English
    QString text;
    if (accepted > 0)
        text = QStringLiteral("%1 %2 accepted in %3: %4 tokens, mean reward %5 %, %6 credits pending verification")
                   .arg(accepted)
                   .arg(accepted == 1 ? QStringLiteral("batch") : QStringLiteral("batches"), window)
                   .arg(c.toString(tokens))
                   .arg(std::lround(meanReward * 100))
                   .arg(credits, 0, 'f', 3);
    if (rejected > 0) {
        const QString refused = QStringLiteral("%1 %2 refused")
                                    .arg(rejected)
                                    .arg(rejected == 1 ? QStringLiteral("batch") : QStringLiteral("batches"));
        text = text.isEmpty() ? refused + QStringLiteral(" in ") + window : text + QStringLiteral("; ") + refused;
    }
    return text;
}

ActivitySummary::ActivitySummary(QObject *parent, int windowMs)
    : QObject(parent),
      m_timer(this),
      m_windowMs(windowMs) // parented: moveToThread takes the timer along
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ActivitySummary::flush);
}

void ActivitySummary::startWindow()
{
    if (!m_timer.isActive())
        m_timer.start(m_windowMs); // the window opens with its first event: a quiet node says nothing
}

void ActivitySummary::batchAccepted(qint64 tokens, double meanReward, double pendingCredits)
{
    if (!m_firstSaid) {
        m_firstSaid = true;
        Q_EMIT summarized(EngineEvent::info(
            EventCategory::Rollouts,
            QStringLiteral("First batch accepted: %1 tokens, mean reward %2 %; from now on a summary once a minute")
                .arg(tokens)
                .arg(std::lround(std::isfinite(meanReward) ? meanReward * 100 : 0))));
        return;
    }
    ++m_accepted;
    m_tokens += tokens;
    m_rewardSum += std::isfinite(meanReward) ? meanReward : 0;
    m_credits += std::isfinite(pendingCredits) ? pendingCredits : 0;
    startWindow();
}

void ActivitySummary::batchRejected()
{
    ++m_rejected; // each refusal is also a warning of its own: this only keeps the count
    startWindow();
}

void ActivitySummary::flush()
{
    m_timer.stop();
    if (m_accepted == 0 && m_rejected == 0)
        return;
    const QString text =
        activitySummaryText(m_accepted, m_rejected, m_tokens, m_accepted ? m_rewardSum / m_accepted : 0, m_credits,
                            std::max(1, m_windowMs / 1000));
    m_accepted = m_rejected = 0;
    m_tokens = 0;
    m_rewardSum = m_credits = 0;
    Q_EMIT summarized(EngineEvent::info(EventCategory::Rollouts, text));
}

} // namespace cohort

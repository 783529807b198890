#include "ui/EarningsPage.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

namespace cohort {

EarningsPage::EarningsPage(QWidget *parent) : QWidget(parent)
{
    auto *figures = new QHBoxLayout;
    figures->setSpacing(16);
    m_pending = makeFigure(tr("Pending"), "pendingEarnings", figures);
    m_confirmed = makeFigure(tr("Confirmed"), "confirmedEarnings", figures);

    m_emptyState = new QLabel(this);
    m_emptyState->setObjectName(QStringLiteral("earningsEmptyState"));
    m_emptyState->setAlignment(Qt::AlignCenter);
    m_emptyState->setWordWrap(true);
    m_emptyState->setText(tr("No earnings yet — earnings appear here once your machine's work is verified by the hub."));
    QPalette muted = m_emptyState->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    m_emptyState->setPalette(muted);

    auto *explanation = new QLabel(
        tr("<b>Pending</b> is work you have reported that the hub has not checked yet. "
           "<b>Confirmed</b> is work the hub has verified and credited to this node."),
        this);
    explanation->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(16);
    layout->addLayout(figures);
    layout->addWidget(explanation);
    layout->addStretch(1);
    layout->addWidget(m_emptyState);
    layout->addStretch(2);

    setTotals(0, 0, tr("credits"));
}

QLabel *EarningsPage::makeFigure(const QString &caption, const char *objectName, QHBoxLayout *row)
{
    auto *card = new QFrame(this);
    card->setFrameShape(QFrame::StyledPanel);
    auto *captionLabel = new QLabel(caption, card);
    auto *value = new QLabel(card);
    value->setObjectName(QLatin1String(objectName));
    QFont big = value->font();
    big.setPointSizeF(big.pointSizeF() * 1.8);
    big.setBold(true);
    value->setFont(big);
    auto *layout = new QVBoxLayout(card);
    layout->addWidget(captionLabel);
    layout->addWidget(value);
    row->addWidget(card, 1);
    return value;
}

void EarningsPage::setTotals(double pending, double confirmed, const QString &unit)
{
    const QLocale locale;
    m_pending->setText(locale.toString(pending, 'f', 2) + QLatin1Char(' ') + unit);
    m_confirmed->setText(locale.toString(confirmed, 'f', 2) + QLatin1Char(' ') + unit);
    m_emptyState->setVisible(pending == 0 && confirmed == 0);
}

} // namespace cohort

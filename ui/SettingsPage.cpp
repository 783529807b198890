#include "ui/SettingsPage.h"

#include "ui/InlineErrorLabel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace cohort {

QWidget *withErrorLabel(QWidget *field, const QString &key, QHash<QString, InlineErrorLabel *> &labels, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(field);
    auto *error = new InlineErrorLabel(box);
    error->setObjectName(key.isEmpty() ? QStringLiteral("generalError") : key + QStringLiteral("Error"));
    layout->addWidget(error);
    labels.insert(key, error);
    return box;
}

SettingsPage::SettingsPage(const QString &title, const char *name, QWidget *parent)
    : QScrollArea(parent),
      m_title(title)
{
    setObjectName(QLatin1String(name));
    setAccessibleName(title);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    m_content = new QWidget(this);
}

void SettingsPage::load(const SettingsValues &values)
{
    m_bindings.fill(values);
}

void SettingsPage::apply(SettingsValues &values) const
{
    m_bindings.read(values);
}

QList<SettingsError> SettingsPage::check(const SettingsValues &) const
{
    return {};
}

void SettingsPage::noteEdit()
{
    if (!m_filling)
        Q_EMIT edited();
}

void SettingsPage::watch(QLineEdit *field)
{
    connect(field, &QLineEdit::textChanged, this, &SettingsPage::noteEdit);
}

void SettingsPage::watch(QCheckBox *field)
{
    connect(field, &QCheckBox::toggled, this, &SettingsPage::noteEdit);
}

void SettingsPage::watch(QSpinBox *field)
{
    connect(field, &QSpinBox::valueChanged, this, &SettingsPage::noteEdit);
}

void SettingsPage::watch(QDoubleSpinBox *field)
{
    connect(field, &QDoubleSpinBox::valueChanged, this, &SettingsPage::noteEdit);
}

void SettingsPage::watch(QComboBox *field)
{
    connect(field, &QComboBox::currentIndexChanged, this, &SettingsPage::noteEdit);
}

QWidget *SettingsPage::withErrorLabel(QWidget *field, const QString &key)
{
    return cohort::withErrorLabel(field, key, m_errorLabels, m_content);
}

QSpinBox *SettingsPage::spinBox(const char *name, int min, int max, const QString &suffix, const QString &none,
                                const QString &accessible)
{
    auto *box = new QSpinBox(m_content);
    box->setObjectName(QLatin1String(name));
    box->setRange(min, max);
    box->setSuffix(suffix);
    box->setAccessibleName(accessible);
    if (!none.isEmpty())
        box->setSpecialValueText(none);
    return box;
}

QWidget *SettingsPage::row(std::initializer_list<QWidget *> widgets, bool stretch)
{
    auto *box = new QWidget(m_content);
    auto *layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    for (QWidget *w : widgets)
        layout->addWidget(w);
    if (stretch)
        layout->addStretch(1);
    return box;
}

QLabel *SettingsPage::note(const QString &text)
{
    auto *label = new QLabel(text, m_content);
    label->setWordWrap(true);
    QPalette muted = label->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    label->setPalette(muted);
    return label;
}

} // namespace cohort

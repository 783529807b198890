#pragma once
// Which widget of a settings page shows which setting, said once where the widget is made: the page fills every
// bound widget from a SettingsValues and reads them back into one, so a new setting is its row in SettingsFields.cpp,
// its widget and one bind() next to it (SettingsPage::bind). Settings shown by more than one widget (the GPU list
// with its shares) stay hand-written in their page.
#include "settings/Settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <functional>
#include <vector>

namespace cohort {

class SettingsBindings {
public:
    void bind(QLineEdit *field, QString SettingsValues::*member) // trimmed when read back
    {
        add([=](const SettingsValues &v) { field->setText(v.*member); },
            [=](SettingsValues &v) { v.*member = field->text().trimmed(); });
    }
    // A list typed on one line, entries separated by ';' (empty entries dropped, each trimmed).
    void bind(QLineEdit *field, QStringList SettingsValues::*member)
    {
        add([=](const SettingsValues &v) { field->setText((v.*member).join(QStringLiteral("; "))); },
            [=](SettingsValues &v) {
                QStringList entries;
                for (const QString &entry : field->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
                    if (!entry.trimmed().isEmpty())
                        entries.append(entry.trimmed());
                v.*member = entries;
            });
    }
    void bind(QCheckBox *field, bool SettingsValues::*member)
    {
        add([=](const SettingsValues &v) { field->setChecked(v.*member); },
            [=](SettingsValues &v) { v.*member = field->isChecked(); });
    }
    void bind(QSpinBox *field, int SettingsValues::*member)
    {
        add([=](const SettingsValues &v) { field->setValue(v.*member); },
            [=](SettingsValues &v) { v.*member = field->value(); });
    }
    void bind(QDoubleSpinBox *field, double SettingsValues::*member)
    {
        add([=](const SettingsValues &v) { field->setValue(v.*member); },
            [=](SettingsValues &v) { v.*member = field->value(); });
    }
    // A choice whose items carry the value as their data (an enum as int, or a string); an unknown value shows the
    // first item.
    template <typename T>
    void bind(QComboBox *field, T SettingsValues::*member)
    {
        add([=](const SettingsValues &v) { field->setCurrentIndex(std::max(0, field->findData(toData(v.*member)))); },
            [=](SettingsValues &v) { v.*member = fromData<T>(field->currentData()); });
    }

    void fill(const SettingsValues &values) const
    {
        for (const Binding &b : m_bindings)
            b.fill(values);
    }
    void read(SettingsValues &values) const
    {
        for (const Binding &b : m_bindings)
            b.read(values);
    }

private:
    struct Binding {
        std::function<void(const SettingsValues &)> fill;
        std::function<void(SettingsValues &)> read;
    };
    void add(std::function<void(const SettingsValues &)> fill, std::function<void(SettingsValues &)> read)
    {
        m_bindings.push_back({std::move(fill), std::move(read)});
    }
    template <typename T>
    static QVariant toData(const T &value)
    {
        if constexpr (std::is_enum_v<T>)
            return int(value);
        else
            return value;
    }
    template <typename T>
    static T fromData(const QVariant &data)
    {
        if constexpr (std::is_enum_v<T>)
            return T(data.toInt());
        else
            return data.value<T>();
    }

    std::vector<Binding> m_bindings;
};

} // namespace cohort

#pragma once
// One page of the settings dialog: its widgets, which settings they show (its own SettingsBindings) and the messages
// under them. The dialog loads every page from one SettingsValues (the stored ones, or the defaults), reads every
// page back into one, and shows a SettingsError under the label a page registered for the error's key. So a new
// setting is its row in SettingsFields.cpp, its widget and one bind() in the page that shows it.
#include "settings/Settings.h"
#include "ui/SettingsBindings.h"

#include <QHash>
#include <QScrollArea>
#include <functional>
#include <initializer_list>

class QLabel;

namespace cohort {

class InlineErrorLabel;

// Puts an InlineErrorLabel for `key` under `field` (named key + "Error", or "generalError" for the key "" of
// failures not tied to one field) and records it in `labels`. Returns the box holding both.
QWidget *withErrorLabel(QWidget *field, const QString &key, QHash<QString, InlineErrorLabel *> &labels,
                        QWidget *parent);

// A page is a scroll area, so a small screen (or large fonts) never cuts a field off.
class SettingsPage : public QScrollArea {
    Q_OBJECT
public:
    // Asks the user a yes/no question (the dialog's confirmation boxes, or what a test answers instead).
    using Confirm = std::function<bool(const QString &title, const QString &text)>;

    QString title() const { return m_title; }
    // Fill the fields from `values`: the bound ones, and what the page shows beyond them.
    virtual void load(const SettingsValues &values);
    // Read the fields back into `values`; what the page does not show stays as it is.
    virtual void apply(SettingsValues &values) const;
    // Rules only the page can check (Settings::validate checks the values themselves); none by default.
    virtual QList<SettingsError> check(const SettingsValues &values) const;
    // After an edit: what the fields enable or explain follows them.
    virtual void refresh() {}
    // The labels under this page's fields, by SettingsError key (also those of the page's actions).
    const QHash<QString, InlineErrorLabel *> &errorLabels() const { return m_errorLabels; }

Q_SIGNALS:
    void edited();          // the user changed a field (not while the page fills its fields itself)
    void revealRequested(); // an action has something to say on this page: the dialog turns to it

protected:
    // `name` is the page's objectName. A page builds its widgets in content() and ends its constructor with
    // setWidget(content()), once the content is laid out.
    SettingsPage(const QString &title, const char *name, QWidget *parent);

    QWidget *content() const { return m_content; }
    // Shows `member` in `field` and reports the user's changes to it as edits.
    template <typename Field, typename Member>
    void bind(Field *field, Member member)
    {
        m_bindings.bind(field, member);
        watch(field);
    }
    // Reports changes to a field that is no setting of its own (start at login, the GPU choice) as edits.
    void watch(QLineEdit *field);
    void watch(QCheckBox *field);
    void watch(QSpinBox *field);
    void watch(QDoubleSpinBox *field);
    void watch(QComboBox *field);
    void noteEdit(); // emits edited() unless the page is filling its fields
    QWidget *withErrorLabel(QWidget *field, const QString &key);
    QSpinBox *spinBox(const char *name, int min, int max, const QString &suffix, const QString &none,
                      const QString &accessible);
    QWidget *row(std::initializer_list<QWidget *> widgets, bool stretch = true);
    QLabel *note(const QString &text);

    // While it lives, the page's own changes to its fields (the GPU rows, the moved data folder) are no edits.
    class Filling {
    public:
        explicit Filling(SettingsPage *page)
            : m_page(page),
              m_was(page->m_filling)
        {
            page->m_filling = true;
        }
        ~Filling() { m_page->m_filling = m_was; }
        Filling(const Filling &) = delete;
        Filling &operator=(const Filling &) = delete;

    private:
        SettingsPage *m_page;
        bool m_was;
    };

private:
    QString m_title;
    QWidget *m_content;
    SettingsBindings m_bindings;
    QHash<QString, InlineErrorLabel *> m_errorLabels;
    bool m_filling = false;
};

} // namespace cohort

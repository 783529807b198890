#pragma once
// A red message placed right under the field it is about; hidden while there is nothing to say.
#include <QLabel>

namespace cohort {

class InlineErrorLabel : public QLabel {
    Q_OBJECT
public:
    explicit InlineErrorLabel(QWidget *parent = nullptr);

    void showError(const QString &message);
    void clearError();
    bool hasError() const { return !text().isEmpty(); }
};

} // namespace cohort

#include "ui/InlineErrorLabel.h"

namespace cohort {

InlineErrorLabel::InlineErrorLabel(QWidget *parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::PlainText); // messages may quote what the user typed
    QPalette palette = this->palette();
    palette.setColor(QPalette::WindowText, QColor(0xb9, 0x1c, 0x1c));
    setPalette(palette);
    hide();
}

void InlineErrorLabel::showError(const QString &message)
{
    setText(message);
    setVisible(!message.isEmpty());
}

void InlineErrorLabel::clearError()
{
    clear();
    hide();
}

} // namespace cohort

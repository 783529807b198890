#pragma once
// What the benchmarks' figures (PNG, rendered with QPainter) share: the title over the plot, then the file.
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QString>

namespace cohort::bench {

// Draws `title` centred at the top in bold (smaller until it fits the width), ends the painter and writes the image
// to `path` (PNG by its suffix).
inline bool finishFigure(QPainter &p, QImage &image, const QString &title, const QString &path)
{
    QFont font = p.font();
    font.setBold(true);
    for (int size = 17; size >= 9; --size) {
        font.setPixelSize(size);
        if (QFontMetrics(font).horizontalAdvance(title) <= image.width() - 20)
            break;
    }
    p.setFont(font);
    p.setPen(Qt::black);
    p.drawText(QRectF(0, 10, image.width(), 30), Qt::AlignCenter, title);
    p.end();
    return image.save(path);
}

} // namespace cohort::bench

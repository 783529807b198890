#pragma once
// What the benchmarks' figures (PNG, rendered with QPainter) share: the title over the plot, then the file.
#include <QImage>
#include <QPainter>
#include <QString>

namespace cohort::bench {

// Draws `title` centred at the top in bold, ends the painter and writes the image to `path` (PNG by its suffix).
inline bool finishFigure(QPainter &p, QImage &image, const QString &title, const QString &path)
{
    QFont font = p.font();
    font.setPixelSize(17);
    font.setBold(true);
    p.setFont(font);
    p.setPen(Qt::black);
    p.drawText(QRectF(0, 10, image.width(), 30), Qt::AlignCenter, title);
    p.end();
    return image.save(path);
}

} // namespace cohort::bench

// Host and Origin headers come from anyone (net/HostCheck): split on the first newline into the two headers.
// What the check lets through must name an allowed host; a host it extracts never carries a port, '@' or '/'.
#include "net/HostCheck.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype newline = bytes.indexOf('\n');
    const QByteArray host = newline < 0 ? bytes : bytes.left(newline);
    const QByteArray origin = newline < 0 ? QByteArray() : bytes.mid(newline + 1);
    const QString extracted = cohort::HostCheck::hostOf(host);
    if (extracted.contains(QLatin1Char('@')) || extracted.contains(QLatin1Char('/')) ||
        extracted.contains(QLatin1Char(' ')))
        __builtin_trap();
    const cohort::HostCheck loopback = cohort::HostCheck::loopbackOnly();
    if (!loopback.check(host, origin) && !loopback.names().contains(extracted))
        __builtin_trap(); // answered a Host that is not one of its names
    const cohort::HostCheck any;
    if (!any.check(host, origin) && !origin.isEmpty())
        __builtin_trap(); // "any Host" still refuses every Origin
    return 0;
}

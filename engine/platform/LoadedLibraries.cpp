#include "platform/LoadedLibraries.h"

#include <QFile>
#include <QFileInfo>
#include <QSet>

#ifdef _WIN32
#  include <windows.h>
#  include <algorithm>
#  include <iterator>
#  include <psapi.h>
#else
#  include <dlfcn.h>
#endif

namespace cohort {

QStringList loadedLibraries(const QString &part)
{
    QStringList found;
    QSet<QString> seen;
    const auto consider = [&](const QString &path) {
        if (QFileInfo(path).fileName().contains(part, Qt::CaseInsensitive) && !seen.contains(path)) {
            seen.insert(path);
            found.append(path);
        }
    };
#ifdef _WIN32
    HMODULE modules[1024];
    DWORD needed = 0;
    if (K32EnumProcessModules(GetCurrentProcess(), modules, sizeof modules, &needed)) {
        const DWORD count = std::min<DWORD>(needed / sizeof(HMODULE), DWORD(std::size(modules)));
        for (DWORD i = 0; i < count; ++i) {
            wchar_t name[MAX_PATH];
            if (K32GetModuleFileNameExW(GetCurrentProcess(), modules[i], name, MAX_PATH) > 0)
                consider(QString::fromWCharArray(name));
        }
    }
#else
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (!maps.open(QIODevice::ReadOnly))
        return found;
    // A process maps a few thousand regions at most; a bound keeps a strange kernel from making this unbounded.
    // (atEnd() cannot be asked: a /proc file has size 0, so read until a read returns nothing.)
    for (int lines = 0; lines < 100'000; ++lines) {
        QByteArray line = maps.readLine(8192);
        if (line.isEmpty())
            break;
        line = line.trimmed();
        const qsizetype slash = line.indexOf('/');
        if (slash >= 0)
            consider(QString::fromUtf8(line.mid(slash)));
    }
#endif
    return found;
}

QString libraryDefining(const char *symbol)
{
#ifdef _WIN32
    (void)symbol;
    return {};
#else
    void *address = dlsym(RTLD_DEFAULT, symbol);
    Dl_info info{};
    if (!address || dladdr(address, &info) == 0 || !info.dli_fname)
        return {};
    return QFileInfo(QString::fromLocal8Bit(info.dli_fname)).canonicalFilePath();
#endif
}

QString describeBlas(const QStringList &libraries, bool *reference)
{
    *reference = false;
    for (const QString &path : libraries)
        if (path.contains(QLatin1String("openblas"), Qt::CaseInsensitive))
            return QStringLiteral("OpenBLAS (%1)").arg(path);
    for (const QString &path : libraries)
        if (path.contains(QLatin1String("mkl"), Qt::CaseInsensitive))
            return QStringLiteral("Intel MKL (%1)").arg(path);
    for (const QString &path : libraries)
        if (path.contains(QLatin1String("blis"), Qt::CaseInsensitive) ||
            path.contains(QLatin1String("atlas"), Qt::CaseInsensitive))
            return QStringLiteral("an optimised BLAS (%1)").arg(path);
    for (const QString &path : libraries)
        if (QFileInfo(path).fileName().startsWith(QLatin1String("libblas"), Qt::CaseInsensitive)) {
            *reference = true;
            return QStringLiteral("the reference BLAS (%1)").arg(path);
        }
    return {};
}

} // namespace cohort

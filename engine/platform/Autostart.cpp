#include "platform/Autostart.h"

#include "core/Logging.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>

namespace cohort {

namespace {

// Desktop Entry strings escape the backslash (and control characters, which paths here do not contain).
QString desktopEntryString(const QString &text)
{
    QString out = text;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    return out;
}

// One Exec= argument: double-quoted, with ", `, $ and \ backslash-escaped and % doubled (Desktop Entry spec,
// "The Exec key"), then escaped once more as a Desktop Entry string.
QString desktopExecArgument(const QString &argument)
{
    QString quoted;
    quoted.reserve(argument.size() + 2);
    quoted += QLatin1Char('"');
    for (const QChar c : argument) {
        if (c == QLatin1Char('"') || c == QLatin1Char('`') || c == QLatin1Char('$') || c == QLatin1Char('\\'))
            quoted += QLatin1Char('\\');
        else if (c == QLatin1Char('%'))
            quoted += QLatin1Char('%');
        quoted += c;
    }
    quoted += QLatin1Char('"');
    return desktopEntryString(quoted);
}

// Linux/BSD desktops: a .desktop file in the XDG autostart folder. The delay and the "needs a tray"
// keys let the panel come up first, so the tray icon is not lost at login.
class XdgAutostart final : public Autostart {
public:
    XdgAutostart(QString executable, QString arguments)
        : m_executable(std::move(executable)),
          m_arguments(std::move(arguments))
    {
        QString dir = qEnvironmentVariable("COHORT_AUTOSTART_DIR");
        if (dir.isEmpty())
            dir =
                QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + QStringLiteral("/autostart");
        m_path = dir + QStringLiteral("/io.cohort.Cohort.desktop");
    }
    bool isSupported() const override { return true; }
    bool isEnabled() const override { return QFile::exists(m_path); }
    QString location() const override { return m_path; }

    Status setEnabled(bool enabled) override
    {
        if (!enabled) {
            if (QFile::exists(m_path) && !QFile::remove(m_path))
                return fail(QStringLiteral("Could not remove %1").arg(m_path));
            return {};
        }
        if (!QDir().mkpath(QFileInfo(m_path).absolutePath()))
            return fail(QStringLiteral("Could not create %1").arg(QFileInfo(m_path).absolutePath()));
        // Inside an AppImage the executable path is a temporary mount; the image itself must be started.
        QString program = qEnvironmentVariable("APPIMAGE");
        if (program.isEmpty())
            program = m_executable;
        QSaveFile file(m_path);
        if (!file.open(QIODevice::WriteOnly))
            return fail(QStringLiteral("Could not write %1: %2").arg(m_path, file.errorString()));
        const QString exec =
            desktopExecArgument(program) + (m_arguments.isEmpty() ? QString() : QLatin1Char(' ') + m_arguments);
        // TryExec: once the program is uninstalled, desktops skip this entry (the package cannot remove
        // files in home folders, so the entry may outlive it).
        const QString text = QStringLiteral("[Desktop Entry]\n"
                                            "Type=Application\n"
                                            "Name=Cohort\n"
                                            "Comment=Lend your computer to decentralized AI training\n"
                                            "Exec=%1\n"
                                            "TryExec=%2\n"
                                            "Icon=io.cohort.Cohort\n"
                                            "Terminal=false\n"
                                            "X-GNOME-Autostart-enabled=true\n"
                                            "X-GNOME-Autostart-Delay=10\n"
                                            "X-KDE-autostart-after=panel\n"
                                            "X-LXQt-Need-Tray=true\n")
                                 .arg(exec, desktopEntryString(program));
        file.write(text.toUtf8());
        if (!file.commit())
            return fail(QStringLiteral("Could not write %1: %2").arg(m_path, file.errorString()));
        return {};
    }

private:
    QString m_executable;
    QString m_arguments;
    QString m_path;
};

#ifdef Q_OS_WIN
// Windows: a value under HKCU\Software\Microsoft\Windows\CurrentVersion\Run.
class WindowsRunKeyAutostart final : public Autostart {
public:
    WindowsRunKeyAutostart(QString executable, QString arguments)
        : m_command(QLatin1Char('"') + QDir::toNativeSeparators(executable) + QStringLiteral("\" ") + arguments)
    {}
    bool isSupported() const override { return true; }
    bool isEnabled() const override
    {
        QSettings key(kRunKeyPath, QSettings::NativeFormat);
        return key.contains(kValueName);
    }
    QString location() const override { return QStringLiteral("HKCU\\") + kRunKey + QLatin1Char('\\') + kValueName; }
    Status setEnabled(bool enabled) override
    {
        QSettings key(kRunKeyPath, QSettings::NativeFormat);
        if (enabled)
            key.setValue(kValueName, m_command);
        else
            key.remove(kValueName);
        key.sync();
        if (key.status() != QSettings::NoError)
            return fail(QStringLiteral("Could not change %1").arg(location()));
        return {};
    }

private:
    static inline const QString kRunKey = QStringLiteral("Software\\Microsoft\\Windows\\CurrentVersion\\Run");
    static inline const QString kValueName = QStringLiteral("Cohort");
    static inline const QString kRunKeyPath = QStringLiteral("HKEY_CURRENT_USER\\") + kRunKey;
    QString m_command;
};
#endif

class UnsupportedAutostart final : public Autostart {
public:
    bool isSupported() const override { return false; }
    bool isEnabled() const override { return false; }
    Status setEnabled(bool) override { return fail(QStringLiteral("Start at login is not supported on this system")); }
    QString location() const override { return {}; }
};

} // namespace

std::unique_ptr<Autostart> createAutostart(const QString &executable, const QString &arguments)
{
#if defined(Q_OS_WIN)
    return std::make_unique<WindowsRunKeyAutostart>(executable, arguments);
#elif defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    return std::make_unique<XdgAutostart>(executable, arguments);
#else
    Q_UNUSED(executable)
    Q_UNUSED(arguments)
    return std::make_unique<UnsupportedAutostart>();
#endif
}

} // namespace cohort

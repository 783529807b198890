#pragma once
// The names an enum's values have on the wire (JSON, metrics labels, the control API, cohortd's console), taken from
// the enumerators themselves: an enum declared with Q_ENUM / Q_ENUM_NS is named by its keys in kebab case
// (OnBattery -> "on-battery", Idle -> "idle"). So a new value has its name the moment it is declared, and no table
// of strings can drift from the enum. Texts for people are a different thing: they are translatable and live next to
// the enum (nodeStateTitle, pauseReasonText).
#include <QMetaEnum>
#include <QString>
#include <optional>

namespace cohort {

namespace detail {
QString kebabCase(const char *key);     // "ForegroundApp" -> "foreground-app"
QByteArray camelCase(QStringView name); // "foreground-app" -> "ForegroundApp"; empty when it holds no letter
} // namespace detail

// The value's wire name, or "" for a value that is not one of the enum's keys (a cast from a bad integer).
template <typename E>
QString enumName(E value)
{
    const char *key = QMetaEnum::fromType<E>().valueToKey(int(value));
    return key ? detail::kebabCase(key) : QString();
}

// The value a wire name stands for; nullopt for anything else (case, spacing and unknown names are refused, so a
// name read back is always one enumName() writes).
template <typename E>
std::optional<E> enumFromName(QStringView name)
{
    const QByteArray key = detail::camelCase(name);
    if (key.isEmpty())
        return std::nullopt;
    bool ok = false;
    const int value = QMetaEnum::fromType<E>().keyToValue(key.constData(), &ok);
    if (!ok || enumName(E(value)) != name) // keyToValue also takes "A|B" flag syntax and odd casing: be exact
        return std::nullopt;
    return E(value);
}

} // namespace cohort

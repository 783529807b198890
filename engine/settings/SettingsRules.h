#pragma once
// The rule of each setting that has one, as its row in SettingsFields.cpp names it: what the dialog shows under the
// field when the value is refused (in the app's language when it installed a translator, context "Settings"; in
// English in cohortd), or an empty text when the value holds. A rule may read other fields (the proxy's address
// only matters in manual mode; a price needs its currency). Private to engine/settings.
#include "settings/Settings.h"

namespace cohort::settings::rules {

QString hubUrl(const SettingsValues &v);
QString dataDir(const SettingsValues &v);
QString nodeName(const SettingsValues &v);
QString downloadLimitKiBps(const SettingsValues &v);
QString idleMinutes(const SettingsValues &v);
QString schedule(const SettingsValues &v);
QString pauseForPrograms(const SettingsValues &v);
QString gpuTempLimitC(const SettingsValues &v);
QString gpuPowerLimitW(const SettingsValues &v);
QString diskCapGiB(const SettingsValues &v);
QString language(const SettingsValues &v);
QString gpuUuids(const SettingsValues &v);
QString gpuMemoryPercent(const SettingsValues &v);
QString gpuMemoryPercentPerGpu(const SettingsValues &v);
QString uploadLimitKiBps(const SettingsValues &v);
QString hubCertificate(const SettingsValues &v);
QString hubKey(const SettingsValues &v);
QString proxy(const SettingsValues &v);
QString payoutAddress(const SettingsValues &v);
QString pricePerKWh(const SettingsValues &v);
QString currency(const SettingsValues &v);
QString creditValue(const SettingsValues &v);

} // namespace cohort::settings::rules

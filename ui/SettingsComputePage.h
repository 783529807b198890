#pragma once
// Settings, Compute page: which GPUs Cohort may use and how much of each one's memory (one row per GPU, from the
// engine's snapshots), when to work (idle, schedule, battery, other programs) and the temperature and power limits.
#include "core/EngineSnapshot.h"
#include "ui/SettingsPage.h"

#include <QMap>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTreeWidget;

namespace cohort {

class SettingsComputePage : public SettingsPage {
    Q_OBJECT
public:
    explicit SettingsComputePage(QWidget *parent = nullptr);

    void load(const SettingsValues &values) override;
    void apply(SettingsValues &values) const override;
    QList<SettingsError> check(const SettingsValues &values) const override;
    void refresh() override;

    // False when `gpus` are the ones listed already (snapshots come 4 times a second; the list changes only when
    // GPUs come or go).
    bool isNewGpuList(const QList<GpuSample> &gpus) const;
    // Lists `gpus`, keeping the choice and the shares the fields show now.
    void setGpus(const QList<GpuSample> &gpus);

private:
    // One row per GPU: ticked when Cohort may use it, and its own memory share (0: the share for every GPU).
    void fillGpuList(const QList<GpuSample> &gpus, const QStringList &chosen, const QMap<QString, int> &shares);
    void addGpuRow(const QString &uuid, const QString &text, bool chosen, int share);
    void updateGpuRows(); // "use all" ticks every row and locks the ticks; the shares stay editable
    static QString gpuChoiceNote();
    QStringList chosenGpus() const;
    QMap<QString, int> gpuShares() const;

    QCheckBox *m_useAllGpus = nullptr;
    QTreeWidget *m_gpuList = nullptr;
    QLabel *m_gpuNote = nullptr;
    QCheckBox *m_idleOnly = nullptr;
    QSpinBox *m_idleMinutes = nullptr;
    QCheckBox *m_pauseOnBattery = nullptr;
    QLineEdit *m_schedule = nullptr; // windows separated by ';'
    QCheckBox *m_pauseWhenFullscreen = nullptr;
    QLineEdit *m_pauseForPrograms = nullptr; // executable names separated by ';'
    QCheckBox *m_pauseWhenGpuBusy = nullptr;
    QSpinBox *m_gpuTempLimit = nullptr;
    QSpinBox *m_gpuPowerLimit = nullptr;
    QSpinBox *m_gpuMemory = nullptr;
    QList<GpuSample> m_gpus; // the last ones the engine reported
};

} // namespace cohort

#pragma once
// The machine description sent with registration and heartbeats (GPU details arrive with the NVML loader).
#include <QJsonObject>
#include <QString>

namespace cohort {

struct ComputeInfo {
    QString description;  // "CPU (LibTorch 1.13.1, 2 threads)"
    QJsonObject json;
};

ComputeInfo probeCompute(); // runs a tiny LibTorch self-test; call off the GUI thread
QJsonObject hardwareInventory(const ComputeInfo &compute, qint64 memTotalBytes);

} // namespace cohort

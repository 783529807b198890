#pragma once
// Turns SIGINT/SIGTERM (POSIX) or Ctrl+C / console close (Windows) into a Qt signal on the main thread,
// so cohortd and cohort-hub shut down through the same clean path as "Quit".
#include <QObject>

namespace cohort {

class TerminationSignals : public QObject {
    Q_OBJECT
public:
    explicit TerminationSignals(QObject *parent = nullptr);
    ~TerminationSignals() override;

Q_SIGNALS:
    void terminationRequested(int signalNumber);

private:
    struct Impl;
    Impl *d;
};

} // namespace cohort

#pragma once
// A collectives master with its own event loop on its own thread, so a test's threads can make blocking
// communicator calls against it. Counts the peers it refused and admitted.
#include "collectives/Master.h"

#include <QHostAddress>
#include <QThread>
#include <atomic>

namespace cohort::test {

struct MasterInThread {
    QThread thread;
    collectives::Master *master = nullptr;
    uint16_t port = 0;
    std::atomic<int> refused{0};
    std::atomic<int> admitted{0};

    explicit MasterInThread(collectives::MasterOptions options = {})
    {
        master = new collectives::Master(std::move(options));
        QObject::connect(
            master, &collectives::Master::peerRefused, master, [this] { ++refused; }, Qt::DirectConnection);
        QObject::connect(
            master, &collectives::Master::peerAdmitted, master, [this] { ++admitted; }, Qt::DirectConnection);
        master->moveToThread(&thread);
        thread.start();
        QMetaObject::invokeMethod(
            master,
            [this] {
                if (master->listen(QHostAddress::LocalHost, 0))
                    port = master->port();
            },
            Qt::BlockingQueuedConnection);
    }
    ~MasterInThread()
    {
        QMetaObject::invokeMethod(
            master, [this] { delete master; }, Qt::BlockingQueuedConnection);
        thread.quit();
        thread.wait();
    }
};

} // namespace cohort::test

#pragma once
// What the master knows of one connection (Master.cpp, MasterLiveness.cpp, MasterSync.cpp): private to the master.
#include "collectives/Master.h"
#include "collectives/Wire.h"

#include <QHostAddress>
#include <QTcpSocket>
#include <QTimer>

namespace cohort::collectives {

struct Master::Peer {
    enum class Phase { AwaitHello, AwaitProof, Pending, Member, Closing };
    QTcpSocket *socket = nullptr;
    FrameDecoder decoder{Channel::ToMaster};
    Phase phase = Phase::AwaitHello;
    uint32_t id = 0;
    QByteArray publicKey;
    QByteArray nonce;
    uint16_t p2pPort = 0;
    QHostAddress address;
    QTimer *handshakeTimer = nullptr;
    ConnectionClock *clock = nullptr; // the gate's deadlines; a child of the socket
};

} // namespace cohort::collectives

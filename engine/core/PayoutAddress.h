#pragma once
// Payout addresses (EVM style, "0x" + 40 hex digits): one set of rules for the settings page, the node and the hub.
// A mixed-case address must carry a correct EIP-55 checksum, which catches typos; all lower or all upper case
// carries none and is taken as it is.
#include <QString>

namespace cohort::payout {

// Empty when `address` is a valid payout address, else why not (format, or a checksum that does not match).
QString addressProblem(const QString &address);
// The EIP-55 mixed-case form of a valid 0x address (Keccak-256 of the lower-case hex).
QString checksummed(const QString &address);
// For logs: the first 6 and last 4 characters ("0x5aAe…eAed"), so a person can recognise their address without
// the log holding it; "(none)" when empty.
QString redacted(const QString &address);

} // namespace cohort::payout

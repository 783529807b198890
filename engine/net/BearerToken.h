#pragma once
// "Authorization: Bearer <token>" checks for the tokens that unlock private views: the control API's (control.json)
// and a hub operator's (a file named on cohort-hub's command line).
#include "core/Expected.h"

#include <QByteArray>
#include <QString>

namespace cohort {

// True if `authorization` is "Bearer <token>" for this token; compared in constant time. An empty token never matches.
bool bearerTokenMatches(const QByteArray &authorization, const QByteArray &token);

// A token from a file an operator wrote (cohort-hub --operator-token-file, cohortd --control-token-file): one line of
// 32 to 512 printable characters without blanks, e.g. from `openssl rand -hex 32`. The error says what is wrong, in
// words for people, without repeating the file's contents.
Expected<QByteArray> readTokenFile(const QString &path);

} // namespace cohort

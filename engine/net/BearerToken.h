#pragma once
// "Authorization: Bearer <token>" checks for the tokens that unlock private views: the control API's (control.json)
// and a hub operator's (a file named on cohort-hub's command line).
#include <QByteArray>

namespace cohort {

// True if `authorization` is "Bearer <token>" for this token; compared in constant time. An empty token never matches.
bool bearerTokenMatches(const QByteArray &authorization, const QByteArray &token);

} // namespace cohort

// SIGTERM and SIGINT end the node with status 0 in every state it can be in (issue 14), as in
// the other three servers (Go stop_signals.go, Rust stop_signals.rs, Java StopSignals.java).
// WatchStopSignals runs first in main: it blocks both signals in the main thread, so every
// thread started after it inherits the block, and one thread takes them with sigwait. Until
// StopSignalsServing is called the server is still starting (reading its configuration, its
// write-ahead log, replaying it): it has acknowledged nothing, and its data dir is as a kill -9
// at that moment would leave it, which the log's reader must take anyway; so it exits at once.
// Before this, a signal in that window took the default action (the process ended by it).
#pragma once

#include <functional>

namespace replicant::server {

// Call first in main, before any other thread exists.
void WatchStopSignals();

// The server is up: a stop signal from now on runs `stop` (given "SIGTERM" or "SIGINT"; it
// must end the process).
void StopSignalsServing(std::function<void(const char*)> stop);

}  // namespace replicant::server

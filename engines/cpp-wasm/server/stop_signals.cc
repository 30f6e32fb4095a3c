#include "stop_signals.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace replicant::server {
namespace {

std::mutex serving_mu;
std::function<void(const char*)> serving_stop;  // guarded by serving_mu

sigset_t StopSignalSet() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

void WatchStopSignals() {
  // A write to a peer that has gone, or to a stderr whose reader (a parent) has died, must fail
  // with EPIPE, not end the process: from the first line, so that the start-up stop's own log
  // line cannot kill it either.
  std::signal(SIGPIPE, SIG_IGN);
  const sigset_t set = StopSignalSet();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([set] {
    int sig = 0;
    while (sigwait(&set, &sig) != 0) {
    }
    const char* name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    std::function<void(const char*)> stop;
    {
      std::lock_guard<std::mutex> lk(serving_mu);
      stop = serving_stop;
    }
    if (stop) stop(name);
    std::fprintf(stderr, "replicant-server: stopping on %s during start-up\n", name);
    std::fflush(stderr);
    _exit(0);
  }).detach();
}

void StopSignalsServing(std::function<void(const char*)> stop) {
  std::lock_guard<std::mutex> lk(serving_mu);
  serving_stop = std::move(stop);
}

}  // namespace replicant::server

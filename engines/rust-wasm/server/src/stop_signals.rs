//! SIGTERM and SIGINT end the node with status 0 in every state it can be in (issue 14), as in
//! the other three servers (Go `stop_signals.go`, C++ `stop_signals.cc`, Java
//! `StopSignals.java`). `watch` runs first in `main`: it blocks both signals in the main thread,
//! so every thread started after it (Tokio's too) inherits the block, and one thread takes them
//! with `sigwait`. Until the server calls `serving` it is still starting (reading its
//! configuration, its write-ahead log, replaying it): it has acknowledged nothing, and its data
//! dir is as a kill -9 at that moment would leave it, which the log's reader must take anyway;
//! so it exits at once. Before this, a signal in that window took the default action (the
//! process ended by the signal).
use std::sync::OnceLock;

type Stop = Box<dyn Fn(&'static str) + Send + Sync>;

static SERVING_STOP: OnceLock<Stop> = OnceLock::new();

fn stop_signal_set() -> libc::sigset_t {
    // SAFETY: sigemptyset/sigaddset initialise the set they are given.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        set
    }
}

/// Call first in `main`, before any other thread exists.
pub fn watch() {
    let set = stop_signal_set();
    // SAFETY: blocks two signals in the calling thread; the set is valid.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    let spawned = std::thread::Builder::new().name("stop-signals".into()).spawn(move || {
        let mut sig: libc::c_int = 0;
        // SAFETY: waits on a valid set of blocked signals.
        while unsafe { libc::sigwait(&set, &mut sig) } != 0 {}
        let name = if sig == libc::SIGINT { "SIGINT" } else { "SIGTERM" };
        match SERVING_STOP.get() {
            Some(stop) => stop(name),
            None => {
                crate::log_line::write_stderr(&format!("replicant-server: stopping on {name} during start-up"));
                std::process::exit(0);
            }
        }
    });
    if let Err(e) = spawned {
        crate::config::die(&format!("cannot start the signal thread: {e}"));
    }
}

/// The server is up: a stop signal from now on runs `stop` (which ends the process).
pub fn serving(stop: impl Fn(&'static str) + Send + Sync + 'static) {
    let _ = SERVING_STOP.set(Box::new(stop));
}

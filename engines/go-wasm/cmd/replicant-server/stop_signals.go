package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals ends the node with status 0 on SIGTERM or SIGINT in every state it can be in
// (issue 14), as the other three servers do (Rust stop_signals.rs, C++ stop_signals.cc, Java
// StopSignals.java). watchStopSignals runs first in main. Until serving is called the server
// is still starting (reading its configuration, its write-ahead log, replaying it): it has
// acknowledged nothing, and its data dir is as a kill -9 at that moment would leave it, which
// the log's reader must take anyway; so it exits at once. Before this, a signal in that window
// took Go's default action (the process ended by the signal).
type stopSignals struct {
	signals chan os.Signal
	up      chan struct{}
}

func watchStopSignals() *stopSignals {
	w := &stopSignals{signals: make(chan os.Signal, 1), up: make(chan struct{})}
	// A parent that died takes the read end of our stderr with it; Go would then end the
	// process by SIGPIPE at its next log line, this one included. Ignored, the write fails with
	// EPIPE and the stop still exits 0 (the other servers behave the same).
	signal.Ignore(syscall.SIGPIPE)
	signal.Notify(w.signals, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-w.signals:
			fmt.Fprintf(os.Stderr, "replicant-server: stopping on %s during start-up\n", signalName(sig))
			os.Exit(0)
		case <-w.up:
		}
	}()
	return w
}

// serving says the server is up, and waits for the stop signal; it returns its name.
func (w *stopSignals) serving() string {
	close(w.up)
	return signalName(<-w.signals)
}

func signalName(sig os.Signal) string {
	if sig == syscall.SIGINT {
		return "SIGINT"
	}
	return "SIGTERM"
}

package replicant.server;

/**
 * SIGTERM and SIGINT end the node with status 0 in every state it can be in (issue 14), as in
 * the other three servers (Go stop_signals.go, Rust stop_signals.rs, C++ stop_signals.cc).
 * {@link #watch} runs first in main. Until {@link #serving} is called the server is still
 * starting (reading its configuration, its write-ahead log, replaying it): it has acknowledged
 * nothing, and its data dir is as a kill -9 at that moment would leave it, which the log's
 * reader must take anyway; so it exits at once. Before this, a signal in that window got the
 * JVM's default (status 143), or the default action if the JVM itself was still starting; that
 * last window, before main runs, no Java code can close.
 *
 * <p>The start-up path uses no lambda and no string concatenation: both bootstrap through
 * invokedynamic, which loads dozens of classes the first time, slow on a starved machine.
 */
final class StopSignals {
    private StopSignals() {}

    /** What a stop signal does once the server is up; it ends the process. */
    interface Stop {
        void stop(String signalName);
    }

    private static volatile Stop serving;

    private static final class Handler implements sun.misc.SignalHandler {
        private final String signalName;

        Handler(String signalName) {
            this.signalName = signalName;
        }

        @Override
        public void handle(sun.misc.Signal sig) {
            Stop stop = serving;
            if (stop != null) stop.stop(signalName);
            System.err.println("replicant-server: stopping on ".concat(signalName).concat(" during start-up"));
            System.exit(0);
        }
    }

    /** Call first in main. */
    static void watch() {
        sun.misc.Signal.handle(new sun.misc.Signal("TERM"), new Handler("SIGTERM"));
        sun.misc.Signal.handle(new sun.misc.Signal("INT"), new Handler("SIGINT"));
    }

    /** The server is up: a stop signal from now on runs {@code stop}. */
    static void serving(Stop stop) {
        serving = stop;
    }
}

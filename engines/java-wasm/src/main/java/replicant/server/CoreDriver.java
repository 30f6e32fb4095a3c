package replicant.server;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import replicant.core.Messages.Effect;
import replicant.core.Messages.Event;
import replicant.core.Messages.TimerName;
import replicant.core.Node;

/**
 * The core behind its lock, with its two timers (docs/protocol.md, "Native servers", "Steady
 * leadership").
 *
 * <p>Any thread that takes the lock delivers the timers that are due, so a leader's heartbeat
 * never waits for the timer thread to win the lock against the client and peer threads (a
 * ReentrantLock, like C++'s std::mutex, hands no turn to the longest waiter). And events reach
 * the core in the order they happened, judged by the time each was read off its socket: a timer
 * that came due before a message arrived goes first, one that came due while the message waited
 * for the lock goes after it. Otherwise a follower whose heartbeat arrived in time but waited
 * behind client work would see its election timer first and start an election against a live
 * leader.
 */
final class CoreDriver {
    /** Acts on the core's effects other than timers; called with the lock held. */
    interface Effects {
        void dispatch(List<Effect> effects);
    }

    private static final long NONE = Long.MAX_VALUE;

    /** Held around every call into the core; package-private for the server's own bookkeeping. */
    final ReentrantLock lock = new ReentrantLock();
    private final Node node;
    private final LongSupplier nanoClock;
    private final Status.DriverCounters counters;
    private Effects effects = list -> {};

    /** Guarded by lock: which timers are armed and their deadlines on nanoClock. */
    private final boolean[] armed = new boolean[TimerName.values().length];
    private final long[] deadlineNanos = new long[TimerName.values().length];
    /** The earliest armed deadline (NONE when no timer is armed); the timer thread reads it unlocked. */
    private volatile long nextDeadlineNanos = NONE;
    private final Object wake = new Object();

    /**
     * nanoClock is System::nanoTime in the server (its origin lies near the machine's uptime, so
     * plain comparisons cannot overflow); tests pass their own.
     */
    CoreDriver(Node node, LongSupplier nanoClock, Status.DriverCounters counters) {
        this.node = node;
        this.nanoClock = nanoClock;
        this.counters = counters;
    }

    void setEffects(Effects effects) {
        this.effects = effects;
    }

    long now() {
        return nanoClock.getAsLong();
    }

    /** Steps the core with an event read at receivedNanos, taking the lock. */
    void step(Event ev, long receivedNanos) {
        lock.lock();
        try {
            stepLocked(ev, receivedNanos);
        } finally {
            lock.unlock();
        }
    }

    /** The same with the lock already held. */
    void stepLocked(Event ev, long receivedNanos) {
        deliverDueLocked(receivedNanos);
        apply(node.step(ev));
        deliverDueLocked(now());
    }

    /** Steps an event the server makes itself (restart), with the lock held. */
    void stepNowLocked(Event ev) {
        apply(node.step(ev));
    }

    String inspect() {
        lock.lock();
        try {
            return node.inspect();
        } finally {
            lock.unlock();
        }
    }

    /** What a status line needs from the core (Node.statusFields), under the lock for as short as that takes. */
    String statusFields() {
        lock.lock();
        try {
            return node.statusFields();
        } finally {
            lock.unlock();
        }
    }

    /** Delivers every timer due by now (what the timer thread does when it wins the lock). */
    void deliverDue() {
        lock.lock();
        try {
            deliverDueLocked(now());
        } finally {
            lock.unlock();
        }
    }

    /** The deadline of an armed timer, or -1 (tests). */
    long deadlineOf(TimerName t) {
        lock.lock();
        try {
            return armed[t.ordinal()] ? deadlineNanos[t.ordinal()] : -1;
        } finally {
            lock.unlock();
        }
    }

    private void apply(List<Effect> list) {
        for (Effect e : list) {
            switch (e.type) {
                case SET_TIMER:
                    armed[e.timer.ordinal()] = true;
                    deadlineNanos[e.timer.ordinal()] = now() + e.delayUs * 1000;
                    publishNextDeadline();
                    break;
                case CANCEL_TIMER:
                    armed[e.timer.ordinal()] = false;
                    publishNextDeadline();
                    break;
                default:
                    break;
            }
        }
        effects.dispatch(list);
    }

    /** Steps the core with each timer whose deadline is at or before upTo, earliest first. */
    private void deliverDueLocked(long upTo) {
        if (upTo < nextDeadlineNanos) return;
        for (;;) {
            int due = -1;
            for (int t = 0; t < armed.length; t++) {
                if (armed[t] && deadlineNanos[t] <= upTo && (due < 0 || deadlineNanos[t] < deadlineNanos[due])) due = t;
            }
            if (due < 0) return;
            armed[due] = false;
            publishNextDeadline();
            counters.noteTimerLateUs(Math.max(0, (now() - deadlineNanos[due]) / 1000));
            apply(node.step(Event.timer(TimerName.values()[due])));
        }
    }

    private void publishNextDeadline() {
        long next = NONE;
        for (int t = 0; t < armed.length; t++) {
            if (armed[t]) next = Math.min(next, deadlineNanos[t]);
        }
        nextDeadlineNanos = next;
        synchronized (wake) {
            wake.notifyAll();
        }
    }

    /** The timer thread: sleeps until the earliest deadline, then delivers what no step has. */
    void runTimers() {
        try {
            for (;;) {
                synchronized (wake) {
                    for (long next = nextDeadlineNanos, now = now(); now < next; next = nextDeadlineNanos, now = now()) {
                        if (next == NONE) wake.wait();
                        else TimeUnit.NANOSECONDS.timedWait(wake, next - now);
                    }
                }
                deliverDue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package replicant.core;

/**
 * One slot of the replicated log. Immutable: a state change makes a new Instance, so a copy
 * held elsewhere (a candidate's merged log, the replay queue) never changes under its holder,
 * as with Go's value-typed instances.
 */
public final class Instance {
    public enum State {
        IN_PROGRESS("in_progress"), COMMITTED("committed"), EXECUTED("executed");

        public final String wire;

        State(String wire) {
            this.wire = wire;
        }
    }

    public final long ballot;
    public final long index;
    public final long clientId;
    public final long requestId;
    public final State state;
    public final Command command;

    public Instance(long ballot, long index, long clientId, long requestId, State state, Command command) {
        this.ballot = ballot;
        this.index = index;
        this.clientId = clientId;
        this.requestId = requestId;
        this.state = state;
        this.command = command;
    }

    public Instance withState(State s) {
        return new Instance(ballot, index, clientId, requestId, s, command);
    }

    public Instance withBallot(long b) {
        return new Instance(b, index, clientId, requestId, state, command);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof Instance)) return false;
        Instance i = (Instance) o;
        return ballot == i.ballot && index == i.index && clientId == i.clientId && requestId == i.requestId
                && state == i.state && command.equals(i.command);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(index) * 31 + Long.hashCode(ballot);
    }
}

package replicant.core;

import java.util.HashMap;

import replicant.core.Messages.Message;
import replicant.core.Messages.MessageType;
import replicant.core.Messages.TimerName;
import replicant.core.Messages.Trace;
import replicant.core.Messages.TraceKind;
import replicant.core.Node.AcceptPhase;
import replicant.core.Node.ClientRequest;
import replicant.core.Node.CommitRound;
import replicant.core.Node.PreparePhase;

/**
 * The protocol handlers, in the order of docs/protocol.md ("The protocol"). Every effect is
 * emitted in the order that document gives. Static methods over a {@link Node}, as the Go
 * reference's multipaxos.go holds methods on *Node.
 */
final class MultiPaxos {
    private MultiPaxos() {}

    static int peerBit(long id) {
        return 1 << id;
    }

    // --- trace helpers (nothing is built when tracing is off) ---

    private static void traceBallot(Node n, TraceKind kind, long ballot) {
        if (!n.cfg.trace) return;
        Trace t = new Trace(kind);
        t.ballot = ballot;
        n.trace(t);
    }

    private static void traceValue(Node n, TraceKind kind, long value) {
        if (!n.cfg.trace) return;
        Trace t = new Trace(kind);
        t.value = value;
        n.trace(t);
    }

    /** Adopts a higher ballot seen from a peer. */
    static void becomeFollower(Node n, long b) {
        if (b <= n.ballot || Ballot.leaderOf(b) == n.cfg.id) return;
        boolean wasLeader = n.isLeader();
        boolean hadLeader = Ballot.leaderOf(n.ballot) != Ballot.NO_LEADER;
        n.ballot = b;
        if (n.cfg.trace) {
            Trace t = new Trace(TraceKind.FOLLOWER);
            t.ballot = b;
            t.leader = Ballot.leaderOf(b);
            n.trace(t);
        }
        abandonElection(n);
        if (wasLeader) {
            n.cancelTimer(TimerName.COMMIT);
            for (AcceptPhase ph : n.sortedAccepts()) {
                if (ph.client != null) n.reply(ph.client, Command.Result.leaderIs(Ballot.leaderOf(b)));
            }
            n.accepts.clear();
            n.replayQueue.clear();
            n.commitRound = null;
            Mitigation.leaveLeadership(n);
        }
        if (wasLeader || !hadLeader) n.setTimer(TimerName.ELECTION, n.electionDelayUs());
    }

    static void becomeLeader(Node n, long b, long maxLastIndex, HashMap<Long, Instance> merged, long backoff) {
        n.log.setLastIndexAtLeast(maxLastIndex);
        n.ballot = b;
        // the election's own wait bounds the round trip; the leader waits as long for answers
        n.leaderBackoff = backoff;
        n.quorumBackoff = backoff;
        n.electionBackoff = 0;
        n.quorumTick = 0;
        java.util.Arrays.fill(n.heardTick, 0);
        boolean skipExecuted = skipsExecutedReplay(n);
        Mitigation.becomeLeader(n);
        n.commitGle = n.log.globalLastExecuted();
        for (Node.RepairStream s : n.repairs) clearStream(s);
        if (n.cfg.trace) {
            Trace t = new Trace(TraceKind.LEADER);
            t.ballot = b;
            t.lastIndex = n.log.lastIndex();
            n.trace(t);
        }
        n.cancelTimer(TimerName.ELECTION);
        trimAndOpenCommitRound(n);
        n.setTimer(TimerName.COMMIT, n.cfg.commitIntervalUs);
        startReplay(n, merged, skipExecuted);
    }

    // --- election ---

    static void onElectionTimer(Node n) {
        if (n.isLeader()) return;
        n.leaseHeld = n.commitReceived;
        if (Mitigation.onElectionTimer(n)) return;
        if (n.commitReceived) {
            n.commitReceived = false;
            n.setTimer(TimerName.ELECTION, n.electionDelayUs());
            return;
        }
        if (n.prepare != null && n.prepare.progressed) {
            // bounded elections: a phase still hearing answers is slow, not failed
            n.prepare.progressed = false;
            n.setTimer(TimerName.ELECTION, n.electionDelayUs());
            return;
        }
        startElection(n);
    }

    /** Steps 3-6 of the election timer: a handoff's target runs them at once. */
    static void startElection(Node n) {
        abandonElection(n);
        long b = Ballot.nextBallot(Math.max(n.ballot, n.lastPrepareBallot), n.cfg.id);
        n.lastPrepareBallot = b;
        n.counters.elections++;
        PreparePhase p = new PreparePhase();
        p.ballot = b;
        p.promises = 1;
        p.merged = n.log.copy();
        p.maxLastIndex = n.log.lastIndex();
        p.backoff = n.electionBackoff;
        traceBallot(n, TraceKind.ELECTION, b);
        if (p.promises >= n.majority()) {
            becomeLeader(n, b, p.maxLastIndex, p.merged, p.backoff);
            return;
        }
        n.prepare = p;
        Message m = new Message(MessageType.PREPARE_REQUEST);
        m.ballot = b;
        if (n.cfg.electionBatch > 0) {
            // everything up to our last_executed is chosen and held (or trimmed: executed
            // everywhere) in our own log, which the merged log starts from: no promise needs it
            m.fromIndex = n.log.lastExecuted() + 1;
            java.util.Arrays.fill(p.asked, m.fromIndex);
        }
        p.channelId = n.broadcast(m);
        n.setTimer(TimerName.ELECTION, n.electionDelayUs());
    }

    /** Closes this node's open prepare phase, if it has one: says so in the trace and counts the lost election. */
    static void abandonElection(Node n) {
        if (n.prepare == null) return;
        long abandoned = n.prepare.ballot;
        n.prepare = null;
        traceBallot(n, TraceKind.ELECTION_ABANDONED, abandoned);
        n.loseElection();
    }

    static void onPrepareRequest(Node n, Message m) {
        if (m.fromIndex > 0 && m.fromIndex <= n.log.globalLastExecuted()) {
            // The candidate has not executed everything this node trimmed: a promise from here
            // could not carry those chosen entries, and the candidate would fill them with no-ops
            // (docs/protocol.md, "Log bound"). Refused whatever the ballot, which stays as it is;
            // a leader also sends the candidate a snapshot, as it would to a follower that far behind.
            refusePrepare(n, m);
            // this node's own next election goes above the refused one: an up-to-date node must
            // be able to outbid a behind candidate whose crossing prepares it keeps refusing
            n.lastPrepareBallot = Math.max(n.lastPrepareBallot, m.ballot);
            if (n.isLeader() && n.cfg.repairBatch > 0) {
                clearStream(n.repairs[(int) m.from]);
                Snapshot.send(n, m.from);
            }
            return;
        }
        if (m.fromIndex > 0 && m.ballot == n.ballot && Ballot.leaderOf(m.ballot) == m.from) {
            // the candidate this node promised asks for the next chunk of that promise
            n.respond(m, promiseChunk(n, m.fromIndex));
            return;
        }
        if (m.ballot > n.ballot && !campaignsAbove(n, m.ballot) && (!n.inLease() || Mitigation.handoffPrepare(n, m))) {
            // becomeFollower re-arms the election timer only for a node that led or knew no
            // leader; one that promises gives the candidate a whole election delay in every case
            boolean rearm = !n.isLeader() && Ballot.leaderOf(n.ballot) != Ballot.NO_LEADER;
            becomeFollower(n, m.ballot);
            if (rearm) n.setTimer(TimerName.ELECTION, n.electionDelayUs());
            if (m.fromIndex > 0) {
                n.respond(m, promiseChunk(n, m.fromIndex));
                return;
            }
            Message r = new Message(MessageType.PREPARE_RESPONSE);
            r.ok = true;
            r.ballot = n.ballot;
            r.instances = n.log.instances(); // every stored slot is above gle
            n.respond(m, r);
            return;
        }
        refusePrepare(n, m);
    }

    /**
     * Answers a prepare with a refusal: this node's ballot, so that the candidate can go above
     * it, and the request's fromIndex, so that the candidate can match the answer.
     */
    static void refusePrepare(Node n, Message m) {
        Message refusal = new Message(MessageType.PREPARE_RESPONSE);
        refusal.ok = false;
        refusal.ballot = n.ballot;
        refusal.fromIndex = m.fromIndex;
        n.respond(m, refusal);
    }

    /**
     * Whether this node's own open prepare phase has a ballot above b. With bounded elections
     * such a candidate refuses b instead of abandoning its phase for it: when two candidates'
     * prepares cross, the higher ballot wins that round, where both used to give up and try
     * again (docs/protocol.md, "Bounded elections").
     */
    static boolean campaignsAbove(Node n, long b) {
        return n.cfg.electionBatch > 0 && n.prepare != null && n.prepare.ballot > b;
    }

    /**
     * One bounded part of a promise: the stored instances from index {@code from} on, at most
     * electionBatch of them (all when 0), and where the next chunk starts (0: none).
     */
    static Message promiseChunk(Node n, long from) {
        Message r = new Message(MessageType.PREPARE_RESPONSE);
        r.ok = true;
        r.ballot = n.ballot;
        r.fromIndex = from;
        java.util.ArrayList<Instance> chunk = new java.util.ArrayList<>();
        for (Instance inst : n.log.instances()) {
            if (inst.index < from) continue;
            if (n.cfg.electionBatch > 0 && chunk.size() == n.cfg.electionBatch) {
                r.nextIndex = inst.index;
                break;
            }
            chunk.add(inst);
        }
        r.instances = chunk;
        return r;
    }

    static void onPrepareResponse(Node n, Message m) {
        PreparePhase p = n.prepare;
        if (p == null || m.channelId != p.channelId || (p.answered & peerBit(m.from)) != 0
                || m.fromIndex != p.asked[(int) m.from]) {
            n.counters.staleResponses++;
            return;
        }
        if (!m.ok) {
            abandonElection(n);
            becomeFollower(n, m.ballot);
            return;
        }
        for (Instance inst : m.instances) {
            if (Log.insertInto(p.merged, inst) == Log.InsertOutcome.VIOLATION) {
                n.changes.add(new Log.Change(Log.ChangeKind.VIOLATION, inst, Log.REASON_COMMAND_MISMATCH));
            }
            p.maxLastIndex = Math.max(p.maxLastIndex, inst.index);
        }
        n.applyChanges();
        p.progressed = n.cfg.electionBatch > 0;
        if (m.nextIndex != 0) {
            // a chunk of a longer promise: ask this peer alone for the next one, on the same channel
            p.asked[(int) m.from] = m.nextIndex;
            Message next = new Message(MessageType.PREPARE_REQUEST);
            next.from = n.cfg.id;
            next.to = m.from;
            next.channelId = p.channelId;
            next.ballot = p.ballot;
            next.fromIndex = m.nextIndex;
            n.send(next);
            return;
        }
        p.answered |= peerBit(m.from);
        p.promises++;
        if (p.promises >= n.majority()) {
            n.prepare = null;
            mergeOwnLogAgain(n, p);
            if (holesToFill(n.log.globalLastExecuted(), p.maxLastIndex, p.merged) > MAX_FILL) {
                // a promise reported an index no run of leaders could have left that far beyond
                // every other entry (a forged or corrupt frame): leading would propose that many
                // no-ops and wait at the index for ever. Refusing the phase is as safe as losing
                // its messages; the election timer tries again.
                traceBallot(n, TraceKind.ELECTION_ABANDONED, p.ballot);
                n.loseElection();
                n.badEvent();
                return;
            }
            becomeLeader(n, p.ballot, p.maxLastIndex, p.merged, p.backoff);
        }
    }

    /**
     * Bounds the no-ops a new leader proposes (docs/protocol.md, Replay): sixteen full windows of
     * the servers' 4,096 pending accepts. Holes are indexes a leader assigned that no promise
     * holds; each leader leaves at most its window of them, and the next leader fills them.
     */
    public static final long MAX_FILL = 65536;

    /**
     * The indexes after gle, up to maxLastIndex, that merged lacks: the no-ops fillHoles would
     * add. Counted over merged, not over the indexes: the range may be huge.
     */
    static long holesToFill(long gle, long maxLastIndex, HashMap<Long, Instance> merged) {
        if (maxLastIndex <= gle) return 0;
        long held = 0;
        for (long index : merged.keySet()) {
            if (index > gle && index <= maxLastIndex) held++;
        }
        return maxLastIndex - gle - held;
    }

    /**
     * Takes the candidate's own promise as it wins rather than only when the phase opened:
     * until then its acceptor still voted for the old leader, whose commands those votes may
     * have chosen (docs/protocol.md, Election). Once leader it accepts nothing below.
     */
    static void mergeOwnLogAgain(Node n, PreparePhase p) {
        for (Instance inst : n.log.instances()) {
            if (Log.insertInto(p.merged, inst) == Log.InsertOutcome.VIOLATION) {
                n.changes.add(new Log.Change(Log.ChangeKind.VIOLATION, inst, Log.REASON_COMMAND_MISMATCH));
            }
        }
        p.maxLastIndex = Math.max(p.maxLastIndex, n.log.lastIndex());
        n.applyChanges();
    }

    // --- replay ---

    /**
     * A new leader, with bounded elections and repair, replays only above its own last_executed.
     * Those entries are chosen (it executed them); re-proposing them served only lagging peers,
     * which repair serves from their reported last_executed (docs/protocol.md, Replay, "Skipping
     * the executed prefix").
     */
    static boolean skipsExecutedReplay(Node n) {
        return n.cfg.electionBatch > 0 && n.cfg.repairBatch > 0;
    }

    static void startReplay(Node n, HashMap<Long, Instance> merged, boolean skipExecuted) {
        fillHoles(n, merged);
        n.replayQueue.clear();
        n.replayQueue.addAll(Log.sortedInstances(merged.values()));
        if (skipExecuted) {
            // what this leader executed is chosen and reaches lagging peers by repair
            while (!n.replayQueue.isEmpty() && n.replayQueue.peekFirst().index <= n.log.lastExecuted()) n.replayQueue.pollFirst();
        }
        if (n.replayQueue.isEmpty()) return;
        if (n.cfg.trace) {
            Trace t = new Trace(TraceKind.REPLAY);
            t.count = n.replayQueue.size();
            t.fromIndex = n.replayQueue.peekFirst().index;
            t.toIndex = n.replayQueue.peekLast().index;
            n.trace(t);
        }
        // one entry at a time (the paper's); with bounded elections electionBatch at once, each
        // commit starting the next, so the window stays full
        long window = Math.max(n.cfg.electionBatch, 1);
        for (long i = 0; i < window && !n.replayQueue.isEmpty() && n.isLeader(); i++) replayNext(n);
    }

    /**
     * Puts a no-op into merged at every index after gle, up to the last index any promise
     * reported, that no promise holds. Nothing can have been chosen there (a chosen entry sits on
     * a majority, and every majority shares a node with the promises), yet without an entry the
     * executor would wait at that index for ever (docs/protocol.md, Replay).
     */
    static void fillHoles(Node n, HashMap<Long, Instance> merged) {
        long count = 0, from = 0, to = 0;
        for (long i = n.log.globalLastExecuted() + 1; i <= n.log.lastIndex(); i++) {
            if (merged.containsKey(i)) continue;
            merged.put(i, new Instance(n.ballot, i, 0, 0, Instance.State.IN_PROGRESS, Command.noop()));
            if (count == 0) from = i;
            count++;
            to = i;
        }
        if (count > 0 && n.cfg.trace) {
            Trace t = new Trace(TraceKind.FILL);
            t.count = count;
            t.fromIndex = from;
            t.toIndex = to;
            n.trace(t);
        }
    }

    static void replayNext(Node n) {
        Instance old = n.replayQueue.pollFirst();
        if (old == null) return;
        Instance inst = new Instance(n.ballot, old.index, old.clientId, old.requestId, Instance.State.IN_PROGRESS,
                old.command);
        startAccept(n, inst, null, true);
    }

    // --- accept ---

    static void startAccept(Node n, Instance inst, ClientRequest client, boolean replay) {
        n.log.append(inst, n.changes);
        n.applyChanges();
        AcceptPhase ph = new AcceptPhase();
        ph.instance = inst;
        ph.votes = 1;
        ph.client = client;
        ph.replay = replay;
        if (ph.votes >= n.majority()) {
            accepted(n, ph);
            return;
        }
        ph.channelId = n.broadcast(acceptRequest(inst));
        n.accepts.put(ph.channelId, ph);
    }

    private static Message acceptRequest(Instance inst) {
        Message m = new Message(MessageType.ACCEPT_REQUEST);
        m.instance = inst;
        return m;
    }

    static void accepted(Node n, AcceptPhase ph) {
        n.accepts.remove(ph.channelId);
        n.log.commit(ph.instance.index, n.changes);
        n.applyChanges();
        if (ph.client != null) n.awaiting.put(ph.instance.index, ph.client);
        execute(n);
        if (ph.replay) replayNext(n);
    }

    /**
     * Ends an accept phase that timed out or met a stale reject: its client is told to retry,
     * and the slot is proposed again so the executor never waits on a hole.
     */
    static void failWhileLeader(Node n, AcceptPhase ph) {
        n.accepts.remove(ph.channelId);
        if (ph.client != null) {
            n.reply(ph.client, Command.Result.RETRY);
            ph.client = null;
        }
        ph.votes = 1;
        ph.answered = 0;
        ph.ticks = 0;
        ph.channelId = n.broadcast(acceptRequest(ph.instance));
        n.accepts.put(ph.channelId, ph);
    }

    static void onClientCommand(Node n, ClientRequest c, String line) {
        n.counters.clientCommands++;
        Command cmd = Command.parse(line);
        if (cmd == null) {
            n.reply(c, Command.Result.BAD_COMMAND);
        } else if (n.gc.phase != Mitigation.Phase.IDLE && Mitigation.clientReply(n, c)) {
            return;
        } else if (n.isLeader()) {
            if (n.accepts.size() >= n.cfg.maxPendingAccepts) {
                n.reply(c, Command.Result.RETRY);
                return;
            }
            Instance inst = new Instance(n.ballot, n.log.advanceLastIndex(), c.clientId, c.requestId,
                    Instance.State.IN_PROGRESS, cmd);
            startAccept(n, inst, c, false);
        } else if (Ballot.leaderOf(n.ballot) != Ballot.NO_LEADER) {
            n.reply(c, Command.Result.leaderIs(Ballot.leaderOf(n.ballot)));
        } else {
            n.reply(c, Command.Result.RETRY);
        }
    }

    static void onAcceptRequest(Node n, Message m) {
        Instance inst = m.instance;
        Message r = new Message(MessageType.ACCEPT_RESPONSE);
        if (inst.ballot < n.ballot) {
            r.ok = false;
            r.ballot = n.ballot;
            n.respond(m, r);
            return;
        }
        n.log.append(inst, n.changes);
        n.applyChanges();
        if (inst.ballot > n.ballot) becomeFollower(n, inst.ballot);
        r.ok = true;
        r.ballot = n.ballot;
        n.respond(m, r);
        askForGap(n, m.from, inst.index);
    }

    /**
     * A follower that accepts an entry whose predecessor it neither executed nor holds has lost an
     * accept, and asks the sender at once with the message its heartbeat answer is (a
     * commit_response on channel 0, its last_executed) instead of waiting for the next heartbeat.
     * It asks once per last_executed, so a burst of later accepts over the same gap asks once.
     */
    static void askForGap(Node n, long leader, long index) {
        long next = n.log.lastExecuted() + 1;
        if (n.cfg.repairBatch == 0 || n.isLeader() || index <= next || n.gapAskedFrom == next) return;
        if (n.log.get(index - 1) != null) return;
        n.gapAskedFrom = next;
        Message ask = new Message(MessageType.COMMIT_RESPONSE);
        ask.from = n.cfg.id;
        ask.to = leader;
        ask.ok = true;
        ask.ballot = n.ballot;
        ask.lastExecuted = next - 1;
        n.send(ask);
    }

    static void onAcceptResponse(Node n, Message m) {
        AcceptPhase ph = n.accepts.get(m.channelId);
        if (ph == null || (ph.answered & peerBit(m.from)) != 0) {
            n.counters.staleResponses++;
            repairAcknowledged(n, m);
            return;
        }
        ph.answered |= peerBit(m.from);
        if (m.ok) {
            ph.votes++;
            if (ph.votes >= n.majority()) accepted(n, ph);
            return;
        }
        becomeFollower(n, m.ballot);
        if (n.isLeader()) failWhileLeader(n, ph);
    }

    // --- check-quorum ---

    /**
     * The nodes (this one included) heard within the last windowTicks heartbeats. A new leader's
     * peers count as heard at its tick 0, which gives every peer one full window to answer.
     */
    static long heardWithin(Node n, long windowTicks) {
        long heard = 1;
        for (int p = 0; p < n.heardTick.length; p++) {
            if (p != n.cfg.id && n.heardTick[p] + windowTicks >= n.quorumTick) heard++;
        }
        return heard;
    }

    /**
     * Ends a leadership that no majority answers: the ballot keeps its round but names no leader,
     * so heartbeats stop and a connected majority elects a new leader.
     */
    static void stepDown(Node n, long heard) {
        if (n.cfg.trace) {
            Trace t = new Trace(TraceKind.STEP_DOWN);
            t.ballot = n.ballot;
            t.count = heard;
            t.value = (Config.QUORUM_WINDOW_TICKS << n.quorumBackoff) * n.cfg.commitIntervalUs;
            n.trace(t);
        }
        n.ballot = (n.ballot & ~0xffL) | Ballot.NO_LEADER;
        n.cancelTimer(TimerName.COMMIT);
        for (AcceptPhase ph : n.sortedAccepts()) {
            if (ph.client != null) n.reply(ph.client, Command.Result.RETRY);
        }
        n.accepts.clear();
        n.replayQueue.clear();
        n.commitRound = null;
        Mitigation.leaveLeadership(n);
        n.commitReceived = false;
        n.leaseHeld = false;
        n.setTimer(TimerName.ELECTION, n.electionDelayUs());
    }

    // --- commit (heartbeat, learning, trimming) ---

    static void onCommitTimer(Node n) {
        if (!n.isLeader()) return;
        if (n.cfg.checkQuorum) {
            n.quorumTick++;
            long window = Config.QUORUM_WINDOW_TICKS << n.quorumBackoff;
            long heard = heardWithin(n, window);
            if (heard < n.majority()) {
                stepDown(n, heard);
                return;
            }
            // the stretched window only covers the first answers' round trip; once answers flow
            // as often as the plain window asks, a lost majority is noticed as fast as ever
            if (n.quorumBackoff > 0 && n.quorumTick >= window
                    && heardWithin(n, Config.QUORUM_WINDOW_TICKS) >= n.majority()) {
                n.quorumBackoff = 0;
            }
        }
        Mitigation.handoffTick(n);
        n.commitRound = null;
        for (AcceptPhase ph : n.sortedAccepts()) {
            ph.ticks++;
            if (ph.ticks >= n.cfg.acceptTimeoutTicks << n.leaderBackoff) {
                n.counters.acceptTimeouts++;
                if (n.cfg.trace) {
                    Trace t = new Trace(TraceKind.ACCEPT_TIMEOUT);
                    t.index = ph.instance.index;
                    t.ballot = ph.instance.ballot;
                    n.trace(t);
                }
                failWhileLeader(n, ph);
            }
        }
        Mitigation.grantTicks(n);
        trimAndOpenCommitRound(n);
        n.setTimer(TimerName.COMMIT, n.cfg.commitIntervalUs);
    }

    static void trimAndOpenCommitRound(Node n) {
        long floor = boundFloor(n, n.log.lastExecuted());
        if (floor > n.commitGle) learnGle(n, floor); // a peer that has not answered holds trimming back no further
        trimUntil(n, n.commitGle);
        long lastExecuted = n.log.lastExecuted();
        if (n.cfg.numPeers == 1) {
            learnGle(n, lastExecuted);
            return;
        }
        Message m = new Message(MessageType.COMMIT_REQUEST);
        m.ballot = n.ballot;
        m.lastExecuted = lastExecuted;
        m.globalLastExecuted = n.commitGle;
        CommitRound r = new CommitRound();
        r.channelId = n.broadcast(m);
        r.minLastExecuted = lastExecuted;
        r.lastExecuted = lastExecuted;
        n.commitRound = r;
    }

    static void trimUntil(Node n, long g) {
        if (n.log.trimUntil(g)) traceValue(n, TraceKind.TRIM, n.log.globalLastExecuted());
    }

    /**
     * The gle a leader keeps at least with a log bound: last_executed − log_bound (0 without a
     * bound or below it).
     */
    static long boundFloor(Node n, long lastExecuted) {
        if (n.cfg.logBound == 0 || lastExecuted <= n.cfg.logBound) return 0;
        return lastExecuted - n.cfg.logBound;
    }

    static void learnGle(Node n, long g) {
        if (g != n.commitGle) {
            n.commitGle = g;
            traceValue(n, TraceKind.COMMIT_GLE, g);
        }
    }

    static void onCommitRequest(Node n, Message m) {
        Message r = new Message(MessageType.COMMIT_RESPONSE);
        if (m.ballot < n.ballot) {
            r.ok = false;
            r.ballot = n.ballot;
            n.respond(m, r);
            return;
        }
        n.commitReceived = true;
        n.electionBackoff = 0; // a leader is seen: elections are back to their base delay
        n.log.commitUntil(m.lastExecuted, m.ballot, n.changes);
        n.applyChanges();
        execute(n);
        trimUntil(n, m.globalLastExecuted);
        if (m.ballot > n.ballot) becomeFollower(n, m.ballot);
        r.ok = true;
        r.ballot = n.ballot;
        r.lastExecuted = n.log.lastExecuted();
        n.respond(m, r);
        Mitigation.afterCommitRequest(n);
    }

    static void onCommitResponse(Node n, Message m) {
        if (m.channelId == 0 && n.isLeader() && n.cfg.repairBatch > 0 && m.ok && m.from < Ballot.MAX_NUM_PEERS) {
            onGapAsk(n, m);
            return;
        }
        CommitRound r = n.commitRound;
        if (r == null || m.channelId != r.channelId || (r.answered & peerBit(m.from)) != 0) {
            n.counters.staleResponses++;
            return;
        }
        r.answered |= peerBit(m.from);
        if (!m.ok) {
            n.commitRound = null;
            becomeFollower(n, m.ballot);
            return;
        }
        r.answeredCount++;
        n.gc.peerExecuted[(int) m.from] = m.lastExecuted;
        r.minLastExecuted = Math.min(r.minLastExecuted, m.lastExecuted);
        if (m.lastExecuted < r.lastExecuted && n.cfg.repairBatch > 0) {
            if (m.lastExecuted < n.log.globalLastExecuted()) {
                clearStream(n.repairs[(int) m.from]);
                Snapshot.send(n, m.from); // what it needs next is trimmed here
            } else {
                repair(n, m.from, m.lastExecuted + 1, r.lastExecuted);
            }
        }
        if (r.answeredCount == n.cfg.numPeers - 1) {
            n.commitRound = null;
            learnGle(n, Math.max(r.minLastExecuted, boundFloor(n, r.lastExecuted)));
        }
    }

    // --- repair ---

    /**
     * Answers a follower's ask (askForGap) as its heartbeat answer would be answered, unless a
     * repair batch to it is already in flight: that stream reaches the gap by itself.
     */
    static void onGapAsk(Node n, Message m) {
        if (n.repairs[(int) m.from].awaiting > 0 || m.lastExecuted >= n.log.lastExecuted()) return;
        if (m.lastExecuted < n.log.globalLastExecuted()) {
            clearStream(n.repairs[(int) m.from]);
            Snapshot.send(n, m.from);
            return;
        }
        repair(n, m.from, m.lastExecuted + 1, n.log.lastExecuted());
    }

    /**
     * Re-sends to peer, as accept requests under this leader's ballot, the entries from `from` up
     * to upTo: it lacked them (a lost accept) or held them from an older ballot (stale). At most
     * repairBatch at a time, on one channel id whose answers match no accept phase; when all of
     * them are acknowledged the next batch follows (repairAcknowledged). The next heartbeat
     * commits them.
     */
    static void repair(Node n, long peer, long from, long upTo) {
        Node.RepairStream stream = n.repairs[(int) peer];
        clearStream(stream);
        java.util.ArrayList<Instance> batch = new java.util.ArrayList<>();
        for (long i = from; i <= upTo && batch.size() < n.cfg.repairBatch; i++) {
            Instance inst = n.log.get(i);
            // trimmed, or still being replayed (the replay will send it)
            if (inst == null || (inst.ballot != n.ballot && i > n.log.lastExecuted())) break;
            // An executed entry is chosen, so it goes out under this leader's ballot whatever
            // ballot wrote it: a follower that promised this ballot refuses an older one, and an
            // entry a previous term of this leader chose is never replayed.
            batch.add(inst.withBallot(n.ballot).withState(Instance.State.IN_PROGRESS));
        }
        if (batch.isEmpty()) return;
        if (n.cfg.trace) {
            Trace t = new Trace(TraceKind.REPAIR);
            t.leader = peer;
            t.fromIndex = batch.get(0).index;
            t.toIndex = batch.get(batch.size() - 1).index;
            n.trace(t);
        }
        long channel = ++n.nextChannelId;
        for (Instance inst : batch) {
            Message m = new Message(MessageType.ACCEPT_REQUEST);
            m.from = n.cfg.id;
            m.to = peer;
            m.channelId = channel;
            m.instance = inst;
            n.send(m);
        }
        stream.channelId = channel;
        stream.toIndex = batch.get(batch.size() - 1).index;
        stream.awaiting = batch.size();
    }

    /**
     * Counts an accept_response to a repair batch; the last one of the batch sends the next, up
     * to this leader's last_executed (every entry up to it is chosen). A refusal or a lost answer
     * ends the stream; the next heartbeat answer starts it again.
     */
    static void repairAcknowledged(Node n, Message m) {
        if (!n.isLeader() || m.from >= Ballot.MAX_NUM_PEERS) return;
        Node.RepairStream s = n.repairs[(int) m.from];
        if (s.awaiting == 0 || m.channelId != s.channelId) return;
        if (!m.ok) {
            clearStream(s);
            return;
        }
        if (--s.awaiting == 0) repair(n, m.from, s.toIndex + 1, n.log.lastExecuted());
    }

    private static void clearStream(Node.RepairStream s) {
        s.channelId = 0;
        s.toIndex = 0;
        s.awaiting = 0;
    }

    // --- executor ---

    static void execute(Node n) {
        for (;;) {
            Instance inst = n.log.nextExecutable();
            if (inst == null) return;
            Command.Result result = n.kv.apply(inst.command);
            n.log.markExecuted();
            n.counters.executed++;
            if (n.cfg.trace) {
                Trace t = new Trace(TraceKind.EXECUTE);
                t.index = inst.index;
                t.result = result.type;
                n.trace(t);
            }
            ClientRequest c = n.awaiting.remove(inst.index);
            if (c != null) n.reply(c, result);
        }
    }

    static void onMessage(Node n, Message m) {
        switch (m.type) {
            case PREPARE_REQUEST:
                onPrepareRequest(n, m);
                break;
            case PREPARE_RESPONSE:
                onPrepareResponse(n, m);
                break;
            case ACCEPT_REQUEST:
                onAcceptRequest(n, m);
                break;
            case ACCEPT_RESPONSE:
                onAcceptResponse(n, m);
                break;
            case COMMIT_REQUEST:
                onCommitRequest(n, m);
                break;
            case COMMIT_RESPONSE:
                onCommitResponse(n, m);
                break;
            case SNAPSHOT:
                Snapshot.onSnapshot(n, m);
                break;
            case GC_REQUEST:
                Mitigation.onGcRequest(n, m);
                break;
            case GC_GRANT:
                Mitigation.onGcGrant(n, m);
                break;
            case GC_RELEASE:
                Mitigation.onGcRelease(n, m);
                break;
            case HANDOFF:
                Mitigation.onHandoff(n, m);
                break;
        }
    }
}

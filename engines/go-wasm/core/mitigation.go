package core

import "errors"

// GC mitigation (docs/protocol.md, "GC mitigation"): what a node does when its runtime says a
// collection is coming. BLADE asks before collecting (at most f nodes at once) and moves the
// leadership away first; MITMEM answers busy to requests it would hold past their deadline.
// The core never collects: it tells the driver when (a collect effect), and hears gc_done.

type Mitigation uint8

const (
	MitigationNone Mitigation = iota // collect at once, the paper's behaviour
	MitigationBlade
	MitigationMitmem
	MitigationBoth
)

var mitigationNames = [...]string{"none", "blade", "mitmem", "both"}

func (m Mitigation) String() string { return mitigationNames[m] }

// ParseMitigation reads a mode name (a server flag).
func ParseMitigation(s string) (Mitigation, error) {
	if m, ok := parseMitigation(s); ok {
		return m, nil
	}
	return 0, errors.New(`mitigation must be "none", "blade", "mitmem" or "both"`)
}

func parseMitigation(s string) (Mitigation, bool) {
	for i, name := range mitigationNames {
		if s == name {
			return Mitigation(i), true
		}
	}
	return 0, false
}

func (m Mitigation) blade() bool  { return m == MitigationBlade || m == MitigationBoth }
func (m Mitigation) mitmem() bool { return m == MitigationMitmem || m == MitigationBoth }

type gcPhase uint8

const (
	gcIdle       gcPhase = iota
	gcWaiting            // a follower that wants permission (asked, or waits for a leader)
	gcHandingOff         // a leader waiting for its successor's election
	gcCollecting         // the driver was told to collect
)

// handoffTimeoutTicks: heartbeats a handing-off leader waits for its successor before it
// collects as leader.
const handoffTimeoutTicks = 2

// gcGrantSlackTicks: heartbeats a grant may outlive its predicted pause before it expires.
const gcGrantSlackTicks = 2

type gcGrant struct {
	peer, channelID, ticks, allowedTicks uint64
}

type gcAsk struct{ peer, channelID, pauseUs uint64 }

// gcState is one node's part in the mitigation.
type gcState struct {
	phase        gcPhase
	pauseUs      uint64
	channelID    uint64 // this node's ask; 0: not sent yet
	granted      bool   // the collection runs under a grant, to be released at gc_done
	grantLeader  uint64
	grantBallot  uint64
	grantChannel uint64
	handoffTicks uint64
	// the last handoff heard: its successor's prepare passes the lease
	handoffBallot uint64
	handoffTarget uint64
	// the grants the last handoff passed on (a bit per peer) and the most heartbeats any of
	// them may still be held; the target keeps them as its own when it wins
	inheritedCollecting uint64
	inheritedTicks      uint64
	// leader state
	grants        []gcGrant
	queue         []gcAsk
	peerExecuted  []uint64 // each peer's last_executed, from its latest commit_response
	collectedSeq  []uint64 // grant order: higher collected more recently
	nextCollected uint64
}

// maxCollecting is f: with at most this many nodes collecting, a majority still answers.
func (n *Node) maxCollecting() uint64 { return (n.cfg.NumPeers - 1) / 2 }

func (n *Node) onGcPending(pauseUs uint64) {
	g := &n.gc
	if g.phase != gcIdle {
		return
	}
	g.pauseUs = pauseUs
	if !n.cfg.Mitigation.blade() || n.cfg.NumPeers == 1 {
		n.collect()
		return
	}
	if n.isLeader() {
		n.handOff()
		return
	}
	g.phase, g.channelID = gcWaiting, 0
	if LeaderOf(n.ballot) != NoLeader {
		n.askToCollect()
	}
}

func (n *Node) collect() {
	n.gc.phase = gcCollecting
	n.effects = append(n.effects, Effect{Type: EffectCollect, PauseUs: n.gc.pauseUs})
}

func (n *Node) askToCollect() {
	g := &n.gc
	n.nextChannelID++
	g.channelID = n.nextChannelID
	n.trace(Trace{Kind: TraceGcAsk, Leader: LeaderOf(n.ballot)})
	n.sendAsk()
}

func (n *Node) sendAsk() {
	n.send(Message{Type: GcRequest, From: n.cfg.ID, To: LeaderOf(n.ballot), ChannelID: n.gc.channelID,
		Ballot: n.ballot, PauseUs: n.gc.pauseUs})
}

// handOff asks the most up-to-date peer without a grant (then the one that collected most
// recently, then the lowest id) to take over; with none, the leader collects where it is.
func (n *Node) handOff() {
	g := &n.gc
	target, found := uint64(0), false
	for p := uint64(0); p < n.cfg.NumPeers; p++ {
		if p == n.cfg.ID || n.grantIndex(p) >= 0 || n.queuedIndex(p) >= 0 {
			continue
		}
		if !found || g.peerExecuted[p] > g.peerExecuted[target] ||
			(g.peerExecuted[p] == g.peerExecuted[target] && g.collectedSeq[p] > g.collectedSeq[target]) {
			target, found = p, true
		}
	}
	if !found {
		n.collect()
		return
	}
	g.phase, g.handoffTicks = gcHandingOff, 0
	g.handoffBallot, g.handoffTarget = n.ballot, target
	collecting, ticks := uint64(0), uint64(0)
	for _, gr := range g.grants {
		collecting |= 1 << gr.peer
		ticks = max(ticks, gr.allowedTicks-gr.ticks)
	}
	n.trace(Trace{Kind: TraceHandoff, Leader: target})
	n.broadcast(Message{Type: Handoff, Ballot: n.ballot, Target: target, Collecting: collecting, CollectingTicks: ticks,
		LastExecuted: n.log.LastExecuted()})
}

func (n *Node) onHandoff(m *Message) {
	if m.Ballot != n.ballot {
		n.counters.StaleResponses++
		return
	}
	n.gc.handoffBallot, n.gc.handoffTarget = m.Ballot, m.Target
	n.gc.inheritedCollecting, n.gc.inheritedTicks = m.Collecting, m.CollectingTicks
	// the old leader's commit point, committed as its heartbeat would: only entries stored at
	// its ballot (each holds the value chosen there), so the target asks from above it
	n.log.CommitUntil(m.LastExecuted, m.Ballot, &n.changes)
	n.applyChanges()
	n.execute()
	if m.Target == n.cfg.ID {
		n.startElection()
	}
}

// handoffPrepare: a prepare from the successor a leader named, at a node still under that
// leader's ballot, is not refused by the lease (the leader asked for this election).
func (n *Node) handoffPrepare(m *Message) bool {
	return n.gc.handoffBallot != 0 && n.ballot == n.gc.handoffBallot && m.From == n.gc.handoffTarget
}

// gcLeaveLeadership drops the leader's grants and queue; a leader that was handing off now
// waits for its successor's first heartbeat to ask for permission.
func (n *Node) gcLeaveLeadership() {
	g := &n.gc
	g.grants, g.queue = g.grants[:0], g.queue[:0]
	if g.phase == gcHandingOff {
		g.phase, g.channelID = gcWaiting, 0
	}
}

// takesOverFromHandoff: this node is winning the election a handoff asked it to start.
func (n *Node) takesOverFromHandoff() bool {
	g := &n.gc
	return g.handoffBallot != 0 && g.handoffTarget == n.cfg.ID && n.ballot > g.handoffBallot
}

// gcBecomeLeader starts the leader state afresh, except that a handoff's target keeps the
// grants its predecessor passed on (their holders may still be collecting: granting others
// at once would let more than f collect together right after the handoff).
func (n *Node) gcBecomeLeader() {
	g := &n.gc
	clear(g.peerExecuted)
	clear(g.collectedSeq)
	g.grants, g.queue = g.grants[:0], g.queue[:0]
	if n.takesOverFromHandoff() {
		for p := uint64(0); p < n.cfg.NumPeers; p++ {
			if g.inheritedCollecting&(1<<p) != 0 && p != n.cfg.ID && uint64(len(g.grants)) < n.maxCollecting() {
				g.grants = append(g.grants, gcGrant{peer: p, allowedTicks: g.inheritedTicks})
			}
		}
	}
	g.inheritedCollecting, g.inheritedTicks = 0, 0
}

// gcAfterCommitRequest: a waiting node that had no leader to ask asks the one it now hears.
func (n *Node) gcAfterCommitRequest() {
	if n.gc.phase == gcWaiting && n.gc.channelID == 0 && LeaderOf(n.ballot) != NoLeader && !n.isLeader() {
		n.askToCollect()
	}
}

// gcOnElectionTimer runs at a follower's election timer; true means the step is done.
func (n *Node) gcOnElectionTimer() bool {
	g := &n.gc
	if g.phase != gcWaiting {
		return false
	}
	if n.commitReceived && LeaderOf(n.ballot) != NoLeader {
		if g.channelID == 0 {
			n.askToCollect()
		} else {
			n.sendAsk()
		}
		return false
	}
	// a whole election delay without a heartbeat: nobody will answer the ask
	n.trace(Trace{Kind: TraceGcTimeout})
	n.collect()
	n.setTimer(TimerElection, n.electionDelayUs())
	return true
}

// gcHandoffTick runs at a leader's heartbeat, after check-quorum. A node that won while it
// waited to collect (a handoff's target) hands off here, not as it wins: by now the asks of
// peers about to collect have arrived and hold grants or queue places, so it does not hand the
// leadership straight back to one of them (with every heap growing in step, two nodes would
// pass it to and fro and serve nothing).
func (n *Node) gcHandoffTick() {
	g := &n.gc
	if g.phase == gcWaiting {
		g.phase = gcIdle
		n.handOff()
		return
	}
	if g.phase != gcHandingOff {
		return
	}
	g.handoffTicks++
	if g.handoffTicks >= handoffTimeoutTicks {
		n.trace(Trace{Kind: TraceGcTimeout})
		n.collect()
	}
}

func (n *Node) gcGrantTicks() {
	g := &n.gc
	kept := g.grants[:0]
	for _, gr := range g.grants {
		gr.ticks++
		if gr.ticks >= gr.allowedTicks {
			n.trace(Trace{Kind: TraceGcGrantExpired, Leader: gr.peer})
			continue
		}
		kept = append(kept, gr)
	}
	g.grants = kept
	n.grantFromQueue()
}

func (n *Node) grantIndex(peer uint64) int {
	for i, gr := range n.gc.grants {
		if gr.peer == peer {
			return i
		}
	}
	return -1
}

func (n *Node) queuedIndex(peer uint64) int {
	for i, a := range n.gc.queue {
		if a.peer == peer {
			return i
		}
	}
	return -1
}

func (n *Node) onGcRequest(m *Message) {
	g := &n.gc
	if !n.isLeader() || m.Ballot != n.ballot {
		n.counters.StaleResponses++
		return
	}
	if i := n.grantIndex(m.From); i >= 0 {
		g.grants[i].channelID = m.ChannelID
		n.respond(m, Message{Type: GcGrant, Ballot: n.ballot})
		return
	}
	if n.queuedIndex(m.From) >= 0 {
		return
	}
	ask := gcAsk{peer: m.From, channelID: m.ChannelID, pauseUs: m.PauseUs}
	if uint64(len(g.grants)) < n.maxCollecting() {
		n.grant(ask)
		return
	}
	g.queue = append(g.queue, ask)
	n.trace(Trace{Kind: TraceGcQueued, Leader: m.From, Count: uint64(len(g.queue))})
}

func (n *Node) grant(a gcAsk) {
	g := &n.gc
	g.nextCollected++
	g.collectedSeq[a.peer] = g.nextCollected
	ci := n.cfg.CommitIntervalUs
	g.grants = append(g.grants, gcGrant{peer: a.peer, channelID: a.channelID,
		allowedTicks: (a.pauseUs+ci-1)/ci + gcGrantSlackTicks})
	n.trace(Trace{Kind: TraceGcGrant, Leader: a.peer})
	n.send(Message{Type: GcGrant, From: n.cfg.ID, To: a.peer, ChannelID: a.channelID, Ballot: n.ballot})
}

func (n *Node) grantFromQueue() {
	g := &n.gc
	for uint64(len(g.grants)) < n.maxCollecting() && len(g.queue) > 0 {
		a := g.queue[0]
		g.queue = g.queue[1:]
		n.grant(a)
	}
}

func (n *Node) onGcGrant(m *Message) {
	g := &n.gc
	if m.Ballot != n.ballot {
		n.counters.StaleResponses++
		return
	}
	if g.phase != gcWaiting || m.ChannelID != g.channelID {
		// not needed any more (it timed out and collected, or finished): free the slot
		n.counters.StaleResponses++
		n.respond(m, Message{Type: GcRelease, Ballot: m.Ballot})
		return
	}
	g.granted, g.grantLeader, g.grantBallot, g.grantChannel = true, m.From, m.Ballot, m.ChannelID
	n.collect()
}

func (n *Node) onGcDone() {
	g := &n.gc
	if g.phase != gcCollecting {
		return
	}
	g.phase = gcIdle
	n.trace(Trace{Kind: TraceGcDone})
	if g.granted {
		g.granted = false
		// after a leadership change the grant lives on at the new leader (a handoff passes it
		// on): release it there, or it would hold a slot until it expires
		to, ballot := g.grantLeader, g.grantBallot
		if l := LeaderOf(n.ballot); n.ballot != g.grantBallot && l != NoLeader && l != n.cfg.ID {
			to, ballot = l, n.ballot
		}
		n.send(Message{Type: GcRelease, From: n.cfg.ID, To: to, ChannelID: g.grantChannel, Ballot: ballot})
	}
}

func (n *Node) onGcRelease(m *Message) {
	g := &n.gc
	i := -1
	if n.isLeader() && m.Ballot == n.ballot {
		i = n.grantIndex(m.From)
	}
	if i < 0 {
		n.counters.StaleResponses++
		return
	}
	g.grants = append(g.grants[:i], g.grants[i+1:]...)
	n.trace(Trace{Kind: TraceGcRelease, Leader: m.From})
	n.grantFromQueue()
}

// gcClientReply: MITMEM answers busy when the request would wait out a pause longer than its
// deadline; a handing-off leader tells clients to retry (its successor is taking over).
func (n *Node) gcClientReply() (Result, bool) {
	g := &n.gc
	if n.cfg.Mitigation.mitmem() && g.phase == gcCollecting && g.pauseUs > n.cfg.MitmemDeadlineUs {
		return Result{Type: ResultBusy, PauseUs: g.pauseUs}, true
	}
	if g.phase == gcHandingOff && n.isLeader() {
		return Result{Type: ResultRetry}, true
	}
	return Result{}, false
}

// gcClientReplyInto answers c if the mitigation decides its reply.
func (n *Node) gcClientReplyInto(c clientRequest) bool {
	r, ok := n.gcClientReply()
	if ok {
		n.reply(c, r)
	}
	return ok
}

func (n *Node) checkGcInvariants(fail func(string, ...any)) {
	g := &n.gc
	if uint64(len(g.grants)) > n.maxCollecting() {
		fail("%d grants held, more than f = %d", len(g.grants), n.maxCollecting())
	}
	if !n.isLeader() && (len(g.grants) > 0 || len(g.queue) > 0 || g.phase == gcHandingOff) {
		fail("a follower holds GC leader state")
	}
}

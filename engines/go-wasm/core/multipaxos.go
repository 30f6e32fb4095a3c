package core

// The protocol handlers, in the order of docs/protocol.md ("The protocol"). Every effect is
// emitted in the order that document gives; engines in other languages follow it exactly.

func peerBit(id uint64) uint32 { return 1 << id }

// becomeFollower adopts a higher ballot seen from a peer.
func (n *Node) becomeFollower(b uint64) {
	if b <= n.ballot || LeaderOf(b) == n.cfg.ID {
		return
	}
	wasLeader := n.isLeader()
	hadLeader := LeaderOf(n.ballot) != NoLeader
	n.ballot = b
	n.trace(Trace{Kind: TraceFollower, Ballot: b, Leader: LeaderOf(b)})
	n.abandonElection()
	if wasLeader {
		n.cancelTimer(TimerCommit)
		for _, ph := range n.sortedAccepts() {
			if ph.client != nil {
				n.reply(*ph.client, Result{Type: ResultLeaderIs, Leader: LeaderOf(b)})
			}
		}
		clear(n.accepts)
		n.replayQueue = nil
		n.commitRound = nil
		n.gcLeaveLeadership()
	}
	if wasLeader || !hadLeader {
		n.setTimer(TimerElection, n.electionDelayUs())
	}
}

func (n *Node) becomeLeader(b, maxLastIndex uint64, merged map[uint64]Instance, backoff uint64) {
	n.log.SetLastIndexAtLeast(maxLastIndex)
	n.ballot = b
	// the election's own wait bounds the round trip; the leader waits as long for answers
	n.leaderBackoff = backoff
	n.quorumBackoff = backoff
	n.electionBackoff = 0
	n.quorumTick = 0
	clear(n.heardTick)
	skipExecuted := n.skipsExecutedReplay()
	n.gcBecomeLeader()
	n.commitGle = n.log.GlobalLastExecuted()
	n.repairs = [MaxNumPeers]repairStream{}
	n.trace(Trace{Kind: TraceLeader, Ballot: b, LastIndex: n.log.LastIndex()})
	n.cancelTimer(TimerElection)
	n.trimAndOpenCommitRound()
	n.setTimer(TimerCommit, n.cfg.CommitIntervalUs)
	n.startReplay(merged, skipExecuted)
}

// --- election ---

func (n *Node) onElectionTimer() {
	if n.isLeader() {
		return
	}
	n.leaseHeld = n.commitReceived
	if n.gcOnElectionTimer() {
		return
	}
	if n.commitReceived {
		n.commitReceived = false
		n.setTimer(TimerElection, n.electionDelayUs())
		return
	}
	if n.prepare != nil && n.prepare.progressed {
		// bounded elections: a phase still hearing answers is slow, not failed
		n.prepare.progressed = false
		n.setTimer(TimerElection, n.electionDelayUs())
		return
	}
	n.startElection()
}

// startElection is steps 3–6 of the election timer: a handoff's target runs them at once.
func (n *Node) startElection() {
	n.abandonElection()
	b := NextBallot(max(n.ballot, n.lastPrepareBallot), n.cfg.ID)
	n.lastPrepareBallot = b
	n.counters.Elections++
	p := &preparePhase{ballot: b, promises: 1, merged: n.log.Copy(), maxLastIndex: n.log.LastIndex(), backoff: n.electionBackoff}
	n.trace(Trace{Kind: TraceElection, Ballot: b})
	if p.promises >= n.majority() {
		n.becomeLeader(b, p.maxLastIndex, p.merged, p.backoff)
		return
	}
	n.prepare = p
	var from uint64
	if n.cfg.ElectionBatch > 0 {
		// everything up to our last_executed is chosen and held (or trimmed: executed
		// everywhere) in our own log, which the merged log starts from: no promise needs it
		from = n.log.LastExecuted() + 1
		for i := range p.asked {
			p.asked[i] = from
		}
	}
	p.channelID = n.broadcast(Message{Type: PrepareRequest, Ballot: b, FromIndex: from})
	n.setTimer(TimerElection, n.electionDelayUs())
}

// abandonElection closes this node's open prepare phase, if it has one: says so in the trace and
// counts the lost election (loseElection).
func (n *Node) abandonElection() {
	if n.prepare != nil {
		abandoned := n.prepare.ballot
		n.prepare = nil
		n.trace(Trace{Kind: TraceElectionAbandoned, Ballot: abandoned})
		n.loseElection()
	}
}

func (n *Node) onPrepareRequest(m *Message) {
	if m.FromIndex > 0 && m.FromIndex <= n.log.GlobalLastExecuted() {
		// The candidate has not executed everything this node trimmed: a promise from here
		// could not carry those chosen entries, and the candidate would fill them with no-ops
		// (docs/protocol.md, "Log bound"). Refused whatever the ballot, which stays as it is; a
		// leader also sends the candidate a snapshot, as it would to a follower that far behind.
		n.refusePrepare(m)
		// this node's own next election goes above the refused one: an up-to-date node must be
		// able to outbid a behind candidate whose crossing prepares it keeps refusing
		n.lastPrepareBallot = max(n.lastPrepareBallot, m.Ballot)
		if n.isLeader() && n.cfg.RepairBatch > 0 {
			n.repairs[m.From] = repairStream{}
			n.sendSnapshot(m.From)
		}
		return
	}
	if m.FromIndex > 0 && m.Ballot == n.ballot && LeaderOf(m.Ballot) == m.From {
		// the candidate this node promised asks for the next chunk of that promise
		n.respond(m, n.promiseChunk(m.FromIndex))
		return
	}
	if m.Ballot > n.ballot && !n.campaignsAbove(m.Ballot) && (!n.inLease() || n.handoffPrepare(m)) {
		// becomeFollower re-arms the election timer only for a node that led or knew no leader;
		// one that promises gives the candidate a whole election delay in every case
		rearm := !n.isLeader() && LeaderOf(n.ballot) != NoLeader
		n.becomeFollower(m.Ballot)
		if rearm {
			n.setTimer(TimerElection, n.electionDelayUs())
		}
		if m.FromIndex > 0 {
			n.respond(m, n.promiseChunk(m.FromIndex))
		} else {
			n.respond(m, Message{Type: PrepareResponse, Ok: true, Ballot: n.ballot, Instances: n.log.Instances()})
		}
		return
	}
	n.refusePrepare(m)
}

// refusePrepare answers a prepare with a refusal: this node's ballot, so that the candidate can
// go above it, and the request's FromIndex, so that the candidate can match the answer.
func (n *Node) refusePrepare(m *Message) {
	n.respond(m, Message{Type: PrepareResponse, Ok: false, Ballot: n.ballot, FromIndex: m.FromIndex})
}

// campaignsAbove says whether this node's own open prepare phase has a ballot above b. With
// bounded elections such a candidate refuses b instead of abandoning its phase for it: when two
// candidates' prepares cross, the higher ballot wins that round, where both used to give up
// and try again (docs/protocol.md, "Bounded elections").
func (n *Node) campaignsAbove(b uint64) bool {
	return n.cfg.ElectionBatch > 0 && n.prepare != nil && n.prepare.ballot > b
}

// promiseChunk is one bounded part of a promise: the stored instances from index `from` on,
// at most ElectionBatch of them (all when 0), and where the next chunk starts (0: none).
func (n *Node) promiseChunk(from uint64) Message {
	m := Message{Type: PrepareResponse, Ok: true, Ballot: n.ballot, FromIndex: from}
	for _, inst := range n.log.Instances() {
		if inst.Index < from {
			continue
		}
		if n.cfg.ElectionBatch > 0 && uint64(len(m.Instances)) == n.cfg.ElectionBatch {
			m.NextIndex = inst.Index
			break
		}
		m.Instances = append(m.Instances, inst)
	}
	return m
}

func (n *Node) onPrepareResponse(m *Message) {
	p := n.prepare
	if p == nil || m.ChannelID != p.channelID || p.answered&peerBit(m.From) != 0 || m.FromIndex != p.asked[m.From] {
		n.counters.StaleResponses++
		return
	}
	if !m.Ok {
		p.answered |= peerBit(m.From)
		n.abandonElection()
		n.becomeFollower(m.Ballot)
		return
	}
	for _, inst := range m.Instances {
		if insertInto(p.merged, inst) == insertViolation {
			n.changes = append(n.changes, LogChange{Kind: ChangeViolation, Instance: inst, Reason: ReasonCommandMismatch})
		}
		p.maxLastIndex = max(p.maxLastIndex, inst.Index)
	}
	n.applyChanges()
	p.progressed = n.cfg.ElectionBatch > 0
	if m.NextIndex != 0 {
		// a chunk of a longer promise: ask this peer alone for the next one, on the same channel
		p.asked[m.From] = m.NextIndex
		n.send(Message{Type: PrepareRequest, From: n.cfg.ID, To: m.From, ChannelID: p.channelID,
			Ballot: p.ballot, FromIndex: m.NextIndex})
		return
	}
	p.answered |= peerBit(m.From)
	p.promises++
	if p.promises >= n.majority() {
		n.prepare = nil
		n.mergeOwnLogAgain(p)
		if holesToFill(n.log.GlobalLastExecuted(), p.maxLastIndex, p.merged) > MaxFill {
			// a promise reported an index no run of leaders could have left that far beyond
			// every other entry (a forged or corrupt frame): leading would propose that many
			// no-ops and wait at the index for ever. Refusing the phase is as safe as losing
			// its messages; the election timer tries again.
			n.trace(Trace{Kind: TraceElectionAbandoned, Ballot: p.ballot})
			n.loseElection()
			n.badEvent()
			return
		}
		n.becomeLeader(p.ballot, p.maxLastIndex, p.merged, p.backoff)
	}
}

// MaxFill bounds the no-ops a new leader proposes (docs/protocol.md, Replay): sixteen full
// windows of the servers' 4,096 pending accepts. Holes are indexes a leader assigned that no
// promise holds; each leader leaves at most its window of them, and the next leader fills them.
const MaxFill = 65536

// holesToFill counts the indexes after gle, up to maxLastIndex, that merged lacks: the no-ops
// fillHoles would add. Counted over merged, not over the indexes: the range may be huge.
func holesToFill(gle, maxLastIndex uint64, merged map[uint64]Instance) uint64 {
	if maxLastIndex <= gle {
		return 0
	}
	held := uint64(0)
	for i := range merged {
		if i > gle && i <= maxLastIndex {
			held++
		}
	}
	return maxLastIndex - gle - held
}

// mergeOwnLogAgain takes the candidate's own promise as it wins rather than only when the
// phase opened: until then its acceptor still voted for the old leader, whose commands those
// votes may have chosen (docs/protocol.md, Election). Once leader it accepts nothing below.
func (n *Node) mergeOwnLogAgain(p *preparePhase) {
	for _, inst := range n.log.Instances() {
		if insertInto(p.merged, inst) == insertViolation {
			n.changes = append(n.changes, LogChange{Kind: ChangeViolation, Instance: inst, Reason: ReasonCommandMismatch})
		}
	}
	p.maxLastIndex = max(p.maxLastIndex, n.log.LastIndex())
	n.applyChanges()
}

// --- replay ---

// skipsExecutedReplay: a new leader, with bounded elections and repair, replays only above its
// own last_executed. Those entries are chosen (it executed them); re-proposing them served only
// lagging peers, which repair serves from their reported last_executed (docs/protocol.md,
// Replay, "Skipping the executed prefix").
func (n *Node) skipsExecutedReplay() bool {
	return n.cfg.ElectionBatch > 0 && n.cfg.RepairBatch > 0
}

func (n *Node) startReplay(merged map[uint64]Instance, skipExecuted bool) {
	n.fillHoles(merged)
	n.replayQueue = sortedInstances(merged)
	if skipExecuted {
		// what this leader executed is chosen and reaches lagging peers by repair
		for len(n.replayQueue) > 0 && n.replayQueue[0].Index <= n.log.LastExecuted() {
			n.replayQueue = n.replayQueue[1:]
		}
	}
	if len(n.replayQueue) == 0 {
		return
	}
	n.trace(Trace{Kind: TraceReplay, Count: uint64(len(n.replayQueue)),
		FromIndex: n.replayQueue[0].Index, ToIndex: n.replayQueue[len(n.replayQueue)-1].Index})
	// one entry at a time (the paper's); with bounded elections ElectionBatch at once, each
	// commit starting the next, so the window stays full
	window := max(n.cfg.ElectionBatch, 1)
	for i := uint64(0); i < window && len(n.replayQueue) > 0 && n.isLeader(); i++ {
		n.replayNext()
	}
}

// fillHoles puts a no-op into merged at every index after gle, up to the last index any
// promise reported, that no promise holds. Nothing can have been chosen there (a chosen entry
// sits on a majority, and every majority shares a node with the promises), yet without an entry
// the executor would wait at that index for ever (docs/protocol.md, Replay).
func (n *Node) fillHoles(merged map[uint64]Instance) {
	var count, from, to uint64
	for i := n.log.GlobalLastExecuted() + 1; i <= n.log.LastIndex(); i++ {
		if _, ok := merged[i]; ok {
			continue
		}
		merged[i] = Instance{Ballot: n.ballot, Index: i, State: InProgress, Command: Command{Type: CommandNoop}}
		if count == 0 {
			from = i
		}
		count, to = count+1, i
	}
	if count > 0 {
		n.trace(Trace{Kind: TraceFill, Count: count, FromIndex: from, ToIndex: to})
	}
}

func (n *Node) replayNext() {
	if len(n.replayQueue) == 0 {
		return
	}
	old := n.replayQueue[0]
	n.replayQueue = n.replayQueue[1:]
	inst := Instance{Ballot: n.ballot, Index: old.Index, ClientID: old.ClientID, RequestID: old.RequestID,
		State: InProgress, Command: old.Command}
	n.startAccept(inst, nil, true)
}

// --- accept ---

func (n *Node) startAccept(inst Instance, client *clientRequest, replay bool) {
	n.log.Append(inst, &n.changes)
	n.applyChanges()
	ph := &acceptPhase{instance: inst, votes: 1, client: client, replay: replay}
	if ph.votes >= n.majority() {
		n.accepted(ph)
		return
	}
	ph.channelID = n.broadcast(Message{Type: AcceptRequest, Instance: inst})
	n.accepts[ph.channelID] = ph
}

func (n *Node) accepted(ph *acceptPhase) {
	delete(n.accepts, ph.channelID)
	n.log.Commit(ph.instance.Index, &n.changes)
	n.applyChanges()
	if ph.client != nil {
		n.awaiting[ph.instance.Index] = *ph.client
	}
	n.execute()
	if ph.replay {
		n.replayNext()
	}
}

// failWhileLeader ends an accept phase that timed out or met a stale reject: its client is
// told to retry, and the slot is proposed again so the executor never waits on a hole.
func (n *Node) failWhileLeader(ph *acceptPhase) {
	delete(n.accepts, ph.channelID)
	if ph.client != nil {
		n.reply(*ph.client, Result{Type: ResultRetry})
		ph.client = nil
	}
	ph.votes, ph.answered, ph.ticks = 1, 0, 0
	ph.channelID = n.broadcast(Message{Type: AcceptRequest, Instance: ph.instance})
	n.accepts[ph.channelID] = ph
}

func (n *Node) onClientCommand(c clientRequest, line string) {
	n.counters.ClientCommands++
	cmd, ok := ParseCommand(line)
	switch {
	case !ok:
		n.reply(c, Result{Type: ResultBadCommand})
	case n.gc.phase != gcIdle && n.gcClientReplyInto(c):
	case n.isLeader():
		if uint64(len(n.accepts)) >= n.cfg.MaxPendingAccepts {
			n.reply(c, Result{Type: ResultRetry})
			return
		}
		inst := Instance{Ballot: n.ballot, Index: n.log.AdvanceLastIndex(), ClientID: c.clientID,
			RequestID: c.requestID, State: InProgress, Command: cmd}
		n.startAccept(inst, &c, false)
	case LeaderOf(n.ballot) != NoLeader:
		n.reply(c, Result{Type: ResultLeaderIs, Leader: LeaderOf(n.ballot)})
	default:
		n.reply(c, Result{Type: ResultRetry})
	}
}

func (n *Node) onAcceptRequest(m *Message) {
	inst := m.Instance
	if inst.Ballot < n.ballot {
		n.respond(m, Message{Type: AcceptResponse, Ok: false, Ballot: n.ballot})
		return
	}
	n.log.Append(inst, &n.changes)
	n.applyChanges()
	if inst.Ballot > n.ballot {
		n.becomeFollower(inst.Ballot)
	}
	n.respond(m, Message{Type: AcceptResponse, Ok: true, Ballot: n.ballot})
	n.askForGap(m.From, inst.Index)
}

// askForGap: a follower that accepts an entry whose predecessor it neither executed nor holds
// has lost an accept, and asks the sender at once with the message its heartbeat answer is (a
// commit_response on channel 0, its last_executed) instead of waiting for the next heartbeat.
// It asks once per last_executed, so a burst of later accepts over the same gap asks once.
func (n *Node) askForGap(leader, index uint64) {
	next := n.log.LastExecuted() + 1
	if n.cfg.RepairBatch == 0 || n.isLeader() || index <= next || n.gapAskedFrom == next {
		return
	}
	if _, held := n.log.Get(index - 1); held {
		return
	}
	n.gapAskedFrom = next
	n.send(Message{Type: CommitResponse, From: n.cfg.ID, To: leader, Ok: true, Ballot: n.ballot, LastExecuted: next - 1})
}

func (n *Node) onAcceptResponse(m *Message) {
	ph := n.accepts[m.ChannelID]
	if ph == nil || ph.answered&peerBit(m.From) != 0 {
		n.counters.StaleResponses++
		n.repairAcknowledged(m)
		return
	}
	ph.answered |= peerBit(m.From)
	if m.Ok {
		ph.votes++
		if ph.votes >= n.majority() {
			n.accepted(ph)
		}
		return
	}
	n.becomeFollower(m.Ballot)
	if n.isLeader() {
		n.failWhileLeader(ph)
	}
}

// --- commit (heartbeat, learning, trimming) ---

func (n *Node) onCommitTimer() {
	if !n.isLeader() {
		return
	}
	if n.cfg.CheckQuorum {
		n.quorumTick++
		window := uint64(QuorumWindowTicks) << n.quorumBackoff
		if heard := n.heardWithin(window); heard < n.majority() {
			n.stepDown(heard)
			return
		}
		// the stretched window only covers the first answers' round trip; once answers flow
		// as often as the plain window asks, a lost majority is noticed as fast as ever
		if n.quorumBackoff > 0 && n.quorumTick >= window && n.heardWithin(QuorumWindowTicks) >= n.majority() {
			n.quorumBackoff = 0
		}
	}
	n.gcHandoffTick()
	n.commitRound = nil
	for _, ph := range n.sortedAccepts() {
		ph.ticks++
		if ph.ticks >= n.cfg.AcceptTimeoutTicks<<n.leaderBackoff {
			n.counters.AcceptTimeouts++
			n.trace(Trace{Kind: TraceAcceptTimeout, Index: ph.instance.Index, Ballot: ph.instance.Ballot})
			n.failWhileLeader(ph)
		}
	}
	n.gcGrantTicks()
	n.trimAndOpenCommitRound()
	n.setTimer(TimerCommit, n.cfg.CommitIntervalUs)
}

func (n *Node) trimAndOpenCommitRound() {
	if floor := n.boundFloor(n.log.LastExecuted()); floor > n.commitGle {
		n.learnGle(floor) // a peer that has not answered holds trimming back no further
	}
	n.trimUntil(n.commitGle)
	lastExecuted := n.log.LastExecuted()
	if n.cfg.NumPeers == 1 {
		n.learnGle(lastExecuted)
		return
	}
	ch := n.broadcast(Message{Type: CommitRequest, Ballot: n.ballot, LastExecuted: lastExecuted,
		GlobalLastExecuted: n.commitGle})
	n.commitRound = &commitRound{channelID: ch, lastExecuted: lastExecuted, minLastExecuted: lastExecuted}
}

func (n *Node) trimUntil(g uint64) {
	if n.log.TrimUntil(g) {
		n.trace(Trace{Kind: TraceTrim, Value: n.log.GlobalLastExecuted()})
	}
}

// boundFloor is the gle a leader keeps at least with a log bound: last_executed − log_bound
// (0 without a bound or below it).
func (n *Node) boundFloor(lastExecuted uint64) uint64 {
	if n.cfg.LogBound == 0 || lastExecuted <= n.cfg.LogBound {
		return 0
	}
	return lastExecuted - n.cfg.LogBound
}

func (n *Node) learnGle(g uint64) {
	if g != n.commitGle {
		n.commitGle = g
		n.trace(Trace{Kind: TraceCommitGle, Value: g})
	}
}

func (n *Node) onCommitRequest(m *Message) {
	if m.Ballot < n.ballot {
		n.respond(m, Message{Type: CommitResponse, Ok: false, Ballot: n.ballot})
		return
	}
	n.commitReceived = true
	n.electionBackoff = 0 // a leader is seen: elections are back to their base delay
	n.log.CommitUntil(m.LastExecuted, m.Ballot, &n.changes)
	n.applyChanges()
	n.execute()
	n.trimUntil(m.GlobalLastExecuted)
	if m.Ballot > n.ballot {
		n.becomeFollower(m.Ballot)
	}
	n.respond(m, Message{Type: CommitResponse, Ok: true, Ballot: n.ballot, LastExecuted: n.log.LastExecuted()})
	n.gcAfterCommitRequest()
}

func (n *Node) onCommitResponse(m *Message) {
	if m.ChannelID == 0 && n.isLeader() && n.cfg.RepairBatch > 0 && m.Ok && m.From < MaxNumPeers {
		n.onGapAsk(m)
		return
	}
	r := n.commitRound
	if r == nil || m.ChannelID != r.channelID || r.answered&peerBit(m.From) != 0 {
		n.counters.StaleResponses++
		return
	}
	r.answered |= peerBit(m.From)
	if !m.Ok {
		n.commitRound = nil
		n.becomeFollower(m.Ballot)
		return
	}
	r.answeredCount++
	n.gc.peerExecuted[m.From] = m.LastExecuted
	r.minLastExecuted = min(r.minLastExecuted, m.LastExecuted)
	if m.LastExecuted < r.lastExecuted && n.cfg.RepairBatch > 0 {
		if m.LastExecuted < n.log.GlobalLastExecuted() {
			n.repairs[m.From] = repairStream{}
			n.sendSnapshot(m.From) // what it needs next is trimmed here (snapshot.go)
		} else {
			n.repair(m.From, m.LastExecuted+1, r.lastExecuted)
		}
	}
	if r.answeredCount == n.cfg.NumPeers-1 {
		n.commitRound = nil
		n.learnGle(max(r.minLastExecuted, n.boundFloor(r.lastExecuted)))
	}
}

// --- repair ---

// onGapAsk answers a follower's ask (askForGap) as its heartbeat answer would be answered,
// unless a repair batch to it is already in flight: that stream reaches the gap by itself.
func (n *Node) onGapAsk(m *Message) {
	if n.repairs[m.From].awaiting > 0 || m.LastExecuted >= n.log.LastExecuted() {
		return
	}
	if m.LastExecuted < n.log.GlobalLastExecuted() {
		n.repairs[m.From] = repairStream{}
		n.sendSnapshot(m.From)
		return
	}
	n.repair(m.From, m.LastExecuted+1, n.log.LastExecuted())
}

// repair re-sends to peer, as accept requests under this leader's ballot, the entries from
// `from` up to upTo: it lacked them (a lost accept) or held them from an older ballot (stale).
// At most RepairBatch at a time, on one channel id whose answers match no accept phase; when
// all of them are acknowledged the next batch follows (repairAcknowledged). The next heartbeat
// commits them.
func (n *Node) repair(peer, from, upTo uint64) {
	n.repairs[peer] = repairStream{}
	var batch []Instance
	for i := from; i <= upTo && uint64(len(batch)) < n.cfg.RepairBatch; i++ {
		inst, ok := n.log.Get(i)
		if !ok || (inst.Ballot != n.ballot && i > n.log.LastExecuted()) {
			break // trimmed here, or still being replayed: the replay will send it
		}
		// An executed entry is chosen, so it goes out under this leader's ballot whatever
		// ballot wrote it: a follower that promised this ballot refuses an older one, and an
		// entry a previous term of this leader chose is never replayed.
		inst.Ballot = n.ballot
		inst.State = InProgress
		batch = append(batch, inst)
	}
	if len(batch) == 0 {
		return
	}
	n.trace(Trace{Kind: TraceRepair, Leader: peer, FromIndex: batch[0].Index, ToIndex: batch[len(batch)-1].Index})
	n.nextChannelID++
	for _, inst := range batch {
		n.send(Message{Type: AcceptRequest, From: n.cfg.ID, To: peer, ChannelID: n.nextChannelID, Instance: inst})
	}
	n.repairs[peer] = repairStream{channelID: n.nextChannelID, toIndex: batch[len(batch)-1].Index, awaiting: uint64(len(batch))}
}

// repairAcknowledged counts an accept_response to a repair batch; the last one of the batch
// sends the next, up to this leader's last_executed (every entry up to it is chosen). A
// refusal or a lost answer ends the stream; the next heartbeat answer starts it again.
func (n *Node) repairAcknowledged(m *Message) {
	if !n.isLeader() || m.From >= MaxNumPeers {
		return
	}
	s := &n.repairs[m.From]
	if s.awaiting == 0 || m.ChannelID != s.channelID {
		return
	}
	if !m.Ok {
		*s = repairStream{}
		return
	}
	if s.awaiting--; s.awaiting == 0 {
		n.repair(m.From, s.toIndex+1, n.log.LastExecuted())
	}
}

// --- check-quorum ---

// heardWithin counts the nodes (this one included) heard within the last windowTicks
// heartbeats. A new leader's peers count as heard at its tick 0, which gives every peer one
// full window to answer.
func (n *Node) heardWithin(windowTicks uint64) uint64 {
	heard := uint64(1)
	for p, t := range n.heardTick {
		if uint64(p) != n.cfg.ID && t+windowTicks >= n.quorumTick {
			heard++
		}
	}
	return heard
}

// stepDown ends a leadership that no majority answers: the ballot keeps its round but names
// no leader, so heartbeats stop and a connected majority elects a new leader.
func (n *Node) stepDown(heard uint64) {
	n.trace(Trace{Kind: TraceStepDown, Ballot: n.ballot, Count: heard,
		Value: (QuorumWindowTicks << n.quorumBackoff) * n.cfg.CommitIntervalUs})
	n.ballot = n.ballot&^0xff | NoLeader
	n.cancelTimer(TimerCommit)
	for _, ph := range n.sortedAccepts() {
		if ph.client != nil {
			n.reply(*ph.client, Result{Type: ResultRetry})
		}
	}
	clear(n.accepts)
	n.replayQueue = nil
	n.commitRound = nil
	n.gcLeaveLeadership()
	n.commitReceived = false
	n.leaseHeld = false
	n.setTimer(TimerElection, n.electionDelayUs())
}

// --- executor ---

func (n *Node) execute() {
	for {
		inst, ok := n.log.NextExecutable()
		if !ok {
			return
		}
		result := n.kv.Apply(inst.Command)
		n.log.MarkExecuted()
		n.counters.Executed++
		n.trace(Trace{Kind: TraceExecute, Index: inst.Index, Result: result.Type})
		if c, ok := n.awaiting[inst.Index]; ok {
			delete(n.awaiting, inst.Index)
			n.reply(c, result)
		}
	}
}

func (n *Node) onMessage(m *Message) {
	switch m.Type {
	case PrepareRequest:
		n.onPrepareRequest(m)
	case PrepareResponse:
		n.onPrepareResponse(m)
	case AcceptRequest:
		n.onAcceptRequest(m)
	case AcceptResponse:
		n.onAcceptResponse(m)
	case CommitRequest:
		n.onCommitRequest(m)
	case CommitResponse:
		n.onCommitResponse(m)
	case Snapshot:
		n.onSnapshot(m)
	case GcRequest:
		n.onGcRequest(m)
	case GcGrant:
		n.onGcGrant(m)
	case GcRelease:
		n.onGcRelease(m)
	case Handoff:
		n.onHandoff(m)
	}
}

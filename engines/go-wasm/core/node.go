package core

import "sort"

// Node is one Replicant peer: the sans-IO core. It is advanced only by Step.
type Node struct {
	cfg               Config
	ballot            uint64
	log               *Log
	kv                *KVStore
	rng               SplitMix64
	commitReceived    bool
	lastPrepareBallot uint64
	nextChannelID     uint64
	prepare           *preparePhase
	accepts           map[uint64]*acceptPhase // open accept phases by channel id
	replayQueue       []Instance
	commitRound       *commitRound
	repairs           [MaxNumPeers]repairStream // per peer: the repair batch in flight (leader)
	commitGle         uint64
	gapAskedFrom      uint64                   // follower: the last_executed + 1 it last asked the leader to repair from
	awaiting          map[uint64]clientRequest // index -> the request its execution answers
	counters          Counters
	// check-quorum (Config.CheckQuorum): heartbeats since this node became leader, the
	// heartbeat count when each peer was last heard, and whether the last election timer
	// found a leader's heartbeat (the follower's lease).
	quorumTick uint64
	heardTick  []uint64
	leaseHeld  bool
	// election backoff (docs/protocol.md, "Election backoff"): elections this node lost since it
	// last saw a leader, at most ElectionBackoffMax; every election delay it draws is multiplied
	// by 2 to that power. leaderBackoff keeps the winning phase's value: the leader's accept
	// time-out is stretched by that factor for its term. quorumBackoff stretches its quorum
	// window by the same factor only until a majority has answered within the unstretched
	// window after one full stretched one; then it is 0 (docs/protocol.md, "Election backoff").
	electionBackoff uint64
	leaderBackoff   uint64
	quorumBackoff   uint64

	dur durableState // persist bookkeeping (durability.go)
	gc  gcState      // GC mitigation (mitigation.go)

	effects   []Effect    // the current step's output
	binaryOut []byte      // the current step's output in the binary encoding (StepBinary)
	batchOut  []byte      // the current batch's output frames (StepBatch)
	changes   []LogChange // scratch for log operations
}

type clientRequest struct{ clientID, requestID uint64 }

type preparePhase struct {
	ballot       uint64
	channelID    uint64
	promises     uint64
	answered     uint32 // bit per peer
	merged       map[uint64]Instance
	maxLastIndex uint64
	// bounded elections: the from_index last asked of each peer, and whether any answer came
	// since the election timer last fired
	asked      [MaxNumPeers]uint64
	progressed bool
	backoff    uint64 // electionBackoff when the phase opened: its leader waits that much longer
}

type acceptPhase struct {
	channelID uint64
	instance  Instance
	votes     uint64
	answered  uint32
	ticks     uint64
	client    *clientRequest
	replay    bool
}

type commitRound struct {
	channelID       uint64
	lastExecuted    uint64 // what the heartbeat told the peers
	answered        uint32
	answeredCount   uint64
	minLastExecuted uint64
}

// repairStream is the repair batch a leader has in flight to one peer: when every entry of it
// is acknowledged, the next batch goes out at once instead of at the next heartbeat, so a
// follower catches up at the rate the link carries, not repair_batch per heartbeat.
type repairStream struct {
	channelID uint64 // 0: none in flight
	toIndex   uint64 // the batch's last index
	awaiting  uint64 // acknowledgements still to come
}

// Counters are the node's running totals, shown by Inspect.
type Counters struct {
	Events, MessagesIn, MessagesOut, ClientCommands, Replies, Executed, Elections,
	BadEvents, StaleResponses, AcceptTimeouts, Violations uint64
}

// NewNode creates a node; cfg must be valid (Config.Validate).
func NewNode(cfg Config) *Node {
	return &Node{
		cfg:       cfg,
		ballot:    InitialBallot,
		log:       NewLog(),
		kv:        NewKVStore(),
		rng:       NewSplitMix64(cfg.Seed),
		accepts:   make(map[uint64]*acceptPhase),
		awaiting:  make(map[uint64]clientRequest),
		heardTick: make([]uint64, cfg.NumPeers),
		dur:       durableState{recordedBallot: InitialBallot},
		gc:        gcState{peerExecuted: make([]uint64, cfg.NumPeers), collectedSeq: make([]uint64, cfg.NumPeers)},
	}
}

func (n *Node) Config() Config { return n.cfg }

// Step advances the node by one event. The returned slice is valid until the next Step.
func (n *Node) Step(ev *Event) []Effect {
	n.effects = n.effects[:0]
	n.counters.Events++
	if n.durable() && !n.dur.started && ev.Type != EventStart && ev.Type != EventRestart {
		// Before its restart a durable node has not read its disk: a promise from it would carry
		// none of the slots it accepted, so a candidate missing chosen entries could win with it
		// (docs/protocol.md, "Nothing before restart"; nemesis java seed 371). Refused.
		n.badEvent()
		return n.effects
	}
	switch ev.Type {
	case EventStart:
		n.dur.started = true
		n.setTimer(TimerElection, n.electionDelayUs())
	case EventRestart:
		n.onRestart(ev.Records)
	case EventPersisted:
		n.onPersisted(ev.PersistID)
	case EventTimer:
		if ev.Timer == TimerElection {
			n.onElectionTimer()
		} else {
			n.onCommitTimer()
		}
	case EventGcPending:
		n.onGcPending(ev.PauseUs)
	case EventGcDone:
		n.onGcDone()
	case EventClient:
		n.onClientCommand(clientRequest{ev.ClientID, ev.RequestID}, ev.Line)
	case EventMessage:
		if !n.validMessage(&ev.Message) {
			n.badEvent()
			break
		}
		n.counters.MessagesIn++
		n.heardTick[ev.Message.From] = n.quorumTick
		n.onMessage(&ev.Message)
	}
	if n.durable() && ev.Type != EventPersisted {
		n.finishDurableStep()
	}
	if CheckInvariants {
		n.checkInvariants()
		n.checkDurableInvariants()
	}
	return n.effects
}

// StepJSON decodes one canonical event, steps, and returns the effects as JSON Lines.
func (n *Node) StepJSON(in []byte) []byte {
	return EncodeEffects(n.stepDecoded(DecodeEvent(in)))
}

// StepBinary is StepJSON in the binary encoding (docs/protocol.md, "Binary step"). The effects
// are written into the node's own buffer, reused by its next step (rc_output's contract), so a
// step allocates no output.
func (n *Node) StepBinary(in []byte) []byte {
	n.binaryOut = AppendBinaryEffects(n.binaryOut[:0], n.stepDecoded(DecodeBinaryEvent(in)))
	return n.binaryOut
}

// StepBatch steps on a batch of binary events (docs/protocol.md, "Batch step"): frames in, one
// frame of effects per event out, exactly what StepBinary gives for each in turn; false, with
// nothing stepped, when the framing does not hold. The output is reused by the next batch.
func (n *Node) StepBatch(in []byte) ([]byte, bool) {
	if !validBatchFraming(in) {
		return nil, false
	}
	n.batchOut = n.batchOut[:0]
	for pos := 0; pos < len(in); {
		event, _ := batchFrame(in, &pos)
		n.batchOut = appendBatchFrame(n.batchOut, n.StepBinary(event))
	}
	return n.batchOut, true
}

// stepDecoded steps on a decoded event; an event that did not decode is a bad event.
func (n *Node) stepDecoded(ev Event, err error) []Effect {
	if err != nil {
		n.effects = n.effects[:0]
		n.counters.Events++
		n.badEvent()
		return n.effects
	}
	return n.Step(&ev)
}

func (n *Node) badEvent() {
	n.counters.BadEvents++
	n.effects = append(n.effects, Effect{Type: EffectError})
}

// validMessage applies the semantic checks of docs/protocol.md to a decoded message.
func (n *Node) validMessage(m *Message) bool {
	num := n.cfg.NumPeers
	if m.To != n.cfg.ID || m.From >= num || m.From == n.cfg.ID {
		return false
	}
	realBallot := func(b uint64) bool { return LeaderOf(b) < num }
	switch m.Type {
	case PrepareRequest, CommitRequest, Snapshot:
		if m.Type == Snapshot && !validKVEntries(m.KV) {
			return false
		}
		return LeaderOf(m.Ballot) == m.From
	case AcceptRequest:
		return LeaderOf(m.Instance.Ballot) == m.From && m.Instance.Index >= 1 && m.Instance.State == InProgress
	case GcRequest, GcRelease:
		return LeaderOf(m.Ballot) == m.To
	case GcGrant:
		return LeaderOf(m.Ballot) == m.From
	case Handoff:
		return LeaderOf(m.Ballot) == m.From && m.Target < num && m.Target != m.From
	case PrepareResponse:
		for _, inst := range m.Instances {
			if inst.Index < 1 || !realBallot(inst.Ballot) {
				return false
			}
		}
	}
	// A ballot naming no leader: the initial one, or a leader's after it stepped down.
	return realBallot(m.Ballot) || LeaderOf(m.Ballot) == NoLeader
}

func (n *Node) isLeader() bool   { return LeaderOf(n.ballot) == n.cfg.ID }
func (n *Node) majority() uint64 { return n.cfg.NumPeers/2 + 1 }

// inLease: with check-quorum on, a node that leads or hears a live leader refuses prepares,
// so a node that cannot hear the others cannot depose a leader a majority still follows.
func (n *Node) inLease() bool {
	return n.cfg.CheckQuorum && (n.isLeader() || n.commitReceived || n.leaseHeld)
}

func (n *Node) electionDelayUs() uint64 {
	lo := n.cfg.CommitIntervalUs * 3 / 2
	hi := n.cfg.CommitIntervalUs * 2
	return (lo + n.rng.Next()%(hi-lo+1)) << n.electionBackoff
}

// loseElection counts a lost election (every election_abandoned): the next waits are twice as long.
func (n *Node) loseElection() {
	n.electionBackoff = min(n.electionBackoff+1, ElectionBackoffMax)
}

// --- effect helpers ---

func (n *Node) setTimer(t TimerName, delayUs uint64) {
	n.effects = append(n.effects, Effect{Type: EffectSetTimer, Timer: t, DelayUs: delayUs})
}

func (n *Node) cancelTimer(t TimerName) {
	n.effects = append(n.effects, Effect{Type: EffectCancelTimer, Timer: t})
}

func (n *Node) reply(c clientRequest, r Result) {
	n.counters.Replies++
	n.effects = append(n.effects, Effect{Type: EffectReply, ClientID: c.clientID, RequestID: c.requestID, Result: r})
}

func (n *Node) send(m Message) {
	n.counters.MessagesOut++
	n.effects = append(n.effects, Effect{Type: EffectSend, Message: m})
}

// broadcast sends m to every peer in ascending id order on a fresh channel, returned.
func (n *Node) broadcast(m Message) uint64 {
	n.nextChannelID++
	m.From = n.cfg.ID
	m.ChannelID = n.nextChannelID
	for p := uint64(0); p < n.cfg.NumPeers; p++ {
		if p != n.cfg.ID {
			m.To = p
			n.send(m)
		}
	}
	return m.ChannelID
}

// respond answers request req with m on req's channel.
func (n *Node) respond(req *Message, m Message) {
	m.From = n.cfg.ID
	m.To = req.From
	m.ChannelID = req.ChannelID
	n.send(m)
}

func (n *Node) trace(t Trace) {
	if n.cfg.Trace {
		n.effects = append(n.effects, Effect{Type: EffectTrace, Trace: t})
	}
}

// applyChanges turns what a log operation did into trace records.
func (n *Node) applyChanges() {
	for _, c := range n.changes {
		switch c.Kind {
		case ChangeStored:
			n.recordInstance(c.Instance)
			n.trace(Trace{Kind: TraceInstance, Index: c.Instance.Index, Ballot: c.Instance.Ballot, State: c.Instance.State})
		case ChangeStale:
			n.trace(Trace{Kind: TraceStale, Index: c.Instance.Index, Ballot: c.Instance.Ballot})
		case ChangeViolation:
			n.counters.Violations++
			n.trace(Trace{Kind: TraceViolation, Index: c.Instance.Index, Reason: c.Reason})
		}
	}
	n.changes = n.changes[:0]
}

func (n *Node) sortedAccepts() []*acceptPhase {
	out := make([]*acceptPhase, 0, len(n.accepts))
	for _, ph := range n.accepts {
		out = append(out, ph)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].channelID < out[b].channelID })
	return out
}

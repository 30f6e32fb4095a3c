package core

// Events go into Node.Step; effects come out. Messages travel between nodes.

type MessageType uint8

const (
	PrepareRequest MessageType = iota
	PrepareResponse
	AcceptRequest
	AcceptResponse
	CommitRequest
	CommitResponse
	Snapshot // state transfer: the leader's KV store at its last_executed
	// GC mitigation (mitigation.go)
	GcRequest // a follower asks its leader for permission to collect
	GcGrant   // the leader lets it
	GcRelease // the collection ended, the grant is free
	Handoff   // a leader about to collect asks a peer to take over
)

var messageTypeNames = [...]string{
	"prepare_request", "prepare_response", "accept_request",
	"accept_response", "commit_request", "commit_response", "snapshot",
	"gc_request", "gc_grant", "gc_release", "handoff",
}

func (t MessageType) String() string { return messageTypeNames[t] }

// Message is one peer message; which fields matter depends on Type (docs/protocol.md).
type Message struct {
	Type               MessageType
	From               uint64
	To                 uint64
	ChannelID          uint64
	Ok                 bool
	Ballot             uint64
	LastExecuted       uint64
	GlobalLastExecuted uint64
	Instance           Instance    // accept_request
	Instances          []Instance  // prepare_response
	FromIndex          uint64      // prepare_request/response with bounded elections (≥ 1)
	NextIndex          uint64      // prepare_response with bounded elections: 0 when whole
	KV                 [][2]string // snapshot: every entry, ascending keys
	PauseUs            uint64      // gc_request: the predicted pause
	Target             uint64      // handoff: the peer asked to take over
	Collecting         uint64      // handoff: the peers holding grants, a bit per peer
	CollectingTicks    uint64      // handoff: the most heartbeats any of those grants may still be held
	// (handoff also carries LastExecuted: the old leader's commit point, committed at every
	// follower as a heartbeat's would be)
}

type TimerName uint8

const (
	TimerElection TimerName = iota
	TimerCommit
)

var timerNames = [...]string{"election", "commit"}

func (t TimerName) String() string { return timerNames[t] }

type EventType uint8

const (
	EventStart EventType = iota
	EventTimer
	EventClient
	EventMessage
	EventPersisted // the driver wrote every record up to PersistID
	EventRestart   // a restarted node's persisted records
	EventGcPending // the runtime will collect soon (GC mitigation)
	EventGcDone    // the collection the core asked for has ended
)

type Event struct {
	Type      EventType
	Timer     TimerName
	ClientID  uint64
	RequestID uint64
	Line      string
	Message   Message
	PersistID uint64   // persisted
	Records   []Record // restart
	PauseUs   uint64   // gc_pending: the predicted pause
}

type EffectType uint8

const (
	EffectSend EffectType = iota
	EffectReply
	EffectSetTimer
	EffectCancelTimer
	EffectTrace
	EffectError
	EffectPersist
	EffectCollect // GC mitigation: run the announced collection now
)

type Effect struct {
	Type      EffectType
	Message   Message // send
	ClientID  uint64  // reply
	RequestID uint64  // reply
	Result    Result  // reply
	Timer     TimerName
	DelayUs   uint64
	Trace     Trace
	PersistID uint64   // persist
	Records   []Record // persist
	PauseUs   uint64   // collect
}

type TraceKind uint8

const (
	TraceFollower TraceKind = iota
	TraceLeader
	TraceElection
	TraceElectionAbandoned
	TraceReplay
	TraceInstance
	TraceExecute
	TraceStale
	TraceAcceptTimeout
	TraceTrim
	TraceCommitGle
	TraceViolation
	TraceStepDown
	TraceRepair
	TraceRecovered
	TraceFill
	TraceSnapshotSent
	TraceSnapshotInstalled
	TraceGcAsk
	TraceGcGrant
	TraceGcQueued
	TraceGcRelease
	TraceGcGrantExpired
	TraceHandoff
	TraceGcTimeout
	TraceGcDone
)

var traceKindNames = [...]string{
	"follower", "leader", "election", "election_abandoned", "replay", "instance",
	"execute", "stale", "accept_timeout", "trim", "commit_gle", "violation",
	"step_down", "repair", "recovered", "fill", "snapshot_sent", "snapshot_installed",
	"gc_ask", "gc_grant", "gc_queued", "gc_release", "gc_grant_expired", "handoff", "gc_timeout", "gc_done",
}

func (k TraceKind) String() string { return traceKindNames[k] }

// Trace is a record of a state change; which fields matter depends on Kind.
type Trace struct {
	Kind      TraceKind
	Ballot    uint64
	Leader    uint64 // follower: the new leader; repair, gc_*: the peer; handoff: the target
	LastIndex uint64
	Index     uint64
	State     InstanceState
	Result    ResultType
	Count     uint64 // replay: entries; step_down: nodes heard (itself included); recovered: records; gc_queued: waiting
	FromIndex uint64
	ToIndex   uint64
	Value     uint64 // trim: the new gle; commit_gle: the learned gle; step_down: the window
	Reason    string
}

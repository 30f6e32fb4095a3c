//! Events go into `Node::step`; effects come out. Messages travel between nodes.

use crate::command::{Result, ResultType};
use crate::durability::Record;
use crate::instance::{Instance, InstanceState};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MessageType {
    #[default]
    PrepareRequest,
    PrepareResponse,
    AcceptRequest,
    AcceptResponse,
    CommitRequest,
    CommitResponse,
    /// State transfer: the leader's KV store at its last_executed.
    Snapshot,
    /// GC mitigation (mitigation.rs): a follower asks its leader for permission to collect.
    GcRequest,
    /// The leader lets it.
    GcGrant,
    /// The collection ended, the grant is free.
    GcRelease,
    /// A leader about to collect asks a peer to take over.
    Handoff,
}

impl MessageType {
    pub fn name(self) -> &'static str {
        match self {
            MessageType::PrepareRequest => "prepare_request",
            MessageType::PrepareResponse => "prepare_response",
            MessageType::AcceptRequest => "accept_request",
            MessageType::AcceptResponse => "accept_response",
            MessageType::CommitRequest => "commit_request",
            MessageType::CommitResponse => "commit_response",
            MessageType::Snapshot => "snapshot",
            MessageType::GcRequest => "gc_request",
            MessageType::GcGrant => "gc_grant",
            MessageType::GcRelease => "gc_release",
            MessageType::Handoff => "handoff",
        }
    }
}

/// One peer message; which fields matter depends on `typ` (docs/protocol.md).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Message {
    pub typ: MessageType,
    pub from: u64,
    pub to: u64,
    pub channel_id: u64,
    pub ok: bool,
    pub ballot: u64,
    pub last_executed: u64,
    pub global_last_executed: u64,
    /// accept_request
    pub instance: Instance,
    /// prepare_response
    pub instances: Vec<Instance>,
    /// prepare_request/response with bounded elections (≥ 1)
    pub from_index: u64,
    /// prepare_response with bounded elections: 0 when the promise is whole
    pub next_index: u64,
    /// snapshot: every entry, ascending keys.
    pub kv: Vec<(String, String)>,
    /// gc_request: the predicted pause.
    pub pause_us: u64,
    /// handoff: the peer asked to take over.
    pub target: u64,
    /// handoff: the peers holding grants, a bit per peer.
    pub collecting: u64,
    /// handoff: the most heartbeats any of those grants may still be held.
    pub collecting_ticks: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerName {
    Election,
    Commit,
}

impl TimerName {
    pub fn name(self) -> &'static str {
        match self {
            TimerName::Election => "election",
            TimerName::Commit => "commit",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Start,
    Timer(TimerName),
    /// The line is raw bytes: the driver does not check it, the core does.
    Client { client_id: u64, request_id: u64, line: Vec<u8> },
    Message(Message),
    /// The driver wrote every record up to this persist id.
    Persisted(u64),
    /// A restarted node's persisted records.
    Restart(Vec<Record>),
    /// The runtime will collect soon, pausing about this long (GC mitigation).
    GcPending(u64),
    /// The collection the core asked for has ended.
    GcDone,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Send(Message),
    Reply { client_id: u64, request_id: u64, result: Result },
    SetTimer { timer: TimerName, delay_us: u64 },
    CancelTimer(TimerName),
    Trace(Trace),
    /// An event that could not be decoded (always `bad_event`).
    Error,
    /// Records the driver must write before the held sends and replies may leave.
    Persist { persist_id: u64, records: Vec<Record> },
    /// GC mitigation: run the announced collection now.
    Collect { pause_us: u64 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TraceKind {
    #[default]
    Follower,
    Leader,
    Election,
    ElectionAbandoned,
    Replay,
    Instance,
    Execute,
    Stale,
    AcceptTimeout,
    Trim,
    CommitGle,
    Violation,
    StepDown,
    Repair,
    Recovered,
    Fill,
    SnapshotSent,
    SnapshotInstalled,
    GcAsk,
    GcGrant,
    GcQueued,
    GcRelease,
    GcGrantExpired,
    Handoff,
    GcTimeout,
    GcDone,
}

impl TraceKind {
    pub fn name(self) -> &'static str {
        match self {
            TraceKind::Follower => "follower",
            TraceKind::Leader => "leader",
            TraceKind::Election => "election",
            TraceKind::ElectionAbandoned => "election_abandoned",
            TraceKind::Replay => "replay",
            TraceKind::Instance => "instance",
            TraceKind::Execute => "execute",
            TraceKind::Stale => "stale",
            TraceKind::AcceptTimeout => "accept_timeout",
            TraceKind::Trim => "trim",
            TraceKind::CommitGle => "commit_gle",
            TraceKind::Violation => "violation",
            TraceKind::StepDown => "step_down",
            TraceKind::Repair => "repair",
            TraceKind::Recovered => "recovered",
            TraceKind::Fill => "fill",
            TraceKind::SnapshotSent => "snapshot_sent",
            TraceKind::SnapshotInstalled => "snapshot_installed",
            TraceKind::GcAsk => "gc_ask",
            TraceKind::GcGrant => "gc_grant",
            TraceKind::GcQueued => "gc_queued",
            TraceKind::GcRelease => "gc_release",
            TraceKind::GcGrantExpired => "gc_grant_expired",
            TraceKind::Handoff => "handoff",
            TraceKind::GcTimeout => "gc_timeout",
            TraceKind::GcDone => "gc_done",
        }
    }
}

/// A record of a state change; which fields matter depends on `kind`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Trace {
    pub kind: TraceKind,
    pub ballot: u64,
    /// follower: the new leader; repair, gc_*: the peer; handoff: the target.
    pub leader: u64,
    pub last_index: u64,
    pub index: u64,
    pub state: InstanceState,
    pub result: ResultType,
    /// replay: entries; step_down: nodes heard (itself included); recovered: records;
    /// gc_queued: waiting.
    pub count: u64,
    pub from_index: u64,
    pub to_index: u64,
    /// trim: the new gle; commit_gle: the learned gle; step_down: the window.
    pub value: u64,
    pub reason: &'static str,
}

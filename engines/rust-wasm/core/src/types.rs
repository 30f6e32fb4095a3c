//! The plain data the core's modules share, at the bottom of the crate: each module above may
//! use these, none of them uses a module above. The behaviour that goes with them (how a
//! durable node persists, how a node answers gc_pending) is in durability.rs and mitigation.rs,
//! as `impl Node` blocks over the node's state, so node.rs needs neither of those files.

use crate::instance::Instance;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Durability {
    /// The paper's design: nothing survives a restart.
    #[default]
    None,
    /// Promises and accepted instances are persisted before anything reveals them.
    Log,
}

impl Durability {
    pub fn name(self) -> &'static str {
        match self {
            Durability::None => "none",
            Durability::Log => "log",
        }
    }
}

/// One durable record: what a persist effect asks for and a restart hands back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// The node's ballot: it accepts nothing below.
    Promise(u64),
    /// A log slot as stored (in progress or committed).
    Instance(Instance),
    /// An installed snapshot: the KV store at last_executed.
    Snapshot { last_executed: u64, kv: Vec<(String, String)> },
    /// The node's own snapshot, first in a batch that also holds every slot after
    /// last_executed: with its ballot, the batch supersedes every record written before it.
    Checkpoint { ballot: u64, last_executed: u64, kv: Vec<(String, String)> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mitigation {
    /// Collect at once, the paper's behaviour.
    #[default]
    None,
    Blade,
    Mitmem,
    Both,
}

impl Mitigation {
    pub fn name(self) -> &'static str {
        match self {
            Mitigation::None => "none",
            Mitigation::Blade => "blade",
            Mitigation::Mitmem => "mitmem",
            Mitigation::Both => "both",
        }
    }

    pub fn parse(s: &[u8]) -> Option<Mitigation> {
        match s {
            b"none" => Some(Mitigation::None),
            b"blade" => Some(Mitigation::Blade),
            b"mitmem" => Some(Mitigation::Mitmem),
            b"both" => Some(Mitigation::Both),
            _ => None,
        }
    }

    pub(crate) fn blade(self) -> bool {
        matches!(self, Mitigation::Blade | Mitigation::Both)
    }

    pub(crate) fn mitmem(self) -> bool {
        matches!(self, Mitigation::Mitmem | Mitigation::Both)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum GcPhase {
    #[default]
    Idle,
    /// A follower that wants permission (asked, or waits for a leader).
    Waiting,
    /// A leader waiting for its successor's election.
    HandingOff,
    /// The driver was told to collect.
    Collecting,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct GcGrant {
    pub(crate) peer: u64,
    pub(crate) channel_id: u64,
    pub(crate) ticks: u64,
    pub(crate) allowed_ticks: u64,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct GcAsk {
    pub(crate) peer: u64,
    pub(crate) channel_id: u64,
    pub(crate) pause_us: u64,
}

/// One node's part in the mitigation.
#[derive(Debug, Default)]
pub(crate) struct GcState {
    pub(crate) phase: GcPhase,
    pub(crate) pause_us: u64,
    /// This node's ask; 0: not sent yet.
    pub(crate) channel_id: u64,
    /// The collection runs under a grant, to be released at gc_done.
    pub(crate) granted: bool,
    pub(crate) grant_leader: u64,
    pub(crate) grant_ballot: u64,
    pub(crate) grant_channel: u64,
    pub(crate) handoff_ticks: u64,
    /// The last handoff heard: its successor's prepare passes the lease.
    pub(crate) handoff_ballot: u64,
    pub(crate) handoff_target: u64,
    /// The grants the last handoff passed on (a bit per peer) and the most heartbeats any of
    /// them may still be held; the target keeps them as its own when it wins.
    pub(crate) inherited_collecting: u64,
    pub(crate) inherited_ticks: u64,
    // leader state
    pub(crate) grants: Vec<GcGrant>,
    pub(crate) queue: Vec<GcAsk>,
    /// Each peer's last_executed, from its latest commit_response.
    pub(crate) peer_executed: Vec<u64>,
    /// Grant order: higher collected more recently.
    pub(crate) collected_seq: Vec<u64>,
    pub(crate) next_collected: u64,
}

impl GcState {
    pub(crate) fn new(num_peers: u64) -> GcState {
        GcState {
            peer_executed: vec![0; num_peers as usize],
            collected_seq: vec![0; num_peers as usize],
            ..GcState::default()
        }
    }
}


//! A log entry.

use crate::command::Command;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum InstanceState {
    #[default]
    InProgress,
    Committed,
    Executed,
}

impl InstanceState {
    pub const ALL: [InstanceState; 3] = [InstanceState::InProgress, InstanceState::Committed, InstanceState::Executed];

    pub fn name(self) -> &'static str {
        match self {
            InstanceState::InProgress => "in_progress",
            InstanceState::Committed => "committed",
            InstanceState::Executed => "executed",
        }
    }
}

/// One slot of the replicated log.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Instance {
    pub ballot: u64,
    pub index: u64,
    pub client_id: u64,
    pub request_id: u64,
    pub state: InstanceState,
    pub command: Command,
}

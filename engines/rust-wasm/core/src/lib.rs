//! The Replicant core: MultiPaxos for a replicated key-value store, with no sockets, clocks,
//! threads or randomness of its own. A [`Node`] is advanced only by [`Node::step`]; see
//! docs/protocol.md for the contract and engines/go-wasm/core for the Go reference, whose
//! files these modules mirror one to one.

pub mod ballot;
pub mod binary_codec;
pub mod codec;
pub mod command;
pub mod config;
pub mod durability;
pub mod inspect;
pub mod instance;
pub mod json;
pub mod kvstore;
pub mod log;
pub mod messages;
pub mod mitigation;
pub mod multipaxos;
pub mod node;
pub mod prng;
pub mod snapshot;
pub mod types;

pub use ballot::{leader_of, next_ballot, INITIAL_BALLOT, MAX_NUM_PEERS, NO_LEADER};
pub use binary_codec::{decode_binary_event, encode_binary_effects};
pub use codec::{append_effect, append_message, decode_config, decode_event, decode_message, encode_effects, CodecError};
pub use command::{parse_command, reply_line, Command, CommandType, Result, ResultType};
pub use config::Config;
pub use types::{Durability, Record};
pub use instance::{Instance, InstanceState};
pub use kvstore::KVStore;
pub use log::Log;
pub use types::Mitigation;
pub use messages::{Effect, Event, Message, MessageType, TimerName, Trace, TraceKind};
pub use node::{Counters, Node, CHECK_INVARIANTS};
pub use prng::SplitMix64;

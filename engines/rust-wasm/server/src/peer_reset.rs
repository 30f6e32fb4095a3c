//! The test hook that resets a peer link from inside the server (docs/protocol.md, "Native
//! servers", "reset-peer"): the cluster tests used to reset links through forwarding proxies,
//! whose event loop stalled under load and held every peer message meanwhile (docs/
//! reliability.md, "Fifth series"). Off unless the server was started with --test-peer-reset.

use crate::core_driver::Shared;

const VERB: &[u8] = b"reset-peer";

/// A peer id in decimal digits only (no sign, no spaces, at most 3 digits), below `num_peers`
/// and not `own`.
fn parse_peer_id(arg: &[u8], num_peers: u64, own: u64) -> Option<u64> {
    if arg.is_empty() || arg.len() > 3 || !arg.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = arg.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    (n < num_peers && n != own).then_some(n)
}

/// `arg` quoted for an error line (printable ASCII kept, the rest escaped).
fn quoted(arg: &[u8]) -> String {
    let mut q = String::from("\"");
    for &c in arg {
        match c {
            b'"' | b'\\' => {
                q.push('\\');
                q.push(c as char)
            }
            0x20..=0x7e => q.push(c as char),
            _ => q.push_str(&format!("\\x{c:02x}")),
        }
    }
    q.push('"');
    q
}

impl Shared {
    /// The reply to a reset-peer line (its newline included); None when the line is not one (it
    /// goes to the core as a client command).
    pub(crate) fn peer_reset_command(&self, line: &[u8]) -> Option<Vec<u8>> {
        let arg = match line.strip_prefix(VERB)? {
            [] => &[][..],
            [b' ', rest @ ..] => rest,
            _ => return None,
        };
        let reply = if !self.test_peer_reset {
            "error reset-peer is off: start the server with --test-peer-reset".to_string()
        } else if let Some(peer) = parse_peer_id(arg, self.num_peers, self.id) {
            if let Some(Some(link)) = self.peers.get(peer as usize) {
                link.request_reset(&self.counters);
            }
            format!("reset peer {peer}")
        } else {
            format!(
                "error reset-peer takes one peer id, 0 to {} and not this node's own ({}): got {}",
                self.num_peers - 1,
                self.id,
                quoted(arg)
            )
        };
        Some(format!("{reply}\n").into_bytes())
    }
}

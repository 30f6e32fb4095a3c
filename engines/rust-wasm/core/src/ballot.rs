//! Ballot arithmetic. A ballot is a 64-bit number: the low 8 bits name the node that chose it,
//! the rest is the round. Every ballot we produce stays below 2^53 so JavaScript reads it
//! exactly.

/// In a ballot's low byte: no node leads yet.
pub const NO_LEADER: u64 = 0xf;
/// Every node starts with this ballot.
pub const INITIAL_BALLOT: u64 = NO_LEADER;
const ROUND_INCREMENT: u64 = 0x100;
const ID_BITS: u64 = 0xff;
/// Peer id 15 would read as [`NO_LEADER`], so at most 15 peers.
pub const MAX_NUM_PEERS: u64 = 15;

/// The id held in a ballot's low byte ([`NO_LEADER`] for none).
#[inline]
pub fn leader_of(ballot: u64) -> u64 {
    ballot & ID_BITS
}

/// The first ballot of the next round, owned by `id`.
#[inline]
pub fn next_ballot(ballot: u64, id: u64) -> u64 {
    (ballot.wrapping_add(ROUND_INCREMENT) & !ID_BITS) | id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leader_is_the_low_byte() {
        assert_eq!(leader_of(INITIAL_BALLOT), NO_LEADER);
        assert_eq!(leader_of(0x201), 1);
        assert_eq!(leader_of(0x1_0000_0e02), 2);
    }

    #[test]
    fn next_ballot_moves_to_the_next_round() {
        assert_eq!(next_ballot(INITIAL_BALLOT, 1), 0x101);
        assert_eq!(next_ballot(0x101, 2), 0x202);
        assert_eq!(next_ballot(0x1ff, 0), 0x200);
        assert_eq!(next_ballot(0x2ff, 14), 0x30e);
        // the round of the input decides, not its owner
        assert_eq!(next_ballot(0x30e, 0), 0x400);
        assert_eq!(leader_of(next_ballot(0x123456, 7)), 7);
        // wrap-around arithmetic instead of a panic at the top of the range
        assert_eq!(next_ballot(u64::MAX, 3), 3);
    }
}

//! The replicated state machine: a hash map with a running digest, so that two replicas can be
//! compared in O(1).

use crate::command::{valid_key, valid_value, Command, CommandType, Result, ResultType};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// SipHash with fixed keys: the core uses no unseeded randomness, even for hashing (the map's
/// order never reaches the output either way).
type FixedState = BuildHasherDefault<DefaultHasher>;

/// Each value is stored with its entry's hash, so an overwrite or a delete does not hash the
/// old value again.
#[derive(Default)]
pub struct KVStore {
    entries: HashMap<String, (String, u64), FixedState>,
    digest: u64,
}

const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a-64 of key, a zero byte, value.
pub fn entry_hash(key: &str, value: &str) -> u64 {
    let mut h = FNV_OFFSET_BASIS;
    for &c in key.as_bytes() {
        h = (h ^ c as u64).wrapping_mul(FNV_PRIME);
    }
    h = h.wrapping_mul(FNV_PRIME); // the zero separator: h ^ 0 == h
    for &c in value.as_bytes() {
        h = (h ^ c as u64).wrapping_mul(FNV_PRIME);
    }
    h
}

impl KVStore {
    pub fn new() -> KVStore {
        KVStore::default()
    }

    /// Executes one command and returns what the client is told.
    pub fn apply(&mut self, c: &Command) -> Result {
        match c.typ {
            CommandType::Get => match self.entries.get(&c.key) {
                Some((v, _)) => Result { typ: ResultType::Ok, value: v.clone(), leader: 0, pause_us: 0 },
                None => Result::of(ResultType::NotFound),
            },
            CommandType::Put => {
                let hash = entry_hash(&c.key, &c.value);
                match self.entries.get_mut(&c.key) {
                    Some((old, old_hash)) => {
                        self.digest = self.digest.wrapping_sub(*old_hash);
                        old.clone_from(&c.value);
                        *old_hash = hash;
                    }
                    None => {
                        self.entries.insert(c.key.clone(), (c.value.clone(), hash));
                    }
                }
                self.digest = self.digest.wrapping_add(hash);
                Result::of(ResultType::Ok)
            }
            CommandType::Noop => Result::of(ResultType::Ok),
            CommandType::Del => match self.entries.remove(&c.key) {
                Some((_, old_hash)) => {
                    self.digest = self.digest.wrapping_sub(old_hash);
                    Result::of(ResultType::Ok)
                }
                None => Result::of(ResultType::NotFound),
            },
        }
    }

    pub fn size(&self) -> usize {
        self.entries.len()
    }

    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// Up to `limit` entries in ascending byte order of keys.
    pub fn first_entries(&self, limit: usize) -> Vec<(&str, &str)> {
        let mut out: Vec<(&str, &str)> = self.entries.iter().map(|(k, (v, _))| (k.as_str(), v.as_str())).collect();
        if out.len() > limit && limit > 0 {
            // only the smallest `limit` keys need sorting
            out.select_nth_unstable_by(limit - 1, |a, b| a.0.cmp(b.0));
        }
        out.truncate(limit);
        out.sort_unstable_by(|a, b| a.0.cmp(b.0));
        out
    }
}

/// Every KV entry, ascending keys: a snapshot's payload.
pub type KVEntries = Vec<(String, String)>;

/// Keys and values valid, keys strictly ascending (one canonical form).
pub fn valid_kv_entries(kv: &[(String, String)]) -> bool {
    kv.iter().enumerate().all(|(i, (k, v))| {
        valid_key(k.as_bytes()) && valid_value(v.as_bytes()) && (i == 0 || kv[i - 1].0.as_bytes() < k.as_bytes())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(k: &str, v: &str) -> Command {
        Command { typ: CommandType::Put, key: k.into(), value: v.into() }
    }
    fn get(k: &str) -> Command {
        Command { typ: CommandType::Get, key: k.into(), value: String::new() }
    }
    fn del(k: &str) -> Command {
        Command { typ: CommandType::Del, key: k.into(), value: String::new() }
    }

    // Digests from the Go core (engines/go-wasm/core/kvstore.go) for the same operations.
    #[test]
    fn digest_matches_the_go_core() {
        let mut kv = KVStore::new();
        assert_eq!(kv.digest(), 0);
        kv.apply(&put("a", "1"));
        assert_eq!(kv.digest(), 0xe5d2e8190426ecef);
        kv.apply(&put("b", "2"));
        assert_eq!(kv.digest(), 0xe5a25e3217060726);
        kv.apply(&put("a", ""));
        assert_eq!(kv.digest(), 0x086b5820c8240c1b);
        kv.apply(&del("b"));
        assert_eq!(kv.digest(), 0x089be207b544f1e4);
        kv.apply(&del("a"));
        assert_eq!(kv.digest(), 0);
        assert_eq!(kv.size(), 0);
    }

    #[test]
    fn digest_is_order_independent_and_separates_key_from_value() {
        let mut x = KVStore::new();
        let mut y = KVStore::new();
        for (k, v) in [("a", "1"), ("b", "2"), ("c", "3")] {
            x.apply(&put(k, v));
        }
        for (k, v) in [("c", "3"), ("a", "1"), ("b", "x"), ("b", "2")] {
            y.apply(&put(k, v));
        }
        assert_eq!(x.digest(), y.digest());
        assert_ne!(entry_hash("ab", "c"), entry_hash("a", "bc"));
    }

    #[test]
    fn results() {
        let mut kv = KVStore::new();
        assert_eq!(kv.apply(&get("k")).typ, ResultType::NotFound);
        assert_eq!(kv.apply(&del("k")).typ, ResultType::NotFound);
        assert_eq!(kv.apply(&put("k", "v")), Result::of(ResultType::Ok));
        assert_eq!(kv.apply(&get("k")), Result { typ: ResultType::Ok, value: "v".into(), leader: 0, pause_us: 0 });
        assert_eq!(kv.apply(&del("k")), Result::of(ResultType::Ok));
        assert_eq!(kv.apply(&get("k")).typ, ResultType::NotFound);
    }

    #[test]
    fn first_entries_are_the_smallest_keys_in_byte_order() {
        let mut kv = KVStore::new();
        for i in (0..100).rev() {
            kv.apply(&put(&format!("k{i:03}"), &i.to_string()));
        }
        kv.apply(&put("K", "upper case sorts first"));
        let first = kv.first_entries(64);
        assert_eq!(first.len(), 64);
        assert_eq!(first[0], ("K", "upper case sorts first"));
        assert_eq!(first[1], ("k000", "0"));
        assert_eq!(first[63], ("k062", "62"));
        assert_eq!(kv.first_entries(0).len(), 0);
        assert_eq!(kv.first_entries(1000).len(), 101);
    }
}

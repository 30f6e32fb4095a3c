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
/// old value again. Keys and values are `Box<str>`, not `String`: a slot of the table is then
/// 40 bytes, not 56, which keeps a YCSB record at most 1.22 x its raw bytes however full the
/// table is (1.29 x with `String`s just after the table doubles; the test below).
#[derive(Default)]
pub struct KVStore {
    entries: HashMap<Box<str>, (Box<str>, u64), FixedState>,
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
            CommandType::Get => match self.entries.get(c.key.as_str()) {
                Some((v, _)) => Result { typ: ResultType::Ok, value: String::from(&**v), leader: 0, pause_us: 0 },
                None => Result::of(ResultType::NotFound),
            },
            CommandType::Put => {
                let hash = entry_hash(&c.key, &c.value);
                match self.entries.get_mut(c.key.as_str()) {
                    Some((old, old_hash)) => {
                        self.digest = self.digest.wrapping_sub(*old_hash);
                        *old = c.value.as_str().into();
                        *old_hash = hash;
                    }
                    None => {
                        self.entries.insert(c.key.as_str().into(), (c.value.as_str().into(), hash));
                    }
                }
                self.digest = self.digest.wrapping_add(hash);
                Result::of(ResultType::Ok)
            }
            CommandType::Noop => Result::of(ResultType::Ok),
            CommandType::Del => match self.entries.remove(c.key.as_str()) {
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
        let mut out: Vec<(&str, &str)> = self.entries.iter().map(|(k, (v, _))| (&**k, &**v)).collect();
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

    // What the store takes from malloc per YCSB record (23-byte key, 500-byte value) against the
    // record's raw bytes. The benchmarks give a node 1.25 x its raw data plus its footprint
    // (docs/benchmarks.md, "Memory at ratio 1.25"), the paper's lowest ratio for a store with
    // no collector (§5.1): a store above 1.25 x cannot live there whatever the footprint. Counted
    // on this thread by the test allocator below: glibc's chunk per block (usable bytes + its
    // 8-byte size header), which for these two sizes is jemalloc's size class (32 and 512 B) too.
    // The table is at its emptiest just after it doubles (3,585 records: 8,192 slots, 44 % full).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn ycsb_records_cost_at_most_a_quarter_more_than_their_bytes() {
        let mut over = Vec::new();
        for records in [1000usize, 3585, 5000, 7169, 20000] {
            let value = "v".repeat(500);
            let before = heap_count::held();
            let mut kv = KVStore::new();
            for i in 0..records {
                kv.apply(&put(&format!("user{:019}", i * 7919), &value));
            }
            let taken = (heap_count::held() - before) as f64;
            let raw = (records * (23 + 500)) as f64;
            println!("kvstore: {records} YCSB records, {:.1} bytes/record from malloc, {:.3} x raw", taken / records as f64, taken / raw);
            if taken / raw > 1.25 {
                over.push(format!("{records} records: {:.3} x raw", taken / raw));
            }
            drop(kv);
        }
        assert!(over.is_empty(), "above 1.25 x raw: {}", over.join(", "));
    }
}

/// A test allocator that counts, per thread, what glibc's malloc holds for the blocks this
/// thread allocated (tests run on threads of their own, so a test sees only its own blocks).
#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod heap_count {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    extern "C" {
        fn malloc_usable_size(p: *mut u8) -> usize;
    }

    thread_local! {
        static HELD: Cell<i64> = const { Cell::new(0) };
    }

    /// glibc's chunk for a block: its usable bytes plus the 8-byte size header.
    unsafe fn chunk(p: *mut u8) -> i64 {
        (malloc_usable_size(p) + 8) as i64
    }

    struct Counting;

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, l: Layout) -> *mut u8 {
            let p = System.alloc(l);
            if !p.is_null() {
                let n = chunk(p);
                let _ = HELD.try_with(|h| h.set(h.get() + n));
            }
            p
        }
        unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
            let n = chunk(p);
            let _ = HELD.try_with(|h| h.set(h.get() - n));
            System.dealloc(p, l)
        }
    }

    #[global_allocator]
    static A: Counting = Counting;

    pub fn held() -> i64 {
        HELD.with(|h| h.get())
    }
}

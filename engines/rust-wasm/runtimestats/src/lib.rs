//! Allocation figures for the Rust engine, so the simulator and the servers can read what the
//! core really allocates. Rust has no garbage collector: what there is to see is the
//! allocator's traffic, which [`CountingAlloc`] counts as it passes it on to the real
//! allocator (jemalloc in the native server, the system allocator in the host, dlmalloc in
//! WebAssembly). Not part of the byte-identical contract.
//!
//! Semantics (the same in every build):
//! - `allocs_total`: calls to `alloc`/`alloc_zeroed`, plus one per `realloc`;
//! - `frees_total`: calls to `dealloc`, plus one per `realloc` (the old block);
//! - `alloc_bytes_total`: bytes requested by those allocations (a `realloc` counts its new
//!   size), like Go's `TotalAlloc`;
//! - `live_bytes` / `live_allocs`: requested bytes and blocks not yet freed.
//!
//! Counts cover the whole process (native) or the whole WebAssembly instance.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A global allocator that counts and forwards to `A`.
pub struct CountingAlloc<A> {
    inner: A,
    allocs: AtomicU64,
    frees: AtomicU64,
    bytes_total: AtomicU64,
    live_bytes: AtomicU64,
}

impl<A> CountingAlloc<A> {
    pub const fn new(inner: A) -> CountingAlloc<A> {
        CountingAlloc {
            inner,
            allocs: AtomicU64::new(0),
            frees: AtomicU64::new(0),
            bytes_total: AtomicU64::new(0),
            live_bytes: AtomicU64::new(0),
        }
    }

    #[inline]
    fn on_alloc(&self, size: usize) {
        self.allocs.fetch_add(1, Relaxed);
        self.bytes_total.fetch_add(size as u64, Relaxed);
        self.live_bytes.fetch_add(size as u64, Relaxed);
    }

    #[inline]
    fn on_free(&self, size: usize) {
        self.frees.fetch_add(1, Relaxed);
        self.live_bytes.fetch_sub(size as u64, Relaxed);
    }

    /// A snapshot of the counters.
    pub fn snapshot(&self) -> AllocCounts {
        let allocs = self.allocs.load(Relaxed);
        let frees = self.frees.load(Relaxed);
        AllocCounts {
            allocs_total: allocs,
            frees_total: frees,
            alloc_bytes_total: self.bytes_total.load(Relaxed),
            live_bytes: self.live_bytes.load(Relaxed),
            live_allocs: allocs.saturating_sub(frees),
        }
    }
}

unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAlloc<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = self.inner.alloc(layout);
        if !p.is_null() {
            self.on_alloc(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = self.inner.alloc_zeroed(layout);
        if !p.is_null() {
            self.on_alloc(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.inner.dealloc(ptr, layout);
        self.on_free(layout.size());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = self.inner.realloc(ptr, layout, new_size);
        if !p.is_null() {
            self.on_free(layout.size());
            self.on_alloc(new_size);
        }
        p
    }
}

/// The counters at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocCounts {
    pub alloc_bytes_total: u64,
    pub allocs_total: u64,
    pub frees_total: u64,
    pub live_bytes: u64,
    pub live_allocs: u64,
}

/// The rustc that built this program.
pub const RUSTC_VERSION: &str = env!("REPLICANT_RUSTC_VERSION");

/// The stats JSON every Rust driver reports: `{"runtime":"rust","version":…,"allocator":…,
/// counters…, extra fields…}`. `extra` holds further `(name, value)` pairs written as integers.
pub fn stats_json(allocator: &str, c: AllocCounts, extra: &[(&str, u64)]) -> String {
    let mut s = format!(
        "{{\"runtime\":\"rust\",\"version\":\"{RUSTC_VERSION}\",\"allocator\":\"{allocator}\",\
         \"alloc_bytes_total\":{},\"allocs_total\":{},\"frees_total\":{},\"live_bytes\":{},\"live_allocs\":{}",
        c.alloc_bytes_total, c.allocs_total, c.frees_total, c.live_bytes, c.live_allocs
    );
    for (name, value) in extra {
        s.push_str(&format!(",\"{name}\":{value}"));
    }
    s.push_str(",\"gc_count\":0,\"note\":\"Rust frees memory deterministically (ownership); there is no garbage collector\"}");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;

    #[test]
    fn counts_allocations_frees_and_reallocations() {
        let a = CountingAlloc::new(System);
        unsafe {
            let l = Layout::from_size_align(100, 8).unwrap();
            let p = a.alloc(l);
            assert_eq!(a.snapshot(), AllocCounts { alloc_bytes_total: 100, allocs_total: 1, frees_total: 0, live_bytes: 100, live_allocs: 1 });
            let p = a.realloc(p, l, 300);
            assert_eq!(a.snapshot(), AllocCounts { alloc_bytes_total: 400, allocs_total: 2, frees_total: 1, live_bytes: 300, live_allocs: 1 });
            a.dealloc(p, Layout::from_size_align(300, 8).unwrap());
            let z = a.alloc_zeroed(l);
            assert_eq!(*z, 0);
            a.dealloc(z, l);
        }
        assert_eq!(a.snapshot(), AllocCounts { alloc_bytes_total: 500, allocs_total: 3, frees_total: 3, live_bytes: 0, live_allocs: 0 });
    }

    #[test]
    fn stats_json_shape() {
        let s = stats_json("system", AllocCounts { alloc_bytes_total: 5, allocs_total: 2, frees_total: 1, live_bytes: 3, live_allocs: 1 }, &[("heap_bytes", 65536)]);
        assert!(s.starts_with("{\"runtime\":\"rust\",\"version\":\""), "{s}");
        assert!(s.contains(",\"allocator\":\"system\",\"alloc_bytes_total\":5,\"allocs_total\":2,\"frees_total\":1,\"live_bytes\":3,\"live_allocs\":1,\"heap_bytes\":65536,"), "{s}");
        assert!(s.ends_with('}'));
    }
}

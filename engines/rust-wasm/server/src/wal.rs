//! The write-ahead log of a node in durability log (docs/protocol.md, "Write-ahead log"),
//! frame for frame the Go server's (engines/go-wasm/server/wal.go), so a data dir written by
//! one can be read by the other: each record of a persist effect is a frame of its length (4
//! bytes, little endian), its CRC-32C (4 bytes, little endian) and its canonical JSON.
//!
//! Compaction (docs/protocol.md, "Compaction"), as the Go server: a persist whose first record
//! is a checkpoint is appended, then written as DIR/snapshot (temp file, fsync, rename, fsync of
//! the directory) and the log truncated; a restart reads the snapshot, then the log, from the
//! last checkpoint in the two, so a crash between any two steps loses nothing.

use replicant_core::codec::append_record;
use replicant_core::Record;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// When appended frames are forced to the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FsyncPolicy {
    /// Before the core hears the persist is done: one fsync per group of batches.
    Always,
    /// By a background flush every SYNC_INTERVAL; a crash of the machine (not the process)
    /// can lose the last interval.
    Interval,
    /// Left to the kernel.
    Never,
}

pub fn parse_fsync_policy(s: &str) -> Result<FsyncPolicy, String> {
    match s {
        "always" => Ok(FsyncPolicy::Always),
        "interval" => Ok(FsyncPolicy::Interval),
        "never" => Ok(FsyncPolicy::Never),
        _ => Err(format!("--fsync must be always, interval or never, not {s:?}")),
    }
}

/// How often FsyncPolicy::Interval flushes.
pub const SYNC_INTERVAL: Duration = Duration::from_millis(10);

pub(crate) const FRAME_HEADER: usize = 8;
/// Bounds one record (a snapshot of the whole store is the largest).
const MAX_RECORD: usize = 1 << 30;

/// CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), bit by bit through a table.
pub fn crc32c(data: &[u8]) -> u32 {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (i, slot) in t.iter_mut().enumerate() {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 { 0x82f6_3b78 ^ (c >> 1) } else { c >> 1 };
            }
            *slot = c;
        }
        t
    });
    !data.iter().fold(!0u32, |c, &b| table[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8))
}

pub const WAL_FILE: &str = "wal.log";
pub const SNAPSHOT_FILE: &str = "snapshot";
const CHECKPOINT_PREFIX: &[u8] = br#"{"kind":"checkpoint","#;

fn is_checkpoint(record: &[u8]) -> bool {
    record.starts_with(CHECKPOINT_PREFIX)
}

/// Drops every record before the last checkpoint: it supersedes them.
pub(crate) fn from_last_checkpoint(mut records: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    if let Some(i) = records.iter().rposition(|r| is_checkpoint(r)) {
        records.drain(..i);
    }
    records
}

/// Parses a snapshot file. It was renamed into place whole, so any damage (a frame cut short
/// or failing its checksum, a first record that is not a checkpoint) is an error naming the
/// file: "corrupt snapshot: …".
pub(crate) fn read_snapshot(path: &str, data: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let (records, end, warning) = read_frames(path, data).map_err(|e| format!("corrupt snapshot: {e}"))?;
    if warning.is_some() {
        return Err(format!(
            "corrupt snapshot: {path}: a frame cut short or failing its checksum at offset {end}; refusing to start"
        ));
    }
    if records.first().map_or(true, |r| !is_checkpoint(r)) {
        return Err(format!("corrupt snapshot: {path}: does not start with a checkpoint record; refusing to start"));
    }
    Ok(records)
}

pub(crate) fn frames(records: &[Record]) -> Vec<u8> {
    let mut buf = Vec::new();
    for r in records {
        let mut payload = Vec::new();
        append_record(&mut payload, r);
        buf.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        buf.extend_from_slice(&crc32c(&payload).to_le_bytes());
        buf.extend_from_slice(&payload);
    }
    buf
}

/// One node's log file, open for appending.
pub struct Wal {
    dir: PathBuf,
    path: PathBuf,
    file: File,
    policy: FsyncPolicy,
    /// FsyncPolicy::Interval: frames written since the flusher's last sync
    dirty: Arc<AtomicBool>,
    /// FsyncPolicy::Interval: set on drop, ends the flusher
    stop: Arc<AtomicBool>,
}

impl Drop for Wal {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if self.policy != FsyncPolicy::Never {
            let _ = self.file.sync_data();
        }
    }
}

/// What a log held when it was opened.
pub struct WalRead {
    /// Each record's canonical JSON, in the order written.
    pub records: Vec<Vec<u8>>,
    /// Set when a torn tail was truncated away.
    pub warning: Option<String>,
}

impl Wal {
    /// Opens (creating it if need be) DIR/wal.log and reads what it holds. A missing or
    /// unusable directory, or a corrupt frame with more frames after it, is an error naming the
    /// file and the offset.
    pub fn open(dir: &Path, policy: FsyncPolicy) -> Result<(Wal, WalRead), String> {
        let meta = std::fs::metadata(dir).map_err(|e| format!("data dir {}: {e}", dir.display()))?;
        if !meta.is_dir() {
            return Err(format!("data dir {} is not a directory", dir.display()));
        }
        // the snapshot first: a temp file is a compaction a crash interrupted before its rename
        let snapshot_path = dir.join(SNAPSHOT_FILE);
        let _ = std::fs::remove_file(dir.join(format!("{SNAPSHOT_FILE}.tmp")));
        let snapshot = match std::fs::read(&snapshot_path) {
            Ok(data) => read_snapshot(&snapshot_path.display().to_string(), &data)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(format!("{}: {e}", snapshot_path.display())),
        };
        let path = dir.join(WAL_FILE);
        let shown = path.display().to_string();
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| format!("data dir {}: cannot open the write-ahead log: {e}", dir.display()))?;
        let mut data = Vec::new();
        file.read_to_end(&mut data).map_err(|e| format!("{shown}: {e}"))?;
        let (records, end, warning) = read_frames(&shown, &data)?;
        if end < data.len() {
            file.set_len(end as u64).map_err(|e| format!("{shown}: cannot truncate the torn tail at offset {end}: {e}"))?;
            file.sync_all().map_err(|e| format!("{shown}: {e}"))?;
        }
        file.seek(SeekFrom::Start(end as u64)).map_err(|e| format!("{shown}: {e}"))?;
        let mut all = snapshot;
        all.extend(records);
        let records = from_last_checkpoint(all);
        let (dirty, stop) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        if policy == FsyncPolicy::Interval {
            let synced = file.try_clone().map_err(|e| format!("{shown}: {e}"))?;
            let (dirty, stop) = (Arc::clone(&dirty), Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(SYNC_INTERVAL);
                    if dirty.swap(false, Ordering::Relaxed) {
                        let _ = synced.sync_data();
                    }
                }
            });
        }
        Ok((Wal { dir: dir.to_path_buf(), path, file, policy, dirty, stop }, WalRead { records, warning }))
    }

    /// The log file's length in bytes (the snapshot not counted); the tests bound it.
    #[cfg(test)]
    pub fn size(&mut self) -> u64 {
        self.file.stream_position().unwrap_or(0)
    }

    /// Writes a checkpoint batch (already in the log) as the snapshot file, atomically, then
    /// empties the log: every record in it is superseded.
    fn compact(&mut self, frames: &[u8]) -> Result<(), String> {
        let path = self.dir.join(SNAPSHOT_FILE);
        let tmp = self.dir.join(format!("{SNAPSHOT_FILE}.tmp"));
        let shown_tmp = tmp.display();
        let mut f = File::create(&tmp).map_err(|e| format!("{shown_tmp}: {e}"))?;
        f.write_all(frames).map_err(|e| format!("{shown_tmp}: {e}"))?;
        f.sync_all().map_err(|e| format!("{shown_tmp}: fsync: {e}"))?;
        drop(f);
        std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))?;
        File::open(&self.dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| format!("data dir {}: fsync: {e}", self.dir.display()))?;
        let shown = self.path.display();
        self.file.set_len(0).map_err(|e| format!("{shown}: truncate after a snapshot: {e}"))?;
        self.file.seek(SeekFrom::Start(0)).map_err(|e| format!("{shown}: {e}"))?;
        if self.policy != FsyncPolicy::Never {
            self.file.sync_data().map_err(|e| format!("{shown}: fsync: {e}"))?;
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one persist effect's records as frames, in one write, synced if the policy says
    /// so. A batch that starts with a checkpoint then compacts the log.
    #[cfg(test)]
    pub fn append(&mut self, records: &[Record]) -> Result<(), String> {
        let buf = frames(records);
        let checkpoint = matches!(records.first(), Some(Record::Checkpoint { .. }));
        self.append_group(&buf, checkpoint.then_some(&buf[..]))
    }

    /// Writes frames (one or more persist effects' frames, in the order issued) in one write,
    /// synced once if the policy says so: a group commit (persister.rs). `checkpoint`, when
    /// set, is the frames of the group's last batch, a checkpoint: the log is then compacted to it.
    pub fn append_group(&mut self, frames: &[u8], checkpoint: Option<&[u8]>) -> Result<(), String> {
        let shown = self.path.display();
        self.file.write_all(frames).map_err(|e| format!("{shown}: {e}"))?;
        match self.policy {
            FsyncPolicy::Always => self.file.sync_data().map_err(|e| format!("{shown}: fsync: {e}"))?,
            FsyncPolicy::Interval => self.dirty.store(true, Ordering::Relaxed),
            FsyncPolicy::Never => {}
        }
        if let Some(checkpoint) = checkpoint {
            self.compact(checkpoint)?;
        }
        Ok(())
    }
}

/// Parses a log: the records, the offset where the good frames end, and a warning when a
/// torn tail (a frame cut short, or a last frame whose checksum fails) follows them.
pub(crate) fn read_frames(path: &str, data: &[u8]) -> Result<(Vec<Vec<u8>>, usize, Option<String>), String> {
    let mut records = Vec::new();
    let mut off = 0usize;
    let size = data.len();
    while off < size {
        if size - off < FRAME_HEADER {
            let w = format!("{path}: torn tail at offset {off} ({} bytes of a frame header) truncated", size - off);
            return Ok((records, off, Some(w)));
        }
        let n = u32::from_le_bytes(data[off..off + 4].try_into().unwrap()) as usize;
        let sum = u32::from_le_bytes(data[off + 4..off + 8].try_into().unwrap());
        if n > MAX_RECORD {
            if off + FRAME_HEADER + n >= size {
                return Ok((records, off, Some(format!("{path}: torn tail at offset {off} (a frame length of {n}) truncated"))));
            }
            return Err(format!("{path}: corrupt record at offset {off}: length {n}"));
        }
        if off + FRAME_HEADER + n > size {
            let w = format!(
                "{path}: torn tail at offset {off} (a frame of {n} bytes, {} written) truncated",
                size - off - FRAME_HEADER
            );
            return Ok((records, off, Some(w)));
        }
        let payload = &data[off + FRAME_HEADER..off + FRAME_HEADER + n];
        if crc32c(payload) != sum {
            if off + FRAME_HEADER + n == size {
                return Ok((records, off, Some(format!("{path}: torn tail at offset {off} (the last frame's checksum fails) truncated"))));
            }
            return Err(format!(
                "{path}: corrupt record at offset {off}: checksum mismatch with {} bytes after it; refusing to start",
                size - off - FRAME_HEADER - n
            ));
        }
        records.push(payload.to_vec());
        off += FRAME_HEADER + n;
    }
    Ok((records, off, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("replicant-wal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn write(dir: &Path, records: &[Record]) {
        let (mut w, _) = Wal::open(dir, FsyncPolicy::Always).unwrap();
        w.append(records).unwrap();
    }

    #[test]
    fn crc32c_matches_the_standard_check_value() {
        assert_eq!(crc32c(b"123456789"), 0xe306_9283);
    }

    #[test]
    fn reads_back_truncates_a_torn_tail_and_refuses_a_corrupt_middle() {
        let dir = temp_dir("wal");
        write(&dir, &[Record::Promise(257), Record::Promise(513)]);
        let (_, read) = Wal::open(&dir, FsyncPolicy::Never).unwrap();
        assert_eq!(read.records.len(), 2);
        assert_eq!(read.records[1], br#"{"kind":"promise","ballot":513}"#.to_vec());
        let path = dir.join("wal.log");
        let good = std::fs::read(&path).unwrap();
        let mut torn = good.clone();
        torn.extend_from_slice(&[40, 0, 0, 0, 1, 2, 3, 4, b'{']);
        std::fs::write(&path, &torn).unwrap();
        let (_, read) = Wal::open(&dir, FsyncPolicy::Always).unwrap();
        assert_eq!(read.records.len(), 2);
        assert!(read.warning.unwrap().contains("torn tail at offset 78"));
        assert_eq!(std::fs::read(&path).unwrap().len(), good.len());
        let mut bad = good.clone();
        bad[20] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        let err = Wal::open(&dir, FsyncPolicy::Always).err().unwrap();
        assert!(err.contains("corrupt record at offset 0") && err.contains("wal.log"), "{err}");
        assert!(Wal::open(&dir.join("missing"), FsyncPolicy::Always).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    use replicant_core::codec::decode_record_json;
    use replicant_core::Durability;
    use replicant_core::messages::{Effect, Event, TimerName};
    use replicant_core::node::Node;
    use replicant_core::Config;

    fn durable_node(snapshot_every: u64) -> Node {
        // checkpoints need both batches (Config::validate), as the server runs them
        let (repair_batch, election_batch) = (replicant_core::config::SERVER_REPAIR_BATCH, replicant_core::config::SERVER_ELECTION_BATCH);
        Node::new(Config { num_peers: 1, seed: 1, durability: Durability::Log, snapshot_every, repair_batch, election_batch, ..Config::default() })
    }

    /// Steps the node as the server does: every persist effect appended, then `persisted`.
    fn step_on_wal(n: &mut Node, w: &mut Wal, ev: Event) {
        let mut next = vec![ev];
        while let Some(e) = next.pop() {
            for eff in n.step(e) {
                if let Effect::Persist { persist_id, records } = eff {
                    w.append(records).unwrap();
                    next.push(Event::Persisted(*persist_id));
                }
            }
        }
    }

    fn kv_of(inspect: &[u8]) -> String {
        let s = String::from_utf8(inspect.to_vec()).unwrap();
        s[s.find(r#""kv":"#).unwrap()..s.find(r#""prepare":"#).unwrap()].to_string()
    }

    fn checkpoint(last_executed: u64) -> Vec<u8> {
        format!(r#"{{"kind":"checkpoint","ballot":257,"last_executed":{last_executed},"kv":[["k","{last_executed}"]]}}"#).into_bytes()
    }

    fn committed_put(index: u64) -> Vec<u8> {
        format!(r#"{{"kind":"instance","instance":{{"ballot":257,"index":{index},"client_id":1,"request_id":{index},"state":"committed","command":{{"type":"put","key":"k","value":"{index}"}}}}}}"#).into_bytes()
    }

    fn frames_of(records: &[Vec<u8>]) -> Vec<u8> {
        frames(&records.iter().map(|r| decode_record_json(r).unwrap()).collect::<Vec<_>>())
    }

    /// Under 2,000 puts with snapshot_every 64 the log stays bounded (without compaction it
    /// ends above 2,000 × 150 bytes), and a node restarted from the snapshot and the log has the
    /// same KV store as before.
    #[test]
    fn the_log_stays_bounded_and_a_restart_equals_the_node_before() {
        let dir = temp_dir("bounded");
        let (mut w, _) = Wal::open(&dir, FsyncPolicy::Never).unwrap();
        let mut n = durable_node(64);
        step_on_wal(&mut n, &mut w, Event::Start);
        step_on_wal(&mut n, &mut w, Event::Timer(TimerName::Election));
        let mut max_log = 0;
        for i in 1..=2000u64 {
            let line = format!("put k{} v{i}", i % 37).into_bytes();
            step_on_wal(&mut n, &mut w, Event::Client { client_id: 1, request_id: i, line });
            max_log = max_log.max(w.size());
        }
        assert!(max_log <= 64 * 2 * 250, "the log grew to {max_log} bytes with the load");
        assert!(!std::fs::read(dir.join(SNAPSHOT_FILE)).unwrap().is_empty());
        let before = n.inspect();
        drop(w);
        let (_, read) = Wal::open(&dir, FsyncPolicy::Never).unwrap();
        assert!(read.records.len() < 70, "a restart replays {} records", read.records.len());
        let records = read.records.iter().map(|r| decode_record_json(r).unwrap()).collect();
        let mut m = durable_node(64);
        m.step(Event::Restart(records));
        let after = m.inspect();
        assert_eq!(kv_of(&after), kv_of(&before));
        assert!(String::from_utf8(after).unwrap().contains(r#""last_executed":2000,"#));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A crash between the steps of a compaction loses nothing: the checkpoint is appended
    /// before the snapshot is renamed, and the log is emptied only after.
    #[test]
    fn a_crash_between_the_steps_of_a_compaction_loses_nothing() {
        let old_snapshot = frames_of(&[checkpoint(1)]);
        let before = frames_of(&[committed_put(2), committed_put(3)]);
        let batch = frames_of(&[checkpoint(3), committed_put(4)]);
        let log = [before.clone(), batch.clone()].concat();
        for (i, (snapshot, tmp)) in [(old_snapshot, batch[..9].to_vec()), (batch.clone(), Vec::new())].into_iter().enumerate() {
            let dir = temp_dir(&format!("crash{i}"));
            std::fs::write(dir.join(SNAPSHOT_FILE), &snapshot).unwrap();
            if !tmp.is_empty() {
                std::fs::write(dir.join("snapshot.tmp"), &tmp).unwrap();
            }
            std::fs::write(dir.join(WAL_FILE), &log).unwrap();
            let (_, read) = Wal::open(&dir, FsyncPolicy::Never).unwrap();
            assert_eq!(read.records, vec![checkpoint(3), committed_put(4)]);
            assert!(!dir.join("snapshot.tmp").exists(), "the temp file was left behind");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    #[test]
    fn a_corrupt_snapshot_is_a_named_error() {
        let good = frames_of(&[checkpoint(3), committed_put(4)]);
        let mut flipped = good.clone();
        flipped[12] ^= 0x20;
        for (i, data) in [flipped, good[..good.len() - 3].to_vec(), frames_of(&[committed_put(4)]), Vec::new()].iter().enumerate() {
            let dir = temp_dir(&format!("corrupt{i}"));
            std::fs::write(dir.join(SNAPSHOT_FILE), data).unwrap();
            let err = Wal::open(&dir, FsyncPolicy::Never).err().unwrap();
            assert!(err.contains("corrupt snapshot") && err.contains("snapshot"), "{err}");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

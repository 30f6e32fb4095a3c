//! The write-ahead log of a node in durability log (docs/protocol.md, "Write-ahead log"),
//! frame for frame the Go server's (engines/go-wasm/server/wal.go), so a data dir written by
//! one can be read by the other: each record of a persist effect is a frame of its length (4
//! bytes, little endian), its CRC-32C (4 bytes, little endian) and its canonical JSON.

use replicant_core::codec::append_record;
use replicant_core::Record;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// When appended frames are forced to the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FsyncPolicy {
    /// Before the core hears the persist is done: one fsync per batch.
    Always,
    /// Left to the kernel.
    Never,
}

pub fn parse_fsync_policy(s: &str) -> Result<FsyncPolicy, String> {
    match s {
        "always" => Ok(FsyncPolicy::Always),
        "never" => Ok(FsyncPolicy::Never),
        _ => Err(format!("--fsync must be always or never, not {s:?}")),
    }
}

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

/// One node's log file, open for appending.
pub struct Wal {
    path: PathBuf,
    file: File,
    policy: FsyncPolicy,
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
        let path = dir.join("wal.log");
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
        Ok((Wal { path, file, policy }, WalRead { records, warning }))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one persist effect's records as frames, in one write, synced if the policy says so.
    pub fn append(&mut self, records: &[Record]) -> Result<(), String> {
        let mut buf = Vec::new();
        for r in records {
            let mut payload = Vec::new();
            append_record(&mut payload, r);
            buf.extend_from_slice(&(payload.len() as u32).to_le_bytes());
            buf.extend_from_slice(&crc32c(&payload).to_le_bytes());
            buf.extend_from_slice(&payload);
        }
        let shown = self.path.display();
        self.file.write_all(&buf).map_err(|e| format!("{shown}: {e}"))?;
        if self.policy == FsyncPolicy::Always {
            self.file.sync_data().map_err(|e| format!("{shown}: fsync: {e}"))?;
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
}

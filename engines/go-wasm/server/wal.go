package server

// The write-ahead log of a node in durability log (docs/protocol.md, "Durability"; native
// servers, "Write-ahead log"): the core's persist effects, one frame per record, appended to
// DIR/wal.log. A frame is the record's length (4 bytes, little endian), the CRC-32C of the
// record (4 bytes, little endian) and the record (its canonical JSON). On start the frames are
// read back and handed to the core in a restart event.
//
// Compaction (docs/protocol.md, "Compaction"): a persist whose first record is a checkpoint
// supersedes every record before it. It is appended like any other, then written as
// DIR/snapshot (same frames; a temp file, fsync, rename, fsync of the directory) and the log is
// truncated. A restart reads the snapshot and then the log, and starts from the last
// checkpoint in the two, so a crash between any two of those steps loses nothing: the
// checkpoint is in the log before the snapshot replaces the old one, and in the snapshot
// before the log is emptied.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"replicant/engines/go-wasm/core"
)

// FsyncPolicy says when appended frames are forced to the device.
type FsyncPolicy uint8

const (
	FsyncAlways   FsyncPolicy = iota // before the core hears the persist is done: one fsync per group of batches (persister.go)
	FsyncInterval                    // by a background flush every WALSyncInterval; a crash of the machine (not the process) can lose the last interval
	FsyncNever                       // left to the kernel
)

// ParseFsyncPolicy reads --fsync.
func ParseFsyncPolicy(s string) (FsyncPolicy, error) {
	switch s {
	case "always":
		return FsyncAlways, nil
	case "interval":
		return FsyncInterval, nil
	case "never":
		return FsyncNever, nil
	}
	return 0, fmt.Errorf("--fsync must be always, interval or never, not %q", s)
}

// WALSyncInterval is how often FsyncInterval flushes.
const WALSyncInterval = 10 * time.Millisecond

// walFrameHeader is the length and checksum before every record.
const walFrameHeader = 8

// walMaxRecord bounds one record (a snapshot of the whole store is the largest).
const walMaxRecord = 1 << 30

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// walCheckpointPrefix starts every checkpoint record (canonical JSON: "kind" comes first).
const walCheckpointPrefix = `{"kind":"checkpoint",`

// WALSnapshotFile and WALFile are the names of a node's files in its data dir.
const (
	WALFile         = "wal.log"
	WALSnapshotFile = "snapshot"
)

// WAL is one node's log file, open for appending.
type WAL struct {
	dir    string
	path   string
	file   *os.File
	policy FsyncPolicy
	mu     sync.Mutex // the interval flusher against appends
	dirty  bool
	stop   chan struct{}
	done   chan struct{}
}

// WALReadResult is what a WAL held when it was opened.
type WALReadResult struct {
	Records [][]byte // each record's canonical JSON, in the order written
	// Warning is set when a torn tail (a frame cut short, or a last frame whose checksum
	// fails: a write the crash interrupted) was truncated away.
	Warning string
}

// OpenWAL opens (creating it if need be) DIR/wal.log and reads what it holds. A missing or
// unwritable directory, or a corrupt frame with more frames after it, is an error naming the
// file and offset: the node must not start on a log it cannot trust.
func OpenWAL(dir string, policy FsyncPolicy) (*WAL, WALReadResult, error) {
	var res WALReadResult
	info, err := os.Stat(dir)
	if err != nil {
		return nil, res, fmt.Errorf("data dir %s: %v", dir, err)
	}
	if !info.IsDir() {
		return nil, res, fmt.Errorf("data dir %s is not a directory", dir)
	}
	snapshot, err := readSnapshot(dir)
	if err != nil {
		return nil, res, err
	}
	path := filepath.Join(dir, WALFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, res, fmt.Errorf("data dir %s: cannot open the write-ahead log: %v", dir, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		f.Close()
		return nil, res, fmt.Errorf("%s: %v", path, err)
	}
	records, end, warning, err := readFrames(path, data)
	if err != nil {
		f.Close()
		return nil, res, err
	}
	if end < int64(len(data)) {
		if err := f.Truncate(end); err != nil {
			f.Close()
			return nil, res, fmt.Errorf("%s: cannot truncate the torn tail at offset %d: %v", path, end, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, res, fmt.Errorf("%s: %v", path, err)
		}
	}
	if _, err := f.Seek(end, 0); err != nil {
		f.Close()
		return nil, res, fmt.Errorf("%s: %v", path, err)
	}
	res.Records, res.Warning = fromLastCheckpoint(append(snapshot, records...)), warning
	w := &WAL{dir: dir, path: path, file: f, policy: policy}
	if policy == FsyncInterval {
		w.stop, w.done = make(chan struct{}), make(chan struct{})
		go w.flushLoop()
	}
	return w, res, nil
}

// readFrames parses data; it returns the records, the offset where the good frames end, and
// a warning when a torn tail follows them.
func readFrames(path string, data []byte) ([][]byte, int64, string, error) {
	var records [][]byte
	off := int64(0)
	size := int64(len(data))
	for off < size {
		if size-off < walFrameHeader {
			return records, off, fmt.Sprintf("%s: torn tail at offset %d (%d bytes of a frame header) truncated", path, off, size-off), nil
		}
		n := int64(binary.LittleEndian.Uint32(data[off:]))
		sum := binary.LittleEndian.Uint32(data[off+4:])
		if n > walMaxRecord {
			if off+walFrameHeader+n >= size {
				return records, off, fmt.Sprintf("%s: torn tail at offset %d (a frame length of %d) truncated", path, off, n), nil
			}
			return nil, 0, "", fmt.Errorf("%s: corrupt record at offset %d: length %d", path, off, n)
		}
		if off+walFrameHeader+n > size {
			return records, off, fmt.Sprintf("%s: torn tail at offset %d (a frame of %d bytes, %d written) truncated", path, off, n, size-off-walFrameHeader), nil
		}
		payload := data[off+walFrameHeader : off+walFrameHeader+n]
		if crc32.Checksum(payload, castagnoli) != sum {
			if off+walFrameHeader+n == size {
				return records, off, fmt.Sprintf("%s: torn tail at offset %d (the last frame's checksum fails) truncated", path, off), nil
			}
			return nil, 0, "", fmt.Errorf("%s: corrupt record at offset %d: checksum mismatch with %d bytes after it; refusing to start", path, off, size-off-walFrameHeader-n)
		}
		records = append(records, payload)
		off += walFrameHeader + n
	}
	return records, off, "", nil
}

// readSnapshot reads DIR/snapshot, if there is one. It was renamed into place whole, so any
// damage (a short frame, a failed checksum, a first record that is not a checkpoint) is
// corruption: an error naming the file and offset, never a silent fallback to the log alone.
// A temp file left by a crash before its rename is removed.
func readSnapshot(dir string) ([][]byte, error) {
	path := filepath.Join(dir, WALSnapshotFile)
	os.Remove(path + ".tmp")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	records, end, warning, err := readFrames(path, data)
	switch {
	case err != nil:
		return nil, fmt.Errorf("corrupt snapshot: %v", err)
	case warning != "":
		return nil, fmt.Errorf("corrupt snapshot: %s: a frame cut short or failing its checksum at offset %d; refusing to start", path, end)
	case len(records) == 0 || !isCheckpoint(records[0]):
		return nil, fmt.Errorf("corrupt snapshot: %s: does not start with a checkpoint record; refusing to start", path)
	}
	return records, nil
}

func isCheckpoint(record []byte) bool { return strings.HasPrefix(string(record), walCheckpointPrefix) }

// fromLastCheckpoint drops every record before the last checkpoint: it supersedes them.
func fromLastCheckpoint(records [][]byte) [][]byte {
	for i := len(records) - 1; i >= 0; i-- {
		if isCheckpoint(records[i]) {
			return records[i:]
		}
	}
	return records
}

func appendFrames(buf []byte, records []core.Record) []byte {
	for i := range records {
		payload := core.AppendRecord(nil, &records[i])
		var hdr [walFrameHeader]byte
		binary.LittleEndian.PutUint32(hdr[:], uint32(len(payload)))
		binary.LittleEndian.PutUint32(hdr[4:], crc32.Checksum(payload, castagnoli))
		buf = append(append(buf, hdr[:]...), payload...)
	}
	return buf
}

// Append writes one persist effect's records as frames, in one write, and syncs them if the
// policy says so. A batch that starts with a checkpoint then compacts the log.
func (w *WAL) Append(records []core.Record) error {
	buf := appendFrames(nil, records)
	var checkpoint []byte
	if len(records) > 0 && records[0].Kind == core.RecordCheckpoint {
		checkpoint = buf
	}
	return w.AppendGroup(buf, checkpoint)
}

// AppendGroup writes frames (the frames of one or more persist effects, in the order issued)
// in one write and syncs them once if the policy says so: a group commit. checkpoint, when
// set, is the frames of the group's last batch, a checkpoint; the log is then compacted to it.
func (w *WAL) AppendGroup(frames, checkpoint []byte) error {
	if err := w.write(frames); err != nil {
		return err
	}
	if checkpoint != nil {
		return w.compact(checkpoint)
	}
	return nil
}

// compact writes a checkpoint batch (already in the log) as the snapshot file, atomically,
// then empties the log: every record in it is superseded.
func (w *WAL) compact(frames []byte) error {
	path := filepath.Join(w.dir, WALSnapshotFile)
	if err := writeFileSynced(path+".tmp", frames); err != nil {
		return err
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if err := syncDir(w.dir); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.file.Truncate(0); err != nil {
		return fmt.Errorf("%s: truncate after a snapshot: %v", w.path, err)
	}
	if _, err := w.file.Seek(0, 0); err != nil {
		return fmt.Errorf("%s: %v", w.path, err)
	}
	if w.policy != FsyncNever {
		if err := w.file.Sync(); err != nil {
			return fmt.Errorf("%s: fsync: %v", w.path, err)
		}
	}
	return nil
}

func writeFileSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("data dir %s: %v", dir, err)
	}
	err = errors.Join(d.Sync(), d.Close())
	if err != nil {
		return fmt.Errorf("data dir %s: fsync: %v", dir, err)
	}
	return nil
}

// Size is the log file's length in bytes (the snapshot not counted).
func (w *WAL) Size() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	off, err := w.file.Seek(0, 1)
	if err != nil {
		return -1
	}
	return off
}

func (w *WAL) write(buf []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.file.Write(buf); err != nil {
		return fmt.Errorf("%s: %v", w.path, err)
	}
	switch w.policy {
	case FsyncAlways:
		if err := w.file.Sync(); err != nil {
			return fmt.Errorf("%s: fsync: %v", w.path, err)
		}
	case FsyncInterval:
		w.dirty = true
	}
	return nil
}

func (w *WAL) flushLoop() {
	defer close(w.done)
	t := time.NewTicker(WALSyncInterval)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			w.mu.Lock()
			if w.dirty {
				w.file.Sync()
				w.dirty = false
			}
			w.mu.Unlock()
		}
	}
}

// Close flushes and closes the file.
func (w *WAL) Close() error {
	if w.stop != nil {
		close(w.stop)
		<-w.done
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return errors.Join(w.file.Sync(), w.file.Close())
}

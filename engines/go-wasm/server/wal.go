package server

// The write-ahead log of a node in durability log (docs/protocol.md, "Durability"; native
// servers, "Write-ahead log"): the core's persist effects, one frame per record, appended to
// DIR/wal.log. A frame is the record's length (4 bytes, little endian), the CRC-32C of the
// record (4 bytes, little endian) and the record (its canonical JSON). On start the frames are
// read back and handed to the core in a restart event.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"time"

	"replicant/engines/go-wasm/core"
)

// FsyncPolicy says when appended frames are forced to the device.
type FsyncPolicy uint8

const (
	FsyncAlways   FsyncPolicy = iota // before the core hears the persist is done: one fsync per batch
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

// WAL is one node's log file, open for appending.
type WAL struct {
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
	path := filepath.Join(dir, "wal.log")
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
	res.Records, res.Warning = records, warning
	w := &WAL{path: path, file: f, policy: policy}
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

// Append writes one persist effect's records as frames, in one write, and syncs them if the
// policy says so.
func (w *WAL) Append(records []core.Record) error {
	var buf []byte
	for i := range records {
		payload := core.AppendRecord(nil, &records[i])
		var hdr [walFrameHeader]byte
		binary.LittleEndian.PutUint32(hdr[:], uint32(len(payload)))
		binary.LittleEndian.PutUint32(hdr[4:], crc32.Checksum(payload, castagnoli))
		buf = append(append(buf, hdr[:]...), payload...)
	}
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

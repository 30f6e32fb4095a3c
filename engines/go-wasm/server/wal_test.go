package server

import (
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"replicant/engines/go-wasm/core"
)

func promise(b uint64) core.Record { return core.Record{Kind: core.RecordPromise, Ballot: b} }

func writeWAL(t *testing.T, dir string, records ...core.Record) {
	t.Helper()
	w, _, err := OpenWAL(dir, FsyncAlways)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(records); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestWALReadsBackWhatItWrote(t *testing.T) {
	dir := t.TempDir()
	writeWAL(t, dir, promise(257), promise(513))
	writeWAL(t, dir, promise(769))
	_, held, err := OpenWAL(dir, FsyncNever)
	if err != nil || held.Warning != "" || len(held.Records) != 3 || string(held.Records[2]) != `{"kind":"promise","ballot":769}` {
		t.Fatalf("records %q, warning %q, err %v", held.Records, held.Warning, err)
	}
}

func TestWALTruncatesATornTailWithAWarning(t *testing.T) {
	for _, tail := range [][]byte{{1, 2, 3}, {40, 0, 0, 0, 1, 2, 3, 4, '{'}} {
		dir := t.TempDir()
		writeWAL(t, dir, promise(257))
		path := filepath.Join(dir, "wal.log")
		good, _ := os.ReadFile(path)
		os.WriteFile(path, append(append([]byte{}, good...), tail...), 0o644)
		w, held, err := OpenWAL(dir, FsyncAlways)
		if err != nil || len(held.Records) != 1 || !strings.Contains(held.Warning, "torn tail at offset 39") {
			t.Fatalf("tail %v: records %d, warning %q, err %v", tail, len(held.Records), held.Warning, err)
		}
		w.Close()
		if after, _ := os.ReadFile(path); len(after) != len(good) {
			t.Fatalf("the torn tail was not truncated: %d bytes, want %d", len(after), len(good))
		}
	}
}

func TestWALRefusesACorruptRecordInTheMiddle(t *testing.T) {
	dir := t.TempDir()
	writeWAL(t, dir, promise(257), promise(513))
	path := filepath.Join(dir, "wal.log")
	data, _ := os.ReadFile(path)
	data[20] ^= 0x01 // inside the first record, which has a second one after it
	os.WriteFile(path, data, 0o644)
	_, _, err := OpenWAL(dir, FsyncAlways)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "corrupt record at offset 0") {
		t.Fatalf("a corrupt middle record must refuse, naming file and offset: %v", err)
	}
	if after, _ := os.ReadFile(path); len(after) != len(data) {
		t.Fatal("a refused log must be left as it is")
	}
}

func TestWALNeedsAUsableDataDir(t *testing.T) {
	if _, _, err := OpenWAL(filepath.Join(t.TempDir(), "missing"), FsyncAlways); err == nil {
		t.Fatal("a missing data dir must be an error, not an in-memory fallback")
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, _, err := OpenWAL(file, FsyncAlways); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("a data dir that is a file: %v", err)
	}
	if _, err := ParseFsyncPolicy("sometimes"); err == nil {
		t.Fatal("accepted an unknown fsync policy")
	}
}

// A 3-node durable cluster is stopped entirely and started again from its data dirs: every
// acknowledged write is read back.
func TestDurableClusterKeepsAcknowledgedWritesAcrossAFullRestart(t *testing.T) {
	d := startDurableCluster(t, FsyncAlways, core.ServerSnapshotEvery)
	cfg := d.cfg
	c := leaderClient(t, cfg)
	for _, kv := range []string{"a 1", "b 2", "a 3"} {
		if got := doAtLeader(t, cfg, &c, "put "+kv); got != "" {
			t.Fatalf("put %s: %q", kv, got)
		}
	}
	c.conn.Close()
	d.restart()
	c = leaderClient(t, cfg)
	deadline := time.Now().Add(5 * time.Second)
	for {
		a, b := doAtLeader(t, cfg, &c, "get a"), doAtLeader(t, cfg, &c, "get b")
		if a == "3" && b == "2" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restart: a=%q b=%q, want 3 and 2", a, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// durableCluster is three servers, each with its write-ahead log in a data dir of its own, that a
// test stops entirely and starts again from those dirs.
type durableCluster struct {
	t             *testing.T
	cfg           FileConfig
	dirs          []string
	policy        FsyncPolicy
	snapshotEvery uint64
	servers       []*Server
	wals          []*WAL
}

// startDurableCluster starts the three servers on fresh data dirs; the test's clean-up stops them.
func startDurableCluster(t *testing.T, policy FsyncPolicy, snapshotEvery uint64) *durableCluster {
	t.Helper()
	addrs := freeAddrs(t, 6)
	d := &durableCluster{t: t, cfg: FileConfig{CommitIntervalMs: 20, Peers: addrs[:3], Clients: addrs[3:]},
		dirs: []string{t.TempDir(), t.TempDir(), t.TempDir()}, policy: policy, snapshotEvery: snapshotEvery}
	t.Cleanup(d.stop)
	d.start()
	return d
}

func (d *durableCluster) start() {
	d.t.Helper()
	d.servers, d.wals = nil, nil
	for id, dir := range d.dirs {
		s, err := New(d.cfg, id, uint64(id+1), log.New(io.Discard, "", 0))
		if err != nil {
			d.t.Fatal(err)
		}
		w, held, err := OpenWAL(dir, d.policy)
		if err != nil {
			d.t.Fatal(err)
		}
		if err := s.EnableDurability(w, held, d.snapshotEvery); err != nil {
			d.t.Fatal(err)
		}
		if err := s.Start(); err != nil {
			d.t.Fatal(err)
		}
		d.servers = append(d.servers, s)
		d.wals = append(d.wals, w)
	}
}

func (d *durableCluster) stop() {
	for _, s := range d.servers {
		s.Stop()
	}
	d.servers = nil
}

// restart stops every server and starts them all again from their data dirs.
func (d *durableCluster) restart() {
	d.t.Helper()
	d.stop()
	d.start()
}

// doAtLeader sends one line to the leader, finding it again when leadership moved (a freshly
// restarted cluster may elect twice): the reply that finally comes from a leader.
func doAtLeader(t *testing.T, cfg FileConfig, c **client, line string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		reply := (*c).do(t, line)
		if reply != "retry" && !strings.HasPrefix(reply, "leader is ") {
			return reply
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q: no leader answered within 5 s (last reply %q)", line, reply)
		}
		(*c).conn.Close()
		*c = leaderClient(t, cfg)
	}
}

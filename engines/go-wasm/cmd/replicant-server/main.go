// replicant-server runs one Replicant node over TCP:
//
//	replicant-server --config cluster.json --id 0 [--seed N]
//	                 [--data-dir DIR [--durability log|none] [--fsync always|interval|never]]
//
// With --data-dir the node runs durability log (docs/protocol.md, "Durability"): its
// write-ahead log is DIR/wal.log, and a restart reads it back. Without it the node keeps
// nothing (durability none, the paper's design).
// It exits with status 2 and a message on a bad configuration, and cleanly on SIGINT/SIGTERM.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"replicant/engines/go-wasm/core"
	"replicant/engines/go-wasm/server"
)

func main() {
	stop := watchStopSignals()
	configPath := flag.String("config", "", "cluster configuration (JSON)")
	id := flag.Int("id", -1, "this node's position in the config's peers")
	seed := flag.Uint64("seed", 0, "seed of the election-timeout jitter (default: the id)")
	dataDir := flag.String("data-dir", "", "directory of the write-ahead log (durability log)")
	durability := flag.String("durability", "", "log (the default with --data-dir) or none")
	fsync := flag.String("fsync", "always", "when the write-ahead log is synced: always, interval or never")
	snapshotEvery := flag.Uint64("snapshot-every", core.ServerSnapshotEvery, "durability log: a checkpoint (snapshot file, log truncated) every this many executed instances; 0 never")
	logBound := flag.Uint64("log-bound", core.ServerLogBound, "the most executed entries the leader keeps while a peer is silent (docs/protocol.md, \"Log bound\"); 0 unbounded")
	statusIntervalMs := flag.Uint64("status-interval-ms", 1000, "how often the status line is logged, 10 to 60000 ms")
	mitigation := flag.String("mitigation", "none", "GC mitigation: none, blade, mitmem or both (GOGC off under a watcher; docs/mitigation.md)")
	testPeerReset := flag.Bool("test-peer-reset", false, "tests only: accept the reset-peer command on the client port (docs/protocol.md, \"Native servers\")")
	flag.Parse()
	fail := func(err error) {
		fmt.Fprintf(os.Stderr, "replicant-server: %v\n", err)
		os.Exit(2)
	}
	if *configPath == "" {
		fail(fmt.Errorf("--config is required"))
	}
	cfg, err := server.LoadConfig(*configPath, *id)
	if err != nil {
		fail(err)
	}
	if *seed == 0 {
		*seed = uint64(*id) + 1
	}
	logger := log.New(os.Stderr, fmt.Sprintf("[go n%d] ", *id), log.LstdFlags|log.Lmicroseconds)
	s, err := server.New(cfg, *id, *seed, logger)
	if err != nil {
		fail(err)
	}
	if *testPeerReset {
		s.EnablePeerReset()
	}
	if err := s.SetLogBound(*logBound); err != nil {
		fail(err)
	}
	if *statusIntervalMs > 60000 {
		fail(fmt.Errorf("--status-interval-ms must be between 10 and 60000"))
	}
	if err := s.SetStatusInterval(time.Duration(*statusIntervalMs) * time.Millisecond); err != nil {
		fail(fmt.Errorf("--status-interval-ms: %v", err))
	}
	switch {
	case *durability == "" && *dataDir != "", *durability == "log":
		if *dataDir == "" {
			fail(fmt.Errorf("--durability log needs --data-dir"))
		}
		policy, err := server.ParseFsyncPolicy(*fsync)
		if err != nil {
			fail(err)
		}
		w, held, err := server.OpenWAL(*dataDir, policy)
		if err != nil {
			fail(err)
		}
		if held.Warning != "" {
			logger.Printf("warning: %s", held.Warning)
		}
		if err := s.EnableDurability(w, held, *snapshotEvery); err != nil {
			fail(err)
		}
	case *durability == "" || *durability == "none":
		if *dataDir != "" {
			fail(fmt.Errorf("--durability none keeps no data: drop --data-dir"))
		}
	default:
		fail(fmt.Errorf("--durability must be log or none, not %q", *durability))
	}
	mode, err := core.ParseMitigation(*mitigation)
	if err != nil {
		fail(err)
	}
	if err := s.EnableGCMitigation(mode); err != nil {
		fail(err)
	}
	if err := s.Start(); err != nil {
		fail(err)
	}
	logger.Printf("serving clients on %s, peers on %s", cfg.Clients[*id], cfg.Peers[*id])
	logger.Printf("stopping on %s", stop.serving())
	s.Stop()
}

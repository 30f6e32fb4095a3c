// replicant-server runs one Replicant node over TCP:
//
//	replicant-server --config cluster.json --id 0 [--seed N]
//
// It exits with status 2 and a message on a bad configuration, and cleanly on SIGINT/SIGTERM.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"replicant/engines/go-wasm/server"
)

func main() {
	configPath := flag.String("config", "", "cluster configuration (JSON)")
	id := flag.Int("id", -1, "this node's position in the config's peers")
	seed := flag.Uint64("seed", 0, "seed of the election-timeout jitter (default: the id)")
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
	if err := s.Start(); err != nil {
		fail(err)
	}
	logger.Printf("serving clients on %s, peers on %s", cfg.Clients[*id], cfg.Peers[*id])
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	s.Stop()
}

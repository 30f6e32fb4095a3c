package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"

	"replicant/engines/go-wasm/core"
)

// FileConfig is the JSON configuration every native server reads (docs/protocol.md, "Native
// servers"); a server's id is its position in Peers.
type FileConfig struct {
	CommitIntervalMs uint64   `json:"-"` // commit_interval_ms, 150 when absent
	CheckQuorum      bool     `json:"-"` // check_quorum, true when absent (the paper's mode: false)
	Peers            []string `json:"peers"`
	Clients          []string `json:"clients"`
}

// LoadConfig reads and checks the file; every error names the problem.
func LoadConfig(path string, id int) (FileConfig, error) {
	var fc FileConfig
	data, err := os.ReadFile(path)
	if err != nil {
		return fc, fmt.Errorf("cannot read config: %v", err)
	}
	var raw struct {
		CommitIntervalMs *uint64  `json:"commit_interval_ms"`
		CheckQuorum      *bool    `json:"check_quorum"`
		Peers            []string `json:"peers"`
		Clients          []string `json:"clients"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return fc, fmt.Errorf("config %s is not valid: %v", path, err)
	}
	fc.Peers, fc.Clients, fc.CommitIntervalMs = raw.Peers, raw.Clients, 150 // the paper's default (§3.2.2)
	if raw.CommitIntervalMs != nil {
		fc.CommitIntervalMs = *raw.CommitIntervalMs
	}
	fc.CheckQuorum = raw.CheckQuorum == nil || *raw.CheckQuorum
	switch {
	case len(fc.Peers) == 0 || len(fc.Peers) > core.MaxNumPeers:
		return fc, fmt.Errorf("config: peers must list 1 to %d addresses", core.MaxNumPeers)
	case len(fc.Clients) != len(fc.Peers):
		return fc, fmt.Errorf("config: clients must list one address per peer")
	case id < 0 || id >= len(fc.Peers):
		return fc, fmt.Errorf("config: id %d is not a position in peers (0..%d)", id, len(fc.Peers)-1)
	case fc.CommitIntervalMs < 1 || fc.CommitIntervalMs > 60000:
		return fc, fmt.Errorf("config: commit_interval_ms must be between 1 and 60000")
	}
	for _, a := range append(append([]string{}, fc.Peers...), fc.Clients...) {
		if _, _, err := net.SplitHostPort(a); err != nil {
			return fc, fmt.Errorf("config: bad address %q: %v", a, err)
		}
	}
	return fc, nil
}

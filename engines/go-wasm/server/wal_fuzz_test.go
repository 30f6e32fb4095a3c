package server

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"

	"replicant/engines/go-wasm/core"
)

// walFuzzFile turns a fuzz input into the bytes of a wal.log. The first byte picks the shape:
// even, the rest is the file as it is (frame lengths and checksums as the fuzzer wrote them:
// torn tails and corrupt middles); odd, the rest is records separated by newlines, each framed
// with a good checksum, so the mutations reach the record decoder and the core's restart
// instead of dying at the checksum. The same shape in the four engines' WAL fuzz targets.
func walFuzzFile(in []byte) []byte {
	if len(in) == 0 || in[0]%2 == 0 {
		if len(in) == 0 {
			return nil
		}
		return in[1:]
	}
	var out []byte
	for _, rec := range bytes.Split(in[1:], []byte{'\n'}) {
		var hdr [walFrameHeader]byte
		binary.LittleEndian.PutUint32(hdr[:], uint32(len(rec)))
		binary.LittleEndian.PutUint32(hdr[4:], crc32.Checksum(rec, castagnoli))
		out = append(append(out, hdr[:]...), rec...)
	}
	return out
}

// FuzzWALRecords: whatever a wal.log holds, reading it and restarting a node from it gives
// records or a clear error, never a panic; a record that decodes re-encodes to itself.
func FuzzWALRecords(f *testing.F) {
	f.Add([]byte("\x01" + `{"kind":"promise","ballot":257}` + "\n" +
		`{"kind":"accept","instance":{"ballot":257,"index":1,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"put","key":"k","value":"v"}}}`))
	f.Add([]byte("\x01" + `{"kind":"promise","ballot":18446744073709551615}`))
	f.Add([]byte("\x00\x1f\x00\x00\x00\x00\x00\x00\x00{}"))
	f.Add([]byte("\x00\xff\xff\xff\xff\x01\x02\x03\x04"))
	f.Fuzz(func(t *testing.T, in []byte) {
		records, _, _, err := readFrames("wal.log", walFuzzFile(in))
		if err != nil {
			return
		}
		decoded := make([]core.Record, 0, len(records))
		// The codec leaves content rules to the protocol: a snapshot key with a control character
		// decodes, and the canonical writer (printable ASCII only) cannot say it. A restart with
		// such a record must be refused (testdata/fuzz/FuzzWALRecords/snapshot_control_char_key;
		// it failed this target before).
		unsayable := false
		for _, raw := range records {
			r, err := core.DecodeRecord(raw)
			if err != nil {
				return // the server refuses to start, naming the record
			}
			if again, err := core.DecodeRecord(core.AppendRecord(nil, &r)); err != nil {
				unsayable = true
			} else if string(core.AppendRecord(nil, &again)) != string(core.AppendRecord(nil, &r)) {
				t.Fatalf("record %q does not re-encode to itself", raw)
			}
			decoded = append(decoded, r)
		}
		n := core.NewNode(core.Config{ID: 0, NumPeers: 3, Seed: 1, CommitIntervalUs: 150000, AcceptTimeoutTicks: 3, MaxPendingAccepts: 8, Durability: core.DurabilityLog})
		refused := false
		for _, e := range n.Step(&core.Event{Type: core.EventRestart, Records: decoded}) {
			refused = refused || e.Type == core.EffectError
		}
		if unsayable && !refused {
			t.Fatalf("a restart with a record whose canonical form does not decode was accepted: %s", n.Inspect())
		}
	})
}

package core

import "strconv"

// InspectKVEntries is how many KV entries (in ascending key order) Inspect lists.
const InspectKVEntries = 64

// StatusFields returns the few figures a server's status line reports, spelled as Inspect
// spells them, without the log, the KV entries or anything else that grows with the state:
// the native server logs a status line up to ten times a second under the core's lock, and
// Inspect's work there grows with the log and the store.
func (n *Node) StatusFields() []byte {
	b := make([]byte, 0, 192)
	b = append(b, '{')
	b = n.appendRoleBallotLeader(b, true)
	b = appendUintField(b, "last_index", n.log.LastIndex(), false)
	b = appendUintField(b, "last_executed", n.log.LastExecuted(), false)
	b = appendUintField(b, "global_last_executed", n.log.GlobalLastExecuted(), false)
	b = appendUintField(b, "replay_remaining", uint64(len(n.replayQueue)), false)
	b = appendUintField(b, "elections", n.counters.Elections, false)
	return append(b, '}')
}

// appendRoleBallotLeader writes "role", "ballot" and "leader" (null while there is none), as
// both Inspect and StatusFields spell them.
func (n *Node) appendRoleBallotLeader(b []byte, first bool) []byte {
	role := "follower"
	if n.isLeader() {
		role = "leader"
	} else if n.prepare != nil {
		role = "candidate"
	}
	b = appendStringField(b, "role", role, first)
	b = appendUintField(b, "ballot", n.ballot, false)
	b = appendField(b, "leader", false)
	l := LeaderOf(n.ballot)
	if l == NoLeader {
		return append(b, "null"...)
	}
	return strconv.AppendUint(b, l, 10)
}

// Inspect returns the node's whole state as canonical JSON (docs/protocol.md, "Inspect").
func (n *Node) Inspect() []byte {
	b := []byte{'{'}
	b = appendUintField(b, "id", n.cfg.ID, true)
	b = appendUintField(b, "num_peers", n.cfg.NumPeers, false)
	b = n.appendRoleBallotLeader(b, false)
	b = appendBoolField(b, "commit_received", n.commitReceived, false)
	b = appendUintField(b, "last_index", n.log.LastIndex(), false)
	b = appendUintField(b, "last_executed", n.log.LastExecuted(), false)
	b = appendUintField(b, "global_last_executed", n.log.GlobalLastExecuted(), false)

	b = appendField(b, "log", false)
	b = append(b, '[')
	for i, inst := range n.log.Instances() {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInstance(b, inst)
	}
	b = append(b, ']')

	b = appendField(b, "kv", false)
	b = append(b, '{')
	b = appendUintField(b, "size", uint64(n.kv.Size()), true)
	b = appendStringField(b, "digest", hex16(n.kv.Digest()), false)
	b = appendField(b, "entries", false)
	b = appendKVEntries(b, n.kv.FirstEntries(InspectKVEntries))
	b = append(b, '}')

	b = appendField(b, "prepare", false)
	if p := n.prepare; p == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		b = appendUintField(b, "ballot", p.ballot, true)
		b = appendUintField(b, "channel_id", p.channelID, false)
		b = appendUintField(b, "promises", p.promises, false)
		b = append(b, '}')
	}

	b = appendField(b, "accepts", false)
	b = append(b, '[')
	for i, ph := range n.sortedAccepts() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		b = appendUintField(b, "channel_id", ph.channelID, true)
		b = appendUintField(b, "index", ph.instance.Index, false)
		b = appendUintField(b, "votes", ph.votes, false)
		b = appendUintField(b, "ticks", ph.ticks, false)
		b = appendBoolField(b, "client", ph.client != nil, false)
		b = append(b, '}')
	}
	b = append(b, ']')

	b = appendUintField(b, "replay_remaining", uint64(len(n.replayQueue)), false)
	b = appendField(b, "commit_round", false)
	if r := n.commitRound; r == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '{')
		b = appendUintField(b, "channel_id", r.channelID, true)
		b = appendUintField(b, "answered", r.answeredCount, false)
		b = append(b, '}')
	}
	b = appendUintField(b, "commit_gle", n.commitGle, false)

	c := &n.counters
	b = appendField(b, "counters", false)
	b = append(b, '{')
	b = appendUintField(b, "events", c.Events, true)
	b = appendUintField(b, "messages_in", c.MessagesIn, false)
	b = appendUintField(b, "messages_out", c.MessagesOut, false)
	b = appendUintField(b, "client_commands", c.ClientCommands, false)
	b = appendUintField(b, "replies", c.Replies, false)
	b = appendUintField(b, "executed", c.Executed, false)
	b = appendUintField(b, "elections", c.Elections, false)
	b = appendUintField(b, "bad_events", c.BadEvents, false)
	b = appendUintField(b, "stale_responses", c.StaleResponses, false)
	b = appendUintField(b, "accept_timeouts", c.AcceptTimeouts, false)
	b = appendUintField(b, "violations", c.Violations, false)
	return append(b, '}', '}')
}

func hex16(v uint64) string {
	const digits = "0123456789abcdef"
	var out [16]byte
	for i := 15; i >= 0; i-- {
		out[i] = digits[v&0xf]
		v >>= 4
	}
	return string(out[:])
}

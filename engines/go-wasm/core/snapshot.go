package core

import "sort"

// State transfer (docs/protocol.md, "State transfer"): a follower that needs entries the
// leader has already trimmed (a restarted empty node, a wiped one, one partitioned for long)
// gets the leader's KV store at its last_executed instead, and the leader's repair sends the
// entries after it. Part of repair: only with repair_batch > 0.

// sendSnapshot sends peer the leader's whole KV store, at the leader's last_executed.
func (n *Node) sendSnapshot(peer uint64) {
	n.trace(Trace{Kind: TraceSnapshotSent, Leader: peer, Index: n.log.LastExecuted()})
	n.nextChannelID++
	n.send(Message{Type: Snapshot, From: n.cfg.ID, To: peer, ChannelID: n.nextChannelID, Ballot: n.ballot,
		LastExecuted: n.log.LastExecuted(), KV: n.kv.FirstEntries(n.kv.Size())})
}

// onSnapshot installs a leader's snapshot that is ahead of this node: the KV store is
// replaced, every slot up to its last_executed dropped, and last_executed and gle set to it.
// A request that waited for a dropped slot is told to retry: its slot's command may differ.
// The snapshot's ballot does not matter to a node that does not lead: it is chosen state, and
// a node that followed a higher ballot than its sender's would otherwise stay behind the trim
// point for good (issue 20; docs/protocol.md, "State transfer"). It keeps its own ballot.
func (n *Node) onSnapshot(m *Message) {
	if m.LastExecuted <= n.log.LastExecuted() || (m.Ballot < n.ballot && n.isLeader()) {
		n.counters.StaleResponses++
		return
	}
	if m.Ballot > n.ballot {
		n.becomeFollower(m.Ballot)
	}
	n.installSnapshot(m.LastExecuted, m.KV)
	n.trace(Trace{Kind: TraceSnapshotInstalled, Index: m.LastExecuted})
	if n.durable() {
		n.dur.records = append(n.dur.records, Record{Kind: RecordSnapshot, LastExecuted: m.LastExecuted, KV: m.KV})
	}
	var dropped []uint64
	for index := range n.awaiting {
		if index <= m.LastExecuted {
			dropped = append(dropped, index)
		}
	}
	sort.Slice(dropped, func(a, b int) bool { return dropped[a] < dropped[b] })
	for _, index := range dropped {
		c := n.awaiting[index]
		delete(n.awaiting, index)
		n.reply(c, Result{Type: ResultRetry})
	}
	n.execute()
}

func (n *Node) installSnapshot(lastExecuted uint64, kv [][2]string) {
	n.kv = NewKVStore()
	for _, e := range kv {
		n.kv.Apply(Command{Type: CommandPut, Key: e[0], Value: e[1]})
	}
	n.log.InstallSnapshot(lastExecuted)
}

// InstallSnapshot drops every slot up to lastExecuted and moves the counters there.
func (l *Log) InstallSnapshot(lastExecuted uint64) {
	for index := range l.instances {
		if index <= lastExecuted {
			delete(l.instances, index)
		}
	}
	l.lastExecuted = lastExecuted
	l.globalLastExecuted = lastExecuted
	l.SetLastIndexAtLeast(lastExecuted)
}

// validKVEntries: keys and values valid, keys strictly ascending (one canonical form).
func validKVEntries(kv [][2]string) bool {
	for i, e := range kv {
		if !ValidKey(e[0]) || !ValidValue(e[1]) || (i > 0 && kv[i-1][0] >= e[0]) {
			return false
		}
	}
	return true
}

package core

// Durability (docs/protocol.md, "Durability"): in `log` mode the core names what must be on
// disk (persist effects) and keeps every message and reply back until the driver reports
// that everything persisted so far is there. The core never touches a disk; a restarted node
// is handed its records in a `restart` event.

type Durability uint8

const (
	DurabilityNone Durability = iota // the paper's design: nothing survives a restart
	DurabilityLog                    // promises and accepted instances are persisted first
)

var durabilityNames = [...]string{"none", "log"}

func (d Durability) String() string { return durabilityNames[d] }

type RecordKind uint8

const (
	RecordPromise  RecordKind = iota // the node's ballot: it accepts nothing below
	RecordInstance                   // a log slot as stored (in progress or committed)
	RecordSnapshot                   // an installed snapshot: the KV store at last_executed
	// RecordCheckpoint: the node's own snapshot, first in a batch that also holds its ballot and
	// every slot after last_executed, so the batch supersedes every record written before it.
	RecordCheckpoint
)

var recordKindNames = [...]string{"promise", "instance", "snapshot", "checkpoint"}

func (k RecordKind) String() string { return recordKindNames[k] }

// Record is one durable record: what a persist effect asks for and a restart hands back.
type Record struct {
	Kind     RecordKind
	Ballot   uint64   // promise, checkpoint
	Instance Instance // instance
	// snapshot, checkpoint
	LastExecuted uint64
	KV           [][2]string
}

// heldEffect is a send or reply that waits for persist persistID to complete.
type heldEffect struct {
	persistID uint64
	effect    Effect
}

// durableState is the node's bookkeeping for persist effects (all zero in `none` mode).
type durableState struct {
	started        bool     // a start or restart event was seen; a later restart is bad
	issuedID       uint64   // the last persist id handed out
	doneID         uint64   // the driver reported every persist up to this one done
	recordedBallot uint64   // the ballot of the last promise record
	checkpointedAt uint64   // last_executed at the last checkpoint (or at the restart)
	records        []Record // this step's records, emitted as one persist effect
	held           []heldEffect
}

func (n *Node) durable() bool { return n.cfg.Durability == DurabilityLog }

// recordInstance notes a stored slot for this step's persist effect. A slot stored and then
// committed in the same step (a single node, or a leader's last vote) is written once, as
// its later form: the batch is written whole or its tail is cut, never reordered.
func (n *Node) recordInstance(inst Instance) {
	if !n.durable() {
		return
	}
	rs := n.dur.records
	if k := len(rs) - 1; k >= 0 && rs[k].Kind == RecordInstance && rs[k].Instance.Index == inst.Index {
		rs[k].Instance = inst
		return
	}
	n.dur.records = append(rs, Record{Kind: RecordInstance, Instance: inst})
}

// finishDurableStep ends a step in `log` mode: a changed ballot becomes a promise record
// (first in the batch), the records become one persist effect, and while any persist is
// outstanding every send and reply of the step waits for the newest one. Holding all of them,
// not only those that reveal a promise or an acceptance, keeps the rule one line long; the
// leader's own accept_request waits too, so no vote counts before the leader's own is on disk.
func (n *Node) finishDurableStep() {
	d := &n.dur
	if n.checkpointDue() {
		n.takeCheckpoint()
	} else if n.ballot != d.recordedBallot {
		d.records = append([]Record{{Kind: RecordPromise, Ballot: n.ballot}}, d.records...)
		d.recordedBallot = n.ballot
	}
	if len(d.records) > 0 {
		d.issuedID++
	}
	if d.issuedID > d.doneID {
		kept := n.effects[:0]
		for _, e := range n.effects {
			if e.Type == EffectSend || e.Type == EffectReply {
				d.held = append(d.held, heldEffect{persistID: d.issuedID, effect: e})
			} else {
				kept = append(kept, e)
			}
		}
		n.effects = kept
	}
	if len(d.records) > 0 {
		n.effects = append(n.effects, Effect{Type: EffectPersist, PersistID: d.issuedID,
			Records: append([]Record(nil), d.records...)})
		d.records = d.records[:0]
	}
}

// checkpointDue: snapshot_every instances were executed since the last checkpoint.
func (n *Node) checkpointDue() bool {
	every := n.cfg.SnapshotEvery
	return every > 0 && n.log.LastExecuted() >= n.dur.checkpointedAt+every
}

// takeCheckpoint replaces this step's records by a checkpoint: the ballot and the KV store at
// last_executed, then every slot after it as stored. Everything the step recorded is in it, and
// so is everything recorded before, so a driver may drop every earlier record once it is written.
func (n *Node) takeCheckpoint() {
	d := &n.dur
	le := n.log.LastExecuted()
	d.records = append(d.records[:0], Record{Kind: RecordCheckpoint, Ballot: n.ballot, LastExecuted: le,
		KV: n.kv.FirstEntries(n.kv.Size())})
	for _, inst := range n.log.Instances() {
		if inst.Index > le {
			d.records = append(d.records, Record{Kind: RecordInstance, Instance: inst})
		}
	}
	d.recordedBallot = n.ballot
	d.checkpointedAt = le
}

// onPersisted releases, in their original order, the effects that waited for persists up to
// id. Persists complete in the order they were issued, so one id covers all before it.
func (n *Node) onPersisted(id uint64) {
	d := &n.dur
	if id == 0 || id > d.issuedID {
		n.badEvent()
		return
	}
	if id <= d.doneID {
		return // already reported
	}
	d.doneID = id
	released := 0
	for _, h := range d.held {
		if h.persistID > id {
			break
		}
		n.effects = append(n.effects, h.effect)
		released++
	}
	d.held = append(d.held[:0], d.held[released:]...)
}

// validRecord applies the semantic checks of a peer message to a record read back from disk.
func (n *Node) validRecord(r *Record) bool {
	num := n.cfg.NumPeers
	switch r.Kind {
	case RecordPromise:
		return LeaderOf(r.Ballot) < num || LeaderOf(r.Ballot) == NoLeader
	case RecordInstance:
		inst := &r.Instance
		return inst.Index >= 1 && LeaderOf(inst.Ballot) < num && inst.State != Executed
	case RecordSnapshot:
		return validKVEntries(r.KV)
	case RecordCheckpoint:
		return (LeaderOf(r.Ballot) < num || LeaderOf(r.Ballot) == NoLeader) && validKVEntries(r.KV)
	}
	return false
}

// onRestart boots the node from its persisted records: the highest promise, the slots as
// last stored (a later record of a slot replaces an earlier one), then the executor replays
// the committed prefix into the KV store. A node that led comes back leading nobody, at its
// round, so it cannot send under a ballot it may have used before the crash.
func (n *Node) onRestart(records []Record) {
	if n.dur.started {
		n.badEvent()
		return
	}
	for i := range records {
		if !n.validRecord(&records[i]) {
			n.badEvent()
			return
		}
	}
	n.dur.started = true
	ballot := n.ballot
	for _, r := range records {
		switch r.Kind {
		case RecordPromise:
			ballot = max(ballot, r.Ballot)
		case RecordInstance:
			if r.Instance.Index > n.log.GlobalLastExecuted() { // not inside an installed snapshot
				n.log.Restore(r.Instance)
			}
			ballot = max(ballot, r.Instance.Ballot)
		case RecordSnapshot, RecordCheckpoint:
			if r.LastExecuted > n.log.LastExecuted() {
				n.installSnapshot(r.LastExecuted, r.KV)
			}
			if r.Kind == RecordCheckpoint {
				ballot = max(ballot, r.Ballot)
			}
		}
	}
	if LeaderOf(ballot) == n.cfg.ID {
		ballot = ballot&^0xff | NoLeader // above the recorded one: no new record needed
	}
	n.ballot = ballot
	n.dur.recordedBallot = ballot
	n.trace(Trace{Kind: TraceRecovered, Ballot: n.ballot, LastIndex: n.log.LastIndex(), Count: uint64(len(records))})
	n.execute()
	n.dur.checkpointedAt = n.log.LastExecuted()
	n.setTimer(TimerElection, n.electionDelayUs())
}

// Restore puts a slot back exactly as a record holds it (restart only).
func (l *Log) Restore(inst Instance) {
	l.instances[inst.Index] = inst
	l.SetLastIndexAtLeast(inst.Index)
}

func (n *Node) checkDurableInvariants() {
	d := &n.dur
	if d.doneID > d.issuedID {
		panic("invariant: persist done beyond the last issued")
	}
	if len(d.held) > 0 && (d.held[0].persistID <= d.doneID || d.held[len(d.held)-1].persistID > d.issuedID) {
		panic("invariant: a held effect waits for a persist already done or never issued")
	}
	if !n.durable() && (d.issuedID != 0 || len(d.held) != 0) {
		panic("invariant: persist state in durability none")
	}
	if n.durable() && d.recordedBallot != n.ballot {
		panic("invariant: the ballot is not recorded")
	}
}

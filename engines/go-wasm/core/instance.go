package core

type InstanceState uint8

const (
	InProgress InstanceState = iota
	Committed
	Executed
)

var instanceStateNames = [...]string{"in_progress", "committed", "executed"}

func (s InstanceState) String() string { return instanceStateNames[s] }

// Instance is one slot of the replicated log.
type Instance struct {
	Ballot    uint64
	Index     uint64
	ClientID  uint64
	RequestID uint64
	State     InstanceState
	Command   Command
}

package core

// A ballot is a 64-bit number: the low 8 bits name the node that chose it, the rest is the
// round. Every ballot we produce stays below 2^53 so that JavaScript can read it exactly.
const (
	// NoLeader in a ballot's low byte means no node leads yet.
	NoLeader       = 0xf
	InitialBallot  = uint64(NoLeader)
	roundIncrement = 0x100
	idBits         = 0xff
	// MaxNumPeers is 15: id 15 would read as NoLeader.
	MaxNumPeers = 15
)

// LeaderOf is the id held in a ballot's low byte (NoLeader for none).
func LeaderOf(ballot uint64) uint64 { return ballot & idBits }

// NextBallot is the first ballot of the next round, owned by id.
func NextBallot(ballot uint64, id uint64) uint64 {
	return ((ballot + roundIncrement) &^ idBits) | id
}

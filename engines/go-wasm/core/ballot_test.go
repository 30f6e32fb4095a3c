package core

import "testing"

func TestNextBallotRaisesRoundAndSetsOwner(t *testing.T) {
	cases := []struct{ ballot, id, want uint64 }{
		{InitialBallot, 0, 0x100},
		{InitialBallot, 2, 0x102},
		{0x101, 0, 0x200},
		{0x2ff, 5, 0x305},
	}
	for _, c := range cases {
		if got := NextBallot(c.ballot, c.id); got != c.want {
			t.Errorf("NextBallot(%#x, %d) = %#x, want %#x", c.ballot, c.id, got, c.want)
		}
	}
}

func TestLeaderOf(t *testing.T) {
	if LeaderOf(InitialBallot) != NoLeader || LeaderOf(0x203) != 3 {
		t.Fatal("LeaderOf must read the low byte")
	}
}

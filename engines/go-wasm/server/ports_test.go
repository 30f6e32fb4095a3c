package server

import (
	"fmt"
	"math/rand"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Test clusters listen on ports from below the kernel's ephemeral range. A port that
// listen(":0") handed out and we then released can be taken, before the server binds it, as
// the source port of any outgoing connection on the machine (another test package's clients
// run at the same time), and the server fails with "address already in use" (seen in CI:
// TestDurableClusterLogStaysBoundedAndRestartsFromItsSnapshot). Source ports come only from
// the ephemeral range, so a port below it stays ours once we have probed it free.
// engines/cluster/ports.ts does the same for the TypeScript cluster tests.

// lowestTestPort keeps clear of well-known and registered services.
const lowestTestPort = 10_000

// ephemeralRange is the kernel's range of source ports (Linux's default when /proc does not say).
func ephemeralRange() (int, int) {
	lo, hi := 32768, 60999
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return lo, hi
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return lo, hi
	}
	l, err1 := strconv.Atoi(f[0])
	h, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || l < 1 || h > 65535 || l > h {
		return lo, hi
	}
	return l, h
}

// freeAddrs returns n loopback addresses whose ports are free now and outside the ephemeral
// range, walking from a random start so test processes running side by side rarely probe the
// same ports.
func freeAddrs(t *testing.T, n int) []string {
	t.Helper()
	lo, _ := ephemeralRange()
	first, last := lowestTestPort, lo-1
	if last-first+1 < n {
		t.Fatalf("no room for %d ports below the ephemeral range starting at %d", n, lo)
	}
	width := last - first + 1
	start := rand.Intn(width)
	var out []string
	for i := 0; i < width && len(out) < n; i++ {
		addr := fmt.Sprintf("127.0.0.1:%d", first+(start+i)%width)
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			continue
		}
		ln.Close()
		out = append(out, addr)
	}
	if len(out) < n {
		t.Fatalf("found only %d of %d free ports in %d-%d", len(out), n, first, last)
	}
	return out
}

func TestFreeAddrsAreOutsideTheEphemeralRangeAndDistinct(t *testing.T) {
	lo, hi := ephemeralRange()
	addrs := freeAddrs(t, 6)
	seen := map[string]bool{}
	for _, a := range addrs {
		_, p, err := net.SplitHostPort(a)
		if err != nil {
			t.Fatal(err)
		}
		port, _ := strconv.Atoi(p)
		if port >= lo && port <= hi {
			t.Fatalf("%s is inside the ephemeral range %d-%d: an outgoing connection can take it before the server binds", a, lo, hi)
		}
		if seen[a] {
			t.Fatalf("%s handed out twice in %v", a, addrs)
		}
		seen[a] = true
	}
}

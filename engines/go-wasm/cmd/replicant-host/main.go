// replicant-host drives Go cores over stdin/stdout for the conformance harness, speaking the
// host protocol of engines/conformance/README.md: each request is a line
// "<op> <handle> <length>" followed by <length> bytes; each response is "ok <length>" or
// "err <length>" followed by that many bytes.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"replicant/engines/go-wasm/core"
	"replicant/engines/go-wasm/runtimestats"
)

const maxPayloadBytes = 256 << 20

func main() {
	// The host serves only the test harnesses, so every step checks the core's invariants.
	core.CheckInvariants = true
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	nodes := map[int]*core.Node{}
	nextHandle := 1
	for {
		header, err := in.ReadString('\n')
		if err == io.EOF && header == "" {
			return
		}
		if err != nil {
			fail("reading request: %v", err)
		}
		parts := strings.Fields(header)
		if len(parts) != 3 {
			fail("malformed request header %q", header)
		}
		handle, err1 := strconv.Atoi(parts[1])
		length, err2 := strconv.Atoi(parts[2])
		if err1 != nil || err2 != nil || length < 0 || length > maxPayloadBytes {
			fail("malformed request header %q", header)
		}
		payload := make([]byte, length)
		if _, err := io.ReadFull(in, payload); err != nil {
			fail("reading payload: %v", err)
		}
		node := nodes[handle]
		if parts[0] != "create" && node == nil {
			respond(out, "err", []byte("no node with handle "+parts[1]))
			continue
		}
		switch parts[0] {
		case "create":
			cfg, err := core.DecodeConfig(payload)
			if err != nil {
				respond(out, "err", []byte(err.Error()))
				continue
			}
			nodes[nextHandle] = core.NewNode(cfg)
			respond(out, "ok", []byte(strconv.Itoa(nextHandle)))
			nextHandle++
		case "step":
			respond(out, "ok", node.StepJSON(payload))
		case "inspect":
			respond(out, "ok", node.Inspect())
		case "stats":
			respond(out, "ok", runtimestats.JSON())
		case "destroy":
			delete(nodes, handle)
			respond(out, "ok", nil)
		default:
			respond(out, "err", []byte("unknown op "+parts[0]))
		}
	}
}

func respond(out *bufio.Writer, status string, payload []byte) {
	fmt.Fprintf(out, "%s %d\n", status, len(payload))
	out.Write(payload)
	if err := out.Flush(); err != nil {
		fail("writing response: %v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "replicant-host: "+format+"\n", args...)
	os.Exit(2)
}

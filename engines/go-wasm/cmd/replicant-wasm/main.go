//go:build js && wasm

// The js/wasm build of the Go core. It installs an object with create / step / inspect /
// stats / destroy on globalThis under the name given as the program's first argument, so
// that several instances (one per simulated node, each with its own memory) can live in one
// JavaScript realm.
package main

import (
	"os"
	"syscall/js"
	"unsafe"

	"replicant/engines/go-wasm/core"
	"replicant/engines/go-wasm/runtimestats"
)

// The nodes by handle, shared by the syscall/js functions and the byte exports.
var (
	nodes      = map[int]*core.Node{}
	nextHandle = 1
)

// The hot path's byte exports over linear memory, the same convention as the C++ module
// (engines/cpp-wasm/wasm/replicant_wasm.cc): rc_input(n) hands out an n-byte input buffer,
// rc_step(handle, n) steps on the n bytes written there and returns the effects' length (-1:
// unknown handle), rc_output() is their address. Plain wasm exports skip syscall/js's
// per-call event hand-off and its string copies (engines/loader/linear-memory.ts).
var (
	input  []byte
	output []byte
)

//go:wasmexport rc_input
func rcInput(length int32) unsafe.Pointer {
	need := max(int(length), 1)
	if len(input) < need {
		size := 4096
		for size < need {
			size *= 2
		}
		input = make([]byte, size)
	}
	return unsafe.Pointer(&input[0])
}

//go:wasmexport rc_step
func rcStep(handle, length int32) int32 {
	return stepInput(handle, length, (*core.Node).StepJSON)
}

// rc_step in the binary encoding (docs/protocol.md, "Binary step").
//
//go:wasmexport rc_step_binary
func rcStepBinary(handle, length int32) int32 {
	return stepInput(handle, length, (*core.Node).StepBinary)
}

// Several binary events for one node in one call (docs/protocol.md, "Batch step"); -2: bad
// framing, nothing stepped.
//
//go:wasmexport rc_step_batch
func rcStepBatch(handle, length int32) int32 {
	n := nodes[int(handle)]
	if n == nil || length < 0 || int(length) > len(input) {
		return -1
	}
	out, ok := n.StepBatch(input[:length])
	if !ok {
		return badBatchFraming
	}
	output = out
	return int32(len(output))
}

// What rc_step_batch returns when the frames do not hold (the other cores' value).
const badBatchFraming = -2

func stepInput(handle, length int32, step func(*core.Node, []byte) []byte) int32 {
	n := nodes[int(handle)]
	if n == nil || length < 0 || int(length) > len(input) {
		return -1
	}
	output = step(n, input[:length])
	return int32(len(output))
}

//go:wasmexport rc_output
func rcOutput() unsafe.Pointer {
	if len(output) == 0 {
		return nil
	}
	return unsafe.Pointer(&output[0])
}

func main() {
	name := "replicantGo"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	// Each function returns undefined for an unknown handle; the loader turns that into an
	// exception (a panic here would end the Go program).
	withNode := func(f func(n *core.Node, args []js.Value) any) js.Func {
		return js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) == 0 || args[0].Type() != js.TypeNumber {
				return js.Undefined()
			}
			n := nodes[args[0].Int()]
			if n == nil {
				return js.Undefined()
			}
			return f(n, args)
		})
	}
	api := js.Global().Get("Object").New()
	api.Set("create", js.FuncOf(func(_ js.Value, args []js.Value) any {
		cfg, err := core.DecodeConfig([]byte(args[0].String()))
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		nodes[nextHandle] = core.NewNode(cfg)
		nextHandle++
		return map[string]any{"handle": nextHandle - 1}
	}))
	api.Set("step", withNode(func(n *core.Node, args []js.Value) any {
		return string(n.StepJSON([]byte(args[1].String())))
	}))
	api.Set("inspect", withNode(func(n *core.Node, _ []js.Value) any {
		return string(n.Inspect())
	}))
	api.Set("stats", withNode(func(_ *core.Node, _ []js.Value) any {
		return string(runtimestats.JSON())
	}))
	api.Set("destroy", js.FuncOf(func(_ js.Value, args []js.Value) any {
		delete(nodes, args[0].Int())
		return nil
	}))
	js.Global().Set(name, api)
	select {} // keep the exported functions alive
}

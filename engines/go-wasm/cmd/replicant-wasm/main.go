//go:build js && wasm

// The js/wasm build of the Go core. It installs an object with create / step / inspect /
// stats / destroy on globalThis under the name given as the program's first argument, so
// that several instances (one per simulated node, each with its own memory) can live in one
// JavaScript realm.
package main

import (
	"os"
	"syscall/js"

	"replicant/engines/go-wasm/core"
	"replicant/engines/go-wasm/runtimestats"
)

func main() {
	name := "replicantGo"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	nodes := map[int]*core.Node{}
	nextHandle := 1
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

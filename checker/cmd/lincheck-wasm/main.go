//go:build js && wasm

// The js/wasm build of the checker. It installs, on globalThis under the name given as the
// program's first argument (default "replicantLincheck"), an object with
//
//	check(historyText, withHtml) -> {verdict: "<Verdict JSON>", html?: "<page>"} | {error: "..."}
//
// and then parks, so one instance serves any number of checks.
package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"syscall/js"

	"replicant/checker/lincheck"
)

func main() {
	name := "replicantLincheck"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	api := js.Global().Get("Object").New()
	api.Set("check", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return map[string]any{"error": "check needs the history text"}
		}
		h, err := lincheck.ParseHistory(strings.NewReader(args[0].String()))
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		// No timeout: js/wasm has no preemption, so a timer could not interrupt the search;
		// callers bound the history size, or end the worker (the Lab's check: web/src/cluster/check-state.ts).
		c := lincheck.Check(h, 0)
		v, _ := json.Marshal(c.Verdict)
		out := map[string]any{"verdict": string(v)}
		if len(args) > 1 && args[1].Truthy() {
			var buf bytes.Buffer
			if err := c.WriteHTML(&buf); err != nil {
				return map[string]any{"error": err.Error()}
			}
			out["html"] = buf.String()
		}
		return out
	}))
	js.Global().Set(name, api)
	select {}
}

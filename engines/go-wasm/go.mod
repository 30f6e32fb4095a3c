module replicant/engines/go-wasm

go 1.26
